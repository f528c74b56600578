//! The duplicate scheduler's state, kept from one set to the next so that a schedule can be
//! extended one set at a time: [`super::duplicate`] runs it to the end at once; a
//! league (an open-ended tournament, `--sets 0`) rebuilds it from the sets already stored and
//! appends sets over the bots still active ([`crate::store`]'s top-up).
//!
//! The state is what the table choice (`table.rs`) reads: games per bot, tables shared
//! per pair of bots, and the seeded tie-break order.
//!
//! - "Games" counts scheduled games (pending, running, done and failed alike; cancelled
//!   games, those of a retired bot that were never claimed, do not count), so a bot added
//!   to a league starts at 0 and sits at every table until it has caught up.
//! - The tie-break order of the bots a tournament was created with is the seeded
//!   permutation `duplicate()` has always used; a bot added later takes the next place after
//!   every bot before it (bot `i` added after bot `i - 1`), so the order of the others never
//!   changes and the same history gives the same next set.
//! - A retired bot keeps its counts (its games stay counted) but is never chosen again.
//! - House bots ([`Scheduler::set_house`], the grading server's anchors): while any is
//!   active, every table holds at least one. A table chosen without one gives its most
//!   played bot's place to the least played active house bot, so the anchors keep playing
//!   (their ratings stay measured) however many new bots arrive.
//! - Authors ([`Scheduler::set_authors`]): two bots of one author never sit at one table
//!   (riichi.dev's users saw an author's two bots cooperate through a side channel). Of two
//!   bots of one author at a chosen table, the more played gives its place to the least
//!   played active bot whose author is not at the table yet; when no such bot is left, no
//!   set is scheduled.

use super::table::{pick_table, rotations, seeded_order};
use super::ScheduledGame;
use mjai_sim_engine::game::Players;

/// Bots a rating-aware table is drawn among ([`Scheduler::next_set_rated`]): the anchor and
/// its nearest in μ.
pub const RATING_WINDOW: usize = 6;

/// Games per bot, tables shared per pair, the tie-break order and the next set's number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scheduler {
    players: Players,
    seed: [u64; 2],
    order: Vec<usize>,
    games: Vec<u64>,
    shared: Vec<Vec<u64>>,
    sets: u64,
    house: Vec<bool>,
    authors: Vec<Option<u32>>,
}

impl Scheduler {
    /// A scheduler of four-player tables for the `bots` bots a tournament is created with
    /// (bot indices `0..bots`), wall seeds from `seed = [nonce, key]`, no set scheduled yet.
    pub fn new(bots: usize, seed: [u64; 2]) -> Scheduler {
        Scheduler::for_table(bots, Players::Four, seed)
    }

    /// [`Scheduler::new`] for tables of `players` seats: each set seats `players.count()`
    /// bots and plays that many games.
    pub fn for_table(bots: usize, players: Players, seed: [u64; 2]) -> Scheduler {
        Scheduler {
            players,
            seed,
            order: seeded_order(bots, seed),
            games: vec![0; bots],
            shared: vec![vec![0; bots]; bots],
            sets: 0,
            house: Vec::new(),
            authors: Vec::new(),
        }
    }

    /// Marks the house bots (`house[bot]`; missing entries: not house): from the next set
    /// on, each table holds at least one active house bot when there is one (module docs).
    pub fn set_house(&mut self, house: &[bool]) {
        self.house = house.to_vec();
    }

    /// Marks each bot's author (`authors[bot]`: an id per author; `None` or missing: no
    /// author, such as a house bot): from the next set on, no table holds two bots of one
    /// author (module docs).
    pub fn set_authors(&mut self, authors: &[Option<u32>]) {
        self.authors = authors.to_vec();
    }

