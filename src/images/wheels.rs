//! The Python wheels of the image: found by sha256 in a folder on the host, downloaded there with
//! `pip download` when missing (the image build itself never reaches a registry).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::error::ImageError;
use super::requirements::{parse_requirements, Requirement};
use super::ProgressLine;

/// For each requirement, the wheel in `dir` whose sha256 is one of its hashes; `Err` lists the
/// requirements (`name==version`) without one. Only `*.whl` files whose name starts with a
/// requirement's project name are hashed (streamed: a 750 MB torch wheel is not read into
/// memory, and the ml image's wheels beside the default image's cost nothing).
pub fn match_wheels(dir: &Path, reqs: &[Requirement]) -> Result<Result<Vec<PathBuf>, Vec<String>>, std::io::Error> {
    let mut files = Vec::new();
    if dir.is_dir() {
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            if path.extension().is_some_and(|e| e == "whl") && path.is_file() {
                files.push(path);
            }
        }
    }
    files.sort();
    let mut digests: HashMap<PathBuf, String> = HashMap::new();
    let mut found = Vec::new();
    let mut missing = Vec::new();
    for r in reqs {
        let project = normalized(r.spec.split("==").next().unwrap_or_default());
        let mut hit = None;
        for path in files.iter().filter(|p| distribution(p).is_some_and(|d| d == project)) {
            let digest = match digests.get(path) {
                Some(d) => d.clone(),
                None => {
                    let d = sha256_of_file(path)?;
                    digests.insert(path.clone(), d.clone());
                    d
                }
            };
            if r.hashes.contains(&digest) {
                hit = Some(path.clone());
                break;
            }
        }
        match hit {
            Some(p) => found.push(p),
            None => missing.push(r.spec.clone()),
        }
    }
    Ok(if missing.is_empty() { Ok(found) } else { Err(missing) })
}

/// A project name as wheel file names spell it: lower case, `-` and `.` as `_` (PEP 427).
fn normalized(name: &str) -> String {
    name.to_ascii_lowercase().replace(['-', '.'], "_")
}

/// The distribution part of a wheel's file name (before the first `-`), normalized.
fn distribution(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_string_lossy().into_owned();
    Some(normalized(name.split('-').next()?))
}

/// Hex sha256 of a file, read in pieces.
pub(super) fn sha256_of_file(path: &Path) -> std::io::Result<String> {
    let mut hasher = Sha256::new();
    std::io::copy(&mut std::fs::File::open(path)?, &mut hasher)?;
    Ok(hex::encode(hasher.finalize()))
}

/// Returns the wheels for `requirements` (the text of a hash-pinned requirements file:
/// docker/requirements.txt or docker/requirements-ml.txt) from `dir`, first running
/// `python3 -m pip download` into `dir` when some are missing and `download` is true.
/// Errors: [`ImageError::MissingWheels`] naming the missing packages and how to supply them.
pub async fn ensure_wheels(
    requirements: &str,
    dir: &Path,
    download: bool,
    progress: ProgressLine<'_>,
) -> Result<Vec<PathBuf>, ImageError> {
    let reqs = parse_requirements(requirements);
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
    if let Err(cause) = pip_download(requirements, dir).await {
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
async fn pip_download(requirements: &str, dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let req_file = tempfile::NamedTempFile::new().map_err(|e| format!("temp file: {e}"))?;
    std::fs::write(req_file.path(), requirements).map_err(|e| format!("temp file: {e}"))?;
    let out = tokio::process::Command::new("python3")
        .args(["-m", "pip", "download", "--quiet", "--disable-pip-version-check"])
        .args(["--only-binary=:all:", "--python-version", "3.11", "--implementation", "cp"])
        // torch 2.2.2 and the CUDA wheels it needs are tagged manylinux1
        .args(["--platform", "manylinux2014_x86_64", "--platform", "manylinux1_x86_64"])
        .args(["--no-deps", "--require-hashes", "-r"])
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
    fn match_wheels_compares_names_as_wheels_spell_them() {
        let dir = tempfile::tempdir().unwrap();
        // `printf 'wheel a' | sha256sum`
        let a = "94448f550c3b7e34fd4e9ef11ace01adc7ee90d6bccfb0efe6f35f09bfe15cce";
        std::fs::write(dir.path().join("Charset_Normalizer-3.5-py3-none-any.whl"), b"wheel a").unwrap();
        std::fs::write(dir.path().join("other-1.0-py3-none-any.whl"), b"wheel a").unwrap();
        let wanted = |spec: &str| vec![Requirement { spec: spec.into(), hashes: vec![a.into()] }];
        let got = match_wheels(dir.path(), &wanted("charset-normalizer==3.5")).unwrap().unwrap();
        assert!(got[0].ends_with("Charset_Normalizer-3.5-py3-none-any.whl"), "{got:?}");
        // the right bytes under another project's name are not taken
        let got = match_wheels(dir.path(), &wanted("charset==3.5")).unwrap();
        assert_eq!(got, Err(vec!["charset==3.5".to_string()]));
    }

    #[test]
    fn match_wheels_on_a_missing_folder_reports_everything_missing() {
        let reqs = vec![Requirement { spec: "a==1".into(), hashes: vec!["00".into()] }];
        let got = match_wheels(Path::new("/nonexistent/mjai-sim-wheels"), &reqs).unwrap();
        assert_eq!(got, Err(vec!["a==1".to_string()]));
    }
}
