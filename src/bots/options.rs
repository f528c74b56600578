//! The legal options of one seat, computed from its [`PlayerState`] with the hand evaluator
//! (Tenhou rules). Every option is an mjai action in canonical form.

use crate::engine::event::{Event, Seat};
use crate::engine::hand::{self, MeldKind, Riichi, WinContext};
use crate::engine::tile::{to_counts, Tile, KINDS};

use super::state::{Moment, PlayerState};

impl PlayerState {
    /// Every legal answer now (empty when the seat has nothing to decide; contains
    /// `Event::None` when the seat may pass). Order: hora, ryukyoku, reach, kans, pon, chi,
    /// dahai, none.
    pub fn legal_actions(&self) -> Vec<Event> {
        let me = self.seat;
        match self.moment {
            Moment::Idle => Vec::new(),
            Moment::Drawn { pai } => {
                let mut out = Vec::new();
                if self.can_win_with(pai, true, false) {
                    out.push(Event::Hora { actor: me, target: me, pai: Some(pai), deltas: None, ura_markers: None });
                }
                if self.can_kyuushu() {
                    out.push(Event::Ryukyoku { actor: Some(me), deltas: None, reason: None });
                }
                if self.can_riichi() {
                    out.push(Event::Reach { actor: me });
                }
                out.extend(self.self_kans(pai));
                out.extend(self.discards(Some(pai), |_| true));
                out
            }
            Moment::AfterCall => self.discards(None, |t| !self.kuikae.contains(&t.kind())),
            Moment::AfterReach => {
                let melds = self.meld_count();
                let drawn = self.tehai.last().copied();
                self.discards(drawn, |t| {
                    let mut c = self.tehai_counts();
                    c[t.kind() as usize] -= 1;
                    hand::waits(&c, melds) != 0
                })
            }
            Moment::Discarded { actor, pai } => {
                let mut out = Vec::new();
                if self.can_win_with(pai, false, false) {
                    out.push(Event::Hora { actor: me, target: actor, pai: Some(pai), deltas: None, ura_markers: None });
                }
                if !self.in_riichi() && self.tiles_left > 0 {
                    out.extend(self.calls_on(actor, pai));
                }
                out.push(Event::None);
                out
            }
            Moment::Kakan { actor, pai } | Moment::Ankan { actor, pai } => {
                let mut out = Vec::new();
                if self.can_win_with(pai, false, true) {
                    out.push(Event::Hora { actor: me, target: actor, pai: Some(pai), deltas: None, ura_markers: None });
                }
                out.push(Event::None);
                out
            }
        }
    }

    /// True when `pai` completes the hand with a yaku: tsumo (it is already in `tehai`) or
    /// ron (not furiten). `chankan` for a robbed kakan.
    pub fn can_win_with(&self, pai: Tile, tsumo: bool, chankan: bool) -> bool {
        let mut tehai = self.tehai.clone();
        if tsumo {
            match tehai.iter().rposition(|&t| t == pai) {
                Some(p) => {
                    tehai.remove(p);
                }
                None => return false,
            }
        } else if self.waits & (1u64 << pai.kind()) == 0 || self.is_furiten() {
            return false;
        }
        let mut counts = to_counts(&tehai);
        counts[pai.kind() as usize] += 1;
        if hand::shanten(&counts, self.meld_count()) != -1 {
            return false;
        }
        let riichi = match (self.riichi[self.seat as usize], self.double_riichi) {
            (false, _) => Riichi::None,
            (true, false) => Riichi::Riichi,
            (true, true) => Riichi::Double,
        };
        let ctx = WinContext {
            tehai,
            win_tile: pai,
            melds: self.melds[self.seat as usize].clone(),
            tsumo,
            riichi,
            ippatsu: self.ippatsu,
            last_tile: self.tiles_left == 0 && !self.rinshan,
            rinshan: tsumo && self.rinshan,
            chankan,
            first_draw: tsumo && self.no_calls && self.rivers[self.seat as usize].is_empty(),
            bakaze: self.bakaze.kind(),
            jikaze: self.jikaze(),
            dora_markers: self.dora_markers.clone(),
            ura_markers: Vec::new(),
        };
        hand::evaluate(&ctx).is_ok()
    }

    /// Kyuushu kyuuhai: first uninterrupted draw with nine or more kinds of terminals/honors.
    pub fn can_kyuushu(&self) -> bool {
        if !self.no_calls || !self.rivers[self.seat as usize].is_empty() {
            return false;
        }
        let c = self.tehai_counts();
        (0..KINDS).filter(|&k| c[k] > 0 && Tile::from_kind(k as u8).is_some_and(|t| t.is_yaochuu())).count() >= 9
    }

    /// Riichi: closed hand, not yet in riichi, at least 1000 points, at least 4 draws left
    /// (Tenhou), and some discard leaves the hand tenpai.
    pub fn can_riichi(&self) -> bool {
        if self.in_riichi() || !self.is_menzen() || self.scores[self.seat as usize] < 1000 || self.tiles_left < 4 {
            return false;
        }
        let mut c = self.tehai_counts();
        let melds = self.meld_count();
        // The shanten of 14 tiles is the best shanten after one discard.
        if hand::shanten(&c, melds) > 0 {
            return false;
        }
        (0..KINDS).any(|k| {
            if c[k] == 0 {
                return false;
            }
            c[k] -= 1;
            let tenpai = hand::waits(&c, melds) != 0;
            c[k] += 1;
            tenpai
        })
    }

