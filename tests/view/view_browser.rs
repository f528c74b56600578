//! The game viewer and the tournament report in headless Chromium (Debian `chromium`):
//! pages opened from `file://`, DOM read after the scripts ran, every request the page
//! makes taken from Chromium's net log. What the pages must show is computed here from the
//! log, independently of the viewer.

use std::path::Path;
use std::process::Command;

use crate::browser_support::{attr_after, load, scratch, text_of};
use mjai_sim::bots::{from_spec, selfplay};
use mjai_sim::engine::event::{Event, Seat};
use mjai_sim::engine::game::{Game, GameConfig, StartState};
use mjai_sim::viewer::{render_game, GameInput};

fn log_text(log: &[Event]) -> String {
    log.iter().map(|e| e.to_json() + "\n").collect()
}

/// A self-play game with calls (random bots call everything they can).
fn game_with_calls() -> selfplay::Finished {
    let names = ["builtin:random", "builtin:rulebase", "builtin:random", "builtin:rulebase"];
    let mut agents = names.map(|n| from_spec(n).unwrap());
    let config = selfplay::series_config(5, 0, names.map(String::from));
    let g = selfplay::play(config, &mut agents, &mut selfplay::IgnoreAnswers).unwrap();
    assert!(g.log.iter().any(|e| matches!(e, Event::Pon { .. } | Event::Chi { .. })), "the game has calls");
    g
}

fn write_page(dir: &Path, log: &str, errors: Option<&str>) -> std::path::PathBuf {
    let input = GameInput { title: "test".into(), log, errors_json: errors, ..Default::default() };
    let html = render_game(&input).expect("the log renders");
    let path = dir.join("game.html");
    std::fs::write(&path, html).unwrap();
    path
}

/// Concealed tiles and discards of each seat after event `n`, folded from the log here.
fn table_after(log: &[Event], n: usize) -> ([Vec<String>; 4], [Vec<String>; 4]) {
    let start = (0..=n).rev().find(|&i| matches!(log[i], Event::StartKyoku { .. })).unwrap();
    let mut hands: [Vec<String>; 4] = Default::default();
    let mut rivers: [Vec<String>; 4] = Default::default();
    let take = |h: &mut Vec<String>, t: String| {
        let i = h.iter().position(|x| *x == t).unwrap_or_else(|| panic!("{t} not in {h:?}"));
        h.remove(i);
    };
    for e in &log[start..=n] {
        match e {
            Event::StartKyoku { tehais, .. } => {
                for s in 0..4 {
                    hands[s] = tehais[s].iter().map(|t| t.to_string()).collect();
                }
            }
            Event::Tsumo { actor, pai } => hands[*actor as usize].push(pai.to_string()),
            Event::Dahai { actor, pai, .. } => {
                take(&mut hands[*actor as usize], pai.to_string());
                rivers[*actor as usize].push(pai.to_string());
            }
            Event::Chi { actor, consumed, .. } | Event::Pon { actor, consumed, .. } => {
                consumed.iter().for_each(|t| take(&mut hands[*actor as usize], t.to_string()))
            }
            Event::Daiminkan { actor, consumed, .. } => {
                consumed.iter().for_each(|t| take(&mut hands[*actor as usize], t.to_string()))
            }
            Event::Kakan { actor, pai, .. } => take(&mut hands[*actor as usize], pai.to_string()),
            Event::Ankan { actor, consumed } => {
                consumed.iter().for_each(|t| take(&mut hands[*actor as usize], t.to_string()))
            }
            _ => {}
        }
    }
    (hands, rivers)
}

fn sorted(tiles: &str) -> Vec<String> {
    let mut v: Vec<String> = tiles.split_whitespace().map(String::from).collect();
    v.sort();
    v
}