    /// `table` with no two bots of one author: of a clashing pair the more played bot
    /// (ties: the later in `order`) gives its place to the least played bot of `order`
    /// (ties: first in `order`) that is not at the table and whose author is not at it.
    /// `None` when no such bot is left.
    fn authors_apart(&self, mut table: Vec<usize>, order: &[usize]) -> Option<Vec<usize>> {
        let author = |b: usize| self.authors.get(b).copied().flatten();
        let place = |b: usize| order.iter().position(|&o| o == b).unwrap_or(usize::MAX);
        loop {
            let clash = (0..table.len()).find_map(|i| {
                let a = author(table[i])?;
                (0..i).find(|&j| author(table[j]) == Some(a)).map(|j| (j, i))
            });
            let Some((j, i)) = clash else { return Some(table) };
            let key = |b: usize| (self.games[b], place(b));
            let slot = if key(table[i]) >= key(table[j]) { i } else { j };
            let others: Vec<Option<u32>> = (0..table.len()).filter(|&k| k != slot).map(|k| author(table[k])).collect();
            let free = |b: usize| !table.contains(&b) && author(b).is_none_or(|a| !others.contains(&Some(a)));
            table[slot] = order.iter().copied().filter(|&b| free(b)).min_by_key(|&b| key(b))?;
        }
    }

    /// `table` with a house bot in it: unchanged when it holds one or no house bot is
    /// active; else its most played bot (ties: latest in `order`) gives its place to the
    /// least played active house bot (ties: first in `order`).
    fn with_house(&self, mut table: Vec<usize>, order: &[usize]) -> Vec<usize> {
        let is_house = |b: usize| self.house.get(b).copied().unwrap_or(false);
        if table.iter().any(|&b| is_house(b)) {
            return table;
        }
        let Some(&anchor) = order.iter().filter(|&&b| is_house(b)).min_by_key(|&&b| self.games[b]) else {
            return table;
        };
        let place = |b: usize| order.iter().position(|&o| o == b).unwrap_or(0);
        if let Some(slot) = (0..table.len()).max_by_key(|&i| (self.games[table[i]], place(table[i]))) {
            table[slot] = anchor;
        }
        table
    }

    /// The table size of every set.
    pub fn players(&self) -> Players {
        self.players
    }

    /// Bots known (indices `0..bots()`).
    pub fn bots(&self) -> usize {
        self.games.len()
    }

    /// Sets scheduled or replayed so far; the next set gets this number.
    pub fn sets(&self) -> u64 {
        self.sets
    }

    /// Scheduled games of `bot` counted so far (0 for an unknown bot).
    pub fn games_of(&self, bot: usize) -> u64 {
        self.games.get(bot).copied().unwrap_or(0)
    }

    /// Adds bots until there are `bots` (bots added to a league, in index order); each new
    /// bot takes the last place of the tie-break order. Never removes bots.
    pub fn grow(&mut self, bots: usize) {
        if bots <= self.games.len() {
            return;
        }
        self.order.extend(self.games.len()..bots);
        self.games.resize(bots, 0);
        for row in &mut self.shared {
            row.resize(bots, 0);
        }
        self.shared.resize(bots, vec![0; bots]);
    }

    /// Counts a set already scheduled (the next one in order): `table` holds its bots (the
    /// seats of its first game), `games` how many of its games count (those not cancelled).
    /// A bot index beyond [`Scheduler::bots`] grows the scheduler first.
    pub fn replay(&mut self, table: &[usize], games: u64) {
        if let Some(&max) = table.iter().max() {
            self.grow(max + 1);
        }
        self.count(table, games);
        self.sets += 1;
    }

    /// Schedules the next set among the bots with `active[bot]` true (missing entries:
    /// inactive): its `n` games (`n`: the table's seats), indices `n·set .. n·set + n − 1`,
    /// wall seed `[nonce + set, key]`. `None` (nothing scheduled) when fewer than `n` bots
    /// are active.
    pub fn next_set(&mut self, active: &[bool]) -> Option<Vec<ScheduledGame>> {
        let n = self.players.count();
        let order: Vec<usize> =
            self.order.iter().copied().filter(|&b| active.get(b).copied().unwrap_or(false)).collect();
        if order.len() < n {
            return None;
        }
        let table = pick_table(&order, &self.games, &self.shared, n);
        let table = self.authors_apart(self.with_house(table, &order), &order)?;
        Some(self.schedule(table))
    }

