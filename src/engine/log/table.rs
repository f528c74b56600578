//! [`Table`]: a kyoku as an mjai log has shown it so far, fed one event at a time. It reads
//! the full log (a referee's, a tool's) as well as one seat's masked view (a bot's: other
//! seats' tiles are `?`).
//!
//! Flags follow the engine (and Tenhou): ippatsu ends with the seat's next discard or any
//! call (ankan included); double riichi is a riichi on the seat's first discard with no call
//! before; the last tile is the [`LIVE_TILES`]th draw of the kyoku (rinshan draws count,
//! each kan leaving one live tile undrawn; a rinshan draw is never haitei); tenhou and
//! chiihou need a tsumo before the seat's first discard with no call.

use crate::event::{Event, Seat};
use crate::hand::{Extra, Meld, MeldKind, NoWin, Riichi, WinContext};
use crate::rules::wall_size::{LIVE_TILES, LIVE_TILES_3P};
use crate::rules::Players;
use crate::tile::Tile;

use super::seat::{Action, Discard, SeatState};

/// What `start_kyoku` says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KyokuStart {
    /// Round wind tile: E, S, W (or N).
    pub bakaze: Tile,
    /// First dora indicator.
    pub dora_marker: Tile,
    /// Hand number 1..=4 within the round.
    pub kyoku: u8,
    /// Honba sticks.
    pub honba: u8,
    /// Riichi sticks on the table at the start.
    pub kyotaku: u8,
    /// Dealer seat.
    pub oya: Seat,
    /// Scores in points at the start, seat order.
    pub scores: [i32; 4],
    /// The 13 tiles dealt to each seat (`?` for the seats a masked view hides).
    pub tehais: [[Tile; 13]; 4],
    /// The table size. [`KyokuStart::of`] reads a three-player table from seat 3's empty
    /// place (score 0 and no tiles shown: the three-seat wire form read back); a caller that
    /// knows the rules may set it.
    pub players: Players,
}

impl Default for KyokuStart {
    /// East 1, no honba or sticks, 25000 each, nothing dealt yet.
    fn default() -> KyokuStart {
        KyokuStart {
            bakaze: Tile::from_kind(27).unwrap_or_default(),
            dora_marker: Tile::UNKNOWN,
            kyoku: 1,
            honba: 0,
            kyotaku: 0,
            oya: 0,
            scores: [25000; 4],
            tehais: [[Tile::UNKNOWN; 13]; 4],
            players: Players::Four,
        }
    }
}

impl KyokuStart {
    /// The fields of a `start_kyoku`; `None` for other events.
    pub fn of(event: &Event) -> Option<KyokuStart> {
        match event {
            Event::StartKyoku { bakaze, dora_marker, kyoku, honba, kyotaku, oya, scores, tehais } => Some(KyokuStart {
                bakaze: *bakaze,
                dora_marker: *dora_marker,
                kyoku: *kyoku,
                honba: *honba,
                kyotaku: *kyotaku,
                oya: *oya,
                scores: *scores,
                tehais: **tehais,
                players: if scores[3] == 0 && tehais[3] == [Tile::UNKNOWN; 13] {
                    Players::Three
                } else {
                    Players::Four
                },
            }),
            _ => None,
        }
    }

    /// The table size of `log`: its first `start_kyoku`'s ([`KyokuStart::of`]); `None`
    /// before any hand.
    pub fn players_of(log: &[Event]) -> Option<Players> {
        log.iter().find_map(KyokuStart::of).map(|k| k.players)
    }

    /// The hand's label as in progress lines, `summary.json` and `errors.json`: `E1-0`
    /// (round wind, hand number, honba).
    pub fn label(&self) -> String {
        format!("{}{}-{}", self.bakaze, self.kyoku, self.honba)
    }
}

