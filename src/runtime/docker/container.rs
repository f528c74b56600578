//! One seat's container: create, fill, attach, start, exchange, remove.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use bollard::query_parameters::{AttachContainerOptions, CreateContainerOptions, UploadToContainerOptions};
use bollard::Docker;
use futures_util::future::BoxFuture;
use futures_util::StreamExt;
use tokio::time::Instant;

use super::cleanup::{remove_container, ContainerGuard};
use super::hardening::container_body;
use super::host_dir::HostDir;
use super::http::HttpConn;
use super::stdio::{spawn_fifo_pump, spawn_pump, Failure, StdioConn};
use super::{DockerError, DockerOptions, Transport};
use crate::bounded::{join_or_abort, within, DRAIN_GRACE, STOP_GRACE};
use crate::process::signal_name;
use crate::stderr_log::StderrLog;
use crate::stderr_tail::SharedTail;
use crate::submission::Submission;
use crate::{Bot, BotError, Offer};

/// How long to wait for Docker to report the exit once the bot's output ended.
const EXIT_GRACE: Duration = Duration::from_secs(2);

enum Conn {
    Stdio(StdioConn),
    Http(HttpConn),
}

/// A bot running in its own container; removed (SIGKILL) by [`Bot::stop`] or by its guard.
pub struct DockerBot {
    docker: Docker,
    guard: ContainerGuard,
    id: String,
    seat: u8,
    memory_bytes: i64,
    conn: Conn,
    pump: Option<tokio::task::JoinHandle<()>>,
    tail: SharedTail,
    /// The seat's host folder (local daemon), removed with the container.
    host: Option<HostDir>,
    stopped: bool,
}

/// What one seat needs to start.
pub struct SeatStart<'a> {
    /// Seat 0-3 (the bot's argument).
    pub seat: u8,
    /// The submission: unpacked into the seat's host folder (local daemon) or uploaded.
    pub submission: &'a Arc<Submission>,
    /// Where the bot's stderr is logged (capped).
    pub stderr_log: &'a Path,
    /// CPU limit, in CPUs (see [`super::cpu_limit`]).
    pub cpus: f64,
    /// Network mode: `none` (stdio) or the http network id.
    pub network: &'a str,
}

impl DockerBot {
    /// Starts one seat's container; ready (process running; http: relay answering) when
    /// this returns. The container is registered with `guard` as soon as it exists, and
    /// removed again when a later step fails.
    ///
    /// Errors: [`DockerError::Start`] naming the failing step, [`DockerError::Interrupted`].
    pub async fn start(
        guard: &ContainerGuard,
        options: &DockerOptions,
        seat: SeatStart<'_>,
    ) -> Result<DockerBot, DockerError> {
        let docker = guard.docker().clone();
        let n = seat.seat;
        let fail =
            |step: &str, e: &dyn std::fmt::Display| DockerError::Start { seat: n, cause: format!("{step}: {e}") };
        let name = format!("mjai-sim-{}-{}", guard.game(), n);
        // Every wait of a start: bounded by the start timeout of the caller
        // (Seats::launch_all) and the Docker client's own timeouts.
        let mut host = match options.local && !BIND_REFUSED.load(Ordering::Relaxed) {
            true => Some(host_dir(&name, seat.submission, options).await.map_err(|e| fail("bot folder", &e))?), // bounded: start.
            false => None,
        };
        let mut created = create(guard, options, &seat, &name, host.as_ref()).await; // bounded: start.
        let refused = matches!(&created, Err(e) if e.contains(BIND_MISSING));
        if let Some(dir) = host.take_if(|_| refused) {
            // The daemon does not see this host's files (mjai-sim itself runs in a container
            // with the Docker socket mounted): upload instead, for every later seat too.
            dir.remove();
            if !BIND_REFUSED.swap(true, Ordering::Relaxed) {
                tracing::warn!("the Docker daemon cannot see {}: bot files are uploaded instead", dir.path().display());
            }
            created = create(guard, options, &seat, &name, None).await; // bounded: start.
        }
        let id = match created {
            Ok(Some(id)) => id,
            failed => {
                if let Some(dir) = &host {
                    dir.remove();
                }
                return Err(match failed {
                    Ok(_) => DockerError::Interrupted,
                    Err(e) => fail("create", &e),
                });
            }
        };
        // bounded: start.
        match Self::fill_and_start(&docker, guard, options, &id, seat, host.clone()).await {
            Ok(bot) => Ok(bot),
            Err(e) => {
                remove_container(&docker, &id).await; // bounded: Docker client timeout.
                guard.forget(&id);
                if let Some(dir) = &host {
                    dir.remove();
                }
                Err(e)
            }
        }
    }

