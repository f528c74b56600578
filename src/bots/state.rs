//! [`PlayerState`]: what one seat knows, rebuilt from the (masked) mjai events it receives.
//!
//! Pure bookkeeping: no decision here. The seat's legal options are computed from this
//! state in [`super::options`].

use crate::engine::event::{Event, Seat};
use crate::engine::hand::{self, Meld, MeldKind};
use crate::engine::tile::{to_counts, Tile, KINDS};

/// Live-wall draws per kyoku (136 − 52 dealt − 14 dead wall), as mjai's `tiles_left` counts.
pub const WALL_DRAWS: u8 = 70;

/// What the seat is being asked about after the latest event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Moment {
    /// Nothing to decide (another seat's turn, or between hands).
    #[default]
    Idle,
    /// The seat just drew `pai` (possibly a rinshan draw) and must discard or declare.
    Drawn {
        /// The drawn tile.
        pai: Tile,
    },
    /// The seat called chi or pon and must discard (kuikae applies).
    AfterCall,
    /// The seat declared riichi and must discard a tile that keeps it tenpai.
    AfterReach,
    /// Another seat discarded `pai`: ron, pon, chi, daiminkan or pass.
    Discarded {
        /// The discarder.
        actor: Seat,
        /// The discarded tile.
        pai: Tile,
    },
    /// Another seat made an ankan of `pai` while this seat is kokushi tenpai on it:
    /// chankan (Tenhou allows robbing an ankan for kokushi only) or pass.
    Ankan {
        /// The seat making the kan.
        actor: Seat,
        /// A tile of the kan.
        pai: Tile,
    },
    /// Another seat added `pai` to a pon: chankan or pass.
    Kakan {
        /// The seat making the kan.
        actor: Seat,
        /// The added tile.
        pai: Tile,
    },
}

/// Everything a seat knows about the current game, from its own point of view.
///
/// Feed it every event the seat receives with [`PlayerState::update`] (masked events are
/// fine: other seats' tiles are `?`). Points are in points, sticks in sticks.
#[derive(Debug, Clone)]
pub struct PlayerState {
    /// This seat (from `start_game.id`; 0 until then).
    pub seat: Seat,
    /// Round wind tile (E, S, W).
    pub bakaze: Tile,
    /// Hand number 1..=4.
    pub kyoku: u8,
    /// Honba sticks.
    pub honba: u8,
    /// Riichi sticks on the table.
    pub kyotaku: u8,
    /// Dealer seat.
    pub oya: Seat,
    /// Scores in points, seat order.
    pub scores: [i32; 4],
    /// Own concealed tiles, the drawn tile included while it is the seat's turn.
    pub tehai: Vec<Tile>,
    /// Calls of every seat, in order made.
    pub melds: [Vec<Meld>; 4],
    /// Discards of every seat, called ones included, in order.
    pub rivers: [Vec<Tile>; 4],
    /// Dora indicators shown.
    pub dora_markers: Vec<Tile>,
    /// Riichi accepted, per seat.
    pub riichi: [bool; 4],
    /// The riichi was declared on the seat's first uninterrupted turn (double riichi).
    pub double_riichi: bool,
    /// Draws left in the live wall (70 at the start of a kyoku).
    pub tiles_left: u8,
    /// Tiles of each kind this seat can see: own hand, every river, every call, dora markers.
    pub visible: [u8; KINDS],
    /// The current question (see [`Moment`]).
    pub moment: Moment,
    /// Kinds this seat may not discard right after its call (Tenhou kuikae rule).
    pub kuikae: Vec<u8>,
    /// Wait kinds (bit per kind) of the hand after the seat's last discard; 0 when not tenpai.
    pub waits: u64,
    /// Missed a winning tile since the last own discard.
    pub temp_furiten: bool,
    /// Missed a winning tile while in riichi: furiten for the rest of the hand.
    pub riichi_furiten: bool,
    /// Ippatsu still alive for this seat.
    pub ippatsu: bool,
    /// The last draw was a rinshan draw after this seat's kan.
    pub rinshan: bool,
    /// No call has been made in this kyoku yet (first go-around still uninterrupted).
    pub no_calls: bool,
    /// Kans made in this kyoku by all seats.
    pub kans: u8,
    riichi_declared: [bool; 4],
    kan_pending: bool,
    pending_wait_check: Option<u8>,
}

