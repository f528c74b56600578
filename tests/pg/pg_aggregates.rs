//! The fold under concurrent recorders on PostgreSQL (issue 21, item 6): four recorders,
//! each with its own connection pool, record a league's games one by one in shuffled
//! orders at once; the fold's cursor row is locked (`FOR UPDATE`), so the folds run one
//! after another and every game is folded once, in schedule order: the aggregates equal
//! the standings recomputed from the rows.

use crate::aggregates_support::{assert_matches, bot_rows, config, random_records};
use crate::pg_support::PgCluster;
use mjai_sim::tournament::schedule::duplicate;
use mjai_sim::tournament::store::Store;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

const BOTS: usize = 6;
const SETS: u64 = 40;
const RECORDERS: usize = 4;

#[test]
fn concurrent_recorders_fold_every_game_once_in_order() {
    let pg = PgCluster::start();
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(4).enable_all().build().unwrap();
    rt.block_on(async {
        let games = duplicate(BOTS, SETS, [11, 0]);
        let db = Store::open_url(&pg.url(), 4).await.unwrap();
        let league = db.create("agg", &config(BOTS, SETS, 11), &bot_rows(BOTS), &games).await.unwrap();
        assert_eq!(league.leases().claim("w", games.len(), 600_000).await.unwrap().len(), games.len());
        let records = random_records(&games, 11);
        let mut order: Vec<usize> = (0..games.len()).collect();
        order.shuffle(&mut ChaCha8Rng::seed_from_u64(11));
        let mut tasks = Vec::new();
        for k in 0..RECORDERS {
            let mine: Vec<_> = order.iter().skip(k).step_by(RECORDERS).map(|&i| records[i].clone()).collect();
            let url = pg.url();
            let t = league.id();
            tasks.push(tokio::spawn(async move {
                let store = Store::open_url(&url, 2).await.unwrap().scoped(t);
                for r in mine {
                    assert_eq!(store.games().record(std::slice::from_ref(&r), &[]).await.unwrap(), vec![r.index]);
                }
            }));
        }
        for t in tasks {
            t.await.unwrap();
        }
        let agg = league.aggregates().all().await.unwrap();
        assert_eq!((agg.next, agg.folded), (games.len() as u64, games.len() as u64), "every game folded once");
        let all = league.games().records().await.unwrap();
        assert_matches(&agg, BOTS, &all, 11);
        assert_eq!(league.aggregates().rebuild().await.unwrap(), games.len() as u64);
        assert_eq!(league.aggregates().all().await.unwrap(), agg, "a rebuild from the rows gives the same");
    });
}
