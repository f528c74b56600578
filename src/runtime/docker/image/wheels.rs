//! The Python wheels of the image: found by sha256 in a folder on the host, downloaded there with
//! `pip download` when missing (the image build itself never reaches a registry).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::error::ImageError;
use super::inputs::{parse_requirements, Requirement, REQUIREMENTS};
use super::Progress;

/// For each requirement, the wheel in `dir` whose sha256 is one of its hashes; `Err` lists the
/// requirements (`name==version`) without one. Files other than `*.whl` are ignored.
pub fn match_wheels(dir: &Path, reqs: &[Requirement]) -> Result<Result<Vec<PathBuf>, Vec<String>>, std::io::Error> {
    let mut by_hash: HashMap<String, PathBuf> = HashMap::new();
    if dir.is_dir() {
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            if path.extension().is_some_and(|e| e == "whl") && path.is_file() {
                let bytes = std::fs::read(&path)?;
                by_hash.insert(hex::encode(Sha256::digest(&bytes)), path);
            }
        }
    }
    let mut found = Vec::new();
    let mut missing = Vec::new();
    for r in reqs {
        match r.hashes.iter().find_map(|h| by_hash.get(h)) {
            Some(p) => found.push(p.clone()),
            None => missing.push(r.spec.clone()),
        }
    }
    Ok(if missing.is_empty() { Ok(found) } else { Err(missing) })
}

/// Returns the wheels for docker/requirements.txt from `dir`, first running
/// `python3 -m pip download` into `dir` when some are missing and `download` is true.
/// Errors: [`ImageError::MissingWheels`] naming the missing packages and how to supply them.
pub async fn ensure_wheels(dir: &Path, download: bool, progress: Progress<'_>) -> Result<Vec<PathBuf>, ImageError> {
    let reqs = parse_requirements(REQUIREMENTS);
    let missing = match scan(dir, &reqs).await? {
        Ok(found) => return Ok(found),
        Err(missing) => missing,
    };
    let missing_error = |missing: &[String], cause: String| ImageError::MissingWheels {
        dir: dir.to_path_buf(),
        missing: missing.join(", "),
        cause,
    };
    if !download {
        return Err(missing_error(&missing, "downloading disabled".into()));
    }
    progress(&format!("wheels: downloading {} with pip into {}", missing.join(" "), dir.display()));
    if let Err(cause) = pip_download(dir).await {
        return Err(missing_error(&missing, cause));
    }
    match scan(dir, &reqs).await? {
        Ok(found) => Ok(found),
        Err(still) => Err(missing_error(&still, "pip download did not produce them".into())),
    }
}

async fn scan(dir: &Path, reqs: &[Requirement]) -> Result<Result<Vec<PathBuf>, Vec<String>>, ImageError> {
    let (d, r) = (dir.to_path_buf(), reqs.to_vec());
    tokio::task::spawn_blocking(move || match_wheels(&d, &r))
        .await
        .map_err(|e| ImageError::io("hashing wheels")(std::io::Error::other(e)))?
        .map_err(ImageError::io(format!("reading wheels in {}", dir.display())))
}

/// Runs pip download for the pinned requirements; `Err` holds a one-line cause.
async fn pip_download(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let req_file = tempfile::NamedTempFile::new().map_err(|e| format!("temp file: {e}"))?;
    std::fs::write(req_file.path(), REQUIREMENTS).map_err(|e| format!("temp file: {e}"))?;
    let out = tokio::process::Command::new("python3")
        .args(["-m", "pip", "download", "--quiet", "--disable-pip-version-check"])
        .args(["--only-binary=:all:", "--python-version", "3.11", "--implementation", "cp"])
        .args(["--platform", "manylinux2014_x86_64", "--no-deps", "--require-hashes", "-r"])
        .arg(req_file.path())
        .arg("-d")
        .arg(dir)
        .stdin(std::process::Stdio::null())
        .output()
        .await
        .map_err(|e| format!("cannot run `python3 -m pip`: {e}"))?;
    if out.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    let last = stderr.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("no output");
    Err(format!("pip download failed ({}): {}", out.status, last.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn match_wheels_finds_by_hash_and_names_the_missing() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a-1.0-py3-none-any.whl"), b"wheel a").unwrap();
        std::fs::write(dir.path().join("notes.txt"), b"wheel b").unwrap();
        // Digests computed outside the code under test: `printf 'wheel a' | sha256sum`.
        let a = "94448f550c3b7e34fd4e9ef11ace01adc7ee90d6bccfb0efe6f35f09bfe15cce";
        let b = "ddfcc032ed207e55291864cb9ef5b422729d830854b9d34c3e13a423139671c5";
        let reqs = vec![
            Requirement { spec: "a==1.0".into(), hashes: vec!["00".into(), a.into()] },
            Requirement { spec: "b==2.0".into(), hashes: vec![b.into()] },
        ];
        let got = match_wheels(dir.path(), &reqs).unwrap();
        assert_eq!(got, Err(vec!["b==2.0".to_string()]));
        std::fs::write(dir.path().join("b-2.0-py3-none-any.whl"), b"wheel b").unwrap();
        let got = match_wheels(dir.path(), &reqs).unwrap().unwrap();
        assert_eq!(got.len(), 2);
        assert!(got[0].ends_with("a-1.0-py3-none-any.whl"));
    }

    #[test]
    fn match_wheels_on_a_missing_folder_reports_everything_missing() {
        let reqs = vec![Requirement { spec: "a==1".into(), hashes: vec!["00".into()] }];
        let got = match_wheels(Path::new("/nonexistent/mjai-sim-wheels"), &reqs).unwrap();
        assert_eq!(got, Err(vec!["a==1".to_string()]));
    }
}
