//! Operations: the league plays in the server (`--jobs`), SIGTERM stops it cleanly (exit
//! 143, no game left running), kill -9 loses no recorded game and counts none twice; the
//! OpenAPI document served is the committed `docs/openapi.json`.

use std::time::Duration;

use sqlx::Row;

use super::support::{poll, spawn_in, spawn_server, Http, Server};

/// `mjai_games_played_total` from `/metrics`.
fn played(http: &Http, server: &Server) -> u64 {
    let m = http.get(&server.url("/metrics"), None);
    assert_eq!(m.status, 200);
    assert!(m.headers["content-type"].to_str().unwrap().starts_with("text/plain"));
    let line = m.body.lines().find(|l| l.starts_with("mjai_games_played_total ")).expect("games played metric");
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// Seats counted over the leaderboard (4 per recorded game).
fn seats_counted(http: &Http, server: &Server) -> u64 {
    let board = http.get(&server.url("/api/leaderboard"), None).json();
    board["bots"].as_array().unwrap().iter().map(|e| e["games"].as_u64().unwrap()).sum()
}

/// Games by state in the store, and results rows, read directly.
fn store_counts(server: &Server) -> (i64, i64, i64) {
    let path = server.dir.path().join("serve.sqlite");
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(async {
        sqlx::any::install_default_drivers();
        let url = format!("sqlite:{}", path.display());
        let pool = sqlx::AnyPool::connect(&url).await.unwrap();
        let one = |sql: &'static str| {
            let pool = pool.clone();
            async move { sqlx::query(sql).fetch_one(&pool).await.unwrap().get::<i64, _>(0) }
        };
        let done = one("SELECT COUNT(*) FROM games WHERE state = 'done'").await;
        let running = one("SELECT COUNT(*) FROM games WHERE state = 'running'").await;
        let results = one("SELECT COUNT(*) FROM results").await;
        pool.close().await;
        (done, running, results)
    })
}

#[test]
fn kill_9_mid_league_loses_nothing_and_sigterm_exits_143() {
    let dir = std::sync::Arc::new(tempfile::tempdir().unwrap());
    let http = Http::new();
    let mut first = spawn_in(dir.clone(), &["--jobs", "1", "--seed", "7"]);
    poll(Duration::from_secs(300), "3 league games", || (played(&http, &first) >= 3).then_some(()));
    let before = played(&http, &first);
    // built-ins on a healthy host: the league loop met no failure, host fault nor outage
    let metrics = http.get(&first.url("/metrics"), None).body;
    for family in ["mjai_game_attempts_failed_total", "mjai_host_faults_total", "mjai_db_outages_total"] {
        assert!(metrics.lines().any(|l| l == format!("{family} 0")), "{family} 0 in:\n{metrics}");
    }
    first.child.kill().unwrap(); // SIGKILL mid-league
    first.child.wait().unwrap();
    let (done, _, results) = store_counts(&first);
    assert!(done as u64 >= before, "every game reported before kill -9 is stored: {done} < {before}");
    assert_eq!(results, 4 * done, "4 result rows per finished game");

    let mut second = spawn_in(dir.clone(), &["--jobs", "1", "--seed", "7"]);
    assert!(played(&http, &second) >= done as u64, "no recorded game lost across the restart");
    poll(Duration::from_secs(300), "more league games", || (played(&http, &second) > done as u64 + 1).then_some(()));
    // the league plays on while we read: the board's games lie between the two counts
    let before = played(&http, &second);
    let seats = seats_counted(&http, &second);
    let after = played(&http, &second);
    assert!(
        seats >= 4 * before && seats <= 4 * after,
        "each game counted once: {seats} seats for {before}..={after} games"
    );

    assert_eq!(second.terminate(), Some(143), "SIGTERM: exit 143; stderr:\n{}", second.stderr());
    // --runtime process: said at the start, and the SIGTERM line speaks of processes
    let said = second.stderr();
    assert!(said.contains("warning: --runtime process: uploaded bots run unsandboxed"), "{said}");
    assert!(said.contains("SIGTERM: stopping the games and their bot processes"), "{said}");
    assert!(!said.contains("containers"), "{said}");
    let (done, running, results) = store_counts(&second);
    assert_eq!(running, 0, "games in play were given back at SIGTERM");
    assert_eq!(results, 4 * done);
}

/// Every request gets its own `x-request-id` from the server (a client's is replaced), and
/// the request's log lines carry it.
#[test]
fn every_request_has_a_server_made_id_in_its_answer_and_its_log_span() {
    let server = super::support::spawn_server(&["-vv"]);
    let http = Http::new();
    let id_of = |answer: &super::support::Answer| {
        answer.headers.get("x-request-id").expect("an x-request-id header").to_str().unwrap().to_string()
    };
    let (a, b) = (http.get(&server.url("/healthz"), None), http.get(&server.url("/api/leaderboard"), None));
    let (id_a, id_b) = (id_of(&a), id_of(&b));
    assert_ne!(id_a, id_b, "two requests, one id");
    assert_eq!(id_a.len(), 36, "a UUID: {id_a}");
    // a client's own id is not taken (a client would choose what the logs say)
    let forged = http.send(http.client().get(server.url("/healthz")).header("x-request-id", "forged-by-client"));
    let id_c = id_of(&forged);
    assert_ne!(id_c, "forged-by-client");
    assert_eq!(id_c.len(), 36);
    // the log lines of a request carry its id and path (404s too: the fallback)
    let missing = http.get(&server.url("/no/such/route"), None);
    assert_eq!(missing.status, 404);
    let id_d = id_of(&missing);
    poll(Duration::from_secs(10), "the request's log line", || {
        let log = server.stderr();
        (log.contains(&format!("request_id={id_d}")) && log.contains("path=/no/such/route")).then_some(())
    });
    assert!(!server.stderr().contains("forged-by-client"));
}

#[test]
fn the_served_openapi_document_is_docs_openapi_json() {
    let server = spawn_server(&[]);
    let served = Http::new().get(&server.url("/api/openapi.json"), None);
    assert_eq!((served.status, served.headers["content-type"].to_str().unwrap()), (200, "application/json"));
    let committed = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/openapi.json")).unwrap();
    assert_eq!(served.body, committed, "the server serves another document than docs/openapi.json");
    let doc: serde_json::Value = serde_json::from_str(&served.body).unwrap();
    let upload = &doc["paths"]["/api/bots"]["post"];
    assert_eq!(
        upload["responses"]["202"]["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/Accepted"
    );
}