    /// Counts `table`'s set and returns its games.
    fn schedule(&mut self, table: Vec<usize>) -> Vec<ScheduledGame> {
        self.count(&table, table.len() as u64);
        let set = self.sets;
        self.sets += 1;
        rotations(set, &table, self.seed)
    }

    /// [`Scheduler::next_set`] with rating-aware matching: `ratings[b]` is `Some(μ)` for a
    /// bot past its provisional games (`None`: provisional, or no rating). The anchor is the
    /// active bot that played least (first in the tie-break order among ties); when it has
    /// a rating and at least `n − 1` other active bots have one (`n`: the table's seats), the table is picked as
    /// [`Scheduler::next_set`] picks it, among the anchor and the [`RATING_WINDOW`] − 1
    /// active rated bots nearest to it in μ (ties: tie-break order). Otherwise (a
    /// provisional anchor) among every active bot. Every bot is the anchor in turn, so games
    /// stay balanced; the same history and ratings give the same set.
    pub fn next_set_rated(&mut self, active: &[bool], ratings: &[Option<f64>]) -> Option<Vec<ScheduledGame>> {
        let n = self.players.count();
        let order: Vec<usize> =
            self.order.iter().copied().filter(|&b| active.get(b).copied().unwrap_or(false)).collect();
        if order.len() < n {
            return None;
        }
        let rating = |b: usize| ratings.get(b).copied().flatten();
        let anchor = *order.iter().min_by_key(|&&b| self.games[b])?;
        let mut pool = order.clone();
        if let Some(mu) = rating(anchor) {
            let mut rated: Vec<(usize, usize, f64)> = order
                .iter()
                .enumerate()
                .filter(|&(_, &b)| b != anchor)
                .filter_map(|(pos, &b)| rating(b).map(|r| (pos, b, (r - mu).abs())))
                .collect();
            if rated.len() >= n - 1 {
                rated.sort_by(|x, y| x.2.total_cmp(&y.2).then(x.0.cmp(&y.0)));
                let near: Vec<usize> = rated.iter().take(RATING_WINDOW - 1).map(|r| r.1).collect();
                pool.retain(|b| *b == anchor || near.contains(b));
            }
        }
        let table = pick_table(&pool, &self.games, &self.shared, n);
        let table = self.authors_apart(self.with_house(table, &order), &order)?;
        Some(self.schedule(table))
    }

