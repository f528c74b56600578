//! Suspension (issue 39, item 1): an uploaded version whose chombos in its league games
//! reach `--suspend-after` within `--suspend-window` games leaves the league by itself:
//! status `suspended`, off the ranking, not scheduled, its author told why on `/me` and in
//! the API (and nobody else: it is private, as a rejected version); a new upload brings the
//! name back. The leaderboard's chombos per game, in the API and on `/`.

use std::sync::Arc;
use std::time::Duration;

use super::pages::{login, page};
use super::support::{example_zip, poll, spawn_in, zip_of, Http, Server};

const VALIDATION: Duration = Duration::from_secs(180);

/// A bot that passes validation and then chombos: tsumogiri for the first 4 bot processes
/// started on this host (a validation's two hanchans hold it in 2 seats each; the starts
/// are counted in a file of `$TMPDIR`, which is each test server's own folder), then every
/// process exits at its first own draw (a chombo each hand, the bot restarted for the next).
const FLAKY: &str = r#"
import json, os, sys, tempfile

seat = int(sys.argv[1])
fd = os.open(os.path.join(tempfile.gettempdir(), "flaky-starts"), os.O_CREAT | os.O_APPEND | os.O_WRONLY)
os.write(fd, b"x")
starts = os.fstat(fd).st_size
os.close(fd)
for line in sys.stdin:
    if not line.strip():
        continue
    last = json.loads(line)[-1]
    answer = {"type": "none"}
    if last["type"] == "tsumo" and last["actor"] == seat:
        if starts > 4:
            print(f"flaky: start {starts}, exiting at a draw", file=sys.stderr, flush=True)
            sys.exit(3)
        answer = {"type": "dahai", "actor": seat, "pai": last["pai"], "tsumogiri": True}
    print(json.dumps(answer, separators=(",", ":")), flush=True)
"#;

/// The games of `GET /api/bots/{name}/v/{version}/games` as `token` sees them.
fn games_of(http: &Http, server: &Server, path: &str, token: Option<&str>) -> usize {
    let a = http.get(&server.url(path), token);
    assert_eq!(a.status, 200, "{path}: {}", a.body);
    a.json()["games"].as_array().map_or(0, Vec::len)
}