/// The kyoku as the log has shown it so far. Scores are points, sticks count sticks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    /// The kyoku's `start_kyoku`.
    pub start: KyokuStart,
    /// The seats ([`crate::rules::MAX_SEATS`]; seat 3 stays empty at a three-player table).
    pub seats: [SeatState; 4],
    /// Dora indicators shown (`start_kyoku`'s, then one per `dora`).
    pub dora_markers: Vec<Tile>,
    /// Scores now: the start's, minus 1000 per accepted riichi, plus every `hora` and
    /// `ryukyoku`'s `deltas`.
    pub scores: [i32; 4],
    /// Riichi sticks on the table now (a `hora` takes them).
    pub kyotaku: u8,
    /// `tsumo` events so far, live and rinshan: the live wall is empty after
    /// [`LIVE_TILES`] of them (each kan moves one live tile to the dead wall).
    pub draws: usize,
    /// No call or kan yet this kyoku.
    pub uninterrupted: bool,
    /// The last draw came from the dead wall.
    pub rinshan: bool,
    /// That dead-wall draw replaced a North set aside by `kita` (three-player).
    pub kita_draw: bool,
    /// A tsumo on a kita's replacement tile scores rinshan kaihou (the `riichi-dev-3p`
    /// preset, [`crate::rules::Rules::kita_is_rinshan`]); false (Tenhou) unless set.
    pub kita_is_rinshan: bool,
    /// Kans made, by seat, in order.
    pub kan_makers: Vec<Seat>,
    /// The last event that is neither `hora` nor `dora` (what a ron or chankan wins on,
    /// what a `ryukyoku` follows).
    pub last: Option<Event>,
}

impl Default for Table {
    fn default() -> Table {
        Table::new(KyokuStart::default())
    }
}

impl Table {
    /// The table right after `start`.
    pub fn new(start: KyokuStart) -> Table {
        Table {
            seats: std::array::from_fn(|s| SeatState::dealt(&start.tehais[s])),
            dora_markers: if start.dora_marker.is_unknown() { Vec::new() } else { vec![start.dora_marker] },
            scores: start.scores,
            kyotaku: start.kyotaku,
            draws: 0,
            uninterrupted: true,
            rinshan: false,
            kita_draw: false,
            kita_is_rinshan: false,
            kan_makers: Vec::new(),
            last: None,
            start,
        }
    }

    /// Tiles left to draw from the live wall ([`LIVE_TILES`] at the start, mjai's
    /// `tiles_left`).
    pub fn tiles_left(&self) -> usize {
        self.live_tiles().saturating_sub(self.draws)
    }

    /// Draws in a kyoku without kans (or kita): 70, or 55 at a three-player table.
    pub fn live_tiles(&self) -> usize {
        match self.start.players {
            Players::Four => LIVE_TILES,
            Players::Three => LIVE_TILES_3P,
        }
    }

    /// Seat wind kind of `seat` (27 = East for the dealer; E, S, W at three seats).
    pub fn jikaze(&self, seat: Seat) -> u8 {
        let n = self.start.players.count() as u8;
        27 + (seat % n + n - self.start.oya % n) % n
    }

    /// What a three-player table adds to the scoring of `seat`'s hand (the 1m->9m dora,
    /// its kita); nothing at four seats.
    pub fn extra(&self, seat: Seat) -> Extra {
        Extra {
            sanma: self.start.players == Players::Three,
            kita: self.seats.get(usize::from(seat)).map_or(0, |s| s.kita),
        }
    }

    /// Follows one event; a `start_kyoku` starts a new table. Returns a one-line problem
    /// when the log contradicts itself (a seat outside `0..4`, a tile the hand does not
    /// hold); the table stays usable and never panics.
    pub fn apply(&mut self, e: &Event) -> Result<(), String> {
        if let Some(start) = KyokuStart::of(e) {
            *self = Table::new(start);
            return Ok(());
        }
        let result = self.follow(e);
        if !matches!(e, Event::Hora { .. } | Event::Dora { .. }) {
            self.last = Some(e.clone());
        }
        result.map_err(|why| format!("{why} for {}", e.to_json()))
    }

