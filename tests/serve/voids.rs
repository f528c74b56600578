//! Voiding games (`mjai-sim serve void`, issue 54) against a running server: a paced
//! league plays one set of 4 games and waits; the operator voids one game from another
//! process; it stays listed, marked with the reason, and leaves the standings at once;
//! `/metrics` counts it and names the build; the command's refusals are one line each.

use std::time::Duration;

use super::support::{mjai_sim, poll, spawn_server, Http, Server};

/// `serve void ARGS --db <the server's store>`: (exit code, stdout, stderr).
fn void(server: &Server, args: &[&str]) -> (i32, String, String) {
    let db = server.dir.path().join("serve.sqlite").display().to_string();
    let mut argv = vec!["serve", "void"];
    argv.extend(args);
    argv.extend(["--db", &db]);
    let out = mjai_sim(&argv).output().unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (out.status.code().unwrap_or(-1), text(out.stdout), text(out.stderr))
}

/// Seats counted over the leaderboard (4 per counted game).
fn seats_counted(http: &Http, server: &Server) -> u64 {
    let board = http.get(&server.url("/api/leaderboard"), None).json();
    board["bots"].as_array().unwrap().iter().map(|e| e["games"].as_u64().unwrap()).sum()
}

#[test]
fn a_voided_game_stays_listed_with_its_reason_and_leaves_the_standings() {
    // one set of 4 games at once, the next in 4 minutes: the league holds still
    let server = spawn_server(&["--jobs", "1", "--pace", "60"]);
    let http = Http::new();
    poll(Duration::from_secs(300), "the first set counted", || (seats_counted(&http, &server) == 16).then_some(()));
    let list = http.get(&server.url("/api/games?status=finished"), None).json();
    let ids: Vec<u64> = list["games"].as_array().unwrap().iter().map(|g| g["id"].as_u64().unwrap()).collect();
    assert_eq!(ids.len(), 4, "{list}");
    let (voided, kept) = (ids[1], ids[0]);

    let (code, out, err) = void(&server, &["--game", &voided.to_string(), "--reason", "host ran out of disk"]);
    assert_eq!((code, out.clone()), (0, format!("{voided}\n")), "{err}");
    assert!(err.contains("1 game(s) voided"), "{err}");
    let game = http.get(&server.url(&format!("/api/games/{voided}")), None).json();
    assert_eq!(game["void"]["reason"], "host ran out of disk", "{game}");
    assert!(game["void"]["at"].as_str().is_some_and(|t| t.ends_with('Z')), "{game}");
    assert_eq!(game["status"], "finished", "still listed as played");
    assert!(http.get(&server.url(&format!("/api/games/{kept}")), None).json()["void"].is_null());
    assert_eq!(seats_counted(&http, &server), 12, "the voided game's 4 seats leave the standings");
    let listed = http.get(&server.url("/api/games?status=finished"), None).json();
    let marked: Vec<bool> = listed["games"].as_array().unwrap().iter().map(|g| !g["void"].is_null()).collect();
    assert_eq!(marked.iter().filter(|&&m| m).count(), 1, "{listed}");
    assert!(http.get(&server.url("/games"), None).body.contains("voided: host ran out of disk"));

    let metrics = http.get(&server.url("/metrics"), None).body;
    assert!(metrics.lines().any(|l| l == "mjai_games_voided 1"), "{metrics}");
    let build = metrics.lines().find(|l| l.starts_with("mjai_build_info{")).expect("mjai_build_info");
    let commit = build.split("commit=\"").nth(1).and_then(|c| c.split('"').next()).unwrap();
    assert!(build.contains(&format!("version=\"{}\"", env!("CARGO_PKG_VERSION"))) && build.ends_with("} 1"), "{build}");
    assert!(commit == "unknown" || (commit.len() == 12 && commit.bytes().all(|b| b.is_ascii_hexdigit())), "{build}");

    // voided once only; refusals name their fix in one line, and void nothing
    let (code, out, _) = void(&server, &["--game", &voided.to_string(), "--reason", "again"]);
    assert_eq!((code, out.as_str()), (0, ""));
    for (args, says) in [
        (vec!["--version", "nobody/1", "--reason", "x"], "no version 1 of a bot named nobody"),
        (vec!["--version", "rulebase", "--reason", "x"], "is not BOT/V"),
        (vec!["--game", "1", "--reason", " "], "--reason must be one line"),
        (vec!["--from", "yesterday", "--to", "2026-12-01", "--reason", "x"], "is not a time"),
        (vec!["--game", "1", "--reason", "x", "--league", "other"], "no league named other"),
    ] {
        let (code, out, err) = void(&server, &args);
        assert_eq!((code, out.as_str()), (1, ""), "{args:?}: {err}");
        assert!(err.contains(says) && err.trim().lines().count() == 1, "{args:?}: {err}");
    }
    let (code, _, err) = void(&server, &["--reason", "x"]);
    assert_eq!(code, 1, "no selector: {err}");
    assert_eq!(seats_counted(&http, &server), 12, "nothing more voided");
}