#[test]
fn a_version_that_chombos_in_league_games_is_suspended_until_a_new_upload() {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let server = spawn_in(dir, &["--jobs", "1", "--seed", "4", "--suspend-after", "3", "--suspend-window", "10"]);
    let (a, b) = (server.author("alice", false), server.author("bob", false));
    let http = Http::new();
    let (ca, cb) = (login(&http, &server, &a), login(&http, &server, &b));
    let up = http.upload(&server, Some(&a), "flaky", zip_of(&[("bot.py", FLAKY.as_bytes())]));
    assert_eq!(up.status, 202, "{}", up.body);
    http.wait_status(&server, "flaky", "active", VALIDATION);

    // it plays league games, chombos, and is suspended by itself
    let suspended = http.wait_status_as(&server, "flaky", "suspended", Some(&a), Duration::from_secs(300));
    let reason = suspended["reason"].as_str().unwrap_or_default().to_string();
    let words: Vec<&str> = reason.split(' ').collect();
    // `suspended: N chombos in its last M league games` (`1 league game` in one)
    assert!(reason.starts_with("suspended: ") && words[2..6] == ["chombos", "in", "its", "last"], "{reason}");
    let (chombos, games): (u64, u64) = (words[1].parse().unwrap(), words[6].parse().unwrap());
    assert!(chombos >= 3 && (1..=10).contains(&games), "{reason}");
    assert!(suspended["entry"]["chombos_per_game"].as_f64().is_some_and(|c| c > 0.0), "{suspended}");
    // its author reads why, on /me and in the API (errors: the version's reason too)
    let me = page(&http, &server, "/me", Some(&ca)).body;
    assert!(me.contains("<span class=\"status-suspended\">suspended</span>"), "{me}");
    assert!(
        me.contains(&format!("Suspended: {}. Upload a new version", reason.trim_start_matches("suspended: "))),
        "{me}"
    );
    let errors = http.get(&server.url("/api/bots/flaky/errors"), Some(&a)).json();
    assert_eq!(errors["validations"][0]["reason"], reason.as_str(), "{errors}");
    assert!(errors["chombos"].as_array().is_some_and(|c| c.len() as u64 >= chombos), "{errors}");

    // its own page: the reason, its chombos, and a note that points at its validation game
    let own = page(&http, &server, "/bots/flaky", Some(&ca)).body;
    assert!(own.contains("id=\"reason\">Suspended: ") && own.contains("Chombos in league games ("), "{own}");
    assert!(own.contains("href=\"/bots/flaky/validation\">validation game</a>") && !own.contains("are above"), "{own}");

    // nobody else sees it: off the ranking and the pages, 404 as an unknown bot
    for token in [None, Some(b.as_str())] {
        let board = http.get(&server.url("/api/leaderboard"), token).json();
        assert!(board["bots"].as_array().unwrap().iter().all(|e| e["name"] != "flaky"), "{board}");
        assert_eq!(http.get(&server.url("/api/bots/flaky"), token).status, 404);
    }
    for cookie in [None, Some(cb.as_str())] {
        let board = page(&http, &server, "/", cookie).body;
        assert!(!board.contains("flaky") && board.contains("<th>chombos / game</th>"), "{board}");
        assert_eq!(page(&http, &server, "/bots/flaky", cookie).status, 404);
    }
    // its league games stay listed (public), its seats named, its author not told
    let listed = http.get(&server.url("/api/games?bot=flaky&status=finished"), None).json();
    let seats: Vec<serde_json::Value> =
        listed["games"].as_array().unwrap().iter().flat_map(|g| g["seats"].as_array().unwrap().clone()).collect();
    let flaky: Vec<&serde_json::Value> = seats.iter().filter(|s| s["bot"] == "flaky").collect();
    assert!(!flaky.is_empty() && flaky.iter().all(|s| s["author"].is_null() && s["house"] == false), "{listed}");
    let by_author = http.get(&server.url("/api/games?author=alice"), None).json();
    assert_eq!(by_author["games"], serde_json::json!([]), "a suspended version's author is not matched: {by_author}");
    // no dead links (issue 54): to a visitor and another author its seats are named, not
    // linked (its page is 404 to them); its author gets the links, and they answer
    for cookie in [None, Some(cb.as_str())] {
        let games_page = page(&http, &server, "/games?bot=flaky", cookie).body;
        assert!(games_page.contains("<td class=\"name\">flaky v1<br>"), "{games_page}");
        assert!(!games_page.contains("/bots/flaky/") && !games_page.contains("alice"), "{games_page}");
    }
    let own_list = page(&http, &server, "/games?bot=flaky", Some(&ca)).body;
    assert!(own_list.contains("<a href=\"/bots/flaky/v/1\">flaky</a> v1"), "{own_list}");
    assert_eq!(page(&http, &server, "/bots/flaky/v/1", Some(&ca)).status, 200, "the author's link answers");
    // the same in the head-to-head of a bot it met
    let met = http.get(&server.url("/api/bots/flaky/v/1"), Some(&a)).json();
    let (opponent, version) = (&met["head_to_head"][0]["opponent"], &met["head_to_head"][0]["opponent_version"]);
    let opponent_page = format!("/bots/{}/v/{version}", opponent.as_str().unwrap());
    for cookie in [None, Some(cb.as_str())] {
        let h2h = page(&http, &server, &opponent_page, cookie).body;
        assert!(h2h.contains("<td class=\"name\">flaky</td><td>v1</td>"), "{opponent_page}: {h2h}");
        assert!(!h2h.contains("/bots/flaky/"), "{opponent_page}: {h2h}");
    }
    let h2h = page(&http, &server, &opponent_page, Some(&ca)).body;
    assert!(h2h.contains("<a href=\"/bots/flaky/v/1\">flaky</a></td><td>v1</td>"), "{opponent_page}: {h2h}");

    // the leaderboard's chombos per game: a number for every bot that played
    let board = http.get(&server.url("/api/leaderboard"), None).json();
    let rulebase = board["bots"].as_array().unwrap().iter().find(|e| e["name"] == "rulebase").cloned().unwrap();
    assert!(rulebase["chombos_per_game"].as_f64().is_some(), "{rulebase}");

    // not scheduled: the house bots play on, flaky v1 not (a game in play when it was
    // suspended finishes and counts)
    let v1 = "/api/bots/flaky/v/1/games";
    let at_suspension = games_of(&http, &server, v1, Some(&a));
    let house = |http: &Http| games_of(http, &server, "/api/bots/rulebase/games", None);
    let before = house(&http);
    poll(Duration::from_secs(300), "8 more games of the house bots", || (house(&http) >= before + 8).then_some(()));
    assert!(games_of(&http, &server, v1, Some(&a)) <= at_suspension + 1, "a suspended version was scheduled");

    // head-to-head differences print no signed zero (issue 39: "-0.00")
    let house_page = page(&http, &server, "/bots/rulebase", None).body;
    assert!(house_page.contains("<table id=\"h2h\">"), "{house_page}");
    assert!(!house_page.contains("-0.00") && !house_page.contains("+0.00"), "{house_page}");

    // a new upload brings the name back, as a new version with figures of its own
    assert_eq!(http.upload(&server, Some(&a), "flaky", example_zip("tsumogiri")).status, 202);
    let back = http.wait_status(&server, "flaky", "active", VALIDATION);
    assert_eq!(back["entry"]["version"], 2);
    assert_eq!(back["versions"], serde_json::json!([{"version": 2, "status": "active"}]), "v1 stays private");
    let own = http.get(&server.url("/api/bots/flaky/v/1"), Some(&a)).json();
    assert_eq!(own["entry"]["status"], "suspended", "v1 stays suspended: {own}");
}

