//! One table of the environment: a [`Game`] of the series, the built-in bots of the seats
//! that are not learners, and what each learner seat has seen. Driven as
//! `mjai_sim_bots::selfplay` drives a game (each seat gets the events since its previous
//! decision, masked for it; a bot's illegal answer is a chombo), except that the learner
//! seats' answers come from outside, between [`Table::advance`] and [`Table::act`].

use mjai_sim_bots::selfplay::series_config_for;
use mjai_sim_bots::{Agent, PlayerState};
use mjai_sim_engine::event::{Event, Seat};
use mjai_sim_engine::game::{Game, GameConfig, StartState, MAX_SEATS};

use super::action_space::{mask_of, Mask};
use super::config::{EnvConfig, EnvError, GameSpec};
use super::features::Encoder;
use super::reward::{add_hand_delta, placement};
use super::riichi_dev::Views;

/// A game that ended, with its outcome.
#[derive(Debug, Clone)]
pub struct GameEnd {
    /// The table it was played at.
    pub table: usize,
    /// Its number in the series (wall seed `[seed, game]`).
    pub game: u64,
    /// Final scores in points, seat order (leftover riichi sticks to the first; seat 3 is
    /// 0 at a three-player table).
    pub scores: [i32; MAX_SEATS],
    /// Final ranks, 1 = top (0 for the empty seat of a three-player table).
    pub ranks: [u8; MAX_SEATS],
    /// Placement points per seat under the uma (the reward given at the end).
    pub points: [f32; MAX_SEATS],
    /// Reward per seat paid for this game during the call in which it ended (hand deltas
    /// since the call began, then the placement points). The call's reward of the table
    /// ([`TableOut::reward`]) can also hold rewards of the games after it: a hand of the
    /// next game that ends before the next game's first learner decision.
    pub rewards: [f32; MAX_SEATS],
    /// Which seats were learners in this game.
    pub learners: [bool; MAX_SEATS],
    /// Chombos by built-in bots: seat and reason (never expected).
    pub chombos: Vec<(Seat, String)>,
    /// Each seat's events since its last decision, up to `end_game`, masked for it (the
    /// last batch a bot would be sent; empty for bot seats).
    pub final_events: [Vec<Event>; MAX_SEATS],
    /// The full unmasked log (`start_game` .. `end_game`), when `keep_logs`.
    pub log: Option<Vec<Event>>,
}

/// A learner's pending decision at one table.
#[derive(Debug, Clone)]
pub struct Pending {
    /// The seat that decides.
    pub seat: Seat,
    /// Where in the game's log the events it saw since its previous decision begin (they
    /// run to the log's end while the decision is pending; [`Table::events`] masks them).
    pub since: usize,
    /// Its legal answers as a mask over the action space.
    pub mask: Mask,
    /// riichi.dev's observation at this decision (base64 text), when
    /// [`EnvConfig::riichi_dev`] is on.
    pub riichi_dev: Option<String>,
}

/// What a table did during one reset or step.
#[derive(Debug, Clone, Default)]
pub struct TableOut {
    /// Reward per seat: placement points of a game that ended, plus hand deltas when asked.
    pub reward: [f32; MAX_SEATS],
    /// A game ended (and the next one started).
    pub done: bool,
    /// The games that ended.
    pub ended: Vec<GameEnd>,
}

/// One table.
pub struct Table {
    index: usize,
    game_no: u64,
    game: Game,
    learner: [bool; MAX_SEATS],
    agents: [Option<Box<dyn Agent>>; MAX_SEATS],
    states: [PlayerState; MAX_SEATS],
    /// The learner seats' RiichiEnv views of the game in play ([`EnvConfig::riichi_dev`]).
    views: Option<Views>,
    sent: [usize; MAX_SEATS],
    scanned: usize,
    bot_choices: Vec<(Seat, usize)>,
    offenders: Vec<Seat>,
    chombos: Vec<(Seat, String)>,
    /// A bot's events since its previous decision, masked for it (reused between calls).
    scratch: Vec<Event>,
    /// The learners' pending decisions, in seat order.
    pub rows: Vec<Pending>,
    /// Their features, [`Encoder::len`] values per row.
    pub obs: Vec<f32>,
    /// What the last reset or step did.
    pub out: TableOut,
    /// The part of `out.reward` paid for games that ended during this call.
    paid: [f32; MAX_SEATS],
    /// The fixed series ([`EnvConfig::games`]) has no game left for this table: it stopped.
    stopped: bool,
}

impl Table {
    /// Table `index` at its first game (game number `index`), not advanced yet.
    pub fn new(index: usize, config: &EnvConfig) -> Result<Table, EnvError> {
        let (game, learner, agents) = start_game(index as u64, config)?;
        Ok(Table {
            index,
            game_no: index as u64,
            game,
            learner,
            agents,
            states: Default::default(),
            views: views_for(&learner, config),
            sent: [0; MAX_SEATS],
            scanned: 0,
            bot_choices: Vec::new(),
            offenders: Vec::new(),
            chombos: Vec::new(),
            scratch: Vec::new(),
            rows: Vec::new(),
            obs: Vec::new(),
            out: TableOut::default(),
            paid: [0.0; MAX_SEATS],
            stopped: false,
        })
    }

