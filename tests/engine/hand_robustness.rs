//! `evaluate` on arbitrary input (random tile ids including red fives and `?`, random calls
//! and flags) never panics, and whatever it accepts is a real, paid win.

use crate::common;

use mjai_sim::engine::hand::{evaluate, Meld, MeldKind, NoWin, Riichi, WinContext};
use mjai_sim::engine::tile::Tile;
use proptest::prelude::*;
use rand::SeedableRng;

fn tile() -> impl Strategy<Value = Tile> {
    (0u8..38).prop_map(|id| Tile::from_id(id).unwrap())
}

fn meld() -> impl Strategy<Value = Meld> {
    let kind = prop_oneof![
        Just(MeldKind::Chi),
        Just(MeldKind::Pon),
        Just(MeldKind::Daiminkan),
        Just(MeldKind::Kakan),
        Just(MeldKind::Ankan)
    ];
    (kind, prop::collection::vec(tile(), 2..6)).prop_map(|(kind, tiles)| Meld { kind, tiles })
}

fn context() -> impl Strategy<Value = WinContext> {
    let riichi = prop_oneof![Just(Riichi::None), Just(Riichi::Riichi), Just(Riichi::Double)];
    (
        prop::collection::vec(tile(), 0..16),
        tile(),
        prop::collection::vec(meld(), 0..5),
        riichi,
        prop::array::uniform7(any::<bool>()),
        (25u8..32, 25u8..32),
        prop::collection::vec(tile(), 0..7),
    )
        .prop_map(|(tehai, win_tile, melds, riichi, b, (bakaze, jikaze), dora)| WinContext {
            tehai,
            win_tile,
            melds,
            tsumo: b[0],
            riichi,
            ippatsu: b[1],
            last_tile: b[2],
            rinshan: b[3],
            chankan: b[4],
            first_draw: b[5],
            bakaze,
            jikaze,
            ura_markers: if b[6] { dora.clone() } else { Vec::new() },
            dora_markers: dora,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5000))]

    #[test]
    fn never_panics_and_wins_are_paid(ctx in context()) {
        match evaluate(&ctx) {
            Ok(s) => {
                prop_assert!(s.han >= 1);
                prop_assert!(!s.yaku.is_empty());
                let p = s.payment;
                prop_assert!(p.ron > 0 || p.tsumo_ko > 0);
                prop_assert_eq!(p.ron > 0, !ctx.tsumo);
            }
            Err(NoWin::Invalid(msg)) => prop_assert!(!msg.is_empty() && !msg.contains('\n')),
            Err(_) => {}
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5000))]

    /// A real winning hand with one concealed tile swapped: valid counts, mostly not agari.
    #[test]
    fn swapped_tile_never_panics(seed in any::<u64>(), pos in 0usize..13, t in tile()) {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut ctx = common::gen::random_win(&mut rng);
        let i = pos % ctx.tehai.len();
        ctx.tehai[i] = t;
        if let Ok(s) = evaluate(&ctx) {
            prop_assert!(s.han >= 1 && (s.payment.ron > 0 || s.payment.tsumo_ko > 0));
        }
    }
}