/// `mjai-sim serve suspend BOT/V --reason TEXT` (issue 54): the operator takes an active
/// version out with a reason its author reads and nobody else sees it; `serve unsuspend`
/// brings it back; each refusal is one line with exit status 1.
#[test]
fn an_operator_suspends_a_version_with_a_reason_and_brings_it_back() {
    use super::support::mjai_sim;
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let server = spawn_in(dir.clone(), &["--jobs", "1"]);
    let a = server.author("alice", false);
    let http = Http::new();
    let up = http.upload(&server, Some(&a), "slow", example_zip("tsumogiri"));
    assert_eq!(up.status, 202, "{}", up.body);
    http.wait_status(&server, "slow", "active", VALIDATION);
    let db = dir.path().join("serve.sqlite").display().to_string();
    let run = |args: &[&str]| {
        let mut all = vec!["serve"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--db", &db]);
        let out = mjai_sim(&all).output().unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
    };

    let (code, said) = run(&["suspend", "slow/1", "--reason", "0.25 s a discard holds every table"]);
    assert_eq!(code, Some(0), "{said}");
    let seen = http.get(&server.url("/api/bots/slow"), Some(&a)).json();
    assert_eq!(seen["entry"]["status"], "suspended", "{seen}");
    assert_eq!(seen["reason"], "suspended by the operator: 0.25 s a discard holds every table", "{seen}");
    assert_eq!(http.get(&server.url("/api/bots/slow"), None).status, 404, "private, as any suspended version");
    // refusals: twice, a house bot, an unknown version, an empty reason
    for (args, words) in [
        (&["suspend", "slow/1", "--reason", "again"][..], "is suspended, not active"),
        (&["suspend", "rb/1", "--reason", "no"][..], "is a house bot"),
        (&["unsuspend", "slow/7"][..], "no version 7 of a bot named slow"),
        (&["suspend", "slow/1", "--reason", " "][..], "--reason must be one line"),
        (&["suspend", "slow", "--reason", "x"][..], "is not BOT/V"),
    ] {
        let (code, said) = run(args);
        assert_eq!(code, Some(1), "{args:?}: {said}");
        assert!(said.contains(words) && said.trim().lines().count() == 1, "{args:?}: {said}");
    }

    let (code, said) = run(&["unsuspend", "slow/1"]);
    assert_eq!(code, Some(0), "{said}");
    let back = http.get(&server.url("/api/bots/slow"), None).json();
    assert_eq!(back["entry"]["status"], "active", "{back}");
    let (code, said) = run(&["unsuspend", "slow/1"]);
    assert_eq!((code, said.contains("is active, not suspended")), (Some(1), true), "{said}");
}
