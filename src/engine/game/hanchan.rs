//! The hanchan around the kyoku: who deals next, honba and riichi sticks, and when the game
//! ends (Tenhou rules). The final ranking is [`crate::ranking`].

use crate::tile::Tile;

use super::kyoku::Outcome;
use super::setup::StartState;
use crate::ranking::rank_order_for;
use crate::rules::{GameLength, Rules, MAX_SEATS};

const EAST: u8 = 27;
const SOUTH: u8 = 28;

/// The state after a kyoku that ended with `outcome`, or `None` when the game is over.
///
/// Tenhou: the dealer keeps the deal after a win, tenpai at an exhaustive draw, and any
/// abortive draw; honba +1 after every draw and after a dealer win, 0 after a non-dealer
/// win; chombo moves the deal on with honba 0. The game ends when a score is below 0;
/// after South 4 when someone has 30000 (or goes on into the West round, where it ends as
/// soon as someone has 30000, at the latest after West 4); and in the last hand when the
/// dealer keeps the deal by a win or tenpai while first with at least 30000
/// (agari-yame, tenpai-yame).
///
/// Under `rules` with [`Rules::west_renchan_continues`] (mjai.app), a dealer who keeps the
/// deal by a win or tenpai in the West round plays on although someone has 30000 (unless
/// the dealer is first with 30000 or more).
///
/// An East-only game ([`GameLength::Tonpuusen`]) is the same one round earlier (Tenhou's
/// 東風戦; RiichiEnv `_advance_round`, game mode East): it ends after East 4 when someone
/// has 30000, else goes on into the South round, which ends as the West round does above.
///
/// Three-player ([`Players::Three`](crate::rules::Players::Three)): three hands a round
/// (the last regular hand is South 3, East 3 East-only), and 40000 instead of 30000
/// (RiichiEnv `state_3p/mod.rs` `_initialize_next_round`, game modes 4 `3p-red-east` and 5
/// `3p-red-half`: the game ends when the next round would pass the extension round, or
/// enters or plays it with someone at 40000; agari-yame when the dealer of the last regular
/// hand is first with 40000).
pub fn next_state(
    cur: &StartState,
    outcome: Outcome,
    scores: [i32; MAX_SEATS],
    kyotaku: u8,
    rules: Rules,
) -> Option<StartState> {
    let seats = rules.players.count();
    let target = rules.players.target();
    if scores[..seats].iter().any(|&s| s < 0) {
        return None;
    }
    let hands = seats as u8;
    let oya = (cur.kyoku - 1) as usize;
    let (renchan, honba) = match outcome {
        Outcome::Hora { dealer_won: true } => (true, cur.honba.saturating_add(1)),
        Outcome::Hora { dealer_won: false } => (false, 0),
        Outcome::Exhaustive { dealer_tenpai } => (dealer_tenpai, cur.honba.saturating_add(1)),
        Outcome::Abortive => (true, cur.honba.saturating_add(1)),
        Outcome::Chombo => (false, 0),
    };
    let wind = cur.bakaze.kind();
    // The last round of the regular game and the extension round after it (sudden death).
    let last = match rules.length {
        GameLength::Hanchan => SOUTH,
        GameLength::Tonpuusen => EAST,
    };
    let extension = last + 1;
    let someone_reached = scores[..seats].iter().any(|&s| s >= target);
    let last_hand = (wind == last && cur.kyoku == hands) || wind >= extension;
    let kept_by_play = renchan && matches!(outcome, Outcome::Hora { .. } | Outcome::Exhaustive { .. });
    if wind >= extension && someone_reached && !(rules.west_renchan_continues && kept_by_play) {
        return None;
    }
    if last_hand && kept_by_play && scores[oya] >= target && rank_order_for(scores, rules.players)[0] == oya {
        return None;
    }
    let (bakaze, kyoku) = if renchan {
        (wind, cur.kyoku)
    } else if cur.kyoku < hands {
        (wind, cur.kyoku + 1)
    } else {
        (wind + 1, 1)
    };
    if bakaze > extension || (bakaze == extension && kyoku == 1 && !renchan && someone_reached) {
        return None;
    }
    debug_assert!(bakaze >= EAST);
    Some(StartState { bakaze: Tile::from_kind(bakaze).expect("E, S or W"), kyoku, honba, kyotaku, scores })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ranking::{final_scores_for, ranks_for};
    use crate::rules::Players;

    /// Tenhou rules.
    fn next_state(cur: &StartState, outcome: Outcome, scores: [i32; 4], kyotaku: u8) -> Option<StartState> {
        super::next_state(cur, outcome, scores, kyotaku, Rules::tenhou())
    }

    fn at(wind: &str, kyoku: u8, honba: u8) -> StartState {
        StartState { bakaze: wind.parse().unwrap(), kyoku, honba, kyotaku: 0, scores: [25000; 4] }
    }

    #[test]
    fn deal_moves_and_honba() {
        let s = [25000; 4];
        let n = next_state(&at("E", 1, 2), Outcome::Hora { dealer_won: false }, s, 0).unwrap();
        assert_eq!((n.bakaze.as_mjai(), n.kyoku, n.honba), ("E", 2, 0));
        let n = next_state(&at("E", 1, 2), Outcome::Hora { dealer_won: true }, s, 0).unwrap();
        assert_eq!((n.kyoku, n.honba), (1, 3));
        let n = next_state(&at("E", 4, 0), Outcome::Exhaustive { dealer_tenpai: false }, s, 2).unwrap();
        assert_eq!((n.bakaze.as_mjai(), n.kyoku, n.honba, n.kyotaku), ("S", 1, 1, 2));
        let n = next_state(&at("S", 2, 1), Outcome::Abortive, s, 0).unwrap();
        assert_eq!((n.kyoku, n.honba), (2, 2));
        let n = next_state(&at("S", 2, 3), Outcome::Chombo, s, 1).unwrap();
        assert_eq!((n.kyoku, n.honba, n.kyotaku), (3, 0, 1));
    }

    #[test]
    fn game_end_rules() {
        // Below zero ends at once.
        assert!(
            next_state(&at("E", 1, 0), Outcome::Hora { dealer_won: false }, [51000, 25000, 25000, -1000], 0).is_none()
        );
        // South 4 over with someone at 30000: end; nobody: West 1.
        let s = [31000, 23000, 23000, 23000];
        assert!(next_state(&at("S", 4, 0), Outcome::Hora { dealer_won: false }, s, 0).is_none());
        let w =
            next_state(&at("S", 4, 0), Outcome::Hora { dealer_won: false }, [28000, 24000, 24000, 24000], 0).unwrap();
        assert_eq!((w.bakaze.as_mjai(), w.kyoku), ("W", 1));
        // West: ends as soon as someone has 30000, even on a dealer repeat.
        assert!(next_state(&at("W", 1, 0), Outcome::Hora { dealer_won: true }, s, 0).is_none());
        assert!(next_state(&at("W", 4, 0), Outcome::Exhaustive { dealer_tenpai: false }, [25000; 4], 0).is_none());
        // All-last: dealer (seat 3) top with 30000 stops; not top goes on.
        assert!(
            next_state(&at("S", 4, 0), Outcome::Hora { dealer_won: true }, [20000, 20000, 20000, 40000], 0).is_none()
        );
        assert!(next_state(
            &at("S", 4, 0),
            Outcome::Exhaustive { dealer_tenpai: true },
            [40000, 20000, 20000, 20000],
            0
        )
        .is_some());
        // Equal with an earlier seat is not top.
        assert!(
            next_state(&at("S", 4, 0), Outcome::Hora { dealer_won: true }, [35000, 15000, 15000, 35000], 0).is_some()
        );
        // An abortive draw in all-last never ends the game.
        assert!(next_state(&at("S", 4, 0), Outcome::Abortive, [20000, 20000, 20000, 40000], 0).is_some());
    }

    #[test]
    fn west_dealer_renchan_ends_under_tenhou_and_goes_on_under_mjai_app() {
        // West 2: the dealer (seat 1) wins but seat 0 is first with 31000.
        let scores = [31000, 29000, 20000, 20000];
        let w2 = StartState { scores, ..at("W", 2, 0) };
        let win = Outcome::Hora { dealer_won: true };
        assert!(super::next_state(&w2, win, scores, 0, Rules::tenhou()).is_none());
        let n = super::next_state(&w2, win, scores, 0, Rules::mjai_app()).expect("the dealer plays on");
        assert_eq!((n.bakaze.as_mjai(), n.kyoku, n.honba), ("W", 2, 1));
        // Dealer first with 30000 or more: both end; an abortive draw: both end.
        let top = [29000, 31000, 20000, 20000];
        assert!(super::next_state(&w2, win, top, 0, Rules::mjai_app()).is_none());
        assert!(super::next_state(&w2, Outcome::Abortive, scores, 0, Rules::mjai_app()).is_none());
    }

    #[test]
    fn an_east_only_game_ends_after_east_4_or_in_the_south_round() {
        let east = Rules::tenhou().east_only();
        let next = |cur: &StartState, outcome, scores| super::next_state(cur, outcome, scores, 0, east);
        let off = Outcome::Hora { dealer_won: false };
        // East 3 goes on to East 4 whatever the scores.
        let n = next(&at("E", 3, 0), off, [40000, 20000, 20000, 20000]).unwrap();
        assert_eq!((n.bakaze.as_mjai(), n.kyoku), ("E", 4));
        // East 4 over: someone at 30000 ends it; nobody goes on into South 1.
        assert!(next(&at("E", 4, 0), off, [31000, 23000, 23000, 23000]).is_none());
        let s1 = next(&at("E", 4, 0), off, [28000, 24000, 24000, 24000]).unwrap();
        assert_eq!((s1.bakaze.as_mjai(), s1.kyoku), ("S", 1));
        // All-last in East 4: the dealer (seat 3) top with 30000 stops (agari-yame).
        assert!(next(&at("E", 4, 0), Outcome::Hora { dealer_won: true }, [20000, 20000, 20000, 40000]).is_none());
        // The South round is sudden death: someone at 30000 ends it, South 4 at the latest.
        assert!(next(&at("S", 1, 0), off, [31000, 23000, 23000, 23000]).is_none());
        let s2 = next(&at("S", 1, 0), off, [28000, 24000, 24000, 24000]).unwrap();
        assert_eq!((s2.bakaze.as_mjai(), s2.kyoku), ("S", 2));
        assert!(next(&at("S", 4, 0), Outcome::Exhaustive { dealer_tenpai: false }, [25000; 4]).is_none());
        // The same states under the hanchan rules go on.
        assert!(next_state(&at("E", 4, 0), off, [31000, 23000, 23000, 23000], 0).is_some());
        assert!(next_state(&at("S", 1, 0), off, [31000, 23000, 23000, 23000], 0).is_some());
    }

    fn at3(wind: &str, kyoku: u8, scores: [i32; 4]) -> StartState {
        StartState { bakaze: wind.parse().unwrap(), kyoku, honba: 0, kyotaku: 0, scores }
    }

    #[test]
    fn three_player_hanchan_has_three_hands_a_round_and_a_40000_goal() {
        let r = Rules::tenhou_3p();
        let off = Outcome::Hora { dealer_won: false };
        let even = [35000, 35000, 35000, 0];
        // East 3 is followed by South 1 (three dealers).
        let n = super::next_state(&at3("E", 3, even), off, even, 0, r).unwrap();
        assert_eq!((n.bakaze.as_mjai(), n.kyoku, n.honba), ("S", 1, 0));
        // South 3 over: 40000 ends it, 39000 goes on into West 1 (RiichiEnv mode 5).
        let top = [40000, 33000, 32000, 0];
        assert!(super::next_state(&at3("S", 3, top), off, top, 0, r).is_none());
        let short = [39000, 34000, 32000, 0];
        let w = super::next_state(&at3("S", 3, short), off, short, 0, r).unwrap();
        assert_eq!((w.bakaze.as_mjai(), w.kyoku), ("W", 1));
        // 30000 is no goal at three seats: South 3 at 39000 is no end, West 3 is the last.
        assert!(super::next_state(&at3("W", 3, short), off, short, 0, r).is_none());
        // Agari-yame in South 3: dealer seat 2 first with 40000.
        let oya_top = [30000, 35000, 40000, 0];
        assert!(super::next_state(&at3("S", 3, oya_top), Outcome::Hora { dealer_won: true }, oya_top, 0, r).is_none());
        // West 1: the dealer (seat 0) keeps the deal by a win while seat 1 has 40300:
        // tenhou-3p ends the game, riichi-dev-3p plays on (RiichiEnv PR #232).
        let west = [40100, 40300, 24600, 0];
        let win = Outcome::Hora { dealer_won: true };
        assert!(super::next_state(&at3("W", 1, west), win, west, 0, r).is_none());
        let n = super::next_state(&at3("W", 1, west), win, west, 0, Rules::riichi_dev_3p()).unwrap();
        assert_eq!((n.bakaze.as_mjai(), n.kyoku, n.honba), ("W", 1, 1));
        // A bust ends it; seat 3's empty 0 is never a bust nor a place.
        let bust = [-100, 60000, 45100, 0];
        assert!(super::next_state(&at3("E", 1, bust), off, bust, 0, r).is_none());
        assert_eq!(ranks_for([30000, 45000, 30000, 0], Players::Three), [2, 1, 3, 0]);
        assert_eq!(ranks_for([-100, 60000, 45100, 0], Players::Three), [3, 1, 2, 0]);
        assert_eq!(final_scores_for([-100, 60000, 44100, 0], 1, Players::Three), [-100, 61000, 44100, 0]);
    }
}
