//! Test doubles for the match loop: a scripted table (a tiny deterministic "game" with the
//! engine's referee surface) and scripted bots. No Docker, no engine, microseconds.
#![allow(dead_code)]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::future::BoxFuture;
use mjai_sim::arena::{Clock, Launcher, RefereedGame};
use mjai_sim::engine::event::{Event, Seat};
use mjai_sim::engine::game::{Decision, Illegal};
use mjai_sim::engine::tile::Tile;
use mjai_sim::runtime::{Bot, BotError};

pub fn t(s: &str) -> Tile {
    s.parse().unwrap()
}

/// Each hand: the dealer draws 9s and must discard; the next two seats may call (only
/// `none` is legal); that `rounds` times (1 unless [`ScriptTable::with_rounds`]); then an
/// exhaustive draw with the dealer tenpai (+3000, -1000 each).
/// `hands` hands, then end_game. Chombo: mangan as in Tenhou, deal moves on.
///
/// Each seat's first line of a hand begins with `start_kyoku` (the start timeout); from the
/// second round on, the lines of the dealer and the two callers are plain decisions (the
/// decision time and the time bank).
pub struct ScriptTable {
    log: Vec<Event>,
    pending: Vec<Decision>,
    hand: u8,
    hands: u8,
    rounds: u8,
    round: u8,
    scores: [i32; 4],
    over: bool,
}

impl ScriptTable {
    pub fn new(hands: u8) -> ScriptTable {
        ScriptTable::with_rounds(hands, 1)
    }

    /// `hands` hands of `rounds` draws and discards by the dealer each.
    pub fn with_rounds(hands: u8, rounds: u8) -> ScriptTable {
        let mut table = ScriptTable {
            log: Vec::new(),
            pending: Vec::new(),
            hand: 0,
            hands,
            rounds,
            round: 0,
            scores: [25000; 4],
            over: false,
        };
        table.log.push(Event::StartGame {
            names: Some(Box::new(["0", "1", "2", "3"].map(String::from))),
            seed: Some([7, 8]),
            id: None,
        });
        table.begin_hand();
        table
    }

    pub fn oya(&self) -> Seat {
        self.hand % 4
    }

    fn begin_hand(&mut self) {
        if self.hand >= self.hands || self.scores.iter().any(|&s| s < 0) {
            self.log.push(Event::EndGame);
            self.pending.clear();
            self.over = true;
            return;
        }
        let tiles = ["1m", "2p", "3s", "E"].map(t);
        self.log.push(Event::StartKyoku {
            bakaze: t("E"),
            dora_marker: t("1m"),
            kyoku: self.hand + 1,
            honba: 0,
            kyotaku: 0,
            oya: self.oya(),
            scores: self.scores,
            tehais: Box::new(tiles.map(|x| [x; 13])),
        });
        self.round = 0;
        self.draw();
    }

    fn draw(&mut self) {
        self.round += 1;
        self.log.push(Event::Tsumo { actor: self.oya(), pai: t("9s") });
        let oya = self.oya();
        self.pending =
            vec![Decision { seat: oya, legal: vec![Event::Dahai { actor: oya, pai: t("9s"), tsumogiri: true }] }];
    }

    fn end_hand(&mut self, deltas: [i32; 4], actor: Option<Seat>, reason: Option<&str>) {
        for (s, d) in self.scores.iter_mut().zip(deltas) {
            *s += d;
        }
        self.log.push(Event::Ryukyoku { actor, deltas: Some(deltas), reason: reason.map(String::from) });
        self.log.push(Event::EndKyoku);
        self.hand += 1;
        self.begin_hand();
    }
}

