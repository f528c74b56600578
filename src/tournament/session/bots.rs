//! A tournament's bots as a run plays them: built-ins by name, submissions from their
//! paths (a tournament folder) or from the database by sha256 (no shared disk), checked
//! again by intake either way.

use std::path::Path;

use anyhow::Context;
use std::sync::Arc;

use sha2::{Digest, Sha256};

use crate::config::TournamentConfig;
use crate::pool::LoadedBot;
use crate::store::retry::{retry, Patience};
use crate::store::{BotRow, Store};
use crate::submission_cache::SubmissionCache;
use mjai_sim_arena::launch::BotSpec;
use mjai_sim_runtime::submission::Submission;

/// Games at once by default when every submission is a batched bot: enough tables to
/// keep its cycles full (`--jobs`/`--tables` to change it).
pub const BATCH_TABLES: usize = 32;

/// Games at once by default: one per CPU for built-in bots (the engine is CPU-bound); two
/// per CPU with submissions (a game mostly waits on its bots' answers and container starts).
pub fn default_jobs(has_submissions: bool) -> usize {
    let cpus = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    if has_submissions {
        cpus * 2
    } else {
        cpus
    }
}

/// The bots of `rows`: submissions are read from the database, never from the path they
/// were given as, through this host's `cache` (fetched once per host; without one, into a
/// temporary file each time), streamed to disk and unpacked from there (memory does not
/// grow with a submission's size). Errors: a submission missing or damaged (one line
/// naming the bot), the cache folder unwritable.
pub async fn load_rows(
    store: &Store,
    config: &TournamentConfig,
    rows: &[BotRow],
    patience: &Patience,
    cache: Option<&SubmissionCache>,
) -> anyhow::Result<Vec<LoadedBot>> {
    let mut loaded = Vec::with_capacity(rows.len());
    for r in rows {
        let spec: BotSpec = r.spec.parse().map_err(|e: String| anyhow::anyhow!("bot {}: {e}", r.name))?;
        loaded.push(match spec {
            BotSpec::Builtin(name) => LoadedBot::Builtin(name),
            BotSpec::Remote(name) => LoadedBot::Remote(name),
            BotSpec::RiichiDev(name) => LoadedBot::RiichiDev(name),
            BotSpec::Submission(_) => {
                let missing = || {
                    anyhow::anyhow!(
                        "{}: bot {}: submission {} is not in the database; create the tournament again",
                        store.name(),
                        r.name,
                        r.sha256
                    )
                };
                let limits = config.submission_limits();
                let label = Path::new(&r.name).to_path_buf();
                let sub = match cache {
                    Some(cache) => {
                        let file = retry("read a submission", patience, || cache.open_zip(store, &r.sha256))
                            .await?
                            .ok_or_else(missing)?;
                        tokio::task::spawn_blocking(move || Submission::from_open_zip(&label, file, &limits)).await?
                    }
                    None => {
                        let temp = tempfile::NamedTempFile::new().context("cannot create a temporary file")?;
                        retry("read a submission", patience, || store.blobs().write_submission(&r.sha256, temp.path()))
                            .await?
                            .ok_or_else(missing)?;
                        let path = temp.path().to_path_buf();
                        let sub =
                            tokio::task::spawn_blocking(move || Submission::from_zip_file(&label, &path, &limits));
                        sub.await?
                    }
                };
                LoadedBot::Submission(Arc::new(sub.map_err(|e| anyhow::anyhow!("bot {}: {e}", r.name))?))
            }
        });
    }
    Ok(loaded)
}

/// A bot to add to a league: a built-in, or a submission's zip bytes (read from a file by
/// the command line, uploaded to the grading server).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NewBot {
    /// `builtin:NAME`.
    Builtin(String),
    /// A zip holding bot.py at its root.
    Zip {
        /// The zip's bytes.
        bytes: Vec<u8>,
        /// Where it came from, stored as the bot's spec (a path, `upload:NAME`); workers
        /// read the bytes from the database, never from there.
        origin: String,
    },
}

/// The bot's row (index to be set by the store) after intake: the spec stored, and the
/// sha256 (of the zip bytes; of `builtin:NAME` for a built-in). Errors: intake refused it
/// (one line naming the bot).
pub fn intake(name: &str, bot: &NewBot, config: &TournamentConfig) -> anyhow::Result<BotRow> {
    let (spec, sha256) = match bot {
        NewBot::Builtin(builtin) => {
            mjai_sim_runtime::builtin::BuiltinBot::from_spec(builtin).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
            (format!("builtin:{builtin}"), hex::encode(Sha256::digest(format!("builtin:{builtin}"))))
        }
        NewBot::Zip { bytes, origin } => {
            Submission::from_zip_bytes(Path::new(name), bytes, &config.submission_limits())
                .map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
            (origin.clone(), hex::encode(Sha256::digest(bytes)))
        }
    };
    Ok(BotRow { idx: 0, name: name.to_string(), spec, sha256 })
}
