//! Seeded walls are mjai.app's: for every hand of the 100 reference games (played by
//! mjai.app's engine, `tests/data/mortal-arena-100.tar.xz`) and the 40 call-heavy games of
//! libriichi's arena, `Wall::seeded(start_game.seed, kyoku from East 1 = 0, honba)` must give
//! every haipai, dora indicator, live and rinshan draw and ura indicator the log shows.
//! Golden walls pin whole shuffled sequences, so that a crate update cannot change walls
//! silently.

use crate::reference_support;

use mjai_sim::engine::event::Event;
use mjai_sim::engine::game::from_log::{logged_hand, WallSource};
use mjai_sim::engine::game::wall::{kyoku_count, Wall};
use mjai_sim::engine::tile::Tile;

/// Tiles of the log that were compared with the seeded walls.
#[derive(Default, Debug)]
struct Shown {
    hands: usize,
    haipai: usize,
    live: usize,
    rinshan: usize,
    dora: usize,
    ura: usize,
}

/// Compares every tile `log` shows with the seeded walls; the error names the first
/// difference.
fn check_game(log: &[Event], shown: &mut Shown) -> Result<(), String> {
    let Some(Event::StartGame { seed: Some(seed), .. }) = log.first() else {
        return Err("the log has no start_game.seed".into());
    };
    let mut wall: Option<Wall> = None;
    let (mut live, mut rinshan, mut dora, mut after_kan) = (0, 0, 0, false);
    for (i, e) in log.iter().enumerate() {
        let line = i + 1;
        match e {
            Event::StartKyoku { bakaze, kyoku, honba, dora_marker, tehais, .. } => {
                let w = Wall::seeded(*seed, kyoku_count(*bakaze, *kyoku), *honba);
                if **tehais != w.haipai {
                    return Err(format!("line {line}: haipai {tehais:?}, the seeded wall deals {:?}", w.haipai));
                }
                if *dora_marker != w.dora_markers[0] {
                    return Err(format!("line {line}: dora_marker {dora_marker}, seeded {}", w.dora_markers[0]));
                }
                shown.hands += 1;
                shown.haipai += 52;
                shown.dora += 1;
                (live, rinshan, dora, after_kan) = (0, 0, 1, false);
                wall = Some(w);
            }
            Event::Tsumo { pai, .. } => {
                let w = wall.as_ref().ok_or(format!("line {line}: tsumo before start_kyoku"))?;
                let want = if after_kan {
                    rinshan += 1;
                    shown.rinshan += 1;
                    w.rinshan[rinshan - 1]
                } else {
                    live += 1;
                    shown.live += 1;
                    w.live[live - 1]
                };
                if *pai != want {
                    return Err(format!("line {line}: tsumo {pai}, the seeded wall gives {want}"));
                }
                after_kan = false;
            }
            Event::Ankan { .. } | Event::Daiminkan { .. } | Event::Kakan { .. } => after_kan = true,
            Event::Dora { dora_marker } => {
                let w = wall.as_ref().ok_or(format!("line {line}: dora before start_kyoku"))?;
                if *dora_marker != w.dora_markers[dora] {
                    return Err(format!("line {line}: dora {dora_marker}, seeded {}", w.dora_markers[dora]));
                }
                dora += 1;
                shown.dora += 1;
            }
            Event::Hora { ura_markers: Some(ura), .. } if !ura.is_empty() => {
                let w = wall.as_ref().ok_or(format!("line {line}: hora before start_kyoku"))?;
                if ura[..] != w.ura_markers[..ura.len()] {
                    return Err(format!("line {line}: ura {ura:?}, seeded {:?}", &w.ura_markers[..ura.len()]));
                }
                shown.ura += ura.len();
            }
            _ => {}
        }
    }
    Ok(())
}

