//! The CI-sized run of `scripts/crosscheck_3p.py`: 60 `riichi-dev-3p` self-play games of
//! the engine's reference policy (`game::autoplay`), each kyoku replayed in RiichiEnv's
//! three-player env (Python `riichienv` 0.4.11, which `scripts/test` installs) from the same
//! wall and state with the same actions, every event and delta compared. The 10,000-game
//! run and its figure are in docs/rules.md ("Cross-check against RiichiEnv").

use std::io::Write;
use std::process::Command;

use mjai_sim::engine::event::Event;
use mjai_sim::engine::game::wall::{kyoku_count, Wall};
use mjai_sim::engine::game::{autoplay, GameConfig, Rules, StartState};

/// One game in the script's input format (`src/engine/examples/selfplay_logs.rs`): rules,
/// seed, each kyoku's wall, the log in the three-seat wire form.
fn game_line(rules: Rules, g: u64) -> String {
    let players = rules.players;
    let seed = [g, 0x5341_4E4D];
    let config =
        GameConfig { seed, names: ["0", "1", "2", "3"].map(String::from), start: StartState::initial(players) };
    let game = autoplay::play(config, Vec::new(), rules, g);
    let walls: Vec<serde_json::Value> = game
        .log()
        .iter()
        .filter_map(|e| match e {
            Event::StartKyoku { bakaze, kyoku, honba, .. } => {
                let wall = Wall::seeded_for(players, seed, kyoku_count(*bakaze, *kyoku), *honba);
                Some(wall.tiles().iter().map(|t| t.to_string()).collect())
            }
            _ => None,
        })
        .collect();
    let log: Vec<serde_json::Value> =
        game.log().iter().map(|e| serde_json::from_str(&e.to_json_for(players)).unwrap()).collect();
    serde_json::json!({"rules": rules.name(), "seed": seed, "walls": walls, "log": log}).to_string()
}

#[test]
fn sixty_riichi_dev_3p_games_replay_identically_in_riichienv() {
    let rules = Rules::riichi_dev_3p();
    let mut input = tempfile::NamedTempFile::new().unwrap();
    for g in 0..60 {
        writeln!(input, "{}", game_line(rules, 7000 + g)).unwrap();
    }
    input.flush().unwrap();
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/crosscheck_3p.py");
    let out = Command::new("python3").arg(&script).arg(input.path()).output().expect("python3 runs");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(
        !text.contains("No module named 'riichienv'"),
        "the Python package riichienv is missing: run scripts/test (it installs riichienv==0.4.11)\n{text}"
    );
    assert!(out.status.success(), "RiichiEnv disagrees:\n{text}");
    let summary = text.lines().rev().find(|l| l.contains(" games, ")).unwrap_or_default();
    assert!(summary.starts_with("60 games, "), "{text}");
    assert!(summary.contains(": 0 differences"), "{summary}");
    assert!(summary.contains("kita"), "kita were played and compared: {summary}");
}
