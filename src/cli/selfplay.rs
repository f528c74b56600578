//! `mjai-sim selfplay`: games between built-in bots in process (no Docker), with a summary.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context};

use super::rules_arg::RulesFlag;
use crate::bots::selfplay::{play_with_rules, series_config_for, Finished, IgnoreAnswers};
use crate::bots::stats::Tally;
use crate::bots::{self, Agent};
use crate::engine::game::{Players, MAX_SEATS};

/// Arguments of `selfplay`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Four bots, seat order, e.g. `builtin:rulebase builtin:tsumogiri builtin:tsumogiri builtin:rulebase`;
    /// three with a three-player preset (`--rules riichi-dev-3p`).
    #[arg(value_name = "BOT")]
    pub positional: Vec<String>,
    /// The bots as one comma-separated list (instead of positional ones).
    #[arg(long, value_delimiter = ',', value_name = "BOT,BOT,BOT,BOT")]
    pub bots: Vec<String>,
    /// Number of hanchans.
    #[arg(long, default_value_t = 1)]
    pub games: u64,
    /// Series seed: game `i` uses wall seed `[SEED, i]`.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Writes `mjai_log.json` per game (in `game-NNNNN/` subfolders when more than one game).
    #[arg(long, value_name = "DIR")]
    pub logs_dir: Option<PathBuf>,
    /// Rule preset.
    #[command(flatten)]
    pub rules: RulesFlag,
}

