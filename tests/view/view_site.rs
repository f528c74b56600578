//! The grading server's pages (`mjai_sim::pages::site`): everything a bot or author controls
//! comes out escaped, the pages hold no inline code, and in headless Chromium, served from
//! 127.0.0.1 with the server's Content-Security-Policy, they show their tables and the
//! viewer runs with no CSP violation (while an inline script on the same server is
//! blocked and reported, so the check can fail).

use mjai_sim::pages::site::{self, PageContext};
use mjai_sim::tournament::leaderboard::{
    BotKind, BotPage, BotStatus, ChomboLine, GameLine, HeadToHead, Leaderboard, LeaderboardEntry, Rating, VersionLine,
};

/// Payloads that would run or inject markup if printed raw.
const HOSTILE: [&str; 3] =
    ["<script>alert(1)</script>", "\"'><img src=x onerror=alert(2)>", "</pre></td></table><b onmouseover=alert(3)>"];

/// Fragments none of the pages may contain after escaping.
const RAW: [&str; 5] = ["<script>alert", "<img", "<b onmouseover", "onerror=alert(2)>", "</pre></td></table>"];

fn entry(name: &str, author: Option<&str>, status: BotStatus, games: u64, mu: f64) -> LeaderboardEntry {
    let played = games > 0;
    LeaderboardEntry {
        name: name.into(),
        author: author.map(String::from),
        version: 1,
        status,
        games,
        avg_rank: played.then_some(2.25),
        avg_rank_ci: (games >= 2).then_some([2.0, 2.5]),
        avg_pt: played.then_some(3.5),
        avg_pt_ci: (games >= 2).then_some([-1.3, 8.4]),
        rating: Rating { mu, sigma: 2.5 },
        peak: (games >= 40).then_some(mu - 9.0),
        provisional: games < 40,
        last_game: played.then_some(games + 100),
        last_game_at: played.then(|| "2026-11-27T17:05:03.123Z".to_string()),
        chombos_per_game: played.then_some(0.25),
        kind: BotKind::Zip,
        online: true,
    }
}

fn bot_page(name: &str, author: &str, opponent: &str, reason: Option<&str>) -> BotPage {
    BotPage {
        entry: entry(name, Some(author), BotStatus::Active, 60, 27.0),
        versions: vec![VersionLine { version: 1, status: BotStatus::Active }],
        reason: reason.map(String::from),
        rank_counts: vec![20, 15, 15, 10],
        rating_history: vec![(1, 25.0), (30, 26.0), (60, 27.0)],
        rating_history_at: vec![None, None, None],
        head_to_head: vec![HeadToHead {
            opponent: opponent.into(),
            opponent_version: 2,
            games: 12,
            above: 7,
            rank_diff: 0.25,
        }],
        recent_games: vec![GameLine {
            id: 159,
            bots: vec![name.into(), opponent.into(), "rulebase".into(), name.into()],
            versions: vec![1, 2, 1, 1],
            ranks: vec![2, 1, 4, 3],
            scores: vec![30100, 41000, -2100, 31000],
            finished_at: None,
        }],
        table_time: None,
    }
}

fn chombo(reason: &str, stderr: &str) -> ChomboLine {
    ChomboLine { game: 12, kyoku: "E2-1".into(), reason: reason.into(), stderr_tail: stderr.into() }
}

fn logged_in(author: &str) -> PageContext {
    PageContext { author: Some(author.into()), unseen: Vec::new() }
}

/// An mjai log of a self-play game, with `names` in `start_game` and `meta` on a dahai.
fn game_log(names: [&str; 4], meta: &str) -> String {
    use mjai_sim::bots::{from_spec, selfplay};
    use mjai_sim::engine::event::Event;
    let specs = ["builtin:rulebase", "builtin:random", "builtin:rulebase", "builtin:random"];
    let mut agents = specs.map(|n| from_spec(n).unwrap());
    let config = selfplay::series_config(7, 0, names.map(String::from));
    let g = selfplay::play(config, &mut agents, &mut selfplay::IgnoreAnswers).unwrap();
    let mut lines: Vec<serde_json::Value> =
        g.log.iter().map(|e| serde_json::from_str(&Event::to_json(e)).unwrap()).collect();
    let dahai = lines.iter().position(|l| l["type"] == "dahai").unwrap();
    lines[dahai]["meta"] = serde_json::json!({ "note": meta });
    lines.iter().map(|l| l.to_string() + "\n").collect()
}

