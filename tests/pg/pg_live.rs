//! A running game's live hands in the store (`Store::live`, issue 39 item 3), on
//! PostgreSQL and on SQLite alike: only the player holding the game's lease publishes (a
//! worker whose lease went elsewhere cannot overwrite the hands), a hand published again is
//! replaced, hand 0 of a new attempt drops what an earlier one left, `hands` reads from a
//! hand on in order, `forget` drops a game's hands and leaves the others', and `state`
//! follows the game from pending to running to done.

use crate::aggregates_support::{bot_rows, config, random_records};
use crate::pg_support::PgCluster;
use mjai_sim::tournament::schedule::duplicate;
use mjai_sim::tournament::store::{GameState, Store};

/// The scenario on `db` (a new, empty store).
async fn live_hands_follow_the_lease(db: Store) {
    let games = duplicate(4, 1, [3, 0]);
    let league = db.create("live", &config(4, 1, 3), &bot_rows(4), &games).await.unwrap();
    let live = league.live();
    assert_eq!(live.state(0).await.unwrap(), Some(GameState::Pending));
    assert_eq!(live.state(99).await.unwrap(), None);
    // not claimed: nobody's hand is kept
    live.put_hand("w1", 0, 0, "[0]").await.unwrap();
    assert!(live.hands(0, 0, 10).await.unwrap().is_empty());

    let claimed = league.leases().claim("w1", 2, 600_000).await.unwrap();
    assert_eq!(claimed.iter().map(|g| g.index).collect::<Vec<_>>(), [0, 1]);
    assert_eq!(live.state(0).await.unwrap(), Some(GameState::Running));
    live.put_hand("w1", 0, 0, "[0]").await.unwrap();
    live.put_hand("w1", 0, 1, "[1]").await.unwrap();
    live.put_hand("w1", 0, 1, "[\"1 again\"]").await.unwrap();
    live.put_hand("w2", 0, 2, "[\"not w2's\"]").await.unwrap();
    live.put_hand("w1", 1, 0, "[\"game 1\"]").await.unwrap();
    let hands = live.hands(0, 0, 10).await.unwrap();
    assert_eq!(hands, [(0, "[0]".to_string()), (1, "[\"1 again\"]".to_string())]);
    assert_eq!(live.hands(0, 1, 10).await.unwrap().len(), 1, "from a hand on");
    assert_eq!(live.hands(0, 0, 1).await.unwrap().len(), 1, "at most the limit");

    // a new attempt (hand 0 again) drops what the earlier one left
    live.put_hand("w1", 0, 0, "[\"again\"]").await.unwrap();
    assert_eq!(live.hands(0, 0, 10).await.unwrap(), [(0, "[\"again\"]".to_string())]);

    // recorded: the hands go, the other game's stay
    let records = random_records(&games, 3);
    league.games().record(&records[..1], &[]).await.unwrap();
    live.forget(&[0]).await.unwrap();
    assert_eq!(live.state(0).await.unwrap(), Some(GameState::Done));
    assert!(live.hands(0, 0, 10).await.unwrap().is_empty());
    assert_eq!(live.hands(1, 0, 10).await.unwrap().len(), 1);
    live.forget(&[]).await.unwrap();
}

#[test]
fn live_hands_follow_the_lease_on_postgresql_and_sqlite() {
    let pg = PgCluster::start();
    let dir = tempfile::tempdir().unwrap();
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(async {
        live_hands_follow_the_lease(Store::open_url(&pg.url(), 2).await.unwrap()).await;
        live_hands_follow_the_lease(Store::open(&dir.path().join("t.sqlite")).await.unwrap()).await;
    });
}
