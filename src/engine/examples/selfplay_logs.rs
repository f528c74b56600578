//! Self-play logs for cross-checks: `cargo run -p mjai-sim-engine --release --example
//! selfplay_logs -- PRESET GAMES [FIRST_SEED]` plays GAMES games under the rule preset
//! PRESET (e.g. `riichi-dev-3p`) with the engine's reference policy
//! (`mjai_sim_engine::game::autoplay`) and writes one JSON object per game and line:
//! `{"rules":..,"seed":[nonce,key],"walls":[[tile,..],..],"log":[event,..]}`. `walls` holds
//! each kyoku's wall in `Wall::from_tiles_3p` (or `from_tiles`) order; `log` the events in
//! the table's wire form (`Event::to_json_for`: three entries per seat array at three seats).

use mjai_sim_engine::event::Event;
use mjai_sim_engine::game::wall::{kyoku_count, Wall};
use mjai_sim_engine::game::{autoplay, GameConfig, Rules, StartState};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: selfplay_logs PRESET GAMES [FIRST_SEED]";
    let rules = args.get(1).and_then(|n| Rules::any_preset(n)).expect(usage);
    let games: u64 = args.get(2).and_then(|n| n.parse().ok()).expect(usage);
    let first: u64 = args.get(3).and_then(|n| n.parse().ok()).unwrap_or(0);
    let players = rules.players;
    for g in first..first + games {
        let seed = [g, 0x5341_4E4D];
        let config =
            GameConfig { seed, names: ["0", "1", "2", "3"].map(String::from), start: StartState::initial(players) };
        let game = autoplay::play(config, Vec::new(), rules, g);
        let walls: Vec<String> = game
            .log()
            .iter()
            .filter_map(|e| match e {
                Event::StartKyoku { bakaze, kyoku, honba, .. } => {
                    let w = Wall::seeded_for(players, seed, kyoku_count(*bakaze, *kyoku), *honba);
                    let tiles: Vec<String> = w.tiles().iter().map(|t| format!("\"{t}\"")).collect();
                    Some(format!("[{}]", tiles.join(",")))
                }
                _ => None,
            })
            .collect();
        let log: Vec<String> = game.log().iter().map(|e| e.to_json_for(players)).collect();
        println!(
            "{{\"rules\":\"{}\",\"seed\":[{},{}],\"walls\":[{}],\"log\":[{}]}}",
            rules.name(),
            seed[0],
            seed[1],
            walls.join(","),
            log.join(",")
        );
    }
}
