//! A new tournament's plan: from the bots and options a front end was given to the stored
//! options, the entrants (parsed, not yet loaded) and the schedule.

use anyhow::bail;

use crate::config::{Matching, TournamentConfig};
use crate::entrants::{self, Entrant};
use crate::schedule::{self, Format, ScheduledGame};
use mjai_sim_engine::game::Players;

/// What a front end asks for: the bots and the options of every game.
#[derive(Debug, Clone, PartialEq)]
pub struct NewTournament {
    /// The bots: `NAME=BOT` or `BOT` (named after its file stem), BOT being a .zip, a
    /// folder holding bot.py, or `builtin:NAME`. One-vs-three: CHALLENGER CHAMPION.
    pub bots: Vec<String>,
    /// Wall seed base `[nonce, key]` (`None`: a random nonce, key 0).
    pub seed: Option<[u64; 2]>,
    /// Every other option ([`TournamentConfig::bots`] and [`TournamentConfig::seed`] are
    /// filled from the fields above).
    pub config: TournamentConfig,
}

/// A checked plan: the options to store, the entrants in bot-list order, the games.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The options to store.
    pub config: TournamentConfig,
    /// The bots, names made unique (`name#2`).
    pub entrants: Vec<Entrant>,
    /// The schedule (empty for a league: claims top it up).
    pub games: Vec<ScheduledGame>,
}

impl NewTournament {
    /// The checked plan. Errors (one line): too few bots for the format and the table (4
    /// seats, or 3 under a three-player preset), a league (`sets` 0) of one-vs-three, an uma
    /// that is not one number per seat, a malformed BOT.
    pub fn plan(&self) -> anyhow::Result<Plan> {
        let n = self.bots.len();
        let players = self.config.players();
        let seats = players.count();
        let one_vs = Format::OneVsThree.flag(players);
        match self.config.format {
            Format::Duplicate if n < seats => {
                let usage = vec!["BOT"; seats].join(" ");
                let preset = match players {
                    Players::Four => String::new(),
                    Players::Three => format!(" under the three-player preset {}", self.config.rules.name()),
                };
                bail!("{n} BOT argument(s) given, at least {seats} needed{preset}: mjai-sim tournament [OPTIONS] {usage} [BOT...]")
            }
            Format::OneVsThree if n != 2 => bail!("--format {one_vs} takes two BOTs, CHALLENGER CHAMPION ({n} given)"),
            _ => {}
        }
        if self.config.is_league() && self.config.format == Format::OneVsThree {
            bail!("--sets 0 (an open-ended league) needs --format duplicate: {one_vs} has no bots to choose between");
        }
        self.config.check_uma().map_err(anyhow::Error::msg)?;
        if !self.config.is_league() && self.config.matching == Matching::Rating {
            bail!("--matching rating needs --sets 0 (a league): a fixed schedule is made before any game is rated");
        }
        let mut entrants: Vec<Entrant> =
            self.bots.iter().map(|b| entrants::parse(b)).collect::<Result<_, _>>().map_err(anyhow::Error::msg)?;
        entrants::unique_names(&mut entrants);
        let config = TournamentConfig {
            bots: entrants.iter().map(|e| e.spec.to_string()).collect(),
            seed: self.seed.unwrap_or_else(|| [rand::random::<u32>() as u64, 0]),
            ..self.config.clone()
        };
        let games = match config.format {
            Format::Duplicate => schedule::duplicate_for(players, entrants.len(), config.sets, config.seed),
            Format::OneVsThree => schedule::one_vs_rest(players, config.sets, config.seed),
        };
        Ok(Plan { config, entrants, games })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn new(bots: &[&str], sets: u64, format: Format) -> NewTournament {
        NewTournament {
            bots: bots.iter().map(|b| b.to_string()).collect(),
            seed: Some([5, 0]),
            config: TournamentConfig { sets, format, ..TournamentConfig::default() },
        }
    }

    #[test]
    fn a_plan_checks_the_bots_against_the_format() {
        let four = ["builtin:tsumogiri"; 4];
        let plan = new(&four, 2, Format::Duplicate).plan().unwrap();
        let names: Vec<&str> = plan.entrants.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["tsumogiri", "tsumogiri#2", "tsumogiri#3", "tsumogiri#4"]);
        assert_eq!((plan.games.len(), plan.config.seed, plan.config.bots.len()), (8, [5, 0], 4));
        assert!(new(&four, 0, Format::Duplicate).plan().unwrap().games.is_empty(), "a league schedules nothing");
        let e = new(&four[..3], 1, Format::Duplicate).plan().unwrap_err().to_string();
        assert!(e.starts_with("3 BOT argument(s) given, at least 4"), "{e}");
        let e = new(&four, 1, Format::OneVsThree).plan().unwrap_err().to_string();
        assert!(e.contains("takes two BOTs"), "{e}");
        let e = new(&four[..2], 0, Format::OneVsThree).plan().unwrap_err().to_string();
        assert!(e.contains("needs --format duplicate"), "{e}");
        let e = new(&["=builtin:x", "a", "b", "c"], 1, Format::Duplicate).plan().unwrap_err().to_string();
        assert!(e.contains("empty name"), "{e}");
    }
}
