//! The submission cache over an SQLite store: fetched once per host, bounded from both
//! sides of `--cache-mb`, damaged files fetched again, pieces joined exactly.

use std::io::Read;

use super::*;
use crate::store::{sha256_hex, CHUNK_BYTES};

/// `len` bytes that compress badly and differ per `seed`.
fn bytes(len: usize, seed: u8) -> Vec<u8> {
    let mut x = 0x9e37_79b9_u32 ^ seed as u32;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        })
        .collect()
}

async fn store(dir: &Path) -> Store {
    Store::open(&dir.join("store.sqlite")).await.unwrap()
}

fn read(mut file: fs::File) -> Vec<u8> {
    let mut out = Vec::new();
    file.read_to_end(&mut out).unwrap();
    out
}

#[tokio::test]
async fn a_submission_is_fetched_once_per_host() {
    let tmp = tempfile::tempdir().unwrap();
    let store = store(tmp.path()).await;
    let zip = bytes(10_000, 1);
    let sha = store.blobs().put_submission(&zip).await.unwrap();
    let cache = SubmissionCache::open(&tmp.path().join("cache"), 1 << 20).unwrap();
    for _game in 0..3 {
        assert_eq!(read(cache.open_zip(&store, &sha).await.unwrap().unwrap()), zip);
    }
    assert_eq!(cache.fetches(), 1, "three games, one fetch");
    // another process on the same host (same folder) finds it too
    let other = SubmissionCache::open(&tmp.path().join("cache"), 1 << 20).unwrap();
    assert_eq!(read(other.open_zip(&store, &sha).await.unwrap().unwrap()), zip);
    assert_eq!(other.fetches(), 0);
    // unknown: none, and nothing left in the folder but the one zip
    let missing = sha256_hex(b"never stored");
    assert!(cache.open_zip(&store, &missing).await.unwrap().is_none());
    let names: Vec<String> =
        fs::read_dir(cache.dir()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(names, [format!("{sha}.zip")]);
    // a key that is no sha256 never becomes a path
    let err = cache.open_zip(&store, "../../etc/passwd").await.unwrap_err().to_string();
    assert!(err.contains("not a sha256"), "{err}");
}

#[tokio::test]
async fn a_submission_of_several_pieces_round_trips_exactly() {
    let tmp = tempfile::tempdir().unwrap();
    let store = store(tmp.path()).await;
    let zip = bytes(2 * CHUNK_BYTES + 12_345, 2);
    let sha = store.blobs().put_submission(&zip).await.unwrap();
    let dest = tmp.path().join("out.zip");
    assert_eq!(store.blobs().write_submission(&sha, &dest).await.unwrap(), Some(zip.len() as u64));
    assert_eq!(sha256_file(&dest), sha);
    assert_eq!(fs::read(&dest).unwrap(), zip);
    let cache = SubmissionCache::open(&tmp.path().join("cache"), 1 << 30).unwrap();
    let linked = tmp.path().join("linked.zip");
    assert!(cache.link_into(&store, &sha, &linked).await.unwrap());
    assert_eq!(sha256_file(&linked), sha);
    assert_eq!(sha256_file(&cache.path_of(&sha)), sha);
}

fn sha256_file(path: &Path) -> String {
    crate::store::sha256_file(path).unwrap()
}

#[tokio::test]
async fn the_bound_keeps_a_total_just_under_it_and_evicts_one_just_over() {
    let tmp = tempfile::tempdir().unwrap();
    let store = store(tmp.path()).await;
    let (a, b) = (bytes(3000, 3), bytes(5000, 4));
    let sha_a = store.blobs().put_submission(&a).await.unwrap();
    let sha_b = store.blobs().put_submission(&b).await.unwrap();
    let total = (a.len() + b.len()) as u64;

    // exactly at the bound: both stay
    let at = SubmissionCache::open(&tmp.path().join("at"), total).unwrap();
    at.open_zip(&store, &sha_a).await.unwrap().unwrap();
    at.open_zip(&store, &sha_b).await.unwrap().unwrap();
    assert!(at.path_of(&sha_a).exists() && at.path_of(&sha_b).exists());

    // one byte under the total: the least recently used (a) goes, b just used stays
    let over = SubmissionCache::open(&tmp.path().join("over"), total - 1).unwrap();
    over.open_zip(&store, &sha_a).await.unwrap().unwrap();
    over.open_zip(&store, &sha_b).await.unwrap().unwrap();
    assert!(!over.path_of(&sha_a).exists(), "a is evicted");
    assert!(over.path_of(&sha_b).exists());
    // using a again fetches it again and evicts b, now the least recently used
    over.open_zip(&store, &sha_a).await.unwrap().unwrap();
    assert_eq!(over.fetches(), 3);
    assert!(over.path_of(&sha_a).exists() && !over.path_of(&sha_b).exists());

    // a zip over the bound on its own is kept while it is the one in use
    let tiny = SubmissionCache::open(&tmp.path().join("tiny"), 1).unwrap();
    assert_eq!(read(tiny.open_zip(&store, &sha_b).await.unwrap().unwrap()), b);
    assert!(tiny.path_of(&sha_b).exists());
}

#[tokio::test]
async fn a_damaged_cached_file_is_detected_and_fetched_again() {
    let tmp = tempfile::tempdir().unwrap();
    let store = store(tmp.path()).await;
    let zip = bytes(20_000, 5);
    let sha = store.blobs().put_submission(&zip).await.unwrap();
    let cache = SubmissionCache::open(&tmp.path().join("cache"), 1 << 20).unwrap();
    cache.open_zip(&store, &sha).await.unwrap().unwrap();
    // one byte flipped on disk, same length
    let mut damaged = zip.clone();
    damaged[7_777] ^= 0x40;
    fs::write(cache.path_of(&sha), &damaged).unwrap();
    assert_eq!(read(cache.open_zip(&store, &sha).await.unwrap().unwrap()), zip);
    assert_eq!(cache.fetches(), 2, "fetched again");
    assert_eq!(fs::read(cache.path_of(&sha)).unwrap(), zip, "repaired on disk");
    // cut short (a crash mid-copy by hand): the same
    fs::write(cache.path_of(&sha), &zip[..100]).unwrap();
    assert_eq!(read(cache.open_zip(&store, &sha).await.unwrap().unwrap()), zip);
    assert_eq!(cache.fetches(), 3);
}

#[tokio::test]
async fn a_cache_folder_others_can_read_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("open");
    fs::create_dir(&dir).unwrap();
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
    let err = SubmissionCache::open(&dir, 1).unwrap_err().to_string();
    assert!(err.contains("not a private folder") && err.contains("--cache-dir"), "{err}");
}
