//! The game: a seeded wall, the kyoku state machine and the hanchan around it, under
//! Tenhou rules. Pure and deterministic: the same [`GameConfig`] and the same answers give
//! the same log, bit for bit.
//!
//! The referee loop is: look at [`Game::pending`]; ask each listed seat (a bot, over
//! whatever transport); check each raw answer with [`Game::validate`]; hand the answers to
//! [`Game::apply`]; repeat until [`Game::is_over`]. [`Game::log`] grows with the unmasked
//! event stream (`start_game` .. `end_game`), which is `mjai_log.json`.
//!
//! Rules (Tenhou unless [`Rules`] says otherwise; checked against 100 logged games of
//! Mortal's engine, see `tests/logs/replay_mortal.rs`):
//! - Events: `ura_markers` is in every `hora`, with as many tiles as dora indicators when
//!   the winner is in riichi and empty otherwise. A riichi discard that passes is followed
//!   by `reach_accepted` before any call on it. Kan dora (Tenhou; Mortal's arena
//!   `board.rs` does the same): ankan → dora at once (→ a chankan chance for kokushi,
//!   only under [`Rules::kokushi_robs_ankan`]) → tsumo; daiminkan/kakan → rinshan tsumo →
//!   the maker decides → dora → `dahai`, so the
//!   seat acting on the rinshan tsumo sees the `tsumo` last (bots built on libriichi's
//!   `PlayerState`, as mjai.app's `mjai.Bot`, read their options from the last event), and
//!   a rinshan kaihou win does not count that dora. A kan made while a minkan's dora still
//!   waits shows it first: before the ankan, or before the rinshan tsumo of a kakan.
//! - Chankan: any winning hand may rob a kakan; nobody may rob an ankan (Tenhou, kokushi
//!   included; kokushi may under [`Rules::kokushi_robs_ankan`], Mahjong Soul's rule). A
//!   robbed kakan was never complete: the robber keeps ippatsu.
//! - Double ron: one `hora` per winner in seat order after the discarder; the first takes
//!   the honba and riichi sticks. Three rons abort the hand (mjai.app: all three paid).
//! - Pao (daisangen, daisuushii): the seat that fed the last set pays a tsumo alone, or
//!   half of a ron plus the honba (the discarder pays the other half). Tenhou's manual:
//!   「ツモ＝全額・ロン＝折半で支払う。積み棒は包。」 The whole hand is
//!   charged this way, also when another yakuman is combined with the pao yakuman.
//! - Nagashi mangan is paid as a mangan tsumo and replaces the noten payments.
//! - Karaten (waiting only on a kind the hand holds four of) is not tenpai.

pub mod autoplay;
mod default_answer;
mod disagreement;
pub mod from_log;
mod hanchan;
mod inspect;
#[cfg(test)]
mod kan_dora_tests;
mod kyoku;
mod legal;
#[cfg(test)]
mod log_reader_tests;
mod player;
pub mod replay;
pub mod replay_converted;
mod replay_guard;
#[cfg(test)]
mod sanma_tests;
mod shape;
mod shown;
pub mod tile_ids;
mod validate;
pub mod wall;

use super::event::{Event, Seat};
use super::tile::Tile;

pub use crate::ranking::{final_scores, final_scores_for, rank_order, rank_order_for, ranks, ranks_for};
pub use crate::rules::{GameLength, Players, Rules, WaitingKanDora, MAX_SEATS};
pub use default_answer::default_answer;
pub use tile_ids::WallIds;
pub use wall::Wall;

use kyoku::Kyoku;

/// Where a game starts: East 1 with 25000 each by default; any later state to resume after a
/// chombo or to replay a situation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartState {
    /// Round wind tile: E, S or W.
    pub bakaze: Tile,
    /// Hand number 1..=4 (the dealer is seat `kyoku - 1`).
    pub kyoku: u8,
    /// Honba sticks.
    pub honba: u8,
    /// Riichi sticks on the table.
    pub kyotaku: u8,
    /// Scores in points.
    pub scores: [i32; MAX_SEATS],
}