fn game_data(title: &str, log: &str) -> mjai_sim::viewer::GameData {
    let input = mjai_sim::viewer::GameInput { title: title.into(), log, ..Default::default() };
    mjai_sim::viewer::game::analyse(&input).unwrap()
}

mod escaping {
    use super::*;

    /// Every server page with `h` in every field a bot or author controls.
    fn pages_with(h: &str) -> Vec<(&'static str, String)> {
        let board = Leaderboard {
            players: 4,
            bots: vec![
                entry(h, Some(h), BotStatus::Active, 50, 30.0),
                entry(&format!("{h}-old"), Some(h), BotStatus::Retired, 3, 20.0),
                entry(&format!("{h}-new"), Some(h), BotStatus::Validating, 0, 25.0),
            ],
        };
        let page = bot_page(h, h, h, Some(h));
        let chombos = [chombo(h, h)];
        let me = [site::MyBot { page: &page, chombos: &chombos, validation_stderr: h, place: None }];
        vec![
            ("leaderboard", site::leaderboard_page(&board, &logged_in(h))),
            ("bot", site::bot_page(&page, Some(&chombos), &logged_in(h))),
            ("me", site::me_page(h, &me)),
            ("login", site::login_page(&PageContext::default(), Some(h))),
            ("upload", site::upload_page(&logged_in(h), 64, site::ZipRuntime::Docker, Some(h), h)),
            ("error", site::error_page(&logged_in(h), 404, h)),
            ("game", site::game_page(&game_data(h, &game_log([h, "b", "c", "d"], h)), &logged_in(h), &[])),
        ]
    }

    #[test]
    fn every_field_a_bot_or_author_controls_is_escaped() {
        for h in HOSTILE {
            for (name, html) in pages_with(h) {
                for raw in RAW {
                    assert!(!html.contains(raw), "{name} page with {h:?} holds {raw:?}:\n{html}");
                }
            }
        }
        // The payload is shown, as text: `<` and `>` as character references.
        for (name, html) in pages_with(HOSTILE[0]) {
            if name != "game" {
                assert!(html.contains("&#60;script&#62;alert(1)&#60;/script&#62;"), "{name}:\n{html}");
            }
        }
    }

    #[test]
    fn the_viewer_keeps_hostile_names_and_meta_inside_its_data() {
        let h = "</script><script>alert(1)</script><!--";
        let html = site::game_page(&game_data("t", &game_log([h, "b", "c", "d"], h)), &PageContext::default(), &[]);
        assert_eq!(html.matches("<script").count(), 2, "the data block and game.js only:\n{html}");
        let data = html.split("<script type=\"application/json\" id=\"game-data\">").nth(1).unwrap();
        let data = data.split("</script>").next().unwrap();
        let parsed: serde_json::Value = serde_json::from_str(data).expect("the data block is whole JSON");
        assert_eq!(parsed["names"][0], h);
        assert!(parsed["events"].as_array().unwrap().iter().any(|e| e["meta"]["note"] == h), "meta kept");
        // The same for the standalone game.html.
        let input = mjai_sim::viewer::GameInput {
            title: h.into(),
            log: &game_log([h, "b", "c", "d"], h),
            ..Default::default()
        };
        let file = mjai_sim::viewer::render_game(&input).unwrap();
        assert_eq!(file.matches("<script").count(), 2, "the data block and the inline viewer only");
        assert!(file.contains("<title>&#60;/script&#62;&#60;script&#62;alert(1)"), "the title is escaped");
    }

    #[test]
    fn links_to_bots_encode_their_names() {
        let board = Leaderboard { players: 4, bots: vec![entry("a/../b c?d#e", None, BotStatus::Active, 5, 25.0)] };
        let html = site::leaderboard_page(&board, &PageContext::default());
        assert!(html.contains("<a href=\"/bots/a%2F..%2Fb%20c%3Fd%23e/v/1\">a/../b c?d#e</a>"), "{html}");
    }
}

mod pages {
    use super::*;

