//! Where the main job's game starts: `--from LOG@HAND` (a hand of a logged game, with its
//! scores, honba, riichi sticks and wall, so a bot author can play the hand their bot lost
//! again) or a made-up start `--start HAND --scores .. --honba .. --kyotaku ..`.

use std::path::Path;

use anyhow::{bail, Context};

use super::rules_arg::log_fits_rules;
use crate::arena::game_run::FromLog;
use crate::engine::event::parse_log;
use crate::engine::game::from_log::{logged_hand, HandLabel, WallSource};
use crate::engine::game::{Rules, StartState, MAX_SEATS};

/// Start options of the main job (flattened into its arguments).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct StartArgs {
    /// Start at a hand of a logged game, LOG@HAND (e.g. logs/x/mjai_log.json@S2-1): its scores,
    /// honba, riichi sticks and wall (from the log's seed, or the tiles the log shows).
    #[arg(long, value_name = "LOG@HAND", conflicts_with_all = ["start", "scores", "honba", "kyotaku"])]
    pub from: Option<String>,
    /// Start at this hand: round wind E/S/W, hand 1-4, optionally -HONBA (e.g. S2 or S2-1)
    /// [default: E1].
    #[arg(long, value_name = "HAND")]
    pub start: Option<HandLabel>,
    /// Starting scores in points, one per seat from seat 0 (four, or three for sanma)
    /// [default: the rules' start score each: 25000, 35000 in sanma].
    #[arg(long, value_name = "P,P,P,P", value_parser = parse_scores)]
    pub scores: Option<SeatScores>,
    /// Honba sticks at the start [default: 0, or the honba of --start].
    #[arg(long, value_name = "N")]
    pub honba: Option<u8>,
    /// Riichi sticks on the table at the start [default: 0].
    #[arg(long, value_name = "N")]
    pub kyotaku: Option<u8>,
}

/// `--scores`: one score in points per seat, three or four (one value for clap, not a list).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatScores(pub Vec<i32>);

/// The start a game gets from [`StartArgs`].
#[derive(Debug, Clone)]
pub struct ResolvedStart {
    /// The first hand's state.
    pub start: StartState,
    /// The wall seed: the log's (`--from`), else `--seed`; `None` means pick one at random.
    pub seed: Option<[u64; 2]>,
    /// The logged hand re-played, if any.
    pub from_log: Option<FromLog>,
    /// A line for stderr about where the first wall comes from (`--from` only).
    pub note: Option<String>,
}

impl StartArgs {
    /// Resolves the options given `--seed` (`seed`) under `rules` (their table size). Errors (one
    /// line naming the fix): a `--from` that is not LOG@HAND, a log that cannot be read or
    /// has no such hand or is of the other table size, `--seed` with a log that has its own
    /// seed, `--honba` against the honba of `--start`, `--scores` not one per seat.
    pub fn resolve(&self, seed: Option<[u64; 2]>, rules: Rules) -> anyhow::Result<ResolvedStart> {
        if let Some(from) = &self.from {
            return resolve_from(from, seed, rules);
        }
        let players = rules.players;
        let label = self.start.unwrap_or_else(|| "E1".parse().expect("a valid label"));
        let honba = match (label.honba, self.honba) {
            (Some(a), Some(b)) if a != b => {
                bail!("--start {label} says honba {a} but --honba says {b}: give the honba once")
            }
            (a, b) => a.or(b).unwrap_or(0),
        };
        let start = StartState {
            bakaze: label.bakaze,
            kyoku: label.kyoku,
            honba,
            kyotaku: self.kyotaku.unwrap_or(0),
            scores: match &self.scores {
                None => StartState::initial(players).scores,
                Some(SeatScores(given)) if given.len() == players.count() => {
                    std::array::from_fn(|s| given.get(s).copied().unwrap_or(0))
                }
                Some(SeatScores(given)) => bail!(
                    "--scores gives {} scores but the table has {} seats: give one per seat, e.g. --scores {}",
                    given.len(),
                    players.count(),
                    vec![players.start_score().to_string(); players.count()].join(",")
                ),
            },
        };
        Ok(ResolvedStart { start, seed, from_log: None, note: None })
    }
}

