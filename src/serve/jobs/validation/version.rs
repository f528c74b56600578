//! One version's validation: its zip fetched (or its connection named), its games played
//! (a zip's at once, a remote bot's one after the other up to the first failure) and
//! judged, and the verdict of the first failing game, else of the last, recorded
//! ([`super::verdict`]).

use anyhow::Context;

use mjai_sim_arena::launch::BotSpec;
use mjai_sim_arena::verdict::Judging;
use mjai_sim_tournament::store::{BotKind, VersionRow};

use super::judge::Judged;
use super::seatings::{remote_seatings, seatings, validation_slot, RIICHI_DEV_SEATING};
use super::Games;

impl Games {
    /// Validates `row` once: a verdict recorded, or none (the server stopped). Errors,
    /// recording no verdict: the host's fault or the referee's bug ([`Games::judge`]), the
    /// submission missing, the database.
    pub(super) async fn validate(&self, row: &VersionRow) -> anyhow::Result<()> {
        let dir = self.settings.work_dir.join(format!("validate-{}-{}-{}", row.name, row.version, std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let players = self.settings.rules.players;
        let (bot, seatings): (BotSpec, Vec<Vec<usize>>) = match row.kind {
            BotKind::Zip => {
                // streamed from the store (through the cache) to disk, never whole in memory
                let path = dir.join("bot.zip");
                let found = match &self.settings.cache {
                    Some(cache) => cache.link_into(&self.store, &row.sha256, &path).await?,
                    None => self.store.blobs().write_submission(&row.sha256, &path).await?.is_some(),
                };
                anyhow::ensure!(found, "the submission is missing from the store");
                (BotSpec::Submission(path), seatings(players))
            }
            BotKind::Remote => (BotSpec::Remote(row.name.clone()), remote_seatings(players)),
            BotKind::RiichiDev => (BotSpec::RiichiDev(validation_slot(&row.name)), vec![RIICHI_DEV_SEATING.to_vec()]),
        };
        // riichi.dev's bots pass only when they answered every request, connected.
        let judging = match row.kind {
            BotKind::RiichiDev => Judging::EveryRequest,
            BotKind::Zip | BotKind::Remote => Judging::NoChombo,
        };
        // riichi.dev validates in one East-only game; the others play the league's games.
        let rules = match row.kind {
            BotKind::RiichiDev => self.settings.rules.east_only(),
            BotKind::Zip | BotKind::Remote => self.settings.rules,
        };
        // A zip's games are played at once (each takes a slot of --max-validations); a
        // remote bot's one after the other over its connection, up to the first failure.
        let game_dir = |i: usize| dir.join(format!("game-{i}"));
        let mut judged = Vec::new();
        if row.kind == BotKind::Zip {
            let games = seatings.iter().enumerate().map(|(i, seats)| self.play(game_dir(i), &bot, seats, rules));
            let outcomes = futures_util::future::join_all(games).await;
            for ((i, outcome), seats) in outcomes.into_iter().enumerate().zip(&seatings) {
                judged.push(self.judge(outcome, &dir, &game_dir(i), seats, judging)?);
            }
        } else {
            for (i, seats) in seatings.iter().enumerate() {
                let outcome = self.play(game_dir(i), &bot, seats, rules).await;
                let step = self.judge(outcome, &dir, &game_dir(i), seats, judging)?;
                let failed = matches!(&step, Judged::Verdict(_, Err(_)));
                judged.push(step);
                if failed {
                    break;
                }
            }
        }
        let mut last = None;
        for step in judged {
            match step {
                Judged::Stopped => return Ok(()),
                Judged::Verdict(files, verdict) => {
                    let failed = verdict.is_err();
                    last = Some((files, verdict));
                    if failed {
                        break; // the first failing game, in seating order, is the one shown
                    }
                }
            }
        }
        let Some((files, verdict)) = last else { return Ok(()) };
        let _ = std::fs::remove_dir_all(&dir);
        self.record(row, &files, verdict).await
    }
}
