//! `DIR/standings.json` and `DIR/standings.md` (schemas in docs/output-files.md).

use std::path::Path;

use anyhow::Context;

use crate::tournament::standings::Standings;

/// Writes `DIR/standings.json` and `DIR/standings.md`, each through a temporary file and a
/// rename (complete or not at all). Errors: unwritable folder, disk full (one line; the
/// results stay in the database).
pub fn write_standings(dir: &Path, standings: &Standings) -> anyhow::Result<()> {
    let json = serde_json::to_string_pretty(standings)? + "\n";
    for (name, text) in [("standings.json", json), ("standings.md", standings.to_markdown())] {
        let (tmp, path) = (dir.join(format!(".{name}.tmp")), dir.join(name));
        std::fs::write(&tmp, text).and_then(|_| std::fs::rename(&tmp, &path)).with_context(|| {
            format!("cannot write {} (check free space); results are kept in the database", path.display())
        })?;
    }
    Ok(())
}
