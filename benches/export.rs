//! tenhou.net/6 export time per hanchan (target: at most 5 ms): the 100 hanchans of Mortal's
//! arena in `tests/data/mortal-arena-100.tar.xz`, each exported and serialised to JSON.
//! One iteration exports all 100; criterion's time divided by 100 is the time per hanchan.

use std::io::Read;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use mjai_sim::engine::event::Event;
use mjai_sim::export::tenhou6::export;

fn games() -> Vec<Vec<Event>> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/mortal-arena-100.tar.xz");
    let file = std::fs::File::open(&path).expect("the fixture is part of the repository");
    let mut tar_bytes = Vec::new();
    lzma_rs::xz_decompress(&mut std::io::BufReader::new(file), &mut tar_bytes).expect("valid xz");
    let mut out = Vec::new();
    for entry in tar::Archive::new(&tar_bytes[..]).entries().expect("tar") {
        let mut entry = entry.expect("entry");
        let mut text = String::new();
        entry.read_to_string(&mut text).expect("utf-8");
        let events: Vec<Event> =
            text.lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).expect("event")).collect();
        if !events.is_empty() {
            out.push(events);
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let games = games();
    let mut g = c.benchmark_group("export");
    g.throughput(Throughput::Elements(games.len() as u64));
    g.sample_size(10);
    g.bench_function("tenhou6 100 hanchans", |b| {
        b.iter(|| {
            let mut bytes = 0;
            for log in &games {
                let game = export(log, &[]).expect("reference games export");
                bytes += serde_json::to_string(&game).expect("serialises").len();
            }
            bytes
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