#[test]
fn the_100_reference_games_are_dealt_the_seeded_walls() {
    let games = reference_support::mortal_arena_100();
    assert_eq!(games.len(), 100, "the archive holds 100 games");
    let mut shown = Shown::default();
    let failures: Vec<String> = games
        .iter()
        .filter_map(|(name, log)| check_game(log, &mut shown).err().map(|e| format!("{name}: {e}")))
        .collect();
    assert!(failures.is_empty(), "{} of 100 games disagree:\n{}", failures.len(), failures.join("\n"));
    // Every hand of every game was compared (tests/data/README.md: 956 hands), with its kans.
    assert_eq!(shown.hands, 956, "{shown:?}");
    assert!(shown.live > 956 * 50 && shown.rinshan > 0 && shown.dora > 956 && shown.ura > 0, "{shown:?}");
}

#[test]
fn the_40_call_heavy_libriichi_games_are_dealt_the_seeded_walls() {
    let games = reference_support::libriichi_callers_40();
    assert_eq!(games.len(), 40, "the archive holds 40 games");
    let mut shown = Shown::default();
    let failures: Vec<String> = games
        .iter()
        .filter_map(|(name, log)| check_game(log, &mut shown).err().map(|e| format!("{name}: {e}")))
        .collect();
    assert!(failures.is_empty(), "{} of 40 games disagree:\n{}", failures.len(), failures.join("\n"));
    // 246 kans (tests/data/README.md): the rinshan draws and kan dora were compared too.
    assert_eq!(shown.rinshan, 246, "{shown:?}");
}

#[test]
fn a_changed_tile_is_caught() {
    let (_, mut log) = reference_support::mortal_arena_100().remove(0);
    let i = log.iter().rposition(|e| matches!(e, Event::Tsumo { .. })).expect("a tsumo");
    let Event::Tsumo { pai, .. } = &mut log[i] else { unreachable!() };
    *pai = if *pai == "1m".parse().unwrap() { "2m".parse().unwrap() } else { "1m".parse().unwrap() };
    let e = check_game(&log, &mut Shown::default()).expect_err("a changed draw must be caught");
    assert!(e.starts_with(&format!("line {}:", i + 1)), "{e}");
}

fn tiles(names: &[&str]) -> Vec<Tile> {
    names.iter().map(|t| t.parse().expect("mjai tile")).collect()
}

/// Our wall from mjai.app's shuffled sequence `seq` (see the module doc of
/// `engine::game::wall`): haipai 0..52, rinshan, dora and live taken from the back of their
/// parts, ura from the front.
fn wall_from_sequence(seq: &[Tile]) -> Wall {
    let mut t: Vec<Tile> = seq[..52].to_vec();
    t.extend(seq[66..].iter().rev());
    t.extend(seq[52..56].iter().rev());
    t.extend(seq[56..61].iter().rev());
    t.extend(&seq[61..66]);
    Wall::from_tiles(&t).expect("a full set")
}

