//! [`VecEnv`]: N tables stepped together. [`VecEnv::reset`] and [`VecEnv::step`] return a
//! [`Batch`]: one row per pending learner decision (table order, then seat order), with
//! its mask over the action space and its features, and per table the rewards and whether
//! a game ended (Gymnasium's autoreset: the table's next game is already under way and its
//! rows are the new game's). The tables are stepped one after the other on the calling
//! thread, or ([`EnvConfig::threads`]) in runs of consecutive tables, the calling thread
//! playing the first and each thread of a rayon pool the environment owns one other. On
//! the project's 2-vCPU machine a second thread loses at 64 tables (handing it half of a
//! 0.2 ms step costs more than the half) and gains at 1,024 (docs/performance.md,
//! "Training environment"), so the default is one thread.

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
    /// The threads beside the calling one that step the tables (`None`: the calling thread
    /// alone).
    pool: Option<rayon::ThreadPool>,
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
            pool: pool(config.threads)?,
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

    /// Threads stepping the tables (1: the calling thread).
    pub fn threads(&self) -> usize {
        self.pool.as_ref().map_or(1, |p| p.current_num_threads() + 1)
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
        let none = vec![(); self.tables.len()];
        split(&mut self.tables, none, self.pool.as_ref(), |table, ()| table.advance(config, encoder))?;
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
        split(&mut self.tables, choices, self.pool.as_ref(), |table, c| table.act(&c, config, encoder))?;
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
    pub fn events(&self, row: usize) -> Option<Vec<Event>> {
        let &(t, k) = self.rows.get(row)?;
        let table = &self.tables[t];
        Some(table.events(&table.rows[k]))
    }

    /// riichi.dev's observation of row `i`'s seat at this decision: riichienv 0.4.8's
    /// `Observation` (four seats) or `Observation3P` (three) as its `serialize_to_base64`
    /// writes it (padded standard base64 of its JSON), with the referee's physical tile ids
    /// and the legal actions the referee takes: what a `riichilab:` seat is sent with its
    /// `request_action` (docs/protocol.md, "riichi.dev's dialect"). `None` for a row that
    /// does not exist or when [`super::EnvConfig::riichi_dev`] is off; an empty string if
    /// RiichiEnv failed to build it (never seen; logged).
    pub fn riichi_dev_observation(&self, row: usize) -> Option<&str> {
        let &(t, k) = self.rows.get(row)?;
        self.tables[t].rows[k].riichi_dev.as_deref()
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

/// The pool of the threads beside the calling one ([`EnvConfig::threads`] − 1), `None` for
/// one thread.
fn pool(threads: usize) -> Result<Option<rayon::ThreadPool>, EnvError> {
    let threads = match threads {
        0 => std::thread::available_parallelism().map_or(1, usize::from),
        n => n,
    };
    if threads == 1 {
        return Ok(None);
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads - 1)
        .thread_name(|i| format!("mjai-sim-env-{i}"))
        .build()
        .map(Some)
        .map_err(|e| EnvError::Config(format!("cannot start {threads} threads for the tables: {e}")))
}

/// One thread's run of tables: the tables, their items, its outcome.
type Run<'a, T> = (&'a mut [Table], Vec<T>, Result<(), EnvError>);

/// Runs `f` on each table with its item (`items[i]` for `tables[i]`), the tables split in
/// runs of consecutive tables, one per thread of `pool` and one for the calling thread
/// (which plays the first; `pool` `None`: the calling thread plays them all). Returns the
/// first error in table order.
fn split<T: Send>(
    tables: &mut [Table],
    items: Vec<T>,
    pool: Option<&rayon::ThreadPool>,
    f: impl Fn(&mut Table, T) -> Result<(), EnvError> + Sync,
) -> Result<(), EnvError> {
    let run = |tables: &mut [Table], items: Vec<T>| tables.iter_mut().zip(items).try_for_each(|(t, i)| f(t, i));
    let Some(pool) = pool.filter(|_| tables.len() > 1) else { return run(tables, items) };
    let per = tables.len().div_ceil(pool.current_num_threads() + 1);
    let mut items = items.into_iter();
    let mut chunks: Vec<Run<'_, T>> = tables
        .chunks_mut(per)
        .map(|c| {
            let n = c.len();
            (c, items.by_ref().take(n).collect(), Ok(()))
        })
        .collect();
    let (first, rest) = chunks.split_first_mut().expect("at least one run: there are tables");
    pool.in_place_scope(|scope| {
        for (c, i, out) in rest.iter_mut() {
            let i = std::mem::take(i);
            scope.spawn(|_| *out = run(c, i));
        }
        first.2 = run(first.0, std::mem::take(&mut first.1));
    });
    chunks.into_iter().try_for_each(|(_, _, out)| out)
}
