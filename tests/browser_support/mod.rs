//! Headless Chromium for the viewer tests: opens a page from `file://` (or, [`load_served`],
//! from a server on 127.0.0.1), returns its DOM after the scripts ran (`--dump-dom` with a
//! virtual time budget), its console (Content-Security-Policy violations land there) and
//! every network request the page made (from Chromium's own net log).
//!
//! Chromium's background services (updates, sign-in) are pointed at a closed local proxy
//! and an empty host resolver, so nothing leaves the machine; their requests carry no page
//! initiator and are not counted as the page's.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// What one page load gave.
pub struct Loaded {
    /// `document.documentElement.outerHTML` after the scripts ran.
    pub dom: String,
    /// URLs the page itself requested (anything but its own `file://` load).
    pub page_requests: Vec<String>,
    /// The page's console messages, one per line (Chromium's `INFO:CONSOLE` log lines).
    pub console: String,
}

impl Loaded {
    /// The console lines reporting a Content-Security-Policy violation.
    pub fn csp_violations(&self) -> Vec<&str> {
        self.console.lines().filter(|l| l.contains("Content Security Policy")).collect()
    }
}

/// The Chromium binary (Debian's `chromium`); panics with the fix when it is missing.
pub fn chromium() -> PathBuf {
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        for dir in std::env::var("PATH").unwrap_or_default().split(':') {
            let p = Path::new(dir).join(name);
            if p.is_file() {
                return p;
            }
        }
    }
    panic!("no chromium on PATH: run scripts/test (it installs chromium), or apt-get install -y chromium");
}

/// A fresh folder under Cargo's target tmp dir for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("view-tests").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Loads `file` (with `fragment`, e.g. `event=12`) in headless Chromium. Every request,
/// loopback included, goes to a closed proxy (and is logged).
pub fn load(file: &Path, fragment: &str) -> Loaded {
    let file = file.canonicalize().expect("page exists");
    let work = file.parent().unwrap().join(format!(".chromium-{}", file.file_name().unwrap().to_string_lossy()));
    let url = format!("file://{}#{fragment}", file.display());
    run(&url, &work, ["--proxy-bypass-list=<-loopback>", "--host-resolver-rules=MAP * ~NOTFOUND"])
}

/// Loads `url`, served on 127.0.0.1, in headless Chromium; `work` holds its profile and
/// logs. Loopback requests go straight to the server, any other to a closed proxy.
pub fn load_served(url: &str, work: &Path) -> Loaded {
    assert!(url.starts_with("http://127.0.0.1:"), "only loopback: {url}");
    run(url, work, ["--proxy-bypass-list=127.0.0.1", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"])
}

/// A screenshot of `file` at `width` × `height` CSS pixels (device scale 1), as RGBA rows:
/// `(width, height, pixels)` with 4 bytes a pixel. Network as in [`load`].
pub fn screenshot(file: &Path, width: u32, height: u32) -> (u32, u32, Vec<u8>) {
    let file = file.canonicalize().expect("page exists");
    let work = file.parent().unwrap().join(format!(".shot-{}", file.file_name().unwrap().to_string_lossy()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let png = work.join("shot.png");
    let out = Command::new(chromium())
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"])
        .args(["--disable-component-update", "--disable-sync", "--hide-scrollbars", "--force-device-scale-factor=1"])
        .args(["--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=<-loopback>"])
        .arg("--host-resolver-rules=MAP * ~NOTFOUND")
        .arg(format!("--user-data-dir={}", work.join("profile").display()))
        .arg(format!("--window-size={width},{height}"))
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("file://{}", file.display()))
        .output()
        .expect("chromium runs");
    assert!(out.status.success(), "chromium failed: {}", String::from_utf8_lossy(&out.stderr));
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png).expect("screenshot written")));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("size known")];
    let info = reader.next_frame(&mut buf).expect("one frame");
    buf.truncate(info.buffer_size());
    let rgba = match info.color_type {
        png::ColorType::Rgba => buf,
        png::ColorType::Rgb => buf.chunks(3).flat_map(|p| [p[0], p[1], p[2], 255]).collect(),
        other => panic!("screenshot colour type {other:?}"),
    };
    (info.width, info.height, rgba)
}

/// Runs Chromium on `url`; `network`: the proxy bypass list and the host resolver rules.
fn run(url: &str, work: &Path, network: [&str; 2]) -> Loaded {
    let _ = std::fs::remove_dir_all(work);
    std::fs::create_dir_all(work).unwrap();
    let netlog = work.join("net.json");
    let out = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--proxy-server=http://127.0.0.1:9",
            "--virtual-time-budget=5000",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .args(network)
        .arg(format!("--user-data-dir={}", work.join("profile").display()))
        .arg(format!("--log-net-log={}", netlog.display()))
        .arg("--dump-dom")
        .arg(url)
        .output()
        .expect("chromium runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "chromium failed: {stderr}");
    let dom = String::from_utf8(out.stdout).expect("utf-8 DOM");
    assert!(dom.contains("</html>"), "no DOM dumped for {url}");
    let console = stderr.lines().filter(|l| l.contains(":CONSOLE")).collect::<Vec<_>>().join("\n");
    Loaded { dom, page_requests: page_requests(&netlog), console }
}

/// URLs in the net log whose request a page initiated (browser services have the
/// initiator "not an origin"); the page's own `file://` load excluded.
fn page_requests(netlog: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(netlog).expect("chromium wrote its net log");
    // Chromium may stop before closing the JSON; the events array is what matters.
    let text =
        if text.trim_end().ends_with('}') { text } else { format!("{}]}}", text.trim_end().trim_end_matches(',')) };
    let log: serde_json::Value = serde_json::from_str(&text).expect("net log is JSON");
    let start_job = log["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"].as_u64().expect("event type known");
    let mut urls: Vec<String> = log["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["type"].as_u64() == Some(start_job))
        .filter(|e| e["params"]["initiator"].as_str() != Some("not an origin"))
        .filter_map(|e| e["params"]["url"].as_str().map(String::from))
        .filter(|u| !u.starts_with("file:"))
        .collect();
    urls.dedup();
    urls
}

/// The value of attribute `attr` of the first element after `anchor` whose opening tag
/// has it. Panics with the anchor when missing.
pub fn attr_after(dom: &str, anchor: &str, attr: &str) -> String {
    let at = dom.find(anchor).unwrap_or_else(|| panic!("{anchor} not in the page"));
    let key = format!("{attr}=\"");
    let from = at + dom[at..].find(&key).unwrap_or_else(|| panic!("no {attr} after {anchor}")) + key.len();
    let len = dom[from..].find('"').unwrap();
    dom[from..from + len].to_string()
}

/// The text of the element with `id` (tags stripped, entities of `&<>"` decoded).
pub fn text_of(dom: &str, id: &str) -> String {
    let open = format!("id=\"{id}\"");
    let at = dom.find(&open).unwrap_or_else(|| panic!("#{id} not in the page"));
    let start = at + dom[at..].find('>').unwrap() + 1;
    // Up to the end of the enclosing section is enough for assertions on contained text.
    let end = dom[start..].find("</section>").map_or(dom.len(), |e| start + e);
    let mut out = String::new();
    let mut in_tag = false;
    for c in dom[start..end].chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&amp;", "&")
}
