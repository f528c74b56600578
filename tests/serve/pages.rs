//! The HTML pages as a browser's HTTP requests meet them: each page's status, content type
//! and Content-Security-Policy, who may see what (a visitor is sent to `/login`; a bot's
//! chombos and stderr only for its author and admins, on `/me`, `/bots/{name}`,
//! `/bots/{name}/validation` and a league game's viewer), and the upload form posted with
//! the session cookie. Chromium driving the same pages is in `browser`.

use std::sync::Arc;
use std::time::Duration;

use super::support::{example_zip, noisy_zip, poll, spawn_in, zip_of, Http, Server};

const VALIDATION: Duration = Duration::from_secs(180);
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; \
form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/// The crash bot's line on stderr before it exits (examples/crash/bot.py).
const CRASH_LINE: &str = "crash bot: exiting on purpose at its 3rd draw";

/// What the house bot `silent` (examples/timeout, which stops answering at its 3rd draw of
/// each start: a timeout chombo in every hand) writes on stderr when it starts, seconds
/// before each chombo, so that the line is in every chombo's stderr tail.
const HOUSE_LINE: &str = "house-secret-line";

/// Logs `token` in through the form; the `mjai_token=...` cookie pair.
pub fn login(http: &Http, server: &Server, token: &str) -> String {
    let form = http.client().post(server.url("/login")).header("content-type", "application/x-www-form-urlencoded");
    let ok = http.send(form.body(format!("token={token}")));
    assert_eq!(ok.status, 303, "{}", ok.body);
    ok.headers["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_string()
}

/// `GET path` with an optional cookie.
pub fn page(http: &Http, server: &Server, path: &str, cookie: Option<&str>) -> super::support::Answer {
    let mut r = http.client().get(server.url(path));
    if let Some(c) = cookie {
        r = r.header("cookie", c);
    }
    http.send(r)
}

/// `POST /upload` (the page's form) with a cookie.
fn upload_form(http: &Http, server: &Server, cookie: Option<&str>, name: &str, zip: Vec<u8>) -> super::support::Answer {
    let form = reqwest::multipart::Form::new()
        .text("name", name.to_string())
        .part("file", reqwest::multipart::Part::bytes(zip).file_name("bot.zip"));
    let mut r = http.client().post(server.url("/upload")).multipart(form);
    if let Some(c) = cookie {
        r = r.header("cookie", c);
    }
    http.send(r)
}

/// `POST /upload` as a browser sends the form with `kind` chosen and no file: the file part
/// empty, its file name "".
fn upload_kind(http: &Http, server: &Server, cookie: &str, name: &str, kind: &str) -> super::support::Answer {
    let form = reqwest::multipart::Form::new()
        .text("name", name.to_string())
        .text("kind", kind.to_string())
        .part("file", reqwest::multipart::Part::bytes(Vec::new()).file_name(""));
    http.send(http.client().post(server.url("/upload")).multipart(form).header("cookie", cookie))
}

fn assert_html(a: &super::support::Answer, status: u16, what: &str) {
    assert_eq!(a.status, status, "{what}: {}", a.body);
    assert_eq!(a.headers["content-type"], "text/html; charset=utf-8", "{what}");
    assert_eq!(a.headers["content-security-policy"], CSP, "{what}");
    assert!(a.body.starts_with("<!DOCTYPE html>"), "{what}: {}", a.body);
}

#[test]
fn pages_show_each_viewer_what_is_theirs() {
    // a house bot with a chombo in every hand: league games with chombos and stderr
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let silent = dir.path().join("silent.zip");
    std::fs::write(&silent, noisy_zip("timeout", HOUSE_LINE)).unwrap();
    let house = format!("silent={}", silent.display());
    let server = spawn_in(dir.clone(), &["--jobs", "1", "--seed", "3", &house]);
    let (a, b, admin) = (server.author("alice", false), server.author("bob", false), server.author("root", true));
    let http = Http::new();
    let (ca, cb, cadmin) = (login(&http, &server, &a), login(&http, &server, &b), login(&http, &server, &admin));

    // a visitor is sent to /login from the author's pages; the login form is public
    for path in ["/me", "/upload"] {
        let a = page(&http, &server, path, None);
        assert_eq!((a.status, a.headers["location"].to_str().unwrap()), (303, "/login"), "{path}");
    }
    assert_html(&page(&http, &server, "/login", None), 200, "/login");
    assert_eq!(upload_form(&http, &server, None, "x", example_zip("tsumogiri")).status, 303, "no cookie: to /login");
    assert_html(&page(&http, &server, "/upload", Some(&ca)), 200, "/upload");

    // uploads through the form: accepted ones go to /me; a refused one shows the form again
    let up = upload_form(&http, &server, Some(&ca), "abot", example_zip("crash"));
    assert_eq!((up.status, up.headers["location"].to_str().unwrap()), (303, "/me"), "{}", up.body);
    let refused = upload_form(&http, &server, Some(&ca), "a<b>", example_zip("tsumogiri"));
    assert_html(&refused, 400, "a bad name");
    assert!(refused.body.contains("<p class=\"error\" id=\"error\">a bot name uses letters"), "{}", refused.body);
    let no_bot = upload_form(&http, &server, Some(&ca), "nobot", zip_of(&[("main.py", &b"print(1)"[..])]));
    assert_html(&no_bot, 400, "no bot.py");
    assert!(no_bot.body.contains("name=\"name\" value=\"nobot\""), "the form keeps the name: {}", no_bot.body);
    let taken = upload_form(&http, &server, Some(&cb), "abot", example_zip("tsumogiri"));
    assert_html(&taken, 409, "another author's name");
    let other_case = upload_form(&http, &server, Some(&cb), "ABot", example_zip("tsumogiri"));
    assert_html(&other_case, 409, "another author's name in other letters");
    let reserved = upload_form(&http, &server, Some(&cb), "Rulebase", example_zip("tsumogiri"));
    assert_html(&reserved, 409, "a house bot's name");
    assert!(reserved.body.contains("is reserved"), "{}", reserved.body);
    assert_eq!(upload_form(&http, &server, Some(&cb), "bbot", example_zip("tsumogiri")).status, 303);
    http.wait_status_as(&server, "abot", "rejected", Some(&a), VALIDATION);
    http.wait_status(&server, "bbot", "active", VALIDATION);

    // the form's other kinds, no file chosen: a remote bot goes to /me; a riichi.dev bot's
    // page shows its bot token once (and the API knows it as such); a zip needs its file
    let form = page(&http, &server, "/upload", Some(&ca)).body;
    for kind in ["zip", "remote", "riichilab"] {
        assert!(form.contains(&format!("name=\"kind\" value=\"{kind}\"")), "{kind}: {form}");
    }
    let remote = upload_kind(&http, &server, &ca, "aremote", "remote");
    assert_eq!((remote.status, remote.headers["location"].to_str().unwrap()), (303, "/me"), "{}", remote.body);
    let lab = upload_kind(&http, &server, &ca, "alab", "riichilab");
    assert_html(&lab, 200, "a riichi.dev bot registered");
    let token = lab.body.split("<pre id=\"bot-token\">").nth(1).and_then(|t| t.split("</pre>").next()).unwrap();
    assert!(token.len() == 64 && token.chars().all(|c| c.is_ascii_hexdigit()), "{}", lab.body);
    assert_eq!(http.get(&server.url("/api/bots/alab"), Some(&a)).json()["entry"]["kind"], "riichilab");
    assert!(!page(&http, &server, "/me", Some(&ca)).body.contains(token), "the token is shown once");
    let no_file = upload_kind(&http, &server, &ca, "azip", "zip");
    assert_html(&no_file, 400, "a zip with no file");
    assert!(no_file.body.contains("needs a field `file`"), "{}", no_file.body);

    // /me: alice sees her rejected bot, its reason and its validation stderr; not bob's
    let me = page(&http, &server, "/me", Some(&ca));
    assert_html(&me, 200, "/me");
    assert!(me.body.contains("data-bot=\"abot\"") && !me.body.contains("data-bot=\"bbot\""), "{}", me.body);
    assert!(me.body.contains("<span class=\"status-rejected\">rejected</span>"), "{}", me.body);
    assert!(me.body.contains(CRASH_LINE), "alice reads her bot's stderr: {}", me.body);
    let bobs = page(&http, &server, "/me", Some(&cb)).body;
    assert!(bobs.contains("data-bot=\"bbot\"") && !bobs.contains(CRASH_LINE), "{bobs}");
    // an active version's place among the active ones (and its rating once it has played);
    // a rejected one has neither
    let board = http.get(&server.url("/api/leaderboard"), None).json();
    let active: Vec<&serde_json::Value> =
        board["bots"].as_array().unwrap().iter().filter(|e| e["status"] == "active").collect();
    let at = active.iter().position(|e| e["name"] == "bbot").unwrap() + 1;
    assert!(bobs.contains(&format!("<span class=\"place\">#{at} of {} active</span>", active.len())), "{bobs}");
    assert!(!me.body.contains("class=\"place\"") && !me.body.contains("class=\"rating\""), "{}", me.body);
    assert!(!bobs.contains("class=\"connection\""), "a zip is not a connected bot: {bobs}");

    // the validation game's viewer: its author and admins; others 404
    let viewer = |cookie: Option<&str>| page(&http, &server, "/bots/abot/validation", cookie);
    assert_html(&viewer(Some(&ca)), 200, "alice's validation game");
    assert!(viewer(Some(&ca)).body.contains("<script src=\"/assets/game.js\""));
    assert_html(&viewer(Some(&cadmin)), 200, "an admin");
    assert_html(&viewer(Some(&cb)), 404, "bob");
    assert_html(&viewer(None), 404, "a visitor");

    // the leaderboard and a bot page, for anyone
    let board = page(&http, &server, "/", None);
    assert_html(&board, 200, "/");
    for name in ["silent", "bbot", "rulebase"] {
        assert!(board.body.contains(&format!("href=\"/bots/{name}/v/1\"")), "{name} on the board: {}", board.body);
    }
    assert!(board.body.contains("<a href=\"/login\">Log in</a>"), "a visitor is offered the login");
    assert!(page(&http, &server, "/", Some(&ca)).body.contains("<a href=\"/me\" id=\"me\">alice</a>"));
    assert_html(&page(&http, &server, "/bots/bbot", None), 200, "bbot's page");
    assert_html(&page(&http, &server, "/bots/nobody", None), 404, "no such bot");
    // an error page knows who is logged in
    let missing = page(&http, &server, "/bots/nobody", Some(&ca));
    assert_html(&missing, 404, "no such bot, logged in");
    assert!(missing.body.contains("id=\"me\">alice</a>") && !missing.body.contains(">Log in<"), "{}", missing.body);

    // retiring from the page: a confirmation, then the button; nobody else may
    let confirm = |cookie: Option<&str>| page(&http, &server, "/bots/bbot/retire", cookie);
    assert_html(&confirm(None), 401, "a visitor");
    assert_html(&confirm(Some(&ca)), 403, "another author");
    let asked = confirm(Some(&cb));
    assert_html(&asked, 200, "its author");
    assert!(asked.body.contains("action=\"/bots/bbot/retire\"") && asked.body.contains("id=\"confirm-retire\""));
    assert!(page(&http, &server, "/bots/bbot", Some(&cb)).body.contains("href=\"/bots/bbot/retire\""), "the link");
    assert!(!page(&http, &server, "/bots/bbot", Some(&ca)).body.contains("/retire"), "no link for others");
    let post = |cookie: &str| http.send(http.client().post(server.url("/bots/bbot/retire")).header("cookie", cookie));
    assert_html(&post(&ca), 403, "another author's button");
    assert_eq!(http.get(&server.url("/api/bots/bbot"), None).json()["entry"]["status"], "active");
    let done = post(&cb);
    assert_eq!((done.status, done.headers["location"].to_str().unwrap()), (303, "/bots/bbot"), "{}", done.body);
    assert_eq!(http.get(&server.url("/api/bots/bbot"), None).json()["entry"]["status"], "retired");
    assert_html(&post(&cb), 409, "nothing left to retire");

    // a league game of the crashing house bot: its stderr only for admins (the operator's)
    let id = poll(Duration::from_secs(300), "a league game of silent with its chombos", || {
        let games = http.get(&server.url("/api/bots/silent/games"), None).json();
        games["games"].as_array().and_then(|g| g.last()).and_then(|g| g["id"].as_u64())
    });
    let game = |cookie: Option<&str>| page(&http, &server, &format!("/games/{id}"), cookie);
    let public = game(None);
    assert_html(&public, 200, "a league game");
    assert!(
        public.body.contains("\"names\":[\"") && public.body.contains("\"silent v1\""),
        "names and versions: {}",
        public.body
    );
    assert!(public.body.contains("\"error_type\":\"timeout\""), "the chombos: {}", public.body);
    assert!(!public.body.contains(HOUSE_LINE), "a visitor reads no stderr: {}", public.body);
    assert!(!game(Some(&ca)).body.contains(HOUSE_LINE), "nor another author");
    assert!(game(Some(&cadmin)).body.contains(HOUSE_LINE), "an admin does");
    // the house bot's page lists its chombos for admins only
    let chombos =
        |cookie: Option<&str>| page(&http, &server, "/bots/silent", cookie).body.contains("Chombos in league games (");
    assert!(chombos(Some(&cadmin)) && !chombos(Some(&cb)) && !chombos(None));
    for bad in ["/games/99999", "/games/abc", "/games/-1"] {
        assert_html(&page(&http, &server, bad, None), 404, bad);
    }

    // the game's downloads, linked from its page: the mjai log with the bots' names in
    // start_game, and tenhou.net/6's form; neither has a seat's stderr
    for link in [format!("/api/games/{id}/log.jsonl.gz"), format!("/api/games/{id}/tenhou6.json")] {
        assert!(public.body.contains(&format!("href=\"{link}\" download")), "{link} on the page: {}", public.body);
    }
    let ndjson = |id: u64| {
        http.send(http.client().get(server.url(&format!("/api/games/{id}"))).header("accept", "application/x-ndjson"))
    };
    let stored = ndjson(id).body;
    // the log names the engine that played it; the JSON detail the same
    let start: serde_json::Value = serde_json::from_str(stored.lines().next().unwrap()).unwrap();
    let engine = &start["meta"]["engine"];
    assert_eq!(engine["version"], env!("CARGO_PKG_VERSION"), "{start}");
    assert!(engine["commit"].as_str().is_some_and(|c| c.len() == 12 || c == "unknown"), "{start}");
    assert_eq!((engine["rules"].as_str(), engine["runtime"].as_str()), (Some("tenhou"), Some("process")), "{start}");
    let detail = http.get(&server.url(&format!("/api/games/{id}")), None);
    assert_eq!(detail.status, 200, "{}", detail.body);
    assert_eq!(detail.json()["engine"], *engine, "{}", detail.body);
    assert_eq!((detail.json()["status"].as_str(), detail.json()["void"].is_null()), (Some("finished"), true));
    let (status, headers, gz) = http.bytes(http.client().get(server.url(&format!("/api/games/{id}/log.jsonl.gz"))));
    assert_eq!(status, 200);
    assert_eq!(headers["content-type"], "application/gzip");
    assert_eq!(headers["content-disposition"], format!("attachment; filename=\"game-{id}.jsonl.gz\""));
    let mut named = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&gz[..]), &mut named).unwrap();
    let start: serde_json::Value = serde_json::from_str(named.lines().next().unwrap()).unwrap();
    let names: Vec<&str> = start["names"].as_array().unwrap().iter().map(|n| n.as_str().unwrap()).collect();
    assert!(names.contains(&"silent v1") && names.iter().all(|n| n.ends_with(" v1")), "{start}");
    assert_eq!(
        named.lines().skip(1).collect::<Vec<_>>(),
        stored.lines().skip(1).collect::<Vec<_>>(),
        "the rest as stored"
    );
    let t6 = http.get(&server.url(&format!("/api/games/{id}/tenhou6.json")), None);
    assert_eq!(t6.status, 200, "{}", t6.body);
    assert_eq!(t6.headers["content-disposition"], format!("attachment; filename=\"game-{id}.tenhou6.json\""));
    assert_eq!(t6.json()["name"], start["names"], "tenhou.net/6's names are the bots'");
    let hands = stored.lines().filter(|l| l.contains("\"start_kyoku\"")).count();
    assert_eq!(t6.json()["log"].as_array().unwrap().len(), hands, "one tenhou.net/6 entry per hand");
    assert!(!named.contains(HOUSE_LINE) && !t6.body.contains(HOUSE_LINE), "no stderr in the downloads");
    for bad in ["/api/games/99999/log.jsonl.gz", "/api/games/abc/tenhou6.json", "/api/games/-1/log.jsonl.gz"] {
        assert_eq!(http.get(&server.url(bad), None).status, 404, "{bad}");
    }

    // the trace for disputes: every line the house bot's seat was sent, each request it
    // left unanswered (a timeout) with why; its owner's (an admin's) only
    let seats = detail.json()["seats"].as_array().unwrap().clone();
    let seat = seats.iter().position(|s| s["bot"] == "silent").unwrap();
    let trace =
        |seat: &str, cookie: Option<&str>| page(&http, &server, &format!("/api/games/{id}/trace?seat={seat}"), cookie);
    let admin = trace(&seat.to_string(), Some(&cadmin));
    assert_eq!(admin.status, 200, "{}", admin.body);
    let lines: Vec<serde_json::Value> = admin.body.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(lines.iter().all(|l| l["seat"] == seat as u64 && l["sent"].as_str().is_some_and(|s| s.starts_with('['))));
    assert!(lines[0]["sent"].as_str().unwrap().contains("start_game"), "{}", lines[0]);
    let unanswered = lines.iter().filter(|l| l["answer"].is_null() && l["error"] == "timeout").count();
    assert!(unanswered >= 1, "the chombos' requests are unanswered: {}", admin.body);
    assert_eq!(trace(&seat.to_string(), None).status, 404, "a visitor");
    assert_eq!(trace(&seat.to_string(), Some(&ca)).status, 404, "another author");
    assert_eq!(trace("9", Some(&cadmin)).status, 400, "no such seat");
    assert_eq!(trace("x", Some(&cadmin)).status, 400, "not a seat");
    assert_eq!(page(&http, &server, &format!("/api/games/{id}/trace"), Some(&cadmin)).status, 400, "no seat");

    // every game of a version as one archive: each game's named log and its errors.json,
    // the stderr only for whoever owns the seat (the house bot's: an admin)
    let archive = |cookie: Option<&str>| {
        let mut r = http.client().get(server.url("/api/bots/silent/v/1/games.tar.gz"));
        if let Some(c) = cookie {
            r = r.header("cookie", c);
        }
        let (status, headers, bytes) = http.bytes(r);
        assert_eq!((status, headers["content-type"].to_str().unwrap()), (200, "application/gzip"));
        assert_eq!(headers["content-disposition"], "attachment; filename=\"silent-v1-games.tar.gz\"");
        let mut files = std::collections::BTreeMap::new();
        let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(&bytes[..]));
        for entry in tar.entries().unwrap() {
            let mut entry = entry.unwrap();
            let path = entry.path().unwrap().display().to_string();
            let mut text = String::new();
            std::io::Read::read_to_string(&mut entry, &mut text).unwrap();
            files.insert(path, text);
        }
        files
    };
    let public = archive(None);
    let listed = http.get(&server.url("/api/bots/silent/v/1/games"), None).json()["games"].as_array().unwrap().len();
    assert!(public.len() >= 2 * listed && listed > 0, "{listed} games, {:?}", public.keys());
    assert_eq!(public[&format!("game-{id}.jsonl")], named, "the same named log as the game's own download");
    let errors = &public[&format!("game-{id}.errors.json")];
    assert!(errors.contains("\"error_type\":\"timeout\"") && !errors.contains(HOUSE_LINE), "{errors}");
    assert!(
        archive(Some(&cadmin))[&format!("game-{id}.errors.json")].contains(HOUSE_LINE),
        "the operator's own stderr"
    );
    assert!(!archive(Some(&ca))[&format!("game-{id}.errors.json")].contains(HOUSE_LINE), "not another author's");
    assert_eq!(http.get(&server.url("/api/bots/nobody/v/1/games.tar.gz"), None).status, 404);
    assert_eq!(http.get(&server.url("/api/bots/abot/v/1/games.tar.gz"), None).status, 404, "a rejected version");

    // the assets, and nothing else under /assets
    let css = page(&http, &server, "/assets/site.css", None);
    assert_eq!((css.status, css.headers["content-type"].to_str().unwrap()), (200, "text/css; charset=utf-8"));
    assert_eq!(page(&http, &server, "/assets/game.js", None).status, 200);
    for bad in ["/assets/..%2FCargo.toml", "/assets/viewer.html", "/assets/"] {
        assert_eq!(page(&http, &server, bad, None).status, 404, "{bad}");
    }
}

