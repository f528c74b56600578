//! The house bots: the operator's bots, given when the server starts (NAME=BOT or BOT, a
//! .zip or builtin:NAME), checked (intake) before anything is written and added to the
//! league when missing ([`super::open_league::open_league`]).

use anyhow::{bail, Context};

use mjai_sim_arena::launch::BotSpec;
use mjai_sim_runtime::submission::SubmissionLimits;
use mjai_sim_tournament::entrants;
use mjai_sim_tournament::store::BotRow;

/// A house bot (the operator's, from the command line), checked already.
#[derive(Debug, Clone)]
pub struct HouseBot {
    /// Its row (name, spec, sha256; the index is assigned when it joins the league).
    pub row: BotRow,
    /// The zip's bytes (`None`: a built-in).
    pub zip: Option<Vec<u8>>,
}

impl HouseBot {
    /// The house bots `bots` names (NAME=BOT or BOT; repeated names suffixed), each through
    /// intake with archives up to `max_archive_bytes`, zips read whole. Errors (one line
    /// naming the bot): a refused bot, a remote bot (it cannot be a house bot), a folder (the
    /// league stores zips), an unreadable file.
    pub fn load(bots: &[String], max_archive_bytes: u64) -> anyhow::Result<Vec<HouseBot>> {
        let mut parsed: Vec<entrants::Entrant> =
            bots.iter().map(|b| entrants::parse(b)).collect::<Result<_, _>>().map_err(anyhow::Error::msg)?;
        entrants::unique_names(&mut parsed);
        let limits = SubmissionLimits { max_archive_bytes, ..SubmissionLimits::default() };
        let (_, rows) = entrants::load(&parsed, &limits)?;
        parsed
            .iter()
            .zip(rows)
            .map(|(e, row)| {
                let zip = match &e.spec {
                    BotSpec::Builtin(_) => None,
                    BotSpec::Remote(_) | BotSpec::RiichiDev(_) => {
                        bail!("house bot {}: a remote bot cannot be a house bot", e.name)
                    }
                    BotSpec::Submission(p) if p.is_dir() => {
                        bail!("house bot {}: give a .zip (the league stores it), not a folder", e.name)
                    }
                    BotSpec::Submission(p) => {
                        Some(std::fs::read(p).with_context(|| format!("cannot read {}", p.display()))?)
                    }
                };
                Ok(HouseBot { row, zip })
            })
            .collect()
    }
}
