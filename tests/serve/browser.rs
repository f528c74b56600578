//! Headless Chromium driven over WebDriver ([`spawn_browser`]): Debian's `chromedriver`
//! on a free loopback port, a fresh profile, and fantoccini as the client. Only the
//! server on 127.0.0.1 is reachable: any other host goes to a closed proxy and resolves
//! nowhere, so nothing leaves the machine. Blocking methods (each on the browser's own
//! small runtime), for the synchronous tests of this binary.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;

use super::support::poll;

/// A Chromium session and its chromedriver (killed on drop).
pub struct Browser {
    runtime: tokio::runtime::Runtime,
    client: Option<Client>,
    driver: Child,
    _profile: tempfile::TempDir,
}

/// `chromedriver` on PATH; panics with the fix when it is missing.
fn chromedriver() -> String {
    for dir in std::env::var("PATH").unwrap_or_default().split(':') {
        let p = Path::new(dir).join("chromedriver");
        if p.is_file() {
            return p.display().to_string();
        }
    }
    panic!("no chromedriver on PATH: run scripts/test (it installs chromium-driver)");
}

/// Starts chromedriver and a headless Chromium session.
pub fn spawn_browser() -> Browser {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let driver = Command::new(chromedriver())
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let profile = tempfile::tempdir().unwrap();
    let mut browser = Browser { runtime, client: None, driver, _profile: profile };
    let chrome = json!({
        "binary": super::browser_support::chromium(),
        "args": [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=127.0.0.1",
            "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
            format!("--user-data-dir={}", browser._profile.path().display()),
        ],
    });
    let mut caps = serde_json::Map::new();
    caps.insert("goog:chromeOptions".into(), chrome);
    let url = format!("http://127.0.0.1:{port}");
    let client = poll(Duration::from_secs(60), "chromedriver to answer", || {
        browser.runtime.block_on(async {
            let connector = hyper_util::client::legacy::connect::HttpConnector::new();
            ClientBuilder::new(connector).capabilities(caps.clone()).connect(&url).await.ok()
        })
    });
    browser.client = Some(client);
    browser
}

impl Browser {
    fn client(&self) -> &Client {
        self.client.as_ref().expect("a session")
    }

    /// Opens `url` (the server's, on 127.0.0.1).
    pub fn goto(&self, url: &str) {
        assert!(url.starts_with("http://127.0.0.1:"), "only loopback: {url}");
        self.runtime.block_on(self.client().goto(url)).unwrap();
    }

    /// The path of the page shown.
    pub fn path(&self) -> String {
        self.runtime.block_on(self.client().current_url()).unwrap().path().to_string()
    }

    /// Types `text` into the element at `css` (for a file input: the file's path).
    pub fn type_into(&self, css: &str, text: &str) {
        self.runtime.block_on(async {
            let e = self.client().find(Locator::Css(css)).await.unwrap_or_else(|e| panic!("{css}: {e}"));
            e.send_keys(text).await.unwrap();
        });
    }

    /// Clicks the element at `css` and waits until the page at `path` has loaded.
    pub fn click_to(&self, css: &str, path: &str) {
        self.runtime.block_on(async {
            let e = self.client().find(Locator::Css(css)).await.unwrap_or_else(|e| panic!("{css}: {e}"));
            e.click().await.unwrap();
        });
        poll(Duration::from_secs(30), &format!("the page {path}"), || {
            let ready = self.runtime.block_on(self.client().execute("return document.readyState", vec![])).ok()?;
            (self.path() == path && ready == "complete").then_some(())
        });
    }

    /// The text of the element at `css` (`None`: no such element).
    pub fn text(&self, css: &str) -> Option<String> {
        self.runtime.block_on(async {
            let e = self.client().find(Locator::Css(css)).await.ok()?;
            e.text().await.ok()
        })
    }

    /// Attribute `name` of the element at `css`.
    pub fn attr(&self, css: &str, name: &str) -> Option<String> {
        self.runtime.block_on(async {
            let e = self.client().find(Locator::Css(css)).await.ok()?;
            e.attr(name).await.ok().flatten()
        })
    }

    /// The page's DOM as HTML.
    pub fn source(&self) -> String {
        self.runtime.block_on(self.client().source()).unwrap()
    }

    /// How many elements `css` finds.
    pub fn count(&self, css: &str) -> usize {
        self.runtime.block_on(self.client().find_all(Locator::Css(css))).map_or(0, |v| v.len())
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if let Some(client) = self.client.take() {
            let _ =
                self.runtime.block_on(async { tokio::time::timeout(Duration::from_secs(10), client.close()).await });
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}