impl Default for StartState {
    fn default() -> Self {
        StartState::initial(Players::Four)
    }
}

impl StartState {
    /// East 1 with no sticks and [`Players::start_score`] for each seat at the table:
    /// 25000 each, or 35000 for seats 0-2 of a three-player table (seat 3: 0).
    pub fn initial(players: Players) -> StartState {
        let mut scores = [0; MAX_SEATS];
        scores[..players.count()].fill(players.start_score());
        StartState { bakaze: Tile::from_kind(27).expect("E"), kyoku: 1, honba: 0, kyotaku: 0, scores }
    }
}

/// The seeded wall of the kyoku that starts in `state`.
fn seeded_wall(seed: [u64; 2], state: &StartState, players: Players) -> Wall {
    Wall::seeded_for(players, seed, wall::kyoku_count(state.bakaze, state.kyoku), state.honba)
}

/// Game setup.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameConfig {
    /// Wall seed: `[nonce, key]` as written in `start_game.seed`. The wall of every kyoku is a
    /// pure function of these, the kyoku counted from East 1 = 0 and the honba, as in
    /// mjai.app's engine (see [`Wall::seeded`]).
    pub seed: [u64; 2],
    /// Player names, seat order.
    pub names: [String; MAX_SEATS],
    /// Starting state. A three-player game takes [`StartState::initial`]`(Players::Three)`
    /// (35000 each); a score given for seat 3 there is set to 0.
    pub start: StartState,
}

/// One seat that must answer now, with every answer that is legal (`none` included when the
/// seat may pass).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// The seat to ask.
    pub seat: Seat,
    /// Legal answers in canonical form.
    pub legal: Vec<Event>,
}

/// Why a bot's answer is refused. The message is one line, for `errors.json`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Illegal(pub String);

/// A game in progress.
#[derive(Debug, Clone)]
pub struct Game {
    config: GameConfig,
    rules: Rules,
    /// Fixed walls for successive kyoku (tests, replay); seeded walls after they run out.
    fixed_walls: std::collections::VecDeque<Wall>,
    state: StartState,
    kyoku: Kyoku,
    /// The current kyoku's [`WallIds`], made when first asked for ([`Game::wall_ids`]).
    wall_ids: std::sync::OnceLock<WallIds>,
    log: Vec<Event>,
    pending: legal::Pending,
    over: bool,
    final_scores: [i32; MAX_SEATS],
}

impl Game {
    /// Starts a game: logs `start_game`, the first `start_kyoku` and the first tsumo.
    pub fn new(config: GameConfig) -> Game {
        Game::with_walls(config, Vec::new())
    }

    /// Like [`Game::new`], but the first kyoku use `walls` in order (scenario tests,
    /// replay); later kyoku use seeded walls.
    pub fn with_walls(config: GameConfig, walls: Vec<Wall>) -> Game {
        Game::with_rules(config, walls, Rules::default())
    }

    /// Like [`Game::with_walls`], under `rules`. A three-player game ([`Rules::players`])
    /// asks seats 0-2 only and logs seat 3 empty (see [`crate::event::Event::to_json_for`]
    /// for the three-seat wire form); fixed `walls` must be three-player walls
    /// ([`Wall::arranged_3p`]), else seeded walls are used.
    pub fn with_rules(config: GameConfig, walls: Vec<Wall>, rules: Rules) -> Game {
        // A hanchan logs up to about 1,700 events (tsumogiri self-play): reserving them up front
        // saves the regrowth copies.
        let mut log = Vec::with_capacity(2048);
        let mut names = config.names.clone();
        names[rules.players.count()..].iter_mut().for_each(String::clear);
        log.push(Event::StartGame { names: Some(Box::new(names)), seed: Some(config.seed), id: None });
        let mut fixed_walls: std::collections::VecDeque<Wall> =
            walls.into_iter().filter(|w| w.players == rules.players).collect();
        let mut state = config.start.clone();
        state.scores[rules.players.count()..].fill(0);
        let wall = fixed_walls.pop_front().unwrap_or_else(|| seeded_wall(config.seed, &state, rules.players));
        let kyoku = Kyoku::start(&state, wall, rules, &mut log);
        let mut g = Game {
            config,
            rules,
            fixed_walls,
            state,
            kyoku,
            wall_ids: std::sync::OnceLock::new(),
            log,
            pending: legal::Pending::default(),
            over: false,
            final_scores: [0; MAX_SEATS],
        };
        g.advance();
        g
    }