impl RefereedGame for ScriptTable {
    fn log(&self) -> &[Event] {
        &self.log
    }
    fn pending(&self) -> &[Decision] {
        &self.pending
    }
    fn validate(&self, seat: Seat, line: &str) -> Result<Event, Illegal> {
        let event: Event = serde_json::from_str(line).map_err(|e| Illegal(format!("unparsable: {e}")))?;
        let decision = self.pending.iter().find(|d| d.seat == seat).ok_or_else(|| Illegal("not your turn".into()))?;
        if decision.legal.contains(&event) {
            Ok(event)
        } else {
            Err(Illegal(format!("{} is not legal now", event.to_json())))
        }
    }
    fn apply(&mut self, answers: &[(Seat, Event)]) -> Result<(), Illegal> {
        if answers.len() != self.pending.len() {
            return Err(Illegal("one answer per pending seat".into()));
        }
        let oya = self.oya();
        match &answers[0].1 {
            Event::Dahai { .. } => {
                self.log.push(answers[0].1.clone());
                let claim = |s: Seat| Decision { seat: s, legal: vec![Event::None] };
                self.pending = vec![claim((oya + 1) % 4), claim((oya + 2) % 4)];
            }
            _ if self.round < self.rounds => self.draw(),
            _ => {
                let mut deltas = [-1000; 4];
                deltas[usize::from(oya)] = 3000;
                self.end_hand(deltas, None, Some("ryukyoku"));
            }
        }
        Ok(())
    }
    fn chombo(&mut self, offenders: &[Seat]) {
        let oya = self.oya();
        let mut deltas = [0; 4];
        for &o in offenders {
            for s in 0..4u8 {
                let pay = if o == oya || s == oya { 4000 } else { 2000 };
                if s != o {
                    deltas[usize::from(s)] += pay;
                    deltas[usize::from(o)] -= pay;
                }
            }
        }
        self.end_hand(deltas, offenders.first().copied(), Some("error"));
    }
    fn is_over(&self) -> bool {
        self.over
    }
    fn scores(&self) -> [i32; 4] {
        self.scores
    }
    fn players(&self) -> mjai_sim::engine::game::Players {
        mjai_sim::engine::game::Players::Four
    }
}

/// How a scripted bot answers one line.
#[derive(Clone)]
pub enum Behaviour {
    /// Discards its draw, `none` otherwise.
    Tsumogiri,
    /// Like Tsumogiri, but answers this line whenever it must act.
    ActWith(String),
    /// Like Tsumogiri, but answers this line to end_kyoku.
    EndKyokuWith(String),
    /// Like Tsumogiri, but fails with this error whenever it must act.
    FailActing(BotError),
    /// Never answers when it must act (the loop's own guard must cut it off).
    Hang,
    /// Like Tsumogiri, but takes this long whenever it must act (a timeout, as a runtime
    /// reports it, when that is longer than the line's timeout).
    Slow(Duration),
    /// Like Tsumogiri, but its n-th line where it must act (from 1, counted over the bot's
    /// life) takes the n-th delay (past the list: none) as `Slow` does; `Duration::MAX`:
    /// never answers that line (the loop's own guard must cut it off).
    Delays(Vec<Duration>),
    /// Sets the shutdown flag when it must act, then never answers.
    Interrupt(Arc<mjai_sim::arena::cancel::CancelToken>),
    /// Cannot be launched.
    NoLaunch,
    /// Cannot be launched for the host's fault (`BotError::Host`), from its `n`-th launch
    /// on (1: the first).
    HostDownFrom(u32),
}

/// Everything the scripted bots saw and did.
#[derive(Default)]
pub struct Record {
    /// (launch generation of the seat, seat, line received).
    pub lines: Vec<(u32, Seat, String)>,
    /// The timeout each line of `lines` came with (same order).
    pub timeouts: Vec<Duration>,
    pub launches: [u32; 4],
    pub stops: [u32; 4],
}

pub struct ScriptLauncher {
    pub behaviours: [Behaviour; 4],
    pub record: Arc<Mutex<Record>>,
    /// Each seat's own clock ([`Launcher::seat_clock`]); `None`: the match's.
    pub clocks: [Option<Clock>; 4],
}

impl ScriptLauncher {
    pub fn new(behaviours: [Behaviour; 4]) -> ScriptLauncher {
        ScriptLauncher { behaviours, record: Arc::default(), clocks: [None; 4] }
    }

    /// The timeouts of the lines `seat` received where it had to act (not start_game,
    /// end_kyoku, end_game), in order.
    pub fn decision_timeouts(&self, seat: Seat) -> Vec<Duration> {
        let r = self.record.lock().unwrap();
        r.lines
            .iter()
            .zip(&r.timeouts)
            .filter(|(l, _)| l.1 == seat && must_act(&l.2))
            .map(|(_, timeout)| *timeout)
            .collect()
    }

    /// The lines `seat` received, in order.
    pub fn lines(&self, seat: Seat) -> Vec<String> {
        self.record.lock().unwrap().lines.iter().filter(|l| l.1 == seat).map(|l| l.2.clone()).collect()
    }
}

