//! Submission intake: accepted shapes and every rejection, with zips built in the test.

use crate::e2e_support::zip_of;
use std::io::Write;
use std::path::Path;

use mjai_sim::runtime::submission::{Submission, SubmissionError, SubmissionLimits};
use zip::write::SimpleFileOptions;

fn load(bytes: &[u8]) -> Result<Submission, SubmissionError> {
    Submission::from_zip_bytes(Path::new("t.zip"), bytes, &SubmissionLimits::default())
}

#[test]
fn accepts_zip_with_bot_py_at_root_and_keeps_modes() {
    let s = load(&zip_of(&[("bot.py", b"print(1)\n"), ("lib/x.so", b"\x7fELF")])).unwrap();
    let paths: Vec<&str> = s.files().iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["bot.py", "lib/x.so"]);
    assert_eq!(s.files()[1].mode, 0o755);
    assert_eq!(s.files()[0].len, 9);
    assert_eq!(std::fs::read(s.path_of(&s.files()[0])).unwrap(), b"print(1)\n");
}

#[test]
fn tar_holds_folders_and_files_with_owner() {
    let s = load(&zip_of(&[("bot.py", b"x"), ("a/b/c.txt", b"yz")])).unwrap();
    let tar_bytes = s.write_tar(Vec::new(), 1000, 1000).unwrap();
    let mut archive = tar::Archive::new(&tar_bytes[..]);
    let mut seen = Vec::new();
    for e in archive.entries().unwrap() {
        let e = e.unwrap();
        assert_eq!(e.header().uid().unwrap(), 1000);
        seen.push((e.path().unwrap().to_string_lossy().into_owned(), e.header().size().unwrap()));
    }
    assert_eq!(seen, [("a/".into(), 0), ("a/b/".into(), 0), ("a/b/c.txt".into(), 2), ("bot.py".into(), 1)]);
}

#[test]
fn folder_is_packed_and_unpacks_identically() {
    let src = tempfile::tempdir().unwrap();
    std::fs::write(src.path().join("bot.py"), "print(2)\n").unwrap();
    std::fs::create_dir(src.path().join("m")).unwrap();
    std::fs::write(src.path().join("m/w.bin"), [1u8, 2, 3]).unwrap();
    let s = Submission::load(src.path(), &SubmissionLimits::default()).unwrap();
    let out = tempfile::tempdir().unwrap();
    s.unpack_into(out.path()).unwrap();
    assert_eq!(std::fs::read(out.path().join("m/w.bin")).unwrap(), [1, 2, 3]);
    assert_eq!(std::fs::read_to_string(out.path().join("bot.py")).unwrap(), "print(2)\n");
}

#[test]
fn rejects_not_a_zip() {
    let err = load(b"this is plainly text, not an archive").unwrap_err();
    assert!(matches!(err, SubmissionError::NotZip { .. }), "{err}");
    assert!(err.to_string().contains("not a zip"));
    // in an author's words: no "EOCD" or "central directory" from the zip reader
    let text = err.to_string();
    assert!(
        text.contains("missing or damaged") && !text.contains("EOCD") && !text.contains("entral directory"),
        "{text}"
    );
}

#[test]
fn rejects_empty_file_and_empty_zip() {
    assert!(matches!(load(b"").unwrap_err(), SubmissionError::Empty { .. }));
    assert!(matches!(load(&zip_of(&[])).unwrap_err(), SubmissionError::Empty { .. }));
}

#[test]
fn rejects_missing_bot_py() {
    let err = load(&zip_of(&[("main.py", b"x")])).unwrap_err();
    assert!(matches!(err, SubmissionError::NoBotPy { .. }), "{err}");
}

#[test]
fn nested_bot_py_says_zip_the_contents() {
    let err = load(&zip_of(&[("mybot/bot.py", b"x"), ("mybot/w.bin", b"y")])).unwrap_err();
    assert!(err.to_string().contains("zip the folder's contents, not the folder"), "{err}");
    assert!(err.to_string().contains("mybot"));
}

