//! The rules engine is its own crate (`mjai-sim-engine`, `src/engine`) so that tools and bot
//! authors can depend on the referee alone (issue 20, item 5). Its dependency tree, read off
//! `Cargo.lock` (normal and dev dependencies, transitively), has no async runtime, database,
//! Docker, HTTP or CLI crate.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// Crates the engine must never pull in, directly or not.
const FORBIDDEN: [&str; 7] = ["tokio", "sqlx", "bollard", "clap", "reqwest", "hyper", "mjai-sim"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `Cargo.lock` as package name → the names of its dependencies (all versions merged: a
/// name that appears in the tree under any version is in it).
fn lock_graph() -> BTreeMap<String, BTreeSet<String>> {
    let text = std::fs::read_to_string(root().join("Cargo.lock")).expect("Cargo.lock at the top level");
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for block in text.split("[[package]]").skip(1) {
        let mut name = None;
        let mut deps = BTreeSet::new();
        let mut in_deps = false;
        for line in block.lines().map(str::trim) {
            if let Some(v) = line.strip_prefix("name = ") {
                name = Some(v.trim_matches('"').to_string());
            } else if line.starts_with("dependencies = [") {
                in_deps = true;
            } else if in_deps && line.starts_with(']') {
                in_deps = false;
            } else if in_deps {
                // ` "rand 0.8.8",` or ` "serde",`: the name is the first word.
                let dep = line.trim_matches(|c| c == '"' || c == ',');
                deps.insert(dep.split(' ').next().unwrap_or(dep).to_string());
            }
        }
        if let Some(n) = name {
            graph.entry(n).or_default().extend(deps);
        }
    }
    graph
}

/// Every crate reachable from `start` in `graph` (`start` excluded).
fn closure(graph: &BTreeMap<String, BTreeSet<String>>, start: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut todo: Vec<&str> = graph.get(start).map(|d| d.iter().map(String::as_str).collect()).unwrap_or_default();
    while let Some(n) = todo.pop() {
        if seen.insert(n.to_string()) {
            todo.extend(graph.get(n).into_iter().flatten().map(String::as_str));
        }
    }
    seen
}

#[test]
fn the_engine_crate_pulls_in_no_runtime_database_docker_or_cli_crate() {
    let graph = lock_graph();
    assert!(graph.contains_key("mjai-sim-engine"), "the engine is a package of the workspace");
    assert!(graph["mjai-sim"].contains("mjai-sim-engine"), "the main crate depends on the engine");
    let tree = closure(&graph, "mjai-sim-engine");
    let bad: Vec<&str> = FORBIDDEN.iter().copied().filter(|f| tree.contains(*f)).collect();
    assert!(bad.is_empty(), "mjai-sim-engine depends on {bad:?} (tree: {tree:?})");
    // The check can fail: the main crate's tree has them.
    let main = closure(&graph, "mjai-sim");
    assert!(["tokio", "sqlx", "bollard", "clap"].iter().all(|f| main.contains(*f)), "{main:?}");
}

#[test]
fn the_engine_is_the_main_crates_engine_module() {
    // One type, two paths: `mjai_sim::engine` is the `mjai_sim_engine` crate.
    let rules: mjai_sim_engine::game::Rules = mjai_sim::engine::game::Rules::tenhou();
    assert_eq!(rules.name(), "tenhou");
}
