//! The one pass over a game's log: [`read`] splits it into kyoku and follows each on a
//! [`Table`], recording how it ended ([`KyokuLog`]).

use crate::event::{DrawReason, Event, Seat};
use crate::ranking::final_scores_for;
use crate::rules::Rules;
use crate::tile::Tile;

use super::ending::{inferred_reason, Ending, Hora, Ryukyoku};
use super::table::{KyokuStart, Table};

/// A place where the log contradicts itself (a tile the hand does not hold, a seat outside
/// `0..4`); reading goes on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Index of the event in the log.
    pub index: usize,
    /// What is wrong, one line.
    pub message: String,
}

/// What closed a kyoku in the log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Closing {
    /// Its `end_kyoku`, at this index.
    EndKyoku(usize),
    /// The next `start_kyoku` came first.
    NextKyoku,
    /// The log ended inside it.
    LogEnd,
}

/// One kyoku of a log, read in one pass.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KyokuLog {
    /// Index of its `start_kyoku` in the log.
    pub index: usize,
    /// The table at the kyoku's end: the start ([`Table::start`]: tehais as dealt, scores
    /// before), each seat's concealed tiles, calls, river and actions, riichi, dora
    /// indicators, draws and kans, the scores and sticks after it.
    pub table: Table,
    /// Its `hora`s (several for a double ron) or its `ryukyoku`, in log order; empty when
    /// the log has neither.
    pub endings: Vec<Ending>,
    /// The longest list of ura indicators a `hora` shows.
    pub ura_markers: Vec<Tile>,
    /// What closed it.
    pub closing: Closing,
    /// Where the log contradicts itself within it.
    pub problems: Vec<Problem>,
}

impl KyokuLog {
    fn new(index: usize, start: KyokuStart) -> KyokuLog {
        KyokuLog {
            index,
            table: Table::new(start),
            endings: Vec::new(),
            ura_markers: Vec::new(),
            closing: Closing::LogEnd,
            problems: Vec::new(),
        }
    }

    /// Its `start_kyoku`.
    pub fn start(&self) -> &KyokuStart {
        &self.table.start
    }

    /// Its label, `E1-0` ([`KyokuStart::label`]).
    pub fn label(&self) -> String {
        self.table.start.label()
    }

    /// Scores change over the kyoku, seat order: riichi sticks paid, `hora` and
    /// `ryukyoku` deltas.
    pub fn score_changes(&self) -> [i32; 4] {
        std::array::from_fn(|s| self.table.scores[s] - self.table.start.scores[s])
    }

    /// Its `hora`s, in log order.
    pub fn horas(&self) -> impl Iterator<Item = &Hora> {
        self.endings.iter().filter_map(|e| match e {
            Ending::Hora(h) => Some(h),
            Ending::Ryukyoku(_) => None,
        })
    }

    /// Its `ryukyoku`, if it was drawn (a chombo included).
    pub fn ryukyoku(&self) -> Option<&Ryukyoku> {
        self.endings.iter().find_map(|e| match e {
            Ending::Ryukyoku(r) => Some(r),
            Ending::Hora(_) => None,
        })
    }

    /// True when it ended by an exhaustive draw (the live wall ran out).
    pub fn is_exhaustive_draw(&self) -> bool {
        self.ryukyoku().is_some_and(|r| r.reason == DrawReason::Exhaustive)
    }

    /// The seats paid as tenpai at an exhaustive draw under `rules`, from the hands at the
    /// kyoku's end.
    pub fn tenpai_at_draw(&self, rules: &Rules) -> [bool; 4] {
        self.table.seats.each_ref().map(|s| s.tenpai_at_draw(rules))
    }

    /// Follows one hand event at `index`.
    fn step(&mut self, index: usize, e: &Event) {
        match e {
            Event::Hora { actor, target, pai, deltas, ura_markers } => {
                let ura = ura_markers.clone().unwrap_or_default();
                if ura.len() > self.ura_markers.len() {
                    self.ura_markers = ura.clone();
                }
                let t = &self.table;
                self.endings.push(Ending::Hora(Hora {
                    index,
                    actor: *actor,
                    target: *target,
                    pai: *pai,
                    deltas: *deltas,
                    win: t.win_context(*actor, *target, &ura),
                    ura_markers: ura,
                    kyotaku: t.kyotaku,
                    pao: t.seats.get(usize::from(*actor)).and_then(|s| s.pao),
                    extra: t.extra(*actor),
                }));
            }
            Event::Ryukyoku { actor, deltas, .. } => {
                let logged = DrawReason::of(e);
                let after_tsumo: Option<Seat> = match self.table.last {
                    Some(Event::Tsumo { actor, .. }) => Some(actor),
                    _ => None,
                };
                self.endings.push(Ending::Ryukyoku(Ryukyoku {
                    index,
                    actor: *actor,
                    deltas: *deltas,
                    reason: logged.unwrap_or_else(|| inferred_reason(&self.table)),
                    logged: logged.is_some(),
                    after_tsumo,
                }));
            }
            _ => {}
        }
        if let Err(message) = self.table.apply(e) {
            self.problems.push(Problem { index, message });
        }
    }
}

/// A game's log read in one pass.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameLog {
    /// Player names of `start_game`, when given.
    pub names: Option<[String; 4]>,
    /// Wall seed of `start_game`, when given.
    pub seed: Option<[u64; 2]>,
    /// Every kyoku, in order (one per `start_kyoku`).
    pub kyokus: Vec<KyokuLog>,
    /// Indices of hand events outside any kyoku (before the first `start_kyoku`, after an
    /// `end_kyoku`, or an `end_kyoku` with no kyoku open).
    pub outside: Vec<usize>,
    /// Index of `end_game`, when the log reaches it.
    pub end_game: Option<usize>,
}

impl GameLog {
    /// Scores after the last kyoku with leftover riichi sticks to the first place (Tenhou,
    /// [`crate::ranking::final_scores_for`], among the seats at the table); 25000 each when
    /// the log has no kyoku.
    pub fn final_scores(&self) -> [i32; 4] {
        match self.kyokus.last() {
            Some(k) => final_scores_for(k.table.scores, k.table.kyotaku, k.table.start.players),
            None => [25000; 4],
        }
    }
}

/// Reads `log` (an mjai log, ours, mjai.app's or Mortal's, cut or whole): one pass, one
/// [`KyokuLog`] per `start_kyoku`. Never fails and never panics: what does not fit is in
/// [`GameLog::outside`] and [`KyokuLog::problems`].
pub fn read(log: &[Event]) -> GameLog {
    let mut out = GameLog::default();
    let mut open: Option<KyokuLog> = None;
    for (i, e) in log.iter().enumerate() {
        match e {
            Event::StartGame { names, seed, .. } => {
                out.names = names.as_deref().cloned();
                out.seed = *seed;
            }
            Event::StartKyoku { .. } => {
                if let Some(mut k) = open.take() {
                    k.closing = Closing::NextKyoku;
                    out.kyokus.push(k);
                }
                open = KyokuStart::of(e).map(|start| KyokuLog::new(i, start));
            }
            Event::EndKyoku => match open.take() {
                Some(mut k) => {
                    k.closing = Closing::EndKyoku(i);
                    out.kyokus.push(k);
                }
                None => out.outside.push(i),
            },
            Event::EndGame => out.end_game = Some(i),
            Event::None => {}
            _ => match open.as_mut() {
                Some(k) => k.step(i, e),
                None => out.outside.push(i),
            },
        }
    }
    out.kyokus.extend(open);
    out
}