    fn follow(&mut self, e: &Event) -> Result<(), String> {
        let target = match e {
            Event::Chi { target, .. } | Event::Pon { target, .. } | Event::Daiminkan { target, .. } => Some(*target),
            _ => None,
        };
        if let Some(s) = [e.actor(), target].into_iter().flatten().find(|&s| s >= 4) {
            if !matches!(e, Event::Hora { .. } | Event::Ryukyoku { .. }) {
                return Err(format!("seat {s} is not a seat (0..4)"));
            }
        }
        let mut missing = None;
        let mut no_pon = false;
        match e {
            Event::Tsumo { actor, pai } => {
                let rinshan = matches!(
                    self.last,
                    Some(Event::Ankan { .. } | Event::Daiminkan { .. } | Event::Kakan { .. } | Event::Kita { .. })
                );
                self.kita_draw = matches!(self.last, Some(Event::Kita { .. }));
                let s = &mut self.seats[usize::from(*actor)];
                s.tehai.push(*pai);
                s.drawn = Some(*pai);
                s.actions.push(Action::Tsumo { pai: *pai, rinshan });
                self.draws += 1;
                self.rinshan = rinshan;
            }
            Event::Dahai { actor, pai, tsumogiri } => {
                let s = &mut self.seats[usize::from(*actor)];
                if !s.take(*pai) {
                    missing = Some(*pai);
                }
                let riichi = s.reach_pending;
                if !riichi {
                    s.ippatsu = false;
                }
                s.river.push(Discard { pai: *pai, tsumogiri: *tsumogiri, riichi, called: false });
                s.actions.push(Action::Dahai { pai: *pai, tsumogiri: *tsumogiri, riichi });
            }
            Event::Reach { actor } => {
                let s = &mut self.seats[usize::from(*actor)];
                s.reach = true;
                s.reach_pending = true;
            }
            Event::ReachAccepted { actor } => {
                let a = usize::from(*actor);
                let double = self.uninterrupted && self.seats[a].river.len() == 1;
                let s = &mut self.seats[a];
                s.reach_pending = false;
                s.riichi = if double { Riichi::Double } else { Riichi::Riichi };
                s.ippatsu = true;
                self.scores[a] -= 1000;
                self.kyotaku = self.kyotaku.saturating_add(1);
            }
            Event::Chi { actor, target, pai, consumed } | Event::Pon { actor, target, pai, consumed } => {
                let chi = matches!(e, Event::Chi { .. });
                let s = &mut self.seats[usize::from(*actor)];
                missing = consumed.iter().copied().find(|&t| !s.take(t));
                let kind = if chi { MeldKind::Chi } else { MeldKind::Pon };
                s.melds.push(Meld { kind, tiles: vec![consumed[0], consumed[1], *pai] });
                s.actions.push(if chi {
                    Action::Chi { target: *target, pai: *pai, consumed: *consumed }
                } else {
                    Action::Pon { target: *target, pai: *pai, consumed: *consumed }
                });
                self.called(*actor, *target);
            }
            Event::Daiminkan { actor, target, pai, consumed } => {
                let s = &mut self.seats[usize::from(*actor)];
                missing = consumed.iter().copied().find(|&t| !s.take(t));
                let tiles = vec![consumed[0], consumed[1], consumed[2], *pai];
                s.melds.push(Meld { kind: MeldKind::Daiminkan, tiles });
                s.actions.push(Action::Daiminkan { target: *target, pai: *pai, consumed: *consumed });
                self.kan_makers.push(*actor);
                self.called(*actor, *target);
            }
            Event::Kakan { actor, pai, consumed } => {
                let s = &mut self.seats[usize::from(*actor)];
                if !s.take(*pai) {
                    missing = Some(*pai);
                }
                let pon = s.melds.iter_mut().find(|m| m.kind == MeldKind::Pon && m.tiles[0].kind() == pai.kind());
                match pon {
                    Some(m) => {
                        m.kind = MeldKind::Kakan;
                        m.tiles.push(*pai);
                    }
                    None => {
                        no_pon = true;
                        let mut tiles = consumed.to_vec();
                        tiles.push(*pai);
                        s.melds.push(Meld { kind: MeldKind::Kakan, tiles });
                    }
                }
                s.actions.push(Action::Kakan { pai: *pai, consumed: *consumed });
                self.kan_makers.push(*actor);
                self.interrupt();
            }
            Event::Ankan { actor, consumed } => {
                let s = &mut self.seats[usize::from(*actor)];
                missing = consumed.iter().copied().find(|&t| !s.take(t));
                s.melds.push(Meld { kind: MeldKind::Ankan, tiles: consumed.to_vec() });
                s.actions.push(Action::Ankan { consumed: *consumed });
                self.kan_makers.push(*actor);
                self.interrupt();
            }
            Event::Kita { actor, pai } => {
                // Three-player: the North leaves the hand (nukidora); the replacement
                // `tsumo` follows. Kita ends every ippatsu and the first go-around.
                let s = &mut self.seats[usize::from(*actor)];
                if !s.take(*pai) {
                    missing = Some(*pai);
                }
                s.kita = s.kita.saturating_add(1);
                s.drawn = None;
                s.actions.push(Action::Kita { pai: *pai });
                self.interrupt();
            }
            Event::Dora { dora_marker } => self.dora_markers.push(*dora_marker),
            Event::Hora { deltas, .. } => {
                self.add(deltas);
                self.kyotaku = 0;
            }
            Event::Ryukyoku { deltas, .. } => self.add(deltas),
            Event::StartGame { .. } | Event::StartKyoku { .. } | Event::EndKyoku | Event::EndGame | Event::None => {}
        }
        match (e.actor(), missing) {
            (Some(a), Some(t)) => Err(format!("seat {a} does not hold {t}")),
            (Some(a), None) if no_pon => Err(format!("seat {a} has no pon to add to")),
            _ => Ok(()),
        }
    }