    /// The game being played.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The events `row`'s seat saw since its previous decision, masked for it (what a bot is
    /// sent).
    pub fn events(&self, row: &Pending) -> Vec<Event> {
        masked(&self.game.log()[row.since..], row.seat).collect()
    }

    /// The legal answers of `seat` now (empty when it is not asked).
    pub fn legal(&self, seat: Seat) -> &[Event] {
        self.game.pending().iter().find(|d| d.seat == seat).map_or(&[], |d| &d.legal)
    }

    /// Applies the learners' answers (`(seat, position in its legal list)`, one per row,
    /// checked by the caller) with the bots' answers, then advances to the next learner
    /// decision ([`Table::advance`]).
    pub fn act(&mut self, choices: &[(Seat, usize)], config: &EnvConfig, encoder: &Encoder) -> Result<(), EnvError> {
        self.out = TableOut::default();
        self.paid = [0.0; MAX_SEATS];
        if self.stopped {
            return Ok(());
        }
        if !self.offenders.is_empty() {
            self.game.chombo(&self.offenders);
        } else {
            self.bot_choices.extend_from_slice(choices);
            self.game
                .apply_legal(&self.bot_choices)
                .map_err(|e| EnvError::Engine { table: self.index, reason: e.0 })?;
        }
        self.advance(config, encoder)
    }

    /// Plays on (bots' decisions, chombos, game ends and the next game) until some learner
    /// must decide; fills [`Table::rows`] and [`Table::obs`] and adds to [`Table::out`].
    pub fn advance(&mut self, config: &EnvConfig, encoder: &Encoder) -> Result<(), EnvError> {
        loop {
            if self.stopped {
                self.rows.clear();
                self.obs.clear();
                return Ok(());
            }
            self.scan_hand_rewards(config);
            if self.game.is_over() {
                self.finish(config)?;
                continue;
            }
            let index = self.index;
            let Table {
                game,
                learner,
                agents,
                states,
                views,
                sent,
                bot_choices,
                offenders,
                chombos,
                rows,
                scratch,
                ..
            } = self;
            let pending = game.pending();
            if pending.is_empty() {
                return Err(EnvError::Engine {
                    table: index,
                    reason: format!("no pending decision and the game is not over (after {} events)", game.log().len()),
                });
            }
            bot_choices.clear();
            offenders.clear();
            rows.clear();
            let log = game.log();
            for d in pending {
                let s = usize::from(d.seat);
                let since = sent[s];
                sent[s] = log.len();
                if learner[s] {
                    if config.features {
                        for e in masked(&log[since..], d.seat) {
                            states[s].update(&e);
                        }
                    }
                    let riichi_dev = views.as_mut().and_then(|v| v.decide(d.seat, &log[since..], game, &d.legal));
                    rows.push(Pending { seat: d.seat, since, mask: mask_of(&d.legal), riichi_dev });
                    continue;
                }
                scratch.clear();
                scratch.extend(masked(&log[since..], d.seat));
                let agent = agents[s].as_mut().expect("a bot plays every seat that is not a learner");
                let answer = agent.react(scratch, &d.legal);
                if let Some(j) = d.legal.iter().position(|l| *l == answer) {
                    bot_choices.push((d.seat, j));
                    continue;
                }
                match game.validate(d.seat, &answer.to_json()) {
                    Ok(canonical) => match d.legal.iter().position(|l| *l == canonical) {
                        Some(j) => bot_choices.push((d.seat, j)),
                        None => {
                            let reason = "validate gave an answer outside the legal list".to_string();
                            return Err(EnvError::Engine { table: index, reason });
                        }
                    },
                    Err(e) => {
                        chombos.push((d.seat, e.0));
                        offenders.push(d.seat);
                    }
                }
            }
            if !rows.is_empty() {
                if config.features {
                    self.encode(encoder);
                } else {
                    self.obs.clear();
                }
                return Ok(());
            }
            if !self.offenders.is_empty() {
                self.game.chombo(&self.offenders);
            } else {
                self.game
                    .apply_legal(&self.bot_choices)
                    .map_err(|e| EnvError::Engine { table: self.index, reason: e.0 })?;
            }
        }
    }

    fn encode(&mut self, encoder: &Encoder) {
        let len = encoder.len();
        self.obs.resize(self.rows.len() * len, 0.0);
        for (row, out) in self.rows.iter().zip(self.obs.chunks_exact_mut(len)) {
            encoder.encode(&self.states[usize::from(row.seat)], out);
        }
    }

    fn scan_hand_rewards(&mut self, config: &EnvConfig) {
        let log = self.game.log();
        if config.hand_rewards {
            for e in &log[self.scanned..] {
                add_hand_delta(e, &mut self.out.reward);
            }
        }
        self.scanned = log.len();
    }

