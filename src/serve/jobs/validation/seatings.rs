//! Which seats an uploaded version holds in each of its validation games: a zip's two
//! games cover every seat ([`seatings()`]), a remote bot plays one seat a game over its one
//! connection ([`remote_seatings`]), a riichi.dev bot one game in seat 0
//! ([`RIICHI_DEV_SEATING`]).

use mjai_sim_engine::game::Players;

/// The bot's seats in each validation game at a table of `players` seats, played in
/// this order (the others are the built-in opponent): together every seat, each once, in
/// two games. Four seats: `[[0, 2], [1, 3]]`; three: `[[0, 2], [1]]`.
pub fn seatings(players: Players) -> Vec<Vec<usize>> {
    let n = players.count();
    vec![(0..n).step_by(2).collect(), (1..n).step_by(2).collect()]
}

/// A remote bot's seat in each of its validation games at a table of `players` seats, in
/// order: every seat, one connection at a time (`[[0], [1], [2], [3]]`, or three).
pub fn remote_seatings(players: Players) -> Vec<Vec<usize>> {
    (0..players.count()).map(|s| vec![s]).collect()
}

/// A riichi.dev dialect bot's seat in its one validation game (riichi.dev: "one East-only
/// game against three tsumogiri, the bot in seat 0"; the opponent here is
/// `--validation-opponent`, the game East-only under the league's rules,
/// [`Rules::east_only`](mjai_sim_engine::game::Rules::east_only)).
pub const RIICHI_DEV_SEATING: &[usize] = &[0];

pub use mjai_sim_runtime::riichi_dev::validation_slot;

#[cfg(test)]
mod tests {
    use super::*;

    /// Every seat of the table once, over two games, at four and at three seats; a remote
    /// bot one seat a game.
    #[test]
    fn validation_games_cover_every_seat_once() {
        assert_eq!(seatings(Players::Four), vec![vec![0, 2], vec![1, 3]]);
        assert_eq!(seatings(Players::Three), vec![vec![0, 2], vec![1]]);
        for players in [Players::Four, Players::Three] {
            let mut seats: Vec<usize> = seatings(players).concat();
            seats.sort_unstable();
            assert_eq!(seats, (0..players.count()).collect::<Vec<_>>());
            let remote = remote_seatings(players);
            assert_eq!(remote.len(), players.count());
            assert_eq!(remote.concat(), (0..players.count()).collect::<Vec<_>>());
        }
    }
}
