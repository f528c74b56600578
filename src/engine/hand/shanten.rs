//! Shanten and waits (issue 2).

use crate::engine::tile::KINDS;

pub(crate) fn shanten(counts: &[u8; KINDS], melds: u8) -> i8 {
    let _ = (counts, melds);
    unimplemented!("issue 2: shanten")
}

pub(crate) fn waits(counts: &[u8; KINDS], melds: u8) -> u64 {
    let _ = (counts, melds);
    unimplemented!("issue 2: waits")
}