#[test]
fn a_game_page_shows_scores_hands_discards_and_every_hand() {
    let g = game_with_calls();
    let dir = scratch("game");
    let page = write_page(&dir, &log_text(&g.log), None);

    // The last event: final scores, in the header and on the table.
    let end = g.log.len() - 1;
    let at_end = load(&page, &format!("event={end}"));
    let want: Vec<String> = g.scores.iter().map(i32::to_string).collect();
    assert_eq!(attr_after(&at_end.dom, "id=\"final\"", "data-scores"), want.join(" "));
    for (s, score) in want.iter().enumerate() {
        assert_eq!(&attr_after(&at_end.dom, &format!("id=\"seat-{s}\""), "data-score"), score, "seat {s}");
    }
    // The kyoku list has every hand, labelled as the log's start_kyoku.
    let labels: Vec<String> = g
        .log
        .iter()
        .filter_map(|e| match e {
            Event::StartKyoku { bakaze, kyoku, honba, .. } => Some(format!("{bakaze}{kyoku}-{honba}")),
            _ => None,
        })
        .collect();
    assert!(labels.len() >= 4);
    assert_eq!(at_end.dom.matches("<li data-kyoku=").count(), labels.len());
    let mut rest = at_end.dom.as_str();
    for l in &labels {
        let at = rest.find(&format!("<li data-kyoku=\"{l}\"")).unwrap_or_else(|| panic!("{l} missing or out of order"));
        rest = &rest[at + 1..];
    }
    assert!(at_end.page_requests.is_empty(), "the page made requests: {:?}", at_end.page_requests);
    assert!(at_end.csp_violations().is_empty(), "inline style and script allowed by their hashes: {}", at_end.console);

    // The first discard after the first call: hands and rivers of all four seats.
    let call = g.log.iter().position(|e| matches!(e, Event::Pon { .. } | Event::Chi { .. })).unwrap();
    let n = call + 1 + g.log[call + 1..].iter().position(|e| matches!(e, Event::Dahai { .. })).unwrap();
    let mid = load(&page, &format!("event={n}"));
    let (hands, rivers) = table_after(&g.log, n);
    for s in 0..4 {
        let seat = format!("id=\"seat-{s}\"");
        assert_eq!(
            sorted(&attr_after(&mid.dom, &seat, "data-tiles")),
            {
                let mut h = hands[s].clone();
                h.sort();
                h
            },
            "seat {s} hand"
        );
        let river = attr_after(&mid.dom, &seat, "class=\"river\" data-tiles");
        assert_eq!(river, rivers[s].join(" "), "seat {s} river");
    }
    let caller = g.log[call].actor().unwrap();
    assert!(attr_after(&mid.dom, &format!("id=\"seat-{caller}\""), "data-type").len() >= 3, "the call is shown");
    assert!(mid.page_requests.is_empty(), "the page made requests: {:?}", mid.page_requests);
}

/// A game with one chombo (seat 2, second hand), answering the first legal action.
fn game_with_chombo() -> (Game, usize, String) {
    let config =
        GameConfig { seed: [3, 1], names: ["a", "b", "c", "d"].map(String::from), start: StartState::default() };
    let mut game = Game::new(config);
    loop {
        let kyokus = game.log().iter().filter(|e| matches!(e, Event::StartKyoku { .. })).count();
        if kyokus == 2 {
            game.chombo(&[2]);
            break;
        }
        let answers: Vec<(Seat, Event)> = game.pending().iter().map(|d| (d.seat, d.legal[0].clone())).collect();
        game.apply(&answers).unwrap();
    }
    let at =
        game.log().iter().position(|e| matches!(e, Event::Ryukyoku { reason: Some(r), .. } if r == "error")).unwrap();
    let label = game.log()[..at]
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::StartKyoku { bakaze, kyoku, honba, .. } => Some(format!("{bakaze}{kyoku}-{honba}")),
            _ => None,
        })
        .unwrap();
    while !game.is_over() {
        let answers: Vec<(Seat, Event)> = game.pending().iter().map(|d| (d.seat, d.legal[0].clone())).collect();
        game.apply(&answers).unwrap();
    }
    (game, at, label)
}

#[test]
fn a_chombo_shows_its_error_and_the_bots_stderr() {
    let (game, at, label) = game_with_chombo();
    let errors = serde_json::json!([{
        "error_type": "timeout", "exception": "no answer within 2.0 s", "player_id": 2, "kyoku": label,
        "stderr_tail": "Traceback (most recent call last): ZeroDivisionError: division by zero"
    }])
    .to_string();
    let dir = scratch("chombo");
    let page = write_page(&dir, &log_text(game.log()), Some(&errors));
    let shown = load(&page, &format!("event={at}&hide=1&seat=2"));
    let result = text_of(&shown.dom, "result");
    // Seen from seat 2: its own hand face up, the others' face down.
    let seat = |s: usize| {
        let from = shown.dom.find(&format!("id=\"seat-{s}\"")).unwrap();
        let to = from + shown.dom[from..].find("class=\"melds\"").unwrap();
        shown.dom[from..to].to_string()
    };
    assert!(!seat(2).contains("data-pai=\"?\"") && seat(2).matches("data-pai=").count() >= 13, "{}", seat(2));
    for s in [0, 1, 3] {
        assert_eq!(seat(s).matches("data-pai=").count(), seat(s).matches("data-pai=\"?\"").count(), "seat {s} hidden");
    }
    assert!(result.contains(&format!("chombo by seat 2 (c) in {label}")), "{result}");
    assert!(result.contains("timeout: no answer within 2.0 s"), "{result}");
    assert!(result.contains("ZeroDivisionError: division by zero"), "{result}");
    assert!(shown.page_requests.is_empty(), "the page made requests: {:?}", shown.page_requests);
}