    /// The full unmasked event log so far.
    pub fn log(&self) -> &[Event] {
        &self.log
    }

    /// The physical ids of the current kyoku's wall ([`tile_ids`]): the seeded wall's own
    /// when the kyoku was dealt the seeded wall, else each tile's copies numbered in layout
    /// order ([`WallIds::of_wall`]). Made once per kyoku, when first asked for.
    pub fn wall_ids(&self) -> &WallIds {
        self.wall_ids.get_or_init(|| {
            let s = &self.state;
            WallIds::for_wall(&self.kyoku.wall, self.config.seed, wall::kyoku_count(s.bakaze, s.kyoku), s.honba)
        })
    }

    /// Consumes the game and returns its full unmasked event log (no copy).
    pub fn into_log(self) -> Vec<Event> {
        self.log
    }

    /// Seats that must answer now (empty once the game is over). Only seats with a real
    /// choice are listed; when several may claim one discard, all are listed.
    pub fn pending(&self) -> &[Decision] {
        self.pending.as_slice()
    }

    /// Checks one raw answer line from `seat` against the pending decision; returns the
    /// canonical action or a precise reason (unparsable JSON, wrong actor, tile not in hand,
    /// wrong tsumogiri flag, kuikae, ...).
    pub fn validate(&self, seat: Seat, line: &str) -> Result<Event, Illegal> {
        validate::validate(&self.kyoku, self.pending.as_slice(), seat, line)
    }

    /// Applies one validated answer per pending seat (in any order) and advances the game to
    /// the next decision, through kyoku ends (`end_kyoku`, next `start_kyoku`) and the game
    /// end (`end_game`). Errors when an answer is missing or not legal.
    pub fn apply(&mut self, answers: &[(Seat, Event)]) -> Result<(), Illegal> {
        if self.over {
            return Err(Illegal("the game is over".into()));
        }
        let mut choices = [(0 as Seat, 0usize); MAX_SEATS];
        for (i, d) in self.pending.as_slice().iter().enumerate() {
            let mut mine = answers.iter().filter(|(s, _)| *s == d.seat);
            let Some((_, a)) = mine.next() else {
                return Err(Illegal(format!("seat {} must answer but gave no answer", d.seat)));
            };
            if mine.next().is_some() {
                return Err(Illegal(format!("seat {} gave more than one answer", d.seat)));
            }
            let Some(j) = d.legal.iter().position(|l| validate::same_action(a, l)) else {
                return Err(Illegal(format!("seat {}: {} is not legal now", d.seat, a.to_json())));
            };
            choices[i] = (d.seat, j);
        }
        if let Some((s, _)) = answers.iter().find(|(s, _)| !self.pending().iter().any(|d| d.seat == *s)) {
            return Err(Illegal(format!("seat {s} answered but was not asked")));
        }
        let n = self.pending().len();
        self.apply_legal(&choices[..n])
    }

