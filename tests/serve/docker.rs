//! End to end in Docker (issue 21): two authors upload zips, one through the pages in
//! Chromium and one over the API; validation games run in Docker; the league plays; the
//! leaderboard in Chromium lists both with intervals; each author reads their own stderr
//! and not the other's; a bot that fails validation never plays a league game; a re-upload
//! makes version 2 and retires version 1; SIGTERM leaves no container behind.

use std::sync::Arc;
use std::time::Duration;

use super::browser::spawn_browser;
use super::support::{example_zip, noisy_zip, poll, spawn_in, Http};

/// Longest wait for a validation game in Docker.
const VALIDATION: Duration = Duration::from_secs(300);

/// Held by each test here: their servers validate in Docker one test at a time. Run side by
/// side, the torch bot's validation (`--image ml`) was seen to hang (no container, no Docker
/// call in flight) while the other test's server played; alone it passes in about 13 s.
/// The cause is not found yet (docs/testing.md).
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn two_authors_upload_validate_in_docker_and_the_league_ranks_them() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let alice_zip = dir.path().join("alice-bot.zip");
    std::fs::write(&alice_zip, noisy_zip("tsumogiri", "alice-secret")).unwrap();
    let mut server = spawn_in(dir.clone(), &["--runtime", "docker", "--jobs", "1", "--seed", "5"]);
    let (a, b) = (server.author("alice", false), server.author("bob", false));
    let http = Http::new();
    let browser = spawn_browser();

    // alice logs in and uploads through the pages
    browser.goto(&server.url("/login"));
    browser.type_into("input[name=token]", &a);
    browser.click_to("form.box button[type=submit]", "/me");
    assert_eq!(browser.text("#me").as_deref(), Some("alice"));
    browser.goto(&server.url("/upload"));
    browser.type_into("input[name=name]", "alice-bot");
    browser.type_into("input[name=file]", &alice_zip.display().to_string());
    browser.click_to("form.box button[type=submit]", "/me");
    assert_eq!(browser.count("section.mybot[data-bot=\"alice-bot\"]"), 1, "the upload is on alice's page");

    // bob uploads over the API: a bot that plays, and one that crashes
    assert_eq!(http.upload(&server, Some(&b), "bob-bot", noisy_zip("tsumogiri", "bob-secret")).status, 202);
    assert_eq!(http.upload(&server, Some(&b), "bob-crash", example_zip("crash")).status, 202);
    http.wait_status(&server, "alice-bot", "active", VALIDATION);
    http.wait_status(&server, "bob-bot", "active", VALIDATION);
    http.wait_status_as(&server, "bob-crash", "rejected", Some(&b), VALIDATION);

    // a re-upload makes version 2; version 1 retires once it passes
    let again = http.upload(&server, Some(&a), "alice-bot", noisy_zip("tsumogiri", "alice-secret-2"));
    assert_eq!(again.json()["version"], 2, "{}", again.body);
    poll(VALIDATION, "alice-bot v2 to be active", || {
        let e = http.get(&server.url("/api/bots/alice-bot"), None).json()["entry"].clone();
        (e["version"] == 2 && e["status"] == "active").then_some(())
    });
    let board = http.get(&server.url("/api/leaderboard"), None).json();
    let v1 = board["bots"].as_array().unwrap().iter().find(|e| e["name"] == "alice-bot" && e["version"] == 1);
    assert_eq!(v1.unwrap()["status"], "retired");

    // each author reads their own bots' stderr, and gets 404 for the other's
    let errors = |name: &str, token: &str| http.get(&server.url(&format!("/api/bots/{name}/errors")), Some(token));
    assert!(errors("alice-bot", &a).body.contains("alice-secret-2"), "alice reads her stderr");
    assert!(errors("bob-bot", &b).body.contains("bob-secret"), "bob reads his");
    assert_eq!(errors("bob-bot", &a).status, 404);
    assert_eq!(errors("alice-bot", &b).status, 404);
    browser.goto(&server.url("/me"));
    let mine = browser.source();
    assert!(mine.contains("alice-secret-2") && !mine.contains("bob-secret"), "alice's /me: {mine}");

    // the league plays until both bots have intervals
    let line = |board: &serde_json::Value, name: &str| {
        board["bots"].as_array().unwrap().iter().find(|e| e["name"] == name && e["status"] == "active").cloned()
    };
    poll(Duration::from_secs(900), "league games of both uploaded bots", || {
        let board = http.get(&server.url("/api/leaderboard"), None).json();
        let ready = ["alice-bot", "bob-bot"]
            .iter()
            .all(|n| line(&board, n).is_some_and(|e| e["games"].as_u64() >= Some(2) && !e["avg_rank_ci"].is_null()));
        ready.then_some(())
    });
    // the bot that failed validation never played (its author sees it; nobody else does)
    let crash = http.get(&server.url("/api/bots/bob-crash/games"), Some(&b)).json();
    assert_eq!(crash["games"].as_array().map(Vec::len), Some(0), "{crash}");
    assert_eq!(http.get(&server.url("/api/bots/bob-crash"), Some(&b)).json()["entry"]["games"], 0);
    assert_eq!(http.get(&server.url("/api/bots/bob-crash"), None).status, 404, "private to bob");

    // Chromium reads the leaderboard: both uploaded bots, each with its interval
    browser.goto(&server.url("/"));
    for name in ["alice-bot", "bob-bot"] {
        let row = format!("#leaderboard tr[data-bot=\"{name}\"]");
        assert!(browser.attr(&row, "data-ci").is_some_and(|ci| !ci.is_empty()), "{name} has an interval");
    }
    assert_eq!(browser.count("#leaderboard tr[data-bot=\"bob-crash\"]"), 0, "a rejected bot is not ranked");
    browser.click_to("#leaderboard tr[data-bot=\"bob-bot\"] td.name a", "/bots/bob-bot/v/1");
    assert_eq!(browser.text("#bot").as_deref(), Some("bob-bot v1"));
    assert_eq!(browser.count("svg#rank-dist"), 1, "the rank distribution is drawn");
    assert!(browser.count("#h2h tr[data-opponent]") >= 1, "head to head");
    drop(browser);

    // SIGTERM: exit 143, and no container of its games left (counted by this server's
    // owner label: the other test of this binary runs its own servers meanwhile)
    let pid = server.child.id();
    assert_eq!(server.terminate(), Some(143));
    let left = std::process::Command::new("docker")
        .args(["ps", "-a", "--filter", "label=mjai-sim.game", "--format", "{{.ID}} {{.Label \"mjai-sim.owner\"}}"])
        .output()
        .expect("docker runs");
    let left = String::from_utf8_lossy(&left.stdout);
    let ours: Vec<&str> = left.lines().filter(|l| l.contains(&format!("/{pid}/"))).collect();
    assert!(ours.is_empty(), "containers left behind: {ours:?}");
}

