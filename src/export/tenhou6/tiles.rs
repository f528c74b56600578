//! Tiles and calls in tenhou.net/6 notation: tile codes `11..19` (m), `21..29` (p), `31..39`
//! (s), `41..47` (E S W N P F C), `51..53` (red 5m 5p 5s); `60` marks a tsumogiri in a
//! discard list, `0` the placeholder discard after a daiminkan.
//!
//! Call strings (Tenhou; the forms mjai-reviewer's `convlog` parses): the letter comes
//! before the claimed tile and its place tells where it came from: first = kamicha, after
//! one tile = toimen, after two (pon) or three (daiminkan) = shimocha. `c275226` (chi 7p),
//! `p151515`, `12p1212`, `3737p37`, `m39393939`, `26m262626`, `131313m13`; a kakan is the
//! pon with `k` and the added tile before the claimed one (`k51151515`); an ankan puts `a`
//! before its last tile (`121212a12`); a riichi discard is `r` + code (`r60` for a
//! tsumogiri riichi).

use mjai_sim_engine::event::Seat;
use mjai_sim_engine::tile::Tile;

/// Tenhou's code for a tile (`0` for the unknown tile `?`).
pub fn code(t: Tile) -> u8 {
    if t.is_unknown() {
        return 0;
    }
    if t.is_red() {
        return 51 + t.suit();
    }
    (t.suit() + 1) * 10 + t.number()
}

/// Tiles in Tenhou's order: by kind, a red five after the plain fives.
pub fn sorted(tiles: &[Tile]) -> Vec<Tile> {
    let mut v = tiles.to_vec();
    v.sort_by_key(|t| (t.kind(), t.is_red()));
    v
}

fn codes(tiles: &[Tile]) -> String {
    sorted(tiles).iter().map(|&t| code(t).to_string()).collect()
}

/// Where `target` sits seen from `actor`: 3 = kamicha, 2 = toimen, 1 = shimocha.
fn relative(actor: Seat, target: Seat) -> u8 {
    (target + 4 - actor) % 4
}

/// `letter` + claimed tile placed among `consumed` by the direction of `target`.
fn claim_string(letter: char, actor: Seat, target: Seat, pai: Tile, consumed: &[Tile]) -> String {
    let c = sorted(consumed);
    let claimed = format!("{letter}{}", code(pai));
    let before = match relative(actor, target) {
        3 => 0,
        2 => 1,
        _ => c.len(),
    };
    let mut s = codes(&c[..before]);
    s.push_str(&claimed);
    s.push_str(&codes(&c[before..]));
    s
}

/// A chi: `c` + claimed tile + the two tiles from the hand (`c275226`).
pub fn chi(pai: Tile, consumed: &[Tile; 2]) -> String {
    format!("c{}{}", code(pai), codes(consumed))
}

/// A pon of `target`'s `pai` by `actor` (`p151515`, `12p1212`, `3737p37`).
pub fn pon(actor: Seat, target: Seat, pai: Tile, consumed: &[Tile; 2]) -> String {
    claim_string('p', actor, target, pai, consumed)
}

/// A daiminkan (`m39393939`, `26m262626`, `131313m13`).
pub fn daiminkan(actor: Seat, target: Seat, pai: Tile, consumed: &[Tile; 3]) -> String {
    claim_string('m', actor, target, pai, consumed)
}

/// A kakan: the pon string (`pon`) with `p` replaced by `k` + the added tile.
pub fn kakan(pon: &str, added: Tile) -> String {
    pon.replacen('p', &format!("k{}", code(added)), 1)
}

/// An ankan: three tiles, `a`, the last (a red five last when there is one).
pub fn ankan(consumed: &[Tile; 4]) -> String {
    let c = sorted(consumed);
    format!("{}a{}", codes(&c[..3]), code(c[3]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Tile {
        s.parse().unwrap()
    }

    #[test]
    fn codes_and_calls_match_tenhou_logs() {
        assert_eq!((code(t("1m")), code(t("9p")), code(t("5sr")), code(t("C")), code(t("E"))), (11, 29, 53, 47, 41));
        // Forms from real Tenhou games in mjai-reviewer's convlog/tests/testdata.
        assert_eq!(chi(t("7p"), &[t("5pr"), t("6p")]), "c275226"); // complex_nakis_1.json
        assert_eq!(chi(t("6s"), &[t("7s"), t("5sr")]), "c365337"); // ranked_game.json
        assert_eq!(pon(1, 0, t("5m"), &[t("5m"), t("5m")]), "p151515"); // kamicha
        assert_eq!(pon(0, 2, t("2m"), &[t("2m"), t("2m")]), "12p1212"); // toimen
        assert_eq!(pon(2, 3, t("7s"), &[t("7s"), t("7s")]), "3737p37"); // shimocha
        assert_eq!(pon(2, 3, t("5p"), &[t("5pr"), t("5p")]), "2552p25"); // ranked_game.json
        assert_eq!(daiminkan(1, 0, t("9s"), &[t("9s"); 3]), "m39393939");
        assert_eq!(daiminkan(0, 1, t("5p"), &[t("5pr"), t("5p"), t("5p")]), "252552m25");
        assert_eq!(kakan("p151515", t("5mr")), "k51151515"); // ranked_game.json
        assert_eq!(kakan("3737p37", t("7s")), "3737k3737");
        assert_eq!(ankan(&[t("2m"); 4]), "121212a12");
    }
}