    async fn fill_and_start(
        docker: &Docker,
        guard: &ContainerGuard,
        options: &DockerOptions,
        id: &str,
        seat: SeatStart<'_>,
        host: Option<HostDir>,
    ) -> Result<DockerBot, DockerError> {
        let n = seat.seat;
        let fail =
            |step: &str, e: &dyn std::fmt::Display| DockerError::Start { seat: n, cause: format!("{step}: {e}") };
        if host.is_none() {
            // streamed from the submission's folder on disk, a few pieces at a time
            let tar = seat.submission.tar_stream(options.uid, options.gid);
            let upload = UploadToContainerOptions { path: options.workdir.clone(), ..Default::default() };
            docker
                .upload_to_container(id, Some(upload), bollard::body_try_stream(tar))
                // bounded: start.
                .await
                .map_err(|e| fail("copy the bot in", &e))?;
        }
        let stdio = options.transport == Transport::Stdio;
        // Opened before the start, read-write: never blocks, never sees end-of-file.
        let fifos = match (&host, stdio) {
            (Some(dir), true) => Some(open_fifos(dir).map_err(|e| fail("open the bot's stdio", &e))?),
            _ => None,
        };
        let attach = AttachContainerOptions {
            stdin: stdio && fifos.is_none(),
            stdout: fifos.is_none(),
            stderr: true,
            stream: true,
            ..Default::default()
        };
        // bounded: start.
        let attached = docker.attach_container(id, Some(attach)).await.map_err(|e| fail("attach", &e))?;
        // bounded: a local file.
        let log = StderrLog::append(seat.stderr_log, options.stderr_cap).await.map_err(|e| fail("stderr log", &e))?;
        let tail = log.tail();
        let (input, (stdout, pump)) = match fifos {
            Some((input, output)) => (
                Box::pin(input) as std::pin::Pin<Box<dyn tokio::io::AsyncWrite + Send>>,
                spawn_fifo_pump(attached.output, log, output),
            ),
            None => (attached.input, spawn_pump(attached.output, log, stdio)),
        };
        // bounded: start.
        docker.start_container(id, None).await.map_err(|e| {
            let cause = e.to_string();
            match options.gpus.as_ref().and(super::resources::gpu_start_hint(&cause)) {
                Some(hint) => fail("start", &format!("{cause}; {hint}")),
                None => fail("start", &cause),
            }
        })?;
        let conn = if stdio {
            Conn::Stdio(StdioConn::new(input, stdout, options.line_limit))
        } else {
            let port = super::http::host_port(docker, id).await?; // bounded: start.
            let http = HttpConn::new(port, options.line_limit);
            // bounded: ready_timeout.
            if !http.wait_ready(Instant::now() + options.ready_timeout).await {
                let why = exit_reason(docker, id, options.memory_bytes).await; // bounded: start.
                return Err(fail("relay not ready", &why.unwrap_or_else(|| "no answer on port 3000".into())));
            }
            Conn::Http(http)
        };
        Ok(DockerBot {
            docker: docker.clone(),
            guard: guard.clone(),
            id: id.to_string(),
            seat: n,
            memory_bytes: options.memory_bytes,
            conn,
            pump: Some(pump),
            tail,
            host,
            stopped: false,
        })
    }

    /// The container id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The seat.
    pub fn seat(&self) -> u8 {
        self.seat
    }

    async fn exchange_inner(&mut self, line: &str, timeout: Duration) -> Result<String, BotError> {
        if self.stopped {
            return Err(BotError::Closed);
        }
        let result = match &mut self.conn {
            Conn::Stdio(c) => c.exchange(line, timeout).await, // bounded: timeout.
            Conn::Http(c) => c.exchange(line, timeout).await,  // bounded: timeout.
        };
        match result {
            Ok(answer) => Ok(answer),
            Err(Failure::Bot(e)) => Err(e),
            Err(Failure::Ended) => {
                let _ = within(EXIT_GRACE, "waiting for the exit", wait_exit(&self.docker, &self.id)).await;
                // The attach stream ends with the process: drain its last stderr (a traceback).
                if let Some(pump) = self.pump.as_mut() {
                    if within(EXIT_GRACE, "draining stderr", pump).await.is_ok() {
                        self.pump = None;
                    }
                }
                let why = exit_reason(&self.docker, &self.id, self.memory_bytes);
                match within(EXIT_GRACE, "asking why", why).await {
                    Ok(Some(reason)) => Err(BotError::Crashed(reason)),
                    Ok(None) | Err(_) => Err(BotError::Closed),
                }
            }
        }
    }

