//! Random complete winning hands for the differential test and the scoring bench: standard
//! form with open and closed calls, chiitoitsu, kokushi, red fives, situation flags and dora.
//! Deterministic for a given RNG. Shared by `tests/engine/diff_scoring.rs` and `benches/scoring.rs`.

#![allow(dead_code)]

use mjai_sim::engine::hand::{Meld, MeldKind, Riichi, WinContext};
use mjai_sim::engine::tile::Tile;
use rand::Rng;

fn tile(kind: u8) -> Tile {
    Tile::from_kind(kind).expect("kind < 34")
}

/// Tile kinds the hand draws from: a suit bias makes honitsu/chinitsu/tsuuiisou common enough.
fn allowed_kinds(rng: &mut impl Rng) -> Vec<u8> {
    let suit = rng.random_range(0..3u8) * 9;
    match rng.random_range(0..10) {
        0..=2 => (suit..suit + 9).chain(27..34).collect(),
        3 => (suit..suit + 9).collect(),
        4 => (27..34).chain([0, 8, 9, 17, 18, 26]).collect(),
        5 => vec![19, 20, 21, 23, 25, 32, 0, 8],
        _ => (0..34).collect(),
    }
}

struct Build {
    counts: [u8; 34],
    concealed: Vec<Tile>,
    melds: Vec<Meld>,
}

impl Build {
    fn take(&mut self, kinds: &[u8]) -> bool {
        let mut c = self.counts;
        for &k in kinds {
            c[k as usize] += 1;
            if c[k as usize] > 4 {
                return false;
            }
        }
        self.counts = c;
        true
    }
}

fn standard(rng: &mut impl Rng, kinds: &[u8]) -> Option<Build> {
    let mut b = Build { counts: [0; 34], concealed: Vec::new(), melds: Vec::new() };
    let calls = match rng.random_range(0..20) {
        0..=9 => 0,
        10..=13 => 1,
        14..=16 => 2,
        17..=18 => 3,
        _ => 4,
    };
    for i in 0..4 {
        let k = kinds[rng.random_range(0..kinds.len())];
        let seq = k < 27 && k % 9 < 7 && rng.random_bool(0.55);
        let set: Vec<u8> = if seq { vec![k, k + 1, k + 2] } else { vec![k, k, k] };
        let kind = if i >= calls {
            None
        } else if seq {
            Some(MeldKind::Chi)
        } else {
            Some(match rng.random_range(0..100) {
                0..=59 => MeldKind::Pon,
                60..=72 => MeldKind::Daiminkan,
                73..=85 => MeldKind::Kakan,
                _ => MeldKind::Ankan,
            })
        };
        let mut set = set;
        if matches!(kind, Some(MeldKind::Daiminkan | MeldKind::Kakan | MeldKind::Ankan)) {
            set.push(k);
        }
        if !b.take(&set) {
            return None;
        }
        let tiles: Vec<Tile> = set.iter().map(|&k| tile(k)).collect();
        match kind {
            Some(kind) => b.melds.push(Meld { kind, tiles }),
            None => b.concealed.extend(tiles),
        }
    }
    let p = kinds[rng.random_range(0..kinds.len())];
    if !b.take(&[p, p]) {
        return None;
    }
    b.concealed.extend([tile(p), tile(p)]);
    Some(b)
}

fn chiitoitsu(rng: &mut impl Rng, kinds: &[u8]) -> Option<Build> {
    let mut b = Build { counts: [0; 34], concealed: Vec::new(), melds: Vec::new() };
    let mut pool: Vec<u8> = kinds.to_vec();
    if pool.len() < 7 {
        return None;
    }
    for _ in 0..7 {
        let k = pool.swap_remove(rng.random_range(0..pool.len()));
        b.take(&[k, k]);
        b.concealed.extend([tile(k), tile(k)]);
    }
    Some(b)
}

fn kokushi(rng: &mut impl Rng) -> Build {
    let yao = [0u8, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];
    let mut b = Build { counts: [0; 34], concealed: Vec::new(), melds: Vec::new() };
    for k in yao {
        b.take(&[k]);
        b.concealed.push(tile(k));
    }
    let extra = yao[rng.random_range(0..13)];
    b.take(&[extra]);
    b.concealed.push(tile(extra));
    b
}

/// Makes one five of each suit red with probability 0.4, always when the hand holds all four
/// (Tenhou's set has one red five per suit and three plain ones).
fn add_reds(rng: &mut impl Rng, tehai: &mut [Tile], win: &mut Tile, melds: &mut [Meld]) {
    for five in [4u8, 13, 22] {
        let mut fives: Vec<&mut Tile> = tehai
            .iter_mut()
            .chain(std::iter::once(&mut *win))
            .chain(melds.iter_mut().flat_map(|m| m.tiles.iter_mut()))
            .filter(|t| t.kind() == five)
            .collect();
        if fives.len() == 4 || (!fives.is_empty() && rng.random_bool(0.4)) {
            let i = rng.random_range(0..fives.len());
            *fives[i] = tile(five).akaize().expect("a five");
        }
    }
}

/// One random winning hand (a complete hand; it may still have no yaku).
pub fn random_win(rng: &mut impl Rng) -> WinContext {
    loop {
        let kinds = allowed_kinds(rng);
        let built = match rng.random_range(0..100) {
            0..=5 => chiitoitsu(rng, &kinds),
            6 => Some(kokushi(rng)),
            _ => standard(rng, &kinds),
        };
        let Some(mut b) = built else { continue };
        let w = rng.random_range(0..b.concealed.len());
        let mut win = b.concealed.swap_remove(w);
        let mut tehai = b.concealed;
        add_reds(rng, &mut tehai, &mut win, &mut b.melds);
        return flags(rng, tehai, win, b.melds);
    }
}

fn flags(rng: &mut impl Rng, tehai: Vec<Tile>, win: Tile, melds: Vec<Meld>) -> WinContext {
    let tsumo = rng.random_bool(0.5);
    let menzen = melds.iter().all(|m| !m.is_open());
    let riichi = match (menzen, rng.random_range(0..100)) {
        (true, 0..=37) => Riichi::Riichi,
        (true, 38..=44) => Riichi::Double,
        _ => Riichi::None,
    };
    let has_kan = melds.iter().any(|m| m.is_kan());
    let random_tiles = |rng: &mut dyn rand::RngCore, n: usize| -> Vec<Tile> {
        (0..n).map(|_| tile(rng.random_range(0..34))).collect()
    };
    let n_dora = 1 + rng.random_range(0..3);
    let dora_markers = random_tiles(rng, n_dora);
    let ura_markers = if riichi == Riichi::None { Vec::new() } else { random_tiles(rng, n_dora) };
    WinContext {
        ippatsu: riichi != Riichi::None && rng.random_bool(0.25),
        last_tile: rng.random_bool(0.06),
        rinshan: tsumo && has_kan && rng.random_bool(0.3),
        chankan: !tsumo && rng.random_bool(0.04),
        first_draw: tsumo && melds.is_empty() && riichi == Riichi::None && rng.random_bool(0.03),
        bakaze: 27 + rng.random_range(0..2),
        jikaze: 27 + rng.random_range(0..4),
        tehai,
        win_tile: win,
        melds,
        tsumo,
        riichi,
        dora_markers,
        ura_markers,
    }
}