    /// Ankan and kakan options on the own turn (none on the last draw or after four kans).
    /// In riichi only an ankan of the drawn kind that keeps the waits (Tenhou).
    fn self_kans(&self, drawn: Tile) -> Vec<Event> {
        let me = self.seat;
        let mut out = Vec::new();
        if self.tiles_left == 0 || self.kans >= 4 {
            return out;
        }
        let counts = self.tehai_counts();
        for k in 0..KINDS as u8 {
            if counts[k as usize] != 4 {
                continue;
            }
            if self.in_riichi() && (drawn.kind() != k || !self.ankan_keeps_waits(k)) {
                continue;
            }
            let mut consumed: Vec<Tile> = self.tehai.iter().copied().filter(|t| t.kind() == k).collect();
            consumed.sort();
            if let Ok(consumed) = <[Tile; 4]>::try_from(consumed) {
                out.push(Event::Ankan { actor: me, consumed });
            }
        }
        if self.in_riichi() {
            return out;
        }
        for m in self.melds[me as usize].iter().filter(|m| m.kind == MeldKind::Pon) {
            let k = m.tiles[0].kind();
            if let Some(&pai) = self.tehai.iter().find(|t| t.kind() == k) {
                let mut consumed = [m.tiles[0], m.tiles[1], m.tiles[2]];
                consumed.sort();
                out.push(Event::Kakan { actor: me, pai, consumed });
            }
        }
        out
    }

    fn ankan_keeps_waits(&self, kind: u8) -> bool {
        let mut c = self.tehai_counts();
        c[kind as usize] = 0;
        hand::waits(&c, self.meld_count() + 1) == self.waits
    }

    /// One dahai per distinct tile allowed by `ok`; the drawn tile (if any) as tsumogiri.
    fn discards(&self, drawn: Option<Tile>, ok: impl Fn(Tile) -> bool) -> Vec<Event> {
        let me = self.seat;
        let mut out: Vec<Event> = Vec::new();
        let n = self.tehai.len();
        let in_riichi = self.riichi[me as usize];
        for (i, &t) in self.tehai.iter().enumerate() {
            let is_drawn = drawn.is_some() && i + 1 == n;
            if in_riichi && !is_drawn || !ok(t) {
                continue;
            }
            let e = Event::Dahai { actor: me, pai: t, tsumogiri: is_drawn };
            if !out.contains(&e) {
                out.push(e);
            }
        }
        out
    }

    /// Pon, daiminkan and chi on `actor`'s discard `pai`, each with every distinct choice
    /// of consumed tiles (red or not), and only when a legal discard would remain.
    fn calls_on(&self, actor: Seat, pai: Tile) -> Vec<Event> {
        let me = self.seat;
        let k = pai.kind();
        let mut same: Vec<Tile> = self.tehai.iter().copied().filter(|t| t.kind() == k).collect();
        same.sort();
        let mut out = Vec::new();
        if same.len() == 3 && self.kans < 4 {
            out.push(Event::Daiminkan { actor: me, target: actor, pai, consumed: [same[0], same[1], same[2]] });
        }
        if same.len() >= 2 {
            for pair in pairs(&same) {
                if self.discard_remains(MeldKind::Pon, pai, &pair) {
                    out.push(Event::Pon { actor: me, target: actor, pai, consumed: pair });
                }
            }
        }
        if (actor + 1) % 4 == me && k < 27 {
            let n = k % 9;
            let shapes: [(i8, i8); 3] = [(-2, -1), (-1, 1), (1, 2)];
            for (a, b) in shapes {
                let (na, nb) = (n as i8 + a, n as i8 + b);
                if !(0..9).contains(&na) || !(0..9).contains(&nb) {
                    continue;
                }
                let ta = self.options_of_kind((k as i8 + a) as u8);
                let tb = self.options_of_kind((k as i8 + b) as u8);
                for &x in &ta {
                    for &y in &tb {
                        let consumed = [x, y];
                        if self.discard_remains(MeldKind::Chi, pai, &consumed) {
                            out.push(Event::Chi { actor: me, target: actor, pai, consumed });
                        }
                    }
                }
            }
        }
        out
    }

    /// Distinct tiles of `kind` in hand (at most a red and a plain one).
    fn options_of_kind(&self, kind: u8) -> Vec<Tile> {
        let mut v: Vec<Tile> = self.tehai.iter().copied().filter(|t| t.kind() == kind).collect();
        v.sort();
        v.dedup();
        v
    }

    /// Tenhou forbids a call after which every remaining tile is a kuikae tile.
    fn discard_remains(&self, kind: MeldKind, pai: Tile, consumed: &[Tile]) -> bool {
        let banned = super::state::kuikae_kinds(kind, pai, consumed);
        let mut rest = self.tehai.clone();
        for c in consumed {
            if let Some(p) = rest.iter().position(|t| t == c) {
                rest.remove(p);
            }
        }
        rest.iter().any(|t| !banned.contains(&t.kind()))
    }
}

/// Distinct unordered pairs from `tiles` (by tile value: 5m+5mr and 5m+5m differ).
fn pairs(tiles: &[Tile]) -> Vec<[Tile; 2]> {
    let mut out: Vec<[Tile; 2]> = Vec::new();
    for i in 0..tiles.len() {
        for j in i + 1..tiles.len() {
            let mut p = [tiles[i], tiles[j]];
            p.sort();
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    out
}