    async fn stop_inner(&mut self) {
        if self.stopped {
            return;
        }
        self.stopped = true;
        if let Conn::Stdio(c) = &mut self.conn {
            c.close().await; // bounded: CLOSE_GRACE inside.
        }
        // Still registered with the guard when Docker does not answer in time: the game's
        // guard removes it at the end.
        if within(STOP_GRACE, "removing a container", remove_container(&self.docker, &self.id)).await.is_ok() {
            self.guard.forget(&self.id);
        }
        if let Some(mut pump) = self.pump.take() {
            join_or_abort(&mut pump, DRAIN_GRACE, "draining the bot's output").await;
        }
        if let Some(dir) = &self.host {
            dir.remove();
        }
    }
}

/// Docker's refusal of a bind mount whose source it cannot find.
const BIND_MISSING: &str = "bind source path does not exist";

/// Set once the daemon refused a seat's host folder: later seats are uploaded at once.
static BIND_REFUSED: AtomicBool = AtomicBool::new(false);

/// Creates the container and registers it with `guard`, in a task of its own: a start
/// cancelled mid-way (shutdown, launch timeout) still registers the container, so its
/// guard removes it. `Ok(None)`: the guard was already shut down (the container is gone
/// again). Errors: Docker's refusal, as text.
async fn create(
    guard: &ContainerGuard,
    options: &DockerOptions,
    seat: &SeatStart<'_>,
    name: &str,
    host: Option<&HostDir>,
) -> Result<Option<String>, String> {
    let body = container_body(options, guard.game(), seat.seat, seat.cpus, seat.network, host);
    let create = CreateContainerOptions { name: Some(name.to_string()), platform: options.platform.clone() };
    let creating = guard.begin_create();
    let (client, owner) = (guard.docker().clone(), guard.clone());
    let task = tokio::spawn(async move {
        let _creating = creating;
        // bounded: start.
        let id = client.create_container(Some(create), body).await.map_err(|e| e.to_string())?.id;
        if !owner.register(&id) {
            remove_container(&client, &id).await; // bounded: Docker client timeout.
            owner.forget(&id);
            return Ok(None);
        }
        Ok(Some(id))
    });
    task.await.map_err(|e| e.to_string())? // bounded: start.
}

/// Makes the seat's host folder `name` (unpacking may take a while for a big model: done
/// off the async threads).
async fn host_dir(name: &str, submission: &Arc<Submission>, options: &DockerOptions) -> std::io::Result<HostDir> {
    let (name, sub, uid, gid) = (name.to_string(), submission.clone(), options.uid as u32, options.gid as u32);
    // bounded: local files.
    tokio::task::spawn_blocking(move || HostDir::create(&name, &sub, uid, gid)).await.map_err(std::io::Error::other)?
}

/// The host ends of the bot's stdin and stdout FIFOs.
fn open_fifos(dir: &HostDir) -> std::io::Result<(tokio::net::unix::pipe::Sender, tokio::net::unix::pipe::Receiver)> {
    use tokio::net::unix::pipe::OpenOptions;
    let input = OpenOptions::new().read_write(true).open_sender(dir.stdin_path())?;
    let output = OpenOptions::new().read_write(true).open_receiver(dir.stdout_path())?;
    Ok((input, output))
}

/// Waits until the container is no longer running.
async fn wait_exit(docker: &Docker, id: &str) {
    let options = bollard::query_parameters::WaitContainerOptions { condition: "not-running".into() };
    let mut wait = docker.wait_container(id, Some(options));
    let _ = wait.next().await; // bounded: callers use within(EXIT_GRACE).
}

/// Why a container's process is no longer running ("exit code 1", "killed by signal 9
/// (SIGKILL)", "killed: out of memory (limit 4096 MiB)"), or `None` while it runs.
pub async fn exit_reason(docker: &Docker, id: &str, memory_bytes: i64) -> Option<String> {
    // bounded: callers use within(EXIT_GRACE), or the start timeout.
    let state = docker.inspect_container(id, None).await.ok()?.state?;
    if state.running == Some(true) {
        return None;
    }
    if state.oom_killed == Some(true) {
        return Some(format!("killed: out of memory (limit {} MiB)", memory_bytes >> 20));
    }
    let code = state.exit_code.unwrap_or(-1);
    Some(if code > 128 && code < 160 {
        let sig = (code - 128) as i32;
        format!("killed by signal {sig}{}", signal_name(sig))
    } else {
        format!("exit code {code}")
    })
}

impl Bot for DockerBot {
    /// Computes its own options from the events: the referee's legal set is not needed.
    fn offer(&mut self, _offer: &Offer<'_>) {}

    fn exchange<'a>(&'a mut self, line: &'a str, timeout: Duration) -> BoxFuture<'a, Result<String, BotError>> {
        Box::pin(self.exchange_inner(line, timeout))
    }

    fn stop(&mut self) -> BoxFuture<'_, ()> {
        Box::pin(self.stop_inner())
    }

    fn stderr_tail(&self) -> Vec<String> {
        self.tail.lines()
    }
}
