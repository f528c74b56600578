//! A win as the evaluator takes it and what it gives back: [`WinContext`] (the tiles, the
//! calls, the situation; winds as tile kinds 27..=30) with the winner's [`Riichi`] state,
//! and [`HandScore`] (yaku, han, fu, [`Payment`] in points before honba and kyotaku) or why
//! the hand does not score ([`NoWin`]). Tenhou's rules; `hand` re-exports them all.

use super::meld::Meld;
use crate::tile::Tile;

/// Riichi state of the winner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Riichi {
    /// No riichi.
    #[default]
    None,
    /// Riichi.
    Riichi,
    /// Double riichi (declared on the first uninterrupted turn).
    Double,
}

/// Everything needed to score one win. Winds are tile kinds (27 = E .. 30 = N).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WinContext {
    /// Concealed tiles without the winning tile (`13 - 3 * melds.len()` tiles).
    pub tehai: Vec<Tile>,
    /// The winning tile (drawn or claimed).
    pub win_tile: Tile,
    /// Calls, in the order made (ankan included).
    pub melds: Vec<Meld>,
    /// True for tsumo (self-draw), false for ron.
    pub tsumo: bool,
    /// Riichi state.
    pub riichi: Riichi,
    /// Ippatsu still alive.
    pub ippatsu: bool,
    /// Won on the last drawable tile (haitei with tsumo, houtei with ron).
    pub last_tile: bool,
    /// Won on a rinshan draw after a kan.
    pub rinshan: bool,
    /// Won by robbing a kakan.
    pub chankan: bool,
    /// Won on the first draw with no call made (tenhou for the dealer, chiihou otherwise).
    pub first_draw: bool,
    /// Round wind kind (27..=30).
    pub bakaze: u8,
    /// Seat wind kind (27..=30); 27 (East) is the dealer.
    pub jikaze: u8,
    /// Dora indicators shown (1..=5).
    pub dora_markers: Vec<Tile>,
    /// Ura indicators (counted only with riichi).
    pub ura_markers: Vec<Tile>,
}

/// Points for a win before honba and kyotaku. For ron, `ron` is what the discarder pays.
/// For tsumo, `tsumo_oya` is what the dealer pays (0 when the winner is the dealer) and
/// `tsumo_ko` what each non-dealer pays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Payment {
    /// Ron payment in points.
    pub ron: i32,
    /// Dealer's share of a tsumo, in points.
    pub tsumo_oya: i32,
    /// Each non-dealer's share of a tsumo, in points.
    pub tsumo_ko: i32,
}

/// Result of scoring a win.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandScore {
    /// Yaku names (Tenhou's English romanisation, e.g. `"riichi"`, `"dora"`) with their han;
    /// yakuman entries carry 13 per yakuman.
    pub yaku: Vec<(&'static str, u8)>,
    /// Total han (dora included); 13 per yakuman for yakuman hands.
    pub han: u8,
    /// Fu after rounding (e.g. 25 for chiitoitsu, 20 for pinfu tsumo); 0 for yakuman hands,
    /// where fu do not matter.
    pub fu: u8,
    /// Yakuman multiplier (0 when not a yakuman hand; also 0 for kazoe yakuman, which is
    /// 13+ han of regular yaku and scores as one yakuman).
    pub yakuman: u8,
    /// Points.
    pub payment: Payment,
}

/// Why a hand does not score.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoWin {
    /// The tiles do not form a complete hand.
    #[error("the tiles are not a complete hand")]
    NotAgari,
    /// Complete, but no yaku (dora alone is not a yaku).
    #[error("the hand is complete but has no yaku")]
    NoYaku,
    /// Tile count or tile multiplicity impossible (e.g. 15 tiles, five of a kind).
    #[error("invalid hand: {0}")]
    Invalid(String),
}