impl Default for PlayerState {
    fn default() -> Self {
        PlayerState {
            seat: 0,
            bakaze: Tile::from_kind(27).unwrap_or_default(),
            kyoku: 1,
            honba: 0,
            kyotaku: 0,
            oya: 0,
            scores: [25000; 4],
            tehai: Vec::new(),
            melds: Default::default(),
            rivers: Default::default(),
            dora_markers: Vec::new(),
            riichi: [false; 4],
            double_riichi: false,
            tiles_left: WALL_DRAWS,
            visible: [0; KINDS],
            moment: Moment::Idle,
            kuikae: Vec::new(),
            waits: 0,
            temp_furiten: false,
            riichi_furiten: false,
            ippatsu: false,
            rinshan: false,
            no_calls: true,
            kans: 0,
            riichi_declared: [false; 4],
            kan_pending: false,
            pending_wait_check: None,
        }
    }
}

impl PlayerState {
    /// A fresh state; the seat is set by `start_game`.
    pub fn new() -> PlayerState {
        PlayerState::default()
    }

    /// Applies one event as this seat sees it.
    pub fn update(&mut self, event: &Event) {
        self.settle_missed_win(event);
        match event {
            Event::StartGame { id, .. } => {
                *self = PlayerState { seat: id.unwrap_or(0), ..PlayerState::default() };
            }
            Event::StartKyoku { bakaze, dora_marker, kyoku, honba, kyotaku, oya, scores, tehais } => {
                let seat = self.seat;
                *self = PlayerState {
                    seat,
                    bakaze: *bakaze,
                    kyoku: *kyoku,
                    honba: *honba,
                    kyotaku: *kyotaku,
                    oya: *oya,
                    scores: *scores,
                    tehai: tehais[seat as usize].to_vec(),
                    dora_markers: vec![*dora_marker],
                    tiles_left: WALL_DRAWS,
                    no_calls: true,
                    ..PlayerState::default()
                };
                self.see(&[*dora_marker]);
                let own = self.tehai.clone();
                self.see(&own);
            }
            Event::Tsumo { actor, pai } => {
                self.tiles_left = self.tiles_left.saturating_sub(1);
                if *actor == self.seat {
                    self.tehai.push(*pai);
                    self.see(&[*pai]);
                    self.rinshan = self.kan_pending;
                    self.moment = Moment::Drawn { pai: *pai };
                } else {
                    self.moment = Moment::Idle;
                }
                self.kan_pending = false;
            }
            Event::Dahai { actor, pai, .. } => self.on_dahai(*actor, *pai),
            Event::Chi { actor, target, pai, consumed } => {
                self.on_call(*actor, *target, *pai, consumed, MeldKind::Chi);
            }
            Event::Pon { actor, target, pai, consumed } => {
                self.on_call(*actor, *target, *pai, consumed, MeldKind::Pon);
            }
            Event::Daiminkan { actor, target, pai, consumed } => {
                self.on_call(*actor, *target, *pai, consumed, MeldKind::Daiminkan);
            }
            Event::Kakan { actor, pai, consumed } => self.on_kakan(*actor, *pai, consumed),
            Event::Ankan { actor, consumed } => self.on_ankan(*actor, consumed),
            Event::Dora { dora_marker } => {
                self.dora_markers.push(*dora_marker);
                self.see(&[*dora_marker]);
            }
            Event::Reach { actor } => {
                self.riichi_declared[*actor as usize] = true;
                if *actor == self.seat {
                    self.double_riichi = self.no_calls && self.rivers[self.seat as usize].is_empty();
                    self.moment = Moment::AfterReach;
                }
            }
            Event::ReachAccepted { actor } => {
                let a = *actor as usize;
                self.riichi[a] = true;
                self.scores[a] -= 1000;
                self.kyotaku += 1;
                if *actor == self.seat {
                    self.ippatsu = true;
                }
            }
            Event::Hora { deltas, .. } | Event::Ryukyoku { deltas, .. } => {
                if let Some(d) = deltas {
                    for (s, d) in self.scores.iter_mut().zip(d) {
                        *s += d;
                    }
                }
                self.moment = Moment::Idle;
            }
            Event::EndKyoku | Event::EndGame | Event::None => self.moment = Moment::Idle,
        }
    }

