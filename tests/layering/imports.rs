//! The layers, read off the source files. Every top-level module of `src` sits in one layer of
//! [`LAYERS`] (engine, stats → bots, riichi_dev → runtime, env → export/viewer/images/connect →
//! arena → tournament → messages → server/pages → cli, issue 28) and imports only its own layer and
//! those below, without a cycle between modules; inside each module, its files (and folders)
//! import each other without a cycle either (issue 36, item 7). The command line is a front
//! end (issue 20, item 1): nothing outside `src/cli` imports it (the library, the tests, the
//! benches, the grading server reach tournaments through `tournament::session`), and the
//! library outside it neither installs signal handlers, nor exits the process, nor derives
//! clap's traits.
//!
//! Imports are read with `syn`: every `use` tree (grouped and nested groups included), every
//! path in the code, and the `crate::`/`super::`/`self::` paths inside macro calls.
//!
//! The layer picture (every module → module edge with its count of references):
//! `cargo test --test layering -- --nocapture layer_picture`; of another checkout:
//! `LAYERING_ROOT=DIR cargo test --test layering -- --nocapture layer_picture`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The checkout whose `src` is read: `LAYERING_ROOT` when set (another checkout), else this one.
fn root() -> PathBuf {
    std::env::var_os("LAYERING_ROOT").map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from)
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
pub(crate) const LAYERS: &[&[&str]] = &[
    &["engine", "stats"],
    &["bots", "riichi_dev"],
    &["runtime", "env"],
    &["export", "viewer", "images", "connect"],
    &["arena"],
    &["tournament"],
    &["messages"],
    &["serve", "pages"],
    &["cli", "main", "python"],
];

pub(crate) fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// A module's path from the crate root (`["tournament", "standings"]`; the crate root is `[]`).
type ModPath = Vec<String>;

/// The module path of a source file under `src` (`a/b.rs` and `a/b/mod.rs` are `[a, b]`;
/// `main.rs`, the binary's root, is `[main]`).
fn module_of(relative: &Path) -> ModPath {
    let mut parts: ModPath = relative.iter().map(|c| c.to_string_lossy().into_owned()).collect();
    let last = parts.pop().unwrap_or_default();
    if last != "mod.rs" && last != "lib.rs" {
        parts.push(last.strip_suffix(".rs").unwrap_or(&last).to_string());
    }
    parts
}

/// The paths a file names, as written, each with the (inline) module it is written in:
/// every `use` (groups `{a, b}` and nested groups split into one path each, `*` and
/// `self` as the module itself), every path in the code (`crate::x::f()`, types), and
/// `crate::`/`super::`/`self::` paths inside macro calls (their tokens are not parsed).
#[derive(Default)]
struct Named {
    inline: Vec<String>,
    paths: Vec<(Vec<String>, Vec<String>)>,
}

impl Named {
    fn push(&mut self, path: Vec<String>) {
        if !path.is_empty() {
            self.paths.push((self.inline.clone(), path));
        }
    }

    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Name(n) if n.ident == "self" => self.push(prefix.clone()),
            syn::UseTree::Name(n) => self.push([&prefix[..], &[n.ident.to_string()]].concat()),
            syn::UseTree::Rename(r) => self.push([&prefix[..], &[r.ident.to_string()]].concat()),
            syn::UseTree::Glob(_) => self.push(prefix.clone()),
            syn::UseTree::Group(g) => g.items.iter().for_each(|t| self.use_tree(prefix, t)),
        }
    }

    /// `crate::a::b`, `super::x`, `self::y`, `mjai_sim::z` and `mjai_sim_arena::w` paths in a
    /// macro's tokens.
    fn tokens(&mut self, tokens: proc_macro2::TokenStream) {
        use proc_macro2::TokenTree;
        let flat: Vec<TokenTree> = tokens.into_iter().collect();
        let mut i = 0;
        while i < flat.len() {
            match &flat[i] {
                TokenTree::Group(g) => self.tokens(g.stream()),
                TokenTree::Ident(id)
                    if ["crate", "super", "self"].contains(&id.to_string().as_str())
                        || id.to_string().starts_with("mjai_sim") =>
                {
                    let after_path_sep = i >= 2
                        && matches!((&flat[i - 2], &flat[i - 1]), (TokenTree::Punct(a), TokenTree::Punct(b)) if a.as_char() == ':' && b.as_char() == ':');
                    if !after_path_sep {
                        let mut path = vec![id.to_string()];
                        let mut j = i + 1;
                        while let (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)), Some(TokenTree::Ident(next))) =
                            (flat.get(j), flat.get(j + 1), flat.get(j + 2))
                        {
                            if a.as_char() != ':' || b.as_char() != ':' {
                                break;
                            }
                            path.push(next.to_string());
                            j += 3;
                        }
                        if path.len() > 1 {
                            self.push(path);
                        }
                        i = j;
                        continue;
                    }
                }
                _ => {}
            }
            i += 1;
        }
    }
}