    /// The element `<tag id="id" ...>...</tag>` (the first closing tag after it).
    fn element<'a>(html: &'a str, tag: &str, id: &str) -> &'a str {
        let start = html.find(&format!("<{tag} id=\"{id}\"")).unwrap_or_else(|| panic!("no {tag}#{id} in\n{html}"));
        let end = start + html[start..].find(&format!("</{tag}>")).unwrap();
        &html[start..end]
    }

    #[test]
    fn server_pages_hold_no_inline_script_or_style() {
        let page = bot_page("a", "ann", "b", None);
        let board = Leaderboard { players: 4, bots: vec![entry("a", None, BotStatus::Active, 50, 30.0)] };
        let pages = [
            site::leaderboard_page(&board, &PageContext::default()),
            site::bot_page(&page, Some(&[chombo("late", "x")]), &logged_in("ann")),
            site::me_page("ann", &[site::MyBot { page: &page, chombos: &[], validation_stderr: "", place: None }]),
            site::login_page(&PageContext::default(), None),
            site::upload_page(&logged_in("ann"), 64, site::ZipRuntime::Docker, None, ""),
            site::error_page(&PageContext::default(), 500, "x"),
        ];
        for html in pages {
            for inline in ["<script", "<style", " style=", " onclick=", " onload=", "javascript:"] {
                assert!(!html.contains(inline), "{inline} in\n{html}");
            }
            assert!(html.contains("<link rel=\"stylesheet\" href=\"/assets/site.css\">"), "{html}");
            let html = html.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
            assert!(!html.contains("http://") && !html.contains("https://"), "no outside address:\n{html}");
        }
        let game = site::game_page(&game_data("g", &game_log(["a", "b", "c", "d"], "m")), &PageContext::default(), &[]);
        assert!(game.contains("<script src=\"/assets/game.js\"></script>"));
        assert!(game.contains("<link rel=\"stylesheet\" href=\"/assets/game.css\">"));
        assert!(!game.contains("<style") && !game.contains("Content-Security-Policy"), "header only");
        for directive in ["default-src 'none'", "script-src 'self'", "style-src 'self'", "form-action 'self'"] {
            assert!(site::CSP.contains(directive), "{directive}");
        }
        assert!(!site::CSP.contains("unsafe"), "{}", site::CSP);
    }

    #[test]
    fn the_leaderboard_ranks_active_bots_and_tucks_retired_ones_away() {
        let board = Leaderboard {
            players: 4,
            bots: vec![
                entry("best", Some("ann"), BotStatus::Active, 120, 31.0),
                entry("fresh", None, BotStatus::Active, 5, 26.0),
                entry("queued", Some("bob"), BotStatus::Validating, 0, 25.0),
                entry("gone", Some("ann"), BotStatus::Retired, 80, 28.0),
                entry("broken", Some("bob"), BotStatus::Rejected, 0, 25.0),
                entry("crashy", Some("bob"), BotStatus::Suspended, 12, 20.0),
            ],
        };
        let html = site::leaderboard_page(&board, &PageContext::default());
        let table = element(&html, "table", "leaderboard");
        let rows: Vec<&str> = table.split("<tr data-bot=").skip(1).collect();
        assert_eq!(rows.len(), 3, "{table}");
        let cells = |row: &str| -> Vec<String> {
            row.split("<td")
                .skip(1)
                .map(|c| c.split_once('>').unwrap().1.split("</td>").next().unwrap().to_string())
                .collect()
        };
        let best = cells(rows[0]);
        assert_eq!(best[0], "1");
        assert!(best[1].contains(">best</a>") && best[2] == "ann" && best[4] == "120", "{best:?}");
        assert_eq!(best[5], "2.25 [2.00, 2.50]");
        assert_eq!(best[6], "3.5 [-1.3, 8.4]");
        assert_eq!(best[7], "31.00 ± 2.50");
        assert_eq!(best[8], "22.00", "peak");
        assert_eq!(best[9], "0.25", "chombos per game");
        let at = "2026-11-27T17:05:03.123Z";
        assert_eq!(
            best[10],
            format!("<a href=\"/games/220\">220</a> <time datetime=\"{at}\">{at}</time>"),
            "last game"
        );
        assert!(
            rows[0].starts_with("\"best\" data-version=\"1\" class=\"status-active\" data-ci=\"2 2.5\""),
            "{}",
            rows[0]
        );
        assert_eq!(best[3], "v1", "the version column");
        let fresh = cells(rows[1]);
        assert_eq!((fresh[0].as_str(), fresh[2].as_str()), ("2", "house"));
        assert!(rows[1].contains("class=\"status-active provisional\""), "{}", rows[1]);
        let queued = cells(rows[2]);
        assert_eq!(
            (queued[0].as_str(), queued[4].as_str(), queued[5].as_str()),
            ("", "0", ""),
            "no number, no figures"
        );
        let retired = element(&html, "details", "retired");
        assert!(retired.contains("<summary>Retired bots (1)</summary>") && retired.contains("data-bot=\"gone\""));
        assert!(!table.contains("gone") && !html.contains("broken"), "retired in the toggle, rejected not listed");
        assert!(!html.contains("crashy"), "suspended not listed");
    }

    #[test]
    fn a_bot_page_shows_its_games_and_only_given_chombos() {
        let page = bot_page("mine", "ann", "rival", None);
        let public = site::bot_page(&page, None, &PageContext::default());
        assert!(!public.contains("Chombos") && !public.contains("stderr"), "{public}");
        let own =
            site::bot_page(&page, Some(&[chombo("timeout: no answer in 2 s", "Traceback: boom")]), &logged_in("ann"));
        let chombos = own.split("<h2>Chombos in league games (1)</h2>").nth(1).expect("chombo section");
        assert!(chombos.contains("<span class=\"reason\">timeout: no answer in 2 s</span>"), "{chombos}");
        assert!(chombos.contains("<pre class=\"stderr\">Traceback: boom</pre>"), "{chombos}");
        assert!(!own.contains("are above"), "nothing is above on a bot page: {own}");
        assert!(own.contains("the <a href=\"/bots/mine/validation\">validation game</a> of the latest version"));
        let recent = element(&own, "table", "recent");
        // Seats 0 and 3 are this bot: ranks 2 and 3; the seats by place: rival, mine, mine, rulebase.
        assert!(
            recent.contains("<td><a href=\"/games/159\">159</a></td><td>2, 3</td><td>30100, 31000</td>"),
            "{recent}"
        );
        let names: Vec<&str> = recent
            .split("title=\"seat ")
            .skip(1)
            .map(|c| c.split_once("\">").unwrap().1.split("</td>").next().unwrap())
            .collect();
        let v = |n: u32| format!(" <span class=\"version\">v{n}</span>");
        let expected =
            [format!("rival{}", v(2)), format!("mine{}", v(1)), format!("mine{}", v(1)), format!("rulebase{}", v(1))];
        assert_eq!(names, expected);
        assert!(element(&own, "table", "h2h").contains("<td>12</td><td>7</td><td>+0.25</td>"));
        assert!(own.contains("<svg id=\"ratings\"") && own.contains("<svg id=\"rank-dist\""), "both charts");
        assert!(own.contains("<a href=\"/me\" id=\"me\">ann</a>"), "logged in");
        assert!(public.contains("<a href=\"/login\">Log in</a>"), "visitor");
    }

    #[test]
    fn the_rating_chart_is_drawn_over_time_when_its_points_have_times() {
        let mut page = bot_page("mine", "ann", "rival", None);
        let by_games = site::bot_page(&page, None, &PageContext::default());
        assert!(by_games.contains(">games (Weng-Lin μ after each)<"), "no times: over games");
        assert!(by_games.contains("<h2 id=\"rating-title\">Rating over games</h2>"), "titled by its axis: {by_games}");
        // one time only: still over games (a line needs two)
        page.rating_history_at = vec![None, None, Some("2026-11-27T17:05:03.000Z".into())];
        assert!(site::bot_page(&page, None, &PageContext::default()).contains(">games (Weng-Lin"));
        page.rating_history_at =
            vec![None, Some("2026-11-27T17:05:03.000Z".into()), Some("2026-11-27T17:40:00.000Z".into())];
        let by_time = site::bot_page(&page, None, &PageContext::default());
        assert!(by_time.contains(">time, UTC (Weng-Lin μ after each game)<"), "{by_time}");
        assert!(by_time.contains("<h2 id=\"rating-title\">Rating over time</h2>"), "titled by its axis: {by_time}");
        assert!(!by_time.contains("over games"), "a time axis is not titled over games");
        assert!(by_time.contains(">17:15<") && by_time.contains(">17:30<"), "ticks every 15 minutes");
        let line = by_time.split("class=\"rating\"").nth(1).unwrap().split("points=\"").nth(1).unwrap();
        let points = line.split('"').next().unwrap().split(' ').count();
        assert_eq!(points, 2, "only the points with a time are drawn");
    }

    #[test]
    fn a_version_page_names_bots_and_links_versions_without_escapes() {
        let mut page = bot_page("mine", "ann", "rival", None);
        page.entry.version = 2;
        page.versions = vec![
            VersionLine { version: 1, status: BotStatus::Retired },
            VersionLine { version: 2, status: BotStatus::Active },
            VersionLine { version: 3, status: BotStatus::Rejected },
        ];
        page.recent_games[0].versions = vec![2, 2, 1, 1];
        let html = site::bot_page(&page, None, &PageContext::default());
        let selector = element(&html, "nav", "versions");
        assert!(
            selector.contains("<a class=\"status-retired\" href=\"/bots/mine/v/1\">v1 (retired)</a>"),
            "{selector}"
        );
        assert!(selector.contains("<strong class=\"status-active\" aria-current=\"page\">v2 (active)</strong>"));
        assert!(selector.contains("<a class=\"status-rejected\" href=\"/bots/mine/v/3\">v3 (rejected)</a>"));
        assert!(!selector.contains("href=\"/bots/mine/v/2\""), "the shown version is not a link");
        let h2h = element(&html, "table", "h2h");
        assert!(h2h.contains("<a href=\"/bots/rival/v/2\">rival</a></td><td>v2</td>"), "{h2h}");
        // an opponent the viewer may not see (suspended: its page is 404 to them) is named, not linked
        let visitor = PageContext { author: None, unseen: vec![("rival".into(), 2)] };
        let hidden = site::bot_page(&page, None, &visitor);
        let h2h = element(&hidden, "table", "h2h");
        assert!(h2h.contains("<td class=\"name\">rival</td><td>v2</td>") && !h2h.contains("href"), "{h2h}");
        assert!(html.contains("<h1 id=\"bot\" data-bot=\"mine\" data-version=\"2\">mine <span"), "{html}");
        // seat 0 is this version (rank 2), seat 3 is version 1 of the same name: not this page's
        let recent = element(&html, "table", "recent");
        assert!(recent.contains("<td>2</td><td>30100</td>"), "{recent}");
        assert!(
            !html.contains("%23") && !html.contains("mine#") && !html.contains("rival#"),
            "no league names: {html}"
        );
    }

    #[test]
    fn the_viewer_header_knows_who_is_logged_in() {
        let data = game_data("g", &game_log(["a", "b", "c", "d"], "m"));
        let own = site::game_page(&data, &logged_in("ann"), &[]);
        let header = own.split("<header>").nth(1).unwrap().split("</header>").next().unwrap();
        assert!(header.contains("<a href=\"/me\" id=\"me\">ann</a>") && !header.contains("Log in"), "{header}");
        let public = site::game_page(&data, &PageContext::default(), &[]);
        assert!(public.contains("<a href=\"/login\">Log in</a>") && !public.contains("id=\"me\""), "{public}");
        let standalone = mjai_sim::viewer::page::page(&data);
        assert!(!standalone.contains("/login") && !standalone.contains("/me"), "the file links nowhere");
    }

    #[test]
    fn me_lists_each_bot_with_its_verdict_and_errors() {
        let ok = bot_page("good", "ann", "x", None);
        let mut bad = bot_page("bad", "ann", "x", Some("chombo in the validation game: illegal dahai 5m"));
        bad.entry.status = BotStatus::Rejected;
        let mut crashy = bot_page("crashy", "ann", "x", Some("suspended: 6 chombos in its last 10 league games"));
        crashy.entry.status = BotStatus::Suspended;
        let chombos = [chombo("illegal dahai 5m", "panic at main.rs:3")];
        let html = site::me_page(
            "ann",
            &[
                site::MyBot { page: &ok, chombos: &[], validation_stderr: "", place: None },
                site::MyBot { page: &bad, chombos: &chombos, validation_stderr: "Traceback <script>", place: None },
                site::MyBot { page: &crashy, chombos: &chombos, validation_stderr: "", place: None },
            ],
        );
        let crashy_section = html.split("data-bot=\"crashy\">").nth(1).unwrap().split("</section>").next().unwrap();
        assert!(crashy_section.contains("<span class=\"status-suspended\">suspended</span>"), "{crashy_section}");
        assert!(
            crashy_section.contains(
                "<p class=\"error\">Suspended: 6 chombos in its last 10 league games. Upload a new version to play again.</p>"
            ),
            "{crashy_section}"
        );
        assert!(crashy_section.contains("their verdict and errors are above"), "on /me they are: {crashy_section}");
        let bad_section = html.split("<section class=\"mybot\" data-bot=\"bad\">").nth(1).unwrap();
        assert!(bad_section.contains("<span class=\"status-rejected\">rejected</span>"), "{bad_section}");
        assert!(bad_section.contains("Rejected: chombo in the validation game: illegal dahai 5m"));
        assert!(bad_section.contains("<pre class=\"stderr\">panic at main.rs:3</pre>"));
        assert!(bad_section.contains("<pre class=\"stderr\">Traceback &#60;script&#62;</pre>"), "{bad_section}");
        assert!(bad_section.contains("<a href=\"/bots/bad/validation\">Validation game</a>"), "{bad_section}");
        let good_section = html.split("data-bot=\"good\"").nth(1).unwrap().split("</section>").next().unwrap();
        assert!(
            good_section.contains("<h2>Chombos in league games (0)</h2>") && !good_section.contains("stderr"),
            "{good_section}"
        );
    }

    #[test]
    fn the_forms_post_to_the_server() {
        let login = site::login_page(&PageContext::default(), Some("unknown token"));
        assert!(login.contains("<form class=\"box\" method=\"post\" action=\"/login\">"));
        assert!(
            login.contains("name=\"token\"") && login.contains("<p class=\"error\" id=\"error\">unknown token</p>")
        );
        let upload = site::upload_page(&logged_in("ann"), 64, site::ZipRuntime::Docker, None, "");
        assert!(upload.contains("action=\"/upload\" enctype=\"multipart/form-data\""));
        assert!(upload.contains("name=\"name\"") && upload.contains("type=\"file\" name=\"file\""));
        assert!(upload.contains("at most 64 MiB") && !upload.contains("id=\"error\""));
        assert!(upload.contains("data-runtime=\"docker\">in a Docker container per seat"), "{upload}");
        let process = site::upload_page(&logged_in("ann"), 64, site::ZipRuntime::Process, None, "");
        assert!(process.contains("data-runtime=\"process\">as a plain process per seat"), "{process}");
        assert!(!process.contains("in a Docker container"), "the process runtime is no container: {process}");
        let error = site::error_page(&PageContext::default(), 404, "no bot named x");
        assert!(error.contains("<h1 id=\"status\">404</h1>") && error.contains("no bot named x"));
    }
}

