//! Yakuman under Tenhou rules (variants single, different yakuman stack) and invalid input.
//! Expected values from the rules: one yakuman is 32000 (non-dealer) / 48000 (dealer).

use crate::common::*;
use mjai_sim::engine::hand::{MeldKind, NoWin};

fn yakuman(c: &mjai_sim::engine::hand::WinContext, yaku: &[&str], count: u8, total: i32) {
    let s = score(c);
    assert_eq!(s.yakuman, count, "{s:?}");
    check(c, yaku, 13 * count, 0, total);
}

#[test]
fn tenhou_and_chiihou() {
    let mut c = dealer(tsumo("123m456p789s1122z", "2z"));
    c.first_draw = true;
    // Dealer tsumo yakuman: 16000 from each = 48000.
    yakuman(&c, &["tenhou"], 1, 48000);
    c.jikaze = 28;
    yakuman(&c, &["chiihou"], 1, 32000);
}

#[test]
fn kokushi_single_and_13_sided_are_one_yakuman() {
    yakuman(&ron("19m19p19s1234566z", "7z"), &["kokushi"], 1, 32000);
    // Tenhou: 13-sided kokushi is not a double yakuman.
    yakuman(&dealer(ron("19m19p19s1234567z", "1m")), &["kokushi juusanmen"], 1, 48000);
}

#[test]
fn suuankou_tsumo_vs_ron_on_shanpon() {
    yakuman(&tsumo("111m333p555s77s99m", "7s"), &["suuankou"], 1, 32000);
    // Ron completes 777s: open, so toitoi 2 + sanankou 2 = 4 han;
    // 20+10+8+4+4+2 = 48 -> 50 fu: mangan 8000.
    check(&ron("111m333p555s77s99m", "7s"), &["sanankou", "toitoi"], 4, 50, 8000);
}

#[test]
fn suuankou_tanki_is_single() {
    yakuman(&ron("111m333p555s777s9m", "9m"), &["suuankou tanki"], 1, 32000);
}

#[test]
fn daisangen() {
    yakuman(&ron("555z666z777z123m9p", "9p"), &["daisangen"], 1, 32000);
}

#[test]
fn shousuushii_and_daisuushii() {
    yakuman(&ron("111z222z333z44z12m", "3m"), &["shousuushii"], 1, 32000);
    // pon NNN keeps suuankou out: daisuushii alone is one yakuman on Tenhou.
    let c = meld(ron("111z222z333z5m", "5m"), MeldKind::Pon, "444z");
    yakuman(&c, &["daisuushii"], 1, 32000);
}

#[test]
fn tsuuiisou_standard_and_seven_pairs() {
    // EEE SSS PPP closed, CCC by ron, FF pair: only three closed triplets, not daisangen.
    yakuman(&ron("111z222z555z66z77z", "7z"), &["tsuuiisou"], 1, 32000);
    yakuman(&ron("1122334455667z", "7z"), &["tsuuiisou"], 1, 32000);
}

#[test]
fn ryuuiisou_without_hatsu_allowed() {
    yakuman(&ron("223344s666s88s66z", "6z"), &["ryuuiisou"], 1, 32000);
    // Tenhou: hatsu is not required.
    yakuman(&ron("223344s666s888s3s", "3s"), &["ryuuiisou"], 1, 32000);
}

#[test]
fn chinroutou_and_stacking() {
    let c = meld(ron("999m111p999p1s", "1s"), MeldKind::Pon, "111m");
    yakuman(&c, &["chinroutou"], 1, 32000);
    // Different yakuman stack: chinroutou + suuankou tanki = 64000.
    yakuman(&ron("111m999m111p999p1s", "1s"), &["chinroutou", "suuankou tanki"], 2, 64000);
}

#[test]
fn chuuren_and_junsei() {
    yakuman(&ron("1112345678899m", "9m"), &["chuuren"], 1, 32000);
    // Nine-sided wait: junsei, still a single yakuman on Tenhou.
    yakuman(&ron("1112345678999m", "5m"), &["junsei chuuren"], 1, 32000);
}

#[test]
fn suukantsu() {
    let c = ron("5p", "5p");
    let c = meld(c, MeldKind::Daiminkan, "2222p");
    let c = meld(c, MeldKind::Ankan, "3333s");
    let c = meld(c, MeldKind::Kakan, "4444m");
    let c = meld(c, MeldKind::Daiminkan, "6666s");
    yakuman(&c, &["suukantsu"], 1, 32000);
}

#[test]
fn invalid_inputs_are_errors_not_panics() {
    let too_many = ron("23499m567p234567s", "1s");
    assert!(matches!(no_win(&too_many), NoWin::Invalid(m) if m.contains("14 concealed")));
    let five = ron("11111m567p23456s", "1s");
    assert!(matches!(no_win(&five), NoWin::Invalid(m) if m.contains("5 copies of 1m")));
    let mut unknown = ron("23499m567p23456s", "1s");
    unknown.win_tile = mjai_sim::engine::tile::Tile::UNKNOWN;
    assert!(matches!(no_win(&unknown), NoWin::Invalid(m) if m.contains("'?'")));
    let two_red = ron("23499m005p23456s", "1s");
    assert!(matches!(no_win(&two_red), NoWin::Invalid(m) if m.contains("red 5p")));
    let bad_chi = meld(ron("567p345s6678s", "6s"), MeldKind::Chi, "235m");
    assert!(matches!(no_win(&bad_chi), NoWin::Invalid(m) if m.contains("chi")));
    let open_riichi = riichi(meld(ron("567p345s6678s", "6s"), MeldKind::Chi, "234m"));
    assert!(matches!(no_win(&open_riichi), NoWin::Invalid(m) if m.contains("riichi")));
    assert_eq!(no_win(&ron("23499m567p23456s", "9s")), NoWin::NotAgari);
}

#[test]
fn real_yakuman_beats_kazoe_of_equal_points() {
    // 222 333 444 888p + 66p tanki by tsumo: suuankou tanki. The 234p x3 reading with riichi
    // ippatsu tsumo tanyao chinitsu iipeikou + 3 ura is 14 han, kazoe yakuman, the same
    // 48000 for the dealer; Tenhou shows the yakuman.
    let mut c = riichi(dealer(tsumo("2223334446888p", "6p")));
    c.ippatsu = true;
    c.ura_markers = mjai_sim::engine::tile::parse_compact("1p").unwrap();
    yakuman(&c, &["suuankou tanki"], 1, 48000);
}