impl<'ast> syn::visit::Visit<'ast> for Named {
    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        self.use_tree(&mut Vec::new(), &item.tree);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        self.push(path.segments.iter().map(|s| s.ident.to_string()).collect());
        syn::visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.tokens(mac.tokens.clone());
        syn::visit::visit_macro(self, mac);
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        self.inline.push(item.ident.to_string());
        syn::visit::visit_item_mod(self, item);
        self.inline.pop();
    }
}

/// The crates of the workspace that are a module folder of `src` (the engine, and each
/// layer split off as a crate: a folder with its own `Cargo.toml`): their library's name
/// (`mjai_sim_engine`) → the module they are (`engine`), which `mjai_sim::` re-exports
/// under that name.
fn module_crates() -> BTreeMap<String, String> {
    let src = root().join("src");
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(&src).unwrap().flatten() {
        let Ok(manifest) = std::fs::read_to_string(entry.path().join("Cargo.toml")) else { continue };
        let module = entry.file_name().to_string_lossy().into_owned();
        let lib = manifest.split("[lib]").nth(1).and_then(|lib| {
            lib.lines().find_map(|l| l.trim().strip_prefix("name = ").map(|n| n.trim_matches('"').to_string()))
        });
        out.insert(lib.unwrap_or_else(|| format!("mjai_sim_{module}")), module);
    }
    out
}

/// `path`, written in module `at`, from the root of `src` (the main crate's root: a
/// module crate's `crate::` is its module, `mjai_sim_engine::` is `engine`): `crate::`,
/// `mjai_sim::` (the binary, the tests), a module crate's name, `self::` and `super::`
/// paths; `None` for any other (a crate, a child module, a local name: none of them is an
/// import between modules here).
fn resolve(at: &[String], path: &[String]) -> Option<ModPath> {
    thread_local!(static CRATES: BTreeMap<String, String> = module_crates());
    let first = path.first().map(String::as_str)?;
    if let Some(module) = CRATES.with(|c| c.get(first).cloned()) {
        return Some([&[module][..], &path[1..]].concat());
    }
    match first {
        "crate" => {
            // inside a module crate, `crate::` is that module
            let own = at.first().filter(|m| CRATES.with(|c| c.values().any(|v| v == *m)));
            Some([own.map(|m| vec![m.clone()]).unwrap_or_default(), path[1..].to_vec()].concat())
        }
        "mjai_sim" => Some(path[1..].to_vec()),
        "self" => Some([at, &path[1..]].concat()),
        "super" => {
            let ups = path.iter().take_while(|s| *s == "super").count();
            let base = at.len().checked_sub(ups)?;
            Some([&at[..base], &path[ups..]].concat())
        }
        _ => None,
    }
}

/// Every module a file's text imports, from the crate root, each with the module that
/// names it (the file's own, or an inline module inside it). Errors: the file does not
/// parse as Rust.
fn imports_of(module: &[String], text: &str) -> Result<Vec<(ModPath, ModPath)>, syn::Error> {
    let file = syn::parse_file(text)?;
    let mut named = Named::default();
    syn::visit::Visit::visit_file(&mut named, &file);
    Ok(named
        .paths
        .into_iter()
        .filter_map(|(inline, path)| {
            let at = [module, &inline[..]].concat();
            resolve(&at, &path).map(|to| (at, to))
        })
        .collect())
}

/// The child modules of the module at `dir` (a folder of `src`): its `.rs` files but
/// `mod.rs`, and its folders.
fn children(dir: &Path) -> BTreeSet<String> {
    let Ok(entries) = std::fs::read_dir(dir) else { return BTreeSet::new() };
    entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            if e.path().is_dir() {
                Some(name)
            } else {
                name.strip_suffix(".rs").filter(|n| *n != "mod").map(str::to_string)
            }
        })
        .collect()
}

