//! A command whose part was left out of this build (`cargo install --no-default-features`):
//! it still parses, whatever follows it, and answers one line naming the feature to build
//! it with, instead of clap's "unrecognized subcommand".

use std::ffi::OsString;

use crate::messages::{CodedError, ErrorCode};

/// Whatever followed the command's name (not read).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The command's arguments, ignored.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
    pub rest: Vec<OsString>,
}

/// The error of `mjai-sim COMMAND` in a build without `feature`: a bad option (exit 1)
/// naming the cause and the fix.
pub fn run(command: &str, feature: &str) -> anyhow::Result<i32> {
    Err(CodedError::new(
        ErrorCode::BadOption,
        format!(
            "`mjai-sim {command}` is not in this build (built without the `{feature}` feature); \
             install the default build (`cargo install --path .`) or add `--features {feature}`"
        ),
    )
    .into())
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_left_out_command_names_its_feature_and_the_fix() {
        let e = super::run("serve", "server").unwrap_err().to_string();
        assert!(e.starts_with("`mjai-sim serve` is not in this build"), "{e}");
        assert!(e.contains("the `server` feature") && e.contains("--features server"), "{e}");
        assert!(!e.contains('\n'), "one line: {e}");
    }
}
