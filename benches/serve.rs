//! The grading server as its users load it (issue 21). `cargo bench --bench serve` starts
//! the real `mjai-sim serve` on 127.0.0.1 and prints:
//! - upload to verdict: `POST /api/bots` of the tsumogiri example's zip until
//!   `GET /api/bots/{name}` says `active`, the validation game in Docker (the default
//!   runtime; the bot image must be built), `UPLOADS` uploads one after another, each
//!   figure and the median (the target: 10 s or less on this machine);
//! - requests/s and latency of `GET /api/leaderboard`, `GET /api/games/{id}` and
//!   `GET /api/bots/{name}` (a bot's page: figures, head-to-head, its 50 latest games) from `wrk`
//!   on loopback (Debian's `wrk`; 2 threads, 8 connections, 10 s each), on a league of
//!   `MJAI_SIM_BENCH_GAMES` stored games (default 1,000,000; filled without playing, as the
//!   leaderboard bench does, then folded; game 0 gets a self-played hanchan's files);
//! - the server's resident memory (VmRSS, and its peak VmHWM) after that load.
//!
//! The rate limits are lifted for the run (`--rate-per-ip`, `--rate-per-token`).
//!
//! Run: `cargo bench --profile test --bench serve` (needs Docker with the bot image, and
//! `wrk`).

#[path = "support/league_fill.rs"]
mod league_fill;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Uploads timed.
const UPLOADS: usize = 5;

/// `mjai-sim ARGS`.
fn mjai_sim(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_mjai-sim"));
    c.args(args);
    c
}

/// A running server: its process and address.
struct Server {
    child: Child,
    addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
        let _ = self.child.wait();
    }
}

/// Starts `mjai-sim serve` on the store `db` with `extra` options and four built-in house
/// bots; returns once it says where it listens.
fn serve(db: &Path, work: &Path, extra: &[&str]) -> Server {
    let (db, work) = (db.display().to_string(), work.display().to_string());
    let mut args = vec!["serve", "--db", &db, "--listen", "127.0.0.1:0", "--work-dir", &work];
    args.extend(["--rate-per-ip", "1000000000", "--rate-per-token", "1000000000"]);
    args.extend(extra);
    args.extend(["builtin:rulebase", "builtin:tsumogiri", "tg=builtin:tsumogiri", "rb=builtin:rulebase"]);
    let mut child = mjai_sim(&args).stderr(Stdio::piped()).stdout(Stdio::null()).spawn().expect("mjai-sim runs");
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let addr = loop {
        let line = lines.next().expect("the server says where it listens").unwrap();
        if let Some(rest) = line.split("on http://").nth(1) {
            break rest.split_whitespace().next().unwrap().to_string();
        }
    };
    std::thread::spawn(move || lines.for_each(drop));
    Server { child, addr }
}

