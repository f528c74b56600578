//! A game in progress ([`Game`]): the walls (fixed ones first, then seeded ones), the
//! current kyoku, the decisions pending and the unmasked event log. The referee loop of the
//! `game` module runs on its methods; `inspect` adds read-only questions for tools.

mod inspect;

use super::decision::{Decision, Illegal};
use super::kyoku::{self, Kyoku};
use super::setup::{GameConfig, StartState};
use super::tile_ids::WallIds;
use super::wall::{self, Wall};
use super::{hanchan, legal, validate};
use crate::event::{Event, Seat};
use crate::ranking::final_scores_for;
use crate::rules::{Players, Rules, MAX_SEATS};

/// The seeded wall of the kyoku that starts in `state`.
fn seeded_wall(seed: [u64; 2], state: &StartState, players: Players) -> Wall {
    Wall::seeded_for(players, seed, wall::kyoku_count(state.bakaze, state.kyoku), state.honba)
}

/// A game in progress.
#[derive(Debug, Clone)]
pub struct Game {
    config: GameConfig,
    rules: Rules,
    /// Fixed walls for successive kyoku (tests, replay); seeded walls after they run out.
    fixed_walls: std::collections::VecDeque<Wall>,
    state: StartState,
    /// The current kyoku (`autoplay`'s policy reads the hands).
    pub(super) kyoku: Kyoku,
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

    /// The physical ids of the current kyoku's wall ([`tile_ids`](super::tile_ids)): the seeded wall's own
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
