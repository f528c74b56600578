//! `mjai-sim.toml`: what a submission asks of the referee, at the root of its zip or
//! folder. Optional; today it says one thing:
//!
//! ```toml
//! # serve every seat this bot holds, in every game of the run, from one process:
//! # python3 -u bot.py --batch (docs/protocol.md "Batched bots")
//! batch = true
//! # the batch protocol the bot speaks (optional; 1, the only one so far)
//! batch_protocol = 1
//! ```
//!
//! Unknown keys are refused, so a misspelt key is an error at intake rather than a silent
//! default.

use serde::Deserialize;

/// The file's name at the submission's root.
pub const MANIFEST: &str = "mjai-sim.toml";

/// The batch protocol versions this referee speaks.
pub const BATCH_PROTOCOLS: [u32; 1] = [1];

/// A submission's `mjai-sim.toml` (all defaults when it has none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Serve every seat from one process started with `--batch` (default false: one
    /// process per seat, `bot.py SEAT`).
    #[serde(default)]
    pub batch: bool,
    /// The batch protocol version (default 1).
    #[serde(default = "first_protocol")]
    pub batch_protocol: u32,
}

fn first_protocol() -> u32 {
    1
}

impl Manifest {
    /// Parses the file's text. Errors: one line naming the problem and the fix (bad TOML,
    /// an unknown key, a protocol this referee does not speak).
    pub fn parse(text: &str) -> Result<Manifest, String> {
        let manifest: Manifest = toml::from_str(text).map_err(|e| {
            let first = e.message().lines().next().unwrap_or("invalid").to_string();
            format!("{MANIFEST}: {first} (known keys: batch = true|false, batch_protocol = 1)")
        })?;
        if !BATCH_PROTOCOLS.contains(&manifest.batch_protocol) {
            return Err(format!(
                "{MANIFEST}: batch_protocol = {} is not one this mjai-sim speaks (1); upgrade mjai-sim or set batch_protocol = 1",
                manifest.batch_protocol
            ));
        }
        Ok(manifest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manifest_opts_in_and_defaults_to_one_process_per_seat() {
        assert_eq!(Manifest::parse("").unwrap(), Manifest { batch: false, batch_protocol: 1 });
        assert_eq!(Manifest::parse("batch = true\n").unwrap(), Manifest { batch: true, batch_protocol: 1 });
        assert_eq!(Manifest::parse("batch = true\nbatch_protocol = 1\n").unwrap().batch_protocol, 1);
    }

    #[test]
    fn misspelt_keys_bad_values_and_unknown_protocols_are_refused_with_the_fix() {
        assert!(Manifest::parse("bacth = true").unwrap_err().contains("known keys"));
        assert!(Manifest::parse("batch = \"yes\"").unwrap_err().starts_with("mjai-sim.toml: "));
        assert!(Manifest::parse("batch = [").is_err());
        assert!(Manifest::parse("batch = true\nbatch_protocol = 2").unwrap_err().contains("batch_protocol = 2"));
    }
}
