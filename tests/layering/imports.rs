//! The layers, read off the source files. Every top-level module of `src` sits in one layer of
//! [`LAYERS`] (engine → bots → runtime → export/viewer → arena → tournament → messages →
//! server/pages → cli, issue 28) and imports only its own layer and those below, without a cycle between
//! modules. The command line is a front end (issue 20, item 1): nothing outside `src/cli`
//! imports it (the library, the tests, the benches, the grading server reach tournaments
//! through `tournament::session`), its modules import each other without a cycle, and the
//! library outside it neither installs signal handlers, nor exits the process, nor derives
//! clap's traits.
//!
//! The layer picture (every module → module edge with its count of references):
//! `cargo test --test layering -- --nocapture layer_picture`; of another checkout, without
//! building the library: `CARGO_MANIFEST_DIR=DIR rustc --edition 2021 --test tests/layering/imports.rs
//! -o /tmp/layering && /tmp/layering --nocapture layer_picture`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `dir`, recursively.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return out };
    for e in entries.flatten() {
        let path = e.path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// Lines of code (comments dropped) of the files under `dirs`, except those under `except`.
fn code_lines(dirs: &[&str], except: &[&str]) -> Vec<(PathBuf, usize, String)> {
    let root = root();
    let except: Vec<PathBuf> = except.iter().map(|e| root.join(e)).collect();
    let mut out = Vec::new();
    for dir in dirs {
        for file in rust_files(&root.join(dir)) {
            if except.iter().any(|e| file.starts_with(e)) {
                continue;
            }
            let text = std::fs::read_to_string(&file).unwrap();
            for (i, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("").to_string();
                out.push((file.strip_prefix(&root).unwrap().to_path_buf(), i + 1, code));
            }
        }
    }
    out
}

/// The layers from the bottom: a module imports modules of its own layer or lower ones.
/// `main.rs` is the command line's binary.
const LAYERS: &[&[&str]] = &[
    &["engine"],
    &["bots"],
    &["runtime"],
    &["export", "viewer"],
    &["arena"],
    &["tournament"],
    &["messages"],
    &["serve", "view"],
    &["cli", "main"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// Module → module → references: `crate::M` (and `mjai_sim::M` in `main.rs`) in the code
/// (comments dropped) of each top-level module of `src` (`lib.rs` declares them; the
/// engine is its own crate and names only itself).
fn module_graph() -> BTreeMap<String, BTreeMap<String, usize>> {
    let mut graph: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    for (path, _, code) in code_lines(&["src"], &["src/lib.rs", "src/engine"]) {
        let mut parts = path.components().skip(1);
        let first = parts.next().unwrap().as_os_str().to_string_lossy().into_owned();
        let module = first.strip_suffix(".rs").unwrap_or(&first).to_string();
        let edges = graph.entry(module.clone()).or_default();
        for prefix in ["crate::", "mjai_sim::"] {
            for (at, _) in code.match_indices(prefix) {
                if at > 0 && code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
                    continue; // `mjai_sim_engine::`, `other_crate::`
                }
                if code[..at].matches('"').count() % 2 == 1 {
                    continue; // inside a string: a tracing target, a message
                }
                let rest = &code[at + prefix.len()..];
                let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                if !name.is_empty() && name != module {
                    *edges.entry(name).or_default() += 1;
                }
            }
        }
    }
    graph.entry("engine".into()).or_default();
    graph
}

/// The picture: each module by layer, with the modules it imports (references) and `↑` on
/// an arrow upward.
fn picture(graph: &BTreeMap<String, BTreeMap<String, usize>>) -> String {
    let mut modules: Vec<&String> = graph.keys().collect();
    modules.sort_by_key(|m| (layer_of(m).unwrap_or(usize::MAX), m.to_string()));
    let mut out = String::new();
    for m in modules {
        let layer = layer_of(m).map_or("?".to_string(), |l| l.to_string());
        let edges: Vec<String> = graph[m]
            .iter()
            .map(|(to, n)| {
                let up = match (layer_of(m), layer_of(to)) {
                    (Some(a), Some(b)) if b > a => " ↑",
                    _ => "",
                };
                format!("{to} ({n}){up}")
            })
            .collect();
        out += &format!("[{layer}] {m} → {}\n", edges.join(", "));
    }
    out
}

/// The first cycle of `graph` found by a depth-first search, as `a → b → a`.
fn find_cycle<'a, V>(graph: &'a BTreeMap<String, V>, next: impl Fn(&'a V) -> Vec<&'a String>) -> Option<String> {
    fn visit<'a, V>(
        m: &'a String,
        graph: &'a BTreeMap<String, V>,
        next: &dyn Fn(&'a V) -> Vec<&'a String>,
        path: &mut Vec<&'a String>,
        done: &mut BTreeSet<&'a String>,
    ) -> Option<String> {
        if let Some(at) = path.iter().position(|p| *p == m) {
            let names: Vec<&str> = path[at..].iter().chain([&m]).map(|s| s.as_str()).collect();
            return Some(names.join(" → "));
        }
        if !done.insert(m) {
            return None;
        }
        path.push(m);
        for n in graph.get(m).map(&next).unwrap_or_default() {
            if let Some(cycle) = visit(n, graph, next, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|m| visit(m, graph, &next, &mut Vec::new(), &mut done))
}

#[test]
fn layer_picture() {
    let graph = module_graph();
    println!("{}", picture(&graph));
    assert!(graph["arena"].contains_key("engine"), "the scan finds imports (arena uses the engine)");
}

#[test]
fn every_module_imports_only_its_layer_and_those_below() {
    let graph = module_graph();
    let unplaced: Vec<&String> = graph.keys().filter(|m| layer_of(m).is_none()).collect();
    assert!(unplaced.is_empty(), "modules in no layer of LAYERS (tests/layering/imports.rs): {unplaced:?}");
    let upward: Vec<String> = graph
        .iter()
        .flat_map(|(m, edges)| edges.keys().map(move |to| (m, to)))
        .filter(|(m, to)| layer_of(to).is_some_and(|b| b > layer_of(m).unwrap()))
        .map(|(m, to)| format!("{m} → {to}"))
        .collect();
    assert!(upward.is_empty(), "arrows upward: {}\n{}", upward.join(", "), picture(&graph));
    let cycle = find_cycle(&graph, |edges| edges.keys().collect());
    assert!(cycle.is_none(), "modules import in a circle: {}\n{}", cycle.unwrap(), picture(&graph));
}

#[test]
fn nothing_outside_the_command_line_imports_it() {
    let offenders: Vec<String> = code_lines(&["src", "tests", "benches"], &["src/cli", "src/main.rs", "src/lib.rs"])
        .into_iter()
        .filter(|(_, _, code)| code.contains("cli::") && !code.contains("\"")) // strings may name it
        .filter(|(path, _, _)| path != Path::new("tests/layering/imports.rs"))
        .map(|(path, n, code)| format!("{}:{n}: {}", path.display(), code.trim()))
        .collect();
    assert!(offenders.is_empty(), "the library, tests and benches import src/cli:\n{}", offenders.join("\n"));
    let main = std::fs::read_to_string(root().join("src/main.rs")).unwrap();
    assert!(main.contains("mjai_sim::cli::run()"), "the binary is the command line's one user");
}

#[test]
fn the_library_prints_no_signal_handler_exit_or_clap() {
    let forbidden = ["signal(SignalKind", "std::process::exit", "clap::", "ProgressBar"];
    let offenders: Vec<String> = code_lines(&["src"], &["src/cli", "src/main.rs", "src/engine"])
        .into_iter()
        .filter(|(_, _, code)| forbidden.iter().any(|f| code.contains(f)))
        .map(|(path, n, code)| format!("{}:{n}: {}", path.display(), code.trim()))
        .collect();
    assert!(offenders.is_empty(), "front-end concerns in the library:\n{}", offenders.join("\n"));
}

#[test]
fn the_command_line_modules_import_each_other_without_a_cycle() {
    let cli = root().join("src/cli");
    let modules: BTreeSet<String> = rust_files(&cli)
        .iter()
        .filter(|p| p.parent() == Some(cli.as_path()) && !p.ends_with("mod.rs"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for m in &modules {
        let text: String = std::fs::read_to_string(cli.join(format!("{m}.rs")))
            .unwrap()
            .lines()
            .map(|l| l.split("//").next().unwrap_or("").to_string() + "\n")
            .collect(); // code only: doc links name modules without importing them
        let uses: BTreeSet<String> = modules
            .iter()
            .filter(|other| *other != m && text.contains(&format!("super::{other}::")))
            .cloned()
            .collect();
        graph.insert(m.clone(), uses);
    }
    assert!(graph.values().any(|u| !u.is_empty()), "the scan finds imports (tournament_db uses tournament)");
    let cycle = find_cycle(&graph, |uses| uses.iter().collect());
    assert!(cycle.is_none(), "src/cli imports in a circle: {}", cycle.unwrap());
}
