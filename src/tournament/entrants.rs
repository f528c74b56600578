//! The bots of a tournament as given on the command line: `NAME=BOT` or `BOT` (named after
//! its file stem or built-in name), checked once (intake) and fingerprinted (sha256).

use std::path::Path;
use std::sync::Arc;

use sha2::{Digest, Sha256};

use super::pool::LoadedBot;
use super::store::BotRow;
use mjai_sim_arena::launch::{BotRef, BotRefused, BotSpec};
use mjai_sim_runtime::submission::{Submission, SubmissionLimits};

/// One bot argument: its display name and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entrant {
    /// Display name, shown everywhere (standings, progress).
    pub name: String,
    /// The BOT itself.
    pub spec: BotSpec,
}

/// Parses `NAME=BOT` or `BOT`. A `=` counts only when the text before it has no `/`
/// (so paths holding `=` still work). Errors: an empty name or BOT.
pub fn parse(arg: &str) -> Result<Entrant, String> {
    let (name, bot) = match arg.split_once('=') {
        Some((n, b)) if !n.contains('/') => (Some(n.trim()), b),
        _ => (None, arg),
    };
    if name == Some("") {
        return Err(format!("`{arg}`: empty name before `=`; write NAME=BOT, e.g. alice=bots/alice.zip"));
    }
    let spec: BotSpec = bot.parse()?;
    let name = name.map(str::to_string).unwrap_or_else(|| default_name(&spec));
    Ok(Entrant { name, spec })
}

/// `builtin:NAME` → `NAME`; a path → its file stem (`bots/alice.zip` → `alice`).
fn default_name(spec: &BotSpec) -> String {
    match spec {
        BotSpec::Builtin(name) | BotSpec::Remote(name) | BotSpec::RiichiDev(name) => name.clone(),
        BotSpec::Submission(path) => path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| path.display().to_string()),
    }
}

/// Makes names unique by suffixing repeats: `tsumogiri`, `tsumogiri#2`, ...
pub fn unique_names(entrants: &mut [Entrant]) {
    let mut seen: Vec<String> = Vec::new();
    for e in entrants.iter_mut() {
        let base = e.name.clone();
        let mut n = 1;
        while seen.contains(&e.name) {
            n += 1;
            e.name = format!("{base}#{n}");
        }
        seen.push(e.name.clone());
    }
}

/// Checks every bot (built-in names, submission intake), once, before any game. Returns
/// the loaded bots and their store rows (with sha256). Errors: the first bad bot, one line
/// naming it and the fix.
pub fn load(entrants: &[Entrant], limits: &SubmissionLimits) -> anyhow::Result<(Vec<LoadedBot>, Vec<BotRow>)> {
    let mut loaded = Vec::with_capacity(entrants.len());
    let mut rows = Vec::with_capacity(entrants.len());
    for (idx, e) in entrants.iter().enumerate() {
        let (bot, sha256) = match &e.spec {
            BotSpec::Builtin(name) => {
                mjai_sim_runtime::builtin::BuiltinBot::from_spec(name)
                    .map_err(|err| BotRefused::new(BotRef::Named(e.name.clone()), err))?;
                (LoadedBot::Builtin(name.clone()), hex::encode(Sha256::digest(format!("builtin:{name}"))))
            }
            BotSpec::Submission(path) => {
                let sub = Submission::load(path, limits)
                    .map_err(|err| BotRefused::new(BotRef::Named(e.name.clone()), err))?;
                let sha = submission_sha256(path, &sub)?;
                (LoadedBot::Submission(Arc::new(sub)), sha)
            }
            BotSpec::Remote(name) => (LoadedBot::Remote(name.clone()), super::store::remote_sha256(name)),
            BotSpec::RiichiDev(name) => (LoadedBot::RiichiDev(name.clone()), super::store::riichi_dev_sha256(name)),
        };
        loaded.push(bot);
        rows.push(BotRow { idx, name: e.name.clone(), spec: e.spec.to_string(), sha256 });
    }
    Ok((loaded, rows))
}

/// sha256 of the submission's bytes: of the `.zip` file as it is, or, for a folder, of its
/// files in path order (path, NUL, mode, NUL, length, NUL, bytes each).
fn submission_sha256(path: &Path, sub: &Submission) -> anyhow::Result<String> {
    if path.is_file() {
        return crate::store::sha256_file(path).map_err(|e| anyhow::anyhow!("{}: cannot read ({e})", path.display()));
    }
    let mut h = Sha256::new();
    for f in sub.files() {
        h.update(f.path.as_bytes());
        h.update([0]);
        h.update(f.mode.to_string().as_bytes());
        h.update([0]);
        h.update(f.len.to_string().as_bytes());
        h.update([0]);
        let copy = std::fs::File::open(sub.path_of(f)).and_then(|mut file| std::io::copy(&mut file, &mut h));
        copy.map_err(|e| anyhow::anyhow!("{}: cannot read {} ({e})", path.display(), f.path))?;
    }
    Ok(hex::encode(h.finalize()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_come_from_name_eq_or_the_stem() {
        let a = parse("alice=bots/a.zip").unwrap();
        assert_eq!((a.name.as_str(), a.spec.to_string().as_str()), ("alice", "bots/a.zip"));
        assert_eq!(parse("bots/bob.zip").unwrap().name, "bob");
        assert_eq!(parse("builtin:rulebase").unwrap().name, "rulebase");
        assert_eq!(parse("dir/x=y/bot").unwrap().spec, BotSpec::Submission("dir/x=y/bot".into()));
        assert!(parse("=builtin:tsumogiri").unwrap_err().contains("empty name"));
        let mut es: Vec<Entrant> = ["builtin:tsumogiri", "builtin:tsumogiri", "x=builtin:tsumogiri"]
            .iter()
            .map(|a| parse(a).unwrap())
            .collect();
        unique_names(&mut es);
        let names: Vec<&str> = es.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["tsumogiri", "tsumogiri#2", "x"]);
    }

    #[test]
    fn a_folder_hash_changes_with_its_content() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("bot.py"), "print(1)\n").unwrap();
        let e = Entrant { name: "b".into(), spec: BotSpec::Submission(tmp.path().to_path_buf()) };
        let (_, first) = load(std::slice::from_ref(&e), &SubmissionLimits::default()).unwrap();
        std::fs::write(tmp.path().join("bot.py"), "print(2)\n").unwrap();
        let (_, second) = load(&[e], &SubmissionLimits::default()).unwrap();
        assert_eq!(first[0].sha256.len(), 64);
        assert_ne!(first[0].sha256, second[0].sha256);
        let err = load(&[parse("builtin:nope").unwrap()], &SubmissionLimits::default()).err().unwrap();
        assert!(err.to_string().starts_with("nope:"), "{err}");
    }
}
