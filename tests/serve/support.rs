//! `spawn_server`: the real `mjai-sim serve` binary on 127.0.0.1 with a free port (it binds
//! port 0 and says which it got on stderr), a temporary SQLite store and the process
//! runtime; it is ready once `/healthz` answers 200 (polled, bounded). Killed on drop.
//! Also: authors, zips of the example bots, raw HTTP over TCP, bounded polling.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a server may take to start.
const START: Duration = Duration::from_secs(60);

/// A running `mjai-sim serve`.
pub struct Server {
    /// Its process.
    pub child: Child,
    /// Where it listens.
    pub addr: SocketAddr,
    /// Its temporary folder (the store is `serve.sqlite` in it).
    pub dir: Arc<tempfile::TempDir>,
    /// What it wrote on stderr so far.
    pub stderr: Arc<Mutex<String>>,
}

/// `mjai-sim ARGS`.
pub fn mjai_sim(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_mjai-sim"));
    c.args(args).current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

/// Options every test server has: the process runtime and no league play (`--jobs 0`)
/// unless `extra` says otherwise, four built-in house bots.
pub const HOUSE: [&str; 4] = ["builtin:rulebase", "builtin:tsumogiri", "tg=builtin:tsumogiri", "rb=builtin:rulebase"];

/// Starts a server on a new temporary store with `extra` options (before the house bots).
pub fn spawn_server(extra: &[&str]) -> Server {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    spawn_in(dir, extra)
}

/// Starts a server on the store in `dir` (a restart keeps its league).
pub fn spawn_in(dir: Arc<tempfile::TempDir>, extra: &[&str]) -> Server {
    let db = dir.path().join("serve.sqlite").display().to_string();
    let work = dir.path().join("work").display().to_string();
    let mut args: Vec<String> = ["serve", "--db", &db, "--work-dir", &work].map(String::from).to_vec();
    if !extra.contains(&"--listen") {
        args.extend(["--listen".into(), "127.0.0.1:0".into()]);
    }
    if !extra.contains(&"--runtime") {
        args.extend(["--runtime".into(), "process".into()]);
    }
    if !extra.contains(&"--jobs") {
        args.extend(["--jobs".into(), "0".into()]);
    }
    args.extend(extra.iter().map(|s| s.to_string()));
    args.extend(HOUSE.map(String::from));
    start(dir, args)
}

/// Starts `mjai-sim ARGS` and waits until it serves.
pub fn start(dir: Arc<tempfile::TempDir>, args: Vec<String>) -> Server {
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut child =
        mjai_sim(&argv).env("TMPDIR", dir.path()).stderr(Stdio::piped()).stdout(Stdio::null()).spawn().unwrap();
    let stderr = Arc::new(Mutex::new(String::new()));
    let (tx, rx) = std::sync::mpsc::channel();
    let pipe = child.stderr.take().unwrap();
    let sink = stderr.clone();
    std::thread::spawn(move || {
        for line in BufReader::new(pipe).lines().map_while(Result::ok) {
            if let Some(rest) = line.split("on http://").nth(1) {
                let _ = tx.send(rest.split_whitespace().next().unwrap_or("").to_string());
            }
            sink.lock().unwrap().push_str(&(line + "\n"));
        }
    });
    let addr: SocketAddr = match rx.recv_timeout(START) {
        Ok(a) => a.parse().unwrap(),
        Err(_) => {
            let _ = child.kill();
            panic!("the server did not start within {START:?}; stderr:\n{}", stderr.lock().unwrap());
        }
    };
    let server = Server { child, addr, dir, stderr };
    poll(START, "/healthz", || {
        (server.raw("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").0 == 200).then_some(())
    });
    server
}

impl Server {
    /// `http://ADDR`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// A new author's token (`serve author add`).
    pub fn author(&self, name: &str, admin: bool) -> String {
        let db = self.dir.path().join("serve.sqlite").display().to_string();
        let mut args = vec!["serve", "author", "add", name, "--db", &db];
        if admin {
            args.push("--admin");
        }
        let out = mjai_sim(&args).output().unwrap();
        assert!(out.status.success(), "author add: {}", String::from_utf8_lossy(&out.stderr));
        let token = String::from_utf8(out.stdout).unwrap();
        assert_eq!(token.lines().count(), 1, "only the token on stdout: {token:?}");
        token.trim().to_string()
    }

    /// Sends `request` as it is and returns the status (0: no status line) and the whole
    /// answer; reading ends at the server's close or after 20 s.
    pub fn raw(&self, request: &str) -> (u16, String) {
        raw_bytes(self.addr, request.as_bytes())
    }

    /// Sends SIGTERM and waits (bounded) for the exit code.
    pub fn terminate(&mut self) -> Option<i32> {
        unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
        let child = &mut self.child;
        poll(Duration::from_secs(60), "the server's exit", || child.try_wait().unwrap()).code()
    }

    /// The whole stderr so far.
    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends `request` on a new connection; (status, answer) as [`Server::raw`].
pub fn raw_bytes(addr: SocketAddr, request: &[u8]) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    // written on another thread: a server that answers early (401, 413) stops reading,
    // and the answer is read while the rest is still being sent
    let mut w = s.try_clone().unwrap();
    let request = request.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = w.write_all(&request);
    });
    let mut answer = Vec::new();
    let _ = s.read_to_end(&mut answer);
    let _ = s.shutdown(std::net::Shutdown::Both); // ends a write still blocked
    let _ = writer.join();
    let text = String::from_utf8_lossy(&answer).into_owned();
    (status_of(&text), text)
}

