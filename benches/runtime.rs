//! Runtime figures: time from "start four seats" to all four ready (and answering), and the
//! round trip of one event line through each transport with a trivial echo bot.
//! Needs Docker and the bot image (`mjai-sim image build`). Run: `cargo bench --bench runtime`.
//! Floors measured on this machine kind: ~0.5 s from a fresh container to a first answer,
//! ~0.44 ms per line through `docker run -i`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::Criterion;
use mjai_sim::runtime::docker::{DockerOptions, Transport};
use mjai_sim::runtime::launcher::{SeatSpec, SubmissionLauncher};
use mjai_sim::runtime::process::ProcessOptions;
use mjai_sim::runtime::submission::{Submission, SubmissionLimits};
use mjai_sim::runtime::Bot;

const ECHO_BOT: &str = "import sys\nfor line in sys.stdin:\n    sys.stdout.write(line)\n    sys.stdout.flush()\n";
const LINE: &str = r#"[{"type":"tsumo","actor":0,"pai":"5mr"},{"type":"dahai","actor":0,"pai":"E","tsumogiri":false}]"#;
const T: Duration = Duration::from_secs(10);

fn echo_submission() -> Arc<Submission> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bot.py"), ECHO_BOT).unwrap();
    Arc::new(Submission::load(dir.path(), &SubmissionLimits::default()).unwrap())
}

fn seats(sub: &Arc<Submission>, logs: &std::path::Path) -> [SeatSpec; 4] {
    std::array::from_fn(|n| SeatSpec { submission: sub.clone(), stderr_log: logs.join(format!("{n}.txt")) })
}

async fn launcher(kind: &str) -> SubmissionLauncher {
    match kind {
        "process" => SubmissionLauncher::process(ProcessOptions::default()),
        "docker-stdio" => {
            SubmissionLauncher::docker(DockerOptions::default()).await.expect("Docker and the image are needed")
        }
        _ => SubmissionLauncher::docker(DockerOptions { transport: Transport::Http, ..Default::default() })
            .await
            .unwrap(),
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// Start four seats, then one answer from each: median over `runs`.
async fn startup(kind: &str, runs: usize) {
    let sub = echo_submission();
    let logs = tempfile::tempdir().unwrap();
    let launcher = launcher(kind).await;
    let (mut ready, mut answered) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        let t0 = Instant::now();
        let mut bots = launcher.launch(seats(&sub, logs.path())).await.unwrap();
        ready.push(t0.elapsed());
        futures_util::future::join_all(bots.iter_mut().map(|b| b.exchange(LINE, T))).await;
        answered.push(t0.elapsed());
        futures_util::future::join_all(bots.iter_mut().map(|b| b.stop())).await;
    }
    ready.sort();
    answered.sort();
    println!(
        "{kind:>13}: four seats ready in {:.3} s, all four answered in {:.3} s (median of {runs})",
        percentile(&ready, 0.5).as_secs_f64(),
        percentile(&answered, 0.5).as_secs_f64()
    );
}

/// Round trip of one line: median and p99 over `n` lines.
async fn round_trip(kind: &str, n: usize) -> Box<dyn Bot> {
    let sub = echo_submission();
    let logs = tempfile::tempdir().unwrap();
    let launcher = launcher(kind).await;
    let mut bot = launcher.start_seat(0, &seats(&sub, logs.path())[0]).await.unwrap();
    for _ in 0..50 {
        bot.exchange(LINE, T).await.unwrap();
    }
    let mut samples: Vec<Duration> = Vec::with_capacity(n);
    for _ in 0..n {
        let t0 = Instant::now();
        let answer = bot.exchange(LINE, T).await.unwrap();
        samples.push(t0.elapsed());
        assert_eq!(answer, LINE);
    }
    samples.sort();
    println!(
        "{kind:>13}: one line round trip median {:.3} ms, p99 {:.3} ms ({n} lines)",
        percentile(&samples, 0.5).as_secs_f64() * 1e3,
        percentile(&samples, 0.99).as_secs_f64() * 1e3
    );
    bot
}

fn main() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let mut criterion = Criterion::default().configure_from_args().measurement_time(Duration::from_secs(3));
    for kind in ["process", "docker-stdio", "docker-http"] {
        rt.block_on(startup(kind, 5));
        let mut bot = rt.block_on(round_trip(kind, 2000));
        criterion
            .bench_function(&format!("round trip {kind}"), |b| b.iter(|| rt.block_on(bot.exchange(LINE, T)).unwrap()));
        rt.block_on(bot.stop());
    }
    criterion.final_summary();
}
