//! The ml image (`mjai-sim image build --ml`, `--image ml`): the default bot image plus
//! mjai.app's machine-learning pins, torch 2.2.2 and numpy 1.26.4 (its docker/requirements.txt),
//! with the wheels torch needs (PyPI's Linux wheel brings its CUDA libraries: about 2.5 GB
//! downloaded, 5 GB installed).
//!
//! Made without a Dockerfile so that the 2.5 GB of wheels never become a layer of the image:
//! a container of the default image runs [`ML_RECIPE`] as root with networking off, the wheel
//! folder of the host bind-mounted read-only at `/wheels`, then is committed as
//! `mjai-sim-bot-ml:<tag>` with the default image's user, folder and command. The build needs
//! the Docker daemon on this host (the wheel folder is bind-mounted).

use std::collections::HashMap;
use std::path::Path;

use bollard::models::{ContainerConfig, ContainerCreateBody, HostConfig, Mount, MountType};
use bollard::query_parameters::{
    CommitContainerOptionsBuilder, CreateContainerOptions, LogsOptionsBuilder, RemoveContainerOptionsBuilder,
    WaitContainerOptions,
};
use bollard::Docker;
use futures_util::StreamExt;

use super::context::LABEL_BASE;
use super::error::ImageError;
use mjai_sim_runtime::docker::image::inputs::{ML_RECIPE, REQUIREMENTS_ML};
use mjai_sim_runtime::docker::image::{ml_image, BOT_DIR, RELAY_PATH};

/// The build container's name: one build at a time; a build killed midway (Ctrl-C) leaves
/// it behind, and the next build removes it.
pub const BUILD_CONTAINER: &str = "mjai-sim-ml-build";

/// Removes a build container left by a killed build; a running one is another build.
async fn remove_stale_build(docker: &Docker) -> Result<(), ImageError> {
    let info = match docker.inspect_container(BUILD_CONTAINER, None).await {
        Ok(info) => info,
        Err(bollard::errors::Error::DockerResponseServerError { status_code: 404, .. }) => return Ok(()),
        Err(e) => return Err(ImageError::docker(format!("inspect of {BUILD_CONTAINER}"))(e)),
    };
    if info.state.and_then(|s| s.running) == Some(true) {
        return Err(ImageError::Build {
            image: ml_image(),
            cause: format!(
                "another build of the ml image is running (container {BUILD_CONTAINER}); wait for it, \
                 or stop it with `docker rm -f {BUILD_CONTAINER}`"
            ),
        });
    }
    remove_build_container(docker).await.map_err(ImageError::docker(format!("removal of {BUILD_CONTAINER}")))
}

/// Force-removes [`BUILD_CONTAINER`] with its anonymous volumes.
async fn remove_build_container(docker: &Docker) -> Result<(), bollard::errors::Error> {
    let remove = RemoveContainerOptionsBuilder::default().force(true).v(true).build();
    docker.remove_container(BUILD_CONTAINER, Some(remove)).await
}

/// What the build container runs after [`ML_RECIPE`]: the packages import, and numpy is
/// mjai.app's 1.26.4 (not the default image's 2.x).
const CHECK: &str = "python3 -c 'import torch, numpy, pyarrow, mjai, mahjong, loguru; \
    assert numpy.__version__ == \"1.26.4\", numpy.__version__; print(\"torch\", torch.__version__)'";

/// Builds `image` from `base` (the default image, present) with the ml wheels in `wheel_dir`:
/// runs the recipe in a container, commits it, removes the container whatever happens.
/// Errors: [`ImageError::Build`] with the last lines pip printed; Docker API errors.
pub(super) async fn commit_ml_image(
    docker: &Docker,
    image: &str,
    base: &str,
    wheel_dir: &Path,
    progress: super::ProgressLine<'_>,
) -> Result<(), ImageError> {
    let requirements = tempfile::tempdir().map_err(ImageError::io("creating a temporary folder"))?;
    let req_file = requirements.path().join("requirements.txt");
    std::fs::write(&req_file, REQUIREMENTS_ML).map_err(ImageError::io(format!("writing {}", req_file.display())))?;
    let body = build_container(base, wheel_dir, requirements.path());
    remove_stale_build(docker).await?;
    let create = CreateContainerOptions { name: Some(BUILD_CONTAINER.to_string()), platform: "linux/amd64".into() };
    let id = docker
        .create_container(Some(create), body)
        .await
        .map_err(ImageError::docker("create of the ml build container"))?
        .id;
    let result = run_and_commit(docker, &id, image, base, progress).await;
    if let Err(e) = remove_build_container(docker).await {
        progress(&format!("warning: could not remove the build container {BUILD_CONTAINER}: {e}"));
    }
    result
}