    /// Like [`Game::apply`], with each answer given as its position in the seat's
    /// `Decision::legal` (a referee that already matched the answer against the legal list
    /// saves the second search). Errors when a pending seat has no choice or more than one,
    /// a seat was not asked, or a position is out of range.
    pub fn apply_legal(&mut self, choices: &[(Seat, usize)]) -> Result<(), Illegal> {
        if self.over {
            return Err(Illegal("the game is over".into()));
        }
        let pending = self.pending.as_slice();
        if let Some((s, _)) = choices.iter().find(|(s, _)| !pending.iter().any(|d| d.seat == *s)) {
            return Err(Illegal(format!("seat {s} answered but was not asked")));
        }
        // Position of the chosen answer in each pending decision's list.
        let mut at = [0usize; MAX_SEATS];
        for (i, d) in pending.iter().enumerate() {
            let mut mine = choices.iter().filter(|(s, _)| *s == d.seat);
            match (mine.next(), mine.next()) {
                (None, _) => return Err(Illegal(format!("seat {} must answer but gave no answer", d.seat))),
                (Some(_), Some(_)) => return Err(Illegal(format!("seat {} gave more than one answer", d.seat))),
                (Some(&(_, j)), None) if j >= d.legal.len() => {
                    return Err(Illegal(format!("seat {}: answer {j} of {} does not exist", d.seat, d.legal.len())))
                }
                (Some(&(_, j)), None) => at[i] = j,
            }
        }
        // The chosen answers move out of the pending lists, which are rebuilt below.
        let n = pending.len();
        let mut canonical: [(Seat, Event); MAX_SEATS] = std::array::from_fn(|_| (0, Event::None));
        for (i, (slot, &j)) in canonical.iter_mut().zip(&at[..n]).enumerate() {
            *slot = (self.pending.as_slice()[i].seat, self.pending.take(i, j));
        }
        match self.kyoku.phase {
            kyoku::Phase::Turn { seat, .. } => {
                let action = &canonical[..n].iter().find(|(s, _)| *s == seat).expect("turn seat answered").1;
                self.kyoku.apply_turn(seat, action, &mut self.log);
            }
            _ => self.kyoku.apply_claims(&canonical[..n], &mut self.log),
        }
        self.advance();
        Ok(())
    }

    /// Chombo by `offenders` at the current moment: ends the kyoku with
    /// `{"type":"ryukyoku","deltas":..,"reason":"error"}`, each offender paying a mangan
    /// (dealer: 4000 to each other seat; otherwise 4000 to the dealer, 2000 to the others),
    /// riichi sticks stay on the table, then the deal moves on with honba 0 (or the game
    /// ends if that passes the last hand or a score is below 0; after South 4 the ordinary
    /// rule applies: the West round follows when nobody has 30000).
    pub fn chombo(&mut self, offenders: &[Seat]) {
        if self.over || offenders.is_empty() {
            return;
        }
        self.kyoku.chombo(offenders, &mut self.log);
        self.advance();
    }

    /// The rules the game is played under ([`Rules::players`]: the table size).
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// True after `end_game` was logged.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// Current scores in points (after `end_game`: with leftover riichi sticks given to the
    /// first place).
    pub fn scores(&self) -> [i32; MAX_SEATS] {
        if self.over {
            self.final_scores
        } else {
            self.kyoku.scores
        }
    }

    /// Runs the game forward to the next real decision: passes for seats that cannot
    /// claim, kyoku ends, the next kyoku, the game end.
    fn advance(&mut self) {
        loop {
            if let Some(outcome) = self.kyoku.outcome {
                let next = hanchan::next_state(&self.state, outcome, self.kyoku.scores, self.kyoku.kyotaku, self.rules);
                match next {
                    None => {
                        self.final_scores = final_scores_for(self.kyoku.scores, self.kyoku.kyotaku, self.rules.players);
                        self.log.push(Event::EndGame);
                        self.over = true;
                        self.pending.clear();
                        return;
                    }
                    Some(s) => {
                        let wall = self
                            .fixed_walls
                            .pop_front()
                            .unwrap_or_else(|| seeded_wall(self.config.seed, &s, self.rules.players));
                        self.kyoku = Kyoku::start(&s, wall, self.rules, &mut self.log);
                        self.wall_ids = std::sync::OnceLock::new();
                        self.state = s;
                    }
                }
            }
            self.pending.refill(&self.kyoku);
            if !self.pending.as_slice().is_empty() {
                return;
            }
            self.kyoku.apply_claims(&[], &mut self.log);
        }
    }
}