    /// Own concealed tiles counted by kind.
    pub fn tehai_counts(&self) -> [u8; KINDS] {
        to_counts(&self.tehai)
    }

    /// Number of calls this seat has made (each takes three tiles from the concealed part).
    pub fn meld_count(&self) -> u8 {
        self.melds[self.seat as usize].len() as u8
    }

    /// True when the seat has made no open call (ankan keeps the hand closed).
    pub fn is_menzen(&self) -> bool {
        self.melds[self.seat as usize].iter().all(|m| !m.is_open())
    }

    /// Seat wind kind of this seat (27 = East for the dealer).
    pub fn jikaze(&self) -> u8 {
        27 + (self.seat + 4 - self.oya) % 4
    }

    /// Own discards as a bit per kind (for furiten).
    pub fn river_kinds(&self) -> u64 {
        self.rivers[self.seat as usize].iter().fold(0, |m, t| m | 1u64 << t.kind())
    }

    /// True when this seat may not ron now: a wait in its own river, a missed win since its
    /// last discard, or a missed win in riichi (Tenhou furiten rules).
    pub fn is_furiten(&self) -> bool {
        self.temp_furiten || self.riichi_furiten || self.waits & self.river_kinds() != 0
    }

    /// True when the concealed 13 tiles are a kokushi musou wait (all terminals/honors,
    /// no call, tenpai).
    pub fn is_kokushi_tenpai(&self) -> bool {
        let distinct = self.tehai_counts().iter().filter(|&&c| c > 0).count();
        self.melds[self.seat as usize].is_empty()
            && self.waits != 0
            && distinct >= 12
            && self.tehai.iter().all(|t| t.is_yaochuu())
    }

    /// True while this seat is in riichi or has just declared it.
    pub fn in_riichi(&self) -> bool {
        self.riichi[self.seat as usize] || self.riichi_declared[self.seat as usize]
    }

    fn see(&mut self, tiles: &[Tile]) {
        for t in tiles.iter().filter(|t| !t.is_unknown()) {
            self.visible[t.kind() as usize] += 1;
        }
    }

    /// Removes one tile equal to `t` from the own hand (exact match first, then same kind
    /// as a fallback for inconsistent input).
    fn take(&mut self, t: Tile) {
        let pos = self.tehai.iter().position(|&x| x == t).or_else(|| self.tehai.iter().position(|x| x.kind() == t.kind()));
        if let Some(p) = pos {
            self.tehai.remove(p);
        }
    }

    /// A winning tile passed by since the last event: furiten rules apply from now on.
    fn settle_missed_win(&mut self, event: &Event) {
        if let Some(kind) = self.pending_wait_check.take() {
            let won = matches!(event, Event::Hora { actor, .. } if *actor == self.seat);
            if !won && self.waits & (1u64 << kind) != 0 {
                self.temp_furiten = true;
                if self.riichi[self.seat as usize] {
                    self.riichi_furiten = true;
                }
            }
        }
    }

    fn on_dahai(&mut self, actor: Seat, pai: Tile) {
        self.rivers[actor as usize].push(pai);
        if actor == self.seat {
            self.take(pai);
            if self.ippatsu && !self.riichi_declared_this_turn() {
                self.ippatsu = false;
            }
            self.temp_furiten = false;
            self.kuikae.clear();
            self.rinshan = false;
            self.moment = Moment::Idle;
            self.waits = self.compute_waits();
        } else {
            self.see(&[pai]);
            self.moment = Moment::Discarded { actor, pai };
            self.pending_wait_check = Some(pai.kind());
        }
        self.riichi_declared[actor as usize] = self.riichi_declared[actor as usize] && !self.riichi[actor as usize];
    }

