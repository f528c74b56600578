//! The hardened container configuration (pure: builds the create request, no I/O).
//!
//! Defaults, all from [`DockerOptions`]: network mode `none` with networking disabled
//! (stdio: an empty network namespace holding only `lo`, and no libnetwork hook at start)
//! or the http network with port 3000 published on 127.0.0.1 only; every capability dropped;
//! `no-new-privileges`; read-only root filesystem; a tmpfs at /tmp; the working folder on
//! a bind mount of the seat's host folder (local daemon; see [`super::host_dir`]) or an
//! anonymous volume (writable, labelled, removed with the container); memory (no extra
//! swap), CPU and pids limits; a non-root user; an init process that reaps zombies; GPUs
//! only when asked (`--gpus`, a device request); Docker's own log driver off (`none`): the
//! runtime reads stdout and stderr through the attach stream and keeps them itself, so
//! dockerd does not write every line of a bot a second time.

use std::collections::HashMap;

use bollard::models::{
    ContainerCreateBody, HostConfig, HostConfigLogConfig, Mount, MountType, MountVolumeOptions, PortBinding,
};

use super::host_dir::{HostDir, IO_DIR};
use super::owner::{LABEL_OWNER, THIS_PROCESS};
use super::{DockerOptions, Transport, LABEL_GAME, LABEL_SEAT};

/// The relay's port inside the container (mjai.app: 3000).
pub const RELAY_PORT: &str = "3000/tcp";

/// The labels of one seat's container (and volume): game, seat and owner (this process).
pub fn labels(game: &str, seat: u8) -> HashMap<String, String> {
    HashMap::from([
        (LABEL_GAME.to_string(), game.to_string()),
        (LABEL_SEAT.to_string(), seat.to_string()),
        (LABEL_OWNER.to_string(), THIS_PROCESS.clone()),
    ])
}

