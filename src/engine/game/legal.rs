//! The exact set of legal answers for each seat at the current decision point.
//!
//! Tenhou rules: chi only from the kamicha; no call on the last discard (houtei); no kan
//! when four kans are on the table or the live wall is empty; no call that would leave no
//! legal discard (kuikae); riichi needs a closed hand, 1000 points and at least 4 tiles
//! left in the live wall; after riichi only the drawn tile may go, and an ankan only when
//! it uses the drawn tile and keeps the waits; ron needs no furiten and a yaku; a kakan can
//! be robbed by any winning hand, an ankan only by kokushi musou tenpai (Tenhou).
//!
//! Three-player (sanma): no chi; `kita` after one's own draw while the live wall is not
//! empty (RiichiEnv `sanma.rs` `get_kita_legal_actions`: a drawn tile and
//! `drawable_count > 0`), after riichi only the drawn North (RiichiEnv PR #233); a kita
//! may be robbed by any winning hand.

use crate::event::{Event, Seat};
use crate::hand::{shanten, waits, MeldKind, Riichi};
use crate::tile::Tile;

use super::decision::Decision;
use super::kyoku::{Kyoku, Phase};
use super::player::Player;
use super::shape;
use crate::rules::Players;

/// The pending decisions, with their storage kept between rebuilds: once warm, computing
/// the legal sets of a whole game allocates nothing.
#[derive(Debug, Clone, Default)]
pub struct Pending {
    decisions: Vec<Decision>,
    /// Emptied legal lists, kept for the next decisions.
    spare: Vec<Vec<Event>>,
}

impl Pending {
    /// Every seat with a real choice now, in seat order.
    pub fn as_slice(&self) -> &[Decision] {
        &self.decisions
    }

    /// Forgets the decisions (their lists go back to the spare ones).
    pub fn clear(&mut self) {
        while self.drop_last() {}
    }

    /// Moves answer `j` of decision `i` out (it leaves `none` behind); the decisions are
    /// rebuilt after every answer, so nothing reads it again.
    pub fn take(&mut self, i: usize, j: usize) -> Event {
        std::mem::replace(&mut self.decisions[i].legal[j], Event::None)
    }

    /// Recomputes the decisions for kyoku `k`.
    pub fn refill(&mut self, k: &Kyoku) {
        self.clear();
        match k.phase {
            Phase::Turn { seat, after_call } => {
                let legal = self.open(seat);
                turn_options(k, seat, after_call, legal);
            }
            Phase::Discarded { seat, tile } => self.claims(k, seat, tile, ClaimKind::Discard),
            Phase::Kakan { seat, tile } => self.claims(k, seat, tile, ClaimKind::Kakan),
            Phase::Ankan { seat, tile } => self.claims(k, seat, tile, ClaimKind::Ankan),
            Phase::Kita { seat, tile } => self.claims(k, seat, tile, ClaimKind::Kita),
            Phase::Over => {}
        }
    }

    /// Starts a decision for `seat` and returns its (empty) legal list.
    fn open(&mut self, seat: Seat) -> &mut Vec<Event> {
        let legal = self.spare.pop().unwrap_or_default();
        self.decisions.push(Decision { seat, legal });
        &mut self.decisions.last_mut().expect("just pushed").legal
    }

    /// Answers to `from`'s discard, kakan or ankan of `tile`: a decision for each other seat
    /// that may win or call (with `none` to pass), in seat order.
    fn claims(&mut self, k: &Kyoku, from: Seat, tile: Tile, kind: ClaimKind) {
        for s in (0..k.seats()).filter(|&s| s != from) {
            let p = &k.players[s as usize];
            let wins = p.waits() >> tile.kind() & 1 == 1
                && !p.is_furiten()
                && (kind != ClaimKind::Ankan || (k.rules.kokushi_robs_ankan && shape::is_kokushi_shape(&p.counts())))
                && k.score_win(s, tile, false, matches!(kind, ClaimKind::Kakan | ClaimKind::Ankan)).is_some();
            let may_call =
                kind == ClaimKind::Discard && p.riichi == Riichi::None && !p.reach_declared && k.live_left() > 0;
            if !(wins || may_call && could_call(k, p, s, from, tile)) {
                continue;
            }
            let legal = self.open(s);
            if wins {
                legal.push(Event::Hora { actor: s, target: from, pai: Some(tile), deltas: None, ura_markers: None });
            }
            if may_call {
                calls_on(k, p, s, from, tile, legal);
            }
            if legal.is_empty() {
                self.drop_last();
            } else {
                legal.push(Event::None);
            }
        }
    }