/// Runs `selfplay`; returns the exit code (0, or 1 if any game hit an engine error).
pub fn run(args: Args) -> anyhow::Result<i32> {
    let rules = args.rules.rules();
    let specs = bot_specs(&args, rules.players)?;
    let names: [String; MAX_SEATS] = std::array::from_fn(|s| specs.get(s).cloned().unwrap_or_default());
    let mut tally = Tally::default();
    let start = Instant::now();
    let mut failures = 0u64;
    for i in 0..args.games {
        let mut agents: [Box<dyn Agent>; MAX_SEATS] = make_agents(&specs)?;
        let config = series_config_for(args.seed, i, names.clone(), rules.players);
        match play_with_rules(config, rules, &mut agents, &mut IgnoreAnswers) {
            Ok(game) => {
                if let Some(dir) = &args.logs_dir {
                    write_log(&game_dir(dir, i, args.games), &game)?;
                }
                tally.add(&game);
            }
            Err(e) => {
                failures += 1;
                eprintln!("mjai-sim: game {i} (seed [{}, {i}]) failed: {e}", args.seed);
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    print_summary(&specs, &tally, secs);
    Ok(if failures == 0 { 0 } else { 1 })
}

fn bot_specs(args: &Args, players: Players) -> anyhow::Result<Vec<String>> {
    let specs = match (args.positional.is_empty(), args.bots.is_empty()) {
        (false, true) => args.positional.clone(),
        (true, false) => args.bots.clone(),
        (true, true) => bail!("no bots given: pass four, e.g. --bots builtin:rulebase,builtin:tsumogiri,builtin:tsumogiri,builtin:rulebase"),
        (false, false) => bail!("bots given both positionally and with --bots: use one of the two"),
    };
    match (specs.len(), players) {
        (n, p) if n == p.count() => {}
        (3, Players::Four) => {
            bail!("3 bots given but the rules seat 4: three-player self-play needs a three-player preset, e.g. --rules riichi-dev-3p")
        }
        (n, p) => bail!("{n} bots given, need exactly {} (one per seat)", p.count()),
    }
    for s in &specs {
        if !s.starts_with("builtin:") {
            bail!("'{s}' is not a built-in bot: selfplay runs only builtin:NAME bots ({}); use `mjai-sim` for submissions", bots::NAMES.join(", "));
        }
    }
    Ok(specs)
}

/// One agent per bot; at a three-player table the fourth seat's (never asked) is a
/// tsumogiri.
fn make_agents(specs: &[String]) -> anyhow::Result<[Box<dyn Agent>; MAX_SEATS]> {
    let v: Vec<Box<dyn Agent>> = specs.iter().map(|s| bots::from_spec(s)).collect::<Result<_, _>>()?;
    bots::selfplay::table_agents(v).ok_or_else(|| anyhow::anyhow!("at most {MAX_SEATS} bots"))
}

fn game_dir(dir: &Path, index: u64, games: u64) -> PathBuf {
    if games == 1 {
        dir.to_path_buf()
    } else {
        dir.join(format!("game-{index:05}"))
    }
}

/// Writes the log as JSON lines to `dir/mjai_log.json`.
fn write_log(dir: &Path, game: &Finished) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create logs folder {}", dir.display()))?;
    let path = dir.join("mjai_log.json");
    let file = std::fs::File::create(&path).with_context(|| format!("cannot write {}", path.display()))?;
    let mut out = std::io::BufWriter::new(file);
    for e in &game.log {
        writeln!(out, "{}", e.to_json_for(game.players))?;
    }
    out.flush().with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

fn print_summary(names: &[String], t: &Tally, secs: f64) {
    println!("{} games, {} hands in {:.2} s ({:.1} games/s)", t.games, t.kyokus, secs, t.games as f64 / secs.max(1e-9));
    println!("seat  bot                    mean score  mean rank  1st     hora    deal-in  chombo");
    for (s, name) in names.iter().enumerate() {
        println!(
            "{s:<5} {name:<22} {:>10.0}  {:>9.2}  {:>5.1}%  {:>5.1}%  {:>6.1}%  {:>6}",
            t.mean_score(s),
            t.mean_rank(s),
            100.0 * t.ranks[s][0] as f64 / t.games.max(1) as f64,
            100.0 * t.hora_rate(s),
            100.0 * t.deal_in_rate(s),
            t.chombos[s]
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(positional: &[&str], bots: &[&str]) -> Args {
        Args {
            positional: positional.iter().map(|s| s.to_string()).collect(),
            bots: bots.iter().map(|s| s.to_string()).collect(),
            games: 1,
            seed: 0,
            logs_dir: None,
            rules: Default::default(),
        }
    }

    #[test]
    fn bot_lists_are_checked_with_one_line_errors() {
        let four = ["builtin:rulebase", "builtin:tsumogiri", "builtin:tsumogiri", "builtin:rulebase"];
        assert_eq!(bot_specs(&args(&four, &[]), Players::Four).unwrap(), four);
        assert_eq!(bot_specs(&args(&[], &four), Players::Four).unwrap(), four);
        assert_eq!(bot_specs(&args(&four[..3], &[]), Players::Three).unwrap(), four[..3]);
        let e = |a: Args| bot_specs(&a, Players::Four).unwrap_err().to_string();
        assert!(e(args(&[], &[])).contains("no bots given"));
        assert!(e(args(&four, &four)).contains("use one of the two"));
        assert!(e(args(&four[..3], &[])).contains("--rules riichi-dev-3p"));
        let four_at_three = bot_specs(&args(&four, &[]), Players::Three).unwrap_err().to_string();
        assert!(four_at_three.contains("need exactly 3"), "{four_at_three}");
        assert!(e(args(&["a.zip", four[1], four[2], four[3]], &[])).contains("'a.zip' is not a built-in bot"));
        let nope = vec!["builtin:nope".to_string(); 4];
        assert!(make_agents(&nope)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
            .contains("unknown built-in bot 'nope'"));
    }

    #[test]
    fn one_game_writes_its_log_in_the_folder_itself() {
        assert_eq!(game_dir(Path::new("/x"), 0, 1), PathBuf::from("/x"));
        assert_eq!(game_dir(Path::new("/x"), 7, 20), PathBuf::from("/x/game-00007"));
    }
}
