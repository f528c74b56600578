//! The bot image, checked inside real containers: `ensure_image` finds (or builds) the image for
//! the current docker/ inputs; the image runs Python 3.11 as a non-root user with the mjai.app
//! packages; the relay answers `GET /` and relays `POST /` to a bot; the example bots play
//! (and misbehave) as documented under mjai 0.2.1's libriichi arena (examples/harness.py).
//!
//! Needs a running Docker daemon. When the image is missing, the first test builds it (minutes;
//! CI runs `mjai-sim image build` first). Containers run with networking off, except the relay
//! test, which publishes its port on 127.0.0.1 only.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use anyhow::{bail, ensure, Context};
use bollard::models::{ContainerCreateBody, HostConfig, PortBinding};
use bollard::query_parameters::{LogsOptions, RemoveContainerOptions, UploadToContainerOptions};
use bollard::Docker;
use futures_util::StreamExt;
use mjai_sim::images::{self as img, BuildOptions};
use mjai_sim::runtime::docker::image::{input_hash, ml_input_hash, BOT_DIR, RELAY_PATH, RELAY_PORT};

static IMAGE: tokio::sync::OnceCell<String> = tokio::sync::OnceCell::const_new();

async fn image(docker: &Docker) -> String {
    IMAGE
        .get_or_init(|| async {
            let progress = |line: &str| eprintln!("image: {line}");
            img::ensure_image(docker, &BuildOptions::default(), &progress).await.expect("bot image")
        })
        .await
        .clone()
}

static ML_IMAGE: tokio::sync::OnceCell<String> = tokio::sync::OnceCell::const_new();

/// The ml image (`mjai-sim image build --ml`; scripts/test builds it before the tests).
async fn ml_image(docker: &Docker) -> String {
    ML_IMAGE
        .get_or_init(|| async {
            let progress = |line: &str| eprintln!("ml image: {line}");
            let options = BuildOptions { kind: img::ImageKind::Ml, ..Default::default() };
            img::ensure_image(docker, &options, &progress).await.expect("ml image")
        })
        .await
        .clone()
}

/// Creates a container of the bot image; the caller starts it and must call `remove`.
async fn create(docker: &Docker, cmd: &[&str], host: HostConfig) -> anyhow::Result<String> {
    let image = image(docker).await;
    create_of(docker, &image, cmd, host).await
}

/// Creates a container of `image`; the caller starts it and must call `remove`.
async fn create_of(docker: &Docker, image: &str, cmd: &[&str], host: HostConfig) -> anyhow::Result<String> {
    let exposed = host.port_bindings.as_ref().map(|p| p.keys().cloned().collect());
    let body = ContainerCreateBody {
        image: Some(image.to_string()),
        exposed_ports: exposed,
        cmd: Some(cmd.iter().map(|s| s.to_string()).collect()),
        host_config: Some(host),
        ..Default::default()
    };
    Ok(docker.create_container(None, body).await?.id)
}

async fn remove(docker: &Docker, id: &str) {
    let opts = RemoveContainerOptions { force: true, ..Default::default() };
    let _ = docker.remove_container(id, Some(opts)).await;
}

/// Runs `cmd` in a fresh container without network; returns (exit code, stdout, stderr).
async fn run(docker: &Docker, cmd: &[&str], binds: Vec<String>) -> anyhow::Result<(i64, String, String)> {
    let image = image(docker).await;
    run_in(docker, &image, cmd, binds).await
}

/// Runs `cmd` in a container of `image` with networking off: (exit code, stdout, stderr).
async fn run_in(
    docker: &Docker,
    image: &str,
    cmd: &[&str],
    binds: Vec<String>,
) -> anyhow::Result<(i64, String, String)> {
    let host = HostConfig { network_mode: Some("none".into()), binds: Some(binds), ..Default::default() };
    let id = create_of(docker, image, cmd, host).await?;
    let result = async {
        docker.start_container(&id, None).await?;
        let code = match docker.wait_container(&id, None).next().await {
            Some(Ok(r)) => r.status_code,
            Some(Err(bollard::errors::Error::DockerContainerWaitError { code, .. })) => code,
            Some(Err(e)) => return Err(e.into()),
            None => bail!("wait stream ended without a status"),
        };
        let opts = LogsOptions { stdout: true, stderr: true, ..Default::default() };
        let (mut out, mut err) = (String::new(), String::new());
        let mut logs = docker.logs(&id, Some(opts));
        while let Some(chunk) = logs.next().await {
            match chunk? {
                bollard::container::LogOutput::StdOut { message } => out.push_str(&String::from_utf8_lossy(&message)),
                bollard::container::LogOutput::StdErr { message } => err.push_str(&String::from_utf8_lossy(&message)),
                _ => {}
            }
        }
        Ok((code, out, err))
    }
    .await;
    remove(docker, &id).await;
    result
}