/// A new author's token.
fn author(db: &Path, name: &str) -> String {
    let out = mjai_sim(&["serve", "author", "add", name, "--db", &db.display().to_string()]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// The tsumogiri example as a zip.
fn tsumogiri_zip() -> Vec<u8> {
    use std::io::Write;
    let source = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/tsumogiri/bot.py")).unwrap();
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    w.start_file("bot.py", zip::write::SimpleFileOptions::default()).unwrap();
    w.write_all(&source).unwrap();
    w.finish().unwrap().into_inner()
}

/// Seconds from each upload to its verdict, with the verdict.
async fn upload_to_verdict(server: &Server, token: &str) -> Vec<(f64, String)> {
    let client = reqwest::Client::new();
    let mut out = Vec::new();
    for i in 0..UPLOADS {
        let name = format!("tg-{i}");
        let form = reqwest::multipart::Form::new()
            .text("name", name.clone())
            .part("file", reqwest::multipart::Part::bytes(tsumogiri_zip()).file_name("bot.zip"));
        let start = Instant::now();
        let up = client
            .post(format!("http://{}/api/bots", server.addr))
            .bearer_auth(token)
            .multipart(form)
            .send()
            .await
            .unwrap();
        assert_eq!(up.status().as_u16(), 202, "{}", up.text().await.unwrap_or_default());
        let status = loop {
            let page: serde_json::Value = client
                .get(format!("http://{}/api/bots/{name}", server.addr))
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            let status = page["entry"]["status"].as_str().unwrap_or("").to_string();
            if status != "validating" {
                break status;
            }
            assert!(start.elapsed() < Duration::from_secs(600), "no verdict in 10 minutes");
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        out.push((start.elapsed().as_secs_f64(), status));
    }
    out
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// `wrk` on `url` for 10 s: its summary lines (requests/s, latency).
fn wrk(url: &str) -> String {
    let out = Command::new("wrk")
        .args(["-t2", "-c8", "-d10s", "--latency", url])
        .output()
        .expect("wrk runs: apt-get install wrk (as root)");
    assert!(out.status.success(), "wrk failed: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    text.lines()
        .filter(|l| {
            ["Requests/sec", "Latency ", "50%", "99%", "Non-2xx", "Socket errors"].iter().any(|k| l.contains(k))
        })
        .map(str::trim)
        .collect::<Vec<_>>()
        .join("; ")
}

/// `VmRSS` and `VmHWM` of process `pid`, in MiB.
fn memory(pid: u32) -> (f64, f64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kib = |key: &str| -> f64 {
        let line = status.lines().find(|l| l.starts_with(key)).unwrap_or("0");
        line.split_whitespace().nth(1).and_then(|v| v.parse().ok()).unwrap_or(0.0)
    };
    (kib("VmRSS:") / 1024.0, kib("VmHWM:") / 1024.0)
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return; // `cargo test --benches` lists benches; nothing to list here
    }
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let load = load_average();
    println!("serve bench, load average {load}");

    // upload to verdict, in Docker
    let dir = tempfile::tempdir().unwrap();
    let (db, work) = (dir.path().join("serve.sqlite"), dir.path().join("work"));
    let token = author(&db, "bench");
    let server = serve(&db, &work, &["--jobs", "0", "--max-bots", "100", "--uploads-per-hour", "1000"]);
    let verdicts = runtime.block_on(upload_to_verdict(&server, &token));
    drop(server);
    for (s, status) in &verdicts {
        println!("upload to verdict: {s:.2} s ({status})");
    }
    println!("upload to verdict, median of {UPLOADS}: {:.2} s", median(verdicts.iter().map(|v| v.0).collect()));

    // wrk and memory on a large league
    let games: u64 = std::env::var("MJAI_SIM_BENCH_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(1_000_000);
    let big = tempfile::tempdir().unwrap();
    let (db, work) = (big.path().join("serve.sqlite"), big.path().join("work"));
    let started = Instant::now();
    let game = runtime.block_on(fill(&db, games));
    println!("filled and folded {games} games in {:.0} s", started.elapsed().as_secs_f64());
    let server = serve(&db, &work, &["--jobs", "0"]);
    let (rss, _) = memory(server.child.id());
    println!("server RSS at start on {games} games: {rss:.0} MiB");
    let url = |path: &str| format!("http://{}{path}", server.addr);
    println!("GET /api/leaderboard: {}", wrk(&url("/api/leaderboard")));
    println!("GET /api/games/{game}: {}", wrk(&url(&format!("/api/games/{game}"))));
    println!("GET /api/bots/bot0: {}", wrk(&url("/api/bots/bot0")));
    let (rss, hwm) = memory(server.child.id());
    println!("server RSS after the load: {rss:.0} MiB (peak {hwm:.0} MiB)");
}

/// `/proc/loadavg`'s first three fields.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .unwrap_or_default()
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The league `league` of `games` games in the SQLite file `db`, folded, with a self-played
/// hanchan's files stored as game 0's; returns that game's id.
async fn fill(db: &Path, games: u64) -> u64 {
    use mjai_sim::bots::{from_spec, selfplay};
    use std::io::Write;
    sqlx::any::install_default_drivers();
    let store = mjai_sim::tournament::store::Store::open(db).await.unwrap();
    let pool = sqlx::AnyPool::connect(&format!("sqlite:{}", db.display())).await.unwrap();
    let league = league_fill::fill(&store, &pool, "league", games).await;
    assert_eq!(league.aggregates().catch_up().await.unwrap(), games);
    let names = ["builtin:rulebase"; 4];
    let mut agents = names.map(|n| from_spec(n).unwrap());
    let game = selfplay::play(
        selfplay::series_config(5, 0, names.map(String::from)),
        &mut agents,
        &mut selfplay::IgnoreAnswers,
    )
    .unwrap();
    let log: String = game.log.iter().map(|e| e.to_json() + "\n").collect();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(log.as_bytes()).unwrap();
    sqlx::query("INSERT INTO game_files (t, game_idx, log_gz, summary, errors) VALUES ($1, 0, $2, '{}', '[]')")
        .bind(league.id())
        .bind(gz.finish().unwrap())
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    store.close().await;
    0
}