#[test]
fn rejects_zip_slip() {
    for evil in ["../evil.py", "a/../../evil.py", "/etc/evil.py", "..\\evil.py"] {
        let err = load(&zip_of(&[("bot.py", b"x"), (evil, b"y")])).unwrap_err();
        assert!(matches!(err, SubmissionError::UnsafePath { .. }), "{evil}: {err}");
    }
}

#[test]
fn rejects_symlink_in_zip() {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    w.start_file("bot.py", SimpleFileOptions::default()).unwrap();
    w.write_all(b"x").unwrap();
    w.add_symlink("passwd", "/etc/passwd", SimpleFileOptions::default()).unwrap();
    let err = load(&w.finish().unwrap().into_inner()).unwrap_err();
    assert!(matches!(err, SubmissionError::Symlink { .. }), "{err}");
}

#[test]
fn rejects_symlink_in_folder() {
    let src = tempfile::tempdir().unwrap();
    std::fs::write(src.path().join("bot.py"), "x").unwrap();
    std::os::unix::fs::symlink("/etc/passwd", src.path().join("p")).unwrap();
    let err = Submission::load(src.path(), &SubmissionLimits::default()).unwrap_err();
    assert!(matches!(err, SubmissionError::Symlink { .. }), "{err}");
}

#[test]
fn rejects_long_names() {
    let long = format!("{}.py", "a".repeat(256));
    let err = load(&zip_of(&[("bot.py", b"x"), (long.as_str(), b"y")])).unwrap_err();
    assert!(matches!(err, SubmissionError::BadName { .. }), "{err}");
}

#[test]
fn rejects_archive_over_size_limit() {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    w.start_file("bot.py", SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored)).unwrap();
    w.write_all(&[7u8; 5000]).unwrap();
    let bytes = w.finish().unwrap().into_inner();
    let limits = SubmissionLimits { max_archive_bytes: 1000, ..Default::default() };
    let err = Submission::from_zip_bytes(Path::new("t.zip"), &bytes, &limits).unwrap_err();
    assert!(matches!(err, SubmissionError::TooLarge { .. }), "{err}");
    assert!(err.to_string().contains("--max-submission-mb"));
}

/// A zip with a one-byte `bot.py` and `bomb.bin` holding `size` zero bytes, deflated.
fn bomb_zip(size: usize) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let deflated = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    w.start_file("bot.py", deflated).unwrap();
    w.write_all(b"x").unwrap();
    w.start_file("bomb.bin", deflated).unwrap();
    w.write_all(&vec![0u8; size]).unwrap();
    w.finish().unwrap().into_inner()
}

#[test]
fn rejects_zip_bomb_by_counting_decompressed_bytes() {
    let bytes = bomb_zip(8 << 20);
    assert!(bytes.len() < 100_000, "the bomb compresses well");
    let limits = SubmissionLimits { max_unpacked_bytes: 1 << 20, ..Default::default() };
    let err = Submission::from_zip_bytes(Path::new("t.zip"), &bytes, &limits).unwrap_err();
    assert!(matches!(err, SubmissionError::TooLargeUnpacked { .. }), "{err}");
}

#[test]
fn lying_size_headers_do_not_let_a_bomb_through() {
    // Same bomb, with every recorded uncompressed size patched down to 10 bytes.
    let size = 4 << 20;
    let mut bytes = bomb_zip(size);
    let real = (size as u32).to_le_bytes();
    let mut patched = 0;
    for i in 0..bytes.len() - 4 {
        if bytes[i..i + 4] == real {
            bytes[i..i + 4].copy_from_slice(&10u32.to_le_bytes());
            patched += 1;
        }
    }
    assert_eq!(patched, 2, "local header and central directory");
    let limits = SubmissionLimits { max_unpacked_bytes: 1 << 20, ..Default::default() };
    let result = Submission::from_zip_bytes(Path::new("t.zip"), &bytes, &limits);
    let err = result.expect_err("a lying bomb must not be accepted");
    assert!(matches!(err, SubmissionError::TooLargeUnpacked { .. } | SubmissionError::Corrupt { .. }), "{err}");
}

#[test]
fn rejects_missing_path() {
    let err = Submission::load(Path::new("/nonexistent/bot.zip"), &SubmissionLimits::default()).unwrap_err();
    assert!(matches!(err, SubmissionError::Unreadable { .. }), "{err}");
}