    /// Drops the last decision, keeping its emptied list; false when there was none.
    fn drop_last(&mut self) -> bool {
        let Some(d) = self.decisions.pop() else { return false };
        let mut legal = d.legal;
        legal.clear();
        self.spare.push(legal);
        true
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ClaimKind {
    Discard,
    Kakan,
    Ankan,
    Kita,
}

fn sorted<const N: usize>(mut t: [Tile; N]) -> [Tile; N] {
    t.sort_by_key(|t| (t.kind(), t.is_red()));
    t
}

/// Discards of distinct tiles passing `allow`, each with its tsumogiri flag, in tile
/// order, appended to `out`.
fn dahai_options(p: &Player, seat: Seat, allow: impl Fn(Tile) -> bool, out: &mut Vec<Event>) {
    // A sorted copy of the hand: equal tiles form runs, so each distinct tile and how many
    // are held come in one pass (no set, no recount per tile).
    // Kept on the stack: a hand holds at most 14 tiles.
    let mut buf = [Tile::default(); 14];
    let n = p.tehai.len().min(buf.len());
    buf[..n].copy_from_slice(&p.tehai[..n]);
    let sorted_tehai = &mut buf[..n];
    sorted_tehai.sort_unstable();
    // The (tile, tsumogiri) pairs first, then one `extend` that writes the events in place.
    let mut options = [(Tile::default(), false); 15];
    let mut count = 0;
    for run in sorted_tehai.chunk_by(|a, b| a == b) {
        let t = run[0];
        if !allow(t) {
            continue;
        }
        let drawn = usize::from(p.drawn == Some(t));
        if run.len() > drawn {
            options[count] = (t, false);
            count += 1;
        }
        if drawn == 1 {
            options[count] = (t, true);
            count += 1;
        }
    }
    out.extend(options[..count].iter().map(|&(pai, tsumogiri)| Event::Dahai { actor: seat, pai, tsumogiri }));
}

/// True when discarding `t` from this `3k+2` hand leaves tenpai.
fn tenpai_after(p: &Player, t: Tile) -> bool {
    let mut c = p.counts();
    c[t.kind() as usize] -= 1;
    shanten(&c, p.calls.len() as u8) == 0
}

/// Everything `seat` may do on its own turn, appended to `out`.
fn turn_options(k: &Kyoku, seat: Seat, after_call: bool, out: &mut Vec<Event>) {
    let p = &k.players[seat as usize];
    if after_call {
        return dahai_options(p, seat, |t| p.kuikae >> t.kind() & 1 == 0, out);
    }
    if p.reach_declared {
        return dahai_options(p, seat, |t| k.rules.allow_noten_riichi_discard || tenpai_after(p, t), out);
    }
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
        kita_option(k, p, seat, out);
        return;
    }
    dahai_options(p, seat, |_| true, out);
    let may_reach =
        p.is_closed() && k.scores[seat as usize] >= 1000 && k.live_left() >= usize::from(k.rules.riichi_min_live);
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
    if k.uninterrupted && p.kawa.is_empty() && shape::yaochuu_kinds(&counts) >= 9 {
        out.push(Event::Ryukyoku { actor: Some(seat), deltas: None, reason: None });
    }
    kita_option(k, p, seat, out);
}

/// The `kita` a three-player seat may make now: it holds a North, has drawn, and the live
/// wall is not empty; in riichi only the drawn North (RiichiEnv PR #233, "Restrict
/// post-riichi kita to the drawn North"), and never between `reach` and its discard.
fn kita_option(k: &Kyoku, p: &Player, seat: Seat, out: &mut Vec<Event>) {
    const NORTH: u8 = 30;
    if k.rules.players != Players::Three || p.drawn.is_none() || k.live_left() == 0 || p.count(NORTH) == 0 {
        return;
    }
    if p.riichi != Riichi::None && p.drawn.map(|d| d.kind()) != Some(NORTH) {
        return;
    }
    out.push(Event::Kita { actor: seat, pai: Tile::from_kind(NORTH).expect("N") });
}

fn ankan_of(p: &Player, seat: Seat, kind: u8) -> Event {
    let tiles: Vec<Tile> = p.tehai.iter().copied().filter(|t| t.kind() == kind).collect();
    Event::Ankan { actor: seat, consumed: sorted(<[Tile; 4]>::try_from(tiles).expect("four of a kind")) }
}

/// A quick filter before [`calls_on`]: `s` holds two of the kind (pon), or is the next seat
/// at a four-player table and holds a neighbour of a suited tile (chi). Kuikae and red
/// fives are left to `calls_on`.
fn could_call(k: &Kyoku, p: &Player, s: Seat, from: Seat, tile: Tile) -> bool {
    let kind = tile.kind();
    if p.count(kind) >= 2 {
        return true;
    }
    if !k.rules.players.allows_chi() || s != k.next_seat(from) || tile.is_honor() {
        return false;
    }
    let n = tile.number();
    let held = |d: i8| {
        let m = n as i8 + d;
        (1..=9).contains(&m) && p.count((kind as i8 + d) as u8) > 0
    };
    (held(-2) && held(-1)) || (held(-1) && held(1)) || (held(1) && held(2))
}

/// Distinct ways (by red fives) to take `N` tiles of `kind` from the hand, plain tiles
/// first in each; at most two (one red five per kind).
fn picks<const N: usize>(p: &Player, kind: u8) -> impl Iterator<Item = [Tile; N]> {
    let base = Tile::from_kind(kind).expect("kind");
    let red = base.akaize().filter(|r| p.tehai.contains(r));
    let reds = usize::from(red.is_some());
    let plain = p.count(kind) as usize - reds;
    (0..=reds.min(N)).filter(move |&r| N - r <= plain).map(move |r| {
        let mut v = [base; N];
        if let Some(red) = red {
            v[N - r..].fill(red);
        }
        v
    })
}

/// Chi, pon and daiminkan that `s` may make on `from`'s discard of `tile`, appended to
/// `out`.
fn calls_on(k: &Kyoku, p: &Player, s: Seat, from: Seat, tile: Tile, out: &mut Vec<Event>) {
    let kind = tile.kind();
    // A call must leave some tile that kuikae allows.
    let can_discard = |consumed: &[Tile], forbidden: u64| {
        if k.rules.allow_kuikae {
            return true;
        }
        // `consumed` comes from `picks`, so every tile of it is held: the hand keeps an
        // allowed tile when it holds more allowed tiles than the call takes.
        let held_forbidden: usize = (0..34u8).filter(|&x| forbidden >> x & 1 == 1).map(|x| p.count(x) as usize).sum();
        let taken_allowed = consumed.iter().filter(|t| forbidden >> t.kind() & 1 == 0).count();
        p.tehai.len() - held_forbidden > taken_allowed
    };
    if p.count(kind) >= 2 {
        for c in picks::<2>(p, kind) {
            if can_discard(&c, 1 << kind) {
                out.push(Event::Pon { actor: s, target: from, pai: tile, consumed: sorted(c) });
            }
        }
    }
    if p.count(kind) == 3 && k.kans() < 4 {
        if let Some(c) = picks::<3>(p, kind).next() {
            out.push(Event::Daiminkan { actor: s, target: from, pai: tile, consumed: sorted(c) });
        }
    }
    if k.rules.players.allows_chi() && s == k.next_seat(from) && !tile.is_honor() {
        let n = tile.number() as i8;
        for (a, b) in [(-2i8, -1i8), (-1, 1), (1, 2)] {
            if !(1..=9).contains(&(n + a)) || !(1..=9).contains(&(n + b)) {
                continue;
            }
            let (ka, kb) = ((kind as i8 + a) as u8, (kind as i8 + b) as u8);
            if p.count(ka) == 0 || p.count(kb) == 0 {
                continue;
            }
            for [ca] in picks::<1>(p, ka) {
                for [cb] in picks::<1>(p, kb) {
                    let consumed = [ca, cb];
                    let forbidden = super::kyoku::kuikae(tile, &consumed, MeldKind::Chi);
                    if can_discard(&consumed, forbidden) {
                        out.push(Event::Chi { actor: s, target: from, pai: tile, consumed });
                    }
                }
            }
        }
    }
}
