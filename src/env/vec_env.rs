//! [`VecEnv`]: N tables stepped together. [`VecEnv::reset`] and [`VecEnv::step`] return a
//! [`Batch`]: one row per pending learner decision (table order, then seat order), with
//! its mask over the action space and its features, and per table the rewards and whether
//! a game ended (Gymnasium's autoreset: the table's next game is already under way and its
//! rows are the new game's). The tables are stepped one after the other on the calling
//! thread: two scoped threads per step were 3× slower on the project's 2-core machine
//! (docs/performance.md, "Training environment").

use mjai_sim_engine::event::{Event, Seat};
use mjai_sim_engine::game::MAX_SEATS;

use super::action_space::{index_of, position_of, Mask, NUM_ACTIONS};
use super::config::{EnvConfig, EnvError};
use super::features::Encoder;
use super::table::{GameEnd, Table};

/// One answer to a pending decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// An index of the action space ([`super::action_space`]).
    Index(i64),
    /// An mjai action as JSON (`{"type":"dahai","actor":0,"pai":"5m","tsumogiri":false}`),
    /// checked as the referee checks a bot's line.
    Mjai(String),
}

/// What a reset or a step returns. Row `i` is `(table[i], seat[i])`.
#[derive(Debug, Clone, Default)]
pub struct Batch {
    /// The table of each row.
    pub table: Vec<usize>,
    /// The seat of each row.
    pub seat: Vec<Seat>,
    /// The legal indices of each row.
    pub mask: Vec<Mask>,
    /// Features, [`VecEnv::obs_len`] values per row (empty when `features` is off).
    pub obs: Vec<f32>,
    /// Reward per table and seat during this call ([`MAX_SEATS`] per table).
    pub rewards: Vec<[f32; MAX_SEATS]>,
    /// Per table: a game ended during this call.
    pub dones: Vec<bool>,
    /// The games that ended during this call.
    pub ended: Vec<GameEnd>,
}

/// The vectorized environment.
pub struct VecEnv {
    config: EnvConfig,
    encoder: Encoder,
    tables: Vec<Table>,
    /// Row → (table, position in the table's rows).
    rows: Vec<(usize, usize)>,
    games_finished: u64,
}

impl VecEnv {
    /// An environment with `config` (checked: [`EnvConfig::check`]); call [`VecEnv::reset`]
    /// before stepping.
    pub fn new(config: EnvConfig) -> Result<VecEnv, EnvError> {
        config.check()?;
        Ok(VecEnv {
            encoder: Encoder::new(config.rules.players),
            config,
            tables: Vec::new(),
            rows: Vec::new(),
            games_finished: 0,
        })
    }

    /// The settings.
    pub fn config(&self) -> &EnvConfig {
        &self.config
    }

    /// Size of the action space ([`NUM_ACTIONS`]).
    pub fn num_actions(&self) -> usize {
        NUM_ACTIONS
    }

    /// The feature encoder.
    pub fn encoder(&self) -> Encoder {
        self.encoder
    }

    /// Feature values per row.
    pub fn obs_len(&self) -> usize {
        self.encoder.len()
    }

    /// Games finished since the last reset.
    pub fn games_finished(&self) -> u64 {
        self.games_finished
    }

    /// Pending rows.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// No pending row (before the first reset).
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Starts every table at its first game (table `t`: game number `t` of the series) and
    /// plays the bots' decisions up to the first learner decisions.
    pub fn reset(&mut self) -> Result<Batch, EnvError> {
        self.tables = (0..self.config.num_tables).map(|t| Table::new(t, &self.config)).collect::<Result<_, _>>()?;
        self.games_finished = 0;
        let (config, encoder) = (&self.config, &self.encoder);
        self.tables.iter_mut().try_for_each(|table| table.advance(config, encoder))?;
        Ok(self.collect())
    }

    /// Answers every pending row (`actions[i]` for row `i`) and plays on to the next learner
    /// decisions. Refused as a whole, with nothing applied, when the count is wrong or any
    /// answer is not legal.
    pub fn step(&mut self, actions: &[Action]) -> Result<Batch, EnvError> {
        let choices = self.check(actions.len(), |row| actions[row].clone())?;
        self.play(choices)
    }