#[tokio::test]
async fn image_has_python_311_the_mjai_packages_and_a_non_root_user() {
    let docker = img::daemon().await.expect("docker daemon");
    let script = "import sys, os, pwd, mahjong, mjai, numpy, loguru, requests\n\
                  from mjai import Bot\n\
                  print(sys.version_info[0], sys.version_info[1], os.getuid(), pwd.getpwuid(os.getuid()).pw_name, os.getcwd())";
    let (code, out, err) = run(&docker, &["python3", "-c", script], vec![]).await.unwrap();
    assert_eq!(code, 0, "stderr: {err}");
    let fields: Vec<&str> = out.split_whitespace().collect();
    assert_eq!(fields, ["3", "11", "1000", "bot", "/workspace"], "stdout: {out}");
}

#[tokio::test]
async fn status_reports_the_image_of_the_current_inputs() {
    let docker = img::daemon().await.expect("docker daemon");
    let name = image(&docker).await;
    let status = img::image_status(&docker, img::ImageKind::Default).await.unwrap();
    assert_eq!(status.image, name);
    assert_eq!(name, format!("mjai-sim-bot:{}", input_hash()));
    assert!(status.present);
    assert!(status.base.is_some_and(|b| !b.is_empty()), "base label missing");
}

#[tokio::test]
async fn ml_image_has_mjai_apps_torch_and_numpy_over_the_default_layout() {
    let docker = img::daemon().await.expect("docker daemon");
    let ml = ml_image(&docker).await;
    assert_eq!(ml, format!("mjai-sim-bot-ml:{}", ml_input_hash()));
    let script = "import sys, os, pwd, torch, numpy, pyarrow, mahjong, mjai, loguru, requests\n\
                  from mjai import Bot\n\
                  x = torch.nn.Linear(4, 2)(torch.ones(1, 4))\n\
                  print(torch.__version__.split('+')[0], numpy.__version__, torch.cuda.is_available(), tuple(x.shape),\n\
                        sys.version_info[1], os.getuid(), pwd.getpwuid(os.getuid()).pw_name, os.getcwd())";
    let (code, out, err) = run_in(&docker, &ml, &["python3", "-c", script], vec![]).await.unwrap();
    assert_eq!(code, 0, "stderr: {err}");
    let fields: Vec<&str> = out.split_whitespace().collect();
    // torch and numpy as mjai.app's docker/requirements.txt; no GPU on this host
    assert_eq!(fields, ["2.2.2", "1.26.4", "False", "(1,", "2)", "11", "1000", "bot", "/workspace"], "stdout: {out}");
    // the default image keeps its own numpy
    let (_, out, _) = run(&docker, &["python3", "-c", "import numpy; print(numpy.__version__)"], vec![]).await.unwrap();
    assert!(out.trim().starts_with("2."), "default image numpy: {out}");
    let status = img::image_status(&docker, img::ImageKind::Ml).await.unwrap();
    assert!(status.present);
    assert_eq!(status.base, Some(image(&docker).await), "the ml image names the default image as its base");
}

/// A tar holding `bot.py`: answers each line with `echo:<line>`, exits on the line `quit`.
fn echo_bot_tar() -> Vec<u8> {
    let bot = b"import sys\nfor line in sys.stdin:\n    if line.strip() == 'quit':\n        sys.exit(0)\n    print('echo:' + line.strip(), flush=True)\n";
    let mut b = tar::Builder::new(Vec::new());
    let mut h = tar::Header::new_gnu();
    h.set_size(bot.len() as u64);
    h.set_mode(0o644);
    h.set_uid(1000);
    h.set_gid(1000);
    h.set_cksum();
    b.append_data(&mut h, "bot.py", &bot[..]).unwrap();
    b.into_inner().unwrap()
}