/// The command the container runs: the bot itself (stdio) or the relay (http). With
/// `fifos` (a local daemon, see [`super::host_dir`]) the bot's stdin and stdout are the
/// FIFOs in [`IO_DIR`], opened by `sh` before it becomes the bot (`exec`).
/// A batched bot ([`DockerOptions::batch`]) gets `--batch` where a seat's bot gets its seat.
pub fn command(options: &DockerOptions, seat: u8, fifos: bool) -> Vec<String> {
    let seat = if options.batch { "--batch".to_string() } else { seat.to_string() };
    match options.transport {
        Transport::Stdio if fifos => vec![
            "/bin/sh".into(),
            "-c".into(),
            format!(r#"exec "$0" -u bot.py "$1" <{IO_DIR}/in >{IO_DIR}/out"#),
            options.python.clone(),
            seat,
        ],
        Transport::Stdio => vec![options.python.clone(), "-u".into(), "bot.py".into(), seat],
        Transport::Http => vec![options.python.clone(), "-u".into(), options.relay_path.clone(), seat],
    }
}

/// The create request for one seat. `cpus` is the CPU limit in CPUs; `network` is the
/// network mode (`none` for stdio, the http network's name for http); `host` is the seat's
/// host folder when the daemon is local (its `work/` bind-mounted as the working folder,
/// its `io/` read-only at [`IO_DIR`]; stdio then goes through FIFOs), else `None` (an
/// anonymous volume, filled by upload; stdio through the attach stream).
pub fn container_body(
    options: &DockerOptions,
    game: &str,
    seat: u8,
    cpus: f64,
    network: &str,
    host: Option<&HostDir>,
) -> ContainerCreateBody {
    let stdio = options.transport == Transport::Stdio;
    let fifos = stdio && host.is_some();
    let port_bindings = (!stdio).then(|| {
        HashMap::from([(
            RELAY_PORT.to_string(),
            Some(vec![PortBinding { host_ip: Some("127.0.0.1".into()), host_port: Some(String::new()) }]),
        )])
    });
    let mounts = match host {
        Some(dir) => vec![bind(&dir.work(), &options.workdir, false), bind(&dir.io_dir(), IO_DIR, true)],
        None => vec![Mount {
            target: Some(options.workdir.clone()),
            typ: Some(MountType::VOLUME),
            volume_options: Some(MountVolumeOptions { labels: Some(labels(game, seat)), ..Default::default() }),
            ..Default::default()
        }],
    };
    let host_config = HostConfig {
        network_mode: Some(network.to_string()),
        port_bindings,
        cap_drop: Some(vec!["ALL".into()]),
        security_opt: Some(vec!["no-new-privileges".into()]),
        readonly_rootfs: Some(true),
        tmpfs: Some(HashMap::from([(
            "/tmp".to_string(),
            format!("rw,nosuid,nodev,size={},mode=1777", options.tmp_bytes),
        )])),
        mounts: Some(mounts),
        memory: Some(options.memory_bytes),
        memory_swap: Some(options.memory_bytes),
        nano_cpus: Some((cpus * 1e9) as i64),
        pids_limit: Some(options.pids_limit),
        device_requests: options.gpus.as_ref().map(|g| vec![g.device_request()]),
        init: Some(true),
        privileged: Some(false),
        log_config: Some(HostConfigLogConfig { typ: Some("none".into()), config: None }),
        ..Default::default()
    };
    ContainerCreateBody {
        image: Some(options.image.clone()),
        cmd: Some(command(options, seat, fifos)),
        entrypoint: Some(vec![]),
        user: Some(format!("{}:{}", options.uid, options.gid)),
        working_dir: Some(options.workdir.clone()),
        labels: Some(labels(game, seat)),
        env: Some(vec!["PYTHONUNBUFFERED=1".into(), "HOME=/tmp".into()]),
        attach_stdin: Some(stdio && !fifos),
        attach_stdout: Some(!fifos),
        attach_stderr: Some(true),
        open_stdin: Some(stdio && !fifos),
        stdin_once: Some(false),
        tty: Some(false),
        exposed_ports: (!stdio).then(|| vec![RELAY_PORT.to_string()]),
        // stdio: no network at all. Besides closing the network, this spares every start
        // Docker's libnetwork prestart hook (a re-exec of dockerd, about 0.1 CPU-second).
        network_disabled: Some(stdio),
        host_config: Some(host_config),
        ..Default::default()
    }
}

/// A bind mount of host folder `source` at `target`.
fn bind(source: &std::path::Path, target: &str, read_only: bool) -> Mount {
    Mount {
        source: Some(source.display().to_string()),
        target: Some(target.to_string()),
        typ: Some(MountType::BIND),
        read_only: Some(read_only),
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stdio_container_is_locked_down() {
        let body = container_body(&DockerOptions::default(), "g1", 2, 2.0, "none", None);
        let host = body.host_config.as_ref().unwrap();
        assert_eq!(host.network_mode.as_deref(), Some("none"));
        assert_eq!(body.network_disabled, Some(true));
        assert_eq!(host.cap_drop.as_deref(), Some(&["ALL".to_string()][..]));
        assert_eq!(host.readonly_rootfs, Some(true));
        assert_eq!(host.log_config.as_ref().and_then(|l| l.typ.as_deref()), Some("none"));
        assert_eq!(host.memory, Some(4 << 30));
        assert_eq!(host.memory_swap, host.memory);
        assert_eq!(host.nano_cpus, Some(2_000_000_000));
        assert!(host.port_bindings.is_none());
        assert!(host.device_requests.is_none(), "no GPU unless asked");
        assert_eq!(body.user.as_deref(), Some("1000:1000"));
        assert_eq!(body.cmd.as_deref().unwrap()[1..], ["-u", "bot.py", "2"]);
        let batched = DockerOptions { batch: true, ..DockerOptions::default() };
        assert_eq!(command(&batched, 2, false)[1..], ["-u", "bot.py", "--batch"]);
        assert_eq!(command(&batched, 2, true).last().map(String::as_str), Some("--batch"));
        assert_eq!(body.labels.as_ref().unwrap()["mjai-sim.seat"], "2");
        assert_eq!(body.labels.as_ref().unwrap()["mjai-sim.game"], "g1");
    }

    #[test]
    fn http_container_publishes_only_on_loopback_with_ephemeral_port() {
        let options = DockerOptions { transport: Transport::Http, ..Default::default() };
        let body = container_body(&options, "g1", 0, 1.0, "mjai-sim-http", None);
        assert_eq!(body.network_disabled, Some(false), "the relay needs its network");
        let bindings = body.host_config.unwrap().port_bindings.unwrap();
        let binding = &bindings[RELAY_PORT].as_ref().unwrap()[0];
        assert_eq!(binding.host_ip.as_deref(), Some("127.0.0.1"));
        assert_eq!(binding.host_port.as_deref(), Some(""));
        assert_eq!(body.cmd.unwrap()[2], "/opt/mjai-sim/relay.py");
    }
}