/// Whether a line asks its seat to act (it does not end with start_game, end_kyoku or
/// end_game).
fn must_act(line: &str) -> bool {
    let events: Vec<Event> = serde_json::from_str(line).expect("the referee sends JSON arrays of events");
    !matches!(events.last(), Some(Event::StartGame { .. } | Event::EndKyoku | Event::EndGame))
}

impl Launcher for ScriptLauncher {
    fn seat_clock(&self, seat: Seat) -> Option<Clock> {
        self.clocks[usize::from(seat)]
    }

    fn launch(&self, seat: Seat) -> BoxFuture<'_, Result<Box<dyn Bot>, BotError>> {
        Box::pin(async move {
            let behaviour = self.behaviours[usize::from(seat)].clone();
            if let Behaviour::NoLaunch = behaviour {
                return Err(BotError::Crashed("image missing".into()));
            }
            let generation = {
                let mut r = self.record.lock().unwrap();
                r.launches[usize::from(seat)] += 1;
                r.launches[usize::from(seat)]
            };
            if let Behaviour::HostDownFrom(n) = behaviour {
                if generation >= n {
                    return Err(BotError::Host("cannot reach the Docker daemon".into()));
                }
            }
            Ok(Box::new(ScriptBot { seat, generation, behaviour, record: self.record.clone(), acted: 0 })
                as Box<dyn Bot>)
        })
    }
}

struct ScriptBot {
    seat: Seat,
    generation: u32,
    behaviour: Behaviour,
    record: Arc<Mutex<Record>>,
    /// Lines where it had to act, so far.
    acted: usize,
}

impl Bot for ScriptBot {
    fn exchange<'a>(&'a mut self, line: &'a str, timeout: Duration) -> BoxFuture<'a, Result<String, BotError>> {
        Box::pin(async move {
            {
                let mut r = self.record.lock().unwrap();
                r.lines.push((self.generation, self.seat, line.to_string()));
                r.timeouts.push(timeout);
            }
            let events: Vec<Event> = serde_json::from_str(line).expect("the referee sends JSON arrays of events");
            let tsumogiri = match events.last() {
                Some(Event::Tsumo { actor, pai }) if *actor == self.seat => {
                    Some(Event::Dahai { actor: self.seat, pai: *pai, tsumogiri: true }.to_json())
                }
                _ => None,
            };
            let must_act = !matches!(events.last(), Some(Event::StartGame { .. } | Event::EndKyoku | Event::EndGame));
            let end_kyoku = matches!(events.last(), Some(Event::EndKyoku));
            if must_act {
                self.acted += 1;
            }
            let delay = match &self.behaviour {
                Behaviour::Delays(delays) if must_act => delays.get(self.acted - 1).copied(),
                Behaviour::Slow(delay) if must_act => Some(*delay),
                _ => None,
            };
            match (&self.behaviour, must_act) {
                (Behaviour::ActWith(l), true) => Ok(l.clone()),
                (Behaviour::EndKyokuWith(l), false) if end_kyoku => Ok(l.clone()),
                (Behaviour::FailActing(e), true) => Err(e.clone()),
                (Behaviour::Hang, true) => std::future::pending().await,
                (Behaviour::Slow(_) | Behaviour::Delays(_), true) => match delay {
                    Some(Duration::MAX) => std::future::pending().await,
                    Some(delay) if delay > timeout => {
                        tokio::time::sleep(timeout).await;
                        Err(BotError::Timeout(timeout.as_secs_f64()))
                    }
                    Some(delay) => {
                        tokio::time::sleep(delay).await;
                        Ok(tsumogiri.unwrap_or_else(|| Event::None.to_json()))
                    }
                    None => Ok(tsumogiri.unwrap_or_else(|| Event::None.to_json())),
                },
                (Behaviour::Interrupt(tx), true) => {
                    tx.cancel();
                    std::future::pending().await
                }
                _ => Ok(tsumogiri.unwrap_or_else(|| Event::None.to_json())),
            }
        })
    }

    fn stop(&mut self) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            self.record.lock().unwrap().stops[usize::from(self.seat)] += 1;
        })
    }

    fn offer(&mut self, _: &mjai_sim::runtime::Offer<'_>) {}

    fn stderr_tail(&self) -> Vec<String> {
        Vec::new()
    }
}
