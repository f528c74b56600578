//! riichienv 0.4.8 (what riichi.dev's server sends and its Python bots run), from the
//! virtualenv scripts/test makes: scripts/riichi_dev_client.py and
//! scripts/crosscheck_observations.py run by it (issue 53).
#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, ExitStatus};

use serde_json::Value;

/// The python3 of the virtualenv with riichienv 0.4.8 that scripts/test makes and names in
/// `MJAI_SIM_RIICHIENV_048`.
pub fn python() -> String {
    std::env::var("MJAI_SIM_RIICHIENV_048").unwrap_or_else(|_| {
        let default = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/py-riichienv-0.4.8/bin/python3");
        assert!(
            default.exists(),
            "MJAI_SIM_RIICHIENV_048 is not set: run the tests with scripts/test (it makes the riichienv 0.4.8 virtualenv)"
        );
        default.display().to_string()
    })
}

/// A script of scripts/ by name.
pub fn script(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts").join(name)
}

/// Plays `url` with `token` through scripts/riichi_dev_client.py (riichienv 0.4.8's
/// `Observation` over `websockets`, as riichi.dev's Python bots), `extra` its further
/// arguments, writing its report to `report`: the report and the exit status.
pub fn client(url: &str, token: &str, report: &Path, extra: &[&str]) -> (Value, ExitStatus) {
    let _ = std::fs::remove_file(report);
    let out = Command::new(python())
        .arg(script("riichi_dev_client.py"))
        .args([url, "--token", token, "--report"])
        .arg(report)
        .args(extra)
        .output()
        .unwrap();
    let text =
        std::fs::read(report).unwrap_or_else(|e| panic!("no report ({e}): {}", String::from_utf8_lossy(&out.stderr)));
    (serde_json::from_slice(&text).unwrap(), out.status)
}
