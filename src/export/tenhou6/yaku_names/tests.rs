//! Every expected string below is copied from a `和了` entry of a real Tenhou game stored in
//! mjai-reviewer's `convlog/tests/testdata/` (file named in each case); the score around it
//! is the engine's reading of that hand (yaku, han, fu; payment from `base_points`).

use super::*;
use mjai_sim_engine::hand::{base_points, payment, HandScore};

const E: u8 = 27;
const S: u8 = 28;

fn score(yaku: &[(&'static str, u8)], fu: u8, yakuman: u8, dealer: bool, tsumo: bool) -> HandScore {
    let han = yaku.iter().map(|y| y.1).sum();
    HandScore { yaku: yaku.to_vec(), han, fu, yakuman, payment: payment(base_points(han, fu, yakuman), dealer, tsumo) }
}

fn entry(s: &HandScore, dealer: bool, jikaze: u8, bakaze: u8) -> Vec<String> {
    let mut v = vec![point_string(s, dealer)];
    v.extend(yaku_strings(s, jikaze, bakaze));
    v
}

#[test]
fn ron_below_mangan() {
    // complex_nakis_1.json, E1: [1,0,1,"30符2飜2000点","役牌 白(1飜)","赤ドラ(1飜)"]
    let s = score(&[("yakuhai haku", 1), ("aka dora", 1)], 30, 0, false, false);
    assert_eq!(entry(&s, false, S, E), ["30符2飜2000点", "役牌 白(1飜)", "赤ドラ(1飜)"]);
    // ranked_game.json, E1: [3,2,3,"30符4飜7700点","役牌 發(1飜)","混一色(2飜)","赤ドラ(1飜)"] (open honitsu)
    let s = score(&[("honitsu", 2), ("yakuhai hatsu", 1), ("aka dora", 1)], 30, 0, false, false);
    assert_eq!(entry(&s, false, 30, E), ["30符4飜7700点", "役牌 發(1飜)", "混一色(2飜)", "赤ドラ(1飜)"]);
    // double_kakan_then_chankan.json, E2: [3,0,3,"30符2飜2000点","槍槓(1飜)","平和(1飜)"]
    let s = score(&[("pinfu", 1), ("chankan", 1)], 30, 0, false, false);
    assert_eq!(entry(&s, false, 30, E), ["30符2飜2000点", "槍槓(1飜)", "平和(1飜)"]);
    // confusing_nakis_5.json, S1: [0,3,0,"30符1飜1500点","場風 南(1飜)"] (dealer ron)
    let s = score(&[("yakuhai bakaze", 1)], 30, 0, true, false);
    assert_eq!(entry(&s, true, E, S), ["30符1飜1500点", "場風 南(1飜)"]);
}

#[test]
fn tsumo_forms() {
    // suukantsu_1.json, E1: [1,1,1,"30符3飜1000-2000点","場風 東(1飜)","混全帯幺九(1飜)","ドラ(1飜)"]
    let s = score(&[("chanta", 1), ("yakuhai bakaze", 1), ("dora", 1)], 30, 0, false, true);
    assert_eq!(entry(&s, false, S, E), ["30符3飜1000-2000点", "場風 東(1飜)", "混全帯幺九(1飜)", "ドラ(1飜)"]);
    // confusing_nakis_3.json, S4: [2,2,2,"30符2飜500-1000点","役牌 白(1飜)","ドラ(1飜)"]
    let s = score(&[("yakuhai haku", 1), ("dora", 1)], 30, 0, false, true);
    assert_eq!(entry(&s, false, N, S), ["30符2飜500-1000点", "役牌 白(1飜)", "ドラ(1飜)"]);
    // ranked_game.json, E2 (dealer tsumo, open tanyao): [1,1,1,"30符4飜3900点∀","断幺九(1飜)","ドラ(1飜)","赤ドラ(2飜)"]
    let s = score(&[("tanyao", 1), ("dora", 1), ("aka dora", 2)], 30, 0, true, true);
    assert_eq!(entry(&s, true, E, E), ["30符4飜3900点∀", "断幺九(1飜)", "ドラ(1飜)", "赤ドラ(2飜)"]);
    // rinshan.json, S2: [3,3,3,"満貫2000-4000点","立直(1飜)","嶺上開花(1飜)","門前清自摸和(1飜)","ドラ(1飜)","赤ドラ(1飜)"]
    let s = score(
        &[("riichi", 1), ("menzen tsumo", 1), ("rinshan kaihou", 1), ("dora", 1), ("aka dora", 1), ("ura dora", 0)],
        40,
        0,
        false,
        true,
    );
    assert_eq!(
        entry(&s, false, W, S),
        ["満貫2000-4000点", "立直(1飜)", "嶺上開花(1飜)", "門前清自摸和(1飜)", "ドラ(1飜)", "赤ドラ(1飜)"]
    );
}

const W: u8 = 29;
const N: u8 = 30;

#[test]
fn seat_wind_and_dora() {
    // complex_nakis_0.json, E3: [3,3,3,"30符3飜1000-2000点","自風 南(1飜)","ドラ(1飜)","赤ドラ(1飜)"]
    let s = score(&[("yakuhai jikaze", 1), ("dora", 1), ("aka dora", 1)], 30, 0, false, true);
    assert_eq!(entry(&s, false, S, E), ["30符3飜1000-2000点", "自風 南(1飜)", "ドラ(1飜)", "赤ドラ(1飜)"]);
    // confusing_nakis_4.json, S4 1 honba: [0,3,0,"30符3飜3900点","役牌 發(1飜)","ドラ(2飜)"]
    let s = score(&[("yakuhai hatsu", 1), ("dora", 2)], 30, 0, false, false);
    assert_eq!(entry(&s, false, S, S), ["30符3飜3900点", "役牌 發(1飜)", "ドラ(2飜)"]);
}

#[test]
fn limits_and_yakuman() {
    // chankan.json, E1: [2,3,2,"満貫8000点","槍槓(1飜)","場風 東(1飜)","ドラ(1飜)","赤ドラ(2飜)"]
    let s = score(&[("chankan", 1), ("yakuhai bakaze", 1), ("dora", 1), ("aka dora", 2)], 30, 0, false, false);
    assert_eq!(entry(&s, false, W, E), ["満貫8000点", "槍槓(1飜)", "場風 東(1飜)", "ドラ(1飜)", "赤ドラ(2飜)"]);
    // double_ron.json, S4: [0,3,0,"跳満12000点","立直(1飜)","ドラ(3飜)","赤ドラ(2飜)"] (ura shown: none)
    let s = score(&[("riichi", 1), ("dora", 3), ("aka dora", 2), ("ura dora", 0)], 40, 0, false, false);
    assert_eq!(entry(&s, false, S, S), ["跳満12000点", "立直(1飜)", "ドラ(3飜)", "赤ドラ(2飜)"]);
    // ranked_game.json, E2 1 honba: [1,2,1,"跳満18000点","三色同順(1飜)","断幺九(1飜)","ドラ(1飜)","赤ドラ(3飜)"] (dealer)
    let s = score(&[("tanyao", 1), ("sanshoku doujun", 1), ("dora", 1), ("aka dora", 3)], 30, 0, true, false);
    assert_eq!(entry(&s, true, E, E), ["跳満18000点", "三色同順(1飜)", "断幺九(1飜)", "ドラ(1飜)", "赤ドラ(3飜)"]);
    // suukantsu_1.json, E2 (double ron): [0,2,0,"倍満16000点","立直(1飜)","役牌 白(1飜)","ドラ(2飜)","裏ドラ(4飜)"]
    let s = score(&[("riichi", 1), ("yakuhai haku", 1), ("dora", 2), ("ura dora", 4)], 50, 0, false, false);
    assert_eq!(entry(&s, false, N, E), ["倍満16000点", "立直(1飜)", "役牌 白(1飜)", "ドラ(2飜)", "裏ドラ(4飜)"]);
    // suukantsu_0.json, S1: [2,1,2,"役満32000点","四槓子(役満)"]
    let s = score(&[("suukantsu", 13)], 0, 1, false, false);
    assert_eq!(entry(&s, false, S, E), ["役満32000点", "四槓子(役満)"]);
}

#[test]
fn names_cover_every_engine_yaku() {
    // Tenhou's yaku table (mjlog AGARI ids): spot checks of the less common ones.
    assert_eq!(yaku_name("kokushi juusanmen", E, E).unwrap(), "国士無双１３面");
    assert_eq!(yaku_name("junsei chuuren", E, E).unwrap(), "純正九蓮宝燈");
    assert_eq!(yaku_name("haitei", E, E).unwrap(), "海底摸月");
    assert_eq!(yaku_name("toitoi", E, E).unwrap(), "対々和");
    assert_eq!(yaku_name("yakuhai jikaze", N, E).unwrap(), "自風 北");
    assert_eq!(yaku_name("no such yaku", E, E), None);
    // Sanbaiman and kazoe yakuman (no kiriage: 4 han 30 fu stays 7700).
    let s = score(&[("chinitsu", 6), ("riichi", 1), ("dora", 4)], 30, 0, false, false);
    assert_eq!(point_string(&s, false), "三倍満24000点");
    let s = score(&[("chinitsu", 6), ("riichi", 1), ("dora", 6)], 30, 0, false, false);
    assert_eq!(point_string(&s, false), "役満32000点");
    let s = score(&[("riichi", 1), ("tanyao", 1), ("dora", 2)], 30, 0, false, false);
    assert_eq!(point_string(&s, false), "30符4飜7700点");
    let s = score(&[("daisangen", 13), ("tsuuiisou", 13)], 0, 2, true, true);
    assert_eq!(entry(&s, true, E, E), ["役満32000点∀", "大三元(役満)", "字一色(役満)"]);
}

#[test]
fn nukidora_is_counted_in_dora_as_tenhou_does() {
    // A real Tenhou sanma game, 2021010217gm-00b9-0000-3eb2e915 (hidacow/mjai-reviewer3p
    // convlog/tests/testdata/double_nukidora.json), E2: the dealer's one kita and no dora
    // tile: [1,0,1,"満貫12000点","立直(1飜)","一盃口(1飜)","ドラ(1飜)","裏ドラ(2飜)"]
    let s = score(&[("riichi", 1), ("iipeikou", 1), ("ura dora", 2), ("nukidora", 1)], 40, 0, true, false);
    assert_eq!(entry(&s, true, E, E), ["満貫12000点", "立直(1飜)", "一盃口(1飜)", "ドラ(1飜)", "裏ドラ(2飜)"]);
    // With dora tiles as well, one ドラ entry holds both.
    let s = score(&[("riichi", 1), ("dora", 2), ("nukidora", 2)], 40, 0, false, false);
    assert_eq!(entry(&s, false, S, E), ["満貫8000点", "立直(1飜)", "ドラ(4飜)"]);
}
