//! The viewer's data without a browser: each win's engine score agrees with the log's
//! deltas, bad input (not a log, a cut log) gives one line or a shown failure, and the page
//! stays within its size budget.

use std::process::Command;

use mjai_sim::bots::{from_spec, selfplay};
use mjai_sim::engine::event::Event;
use mjai_sim::viewer::game::analyse;
use mjai_sim::viewer::{render_game, GameInput};

fn games(n: u64) -> Vec<selfplay::Finished> {
    let names = ["builtin:random", "builtin:rulebase", "builtin:rulebase", "builtin:random"];
    (0..n)
        .map(|i| {
            let mut agents = names.map(|b| from_spec(b).unwrap());
            selfplay::play(
                selfplay::series_config(21, i, names.map(String::from)),
                &mut agents,
                &mut selfplay::IgnoreAnswers,
            )
            .unwrap()
        })
        .collect()
}

fn text(log: &[Event]) -> String {
    log.iter().map(|e| e.to_json() + "\n").collect()
}

/// What the winner gets from the payers' side, from the printed points: ron `X`, tsumo
/// `X/Y` (non-dealers / dealer) or `X all`.
fn hand_points(points: &str) -> i32 {
    if let Some(x) = points.strip_suffix(" all") {
        return 3 * x.parse::<i32>().unwrap();
    }
    match points.split_once('/') {
        Some((ko, oya)) => 2 * ko.parse::<i32>().unwrap() + oya.parse::<i32>().unwrap(),
        None => points.parse().unwrap(),
    }
}

#[test]
fn every_win_is_scored_and_its_points_match_the_deltas() {
    let mut checked = 0;
    for g in games(12) {
        let log = text(&g.log);
        let d = analyse(&GameInput { log: &log, ..Default::default() }).unwrap();
        assert!(d.failure.is_none(), "{:?}", d.failure);
        assert_eq!(d.final_scores, Some(g.scores));
        let horas: Vec<usize> =
            g.log.iter().enumerate().filter(|(_, e)| matches!(e, Event::Hora { .. })).map(|(i, _)| i).collect();
        assert_eq!(d.horas.iter().map(|h| h.event).collect::<Vec<_>>(), horas, "one score per hora, in order");
        for h in &d.horas {
            let Event::Hora { actor, deltas: Some(deltas), .. } = &g.log[h.event] else { unreachable!() };
            let start = g.log[..h.event].iter().rev().find_map(|e| match e {
                Event::StartKyoku { honba, .. } => Some(*honba as i32),
                _ => None,
            });
            let first = !matches!(g.log[h.event - 1], Event::Hora { .. });
            let sticks = g.log[..h.event]
                .iter()
                .rev()
                .take_while(|e| !matches!(e, Event::StartKyoku { .. }))
                .filter(|e| matches!(e, Event::ReachAccepted { .. }))
                .count() as i32;
            let kyotaku = g.log[..h.event].iter().rev().find_map(|e| match e {
                Event::StartKyoku { kyotaku, .. } => Some(*kyotaku as i32),
                _ => None,
            });
            let extra = if first { 300 * start.unwrap() + 1000 * (kyotaku.unwrap() + sticks) } else { 0 };
            assert_eq!(deltas[*actor as usize], hand_points(&h.points) + extra, "hora at {}: {h:?}", h.event);
            assert!(h.yakuman > 0 || (h.han > 0 && h.fu >= 20), "{h:?}");
            assert_eq!(h.yaku.iter().map(|(_, n)| *n as u32).sum::<u32>(), h.han as u32, "{h:?}");
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} wins checked");
}

#[test]
fn a_cut_log_is_shown_up_to_the_cut() {
    let g = &games(1)[0];
    let full = text(&g.log);
    let cut = &full[..full.len() / 2];
    let cut = &cut[..cut.len() - 5]; // ends inside a line
    let d = analyse(&GameInput { log: cut, ..Default::default() }).unwrap();
    let f = d.failure.expect("the cut is shown");
    assert_eq!(f.line, cut.lines().count(), "{f:?}");
    assert!(f.reason.contains("cut or damaged"), "{f:?}");
    assert_eq!(f.event, cut.lines().count() - 1);
    assert_eq!(d.final_scores, None);
}

#[test]
fn the_page_is_within_300_kb_plus_the_log() {
    for g in games(3) {
        let log = text(&g.log);
        let html = render_game(&GameInput { log: &log, ..Default::default() }).unwrap();
        assert!(html.len() <= 300 * 1024 + log.len(), "{} bytes for a {} byte log", html.len(), log.len());
        // the SVG namespace (game.js's createElementNS) names a namespace; nothing is fetched from it
        let rest = html.replace("\"http://www.w3.org/2000/svg\"", "");
        assert!(!rest.contains("http://") && !rest.contains("https://"), "no address in the page");
    }
}

#[test]
fn a_file_that_is_not_a_log_gets_one_line() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("view-not-a-log");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("notes.txt");
    std::fs::write(&file, "shopping list\nmilk\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_mjai-sim")).arg("view").arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("notes.txt") && err.contains("not an mjai log: line 1"), "{err}");
    assert!(!dir.join("notes.html").exists(), "no page written");
}

#[test]
fn the_main_job_writes_game_html_unless_no_html() {
    let root = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("view-main-job");
    let _ = std::fs::remove_dir_all(&root);
    for (name, flag) in [("with", None), ("without", Some("--no-html"))] {
        let dir = root.join(name);
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_mjai-sim"));
        cmd.args(["builtin:tsumogiri", "builtin:rulebase", "builtin:tsumogiri", "builtin:rulebase", "--seed", "9"]);
        cmd.arg("--logs-dir").arg(&dir).args(flag);
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let page = dir.join("game.html");
        assert_eq!(page.exists(), flag.is_none(), "{name}");
        if flag.is_none() {
            let html = std::fs::read_to_string(&page).unwrap();
            let log = std::fs::read_to_string(dir.join("mjai_log.json")).unwrap();
            let first = log.lines().nth(1).unwrap();
            let bakaze = serde_json::from_str::<serde_json::Value>(first).unwrap()["bakaze"].clone();
            assert_eq!(bakaze, "E");
            assert!(html.contains("\"type\":\"start_kyoku\""), "the log is embedded");
        }
    }
}
