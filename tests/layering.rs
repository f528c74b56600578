//! The command line is a front end (issue 20, item 1): nothing outside `src/cli` imports it
//! (the library, the tests, the benches, the grading server reach tournaments through
//! `tournament::session`), its modules import each other without a cycle, and the library
//! outside it neither installs signal handlers, nor exits the process, nor derives clap's
//! traits. Read off the source files.

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

#[test]
fn nothing_outside_the_command_line_imports_it() {
    let offenders: Vec<String> = code_lines(&["src", "tests", "benches"], &["src/cli", "src/main.rs", "src/lib.rs"])
        .into_iter()
        .filter(|(_, _, code)| code.contains("cli::") && !code.contains("\"")) // strings may name it
        .filter(|(path, _, _)| path != Path::new("tests/layering.rs"))
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
        let text = std::fs::read_to_string(cli.join(format!("{m}.rs"))).unwrap();
        let uses: BTreeSet<String> = modules
            .iter()
            .filter(|other| *other != m && text.contains(&format!("super::{other}::")))
            .cloned()
            .collect();
        graph.insert(m.clone(), uses);
    }
    assert!(graph.values().any(|u| !u.is_empty()), "the scan finds imports (tournament_db uses tournament)");
    // depth-first search for a back edge
    fn visit<'a>(
        m: &'a str,
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) -> Option<String> {
        if let Some(at) = path.iter().position(|p| *p == m) {
            return Some([&path[at..], &[m]].concat().join(" → "));
        }
        if !done.insert(m) {
            return None;
        }
        path.push(m);
        for next in &graph[m] {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    for m in graph.keys() {
        let cycle = visit(m, &graph, &mut Vec::new(), &mut done);
        assert!(cycle.is_none(), "src/cli imports in a circle: {}", cycle.unwrap());
    }
}
