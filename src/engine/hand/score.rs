//! Points for a scored hand (issue 2).

use super::{HandScore, NoWin, WinContext};

pub(crate) fn evaluate(ctx: &WinContext) -> Result<HandScore, NoWin> {
    let _ = ctx;
    unimplemented!("issue 2: evaluate")
}
