//! Hand-picked cases and properties for shanten, waits and ukeire.

use crate::hand::{discard_choices, shanten, ukeire, waits};
use crate::tile::{parse_compact, to_counts, KINDS};

fn counts(text: &str) -> [u8; KINDS] {
    to_counts(&parse_compact(text).expect("test hand"))
}

/// Bit mask of the kinds in a compact string.
fn mask(text: &str) -> u64 {
    parse_compact(text).unwrap().iter().fold(0, |m, t| m | 1 << t.kind())
}

#[test]
fn standard_form_by_hand() {
    assert_eq!(shanten(&counts("123m456m789m123p11z"), 0), -1);
    assert_eq!(shanten(&counts("123m456m789m123p1z"), 0), 0);
    assert_eq!(shanten(&counts("123m456m789m23p11z"), 0), 0);
    assert_eq!(shanten(&counts("123m456m789m2p5p11z"), 0), 1);
    assert_eq!(shanten(&counts("123m456m789m2p5p12z"), 0), 2);
    // Nothing connects: chiitoitsu (13 kinds, no pair) is the best form at 6.
    assert_eq!(shanten(&counts("147m258p369s1234z"), 0), 6);
}

#[test]
fn waits_by_hand() {
    assert_eq!(waits(&counts("123m456m789m123p1z"), 0), mask("1z"));
    assert_eq!(waits(&counts("123m456m789m23p11z"), 0), mask("14p"));
    assert_eq!(waits(&counts("123m456p789s11z22z"), 0), mask("12z"));
    // Chuuren poutou shape waits on all nine.
    assert_eq!(waits(&counts("1112345678999m"), 0), mask("123456789m"));
    // Not tenpai: no waits.
    assert_eq!(waits(&counts("123m456m789m2p5p11z"), 0), 0);
    // A 14-tile hand has no waits by contract.
    assert_eq!(waits(&counts("123m456m789m123p11z"), 0), 0);
}

#[test]
fn fifth_tile_is_no_wait() {
    // Tenhou: 1111m with three mentsu "waits" only on a fifth 1m, so it is not tenpai.
    let h = counts("1111m234p567p789p");
    assert_eq!(shanten(&h, 0), 1);
    assert_eq!(waits(&h, 0), 0);
    // Same with three melds and 1111m alone.
    assert_eq!(shanten(&counts("1111m"), 3), 1);
    // 1111m2m with three melds: discarding 2m would leave the impossible wait; 11m+123m
    // needs only a 3m, so one tile away.
    assert_eq!(shanten(&counts("1111m2m"), 3), 0);
    // 111m + 123m + 4m tanki; the 1m "wait" would be a fifth tile.
    assert_eq!(shanten(&counts("1111m234m"), 2), 0);
    assert_eq!(waits(&counts("1111m234m"), 2), mask("4m"));
    assert_eq!(waits(&counts("111123m4p"), 2), mask("4p"));
}

#[test]
fn chiitoitsu_needs_seven_different_pairs() {
    assert_eq!(shanten(&counts("1122m3344p5566s77z"), 0), -1);
    assert_eq!(waits(&counts("1122m3344p5566s7z"), 0), mask("7z"));
    // Six pairs and a quad: Tenhou counts the quad as one pair, so not complete.
    assert_eq!(shanten(&counts("1111m55p99s336677z"), 0), 1);
    // Six different pairs where one is a quad: five pairs, six kinds: 2.
    assert_eq!(shanten(&counts("1111m55p99s33667z"), 0), 2);
    // Six pairs and a single: tenpai only as chiitoitsu (standard form is 3).
    assert_eq!(shanten(&counts("1155m99s336677z1p"), 0), 0);
    // With a meld only the standard form counts: five pairs in 10 tiles is 2.
    assert_eq!(shanten(&counts("1155m99s3366z"), 1), 2);
}

#[test]
fn kokushi() {
    let thirteen = counts("19m19p19s1234567z");
    assert_eq!(shanten(&thirteen, 0), 0);
    assert_eq!(waits(&thirteen, 0), mask("19m19p19s1234567z"));
    assert_eq!(shanten(&counts("19m19p19s12345677z"), 0), -1);
    let single = counts("19m19p19s123456z1m");
    assert_eq!(waits(&single, 0), mask("7z"));
    // Kokushi needs no melds.
    assert_eq!(shanten(&counts("19p19s1234567z"), 1), 6);
}

#[test]
fn short_hands_with_melds() {
    assert_eq!(shanten(&counts("1z"), 4), 0);
    assert_eq!(waits(&counts("1z"), 4), mask("1z"));
    assert_eq!(shanten(&counts("11z"), 4), -1);
    assert_eq!(shanten(&counts("12z"), 4), 0);
    assert_eq!(shanten(&counts("5m"), 4), 0);
    assert_eq!(shanten(&counts("1p9s"), 4), 0);
    assert_eq!(waits(&counts("3455m"), 3), mask("25m"));
    assert_eq!(shanten(&counts("345m55m"), 3), -1);
}

#[test]
fn invalid_input_never_panics() {
    let mut five = counts("1111m");
    five[0] = 5;
    assert_eq!(shanten(&five, 3), i8::MAX);
    assert_eq!(shanten(&[0; KINDS], 4), i8::MAX);
    assert_eq!(shanten(&counts("123m456m789m123p"), 0), i8::MAX);
    assert_eq!(shanten(&counts("123m456m789m123p111z"), 0), i8::MAX);
    let mut big = [0u8; KINDS];
    big.iter_mut().for_each(|c| *c = 255);
    assert_eq!(shanten(&big, 0), i8::MAX);
    assert_eq!(waits(&big, 0), 0);
    assert_eq!(ukeire(&big, 0, &big), (0, 0));
    assert!(discard_choices(&big, 0, &big).is_empty());
}

#[test]
fn ukeire_by_hand() {
    // Iishanten: 1p/4p complete the ryanmen, 1z/5z pair a floating honor.
    let h = counts("123m456m789m23p1z5z");
    assert_eq!(shanten(&h, 0), 1);
    let (kinds, tiles) = ukeire(&h, 0, &h);
    assert_eq!(kinds, mask("14p15z"));
    assert_eq!(tiles, 4 + 4 + 3 + 3);
    // Seen elsewhere: two 4p in rivers.
    let mut seen = h;
    seen[12] += 2;
    assert_eq!(ukeire(&h, 0, &seen).1, 4 + 2 + 3 + 3);
    // Fully seen kinds still count as kinds, but add no tiles.
    let all = [4u8; KINDS];
    assert_eq!(ukeire(&h, 0, &all), (mask("14p15z"), 0));
}

#[test]
fn discard_choices_by_hand() {
    let h = counts("123m456m789m239p11z");
    let choices = discard_choices(&h, 0, &h);
    assert_eq!(choices.len(), 13);
    let best = choices.iter().min_by_key(|c| (c.shanten, std::cmp::Reverse(c.ukeire_tiles))).unwrap();
    assert_eq!((best.discard, best.shanten), (17, 0), "discard 9p for tenpai");
    assert_eq!(best.ukeire_kinds, mask("14p"));
    assert_eq!(best.ukeire_tiles, 8);
    let e = choices.iter().find(|c| c.discard == 27).unwrap();
    assert_eq!(e.shanten, 1);
    assert!(discard_choices(&counts("123m456m789m23p11z"), 0, &h).is_empty(), "13 tiles");
}

#[path = "shanten_props.rs"]
mod props;
