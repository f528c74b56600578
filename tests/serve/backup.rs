//! `mjai-sim serve backup PATH [--db URL]`: a running server's SQLite store copied while it
//! serves (and validates an upload); the copy is a store of its own: the same authors, and
//! a server started on it knows their tokens and bots. An existing PATH is refused and left
//! as it is; a PostgreSQL URL gets the `pg_dump` command, without a connection.

use std::path::Path;
use std::sync::Arc;

use super::support::{example_zip, mjai_sim, spawn_in, spawn_server, Http};

/// `mjai-sim serve ARGS`: exit code, stdout, stderr.
fn serve(args: &[&str]) -> (Option<i32>, String, String) {
    let mut argv = vec!["serve"];
    argv.extend(args);
    let out = mjai_sim(&argv).output().unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (out.status.code(), text(out.stdout), text(out.stderr))
}

/// `serve author list` of the store `db`.
fn authors(db: &Path) -> String {
    let (code, out, err) = serve(&["author", "list", "--db", db.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    out
}

#[test]
fn a_running_servers_store_is_backed_up_and_the_copy_serves_the_same_league() {
    let server = spawn_server(&[]);
    let (ann, bea) = (server.author("ann", false), server.author("bea", true));
    let http = Http::new();
    assert_eq!(http.upload(&server, Some(&ann), "annbot", example_zip("tsumogiri")).status, 202);
    let db = server.dir.path().join("serve.sqlite");
    let copy_dir = Arc::new(tempfile::tempdir().unwrap());
    let copy = copy_dir.path().join("serve.sqlite");
    let (code, out, err) = serve(&["backup", copy.to_str().unwrap(), "--db", db.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    let size = std::fs::metadata(&copy).unwrap().len();
    assert!(out.starts_with(&format!("{}: {size} bytes (", copy.display())), "the size: {out}");
    assert_eq!(out.lines().count(), 1, "{out}");
    assert_eq!(http.get(&server.url("/healthz"), None).status, 200, "the server serves on");
    assert_eq!(authors(&copy), authors(&db), "the same authors, bots counted");
    // the copy is a store: a server on it knows ann's token, her bot and bea
    let restored = spawn_in(copy_dir, &[]);
    let bot = http.get(&restored.url("/api/bots/annbot"), None);
    assert_eq!(bot.status, 200, "{}", bot.body);
    assert_eq!(
        (bot.json()["entry"]["author"].as_str(), bot.json()["entry"]["version"].as_u64()),
        (Some("ann"), Some(1))
    );
    assert_eq!(http.get(&restored.url("/api/bots/annbot/errors"), Some(&ann)).status, 200, "ann's token");
    assert_eq!(http.get(&restored.url("/api/bots/annbot/errors"), Some(&bea)).status, 200, "bea, an admin");
    let house = http.get(&restored.url("/api/leaderboard"), None).json();
    assert!(house["bots"].as_array().unwrap().iter().any(|b| b["name"] == "rulebase"), "{house}");
}

#[test]
fn a_backup_never_overwrites_a_file_and_postgres_is_told_its_pg_dump() {
    let server = spawn_server(&[]);
    server.author("ann", false);
    let db = server.dir.path().join("serve.sqlite");
    let db = db.to_str().unwrap();
    let taken = server.dir.path().join("taken.sqlite");
    std::fs::write(&taken, b"keep me").unwrap();
    let (code, _, err) = serve(&["backup", taken.to_str().unwrap(), "--db", db]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("exists") && err.contains("give a new PATH"), "{err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert_eq!(std::fs::read(&taken).unwrap(), b"keep me", "left as it was");
    // a store that is not there is not made
    let missing = server.dir.path().join("none.sqlite");
    let (code, _, err) = serve(&["backup", "/tmp/never-written.sqlite", "--db", missing.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("no such store") && !missing.exists(), "{err}");
    // PostgreSQL: the documented pg_dump, the password left out, nothing connected to
    let url = "postgres://mjai:s3cret@127.0.0.1:1/mjai";
    let (code, _, err) = serve(&["backup", "league.dump", "--db", url]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("pg_dump --format=custom --file=league.dump postgres://mjai@127.0.0.1:1/mjai"), "{err}");
    assert!(!err.contains("s3cret") && err.lines().count() == 1, "{err}");
}