    fn count(&mut self, table: &[usize], games: u64) {
        for &a in table {
            self.games[a] += games;
            if games > 0 {
                for &b in table {
                    if a != b {
                        self.shared[a][b] += 1;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::duplicate;
    use super::*;

    #[test]
    fn every_table_holds_a_house_bot_while_new_bots_catch_up() {
        // 4 house bots with 200 games each, then 10 new bots at 0: balanced alone would seat
        // only new bots until they caught up
        let mut s = Scheduler::new(4, [5, 0]);
        for _ in 0..50 {
            s.next_set(&[true; 4]);
        }
        s.grow(14);
        let active = vec![true; 14];
        let mut without = s.clone();
        let house_seats = |sched: &mut Scheduler| {
            (0..30).map(|_| sched.next_set(&active).unwrap()[0].seats.iter().filter(|&&b| b < 4).count()).sum::<usize>()
        };
        assert_eq!(house_seats(&mut without), 0, "the case this guards: no house bot at all");
        s.set_house(&[true, true, true, true]);
        let mut per_table = Vec::new();
        for _ in 0..30 {
            let set = s.next_set(&active).unwrap();
            per_table.push(set[0].seats.iter().filter(|&&b| b < 4).count());
        }
        assert!(per_table.iter().all(|&n| n >= 1), "{per_table:?}");
        // the new bots still get most seats (they catch up), and the house bots share the rest evenly
        assert!(per_table.iter().sum::<usize>() <= 40, "{per_table:?}");
        let house_games: Vec<u64> = (0..4).map(|b| s.games_of(b)).collect();
        assert!(house_games.iter().max().unwrap() - house_games.iter().min().unwrap() <= 8, "{house_games:?}");
        // a retired (inactive) house bot is not brought back; none active: no constraint
        let mut none = s.clone();
        let only_new: Vec<bool> = (0..14).map(|b| b >= 4).collect();
        assert!(none.next_set(&only_new).unwrap()[0].seats.iter().all(|&b| b >= 4));
    }

    #[test]
    fn two_bots_of_one_author_never_share_a_table() {
        // bots 0-3: house; 4, 5 and 6: author 1; 7: author 2; 8: author 3
        let mut s = Scheduler::new(9, [3, 1]);
        s.set_house(&[true, true, true, true]);
        let authors = [None, None, None, None, Some(1), Some(1), Some(1), Some(2), Some(3)];
        let mut without = s.clone();
        s.set_authors(&authors);
        let of = |b: usize| authors[b];
        let clashes = |t: &[usize]| (0..t.len()).any(|i| (0..i).any(|j| of(t[i]).is_some() && of(t[i]) == of(t[j])));
        let mut seen_without = 0;
        for _ in 0..60 {
            let set = s.next_set(&[true; 9]).expect("a table without clashes exists");
            assert!(!clashes(table_of(&set[0])), "{:?}", table_of(&set[0]));
            seen_without += usize::from(clashes(table_of(&without.next_set(&[true; 9]).unwrap()[0])));
        }
        assert!(seen_without > 0, "the case this guards: without the rule an author's bots meet");
        // every bot still plays
        assert!((0..9).all(|b| s.games_of(b) > 0));
        // only one author's bots and one house bot: no table is possible
        let mut only = Scheduler::new(5, [1, 1]);
        only.set_house(&[true]);
        only.set_authors(&[None, Some(1), Some(1), Some(1), Some(1)]);
        assert!(only.next_set(&[true; 5]).is_none());
    }

    fn table_of(g: &ScheduledGame) -> &[usize] {
        &g.seats
    }

    #[test]
    fn replaying_a_prefix_and_extending_gives_duplicate_exactly() {
        for (bots, seed) in [(4usize, [3u64, 0u64]), (6, [11, 2]), (9, [7, 7]), (13, [1, 99])] {
            let full = duplicate(bots, 40, seed);
            for cut in [0u64, 1, 17, 39] {
                let mut s = Scheduler::new(bots, seed);
                for set in 0..cut {
                    s.replay(table_of(&full[set as usize * 4]), 4);
                }
                let all = vec![true; bots];
                let rest: Vec<ScheduledGame> = (cut..40).flat_map(|_| s.next_set(&all).unwrap()).collect();
                assert_eq!(rest, full[cut as usize * 4..], "{bots} bots, seed {seed:?}, replayed {cut} sets");
            }
        }
    }

    #[test]
    fn a_bot_added_later_sits_at_every_table_until_it_has_caught_up() {
        let mut s = Scheduler::new(4, [5, 0]);
        let four = vec![true; 4];
        for _ in 0..10 {
            s.next_set(&four).unwrap();
        }
        s.grow(5);
        assert_eq!(s.bots(), 5);
        let five = vec![true; 5];
        let mut caught_up = false;
        for _ in 0..60 {
            let behind = (0..4).all(|b| s.games_of(4) < s.games_of(b));
            let set = s.next_set(&five).unwrap();
            if behind {
                assert!(set.iter().all(|g| g.seats.contains(&4)), "the new bot is at every table while behind");
            } else {
                caught_up = true;
            }
            assert_eq!(set[0].seed, [5 + set[0].set, 0]);
        }
        assert!(caught_up, "40 sets make up 40 games");
        let games: Vec<u64> = (0..5).map(|b| s.games_of(b)).collect();
        assert!(games.iter().max().unwrap() - games.iter().min().unwrap() <= 4, "{games:?}");
    }

    #[test]
    fn a_retired_bot_is_never_chosen_and_its_games_stay_counted() {
        let mut s = Scheduler::new(6, [2, 1]);
        let mut active = vec![true; 6];
        for _ in 0..12 {
            s.next_set(&active).unwrap();
        }
        let before = s.games_of(2);
        active[2] = false;
        for _ in 0..30 {
            assert!(s.next_set(&active).unwrap().iter().all(|g| !g.seats.contains(&2)));
        }
        assert_eq!(s.games_of(2), before);
        let others: Vec<u64> = [0, 1, 3, 4, 5].iter().map(|&b| s.games_of(b)).collect();
        assert!(others.iter().max().unwrap() - others.iter().min().unwrap() <= 4, "{others:?}");
        active[0] = false;
        active[1] = false;
        assert_eq!(s.next_set(&active), None, "3 active bots: nothing scheduled");
        assert_eq!(s.sets(), 42);
    }

    #[test]
    fn cancelled_games_do_not_count() {
        let mut s = Scheduler::new(5, [0, 0]);
        s.replay(&[0, 1, 2, 3], 1); // three of its games cancelled
        assert_eq!((s.games_of(0), s.games_of(4)), (1, 0));
        s.replay(&[4, 1, 2, 7], 4); // a bot index beyond the list grows it
        assert_eq!((s.bots(), s.games_of(7), s.sets()), (8, 4, 2));
    }

    /// 16 bots with μ = 10 × index: once rated, a table spans at most the anchor's window;
    /// the same history and ratings give the same sets; unrated, it is `next_set`.
    #[test]
    fn rating_aware_tables_are_near_in_mu_and_reproducible() {
        let bots = 16;
        let all = vec![true; bots];
        let ratings: Vec<Option<f64>> = (0..bots).map(|b| Some(10.0 * b as f64)).collect();
        let mut a = Scheduler::new(bots, [3, 1]);
        let mut b = Scheduler::new(bots, [3, 1]);
        for _ in 0..200 {
            let set = a.next_set_rated(&all, &ratings).unwrap();
            let table = set[0].seats.clone();
            assert_eq!(Some(set), b.next_set_rated(&all, &ratings), "reproducible");
            let (lo, hi) = (table.iter().min().unwrap(), table.iter().max().unwrap());
            // the window: the anchor and its 5 nearest in μ, 6 neighbouring indices
            assert!(hi - lo < RATING_WINDOW, "{table:?}");
        }
        let games: Vec<u64> = (0..bots).map(|x| a.games_of(x)).collect();
        let (min, max) = (games.iter().min().unwrap(), games.iter().max().unwrap());
        assert!(max - min <= 8, "balanced within two sets: {games:?}");
        let unrated = vec![None; bots];
        let mut c = Scheduler::new(bots, [3, 1]);
        let mut d = Scheduler::new(bots, [3, 1]);
        for _ in 0..20 {
            assert_eq!(c.next_set_rated(&all, &unrated), d.next_set(&all), "no ratings: the balanced scheduler");
        }
        // balanced tables mix far-apart bots; rated ones do not
        let spread = |s: &mut Scheduler, r: &[Option<f64>]| -> usize {
            (0..100)
                .map(|_| s.next_set_rated(&all, r).unwrap()[0].seats.clone())
                .map(|t| t.iter().max().unwrap() - t.iter().min().unwrap())
                .max()
                .unwrap()
        };
        assert!(
            spread(&mut Scheduler::new(bots, [3, 1]), &unrated) > spread(&mut Scheduler::new(bots, [3, 1]), &ratings)
        );
    }
}