/// `--from LOG@HAND`.
fn resolve_from(from: &str, seed: Option<[u64; 2]>, rules: Rules) -> anyhow::Result<ResolvedStart> {
    let Some((path, hand)) = from.rsplit_once('@') else {
        bail!("--from {from}: give LOG@HAND, e.g. --from logs/x/mjai_log.json@S2-1");
    };
    let label: HandLabel = hand.parse().map_err(|e| anyhow::anyhow!("--from {from}: {e}"))?;
    let text = std::fs::read_to_string(Path::new(path))
        .with_context(|| format!("--from {from}: cannot read {path} (give the path of an mjai log)"))?;
    let log = parse_log(&text).with_context(|| format!("--from {from}: {path} is not an mjai log"))?;
    log_fits_rules(&log, rules, &format!("--from {from}: {path}"))?;
    let hand = logged_hand(&log, label).map_err(|e| anyhow::anyhow!("--from {from}: {e}"))?;
    let seed = match (hand.seed, seed) {
        (Some(logged), Some(given)) if logged != given => bail!(
            "--from {from}: the log's seed {},{} deals the later hands; drop --seed {},{}",
            logged[0],
            logged[1],
            given[0],
            given[1]
        ),
        (logged, given) => logged.or(given),
    };
    let source = format!("{path}@{}", hand.label);
    let (wall, note) = match hand.source {
        WallSource::Seed => (None, format!("{} is dealt the log's seeded wall", hand.label)),
        WallSource::Shown => (
            Some(hand.wall),
            format!(
                "{} is dealt the tiles the log shows ({}), the tiles it never shows filled from the rest of the set",
                hand.label,
                if hand.seed.is_some() { "its seed deals other tiles" } else { "the log has no seed" }
            ),
        ),
    };
    Ok(ResolvedStart { start: hand.start, seed, from_log: Some(FromLog { source, wall }), note: Some(note) })
}

/// `P,P,P,P` (or `P,P,P` for sanma): one score in points per seat.
fn parse_scores(text: &str) -> Result<SeatScores, String> {
    let err = || {
        format!("`{text}` is not one score per seat: give points for seats 0-3, e.g. --scores 30000,20000,25000,25000 (three for sanma)")
    };
    let scores: Vec<i32> =
        text.split(',').map(|p| p.trim().parse::<i32>().map_err(|_| err())).collect::<Result<_, _>>()?;
    if !(3..=MAX_SEATS).contains(&scores.len()) {
        return Err(err());
    }
    Ok(SeatScores(scores))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn made_up_starts() {
        let args = StartArgs {
            start: Some("S2-1".parse().unwrap()),
            scores: Some(SeatScores(vec![30000, 20000, 25000, 25000])),
            kyotaku: Some(1),
            ..StartArgs::default()
        };
        let r = args.resolve(Some([5, 6]), Rules::tenhou()).unwrap();
        assert_eq!(
            (r.start.bakaze.as_mjai(), r.start.kyoku, r.start.honba, r.start.kyotaku, r.start.scores),
            ("S", 2, 1, 1, [30000, 20000, 25000, 25000])
        );
        assert_eq!(r.seed, Some([5, 6]));
        assert!(r.from_log.is_none());
        let clash = StartArgs { honba: Some(2), ..args };
        assert!(clash.resolve(None, Rules::tenhou()).unwrap_err().to_string().contains("give the honba once"));
        assert_eq!(StartArgs::default().resolve(None, Rules::tenhou()).unwrap().start, StartState::default());
        let sanma = StartArgs::default().resolve(None, Rules::riichi_dev_3p()).unwrap().start;
        assert_eq!(sanma.scores, [35000, 35000, 35000, 0], "sanma starts at 35000");
        let three = StartArgs { scores: Some(SeatScores(vec![40000, 30000, 35000])), ..StartArgs::default() };
        assert_eq!(three.resolve(None, Rules::riichi_dev_3p()).unwrap().start.scores, [40000, 30000, 35000, 0]);
        let e = three.resolve(None, Rules::tenhou()).unwrap_err().to_string();
        assert!(e.contains("3 scores but the table has 4 seats"), "{e}");
    }

    #[test]
    fn scores_parse() {
        assert_eq!(parse_scores("30000,20000,25000,25000"), Ok(SeatScores(vec![30000, 20000, 25000, 25000])));
        assert_eq!(parse_scores("-100, 0, 50000,50100"), Ok(SeatScores(vec![-100, 0, 50000, 50100])));
        assert_eq!(parse_scores("40000,30000,35000"), Ok(SeatScores(vec![40000, 30000, 35000])), "three for sanma");
        for bad in ["1,2", "1,2,3,4,5", "a,b,c,d", ""] {
            assert!(parse_scores(bad).unwrap_err().contains("--scores 30000"), "{bad}");
        }
    }

    #[test]
    fn from_needs_log_at_hand() {
        let args = |from: &str| StartArgs { from: Some(from.into()), ..StartArgs::default() };
        assert!(args("mjai_log.json").resolve(None, Rules::tenhou()).unwrap_err().to_string().contains("LOG@HAND"));
        assert!(args("x@Q9").resolve(None, Rules::tenhou()).unwrap_err().to_string().contains("e.g. S2-1"));
        let missing = args("tests/data/no-such-log.json@E1").resolve(None, Rules::tenhou()).unwrap_err();
        assert!(format!("{missing:#}").contains("cannot read tests/data/no-such-log.json"), "{missing:#}");
    }
}