#[test]
fn a_log_failing_verification_is_shown_up_to_the_failure() {
    let g = game_with_calls();
    let mut lines: Vec<String> = g.log.iter().map(Event::to_json).collect();
    // An unknown event type early on, and a discard of a tile nobody holds later.
    lines.insert(3, r#"{"type":"ai_comment","text":"hello"}"#.into());
    let bad = lines.iter().enumerate().skip(200).find(|(_, l)| l.contains("\"dahai\"")).unwrap().0;
    let (a, b) = (lines[bad].find("\"pai\":\"").unwrap() + 7, lines[bad].find("\",\"tsumogiri").unwrap());
    lines[bad].replace_range(a..b, "?");
    let dir = scratch("failure");
    let page = write_page(&dir, &(lines.join("\n") + "\n"), None);
    let shown = load(&page, "");
    let failure = text_of(&shown.dom, "failure");
    assert!(failure.starts_with(&format!("This log fails verification at line {}:", bad + 1)), "{failure}");
    assert!(!shown.dom.contains("id=\"failure\" hidden"), "the failure is visible");
    assert!(shown.dom.contains("<li data-event=\"3\">event 3: ai_comment</li>"), "the unknown event is listed");
    // Stepping cannot go past the failing event.
    let past = load(&page, &format!("event={}", lines.len() - 1));
    assert_eq!(attr_after(&past.dom, "<body", "data-event"), bad.to_string());
}

/// The cells of the head-to-head matrix as (row, column, classes, text before `<br>`).
fn matrix_cells(dom: &str) -> Vec<(String, String, String, String)> {
    dom.split("<td class=\"h2h ")
        .skip(1)
        .map(|cell| {
            let classes = cell.split('"').next().unwrap().to_string();
            let row = cell.split("data-row=\"").nth(1).unwrap().split('"').next().unwrap().to_string();
            let col = cell.split("data-col=\"").nth(1).unwrap().split('"').next().unwrap().to_string();
            let text = cell.split_once('>').unwrap().1.split("<br>").next().unwrap().to_string();
            (row, col, classes, text)
        })
        .collect()
}

/// `−0.21 [−0.40, −0.02]` (or `0.53 (no CI)`): numbers with two decimals.
fn is_diff_with_ci(text: &str) -> bool {
    let number = |s: &str| {
        let s = s.strip_prefix('−').unwrap_or(s);
        s.split_once('.').is_some_and(|(i, d)| {
            !i.is_empty()
                && i.chars().all(|c| c.is_ascii_digit())
                && d.len() == 2
                && d.chars().all(|c| c.is_ascii_digit())
        })
    };
    match text.split_once(' ') {
        Some((diff, "(no CI)")) => number(diff),
        Some((diff, ci)) => {
            number(diff)
                && ci
                    .strip_prefix('[')
                    .and_then(|c| c.strip_suffix(']'))
                    .and_then(|c| c.split_once(", "))
                    .is_some_and(|(lo, hi)| number(lo) && number(hi))
        }
        None => false,
    }
}

#[test]
fn the_report_shows_every_bot_with_its_ci_and_links_every_game() {
    let dir = scratch("report");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/view/standings.json");
    std::fs::copy(&fixture, dir.join("standings.json")).unwrap();
    for id in ["g-001", "g-002"] {
        std::fs::create_dir_all(dir.join("games").join(id)).unwrap();
        std::fs::write(dir.join("games").join(id).join("game.html"), "<!DOCTYPE html><p>game</p>").unwrap();
    }
    let summary =
        r#"{"rank": [3, 1, 4, 2], "bots": ["tsumogiri", "<script>random</script>", "rulebase-a", "rulebase-b"]}"#;
    std::fs::write(dir.join("games/g-001/summary.json"), summary).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_mjai-sim")).arg("report").arg(&dir).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let shown = load(&dir.join("report.html"), "");
    let fixture: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&fixture).unwrap()).unwrap();
    let cis = [(1.85, 2.40), (2.02, 2.58), (2.80, 3.30), (2.25, 2.80)];
    let esc = |name: &str| name.replace('<', "&lt;").replace('>', "&gt;");
    for (bot, (lo, hi)) in fixture["bots"].as_array().unwrap().iter().zip(cis) {
        let name = esc(bot["name"].as_str().unwrap());
        let row = format!("<tr data-bot=\"{name}\"");
        assert_eq!(attr_after(&shown.dom, &row, "data-ci"), format!("{lo} {hi}"), "{name}");
        assert!(shown.dom.contains(&format!("[{lo:.3}, {hi:.3}]")), "{name}: CI printed");
        let bar = format!("<g class=\"ci\" data-bot=\"{name}\" data-low=\"{lo}\" data-high=\"{hi}\">");
        assert!(shown.dom.contains(&bar), "{name}: error bar drawn");
        assert!(shown.dom.contains(&format!("<polyline class=\"rating\" data-bot=\"{name}\"")), "{name}: rating line");
    }
    assert!(!shown.dom.contains("<script>random"), "names are escaped");

    // Head to head: both triangles, each cell a rounded difference with its CI.
    let cells = matrix_cells(&shown.dom);
    assert_eq!(cells.len(), 12, "4 bots: every ordered pair of two of them");
    for (row, col, _, text) in &cells {
        assert!(is_diff_with_ci(text), "{row} × {col}: {text:?}");
    }
    assert!(!shown.dom.contains("(see ") && !shown.dom.contains("a_above"), "no mirror notes, no raw keys");
    let cell = |row: &str, col: &str| {
        let (row, col) = (esc(row), esc(col));
        cells.iter().find(|c| c.0 == row && c.1 == col).map(|c| (c.2.clone(), c.3.clone())).unwrap()
    };
    assert_eq!(cell("rulebase-b", "tsumogiri"), ("better sig".into(), "−0.75 [−1.10, −0.40]".into()));
    assert_eq!(cell("tsumogiri", "rulebase-b"), ("worse sig".into(), "0.75 [0.40, 1.10]".into()));
    assert_eq!(cell("rulebase-a", "rulebase-b").0, "better", "a CI containing 0 is pale");
    assert_eq!(cell("<script>random</script>", "rulebase-a").0, "worse sig");
    assert!(cell("tsumogiri", "<script>random</script>").1.ends_with(" (no CI)"), "one shared set: no CI");

    // Axis ticks at round numbers: the rank axis in halves.
    let rank_chart = shown.dom.split("id=\"rank-chart\"").nth(1).unwrap().split("</svg>").next().unwrap();
    let ticks: Vec<&str> =
        rank_chart.split("class=\"tick\"").skip(1).map(|t| t.split(['>', '<']).nth(1).unwrap()).collect();
    assert_eq!(ticks, ["1.0", "1.5", "2.0", "2.5", "3.0", "3.5", "4.0"]);

    // The games, with their bots by rank.
    let g1 = shown.dom.split("<a href=\"games/g-001/game.html\">g-001</a>").nth(1).expect("link to g-001");
    let g1 = g1.split("</tr>").next().unwrap();
    let listed: Vec<&str> = g1.split("\">").skip(1).map(|t| t.split('<').next().unwrap()).collect();
    assert_eq!(listed, ["&lt;script&gt;random&lt;/script&gt;", "rulebase-b", "tsumogiri", "rulebase-a"], "{g1}");
    assert!(g1.contains("title=\"seat 1, rank 1\"") && g1.contains("title=\"seat 2, rank 4\""), "{g1}");
    assert!(shown.dom.contains("<a href=\"games/g-002/game.html\">g-002</a>"), "link to g-002");
    assert!(shown.page_requests.is_empty(), "the page made requests: {:?}", shown.page_requests);
    assert!(shown.csp_violations().is_empty(), "the inline style allowed by its hash: {}", shown.console);
}

#[test]
fn the_request_log_sees_a_page_that_fetches() {
    let dir = scratch("probe");
    let page = dir.join("probe.html");
    std::fs::write(&page, "<!DOCTYPE html><html><body><img src=\"http://127.0.0.1:9/probe.png\"></body></html>")
        .unwrap();
    assert_eq!(load(&page, "").page_requests, vec!["http://127.0.0.1:9/probe.png".to_string()]);
}
