//! The exact set of legal answers for each seat at the current decision point.
//!
//! Tenhou rules: chi only from the kamicha; no call on the last discard (houtei); no kan
//! when four kans are on the table or the live wall is empty; no call that would leave no
//! legal discard (kuikae); riichi needs a closed hand, 1000 points and at least 4 tiles
//! left in the live wall; after riichi only the drawn tile may go, and an ankan only when
//! it uses the drawn tile and keeps the waits; ron needs no furiten and a yaku; a kakan can
//! be robbed by any winning hand, an ankan only by kokushi musou tenpai (Tenhou).

use crate::engine::event::{Event, Seat};
use crate::engine::hand::{shanten, waits, MeldKind, Riichi};
use crate::engine::tile::Tile;

use super::agari;
use super::kyoku::{Kyoku, Phase};
use super::player::Player;
use super::Decision;

/// Every seat with a real choice now, in seat order.
pub fn decisions(k: &Kyoku) -> Vec<Decision> {
    match k.phase {
        Phase::Turn { seat, after_call } => vec![Decision { seat, legal: turn_options(k, seat, after_call) }],
        Phase::Discarded { seat, tile } => claims(k, seat, tile, ClaimKind::Discard),
        Phase::Kakan { seat, tile } => claims(k, seat, tile, ClaimKind::Kakan),
        Phase::Ankan { seat, tile } => claims(k, seat, tile, ClaimKind::Ankan),
        Phase::Over => Vec::new(),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ClaimKind {
    Discard,
    Kakan,
    Ankan,
}

fn sorted<const N: usize>(mut t: [Tile; N]) -> [Tile; N] {
    t.sort_by_key(|t| (t.kind(), t.is_red()));
    t
}

/// Discards of distinct tiles passing `allow`, each with its tsumogiri flag, in tile
/// order.
fn dahai_options(p: &Player, seat: Seat, allow: impl Fn(Tile) -> bool) -> Vec<Event> {
    // A sorted copy of the hand: equal tiles form runs, so each distinct tile and how many
    // are held come in one pass (no set, no recount per tile).
    // Kept on the stack: a hand holds at most 14 tiles.
    let mut buf = [Tile::default(); 14];
    let n = p.tehai.len().min(buf.len());
    buf[..n].copy_from_slice(&p.tehai[..n]);
    let sorted_tehai = &mut buf[..n];
    sorted_tehai.sort_unstable();
    let mut out = Vec::with_capacity(n + 1);
    for run in sorted_tehai.chunk_by(|a, b| a == b) {
        let t = run[0];
        if !allow(t) {
            continue;
        }
        let drawn = usize::from(p.drawn == Some(t));
        if run.len() > drawn {
            out.push(Event::Dahai { actor: seat, pai: t, tsumogiri: false });
        }
        if drawn == 1 {
            out.push(Event::Dahai { actor: seat, pai: t, tsumogiri: true });
        }
    }
    out
}

/// True when discarding `t` from this `3k+2` hand leaves tenpai.
fn tenpai_after(p: &Player, t: Tile) -> bool {
    let mut c = p.counts();
    c[t.kind() as usize] -= 1;
    shanten(&c, p.calls.len() as u8) == 0
}

fn turn_options(k: &Kyoku, seat: Seat, after_call: bool) -> Vec<Event> {
    let p = &k.players[seat as usize];
    if after_call {
        return dahai_options(p, seat, |t| !p.kuikae.contains(&t.kind()));
    }
    if p.reach_declared {
        return dahai_options(p, seat, |t| k.rules.allow_noten_riichi_discard || tenpai_after(p, t));
    }
    let mut out = Vec::new();
    let counts = p.counts();
    // One shanten per turn: it gates both the tsumo check (`score_win` needs -1) and riichi.
    let sh = shanten(&counts, p.calls.len() as u8);
    if let Some(d) = p.drawn {
        if sh == -1 && k.score_win(seat, d, true, false).is_some() {
            out.push(Event::Hora { actor: seat, target: seat, pai: Some(d), deltas: None, ura_markers: None });
        }
    }
    let can_kan = k.kans() < 4 && k.live_left() > 0;
    if p.riichi != Riichi::None {
        if let Some(d) = p.drawn {
            out.push(Event::Dahai { actor: seat, pai: d, tsumogiri: true });
            if can_kan && counts[d.kind() as usize] == 4 {
                let mut after = counts;
                after[d.kind() as usize] = 0;
                if p.waits() == waits(&after, p.calls.len() as u8 + 1) {
                    out.push(ankan_of(p, seat, d.kind()));
                }
            }
        }
        return out;
    }
    out.extend(dahai_options(p, seat, |_| true));
    let may_reach = p.is_closed() && k.scores[seat as usize] >= 1000 && k.live_left() >= 4;
    if may_reach && sh <= 0 && p.tehai.iter().any(|&t| tenpai_after(p, t)) {
        out.push(Event::Reach { actor: seat });
    }
    if can_kan {
        for kind in (0..34u8).filter(|&kind| counts[kind as usize] == 4) {
            out.push(ankan_of(p, seat, kind));
        }
        for c in p.calls.iter().filter(|c| c.meld.kind == MeldKind::Pon) {
            let kind = c.meld.tiles[0].kind();
            if let Some(&pai) = p.tehai.iter().find(|t| t.kind() == kind) {
                let consumed = sorted(<[Tile; 3]>::try_from(c.meld.tiles.clone()).expect("pon of 3"));
                out.push(Event::Kakan { actor: seat, pai, consumed });
            }
        }
    }
    if k.uninterrupted && p.kawa.is_empty() && agari::yaochuu_kinds(&counts) >= 9 {
        out.push(Event::Ryukyoku { actor: Some(seat), deltas: None, reason: None });
    }
    out
}

fn ankan_of(p: &Player, seat: Seat, kind: u8) -> Event {
    let tiles: Vec<Tile> = p.tehai.iter().copied().filter(|t| t.kind() == kind).collect();
    Event::Ankan { actor: seat, consumed: sorted(<[Tile; 4]>::try_from(tiles).expect("four of a kind")) }
}

fn claims(k: &Kyoku, from: Seat, tile: Tile, kind: ClaimKind) -> Vec<Decision> {
    let mut out = Vec::new();
    for s in (1..4u8).map(|i| (from + i) % 4) {
        let p = &k.players[s as usize];
        let mut legal = Vec::new();
        let wins = p.waits() >> tile.kind() & 1 == 1
            && !p.is_furiten()
            && (kind != ClaimKind::Ankan || agari::is_kokushi_shape(&p.counts()))
            && k.score_win(s, tile, false, kind != ClaimKind::Discard).is_some();
        if wins {
            legal.push(Event::Hora { actor: s, target: from, pai: Some(tile), deltas: None, ura_markers: None });
        }
        if kind == ClaimKind::Discard && p.riichi == Riichi::None && !p.reach_declared && k.live_left() > 0 {
            legal.extend(calls_on(k, p, s, from, tile));
        }
        if !legal.is_empty() {
            legal.push(Event::None);
            out.push(Decision { seat: s, legal });
        }
    }
    out.sort_by_key(|d| d.seat);
    out
}

/// Distinct ways (by red fives) to take `n` tiles of `kind` from the hand.
fn picks(p: &Player, kind: u8, n: usize) -> Vec<Vec<Tile>> {
    let (mut reds, mut plain) = (0, 0);
    for t in p.tehai.iter().filter(|t| t.kind() == kind) {
        if t.is_red() {
            reds += 1;
        } else {
            plain += 1;
        }
    }
    let mut out = Vec::new();
    for r in 0..=reds.min(n) {
        if n - r <= plain {
            let base = Tile::from_kind(kind).expect("kind");
            let mut v = vec![base; n - r];
            v.extend(std::iter::repeat_n(base.akaize().unwrap_or(base), r));
            v.sort_by_key(|t| t.is_red());
            out.push(v);
        }
    }
    out
}

fn calls_on(k: &Kyoku, p: &Player, s: Seat, from: Seat, tile: Tile) -> Vec<Event> {
    let mut out = Vec::new();
    let kind = tile.kind();
    let counts = p.counts();
    // A call must leave some tile that kuikae allows.
    let can_discard = |consumed: &[Tile], forbidden: &[u8]| {
        if k.rules.allow_kuikae {
            return true;
        }
        // `consumed` comes from `picks`, so every tile of it is held: the hand keeps an
        // allowed tile when it holds more allowed tiles than the call takes.
        let allowed = |ts: &[Tile]| ts.iter().filter(|t| !forbidden.contains(&t.kind())).count();
        allowed(&p.tehai) > allowed(consumed)
    };
    if counts[kind as usize] >= 2 {
        for c in picks(p, kind, 2) {
            if can_discard(&c, &[kind]) {
                let consumed = sorted([c[0], c[1]]);
                out.push(Event::Pon { actor: s, target: from, pai: tile, consumed });
            }
        }
    }
    if counts[kind as usize] == 3 && k.kans() < 4 {
        let c = picks(p, kind, 3).remove(0);
        out.push(Event::Daiminkan { actor: s, target: from, pai: tile, consumed: sorted([c[0], c[1], c[2]]) });
    }
    if s == (from + 1) % 4 && !tile.is_honor() {
        let n = tile.number() as i8;
        for (a, b) in [(-2i8, -1i8), (-1, 1), (1, 2)] {
            if !(1..=9).contains(&(n + a)) || !(1..=9).contains(&(n + b)) {
                continue;
            }
            let (ka, kb) = ((kind as i8 + a) as u8, (kind as i8 + b) as u8);
            if counts[ka as usize] == 0 || counts[kb as usize] == 0 {
                continue;
            }
            for ca in picks(p, ka, 1) {
                for cb in picks(p, kb, 1) {
                    let consumed = [ca[0], cb[0]];
                    let forbidden = super::kyoku::kuikae(tile, &consumed, MeldKind::Chi);
                    if can_discard(&consumed, &forbidden) {
                        out.push(Event::Chi { actor: s, target: from, pai: tile, consumed });
                    }
                }
            }
        }
    }
    out
}