/// The status of an HTTP answer's first line (0 when there is none).
pub fn status_of(answer: &str) -> u16 {
    answer.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0)
}

/// Polls `check` every 50 ms until it gives `Some`, at most `limit`.
pub fn poll<T>(limit: Duration, what: &str, mut check: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(v) = check() {
            return v;
        }
        assert!(start.elapsed() < limit, "timed out after {limit:?} waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A zip of `entries` (name, bytes), deflated.
pub fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in entries {
        w.start_file(*name, options).unwrap();
        w.write_all(bytes).unwrap();
    }
    w.finish().unwrap().into_inner()
}

/// The zip of an example bot (`examples/NAME/bot.py`).
pub fn example_zip(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples").join(name).join("bot.py");
    zip_of(&[("bot.py", &std::fs::read(path).unwrap())])
}

/// A blocking HTTP client for the tests (reqwest on a small runtime of its own).
pub struct Http {
    runtime: tokio::runtime::Runtime,
    client: reqwest::Client,
}

/// One server-sent event: its `event` field (`message` when it has none) and its `data`
/// lines joined by newlines.
#[derive(Debug, Clone)]
pub struct SseEvent {
    /// The event's name.
    pub event: String,
    /// Its data.
    pub data: String,
}

impl SseEvent {
    /// The event of one block of the stream; `None` for a comment-only block (keep-alive).
    fn parse(block: &str) -> Option<SseEvent> {
        let (mut event, mut data) = (None, Vec::new());
        for line in block.lines() {
            if let Some(v) = line.strip_prefix("event:") {
                event = Some(v.trim_start().to_string());
            } else if let Some(v) = line.strip_prefix("data:") {
                data.push(v.strip_prefix(' ').unwrap_or(v).to_string());
            }
        }
        (event.is_some() || !data.is_empty())
            .then(|| SseEvent { event: event.unwrap_or_else(|| "message".into()), data: data.join("\n") })
    }

    /// The data as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.data).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.data))
    }
}

/// An answer: status and body.
pub struct Answer {
    /// Status code.
    pub status: u16,
    /// Headers.
    pub headers: reqwest::header::HeaderMap,
    /// Body as text.
    pub body: String,
}

impl Answer {
    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

impl Http {
    /// A client.
    pub fn new() -> Http {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        // a fresh connection per request: after a refused body (413) the server closes its
        // side, and a pooled connection reused after that reads as an incomplete message
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .pool_max_idle_per_host(0)
            .build()
            .unwrap();
        Http { runtime, client }
    }

    /// Sends `request` (built from the client) and reads the answer.
    pub fn send(&self, request: reqwest::RequestBuilder) -> Answer {
        self.runtime.block_on(async {
            let r = request.timeout(Duration::from_secs(60)).send().await.unwrap();
            let (status, headers) = (r.status().as_u16(), r.headers().clone());
            Answer { status, headers, body: r.text().await.unwrap_or_default() }
        })
    }

    /// Sends `request`: status, headers and the body's bytes (a download).
    pub fn bytes(&self, request: reqwest::RequestBuilder) -> (u16, reqwest::header::HeaderMap, Vec<u8>) {
        self.runtime.block_on(async {
            let r = request.timeout(Duration::from_secs(60)).send().await.unwrap();
            let (status, headers) = (r.status().as_u16(), r.headers().clone());
            (status, headers, r.bytes().await.unwrap_or_default().to_vec())
        })
    }