/// Golden walls: the shuffled 136-tile sequences (mjai.app's `seq` in
/// `Board::init_from_seed`, before it is split into haipai, rinshan, dora, ura and yama)
/// printed by a scratch program outside this repository that runs that function's body with
/// the crate versions of mjai.app's Cargo.lock (sha3 0.10.8, rand 0.8.5, rand_chacha 0.3.1),
/// not with this crate's code. The tiles each hand shows in the reference log agree (checked
/// here too), so the sequences are the walls mjai.app dealt.
/// One pinned wall.
struct Golden {
    seed: [u64; 2],
    /// Kyoku counted from East 1 = 0.
    kyoku: u8,
    honba: u8,
    /// The reference game dealt this wall.
    game: &'static str,
    seq: [&'static str; 136],
}

const GOLDEN: &[Golden] = &[
    Golden {
        seed: [100, 2000],
        kyoku: 0,
        honba: 0,
        game: "g100.mjai.jsonl",
        seq: [
            "2m", "P", "8s", "1s", "4s", "1m", "4m", "W", "N", "4m", "5p", "C", "9p", "F", "P", "2m", "N", "1m", "3p",
            "1p", "9p", "7p", "6m", "9s", "3s", "9m", "4p", "7m", "6s", "1p", "S", "9p", "6p", "9s", "E", "2s", "1m",
            "5sr", "9m", "2p", "7s", "4m", "7m", "2p", "4s", "9s", "1s", "1m", "3m", "1s", "N", "6m", "5mr", "3m",
            "8m", "9s", "3p", "3s", "F", "9p", "8s", "3m", "8p", "9m", "4p", "7p", "7s", "P", "E", "3m", "5p", "7p",
            "1s", "7p", "6p", "2m", "5m", "W", "2p", "5s", "E", "1p", "C", "8m", "8s", "6s", "5m", "8m", "5m", "W",
            "1p", "4p", "7s", "S", "7m", "9m", "C", "C", "5s", "2s", "7s", "4s", "3p", "8m", "8p", "2m", "2p", "F",
            "5p", "5pr", "2s", "4m", "8s", "S", "6s", "S", "8p", "F", "8p", "6p", "4p", "3p", "3s", "4s", "6s", "W",
            "6p", "3s", "7m", "6m", "5s", "6m", "2s", "N", "E", "P",
        ],
    },
    Golden {
        seed: [101, 2000],
        kyoku: 5,
        honba: 3,
        game: "g101.mjai.jsonl",
        seq: [
            "2s", "C", "7p", "E", "3m", "6s", "5m", "1m", "2m", "P", "P", "8s", "7m", "6p", "5p", "9p", "8m", "2s",
            "2p", "N", "5s", "1p", "S", "8p", "6m", "6p", "4p", "9m", "9m", "4s", "9p", "2m", "8p", "1p", "2s", "3m",
            "5m", "5pr", "N", "4s", "5s", "9p", "F", "6p", "3s", "2m", "2p", "7s", "1p", "9s", "5p", "8p", "9s", "6s",
            "2p", "7m", "3m", "9m", "7s", "8s", "8m", "3p", "2p", "7s", "7p", "3s", "3p", "F", "4s", "8p", "C", "6m",
            "1m", "S", "1s", "W", "7s", "8m", "5p", "E", "4m", "4p", "1m", "W", "3s", "1m", "F", "7m", "1p", "5s", "E",
            "C", "N", "C", "3s", "9p", "1s", "7p", "8s", "8m", "3p", "1s", "4m", "2s", "5m", "4s", "9s", "3p", "P",
            "W", "4p", "S", "W", "P", "2m", "N", "7p", "6m", "6p", "8s", "S", "7m", "4m", "4m", "6s", "3m", "5mr", "F",
            "6m", "6s", "E", "9m", "4p", "5sr", "9s", "1s",
        ],
    },
    Golden {
        seed: [111, 2000],
        kyoku: 8,
        honba: 9,
        game: "g111.mjai.jsonl",
        seq: [
            "9s", "7m", "6s", "3s", "5pr", "E", "4m", "2s", "C", "1p", "5p", "6p", "7p", "C", "3s", "E", "2p", "P",
            "7p", "9p", "1p", "9p", "1s", "7p", "S", "9p", "4s", "1p", "2p", "3p", "9m", "2m", "2s", "8p", "2m", "1m",
            "7s", "6p", "2s", "8m", "N", "W", "5s", "8p", "2m", "9m", "8p", "F", "3m", "7s", "9s", "C", "F", "E", "W",
            "2p", "7m", "1m", "1m", "3p", "N", "4s", "N", "4p", "4m", "4m", "2s", "6s", "1p", "1m", "P", "6p", "8s",
            "7m", "7m", "5s", "N", "6p", "7s", "8m", "9m", "8m", "2m", "9p", "2p", "5s", "C", "3s", "5m", "F", "9m",
            "S", "3m", "8s", "P", "6m", "8m", "4p", "6m", "5mr", "9s", "1s", "8s", "1s", "P", "F", "3s", "7p", "S",
            "4p", "9s", "4s", "E", "5m", "S", "3m", "1s", "4p", "4m", "W", "8s", "5m", "3p", "6s", "6m", "3m", "6s",
            "W", "7s", "5p", "3p", "4s", "5p", "8p", "5sr", "6m",
        ],
    },
];

#[test]
fn golden_walls_are_pinned() {
    assert!(!GOLDEN.is_empty());
    let games = reference_support::mortal_arena_100();
    for Golden { seed, kyoku, honba, game, seq } in GOLDEN {
        let want = wall_from_sequence(&tiles(seq));
        assert_eq!(Wall::seeded(*seed, *kyoku, *honba), want, "seed {seed:?} kyoku {kyoku} honba {honba}");
        // The pinned sequence is the wall the reference game was dealt in that hand.
        let (_, log) = games.iter().find(|(n, _)| n == game).expect("the game is in the archive");
        let Some(Event::StartGame { seed: Some(logged), .. }) = log.first() else { panic!("{game} has no seed") };
        assert_eq!(logged, seed);
        let start = log
            .iter()
            .find_map(|e| match e {
                Event::StartKyoku { bakaze, kyoku: k, honba: h, tehais, dora_marker, .. }
                    if kyoku_count(*bakaze, *k) == *kyoku && h == honba =>
                {
                    Some((**tehais, *dora_marker))
                }
                _ => None,
            })
            .expect("the hand is in the game");
        assert_eq!(start, (want.haipai, want.dora_markers[0]), "{game}");
    }
}

/// Mortal's libriichi moved to rand 0.9 (2025-02, "migrate to Rust 2024"); its `shuffle`
/// draws other indices from the same ChaCha12 stream, so the same function there deals other
/// walls than mjai.app for the same seed. This is why walls are shuffled with rand 0.8.
#[test]
fn rand_09_shuffles_differently_from_mjai_app() {
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    use sha3::{Digest, Sha3_256};
    let Golden { seed, kyoku, honba, seq, .. } = &GOLDEN[0];
    let digest = Sha3_256::new()
        .chain_update(seed[0].to_le_bytes())
        .chain_update(seed[1].to_le_bytes())
        .chain_update([*kyoku, *honba]);
    let mut rng = rand_chacha::ChaCha12Rng::from_seed(digest.finalize().into());
    let mut with_09 = mjai_sim::engine::game::wall::full_set();
    with_09.shuffle(&mut rng);
    assert_ne!(with_09, tiles(seq), "rand 0.9 would deal mjai.app's walls: rand 0.8 is no longer needed");
}

#[test]
fn kyoku_is_counted_from_east_1() {
    let at = |w: &str, k| kyoku_count(w.parse().unwrap(), k);
    assert_eq!((at("E", 1), at("E", 4), at("S", 1), at("S", 3), at("W", 1), at("W", 4)), (0, 3, 4, 6, 8, 11));
}

/// `--from LOG@HAND` on a reference game: the log's seed deals the hand, so the whole seeded
/// wall is used; without the seed, the tiles the log shows.
#[test]
fn a_logged_hand_takes_the_seeded_wall_or_the_shown_tiles() {
    let golden = &GOLDEN[1];
    let games = reference_support::mortal_arena_100();
    let (_, log) = games.iter().find(|(n, _)| n == golden.game).expect("the game is in the archive");
    let hand = logged_hand(log, "S2-3".parse().unwrap()).expect("South 2 with 3 honba");
    assert_eq!((hand.source, hand.seed, hand.start.honba), (WallSource::Seed, Some(golden.seed), 3));
    assert_eq!(hand.wall, wall_from_sequence(&tiles(&golden.seq)));
    assert_eq!(logged_hand(log, "S2".parse().unwrap()).unwrap().label.honba, Some(1), "the first South 2");

    let mut unseeded = log.clone();
    let Event::StartGame { seed, .. } = &mut unseeded[0] else { panic!("start_game first") };
    *seed = None;
    let shown = logged_hand(&unseeded, "S2-3".parse().unwrap()).unwrap();
    assert_eq!((shown.source, shown.seed, shown.index), (WallSource::Shown, None, hand.index));
    assert_eq!(shown.wall.haipai, hand.wall.haipai);
    assert_eq!(shown.wall.dora_markers[0], hand.wall.dora_markers[0]);
    shown.wall.check().unwrap();

    let e = logged_hand(log, "W4-7".parse().unwrap()).unwrap_err();
    assert!(e.starts_with("the log has no hand W4-7 (its hands: E1-0 "), "{e}");
}