/// examples/mlbot as an author uploads it: bot.py, features.py and the weights, model.pt.
fn mlbot_zip() -> Vec<u8> {
    let folder = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/mlbot");
    let read = |name: &str| std::fs::read(folder.join(name)).unwrap();
    let files = [("bot.py", read("bot.py")), ("features.py", read("features.py")), ("model.pt", read("model.pt"))];
    super::support::zip_of(&files.iter().map(|(n, b)| (*n, b.as_slice())).collect::<Vec<_>>())
}

#[test]
fn a_torch_bot_validates_with_image_ml_and_is_told_why_in_the_default_image() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let http = Http::new();
    let ml = spawn_in(Arc::new(tempfile::tempdir().unwrap()), &["--runtime", "docker", "--image", "ml", "--seed", "3"]);
    let alice = ml.author("alice", false);
    assert_eq!(http.upload(&ml, Some(&alice), "alice-torch", mlbot_zip()).status, 202);
    let page = http.wait_status(&ml, "alice-torch", "active", VALIDATION);
    assert_eq!(page["reason"], serde_json::Value::Null, "{page}");

    let plain = spawn_in(Arc::new(tempfile::tempdir().unwrap()), &["--runtime", "docker", "--seed", "3"]);
    let bob = plain.author("bob", false);
    assert_eq!(http.upload(&plain, Some(&bob), "bob-torch", mlbot_zip()).status, 202);
    let page = http.wait_status_as(&plain, "bob-torch", "rejected", Some(&bob), VALIDATION);
    let reason = page["reason"].as_str().unwrap_or_default();
    assert!(reason.contains("`torch`") && reason.contains("--image ml"), "{page}");
}