mod browser {
    use std::collections::HashMap;
    use std::io::{BufRead, BufReader, Write};
    use std::net::{TcpListener, TcpStream};
    use std::sync::{Arc, Mutex};

    use super::*;
    use crate::browser_support::{load_served, scratch};

    /// A stand-in for the server's page routes on 127.0.0.1: `pages` by path, the assets
    /// from [`site::asset`], every answer with the header [`site::CSP`]. Returns its origin
    /// and the paths requested.
    fn serve(pages: HashMap<String, String>) -> (String, Arc<Mutex<Vec<String>>>) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let origin = format!("http://{}", listener.local_addr().unwrap());
        let requests = Arc::new(Mutex::new(Vec::new()));
        let (pages, log) = (Arc::new(pages), requests.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (pages, log) = (pages.clone(), log.clone());
                std::thread::spawn(move || answer(stream, &pages, &log));
            }
        });
        (origin, requests)
    }

    fn answer(mut stream: TcpStream, pages: &HashMap<String, String>, log: &Mutex<Vec<String>>) {
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut line = String::new();
        if reader.read_line(&mut line).is_err() {
            return;
        }
        let path = line.split_whitespace().nth(1).unwrap_or("/").to_string();
        let mut header = String::new();
        while reader.read_line(&mut header).is_ok_and(|n| n > 0) && header != "\r\n" {
            header.clear();
        }
        log.lock().unwrap().push(path.clone());
        let (status, kind, body) = match (path.strip_prefix("/assets/").and_then(site::asset), pages.get(&path)) {
            (Some((kind, bytes)), _) => ("200 OK", kind, bytes.to_vec()),
            (None, Some(html)) => ("200 OK", "text/html; charset=utf-8", html.as_bytes().to_vec()),
            (None, None) => ("404 Not Found", "text/plain", b"not found".to_vec()),
        };
        let head = format!(
            "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nContent-Security-Policy: {}\r\nConnection: close\r\n\r\n",
            body.len(),
            site::CSP
        );
        let _ = stream.write_all(head.as_bytes()).and_then(|_| stream.write_all(&body));
    }

    #[test]
    fn served_pages_render_under_the_strict_csp() {
        let board = Leaderboard {
            players: 4,
            bots: vec![
                entry("<script>alert(1)</script>", Some("ann"), BotStatus::Active, 90, 31.0),
                entry("rulebase", None, BotStatus::Active, 90, 28.0),
                entry("tsumogiri", None, BotStatus::Active, 12, 20.0),
                entry("old", Some("ann"), BotStatus::Retired, 40, 27.0),
            ],
        };
        let page = bot_page("rulebase", "ann", "tsumogiri", None);
        let log = game_log(["rulebase", "<img src=x onerror=alert(1)>", "c", "d"], "</script>");
        let pages = HashMap::from([
            ("/".to_string(), site::leaderboard_page(&board, &PageContext::default())),
            ("/bots/rulebase".to_string(), site::bot_page(&page, Some(&[chombo("late", "trace")]), &logged_in("ann"))),
            (
                "/games/7".to_string(),
                site::game_page(
                    &game_data("game 7", &log),
                    &logged_in("ann"),
                    &[("mjai log", "/api/games/7/log.jsonl.gz".to_string())],
                ),
            ),
            ("/login".to_string(), site::login_page(&PageContext::default(), None)),
            // The control: inline code, which the same CSP must block and report.
            (
                "/probe".to_string(),
                "<!DOCTYPE html><html><head><style>p{color:red}</style></head><body><p id=\"x\">before</p>\
                 <script>document.getElementById('x').textContent='ran'</script></body></html>"
                    .to_string(),
            ),
        ]);
        let (origin, requests) = serve(pages);
        let dir = scratch("site");

        let shown = load_served(&format!("{origin}/"), &dir.join("leaderboard"));
        assert!(shown.csp_violations().is_empty(), "{}", shown.console);
        let table =
            shown.dom.split("<table id=\"leaderboard\">").nth(1).expect("the table").split("</table>").next().unwrap();
        assert_eq!(table.matches("<tr data-bot=").count(), 3, "{table}");
        assert!(table.contains(">&lt;script&gt;alert(1)&lt;/script&gt;</a>"), "the name, as text: {table}");
        assert!(shown.dom.contains("<details id=\"retired\">"));
        assert!(shown.page_requests.iter().all(|u| u.starts_with(&origin)), "{:?}", shown.page_requests);

        let game = load_served(&format!("{origin}/games/7"), &dir.join("game"));
        assert!(game.csp_violations().is_empty(), "{}", game.console);
        assert!(game.dom.matches("<li data-kyoku=").count() >= 4, "game.js ran and listed the hands");
        assert!(game.dom.contains("<a href=\"/api/games/7/log.jsonl.gz\" download=\"\">mjai log</a>"), "{}", game.dom);

        for path in ["/bots/rulebase", "/login"] {
            let other = load_served(&format!("{origin}{path}"), &dir.join(path.replace('/', "_")));
            assert!(other.csp_violations().is_empty(), "{path}: {}", other.console);
            assert!(other.dom.contains("<header class=\"site\">"), "{path}");
        }

        let probe = load_served(&format!("{origin}/probe"), &dir.join("probe"));
        assert!(probe.dom.contains("<p id=\"x\">before</p>"), "the inline script did not run");
        let reported = probe.csp_violations();
        assert!(reported.iter().any(|l| l.contains("inline style")), "{}", probe.console);
        assert!(reported.iter().any(|l| l.contains("inline script")), "{}", probe.console);

        let asked = requests.lock().unwrap().clone();
        for asset in ["/assets/site.css", "/assets/game.css", "/assets/game.js"] {
            assert!(asked.iter().any(|p| p == asset), "{asset} was loaded: {asked:?}");
        }
    }
}
