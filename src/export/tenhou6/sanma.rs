//! What tenhou.net/6 writes differently for a three-player game (sanma): the rest of the
//! format is the four-player one, seat 3 kept as an empty place.
//!
//! Sources (read, not copied): a real Tenhou sanma game in tenhou.net/6 form,
//! `2021010217gm-00b9-0000-3eb2e915` (`"rule":{"disp":"三鳳南喰赤"}`), stored as
//! `convlog/tests/testdata/double_nukidora.json` in hidacow/mjai-reviewer3p (mjai-reviewer's
//! three-player fork, whose `convlog/src/conv.rs` reads `"f44"` back as `nukidora`); and
//! Equim-chan/tensoul `convert.js` (Mahjong Soul to tenhou.net/6: `RecordBaBei` writes
//! `"f44"` into the discards, seat 3's name is `""`). In Tenhou's log:
//!
//! - `name` has four entries, the fourth `""`; `sc` has eight, seat 3's `0, 0`; each kyoku's
//!   start scores and every deltas list have four, seat 3's `0`; seat 3's haipai, takes and
//!   discards are `[]`.
//! - A kita is `"f44"` in the seat's discard list, where it was made (no tsumogiri mark:
//!   "tenhou doesn't mark its kita based on when they were drawn", tensoul); its
//!   replacement draw is an ordinary take.
//! - Calls keep the four-seat geometry: seen from East, South is shimocha and West toimen
//!   (the empty North would be kamicha), so [`super::tiles`]'s call strings are unchanged.
//! - Nukidora is counted in `ドラ(N飜)` (the game above: E2's riichi ron and S3-2's
//!   riichi tsumo, each with one kita and no dora tile, show `ドラ(1飜)`); Mahjong Soul
//!   conversions write `抜きドラ` instead.
//! - `sc` results: 40,000 returned, uma +20 / 0 / −20 and the oka (3 × 5,000) to the top:
//!   47,200 / 31,900 / 25,900 give 42 / −8 / −34 in the game above (Tenhou rounds to
//!   whole thousands first; this export keeps one decimal, as its four-player results do).

use mjai_sim_engine::game::Players;
use mjai_sim_engine::tile::Tile;

use super::tiles;

/// `rule.disp` for the table size: `般南喰赤` (四麻) or `三般南喰赤` (三麻: the general
/// lobby, East-South, open tanyao, red fives).
pub fn rule_disp(players: Players) -> &'static str {
    match players {
        Players::Four => "般南喰赤",
        Players::Three => "三般南喰赤",
    }
}

/// A kita in a discard list: `f` + the tile's code (`"f44"` for North).
pub fn kita(pai: Tile) -> String {
    format!("f{}", tiles::code(pai))
}

/// Points returned before the `sc` result (30,000; 40,000 at three seats).
pub fn returned(players: Players) -> i32 {
    match players {
        Players::Four => 30000,
        Players::Three => 40000,
    }
}

/// The uma by place, the oka included in the first: 20 + 20 / 10 / −10 / −20 (four seats)
/// or 20 + 15 / 0 / −20 (three seats).
pub fn uma(players: Players) -> &'static [f64] {
    match players {
        Players::Four => &[40.0, 10.0, -10.0, -20.0],
        Players::Three => &[35.0, 0.0, -20.0],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_player_terms_match_tenhous_log() {
        assert_eq!(kita("N".parse().unwrap()), "f44");
        assert_eq!(rule_disp(Players::Three), "三般南喰赤");
        // 2021010217gm-00b9-0000-3eb2e915: 47200 first, 31900 second, 25900 third.
        let result = |score: i32, place: usize| {
            f64::from(score - returned(Players::Three)) / 1000.0 + uma(Players::Three)[place]
        };
        assert_eq!([result(47200, 0), result(31900, 1), result(25900, 2)].map(f64::round), [42.0, -8.0, -34.0]);
    }
}
