//! The one fixed action space of the environment, four- and three-player alike:
//! [`NUM_ACTIONS`] indices, each naming one kind of mjai answer. At a decision at most one
//! legal answer falls on each index ([`index_of`] is one-to-one over a decision's legal
//! answers), so a mask over the indices and the legal list say the same thing.
//!
//! | indices | answer | which one |
//! |---|---|---|
//! | 0..37 | `dahai`, `tsumogiri: false` | the tile's id: kinds 0..34 (1m..9m, 1p..9p, 1s..9s, E S W N P F C), then 34 5mr, 35 5pr, 36 5sr |
//! | 37 | `dahai`, `tsumogiri: true` | the drawn tile |
//! | 38 | `reach` | |
//! | 39..45 | `chi` | 39 low (the called tile is the lowest: 3 of 345 from 45), 40 low with a red five consumed, 41 middle, 42 middle red, 43 high, 44 high red |
//! | 45, 46 | `pon` | 45 no red five consumed, 46 a red five consumed |
//! | 47 | `daiminkan` | |
//! | 48..82 | `ankan` | 48 + the kind |
//! | 82..116 | `kakan` | 82 + the kind |
//! | 116 | `kita` | three-player only |
//! | 117 | `hora` | tsumo or ron: the one the decision offers |
//! | 118 | `ryukyoku` | kyuushu kyuuhai |
//! | 119 | `none` | pass |

use mjai_sim_engine::event::Event;
use mjai_sim_engine::tile::{Tile, KINDS};

/// Number of indices of the action space (0..120).
pub const NUM_ACTIONS: usize = 120;

/// First `dahai` index (`tsumogiri: false`): plus the tile's id (0..37).
pub const DAHAI: usize = 0;
/// `dahai` of the drawn tile (`tsumogiri: true`).
pub const TSUMOGIRI: usize = 37;
/// `reach`.
pub const REACH: usize = 38;
/// First `chi` index: low, low red, middle, middle red, high, high red.
pub const CHI: usize = 39;
/// `pon` without a red five consumed; [`PON`] + 1 with one.
pub const PON: usize = 45;
/// `daiminkan`.
pub const DAIMINKAN: usize = 47;
/// First `ankan` index: plus the kind (0..34).
pub const ANKAN: usize = 48;
/// First `kakan` index: plus the kind (0..34).
pub const KAKAN: usize = ANKAN + KINDS;
/// `kita` (three-player).
pub const KITA: usize = KAKAN + KINDS;
/// `hora` (tsumo or ron).
pub const HORA: usize = KITA + 1;
/// `ryukyoku` (kyuushu kyuuhai).
pub const RYUKYOKU: usize = HORA + 1;
/// `none` (pass).
pub const NONE: usize = RYUKYOKU + 1;

/// A set of indices of the action space: bit `i` is index `i`.
pub type Mask = u128;

/// The index of a legal answer; `None` for events that are never answers (`tsumo`,
/// `start_kyoku`, ...).
pub fn index_of(action: &Event) -> Option<usize> {
    Some(match action {
        Event::Dahai { tsumogiri: true, .. } => TSUMOGIRI,
        Event::Dahai { pai, tsumogiri: false, .. } => DAHAI + usize::from(pai.id()),
        Event::Reach { .. } => REACH,
        Event::Chi { pai, consumed, .. } => CHI + 2 * chi_position(*pai, consumed) + usize::from(has_red(consumed)),
        Event::Pon { consumed, .. } => PON + usize::from(has_red(consumed)),
        Event::Daiminkan { .. } => DAIMINKAN,
        Event::Ankan { consumed, .. } => ANKAN + usize::from(consumed[0].kind()),
        Event::Kakan { pai, .. } => KAKAN + usize::from(pai.kind()),
        Event::Kita { .. } => KITA,
        Event::Hora { .. } => HORA,
        Event::Ryukyoku { .. } => RYUKYOKU,
        Event::None => NONE,
        _ => return None,
    })
}

/// 0 when the called tile is the lowest of the run, 1 the middle, 2 the highest.
fn chi_position(pai: Tile, consumed: &[Tile; 2]) -> usize {
    consumed.iter().filter(|t| t.kind() < pai.kind()).count()
}