    /// True between the own `reach` and its `reach_accepted`.
    fn riichi_declared_this_turn(&self) -> bool {
        self.riichi_declared[self.seat as usize] && !self.riichi[self.seat as usize]
    }

    fn compute_waits(&self) -> u64 {
        let counts = self.tehai_counts();
        let n: u8 = counts.iter().sum();
        if n % 3 != 1 {
            return 0;
        }
        hand::waits(&counts, self.meld_count())
    }

    fn interrupt(&mut self) {
        self.no_calls = false;
        self.ippatsu = false;
    }

    fn on_call(&mut self, actor: Seat, _target: Seat, pai: Tile, consumed: &[Tile], kind: MeldKind) {
        self.interrupt();
        let mut tiles = consumed.to_vec();
        tiles.push(pai);
        if actor == self.seat {
            for &t in consumed {
                self.take(t);
            }
            self.kuikae = kuikae_kinds(kind, pai, consumed);
            self.moment = if kind == MeldKind::Daiminkan { Moment::Idle } else { Moment::AfterCall };
        } else {
            self.see(consumed);
            self.moment = Moment::Idle;
        }
        if kind == MeldKind::Daiminkan {
            self.kans += 1;
            self.kan_pending = true;
        }
        self.melds[actor as usize].push(Meld { kind, tiles });
    }

    fn on_kakan(&mut self, actor: Seat, pai: Tile, consumed: &[Tile; 3]) {
        self.interrupt();
        self.kans += 1;
        self.kan_pending = true;
        if actor == self.seat {
            self.take(pai);
            self.moment = Moment::Idle;
        } else {
            self.see(&[pai]);
            self.moment = Moment::Kakan { actor, pai };
            self.pending_wait_check = Some(pai.kind());
        }
        let melds = &mut self.melds[actor as usize];
        let pos = melds.iter().position(|m| m.kind == MeldKind::Pon && m.tiles[0].kind() == consumed[0].kind());
        let mut tiles = consumed.to_vec();
        tiles.push(pai);
        match pos {
            Some(p) => melds[p] = Meld { kind: MeldKind::Kakan, tiles },
            None => melds.push(Meld { kind: MeldKind::Kakan, tiles }),
        }
    }

    fn on_ankan(&mut self, actor: Seat, consumed: &[Tile; 4]) {
        self.interrupt();
        self.kans += 1;
        self.kan_pending = true;
        if actor == self.seat {
            for &t in consumed {
                self.take(t);
            }
            self.waits = if self.riichi[self.seat as usize] { self.compute_waits() } else { self.waits };
            self.moment = Moment::Idle;
        } else {
            self.see(consumed);
            let k = consumed[0].kind();
            let robbable = self.waits & (1u64 << k) != 0 && self.is_kokushi_tenpai();
            self.moment = if robbable { Moment::Ankan { actor, pai: consumed[0] } } else { Moment::Idle };
            if robbable {
                self.pending_wait_check = Some(k);
            }
        }
        self.melds[actor as usize].push(Meld { kind: MeldKind::Ankan, tiles: consumed.to_vec() });
    }
}

/// Kinds that may not be discarded right after a call (Tenhou: no genbutsu kuikae and no
/// suji kuikae): the called kind, and for a chi on an end (34 + 2 or 5) the kind at the
/// other end of the run.
pub fn kuikae_kinds(kind: MeldKind, pai: Tile, consumed: &[Tile]) -> Vec<u8> {
    let k = pai.kind();
    let mut out = vec![k];
    if kind == MeldKind::Chi {
        let (a, b) = (consumed[0].kind().min(consumed[1].kind()), consumed[0].kind().max(consumed[1].kind()));
        if k + 1 == a && b + 1 < 27 && (b + 1) / 9 == k / 9 && b % 9 != 8 {
            out.push(b + 1);
        } else if b + 1 == k && a % 9 != 0 {
            out.push(a - 1);
        }
    }
    out
}