/// The build container: root, no network, the wheels and the requirements read-only.
fn build_container(base: &str, wheel_dir: &Path, requirements: &Path) -> ContainerCreateBody {
    let bind = |source: &Path, target: &str| Mount {
        source: Some(source.display().to_string()),
        target: Some(target.to_string()),
        typ: Some(MountType::BIND),
        read_only: Some(true),
        ..Default::default()
    };
    ContainerCreateBody {
        image: Some(base.to_string()),
        user: Some("0:0".into()),
        working_dir: Some("/".into()),
        entrypoint: Some(vec![]),
        cmd: Some(vec!["sh".into(), "-c".into(), format!("set -e; {ML_RECIPE}; {CHECK}")]),
        network_disabled: Some(true),
        host_config: Some(HostConfig {
            network_mode: Some("none".into()),
            mounts: Some(vec![bind(wheel_dir, "/wheels"), bind(requirements, "/wheels-requirements")]),
            ..Default::default()
        }),
        ..Default::default()
    }
}

async fn run_and_commit(
    docker: &Docker,
    id: &str,
    image: &str,
    base: &str,
    progress: super::ProgressLine<'_>,
) -> Result<(), ImageError> {
    docker.start_container(id, None).await.map_err(ImageError::docker("start of the ml build container"))?;
    let logs = LogsOptionsBuilder::default().follow(true).stdout(true).stderr(true).build();
    let mut stream = docker.logs(id, Some(logs));
    let mut tail: Vec<String> = Vec::new();
    // bounded: the stream ends when the container exits (pip on local wheels).
    while let Some(item) = stream.next().await {
        let Ok(chunk) = item else { break };
        for line in chunk.to_string().lines().filter(|l| !l.trim().is_empty()) {
            progress(&format!("build: {}", line.trim_end()));
            tail.push(line.trim_end().to_string());
            if tail.len() > 5 {
                tail.remove(0);
            }
        }
    }
    let mut wait = docker.wait_container(id, None::<WaitContainerOptions>);
    let code = match wait.next().await {
        Some(Ok(r)) => r.status_code,
        Some(Err(bollard::errors::Error::DockerContainerWaitError { code, .. })) => code,
        Some(Err(e)) => return Err(ImageError::docker("wait for the ml build container")(e)),
        None => -1,
    };
    if code != 0 {
        return Err(ImageError::Build {
            image: image.to_string(),
            cause: format!("exit {code}: {}", tail.join(" | ")),
        });
    }
    let (repo, tag) = image.split_once(':').unwrap_or((image, "latest"));
    let options = CommitContainerOptionsBuilder::default()
        .container(id)
        .repo(repo)
        .tag(tag)
        .comment("mjai-sim ml image: torch 2.2.2, numpy 1.26.4")
        .pause(false)
        .build();
    progress(&format!("committing {image}"));
    docker
        .commit_container(options, image_config(base))
        .await
        .map_err(ImageError::docker(format!("commit of {image}")))?;
    Ok(())
}

/// The committed image's settings: those of the default image (user `bot`, [`BOT_DIR`], the
/// relay as command, user `bot` = uid [`mjai_sim_runtime::docker::image::BOT_UID`]) and the label naming its base.
fn image_config(base: &str) -> ContainerConfig {
    ContainerConfig {
        user: Some("bot".into()),
        working_dir: Some(BOT_DIR.into()),
        entrypoint: Some(vec![]),
        cmd: Some(vec!["python3".into(), "-u".into(), RELAY_PATH.into(), "0".into()]),
        labels: Some(HashMap::from([(LABEL_BASE.to_string(), base.to_string())])),
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn build_container_has_no_network_and_mounts_read_only() {
        let body = build_container("mjai-sim-bot:abc", Path::new("/w"), Path::new("/r"));
        assert_eq!(body.network_disabled, Some(true));
        let host = body.host_config.unwrap();
        assert_eq!(host.network_mode.as_deref(), Some("none"));
        let mounts = host.mounts.unwrap();
        assert!(mounts.iter().all(|m| m.read_only == Some(true)));
        let targets: Vec<_> = mounts.iter().filter_map(|m| m.target.as_deref()).collect();
        assert_eq!(targets, ["/wheels", "/wheels-requirements"]);
        let cmd = body.cmd.unwrap().join(" ");
        assert!(cmd.contains("--no-index") && cmd.contains("--require-hashes"), "{cmd}");
    }
}