fn has_red(consumed: &[Tile]) -> bool {
    consumed.iter().any(|t| t.is_red())
}

/// The mask of a decision's legal answers.
pub fn mask_of(legal: &[Event]) -> Mask {
    legal.iter().filter_map(index_of).fold(0, |m, i| m | 1u128 << i)
}

/// The position in `legal` of the answer at `index`; `None` when no legal answer falls on
/// it (or `index >= NUM_ACTIONS`).
pub fn position_of(legal: &[Event], index: usize) -> Option<usize> {
    if index >= NUM_ACTIONS {
        return None;
    }
    legal.iter().position(|a| index_of(a) == Some(index))
}

/// The legal answer at `index`, as the engine gives it (canonical mjai); `None` as for
/// [`position_of`].
pub fn action_of(legal: &[Event], index: usize) -> Option<&Event> {
    position_of(legal, index).map(|j| &legal[j])
}

/// A short name of each index (`dahai:5mr`, `tsumogiri`, `chi:low:red`, `ankan:E`,
/// `none`), for tables and debugging.
pub fn name_of(index: usize) -> String {
    const CHI_NAMES: [&str; 6] = ["low", "low:red", "mid", "mid:red", "high", "high:red"];
    match index {
        i if i < TSUMOGIRI => format!("dahai:{}", Tile::from_id(i as u8).map_or("?", Tile::as_mjai)),
        TSUMOGIRI => "tsumogiri".into(),
        REACH => "reach".into(),
        i if (CHI..PON).contains(&i) => format!("chi:{}", CHI_NAMES[i - CHI]),
        PON => "pon".into(),
        i if i == PON + 1 => "pon:red".into(),
        DAIMINKAN => "daiminkan".into(),
        i if (ANKAN..KAKAN).contains(&i) => format!("ankan:{}", kind_name(i - ANKAN)),
        i if (KAKAN..KITA).contains(&i) => format!("kakan:{}", kind_name(i - KAKAN)),
        KITA => "kita".into(),
        HORA => "hora".into(),
        RYUKYOKU => "ryukyoku".into(),
        NONE => "none".into(),
        _ => "out of range".into(),
    }
}

fn kind_name(kind: usize) -> &'static str {
    Tile::from_kind(kind as u8).map_or("?", Tile::as_mjai)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Tile {
        s.parse().unwrap()
    }

    #[test]
    fn the_layout_ends_at_num_actions_and_names_each_index_once() {
        assert_eq!(NONE + 1, NUM_ACTIONS);
        let names: std::collections::BTreeSet<String> = (0..NUM_ACTIONS).map(name_of).collect();
        assert_eq!(names.len(), NUM_ACTIONS);
        assert_eq!(name_of(36), "dahai:5sr");
        assert_eq!(name_of(ANKAN + 27), "ankan:E");
    }

    #[test]
    fn chi_variants_are_told_apart_by_position_and_red() {
        let chi = |pai: &str, a: &str, b: &str| Event::Chi { actor: 1, target: 0, pai: t(pai), consumed: [t(a), t(b)] };
        assert_eq!(index_of(&chi("3m", "4m", "5m")), Some(CHI));
        assert_eq!(index_of(&chi("3m", "4m", "5mr")), Some(CHI + 1));
        assert_eq!(index_of(&chi("4m", "3m", "5m")), Some(CHI + 2));
        assert_eq!(index_of(&chi("6m", "4m", "5mr")), Some(CHI + 5));
        let pon = Event::Pon { actor: 1, target: 0, pai: t("5p"), consumed: [t("5pr"), t("5p")] };
        assert_eq!(index_of(&pon), Some(PON + 1));
        let d = Event::Dahai { actor: 0, pai: t("5mr"), tsumogiri: false };
        assert_eq!(index_of(&d), Some(34));
        assert_eq!(position_of(&[Event::None, d.clone()], 34), Some(1));
        assert_eq!(action_of(&[d], NUM_ACTIONS + 3), None);
        assert_eq!(index_of(&Event::EndKyoku), None);
    }
}
