//! The build context (Dockerfile, requirements.txt, relay.py, wheels/) as an in-memory tar, and
//! the classic-builder `docker build` through the API with its output as progress.

use std::collections::HashMap;
use std::path::PathBuf;

use bollard::query_parameters::{BuildImageOptions, BuildImageOptionsBuilder};
use bollard::Docker;
use futures_util::StreamExt;

use super::error::ImageError;
use super::ProgressLine;
use mjai_sim_runtime::docker::image::inputs::context_files;

/// Label on the bot image naming its base image (set through the build API: one build step).
pub const LABEL_BASE: &str = "org.mjai-sim.base";

/// The context tar: the embedded docker/ files at its root and `wheels/<file name>` for each
/// wheel, all owned by root with mode 0644.
pub fn context_tar(wheels: &[PathBuf]) -> std::io::Result<Vec<u8>> {
    let mut b = tar::Builder::new(Vec::new());
    let add = |b: &mut tar::Builder<Vec<u8>>, name: &str, bytes: &[u8]| {
        let mut h = tar::Header::new_gnu();
        h.set_size(bytes.len() as u64);
        h.set_mode(0o644);
        h.set_mtime(0);
        h.set_cksum();
        b.append_data(&mut h, name, bytes)
    };
    for (name, text) in context_files() {
        add(&mut b, name, text.as_bytes())?;
    }
    for w in wheels {
        let file_name =
            w.file_name().ok_or_else(|| std::io::Error::other(format!("{} has no file name", w.display())))?;
        let bytes = std::fs::read(w)?;
        add(&mut b, &format!("wheels/{}", file_name.to_string_lossy()), &bytes)?;
    }
    b.into_inner()
}

/// Builds `tag` from `context` on `base` with the classic builder, network off during RUN steps.
/// `no_cache` rebuilds every step. Build output lines go to `progress`.
pub async fn docker_build(
    docker: &Docker,
    tag: &str,
    base: &str,
    context: Vec<u8>,
    no_cache: bool,
    progress: ProgressLine<'_>,
) -> Result<(), ImageError> {
    let body = futures_util::stream::once(async move { Ok(bytes::Bytes::from(context)) });
    docker_build_stream(docker, tag, base, body, &[], no_cache, progress).await
}

/// [`docker_build`] with the context as a stream of tar bytes (a file read in chunks) and
/// `labels` added to [`LABEL_BASE`].
pub async fn docker_build_stream(
    docker: &Docker,
    tag: &str,
    base: &str,
    context: impl futures_util::Stream<Item = std::io::Result<bytes::Bytes>> + Send + 'static,
    labels: &[(&str, &str)],
    no_cache: bool,
    progress: ProgressLine<'_>,
) -> Result<(), ImageError> {
    let mut all = HashMap::from([(LABEL_BASE.to_string(), base.to_string())]);
    all.extend(labels.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    let options: BuildImageOptions = BuildImageOptionsBuilder::default()
        .dockerfile("Dockerfile")
        .t(tag)
        .rm(true)
        .forcerm(true)
        .nocache(no_cache)
        .networkmode("none")
        .buildargs(&HashMap::from([("BASE_IMAGE".to_string(), base.to_string())]))
        .labels(&all)
        .build();
    let mut stream = docker.build_image(options, None, Some(bollard::body_try_stream(context)));
    while let Some(item) = stream.next().await {
        match item {
            Ok(info) => {
                if let Some(text) = info.stream {
                    for line in text.lines().map(strip_ansi).filter(|l| !l.trim().is_empty()) {
                        progress(&format!("build: {line}"));
                    }
                }
            }
            Err(bollard::errors::Error::DockerStreamError { error }) => {
                return Err(ImageError::Build { image: tag.to_string(), cause: error.trim().to_string() })
            }
            Err(e) => return Err(ImageError::docker(format!("build of {tag}"))(e)),
        }
    }
    Ok(())
}

/// The line without ANSI colour sequences (`ESC [ ... letter`) and trailing blanks.
fn strip_ansi(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out.trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn context_holds_the_docker_files_and_the_wheels_under_wheels() {
        let dir = tempfile::tempdir().unwrap();
        let wheel = dir.path().join("x-1.0-py3-none-any.whl");
        std::fs::write(&wheel, b"zip bytes").unwrap();
        let tar_bytes = context_tar(&[wheel]).unwrap();
        let mut archive = tar::Archive::new(&tar_bytes[..]);
        let mut got = Vec::new();
        for e in archive.entries().unwrap() {
            let mut e = e.unwrap();
            let mut body = String::new();
            e.read_to_string(&mut body).unwrap();
            got.push((e.path().unwrap().to_string_lossy().to_string(), body.len()));
            if e.path().unwrap().to_str() == Some("Dockerfile") {
                assert!(body.contains("FROM ${BASE_IMAGE}"));
            }
        }
        let names: Vec<&str> = got.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["Dockerfile", "requirements.txt", "relay.py", "batch.py", "wheels/x-1.0-py3-none-any.whl"]);
        assert_eq!(got[3].1, mjai_sim_runtime::batch::BATCH_PY.len(), "mjai_sim.batch for batched bots");
        assert_eq!(got[4].1, 9);
    }

    #[test]
    fn strip_ansi_removes_colour_sequences() {
        assert_eq!(strip_ansi("\u{1b}[91mWARNING: x\u{1b}[0m  "), "WARNING: x");
        assert_eq!(strip_ansi("plain"), "plain");
    }
}
