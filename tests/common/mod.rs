//! Shared helpers for the hand-evaluation tests: build a [`WinContext`] from compact
//! notation with a few builder calls.

#![allow(dead_code)]

pub mod gen;

use mjai_sim::engine::hand::{evaluate, HandScore, Meld, MeldKind, NoWin, Riichi, WinContext};
use mjai_sim::engine::tile::parse_compact;

/// A ron win for a non-dealer (South seat) in an East round, nothing else set.
pub fn ron(tehai: &str, win: &str) -> WinContext {
    WinContext {
        tehai: parse_compact(tehai).unwrap(),
        win_tile: parse_compact(win).unwrap()[0],
        melds: Vec::new(),
        tsumo: false,
        riichi: Riichi::None,
        ippatsu: false,
        last_tile: false,
        rinshan: false,
        chankan: false,
        first_draw: false,
        bakaze: 27,
        jikaze: 28,
        dora_markers: Vec::new(),
        ura_markers: Vec::new(),
    }
}

/// Same as [`ron`] but a tsumo.
pub fn tsumo(tehai: &str, win: &str) -> WinContext {
    WinContext { tsumo: true, ..ron(tehai, win) }
}

/// Adds a call given in compact notation.
pub fn meld(mut c: WinContext, kind: MeldKind, tiles: &str) -> WinContext {
    c.melds.push(Meld { kind, tiles: parse_compact(tiles).unwrap() });
    c
}

/// Sets riichi.
pub fn riichi(mut c: WinContext) -> WinContext {
    c.riichi = Riichi::Riichi;
    c
}

/// Makes the winner the dealer (seat East).
pub fn dealer(mut c: WinContext) -> WinContext {
    c.jikaze = 27;
    c
}

/// Scores, panicking with the reason when the hand does not win.
pub fn score(c: &WinContext) -> HandScore {
    evaluate(c).unwrap_or_else(|e| panic!("expected a win: {e}"))
}

/// The error of a hand that must not win.
pub fn no_win(c: &WinContext) -> NoWin {
    evaluate(c).expect_err("expected no win")
}

/// Yaku names of a score, sorted.
pub fn names(s: &HandScore) -> Vec<&'static str> {
    let mut v: Vec<&'static str> = s.yaku.iter().map(|&(n, _)| n).collect();
    v.sort_unstable();
    v
}

/// Asserts yaku set (any order), han, fu and the winner's total before honba.
pub fn check(c: &WinContext, yaku: &[&str], han: u8, fu: u8, total: i32) {
    let s = score(c);
    let mut want: Vec<&str> = yaku.to_vec();
    want.sort_unstable();
    assert_eq!(names(&s), want, "yaku of {s:?}");
    assert_eq!(s.han, han, "han of {s:?}");
    if fu > 0 {
        assert_eq!(s.fu, fu, "fu of {s:?}");
    }
    assert_eq!(s.payment.total(c.jikaze == 27), total, "points of {s:?}");
}
