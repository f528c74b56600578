//! The rules engine is its own crate (`mjai-sim-engine`, `src/engine`) so that tools and bot
//! authors can depend on the referee alone (issue 20, item 5). Its dependency tree, read off
//! `cargo metadata` (normal, build and dev dependencies, transitively, for this host), has no
//! async runtime, database, Docker, HTTP or CLI crate.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::process::Command;

/// Crates the engine must never pull in, directly or not.
const FORBIDDEN: [&str; 7] = ["tokio", "sqlx", "bollard", "clap", "reqwest", "hyper", "mjai-sim"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The host's target triple (`rustc -vV`'s `host:` line).
fn host() -> String {
    let out = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into())).arg("-vV").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.lines().find_map(|l| l.strip_prefix("host: ")).expect("rustc -vV names the host").to_string()
}

/// The workspace's resolved dependency graph from `cargo metadata --format-version 1`
/// (offline, this host's packages: what a build here uses) as package name → the names of
/// its dependencies (all versions merged: a name that appears in the tree under any
/// version is in it).
pub(crate) fn dependency_graph() -> BTreeMap<String, BTreeSet<String>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--offline", "--filter-platform", &host()])
        .current_dir(root())
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "cargo metadata failed: {}", String::from_utf8_lossy(&out.stderr));
    let metadata: serde_json::Value = serde_json::from_slice(&out.stdout).expect("cargo metadata writes JSON");
    let name_of: BTreeMap<&str, &str> = metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .filter_map(|p| Some((p["id"].as_str()?, p["name"].as_str()?)))
        .collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for node in metadata["resolve"]["nodes"].as_array().expect("a resolved graph") {
        let name = name_of[node["id"].as_str().expect("a node's id")];
        let deps = node["dependencies"].as_array().expect("a node's dependencies");
        let names = deps.iter().filter_map(|d| d.as_str()).map(|id| name_of[id].to_string());
        graph.entry(name.to_string()).or_default().extend(names);
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
    let graph = dependency_graph();
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
