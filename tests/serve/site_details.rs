//! Details of the site a first visit meets (issue 54's trial): the icon browsers ask for by
//! themselves, an upload form that is not multipart told what to send, and the upload page
//! stating the runtime the server really plays zips in.

use super::pages::{login, page};
use super::support::{example_zip, spawn_in, spawn_server, Http};

#[test]
fn the_icon_is_served_and_may_be_kept_while_every_other_answer_is_not() {
    let server = spawn_server(&[]);
    let http = Http::new();
    let (status, headers, bytes) = http.bytes(http.client().get(server.url("/favicon.ico")));
    assert_eq!(status, 200, "/favicon.ico");
    assert_eq!(headers["content-type"], "image/x-icon");
    assert_eq!(headers["cache-control"], "public, max-age=86400");
    assert_eq!(bytes, mjai_sim::pages::FAVICON, "the icon in the binary: nothing fetched");
    assert_eq!(&bytes[..4], [0, 0, 1, 0], "an ICO file");
    assert_eq!(headers["x-content-type-options"], "nosniff", "the security headers as everywhere");
    // the other side: pages, the API and errors are never kept
    for path in ["/", "/api/leaderboard", "/favicon.png", "/assets/site.css"] {
        let a = http.get(&server.url(path), None);
        assert_eq!(a.headers["cache-control"], "no-store", "{path} ({})", a.status);
    }
}

/// `POST path` with `content_type` (none: `None`) and `body`, with `token` as a Bearer token
/// or, for the page, the cookie pair `cookie`.
fn post(
    http: &Http,
    url: &str,
    content_type: Option<&str>,
    body: &str,
    token: Option<&str>,
    cookie: Option<&str>,
) -> super::support::Answer {
    let mut r = http.client().post(url).body(body.to_string());
    if let Some(t) = content_type {
        r = r.header("content-type", t);
    }
    if let Some(t) = token {
        r = r.bearer_auth(t);
    }
    if let Some(c) = cookie {
        r = r.header("cookie", c);
    }
    http.send(r)
}

#[test]
fn an_upload_that_is_not_a_multipart_form_is_told_to_be_one() {
    let server = spawn_server(&[]);
    let token = server.author("ann", false);
    let http = Http::new();
    let api = server.url("/api/bots");
    for (content_type, body) in [
        (Some("application/x-www-form-urlencoded"), "name=mybot&kind=remote"),
        (Some("application/json"), r#"{"name":"mybot"}"#),
        (Some("text/plain"), "mybot"),
        (None, "name=mybot"),
    ] {
        let a = post(&http, &api, content_type, body, Some(&token), None);
        let error = a.json()["error"].as_str().unwrap_or_default().to_string();
        assert_eq!(a.status, 415, "{content_type:?}: {error}");
        assert!(error.contains("multipart/form-data") && error.contains("curl -F"), "{error}");
        assert!(!error.contains("Invalid `boundary`"), "{error}");
    }
    // multipart without a boundary: 400, saying what is missing
    let a = post(&http, &api, Some("multipart/form-data"), "--x\r\n", Some(&token), None);
    assert_eq!(a.status, 400, "{}", a.body);
    assert!(a.json()["error"].as_str().unwrap().contains("`boundary`"), "{}", a.body);
    // the page's form route: the form again, with the reason and the status
    let cookie = login(&http, &server, &token);
    let p =
        post(&http, &server.url("/upload"), Some("application/x-www-form-urlencoded"), "name=x", None, Some(&cookie));
    assert_eq!(p.status, 415, "{}", p.body);
    assert!(p.body.contains("<p class=\"error\" id=\"error\">an upload is a multipart"), "{}", p.body);
    assert!(p.body.contains("action=\"/upload\" enctype=\"multipart/form-data\""), "the form again");
    // the accepted side: a multipart form with its boundary is read, on both routes
    let zip = http.upload(&server, Some(&token), "zbot", example_zip("tsumogiri"));
    assert_eq!(zip.status, 202, "{}", zip.body);
    let form = reqwest::multipart::Form::new()
        .text("name", "pbot")
        .part("file", reqwest::multipart::Part::bytes(example_zip("tsumogiri")).file_name("bot.zip"));
    let ok = http.send(http.client().post(server.url("/upload")).header("cookie", &cookie).multipart(form));
    assert_eq!(ok.status, 303, "{}", ok.body);
}

/// The upload page's statement of where zips play, as `cookie`'s author sees it.
fn stated_runtime(http: &Http, server: &super::support::Server, cookie: &str) -> String {
    let p = page(http, server, "/upload", Some(cookie));
    assert_eq!(p.status, 200, "{}", p.body);
    let at = p.body.find("id=\"runtime\"").unwrap_or_else(|| panic!("no runtime stated: {}", p.body));
    p.body[at..].split("</span>").next().unwrap().to_string()
}

#[test]
fn the_upload_page_states_the_runtime_zips_really_play_in() {
    let http = Http::new();
    let server = spawn_server(&["--runtime", "process"]);
    let cookie = login(&http, &server, &server.author("ann", false));
    let process = stated_runtime(&http, &server, &cookie);
    assert!(process.contains("data-runtime=\"process\"") && process.contains("plain process"), "{process}");
    assert!(!process.contains("in a Docker container"), "{process}");
    // a later start keeps the league's stored runtime, whatever its --runtime says: the page
    // says the one the games use
    let dir = server.dir.clone();
    drop(server);
    let again = spawn_in(dir, &["--runtime", "docker"]);
    assert!(stated_runtime(&http, &again, &cookie).contains("data-runtime=\"process\""), "the stored runtime");
    // the other side: a league made with Docker says so
    let docker = spawn_server(&["--runtime", "docker"]);
    let cookie = login(&http, &docker, &docker.author("bea", false));
    let stated = stated_runtime(&http, &docker, &cookie);
    assert!(stated.contains("data-runtime=\"docker\"") && stated.contains("in a Docker container"), "{stated}");
}

#[test]
fn a_first_visitor_reads_the_rules_clock_limits_and_how_to_join_on_about() {
    let server = spawn_server(&["--rules", "riichi-dev-3p", "--clock", "riichi-dev", "--max-bots", "2"]);
    let http = Http::new();
    let about = page(&http, &server, "/about", None);
    assert_eq!(about.status, 200, "{}", about.body);
    assert_eq!(about.headers["content-type"], "text/html; charset=utf-8");
    for said in [
        "<code>riichi-dev-3p</code>: 3 players at every table",
        "Clock: 3 s per decision, a 15 s time bank per hand; a timeout plays the default action, with no penalty.",
        "as a plain process on the server",
        "at most 2 bots validating or active",
        "href=\"/api/openapi.json\"",
        "mjai-sim serve author add NAME",
    ] {
        assert!(about.body.contains(said), "{said}: {}", about.body);
    }
    // linked from every page's bar
    assert!(page(&http, &server, "/", None).body.contains("<a href=\"/about\">About</a>"));
}
