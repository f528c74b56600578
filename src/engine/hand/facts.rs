//! Facts about a winning hand that do not depend on how it is decomposed: tile counts,
//! suits, situation flags. Built once per [`super::evaluate`] call and shared by every
//! reading of the hand.

use super::win::{Riichi, WinContext};
use crate::tile::KINDS;

/// Decomposition-independent facts about one win.
#[derive(Debug, Clone)]
pub(crate) struct Facts {
    /// Every tile of the hand by kind, calls included (kans count four).
    pub all: [u8; KINDS],
    /// The concealed tiles by kind, winning tile included.
    pub concealed: [u8; KINDS],
    /// Kind of the winning tile.
    pub win: u8,
    /// No open call (ankan allowed).
    pub menzen: bool,
    /// No call at all (ankan included); chuuren needs this.
    pub no_calls: bool,
    /// Number of kans of any kind.
    pub kans: u8,
    /// Self-draw.
    pub tsumo: bool,
    /// Riichi state.
    pub riichi: Riichi,
    /// Ippatsu alive.
    pub ippatsu: bool,
    /// Haitei raoyue (tsumo on the last tile; Tenhou: never together with rinshan).
    pub haitei: bool,
    /// Houtei raoyui (ron on the last discard).
    pub houtei: bool,
    /// Rinshan kaihou.
    pub rinshan: bool,
    /// Chankan.
    pub chankan: bool,
    /// First uninterrupted draw (tenhou / chiihou).
    pub first_draw: bool,
    /// Winner is the dealer (seat wind East).
    pub dealer: bool,
    /// Round wind kind.
    pub bakaze: u8,
    /// Seat wind kind.
    pub jikaze: u8,
    /// Bit `s` set when suit `s` (0 m, 1 p, 2 s) occurs.
    pub suits: u8,
    /// Some honor occurs.
    pub has_honor: bool,
    /// Every tile is a terminal or honor.
    pub all_yaochuu: bool,
    /// Every tile is a terminal (1 or 9).
    pub all_terminal: bool,
    /// Every tile is an honor.
    pub all_honor: bool,
    /// Every tile is 2s 3s 4s 6s 8s or hatsu (Tenhou: hatsu not required for ryuuiisou).
    pub all_green: bool,
    /// No terminal or honor anywhere (tanyao; open allowed on Tenhou).
    pub tanyao: bool,
}

/// Bit sets over tile kinds (bit `k` for kind `k`).
const HONORS: u64 = 0x7f << 27;
const TERMINALS: u64 = (1 << 0) | (1 << 8) | (1 << 9) | (1 << 17) | (1 << 18) | (1 << 26);
const YAOCHUU: u64 = HONORS | TERMINALS;
/// 2s 3s 4s 6s 8s and hatsu.
const GREEN: u64 = (1 << 19) | (1 << 20) | (1 << 21) | (1 << 23) | (1 << 25) | (1 << 32);
const SUIT: u64 = 0x1ff;

impl Facts {
    /// Collects the facts; `concealed` and `all` are computed by the caller after validation.
    pub fn new(ctx: &WinContext, concealed: [u8; KINDS], all: [u8; KINDS]) -> Facts {
        let present = (0..KINDS).filter(|&k| all[k] > 0).fold(0u64, |m, k| m | 1 << k);
        let suits = (0..3).filter(|s| present & (SUIT << (9 * s)) != 0).fold(0u8, |m, s| m | 1 << s);
        Facts {
            all,
            concealed,
            win: ctx.win_tile.kind(),
            menzen: ctx.melds.iter().all(|m| !m.is_open()),
            no_calls: ctx.melds.is_empty(),
            kans: ctx.melds.iter().filter(|m| m.is_kan()).count() as u8,
            tsumo: ctx.tsumo,
            riichi: ctx.riichi,
            ippatsu: ctx.ippatsu,
            haitei: ctx.last_tile && ctx.tsumo && !ctx.rinshan,
            houtei: ctx.last_tile && !ctx.tsumo,
            rinshan: ctx.rinshan,
            chankan: ctx.chankan,
            first_draw: ctx.first_draw,
            dealer: ctx.jikaze == 27,
            bakaze: ctx.bakaze,
            jikaze: ctx.jikaze,
            suits,
            has_honor: present & HONORS != 0,
            all_yaochuu: present & !YAOCHUU == 0,
            all_terminal: present & !TERMINALS == 0,
            all_honor: present & !HONORS == 0,
            all_green: present & !GREEN == 0,
            tanyao: present & YAOCHUU == 0,
        }
    }

    /// True for a kind that scores yakuhai as a triplet: dragons, seat wind, round wind.
    pub fn is_yakuhai(&self, kind: u8) -> bool {
        kind >= 31 || kind == self.jikaze || kind == self.bakaze
    }
}
