//! Regular yaku, fu and limits under Tenhou rules. Every expected value is worked out by hand
//! from the rules (comments give the arithmetic), never taken from the code under test.
//! Default seat: non-dealer South in an East round; points are the winner's total.

use crate::common::*;
use mjai_sim::engine::hand::{MeldKind, Riichi};
use mjai_sim::engine::tile::parse_compact;

#[test]
fn riichi_pinfu_ron_is_30_fu() {
    // 234m 567p 123s 456s 99m, 23s waiting 1s-4s: 2 han 30 fu (20 + 10 closed ron) = 2000.
    check(&riichi(ron("23499m567p23456s", "1s")), &["riichi", "pinfu"], 2, 30, 2000);
}

#[test]
fn pinfu_tsumo_is_20_fu() {
    // riichi + tsumo + pinfu = 3 han 20 fu: base 640, 700/1300 = 2700.
    check(&riichi(tsumo("23499m567p23456s", "1s")), &["riichi", "menzen tsumo", "pinfu"], 3, 20, 2700);
}

#[test]
fn kuitan_open_pinfu_shape_ron_is_30_fu() {
    // chi 234m, 567p 345s 678s 66s: open tanyao, no fu besides base: 20 -> 30. 1000.
    let c = meld(ron("567p345s6678s", "6s"), MeldKind::Chi, "234m");
    check(&c, &["tanyao"], 1, 30, 1000);
}

#[test]
fn open_tsumo_without_fu_is_30() {
    // Same hand by tsumo: 20 + 2 = 22 -> 30; 1 han 30 fu tsumo = 300/500 = 1100.
    let c = meld(tsumo("567p345s6678s", "6s"), MeldKind::Chi, "234m");
    check(&c, &["tanyao"], 1, 30, 1100);
}

#[test]
fn iipeikou_and_pinfu() {
    // 234m 234m 567p 789s 55p: iipeikou + pinfu = 2 han 30 fu = 2000.
    check(&ron("22334m567p789s55p", "4m"), &["iipeikou", "pinfu"], 2, 30, 2000);
}

#[test]
fn ryanpeikou_beats_chiitoitsu() {
    // 223344m 556677p 55s tanki: ryanpeikou 3 + tanyao 1 = 4 han, 20+10+2 = 32 -> 40: mangan.
    // (Chiitoitsu reading: 3 han 25 fu = 3200, lower.)
    check(&ron("223344m556677p5s", "5s"), &["ryanpeikou", "tanyao"], 4, 40, 8000);
}

#[test]
fn double_wind_triplet_counts_twice() {
    // Dealer in East round with EEE: jikaze + bakaze = 2 han; 20+10+8 (closed honor) +2 tanki
    // = 40 fu. Dealer ron 2 han 40 fu: 640*6 = 3840 -> 3900.
    let c = dealer(ron("123m456p789s111z5m", "5m"));
    check(&c, &["yakuhai bakaze", "yakuhai jikaze"], 2, 40, 3900);
}

#[test]
fn double_wind_pair_is_4_fu() {
    // Dealer, East round, pair EE, closed 999s: 20+10+8+4 = 42 -> 50. Riichi 1 han 50 fu dealer
    // ron: 400*6 = 2400. (With 2 fu for the pair it would be 40 fu, 2000.)
    let c = riichi(dealer(ron("234m567p999s78s11z", "6s")));
    check(&c, &["riichi"], 1, 50, 2400);
}

#[test]
fn dragon_triplets_pair_and_shousangen() {
    // PPP FFF CC 123m 45p + 6p: haku + hatsu + shousangen = 4 han;
    // 20+10+8+8+2 (dragon pair) = 48 -> 50 fu: mangan 8000.
    let c = ron("555z666z77z123m45p", "6p");
    check(&c, &["shousangen", "yakuhai haku", "yakuhai hatsu"], 4, 50, 8000);
}