#[tokio::test]
async fn relay_answers_get_and_relays_posts_to_the_bot() {
    let docker = img::daemon().await.expect("docker daemon");
    let port = format!("{RELAY_PORT}/tcp");
    let binding = PortBinding { host_ip: Some("127.0.0.1".into()), host_port: Some(String::new()) };
    let host =
        HostConfig { port_bindings: Some(HashMap::from([(port.clone(), Some(vec![binding]))])), ..Default::default() };
    let id = create(&docker, &["python3", "-u", RELAY_PATH, "2"], host).await.unwrap();
    let outcome = relay_exchange(&docker, &id, &port).await;
    remove(&docker, &id).await;
    outcome.unwrap();
}

async fn relay_exchange(docker: &Docker, id: &str, port: &str) -> anyhow::Result<()> {
    let upload = UploadToContainerOptions { path: BOT_DIR.into(), ..Default::default() };
    docker.upload_to_container(id, Some(upload), bollard::body_full(echo_bot_tar().into())).await?;
    docker.start_container(id, None).await?;
    let info = docker.inspect_container(id, None).await?;
    let bindings = info.network_settings.and_then(|n| n.ports).and_then(|p| p.get(port).cloned().flatten());
    let binding = bindings.and_then(|b| b.into_iter().next()).context("no published port")?;
    ensure!(binding.host_ip.as_deref() == Some("127.0.0.1"), "published on {:?}", binding.host_ip);
    let url = format!("http://127.0.0.1:{}/", binding.host_port.context("no host port")?);
    let http = reqwest::Client::builder().timeout(Duration::from_secs(10)).build()?;

    // Readiness as mjai.app clients poll it: GET / until 200 (the relay needs ~1 s to start).
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        match http.get(&url).send().await {
            Ok(r) if r.status() == 200 => {
                ensure!(r.text().await? == "OK");
                break;
            }
            _ if Instant::now() < deadline => tokio::time::sleep(Duration::from_millis(100)).await,
            other => bail!("relay never answered GET /: {other:?}"),
        }
    }
    let start = r#"[{"type":"start_game","names":["0","1","2","3"],"id":2}]"#;
    for line in [start, r#"[{"type":"end_game"}]"#] {
        let r = http.post(&url).body(line).send().await?;
        ensure!(r.status() == 200, "POST status {}", r.status());
        ensure!(r.text().await? == format!("echo:{line}"));
    }
    let r = http.post(&url).body("quit").send().await?;
    ensure!(r.status() == 503, "POST after exit: status {}", r.status());
    ensure!(r.text().await? == "bot exited with code 0");
    let r = http.get(&url).send().await?;
    ensure!(r.status() == 503, "GET after exit: status {}", r.status());
    Ok(())
}

/// Plays one hanchan of examples/harness.py in the image with `bots` (folder names under
/// examples/); returns its exit code and last stdout line.
async fn harness(docker: &Docker, bots: [&str; 4]) -> (i64, String) {
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/examples");
    let mut cmd = vec!["python3".to_string(), "/ex/harness.py".into(), "--timeout".into(), "3".into()];
    cmd.extend(bots.iter().map(|b| format!("/ex/{b}")));
    let cmd: Vec<&str> = cmd.iter().map(String::as_str).collect();
    let (code, out, err) = run(docker, &cmd, vec![format!("{examples}:/ex:ro")]).await.unwrap();
    let last = out.lines().last().unwrap_or_default().to_string();
    eprintln!("{bots:?}: {last}\n{}", err.lines().rev().take(3).collect::<Vec<_>>().join("\n"));
    (code, last)
}

#[tokio::test]
async fn example_bots_play_a_hanchan_without_errors() {
    let docker = img::daemon().await.expect("docker daemon");
    let (code, last) = harness(&docker, ["shanten", "mjaibot", "tsumogiri", "shanten"]).await;
    assert_eq!(code, 0, "{last}");
    assert!(last.starts_with("game 0: ok"), "{last}");
    // Two shanten bots and an SDK bot against tsumogiri: someone wins at least one hand.
    assert!(!last.contains("hora by seat [0, 0, 0, 0]"), "{last}");
}