    /// The game is over: its rewards and [`GameEnd`], then the table's next game.
    fn finish(&mut self, config: &EnvConfig) -> Result<(), EnvError> {
        let players = config.rules.players;
        let scores = self.game.scores();
        let (ranks, points) = placement(scores, players, &config.uma);
        for (r, p) in self.out.reward.iter_mut().zip(points) {
            *r += p;
        }
        let rewards = std::array::from_fn(|s| self.out.reward[s] - self.paid[s]);
        self.paid = self.out.reward;
        let log = self.game.log();
        let final_events: [Vec<Event>; MAX_SEATS] = std::array::from_fn(|s| {
            if self.learner[s] && s < players.count() {
                masked(&log[self.sent[s]..], s as Seat).collect()
            } else {
                Vec::new()
            }
        });
        let next = self.game_no + config.num_tables as u64;
        let learners = self.learner;
        let finished = match config.games.as_ref().is_some_and(|g| next >= g.len() as u64) {
            true => {
                self.stopped = true;
                config.keep_logs.then(|| self.game.log().to_vec())
            }
            false => {
                let (game, learner, agents) = start_game(next, config)?;
                self.views = views_for(&learner, config);
                self.learner = learner;
                self.agents = agents;
                let finished = std::mem::replace(&mut self.game, game);
                config.keep_logs.then(|| finished.into_log())
            }
        };
        self.out.done = true;
        self.out.ended.push(GameEnd {
            table: self.index,
            game: self.game_no,
            scores,
            ranks,
            points,
            rewards,
            learners,
            chombos: std::mem::take(&mut self.chombos),
            final_events,
            log: finished,
        });
        self.game_no = next;
        self.states = Default::default();
        self.sent = [0; MAX_SEATS];
        self.scanned = 0;
        Ok(())
    }
}

/// The learner seats' fresh views at a game's start when [`EnvConfig::riichi_dev`] is on.
fn views_for(learner: &[bool; MAX_SEATS], config: &EnvConfig) -> Option<Views> {
    config.riichi_dev.then(|| Views::new(learner, config.rules.players))
}

/// `events` as `seat` is sent them (each masked for it).
fn masked(events: &[Event], seat: Seat) -> impl Iterator<Item = Event> + '_ {
    events.iter().map(move |e| e.masked_for(seat))
}

type Seats = (Game, [bool; MAX_SEATS], [Option<Box<dyn Agent>>; MAX_SEATS]);

/// Game number `game_no` of the series: its game, learner seats and fresh bots.
fn start_game(game_no: u64, config: &EnvConfig) -> Result<Seats, EnvError> {
    if let Some(games) = &config.games {
        return start_scheduled(game_no, games, config);
    }
    let players = config.rules.players;
    let learner: [bool; MAX_SEATS] =
        std::array::from_fn(|s| s < players.count() && config.learners.decides(s as Seat, game_no, players));
    let mut agents: [Option<Box<dyn Agent>>; MAX_SEATS] = Default::default();
    for s in 0..players.count() {
        if !learner[s] {
            let bot = mjai_sim_bots::from_spec(&config.opponents[s]).map_err(|e| EnvError::Config(e.to_string()))?;
            agents[s] = Some(bot);
        }
    }
    let names = config.names.clone().unwrap_or_else(|| {
        std::array::from_fn(|s| match (&agents[s], s < players.count()) {
            (_, false) => String::new(),
            (None, true) => "learner".to_string(),
            (Some(_), true) => {
                let name = &config.opponents[s];
                if name.starts_with("builtin:") {
                    name.clone()
                } else {
                    format!("builtin:{name}")
                }
            }
        })
    });
    let setup = series_config_for(config.seed, game_no, names, players);
    Ok((Game::with_rules(setup, Vec::new(), config.rules), learner, agents))
}

/// Game number `game_no` of a fixed series ([`EnvConfig::games`], checked).
fn start_scheduled(game_no: u64, games: &[GameSpec], config: &EnvConfig) -> Result<Seats, EnvError> {
    let spec = usize::try_from(game_no)
        .ok()
        .and_then(|g| games.get(g))
        .ok_or_else(|| EnvError::Config(format!("no game {game_no} in the series of {}", games.len())))?;
    let players = config.rules.players;
    let mut learner = [false; MAX_SEATS];
    let mut agents: [Option<Box<dyn Agent>>; MAX_SEATS] = Default::default();
    for (s, bot) in spec.seats.iter().enumerate().take(players.count()) {
        match bot {
            None => learner[s] = true,
            Some(bot) => agents[s] = Some(mjai_sim_bots::from_spec(bot).map_err(|e| EnvError::Config(e.to_string()))?),
        }
    }
    let names = std::array::from_fn(|s| spec.names.get(s).cloned().unwrap_or_default());
    let setup = GameConfig { seed: spec.seed, names, start: StartState::initial(players) };
    Ok((Game::with_rules(setup, Vec::new(), config.rules), learner, agents))
}