#[test]
fn chanta_closed_and_open() {
    // 123m 789p 123s NNN 9m tanki: chanta 2; 20+10+8+2 = 40 fu: 2600.
    check(&ron("123m789p123s444z9m", "9m"), &["chanta"], 2, 40, 2600);
    // Open (chi 123m): chanta 1; 20+8+2 = 30 fu: 1000.
    let c = meld(ron("789p123s444z9m", "9m"), MeldKind::Chi, "123m");
    check(&c, &["chanta"], 1, 30, 1000);
}

#[test]
fn junchan_penchan() {
    // 123m 789m 789p 123s 99s, won on 3s penchan: junchan 3; 20+10+2 = 32 -> 40: 5200.
    check(&ron("123m789m789p12s99s", "3s"), &["junchan"], 3, 40, 5200);
    // Open: junchan 2; 20+2 = 22 -> 30: 2 han 30 fu = 2000.
    let c = meld(ron("789m789p12s99s", "3s"), MeldKind::Chi, "123m");
    check(&c, &["junchan"], 2, 30, 2000);
}

#[test]
fn honroutou_toitoi_sanankou_ron_triplet_open() {
    // 111m 999p 999s closed, 1s/E shanpon won by ron on E: EEE is open, so sanankou (3 closed)
    // still holds; toitoi 2 + honroutou 2 + sanankou 2 + bakaze 1 = 7: haneman 12000.
    let c = ron("111m999p999s11s11z", "1z");
    check(&c, &["honroutou", "sanankou", "toitoi", "yakuhai bakaze"], 7, 0, 12000);
}

#[test]
fn ittsu_closed() {
    // 123 456 789m 234p 55s: ittsu 2 + pinfu 1 = 3 han 30 fu: 960*4 = 3840 -> 3900.
    check(&ron("12345678m234p55s", "9m"), &["ittsu", "pinfu"], 3, 30, 3900);
}

#[test]
fn ittsu_open() {
    // chi 123m: ittsu 1; 20 -> 30 fu: 1000.
    let c = meld(ron("45678m234p55s", "9m"), MeldKind::Chi, "123m");
    check(&c, &["ittsu"], 1, 30, 1000);
}

#[test]
fn sanshoku_doujun_closed_and_open() {
    // 345m 345p 345s 678s 99m: sanshoku 2 + pinfu 1 = 3 han 30 fu: 3900.
    check(&ron("345m345p34s678s99m", "5s"), &["pinfu", "sanshoku doujun"], 3, 30, 3900);
    let c = meld(ron("345p34s678s99m", "5s"), MeldKind::Chi, "345m");
    check(&c, &["sanshoku doujun"], 1, 30, 1000);
}

#[test]
fn sanshoku_doukou_ron_vs_tsumo() {
    // 222m 222p 22s 456m 88p. Ron on 2s: 222s open, only two closed triplets.
    // doukou 2 + tanyao 1 = 3 han; 20+10+4+4+2 = 40 fu: 5200.
    check(&ron("222m222p22s456m88p", "2s"), &["sanshoku doukou", "tanyao"], 3, 40, 5200);
    // Tsumo: sanankou too: 2+2+1+1 = 6 han haneman: 3000/6000 = 12000.
    let c = tsumo("222m222p22s456m88p", "2s");
    check(&c, &["menzen tsumo", "sanankou", "sanshoku doukou", "tanyao"], 6, 0, 12000);
}

#[test]
fn toitoi_open() {
    // pon 555m, pon 777p, 333s closed, 22m/88p shanpon won on 2m by ron:
    // toitoi 2 + tanyao 1 = 3 han; 20+2+2+4+2 = 30 fu: 3900.
    let c = meld(meld(ron("333s88p22m", "2m"), MeldKind::Pon, "555m"), MeldKind::Pon, "777p");
    check(&c, &["tanyao", "toitoi"], 3, 30, 3900);
}

