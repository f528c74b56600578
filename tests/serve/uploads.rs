//! Uploads up to the submission cap (issue 27, item 6): `POST /api/bots` takes zips of 2.1 MB,
//! 50 MB and 300 MB under the default cap (1,000 MiB: once, every upload over 2 MB got 413),
//! streams them to disk, and stores them whole (the stored bytes are the uploaded ones); at a
//! cap of 3 MiB a zip of exactly 3 MiB is accepted and one byte more is refused with 413.

use std::io::Write;

use super::support::{example_zip, spawn_server, Http, Server};

/// A zip holding the tsumogiri example as `bot.py` and `weights.bin` of `weights` bytes
/// that do not compress, stored (not deflated): about `weights` bytes long.
fn zip_with_weights(weights: usize) -> Vec<u8> {
    let bot = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/tsumogiri/bot.py")).unwrap();
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::with_capacity(weights + 4096)));
    let stored = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Stored)
        .large_file(weights >= u32::MAX as usize);
    w.start_file("bot.py", stored).unwrap();
    w.write_all(&bot).unwrap();
    w.start_file("weights.bin", stored).unwrap();
    // xorshift64: bytes that look random, made fast
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut block = vec![0u8; 1 << 16];
    let mut left = weights;
    while left > 0 {
        for b in block.chunks_mut(8) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            b.copy_from_slice(&x.to_le_bytes()[..b.len()]);
        }
        let n = left.min(block.len());
        w.write_all(&block[..n]).unwrap();
        left -= n;
    }
    w.finish().unwrap().into_inner()
}

/// A zip of exactly `len` bytes (the weights sized to fit).
fn zip_of_length(len: usize) -> Vec<u8> {
    let overhead = zip_with_weights(1000).len() - 1000;
    let zip = zip_with_weights(len - overhead);
    assert_eq!(zip.len(), len, "zip length");
    zip
}

/// The zip the store holds for version 1 of `name` (read from the server's SQLite file).
fn stored_zip(server: &Server, name: &str) -> Vec<u8> {
    let db = server.dir.path().join("serve.sqlite");
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let store = mjai_sim::tournament::store::Store::open(&db).await.unwrap();
        let versions = store.versions().of(name).await.unwrap();
        let v1 = versions.iter().find(|v| v.version == 1).expect("version 1 stored");
        store.blobs().submission(&v1.sha256).await.unwrap().expect("the zip is stored")
    })
}

#[test]
fn zips_of_2_50_and_300_mb_are_accepted_under_the_default_cap() {
    let server = spawn_server(&[]);
    let alice = server.author("alice", false);
    let http = Http::new();
    for (i, mb) in [2.1f64, 50.0, 300.0].into_iter().enumerate() {
        let zip = zip_with_weights((mb * 1e6) as usize);
        let len = zip.len();
        let name = format!("big{i}");
        let answer = http.upload(&server, Some(&alice), &name, zip.clone());
        assert_eq!(answer.status, 202, "{mb} MB ({len} bytes): {}", answer.body);
        assert_eq!(answer.json()["version"], 1);
        assert!(stored_zip(&server, &name) == zip, "{mb} MB: the stored zip is the uploaded one");
    }
    // the spooled files are gone (the store holds the zips)
    let left: Vec<_> = std::fs::read_dir(server.dir.path())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(".tmp") && e.path().is_file())
        .map(|e| e.file_name())
        .collect();
    assert!(left.is_empty(), "spooled uploads left in TMPDIR: {left:?}");
}

#[test]
fn at_a_cap_of_3_mib_exactly_3_mib_is_accepted_and_one_byte_more_is_413() {
    let server = spawn_server(&["--max-submission-mb", "3"]);
    let alice = server.author("alice", false);
    let http = Http::new();
    let cap = 3 << 20;
    let over = http.upload(&server, Some(&alice), "over", zip_of_length(cap + 1));
    assert_eq!(over.status, 413, "{}", over.body);
    assert!(over.json()["error"].as_str().unwrap_or_default().contains("3 MiB"), "{}", over.body);
    let at = http.upload(&server, Some(&alice), "at", zip_of_length(cap));
    assert_eq!(at.status, 202, "{}", at.body);
    // a small zip still goes through after both
    assert_eq!(http.upload(&server, Some(&alice), "small", example_zip("tsumogiri")).status, 202);
}
