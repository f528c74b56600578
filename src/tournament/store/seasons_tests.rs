//! Seasons: open, freeze, final and frozen standings, each step's refusals; one league's
//! seasons are not another's.

use super::*;

const HOUR: i64 = 3_600_000;
const NOW: i64 = 1_800_000_000_000;

async fn leagues(dir: &Path) -> (Store, Store) {
    let db = Store::open(&dir.join(DB_FILE)).await.unwrap();
    let a = db.create("4p", "{\"sets\":0}", &[], &[]).await.unwrap();
    let b = db.create("3p", "{\"sets\":0}", &[], &[]).await.unwrap();
    (a, b)
}

fn final_of(t: i64) -> FinalRow {
    FinalRow { t, top: Some(4), sets: 2, asked_ms: NOW + 3 * HOUR }
}

#[tokio::test]
async fn a_season_opens_freezes_then_plays_its_final_whose_standings_freeze_once() {
    let tmp = tempfile::tempdir().unwrap();
    let (league, other) = leagues(tmp.path()).await;
    let seasons = league.seasons();
    assert_eq!(seasons.open("s1", NOW + HOUR, NOW).await.unwrap(), Opened::Opened);
    let s = seasons.get("s1").await.unwrap().unwrap();
    assert_eq!(
        (s.opened_ms, s.freeze_ms, s.final_round.clone(), s.final_standings.clone()),
        (NOW, NOW + HOUR, None, None)
    );
    assert_eq!(s.status(NOW), SeasonStatus::Open);
    assert_eq!(s.status(NOW + HOUR), SeasonStatus::Frozen, "frozen from the freeze time on");
    assert_eq!(seasons.upload_freeze(NOW).await.unwrap(), None, "uploads taken before the freeze");
    assert_eq!(seasons.upload_freeze(NOW + HOUR).await.unwrap().map(|s| s.name), Some("s1".into()));

    // a second open of the name is refused, and so is another season while this one is open
    assert_eq!(seasons.open("s1", NOW + 9 * HOUR, NOW + 2 * HOUR).await.unwrap(), Opened::NameTaken);
    assert_eq!(
        seasons.open("s2", NOW + 9 * HOUR, NOW).await.unwrap(),
        Opened::AnotherOpen { name: "s1".into(), freeze_ms: NOW + HOUR }
    );
    // the other league has no season
    assert_eq!(other.seasons().get("s1").await.unwrap(), None);
    assert_eq!(other.seasons().upload_freeze(NOW + 5 * HOUR).await.unwrap(), None);

    // freezing now moves the freeze time to now; a later freeze leaves it
    let frozen = seasons.freeze("s1", NOW + HOUR / 2).await.unwrap().unwrap();
    assert_eq!((frozen.freeze_ms, frozen.status(NOW + HOUR / 2)), (NOW + HOUR / 2, SeasonStatus::Frozen));
    assert_eq!(seasons.freeze("s1", NOW + 2 * HOUR).await.unwrap().unwrap().freeze_ms, NOW + HOUR / 2);
    assert_eq!(seasons.freeze("nope", NOW).await.unwrap(), None);

    // the final: recorded once
    assert!(seasons.finals_pending().await.unwrap().is_empty());
    assert!(seasons.begin_final("s1", &final_of(7)).await.unwrap());
    assert!(!seasons.begin_final("s1", &final_of(8)).await.unwrap(), "a second final is refused");
    assert!(!seasons.begin_final("nope", &final_of(8)).await.unwrap());
    let s = seasons.get("s1").await.unwrap().unwrap();
    assert_eq!(s.final_round, Some(final_of(7)));
    assert_eq!(s.status(NOW), SeasonStatus::Final);
    assert_eq!(seasons.finals_pending().await.unwrap().len(), 1);

    // standings frozen once, never written again
    assert!(seasons.freeze_standings("s1", "{\"games\":4}", NOW + 4 * HOUR).await.unwrap());
    assert!(!seasons.freeze_standings("s1", "{\"games\":5}", NOW + 5 * HOUR).await.unwrap());
    let s = seasons.get("s1").await.unwrap().unwrap();
    assert_eq!((s.final_standings.as_deref(), s.frozen_ms), (Some("{\"games\":4}"), Some(NOW + 4 * HOUR)));
    assert!(seasons.finals_pending().await.unwrap().is_empty());

    // a later season opens uploads again until its own freeze
    assert_eq!(seasons.open("s2", NOW + 9 * HOUR, NOW + 6 * HOUR).await.unwrap(), Opened::Opened);
    assert_eq!(seasons.upload_freeze(NOW + 6 * HOUR).await.unwrap(), None);
    let names: Vec<String> = seasons.list().await.unwrap().into_iter().map(|s| s.name).collect();
    assert_eq!(names, ["s2", "s1"], "the latest opened first");
}

#[tokio::test]
async fn a_freeze_time_in_the_past_freezes_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    let (league, _) = leagues(tmp.path()).await;
    assert_eq!(league.seasons().open("late", NOW - HOUR, NOW).await.unwrap(), Opened::Opened);
    let s = league.seasons().get("late").await.unwrap().unwrap();
    assert_eq!(s.status(NOW), SeasonStatus::Frozen);
    assert_eq!(league.seasons().upload_freeze(NOW).await.unwrap().map(|s| s.freeze_ms), Some(NOW - HOUR));
    // a frozen season does not stop another from opening
    assert_eq!(league.seasons().open("next", NOW + HOUR, NOW).await.unwrap(), Opened::Opened);
    assert!(!league.seasons().freeze_standings("next", "[]", NOW).await.unwrap(), "no final: nothing to freeze");
}