    /// `GET url` with an optional token.
    pub fn get(&self, url: &str, token: Option<&str>) -> Answer {
        let mut r = self.client.get(url);
        if let Some(t) = token {
            r = r.bearer_auth(t);
        }
        self.send(r)
    }

    /// `DELETE url` with an optional token.
    pub fn delete(&self, url: &str, token: Option<&str>) -> Answer {
        let mut r = self.client.delete(url);
        if let Some(t) = token {
            r = r.bearer_auth(t);
        }
        self.send(r)
    }

    /// `POST /api/bots` with `name` and `file` (the zip, sent as `bot.zip`).
    pub fn upload(&self, server: &Server, token: Option<&str>, name: &str, zip: Vec<u8>) -> Answer {
        self.upload_file(server, token, name, "bot.zip", zip)
    }

    /// `POST /api/bots` with `name` and `file` (the zip, sent as `file_name`).
    pub fn upload_file(
        &self,
        server: &Server,
        token: Option<&str>,
        name: &str,
        file_name: &str,
        zip: Vec<u8>,
    ) -> Answer {
        let form = reqwest::multipart::Form::new()
            .text("name", name.to_string())
            .part("file", reqwest::multipart::Part::bytes(zip).file_name(file_name.to_string()));
        let mut r = self.client.post(server.url("/api/bots")).multipart(form);
        if let Some(t) = token {
            r = r.bearer_auth(t);
        }
        self.send(r)
    }

    /// `GET url` as a stream of server-sent events, read until `done` is true of the last
    /// event, the stream ends, or `limit` passes: the status and the events read.
    pub fn events(&self, url: &str, limit: Duration, mut done: impl FnMut(&SseEvent) -> bool) -> (u16, Vec<SseEvent>) {
        self.runtime.block_on(async {
            let mut r = self.client.get(url).send().await.unwrap();
            let status = r.status().as_u16();
            let (mut text, mut out) = (String::new(), Vec::new());
            let deadline = tokio::time::Instant::now() + limit;
            loop {
                let chunk = match tokio::time::timeout_at(deadline, r.chunk()).await {
                    Ok(Ok(Some(chunk))) => chunk,
                    Ok(_) => return (status, out), // the stream ended
                    Err(_) => panic!("{url}: no end within {limit:?}; events so far: {}", out.len()),
                };
                text.push_str(&String::from_utf8_lossy(&chunk));
                while let Some(at) = text.find("\n\n") {
                    let block: String = text.drain(..at + 2).collect();
                    let Some(event) = SseEvent::parse(&block) else { continue };
                    let stop = done(&event);
                    out.push(event);
                    if stop {
                        return (status, out);
                    }
                }
            }
        })
    }

    /// `GET url` sent and its answer's head read, the body left unread: the connection
    /// stays open while the answer is held.
    pub fn open(&self, url: &str) -> reqwest::Response {
        self.runtime.block_on(self.client.get(url).send()).unwrap()
    }

    /// The client, for requests the helpers do not cover.
    pub fn client(&self) -> &reqwest::Client {
        &self.client
    }

    /// Waits (bounded) until bot `name` has `status`, returning its page, as a visitor sees
    /// it (a `rejected` or `suspended` version is its author's: [`Http::wait_status_as`]).
    pub fn wait_status(&self, server: &Server, name: &str, status: &str, limit: Duration) -> serde_json::Value {
        self.wait_status_as(server, name, status, None, limit)
    }

    /// [`Http::wait_status`] as the author of `token` sees it.
    pub fn wait_status_as(
        &self,
        server: &Server,
        name: &str,
        status: &str,
        token: Option<&str>,
        limit: Duration,
    ) -> serde_json::Value {
        poll(limit, &format!("{name} to be {status}"), || {
            let a = self.get(&server.url(&format!("/api/bots/{name}")), token);
            (a.status == 200 && a.json()["entry"]["status"] == status).then(|| a.json())
        })
    }
}

/// The example bot `examples/NAME/bot.py`, which first writes `secret` on its stderr (a
/// line only its author may read back).
pub fn noisy_zip(name: &str, secret: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples").join(name).join("bot.py");
    let source = std::fs::read_to_string(path).unwrap();
    let noisy = format!("import sys\nprint({secret:?}, file=sys.stderr, flush=True)\n{source}");
    zip_of(&[("bot.py", noisy.as_bytes())])
}