/// Issue 30: `mahjong`'s shanten calls 44m 77m 44p 55p 111s 66s (a chiitoitsu with a
/// triplet) tenpai though no tile completes it; examples/shanten declares riichi only on a
/// hand with a wait (agari check), and wins only on a complete hand.
#[tokio::test]
async fn the_shanten_example_declares_riichi_only_with_a_wait() {
    let docker = img::daemon().await.expect("docker daemon");
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/examples");
    let check = r#"
import sys
sys.path.insert(0, "/ex/shanten")
import bot
false_tenpai = "4m 4m 7m 7m 4p 4p 5p 5p 1s 1s 1s 6s 6s".split()
counts = bot.counts34(false_tenpai)
assert bot.shanten(counts) == 0, "mahjong's shanten calls it tenpai"
assert bot.waits(counts) == [], bot.waits(counts)
assert not bot.complete(bot.counts34(false_tenpai + ["1s"])), "four 1s are not a pair"
# Drawing a third 6s: every discard leaves a chiitoitsu with a triplet, none has a wait.
p, ev = bot.Player(0), {"type": "tsumo", "actor": 0, "pai": "6s"}
p.hand = list(false_tenpai)
p.apply(ev)
a = p.decide(ev)
assert a["type"] == "dahai", a
for drawn in ["9m", "E", "1s"]:
    p, ev = bot.Player(0), {"type": "tsumo", "actor": 0, "pai": drawn}
    p.hand = list(false_tenpai)
    p.apply(ev)
    a = p.decide(ev)
    if a["type"] == "reach":
        rest = p.without(bot.counts34(p.hand), p.planned)
        assert bot.waits(rest), (drawn, a, p.planned)
    assert a["type"] != "hora", (drawn, a)
p, ev = bot.Player(0), {"type": "tsumo", "actor": 0, "pai": "N"}
p.hand = "1m 2m 3m 4p 5p 6p 7s 8s 9s 2m 3m E E".split()
p.apply(ev)
a = p.decide(ev)
assert a == {"type": "reach", "actor": 0}, a
assert bot.waits(p.without(bot.counts34(p.hand), p.planned)) == [0, 3], "1m-4m"
print("ok")
"#;
    let (code, out, err) = run(&docker, &["python3", "-c", check], vec![format!("{examples}:/ex:ro")]).await.unwrap();
    assert_eq!((code, out.trim()), (0, "ok"), "{err}");
}

#[tokio::test]
async fn misbehaving_example_bots_fail_as_documented() {
    let docker = img::daemon().await.expect("docker daemon");
    for (bot, expected) in [
        ("invalid", "game 0: error seat 1: invalid action"),
        ("timeout", "game 0: error seat 1: no answer within 3"),
        ("crash", "game 0: error seat 1: bot exited (3)"),
    ] {
        let (code, last) = harness(&docker, ["tsumogiri", bot, "tsumogiri", "tsumogiri"]).await;
        assert_eq!(code, 1, "{bot}: {last}");
        assert!(last.starts_with(expected), "{bot}: {last}");
    }
}

#[tokio::test]
async fn the_ml_example_trains_in_the_ml_image_from_a_dataset_table() {
    let docker = img::daemon().await.expect("docker daemon");
    let image = ml_image(&docker).await;
    let data = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    std::fs::set_permissions(out.path(), std::os::unix::fs::PermissionsExt::from_mode(0o777)).unwrap();
    let mjai_sim = |args: &[&str]| {
        let run = std::process::Command::new(env!("CARGO_BIN_EXE_mjai-sim")).args(args).output().unwrap();
        assert!(run.status.success(), "mjai-sim {args:?}: {}", String::from_utf8_lossy(&run.stderr));
    };
    let (logs, table) = (data.path().join("logs"), data.path().join("decisions.parquet"));
    let rulebase = ["builtin:rulebase"; 4];
    mjai_sim(
        &[&["selfplay"][..], &rulebase, &["--games", "3", "--seed", "9", "--logs-dir", logs.to_str().unwrap()]]
            .concat(),
    );
    mjai_sim(&["dataset", logs.to_str().unwrap(), "--kind", "decisions", "-o", table.to_str().unwrap()]);
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/mlbot");
    let binds = vec![
        format!("{example}:/bot:ro"),
        format!("{}:/data:ro", data.path().display()),
        format!("{}:/out", out.path().display()),
    ];
    let cmd =
        ["python3", "/bot/train.py", "--dataset", "/data/decisions.parquet", "--epochs", "1", "--out", "/out/model.pt"];
    let (code, stdout, stderr) = run_in(&docker, &image, &cmd, binds).await.unwrap();
    assert_eq!(code, 0, "stdout: {stdout}\nstderr: {stderr}");
    let discards: usize = stdout
        .split("train: ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count of discards in: {stdout}"));
    assert!(discards > 300, "{stdout}");
    let size = std::fs::metadata(out.path().join("model.pt")).unwrap().len();
    assert!(size > 10_000 && size < 1 << 20, "model.pt of {size} bytes");
}