/// Sibling → sibling → references, for every module with children: at `[]` the top-level
/// modules of `src` (`lib.rs` declares or re-exports them: the engine and the other
/// module crates are read as the module they are, their files included), at
/// `["tournament"]` its files (`standings` → `tally`), and so on down. An
/// import counts at the level where the importing and the imported module part: a file of
/// `tournament/store/` naming `crate::tournament::tally` is an edge `store → tally` of
/// `tournament`. Each level's graph holds every child module, with or without edges.
fn sibling_graphs() -> BTreeMap<ModPath, BTreeMap<String, BTreeMap<String, usize>>> {
    let src = root().join("src");
    let mut graphs: BTreeMap<ModPath, BTreeMap<String, BTreeMap<String, usize>>> = BTreeMap::new();
    let mut files = rust_files(&src);
    // a module crate's `examples/` are programs of their own, not modules
    files.retain(|f| *f != src.join("lib.rs") && !f.strip_prefix(&src).unwrap().iter().any(|c| c == "examples"));
    for file in &files {
        let module = module_of(file.strip_prefix(&src).unwrap());
        // every level from the crate root down to the file's own
        for depth in 0..module.len() {
            let level = module[..depth].to_vec();
            let dir = level.iter().fold(src.clone(), |d, m| d.join(m));
            let graph = graphs.entry(level).or_default();
            for child in children(&dir).into_iter().filter(|c| c != "lib" && c != "examples") {
                graph.entry(child).or_default();
            }
        }
        let text = std::fs::read_to_string(file).unwrap();
        let imports = imports_of(&module, &text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        for (from, to) in imports {
            let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
            if common >= from.len() || common >= to.len() {
                continue; // within the module itself, or one of its own children
            }
            let level = from[..common].to_vec();
            let Some(graph) = graphs.get_mut(&level) else { continue };
            if graph.contains_key(&to[common]) || level.is_empty() {
                *graph.entry(from[common].clone()).or_default().entry(to[common].clone()).or_default() += 1;
            }
        }
    }
    graphs
}

/// The top-level modules of `src` → the top-level modules they import → references
/// (`main.rs`, the binary, as `main`).
fn module_graph() -> BTreeMap<String, BTreeMap<String, usize>> {
    sibling_graphs().remove(&Vec::new()).unwrap_or_default()
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

/// Cycles between the files of one module that the structure still has, each
/// `LEVEL: a → b → a` as [`cycles`] writes it, with what ties the two files and why it is
/// left for now (none since issue 36 took the last four apart). The test fails on any other
/// cycle, and on one of these once it is gone (then remove it here).
const KNOWN_FILE_CYCLES: &[(&str, &str)] = &[];

/// Every cycle between sibling modules at each level of `graphs`, written
/// `LEVEL: a → b → a` (the crate root is `crate`): one cycle per strongly connected
/// group, found by removing each found cycle's first edge and searching again.
fn cycles(graphs: &BTreeMap<ModPath, BTreeMap<String, BTreeMap<String, usize>>>) -> Vec<String> {
    let mut found = Vec::new();
    for (level, graph) in graphs {
        let name = if level.is_empty() { "crate".to_string() } else { level.join("::") };
        let mut graph: BTreeMap<String, BTreeSet<String>> =
            graph.iter().map(|(m, edges)| (m.clone(), edges.keys().cloned().collect())).collect();
        while let Some(cycle) = find_cycle(&graph, |uses| uses.iter().collect()) {
            let mut steps = cycle.split(" → ");
            let (a, b) = (steps.next().unwrap().to_string(), steps.next().unwrap().to_string());
            graph.get_mut(&a).unwrap().remove(&b);
            found.push(format!("{name}: {cycle}"));
        }
    }
    found
}

#[test]
fn the_files_of_a_module_import_each_other_without_a_cycle() {
    let graphs = sibling_graphs();
    let cli = &graphs[&vec!["cli".to_string()]];
    assert!(cli["tournament_db"].contains_key("tournament"), "the scan finds imports between files: {cli:?}");
    let engine = &graphs[&vec!["engine".to_string()]];
    assert!(engine["game"].contains_key("rules"), "the scan reads the engine crate's files: {engine:?}");
    let found = cycles(&graphs);
    let known: BTreeSet<&str> = KNOWN_FILE_CYCLES.iter().map(|(cycle, _)| *cycle).collect();
    let new: Vec<&String> = found.iter().filter(|c| !known.contains(c.as_str())).collect();
    assert!(new.is_empty(), "files of one module import each other in a circle:\n{new:#?}");
    let gone: Vec<&&str> = known.iter().filter(|k| !found.iter().any(|c| c == *k)).collect();
    assert!(gone.is_empty(), "cycles in KNOWN_FILE_CYCLES no longer found (remove them): {gone:?}");
}

#[test]
fn a_grouped_import_is_read_as_each_of_its_modules() {
    // a file of the tournament crate: `crate::` is the tournament, another crate by its name
    let text = "use mjai_sim_arena as arena; use crate::{store::Store, tally};\n\
                use super::{schedule::{self, Slot}, scheduler::*};\n\
                fn f() { mjai_sim_serve::router::router(); g!(mjai_sim_pages::site); }\n\
                mod tests { use super::super::pool; use super::standings; }\n";
    let module: ModPath = ["tournament", "standings"].map(String::from).to_vec();
    let imports = imports_of(&module, text).unwrap();
    let read: BTreeSet<String> = imports.iter().map(|(_, to)| to.join("::")).collect();
    let expected = [
        "arena",
        "tournament::store::Store",
        "tournament::tally",
        "tournament::schedule",
        "tournament::schedule::Slot",
        "tournament::scheduler",
        "serve::router::router",
        "pages::site",
        "tournament::pool",
        "tournament::standings::standings",
    ];
    assert_eq!(read, expected.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>());
    let from_tests = imports.iter().find(|(_, to)| to.join("::") == "tournament::pool").unwrap();
    assert_eq!(from_tests.0.join("::"), "tournament::standings::tests", "super:: in an inline module is the file");
    // in the main crate (the command line), `crate::` is the root of src
    let cli: ModPath = ["cli", "serve"].map(String::from).to_vec();
    let read: Vec<String> =
        imports_of(&cli, "use crate::arena::cancel;").unwrap().into_iter().map(|(_, to)| to.join("::")).collect();
    assert_eq!(read, ["arena::cancel"]);
}
