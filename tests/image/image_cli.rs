//! `mjai-sim image` from the outside: the reference it prints, and its one-line errors when the
//! daemon is unreachable or wheels are missing offline.

use std::process::Command;

fn mjai_sim(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_mjai-sim"));
    cmd.args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run mjai-sim");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

#[test]
fn image_name_prints_the_hash_tagged_reference() {
    let (code, out, _) = mjai_sim(&["image", "name"], &[]);
    assert_eq!(code, 0);
    let reference = out.trim();
    assert_eq!(reference, mjai_sim::runtime::docker::image::default_image());
    let tag = reference.strip_prefix("mjai-sim-bot:").expect("repository mjai-sim-bot");
    assert_eq!(tag.len(), 12);
    assert!(tag.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)), "{tag}");
}

#[test]
fn unreachable_daemon_is_one_line_naming_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let host = format!("unix://{}/no-docker.sock", dir.path().display());
    for args in [&["image", "status"][..], &["image", "build"][..]] {
        let (code, _, err) = mjai_sim(args, &[("DOCKER_HOST", &host)]);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("cannot reach the Docker daemon"), "{args:?}: {err}");
        assert!(err.contains("DOCKER_HOST"), "{args:?}: {err}");
    }
}

/// Needs the Docker daemon (the build connects first); builds nothing.
#[test]
fn offline_build_without_wheels_names_the_missing_packages() {
    let empty = tempfile::tempdir().unwrap();
    let wheels = empty.path().to_str().unwrap();
    let (code, _, err) = mjai_sim(&["image", "build", "--force", "--offline", "--wheels", wheels], &[]);
    assert_eq!(code, 1, "{err}");
    let line = err.lines().last().unwrap_or_default();
    assert!(line.starts_with("mjai-sim: missing wheels in"), "{err}");
    for pkg in ["mjai==0.2.1", "mahjong==1.2.1", "numpy==", "loguru==", "requests=="] {
        assert!(line.contains(pkg), "{pkg} not named: {line}");
    }
    assert!(line.contains("pip download"), "no fix given: {line}");
}