    /// [`VecEnv::step`] with one index per row.
    pub fn step_indices(&mut self, indices: &[i64]) -> Result<Batch, EnvError> {
        let choices = self.check(indices.len(), |row| Action::Index(indices[row]))?;
        self.play(choices)
    }

    fn play(&mut self, choices: Vec<Vec<(Seat, usize)>>) -> Result<Batch, EnvError> {
        let (config, encoder) = (&self.config, &self.encoder);
        for (table, c) in self.tables.iter_mut().zip(choices) {
            table.act(&c, config, encoder)?;
        }
        Ok(self.collect())
    }

    /// Each table's `(seat, position in its legal list)` answers.
    fn check(&self, count: usize, action: impl Fn(usize) -> Action) -> Result<Vec<Vec<(Seat, usize)>>, EnvError> {
        if self.tables.is_empty() {
            return Err(EnvError::NotReset);
        }
        if count != self.rows.len() {
            return Err(EnvError::ActionCount { expected: self.rows.len(), got: count });
        }
        let mut choices: Vec<Vec<(Seat, usize)>> = vec![Vec::new(); self.tables.len()];
        for (row, &(t, k)) in self.rows.iter().enumerate() {
            let table = &self.tables[t];
            let seat = table.rows[k].seat;
            let legal = table.legal(seat);
            let j = match action(row) {
                Action::Index(i) => usize::try_from(i).ok().and_then(|i| position_of(legal, i)).ok_or_else(|| {
                    EnvError::IllegalIndex {
                        row,
                        table: t,
                        seat,
                        index: i,
                        legal: legal.iter().filter_map(index_of).collect(),
                    }
                })?,
                Action::Mjai(line) => {
                    let illegal = |reason: String| EnvError::IllegalAction { row, table: t, seat, reason };
                    let canonical = table.game().validate(seat, &line).map_err(|e| illegal(e.0))?;
                    legal
                        .iter()
                        .position(|l| *l == canonical)
                        .ok_or_else(|| illegal(format!("{} is not among the legal answers", canonical.to_json())))?
                }
            };
            choices[t].push((seat, j));
        }
        Ok(choices)
    }

    fn collect(&mut self) -> Batch {
        let rows: usize = self.tables.iter().map(|t| t.rows.len()).sum();
        let mut b = Batch {
            table: Vec::with_capacity(rows),
            seat: Vec::with_capacity(rows),
            mask: Vec::with_capacity(rows),
            obs: Vec::with_capacity(self.tables.iter().map(|t| t.obs.len()).sum()),
            rewards: Vec::with_capacity(self.tables.len()),
            dones: Vec::with_capacity(self.tables.len()),
            ended: Vec::new(),
        };
        self.rows.clear();
        for (t, table) in self.tables.iter_mut().enumerate() {
            for (k, row) in table.rows.iter().enumerate() {
                self.rows.push((t, k));
                b.table.push(t);
                b.seat.push(row.seat);
                b.mask.push(row.mask);
            }
            b.obs.extend_from_slice(&table.obs);
            b.rewards.push(table.out.reward);
            b.dones.push(table.out.done);
            self.games_finished += table.out.ended.len() as u64;
            b.ended.append(&mut table.out.ended);
        }
        b
    }

    /// The events row `i`'s seat saw since its previous decision (masked for it), or `None`
    /// for a row that does not exist.
    pub fn events(&self, row: usize) -> Option<&[Event]> {
        let &(t, k) = self.rows.get(row)?;
        Some(&self.tables[t].rows[k].events)
    }

    /// Row `i`'s legal answers (canonical mjai actions), or `None` for a row that does not
    /// exist.
    pub fn legal(&self, row: usize) -> Option<&[Event]> {
        let &(t, k) = self.rows.get(row)?;
        let table = &self.tables[t];
        Some(table.legal(table.rows[k].seat))
    }

    /// The game being played at table `t` (its log so far), or `None` past the last table.
    pub fn game(&self, t: usize) -> Option<&mjai_sim_engine::game::Game> {
        self.tables.get(t).map(Table::game)
    }
}