/// The `data-game` ids of the table `#recent` of a bot page.
fn recent_ids(html: &str) -> Vec<u64> {
    let Some(table) = html.split("<table id=\"recent\">").nth(1) else { return Vec::new() };
    let table = table.split("</table>").next().unwrap();
    table.split("data-game=\"").skip(1).map(|t| t.split('"').next().unwrap().parse().unwrap()).collect()
}

/// The game ids of `GET path` (`{"games": [...]}`).
fn game_ids(http: &Http, server: &Server, path: &str) -> Vec<u64> {
    let games = http.get(&server.url(path), None).json();
    games["games"].as_array().unwrap().iter().map(|g| g["id"].as_u64().unwrap()).collect()
}

#[test]
fn each_version_has_its_own_page_and_the_viewer_knows_its_author() {
    let server = spawn_in(Arc::new(tempfile::tempdir().unwrap()), &["--jobs", "1", "--seed", "5"]);
    let a = server.author("alice", false);
    let http = Http::new();
    let ca = login(&http, &server, &a);
    let played = |version: u32, at_least: usize| {
        poll(Duration::from_secs(300), &format!("games of vbot v{version}"), || {
            let ids = game_ids(&http, &server, &format!("/api/bots/vbot/v/{version}/games"));
            (ids.len() >= at_least).then_some(ids)
        })
    };
    let version_status = |version: u32, status: &str| {
        poll(VALIDATION, &format!("vbot v{version} {status}"), || {
            let a = http.get(&server.url(&format!("/api/bots/vbot/v/{version}")), None);
            (a.status == 200 && a.json()["entry"]["status"] == status).then_some(())
        })
    };
    assert_eq!(http.upload(&server, Some(&a), "vbot", example_zip("tsumogiri")).status, 202);
    version_status(1, "active");
    played(1, 2);
    assert_eq!(http.upload(&server, Some(&a), "vbot", noisy_zip("tsumogiri", "v2")).status, 202);
    version_status(2, "active");
    version_status(1, "retired");
    let v2_games = played(2, 2);
    // v1 plays no more: its games are settled once v2 played a game it did not
    let v1_games = game_ids(&http, &server, "/api/bots/vbot/v/1/games");
    assert!(v1_games.iter().any(|g| !v2_games.contains(g)) && v2_games.iter().any(|g| !v1_games.contains(g)));

    // each version's page: its own games and figures, a selector, links without escapes
    for (version, own, status) in [(1u32, &v1_games, "retired"), (2, &v2_games, "active")] {
        let path = format!("/bots/vbot/v/{version}");
        let shown = page(&http, &server, &path, None);
        assert_html(&shown, 200, &path);
        let html = &shown.body;
        assert!(html.contains(&format!("data-bot=\"vbot\" data-version=\"{version}\"")), "{path}: {html}");
        let ids = recent_ids(html);
        let api = game_ids(&http, &server, &format!("/api/bots/vbot/v/{version}/games"));
        assert!(!ids.is_empty() && ids.iter().all(|g| api.contains(g)), "{path}: {ids:?} not all of {api:?}");
        assert!(ids.iter().all(|g| own.contains(g) || !v1_games.contains(g) && !v2_games.contains(g)), "{path}");
        let other = if version == 1 { &v2_games } else { &v1_games };
        let others_only: Vec<&u64> = other.iter().filter(|g| !own.contains(g)).collect();
        assert!(ids.iter().all(|g| !others_only.contains(&g)), "{path} lists another version's game: {ids:?}");
        let entry = http.get(&server.url(&format!("/api/bots/vbot/v/{version}")), None).json()["entry"].clone();
        assert_eq!((entry["version"].as_u64(), entry["status"].as_str()), (Some(version as u64), Some(status)));
        // the figures are this version's own: its games, as its game list has them (polled:
        // v2 still plays, and a game is folded into the figures just after it is stored)
        poll(Duration::from_secs(60), &format!("{path}: its own game count"), || {
            let games = game_ids(&http, &server, &format!("/api/bots/vbot/v/{version}/games")).len();
            let html = page(&http, &server, &path, None).body;
            let figures = html.split("<table id=\"figures\">").nth(1)?.split("</table>").next()?.to_string();
            let again = game_ids(&http, &server, &format!("/api/bots/vbot/v/{version}/games")).len();
            (games == again && figures.contains(&format!("<tr><td>{games}</td><td>"))).then_some(())
        });
        let selector = html.split("<nav id=\"versions\"").nth(1).unwrap().split("</nav>").next().unwrap();
        let other_version = 3 - version;
        assert!(selector.contains(&format!("href=\"/bots/vbot/v/{other_version}\"")), "{selector}");
        assert!(selector.contains(&format!("aria-current=\"page\">v{version} ({status})")), "{selector}");
        let h2h = html.split("<table id=\"h2h\">").nth(1).expect("opponents").split("</table>").next().unwrap();
        let links: Vec<&str> = h2h.split("href=\"").skip(1).map(|l| l.split('"').next().unwrap()).collect();
        assert!(!links.is_empty(), "{h2h}");
        for link in links {
            let (bot, v) = link.strip_prefix("/bots/").unwrap().split_once("/v/").unwrap();
            assert!(!bot.contains('%') && v.parse::<u32>().is_ok(), "{link}");
        }
        assert!(!html.contains("%23") && !html.contains("vbot#2"), "{path}: {html}");
    }
    assert!(page(&http, &server, "/bots/vbot", None).body.contains("data-bot=\"vbot\" data-version=\"2\""));
    assert_eq!(http.get(&server.url("/api/bots/vbot"), None).json()["entry"]["version"], 2, "the API: the latest");
    for bad in ["/bots/vbot/v/3", "/bots/vbot/v/0", "/bots/vbot/v/02", "/bots/nobody/v/1", "/bots/vbot%232"] {
        assert_html(&page(&http, &server, bad, None), 404, bad);
    }
    assert_eq!(http.get(&server.url("/api/bots/vbot/v/3"), None).status, 404);

    // the leaderboard: the name as written, a version column, each version's own link
    let board = page(&http, &server, "/", None).body;
    for (version, status) in [(1, "retired"), (2, "active")] {
        let row = board.split(&format!("<tr data-bot=\"vbot\" data-version=\"{version}\"")).nth(1).unwrap();
        let row = row.split("</tr>").next().unwrap();
        assert!(row.contains(&format!("href=\"/bots/vbot/v/{version}\">vbot</a>")), "{row}");
        assert!(row.contains(&format!("<td>v{version}</td>")) && row.contains(&format!("status-{status}")), "{row}");
    }
    assert!(!board.contains("%23") && !board.contains("vbot#2"), "{board}");

    // a game of v2: seats named with their versions; the header knows who is looking
    let game = format!("/games/{}", v2_games[0]);
    let visitor = page(&http, &server, &game, None);
    assert_html(&visitor, 200, &game);
    assert!(visitor.body.contains("\"vbot v2\"") && !visitor.body.contains("vbot#2"), "{}", visitor.body);
    assert!(visitor.body.contains("<a href=\"/login\">Log in</a>"), "a visitor is offered the login");
    let own = page(&http, &server, &game, Some(&ca)).body;
    assert!(own.contains("<a href=\"/me\" id=\"me\">alice</a>") && !own.contains("Log in"), "{own}");
    let validation = page(&http, &server, "/bots/vbot/validation", Some(&ca)).body;
    assert!(validation.contains("id=\"me\">alice</a>") && !validation.contains("Log in"), "{validation}");
}
