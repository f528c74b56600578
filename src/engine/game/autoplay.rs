//! A reference policy that plays a whole game from the engine's legal sets alone, for
//! property tests and cross-checks (three-player games included, kita too): no bot
//! process, no protocol, deterministic for a given seed.
//!
//! At each decision it wins when it can, sets a North aside when it can, declares riichi
//! when it can, discards a tile that keeps the hand's shanten lowest, and makes the other
//! choices (calls, passes, kyuushu kyuuhai, which discard among equals) by a seeded
//! xorshift draw, so games reach kans, robbed kita, draws and busts now and then.

use crate::event::Event;
use crate::hand::shanten;
use crate::tile::Tile;

use super::decision::Decision;
use super::play::Game;
use super::setup::GameConfig;
use super::wall::Wall;
use crate::rules::Rules;

/// A tiny deterministic random source (xorshift64*).
#[derive(Debug, Clone)]
pub struct Draws(u64);

impl Draws {
    /// A source for `seed` (any value; 0 is remapped).
    pub fn new(seed: u64) -> Draws {
        Draws(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// A value in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n.max(1)
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// The answer the reference policy gives to `decision` in `game`: an index into
/// `decision.legal`.
pub fn choose(game: &Game, decision: &Decision, draws: &mut Draws) -> usize {
    let legal = &decision.legal;
    let find = |f: &dyn Fn(&Event) -> bool| legal.iter().position(f);
    if let Some(i) = find(&|e| matches!(e, Event::Hora { .. })) {
        return i;
    }
    if let Some(i) = find(&|e| matches!(e, Event::Kita { .. })).filter(|_| draws.chance(90)) {
        return i;
    }
    if let Some(i) = find(&|e| matches!(e, Event::Reach { .. })).filter(|_| draws.chance(70)) {
        return i;
    }
    let calls: Vec<usize> = (0..legal.len())
        .filter(|&i| {
            matches!(
                legal[i],
                Event::Pon { .. }
                    | Event::Chi { .. }
                    | Event::Daiminkan { .. }
                    | Event::Ankan { .. }
                    | Event::Kakan { .. }
            )
        })
        .collect();
    if !calls.is_empty() && draws.chance(25) {
        return calls[draws.below(calls.len())];
    }
    if let Some(i) = find(&|e| matches!(e, Event::Ryukyoku { .. })).filter(|_| draws.chance(50)) {
        return i;
    }
    if let Some(i) = find(&|e| matches!(e, Event::None)) {
        return i;
    }
    let discards: Vec<(usize, Tile)> = (0..legal.len())
        .filter_map(|i| match legal[i] {
            Event::Dahai { pai, .. } => Some((i, pai)),
            _ => None,
        })
        .collect();
    if discards.is_empty() {
        return draws.below(legal.len());
    }
    let p = &game.kyoku.players[decision.seat as usize];
    let melds = p.calls.len() as u8;
    let after = |t: Tile| {
        let mut c = p.counts();
        c[t.kind() as usize] -= 1;
        shanten(&c, melds)
    };
    let scored: Vec<(usize, i8)> = discards.iter().map(|&(i, t)| (i, after(t))).collect();
    let best = scored.iter().map(|&(_, s)| s).min().unwrap_or(8);
    let ties: Vec<usize> = scored.iter().filter(|&&(_, s)| s == best).map(|&(i, _)| i).collect();
    ties[draws.below(ties.len())]
}

/// Plays a game from `config` under `rules` to its end with the reference policy seeded by
/// `seed`; `walls` as in [`Game::with_rules`]. Returns the finished game (its log, scores).
/// A legal set the policy cannot answer does not exist (every decision has an answer); an
/// engine that refuses its own legal answer is a bug and panics here, which the property
/// tests look for.
pub fn play(config: GameConfig, walls: Vec<Wall>, rules: Rules, seed: u64) -> Game {
    let mut game = Game::with_rules(config, walls, rules);
    let mut draws = Draws::new(seed);
    while !game.is_over() {
        let choices: Vec<(u8, usize)> = game.pending().iter().map(|d| (d.seat, choose(&game, d, &mut draws))).collect();
        game.apply_legal(&choices).expect("the engine accepts an answer from its own legal set");
    }
    game
}
