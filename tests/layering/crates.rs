//! The workspace's crates are the layers (docs/design.md, "Layout"): each module folder of
//! `src` with its own `Cargo.toml` is the crate `mjai-sim-FOLDER`, and its dependencies
//! (read off `cargo metadata`) are crates of its own layer of [`LAYERS`] or lower ones, the
//! layers the import scan checks module by module. The compiler refuses a cycle between
//! crates; this refuses an arrow upward between two crates that would otherwise build.

use std::collections::BTreeSet;

use crate::engine_crate::dependency_graph;
use crate::imports::{layer_of, LAYERS};

/// The module a workspace crate is (`mjai-sim-runtime` → `runtime`, `mjai-sim-riichi-dev` →
/// `riichi_dev`: its folder); the root package `mjai-sim` is the command line (`cli`).
fn module_of(package: &str) -> Option<String> {
    match package {
        "mjai-sim" => Some("cli".into()),
        _ => package.strip_prefix("mjai-sim-").map(|m| m.replace('-', "_")),
    }
}

#[test]
fn every_crate_depends_only_on_crates_of_its_layer_or_below() {
    let graph = dependency_graph();
    let crates: BTreeSet<&str> = graph.keys().map(String::as_str).filter(|p| module_of(p).is_some()).collect();
    for layer in LAYERS.iter().flat_map(|l| l.iter()).filter(|m| !["cli", "main"].contains(m)) {
        assert!(
            crates.contains(format!("mjai-sim-{}", layer.replace('_', "-")).as_str()),
            "{layer} is a crate of the workspace: {crates:?}"
        );
    }
    let mut wrong = Vec::new();
    for package in &crates {
        let module = module_of(package).unwrap();
        let own = layer_of(&module).unwrap_or_else(|| panic!("{package}: {module} is in no layer of LAYERS"));
        for dep in graph[*package].iter().filter_map(|d| module_of(d)) {
            match layer_of(&dep) {
                Some(l) if l <= own => {}
                _ => wrong.push(format!("{package} → mjai-sim-{dep}")),
            }
        }
    }
    assert!(wrong.is_empty(), "crates depending on a higher layer: {wrong:?}");
    // the check can fail: the command line sits on every crate
    assert!(graph["mjai-sim"].contains("mjai-sim-serve") && graph["mjai-sim-arena"].contains("mjai-sim-runtime"));
}
