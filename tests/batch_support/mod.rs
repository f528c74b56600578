//! A batched bot that misbehaves once on purpose, for the arena's and the tournament's tests
//! of batched bots (tests/arena/batch.rs, tests/tournament/batch.rs).

use std::path::Path;

use serde_json::Value;

/// A batched tsumogiri (mjai_sim.batch.serve_batched) that logs every request to stderr as
/// `{"table","seat","restart","first"}` and, once (a marker file), misbehaves on the
/// `draw`-th draw of table-seat `at`: `late` (its whole cycle sleeps `sleep` s), `illegal`
/// (a tile that does not exist) or `crash` (exit 3).
pub const FAULTY_BATCH_BOT: &str = r#"import json, os, sys, time
from mjai_sim.batch import serve_batched
FAULT = json.load(open("fault.json"))
draws = {}

def fired():
    if os.path.exists(FAULT["marker"]):
        return True
    open(FAULT["marker"], "w").close()
    return False

def think(requests):
    out, late = [], False
    for r in requests:
        key = (r["table"], r["seat"])
        first = r["events"][0]["type"]
        print(json.dumps({"table": r["table"], "seat": r["seat"], "restart": bool(r.get("restart")), "first": first}), file=sys.stderr, flush=True)
        if r.get("restart"):
            draws.pop(key, None)
        last, seat = r["events"][-1], r["seat"]
        action = {"type": "none"}
        if last.get("type") == "tsumo" and last.get("actor") == seat:
            draws[key] = draws.get(key, 0) + 1
            action = {"type": "dahai", "actor": seat, "pai": last["pai"], "tsumogiri": True}
            if list(key) == FAULT["at"] and draws[key] == FAULT["draw"] and not fired():
                if FAULT["kind"] == "illegal":
                    action = {"type": "dahai", "actor": seat, "pai": "9z", "tsumogiri": False}
                elif FAULT["kind"] == "late":
                    late = True
                elif FAULT["kind"] == "crash":
                    sys.exit(3)
        out.append(action)
    if late:
        time.sleep(FAULT["sleep"])
    return out

serve_batched(think)
"#;

/// Writes the faulty batched bot into `dir/name` with its fault; returns its folder.
pub fn faulty_batch_bot(dir: &Path, name: &str, kind: &str, at: [u64; 2], draw: u32) -> String {
    let bot = dir.join(name);
    std::fs::create_dir_all(&bot).unwrap();
    std::fs::write(bot.join("bot.py"), FAULTY_BATCH_BOT).unwrap();
    std::fs::write(bot.join("mjai-sim.toml"), "batch = true\n").unwrap();
    let marker = dir.join(format!("{name}.fired"));
    let fault = serde_json::json!({"kind": kind, "at": at, "draw": draw, "sleep": 1.6, "marker": marker});
    std::fs::write(bot.join("fault.json"), fault.to_string()).unwrap();
    bot.display().to_string()
}

/// The requests a faulty batched bot logged (its stderr lines that are JSON objects).
pub fn logged_requests(stderr: &str) -> Vec<Value> {
    stderr.lines().filter_map(|l| serde_json::from_str::<Value>(l).ok()).filter(|v| v.get("table").is_some()).collect()
}
