//! Where a game starts and how it is set up: [`StartState`] (round wind, hand number,
//! sticks and scores in points, [`MAX_SEATS`] wide) and [`GameConfig`] (the wall seed, the
//! names, the start). The game starts from them, the hanchan gives the next hand's
//! [`StartState`], the kyoku deals at one, the replay rebuilds one from a log.

use crate::rules::{Players, MAX_SEATS};
use crate::tile::Tile;

/// Where a game starts: East 1 with 25000 each by default; any later state to resume after a
/// chombo or to replay a situation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartState {
    /// Round wind tile: E, S or W.
    pub bakaze: Tile,
    /// Hand number 1..=4 (the dealer is seat `kyoku - 1`).
    pub kyoku: u8,
    /// Honba sticks.
    pub honba: u8,
    /// Riichi sticks on the table.
    pub kyotaku: u8,
    /// Scores in points.
    pub scores: [i32; MAX_SEATS],
}

impl Default for StartState {
    fn default() -> Self {
        StartState::initial(Players::Four)
    }
}

impl StartState {
    /// East 1 with no sticks and [`Players::start_score`] for each seat at the table:
    /// 25000 each, or 35000 for seats 0-2 of a three-player table (seat 3: 0).
    pub fn initial(players: Players) -> StartState {
        let mut scores = [0; MAX_SEATS];
        scores[..players.count()].fill(players.start_score());
        StartState { bakaze: Tile::from_kind(27).expect("E"), kyoku: 1, honba: 0, kyotaku: 0, scores }
    }
}

/// Game setup.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameConfig {
    /// Wall seed: `[nonce, key]` as written in `start_game.seed`. The wall of every kyoku is a
    /// pure function of these, the kyoku counted from East 1 = 0 and the honba, as in
    /// mjai.app's engine (see [`Wall::seeded`](super::wall::Wall::seeded)).
    pub seed: [u64; 2],
    /// Player names, seat order.
    pub names: [String; MAX_SEATS],
    /// Starting state. A three-player game takes [`StartState::initial`]`(Players::Three)`
    /// (35000 each); a score given for seat 3 there is set to 0.
    pub start: StartState,
}
