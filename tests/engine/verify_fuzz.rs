//! `verify` never panics (issue 15, item 4): crafted logs get a one-line reason naming the
//! line, and a proptest feeds mutated real logs (tests/data) through the parser and the
//! replay under both presets.
//!
//! Cases: 1,000 by default; the long run is
//! `PROPTEST_CASES=100000 cargo test --release --test verify_fuzz`.

use std::io::Read;
use std::path::PathBuf;
use std::sync::OnceLock;

use proptest::prelude::*;
use serde_json::Value;

use mjai_sim::engine::event::parse_log;
use mjai_sim::engine::game::replay::replay_with;
use mjai_sim::engine::game::Rules;

/// The first ten games of each fixture archive, as lines of text.
fn logs() -> &'static Vec<Vec<String>> {
    static LOGS: OnceLock<Vec<Vec<String>>> = OnceLock::new();
    LOGS.get_or_init(|| {
        let mut out = Vec::new();
        for name in ["mortal-arena-100.tar.xz", "libriichi-arena-callers-40.tar.xz"] {
            let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name);
            let file = std::fs::File::open(&path).expect("fixture in the repository");
            let mut tar_bytes = Vec::new();
            lzma_rs::xz_decompress(&mut std::io::BufReader::new(file), &mut tar_bytes).expect("valid xz");
            let mut ar = tar::Archive::new(&tar_bytes[..]);
            let mut games: Vec<(String, Vec<String>)> = Vec::new();
            for entry in ar.entries().expect("tar") {
                let mut entry = entry.expect("tar entry");
                let name = entry.path().expect("path").display().to_string();
                if name.ends_with(".jsonl") {
                    let mut text = String::new();
                    entry.read_to_string(&mut text).expect("utf-8");
                    games.push((name, text.lines().map(String::from).collect()));
                }
            }
            games.sort();
            out.extend(games.into_iter().take(10).map(|(_, lines)| lines));
        }
        out
    })
}

/// Verifies `text` as the CLI does, under both presets; returns every reason given. Any
/// panic fails the test.
fn verify_text(text: &str) -> Vec<String> {
    match parse_log(text) {
        Err(e) => vec![format!("{e:#}")],
        Ok(events) => [Rules::tenhou(), Rules::mjai_app()]
            .into_iter()
            .filter_map(|r| replay_with(&events, r).err().map(|d| d.to_string()))
            .collect(),
    }
}

fn assert_one_line_naming_a_line(reasons: &[String]) {
    for r in reasons {
        assert!(!r.contains('\n'), "not one line: {r}");
        assert!(r.contains("line "), "names no line: {r}");
    }
}

/// Game 0 with line `i` (0-based) passed through `f`.
fn edited(i: usize, f: impl FnOnce(&mut Value)) -> String {
    let mut lines = logs()[0].clone();
    let mut v: Value = serde_json::from_str(&lines[i]).unwrap();
    f(&mut v);
    lines[i] = v.to_string();
    lines.join("\n")
}

#[test]
fn crafted_start_kyoku_values_are_refused_at_their_line() {
    let cases: [(&str, Value, &str); 6] = [
        ("kyoku", 0.into(), "kyoku 0 is not 1..=4"),
        ("kyoku", 9.into(), "kyoku 9"),
        ("honba", 255.into(), "honba 255"),
        ("kyotaku", 200.into(), "kyotaku 200"),
        ("bakaze", "5m".into(), "bakaze 5m"),
        ("scores", serde_json::json!([2_000_000_000, 25000, 25000, 25000]), "score 2000000000"),
    ];
    for (field, value, want) in cases {
        let text = edited(1, |v| v[field] = value.clone());
        let reasons = verify_text(&text);
        assert_eq!(reasons.len(), 2, "{field}: both presets refuse");
        for r in &reasons {
            assert!(r.starts_with("log line 2: ") && r.contains(want), "{field}: {r}");
        }
    }
}

#[test]
fn wrong_types_huge_numbers_and_bad_actors_name_their_line() {
    let text = edited(3, |v| v["actor"] = "zero".into());
    let r = verify_text(&text);
    assert!(r[0].contains("line 4 is not an mjai event"), "{r:?}");
    let text = edited(3, |v| v["actor"] = serde_json::json!(1e300));
    assert!(verify_text(&text)[0].contains("line 4"), "{:?}", verify_text(&text));
    let text = edited(3, |v| v["actor"] = 7.into());
    let r = verify_text(&text);
    assert!(r[0].starts_with("log line 4: actor 7 is not a seat"), "{r:?}");
}

#[test]
fn missing_lines_and_a_truncated_file_name_their_line() {
    let lines = &logs()[0];
    let mut cut = lines.clone();
    cut.remove(10);
    let r = verify_text(&cut.join("\n"));
    assert!(r.iter().all(|r| r.starts_with("log line 11: ")), "{r:?}");

    let text = lines.join("\n");
    let r = verify_text(&text[..text.len() / 2]);
    assert!(!r.is_empty(), "half a log is refused");
    assert_one_line_naming_a_line(&r);

    // Without its end_game line: the engine's end_game has no line left to match.
    let r = verify_text(&lines[..lines.len() - 1].join("\n"));
    let want = format!("log line {}: the log has ended, the engine gave {{\"type\":\"end_game\"}}", lines.len());
    assert!(r.len() == 2 && r.iter().all(|r| *r == want), "{r:?}");
    assert_one_line_naming_a_line(&r);
}