    fn add(&mut self, deltas: &Option<[i32; 4]>) {
        if let Some(d) = deltas {
            for (s, x) in self.scores.iter_mut().zip(d) {
                *s += x;
            }
        }
    }

    fn interrupt(&mut self) {
        self.uninterrupted = false;
        for s in &mut self.seats {
            s.ippatsu = false;
        }
    }

    /// After `actor` called `target`'s last discard: marks it called, ends ippatsu and the
    /// first go-around, and records the pao of a call that completes the third dragon or
    /// fourth wind set.
    fn called(&mut self, actor: Seat, target: Seat) {
        if let Some(d) = self.seats[usize::from(target)].river.last_mut() {
            d.called = true;
        }
        self.interrupt();
        let s = &mut self.seats[usize::from(actor)];
        let sets = |range: std::ops::RangeInclusive<u8>| {
            s.melds.iter().filter(|m| m.kind != MeldKind::Chi && range.contains(&m.tiles[0].kind())).count()
        };
        if s.pao.is_none() {
            if sets(31..=33) == 3 {
                s.pao = Some((target, "daisangen"));
            } else if sets(27..=30) == 4 {
                s.pao = Some((target, "daisuushii"));
            }
        }
    }

    /// The hand `actor` wins now on `target` (itself for tsumo), as the log shows it: ron
    /// on the last discard, chankan on a kakan (or an ankan), tsumo on the tile drawn, with
    /// the ura indicators `ura` (counted only for a riichi winner). Score it with
    /// [`crate::hand::evaluate`].
    ///
    /// Errors ([`NoWin::Invalid`], one line) when the log shows no such win: a seat outside
    /// `0..4`, a tsumo without a draw, a ron that follows no discard or kan.
    pub fn win_context(&self, actor: Seat, target: Seat, ura: &[Tile]) -> Result<WinContext, NoWin> {
        let Some(s) = self.seats.get(usize::from(actor)) else {
            return Err(NoWin::Invalid(format!("seat {actor} is not a seat (0..4)")));
        };
        let tsumo = actor == target;
        let (win_tile, chankan) = match (&self.last, tsumo) {
            (_, true) => (s.drawn.ok_or_else(|| NoWin::Invalid("a tsumo win without a draw".into()))?, false),
            (Some(Event::Dahai { pai, .. }), false) => (*pai, false),
            (Some(Event::Kakan { pai, .. }), false) => (*pai, true),
            (Some(Event::Ankan { consumed, .. }), false) => (consumed[0], true),
            // A robbed kita is no chankan.
            (Some(Event::Kita { pai, .. }), false) => (*pai, false),
            _ => return Err(NoWin::Invalid("a ron that follows no discard, kan or kita".into())),
        };
        let mut held = SeatState { tehai: s.tehai.clone(), ..SeatState::default() };
        if tsumo && !held.take(win_tile) {
            return Err(NoWin::Invalid(format!("the winning tile {win_tile} is not in the hand")));
        }
        let rinshan = tsumo && self.rinshan && (!self.kita_draw || self.kita_is_rinshan);
        let riichi = s.riichi;
        Ok(WinContext {
            tehai: held.tehai,
            win_tile,
            melds: s.melds.clone(),
            tsumo,
            riichi,
            ippatsu: s.ippatsu && riichi != Riichi::None,
            last_tile: self.draws == self.live_tiles() && !chankan && !(tsumo && self.rinshan),
            rinshan,
            chankan,
            first_draw: tsumo && self.uninterrupted && s.river.is_empty(),
            bakaze: self.start.bakaze.kind(),
            jikaze: self.jikaze(actor),
            dora_markers: self.dora_markers.clone(),
            ura_markers: if riichi == Riichi::None { Vec::new() } else { ura.to_vec() },
        })
    }
}