#[test]
fn sankantsu_and_kan_fu() {
    // daiminkan 2222p (8), ankan 3333s (16), kakan 4444m (8), 567s, 5p tanki (2):
    // 20+8+16+8+2 = 54 -> 60 fu; sankantsu 2 + tanyao 1 = 3 han: 1920*4 = 7680 -> 7700.
    let c = ron("567s5p", "5p");
    let c = meld(c, MeldKind::Daiminkan, "2222p");
    let c = meld(c, MeldKind::Ankan, "3333s");
    let c = meld(c, MeldKind::Kakan, "4444m");
    check(&c, &["sankantsu", "tanyao"], 3, 60, 7700);
}

#[test]
fn honitsu_closed_and_open() {
    // 123m 234m 789m NNN 55m: honitsu 3; 20+10+8 (+2 kanchan reading) -> 40 fu: 5200.
    check(&ron("12334m789m444z55m", "2m"), &["honitsu"], 3, 40, 5200);
    // pon NNN: honitsu 2; 20+4+2 = 26 -> 30: 2000.
    let c = meld(ron("12334m789m55m", "2m"), MeldKind::Pon, "444z");
    check(&c, &["honitsu"], 2, 30, 2000);
}

#[test]
fn chinitsu_pinfu_iipeikou_ittsu_is_baiman() {
    // 123p 123p 456p 789p 99p: chinitsu 6 + ittsu 2 + pinfu 1 + iipeikou 1 = 10: baiman 16000.
    check(&ron("11223345678p99p", "9p"), &["chinitsu", "iipeikou", "ittsu", "pinfu"], 10, 30, 16000);
}

#[test]
fn chinitsu_open() {
    // chi 123p, 123p 456p 789p 99p: chinitsu 5 + ittsu 1 = 6: haneman 12000.
    let c = meld(ron("12345678p99p", "9p"), MeldKind::Chi, "123p");
    check(&c, &["chinitsu", "ittsu"], 6, 30, 12000);
}

#[test]
fn chiitoitsu_is_25_fu() {
    // 2 han 25 fu ron: 400*4 = 1600; tsumo 3 han 25 fu: base 800 -> 800/1600 = 3200.
    check(&ron("1133m5577p99s117z", "7z"), &["chiitoitsu"], 2, 25, 1600);
    check(&tsumo("1133m5577p99s117z", "7z"), &["chiitoitsu", "menzen tsumo"], 3, 25, 3200);
}

#[test]
fn kanchan_wait_fu() {
    // 13m waiting on 2m, riichi: 20+10+2 = 32 -> 40 fu, 1 han: 320*4 = 1280 -> 1300.
    check(&riichi(ron("13m456p789s234s55m", "2m")), &["riichi"], 1, 40, 1300);
}

#[test]
fn situational_yaku() {
    let base = || ron("23499m567p23456s", "1s");
    let mut c = riichi(base());
    c.ippatsu = true;
    check(&c, &["ippatsu", "pinfu", "riichi"], 3, 30, 3900);
    let mut c = base();
    c.riichi = Riichi::Double;
    check(&c, &["double riichi", "pinfu"], 3, 30, 3900);
    let mut c = base();
    c.last_tile = true;
    check(&c, &["houtei", "pinfu"], 2, 30, 2000);
    let mut c = base();
    c.chankan = true;
    check(&c, &["chankan", "pinfu"], 2, 30, 2000);
    let mut c = tsumo("23499m567p23456s", "1s");
    c.last_tile = true;
    // haitei + tsumo + pinfu = 3 han 20 fu = 2700.
    check(&c, &["haitei", "menzen tsumo", "pinfu"], 3, 20, 2700);
}

#[test]
fn rinshan_kaihou() {
    // ankan 2222m, 345p 678p 55s + 67s won on 8s by rinshan tsumo.
    // rinshan 1 + menzen tsumo 1 + tanyao 1 = 3 han; 20+2+16 = 38 -> 40 fu: base 1280 ->
    // 1300/2600 = 5200.
    let mut c = meld(tsumo("345p678p55s67s", "8s"), MeldKind::Ankan, "2222m");
    c.rinshan = true;
    check(&c, &["menzen tsumo", "rinshan kaihou", "tanyao"], 3, 40, 5200);
    // Tenhou: no haitei on a rinshan draw.
    c.last_tile = true;
    check(&c, &["menzen tsumo", "rinshan kaihou", "tanyao"], 3, 40, 5200);
}