/// One edit of a log.
#[derive(Debug, Clone)]
enum Mutation {
    /// Replace leaf `leaf` (numbers, strings, booleans, nulls in document order) of line
    /// `line` with `value`.
    Leaf {
        line: usize,
        leaf: usize,
        value: Value,
    },
    /// Remove the `field`-th key of line `line`'s object.
    DropField {
        line: usize,
        field: usize,
    },
    DeleteLine(usize),
    DuplicateLine(usize),
    SwapLines(usize, usize),
    /// Cut the text at this fraction (per mille) of its length.
    Truncate(u16),
}

fn values() -> impl Strategy<Value = Value> {
    let numbers = prop::sample::select(vec![
        0i64,
        1,
        3,
        4,
        5,
        13,
        70,
        255,
        256,
        -1,
        65_535,
        1 << 31,
        -(1 << 31) - 1,
        i64::MAX,
        i64::MIN,
    ])
    .prop_map(Value::from);
    let tiles = prop::sample::select(vec![
        "1m", "9m", "5mr", "5p", "E", "N", "P", "C", "?", "", "x", "10m", "dahai", "hora", "end_game",
    ])
    .prop_map(Value::from);
    prop_oneof![
        4 => numbers,
        4 => tiles,
        1 => any::<i64>().prop_map(Value::from),
        1 => Just(Value::Null),
        1 => Just(serde_json::json!([])),
        1 => Just(serde_json::json!({})),
        1 => any::<bool>().prop_map(Value::from),
        1 => Just(serde_json::json!(1e300)),
    ]
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let line = 0usize..2000;
    prop_oneof![
        6 => (line.clone(), 0usize..64, values()).prop_map(|(line, leaf, value)| Mutation::Leaf { line, leaf, value }),
        1 => (line.clone(), 0usize..8).prop_map(|(line, field)| Mutation::DropField { line, field }),
        1 => line.clone().prop_map(Mutation::DeleteLine),
        1 => line.clone().prop_map(Mutation::DuplicateLine),
        1 => (line.clone(), line).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
        1 => (0u16..1000).prop_map(Mutation::Truncate),
    ]
}

/// Replaces the `k`-th leaf (numbers, strings, booleans, nulls in document order) of `v`.
fn replace_leaf(v: &mut Value, k: &mut usize, with: &Value) -> bool {
    match v {
        Value::Array(a) => a.iter_mut().any(|x| replace_leaf(x, k, with)),
        Value::Object(o) => o.values_mut().any(|x| replace_leaf(x, k, with)),
        leaf if *k == 0 => {
            *leaf = with.clone();
            true
        }
        _ => {
            *k -= 1;
            false
        }
    }
}

fn count_leaves(v: &Value) -> usize {
    match v {
        Value::Array(a) => a.iter().map(count_leaves).sum(),
        Value::Object(o) => o.values().map(count_leaves).sum(),
        _ => 1,
    }
}

fn apply(lines: &mut Vec<String>, m: &Mutation) {
    let n = lines.len();
    match m {
        Mutation::Leaf { line, leaf, value } => {
            let i = line % n;
            let Ok(mut v) = serde_json::from_str::<Value>(&lines[i]) else { return };
            let mut k = leaf % count_leaves(&v).max(1);
            replace_leaf(&mut v, &mut k, value);
            lines[i] = v.to_string();
        }
        Mutation::DropField { line, field } => {
            let i = line % n;
            let Ok(mut v) = serde_json::from_str::<Value>(&lines[i]) else { return };
            let Some(o) = v.as_object_mut() else { return };
            if let Some(key) = o.keys().nth(field % o.len().max(1)).cloned() {
                o.remove(&key);
            }
            lines[i] = v.to_string();
        }
        Mutation::DeleteLine(i) => {
            lines.remove(i % n);
        }
        Mutation::DuplicateLine(i) => {
            let l = lines[i % n].clone();
            lines.insert(i % n, l);
        }
        Mutation::SwapLines(a, b) => lines.swap(a % n, b % n),
        Mutation::Truncate(_) => {}
    }
}

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(1000);
    ProptestConfig { cases, ..ProptestConfig::default() }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn mutated_real_logs_never_panic_and_name_a_line(game in 0usize..20, edits in prop::collection::vec(mutation(), 1..4)) {
        let mut lines = logs()[game % logs().len()].clone();
        let mut cut = None;
        for m in &edits {
            if lines.is_empty() {
                break;
            }
            if let Mutation::Truncate(per_mille) = m {
                cut = Some(*per_mille);
            }
            apply(&mut lines, m);
        }
        let mut text = lines.join("\n");
        if let Some(p) = cut {
            let mut at = text.len() * p as usize / 1000;
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            text.truncate(at);
        }
        let reasons = verify_text(&text);
        assert_one_line_naming_a_line(&reasons);
    }
}