#[test]
fn dora_aka_ura() {
    // riichi pinfu ron + dora (indicator 1m -> 2m, one held) + red 5p + ura (indicator 8m -> 9m,
    // pair held: 2) = 2 + 1 + 1 + 2 = 6 han: haneman 12000.
    let mut c = riichi(ron("23499m067p23456s", "1s"));
    c.dora_markers = parse_compact("1m").unwrap();
    c.ura_markers = parse_compact("8m").unwrap();
    check(&c, &["aka dora", "dora", "pinfu", "riichi", "ura dora"], 6, 30, 12000);
    // Without riichi ura is ignored: pinfu + dora + aka = 3 han 30 fu = 3900.
    c.riichi = Riichi::None;
    check(&c, &["aka dora", "dora", "pinfu"], 3, 30, 3900);
}

#[test]
fn dora_alone_is_no_yaku() {
    // Open hand with yakuhai-free pon and a terminal: no yaku, 3 dora.
    let mut c = meld(ron("567p345s6678s", "6s"), MeldKind::Pon, "111m");
    c.dora_markers = parse_compact("9m").unwrap();
    assert_eq!(no_win(&c), mjai_sim::engine::hand::NoWin::NoYaku);
}

#[test]
fn kazoe_yakuman_at_13_han() {
    // riichi ippatsu tsumo pinfu iipeikou ittsu chinitsu = 13, dora 9p x3 (indicator 8p) = 16.
    // Kazoe: one yakuman, 8000/16000 = 32000; not a real yakuman (multiplier 0).
    let mut c = riichi(tsumo("11223345678p99p", "9p"));
    c.ippatsu = true;
    c.dora_markers = parse_compact("8p").unwrap();
    let s = score(&c);
    assert_eq!(s.han, 16);
    assert_eq!(s.yakuman, 0);
    assert_eq!((s.payment.tsumo_oya, s.payment.tsumo_ko), (16000, 8000));
}

#[test]
fn best_reading_is_chosen() {
    // 111222333m 456p 99s by tsumo on 9s (tanki). Triplet reading: sanankou 2 + tsumo 1 =
    // 3 han, 20+2+8+4+4+2 = 40 fu: base 1280 -> 1300/2600 = 5200. Sequence reading
    // (123m x3): iipeikou 1 + tsumo 1 = 2 han,
    // 20+2+2 = 24 -> 30 fu = 500/1000. Tenhou takes the higher: 5200.
    check(&tsumo("111222333m456p9s", "9s"), &["menzen tsumo", "sanankou"], 3, 40, 5200);
}

#[test]
fn iipeikou_needs_a_closed_hand() {
    // pon PPP, chi 234m, 234m 55p + 67p won on 8p: haku 1 only (no iipeikou when open);
    // 20 + 4 (open honor pon) = 24 -> 30 fu: 1000.
    let c = meld(meld(ron("234m55p67p", "8p"), MeldKind::Chi, "234m"), MeldKind::Pon, "555z");
    check(&c, &["yakuhai haku"], 1, 30, 1000);
}

#[test]
fn seat_wind_pair_is_2_fu_and_not_pinfu() {
    // South seat, pair SS, otherwise pinfu shape, riichi ron: 20+10+2 = 32 -> 40 fu, no pinfu:
    // 1 han 40 fu = 1300.
    check(&riichi(ron("234m567p345s78s22z", "6s")), &["riichi"], 1, 40, 1300);
    // A non-yakuhai wind pair (West for South seat in East round) keeps pinfu: 2 han 30 fu.
    check(&riichi(ron("234m567p345s78s33z", "6s")), &["pinfu", "riichi"], 2, 30, 2000);
}
