//! Hostile requests: each is sent to one server and answered with the status it should
//! get; after all of them the server still serves. The table in docs/server.md lists the
//! same requests (keep them in step).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use super::support::{example_zip, raw_bytes, spawn_server, status_of, zip_of, Http, Server};

/// A raw multipart upload (`name` field, `file` field with `zip`) with `token`.
fn multipart(server: &Server, token: &str, name: &str, zip: &[u8]) -> Vec<u8> {
    let boundary = "XhostileBoundaryX";
    let mut body: Vec<u8> = Vec::new();
    body.extend(format!("--{boundary}\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\n{name}\r\n").as_bytes());
    body.extend(
        format!("--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"b.zip\"\r\n\r\n").as_bytes(),
    );
    body.extend(zip);
    body.extend(format!("\r\n--{boundary}--\r\n").as_bytes());
    let mut req = format!(
        "POST /api/bots HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {token}\r\nContent-Type: multipart/form-data; boundary={boundary}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        server.addr,
        body.len()
    )
    .into_bytes();
    req.extend(body);
    req
}

/// `METHOD PATH` with optional extra header lines, no body.
fn plain(server: &Server, method: &str, path: &str, headers: &str) -> Vec<u8> {
    format!("{method} {path} HTTP/1.1\r\nHost: {}\r\n{headers}Connection: close\r\n\r\n", server.addr).into_bytes()
}

/// A zip with a symbolic link entry.
fn symlink_zip() -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let o = zip::write::SimpleFileOptions::default();
    w.start_file("bot.py", o).unwrap();
    w.write_all(b"print(1)").unwrap();
    w.add_symlink("evil", "/etc/passwd", o).unwrap();
    w.finish().unwrap().into_inner()
}

/// A zip with `n` empty files besides bot.py.
fn many_entries(n: usize) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let o = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    w.start_file("bot.py", o).unwrap();
    for i in 0..n {
        w.start_file(format!("f/{i}"), o).unwrap();
    }
    w.finish().unwrap().into_inner()
}

/// Streams `total` bytes of a chunked upload body until the server answers; returns its status.
fn stream_upload(server: &Server, token: &str, total: u64) -> u16 {
    let mut s = TcpStream::connect(server.addr).unwrap();
    let head = format!(
        "POST /api/bots HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\nContent-Type: multipart/form-data; boundary=B\r\nTransfer-Encoding: chunked\r\n\r\n"
    );
    s.write_all(head.as_bytes()).unwrap();
    let mut reader = s.try_clone().unwrap();
    reader.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let writer = std::thread::spawn(move || {
        let chunk = vec![b'A'; 1 << 16];
        let mut sent = 0u64;
        let mut first = b"--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"b.zip\"\r\n\r\n".to_vec();
        while sent < total {
            let data: &[u8] = if first.is_empty() { &chunk } else { &first };
            if s.write_all(format!("{:x}\r\n", data.len()).as_bytes()).is_err()
                || s.write_all(data).is_err()
                || s.write_all(b"\r\n").is_err()
            {
                return sent; // the server stopped reading
            }
            sent += data.len() as u64;
            first.clear();
        }
        sent
    });
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    while !answer.windows(4).any(|w| w == b"\r\n\r\n") {
        match reader.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => answer.extend(&buf[..n]),
        }
    }
    drop(reader);
    let sent = writer.join().unwrap();
    assert!(sent < total, "the server read the whole {total}-byte body");
    status_of(&String::from_utf8_lossy(&answer))
}

/// A connection that sends half a request head and then nothing: closed by the server
/// within the header timeout; returns how long that took.
fn slowloris(server: &Server) -> Duration {
    let mut s = TcpStream::connect(server.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    s.write_all(b"GET /api/leaderboard HTTP/1.1\r\nHost: x\r\nX-Slow: ").unwrap();
    let started = Instant::now();
    let mut answer = Vec::new();
    let _ = s.read_to_end(&mut answer);
    started.elapsed()
}

#[test]
fn hostile_requests_get_their_status_and_the_server_serves_on() {
    let server = spawn_server(&["--max-submission-mb", "16", "--max-unpacked-mb", "16", "--header-timeout", "2"]);
    let (a, b) = (server.author("alice", false), server.author("bob", false));
    let http = Http::new();
    assert_eq!(http.upload(&server, Some(&b), "bobs", example_zip("tsumogiri")).status, 202);
    let bot = example_zip("tsumogiri");
    let bomb = zip_of(&[("bot.py", b"x"), ("bomb.bin", &vec![0u8; 64 << 20])]);
    assert!(bomb.len() < 1 << 20, "the bomb is small packed");
    let over_cap = {
        let mut big = bot.clone();
        big.resize(17 << 20, 0);
        big
    };
    let cases: Vec<(&str, u16, Vec<u8>)> = vec![
        ("upload without a token", 401, plain(&server, "POST", "/api/bots", "Content-Length: 0\r\n")),
        ("upload with an unknown token", 401, multipart(&server, &"0".repeat(64), "x", &bot)),
        ("upload with a 10 KB token", 401, multipart(&server, &"a".repeat(10_000), "x", &bot)),
        ("upload with a token cookie of nobody", 401, plain(&server, "POST", "/api/bots", &format!("Cookie: mjai_token={}\r\nContent-Length: 0\r\n", "1".repeat(64)))),
        ("header not UTF-8",
            401,
            b"POST /api/bots HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \xff\xfe\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_vec(),
        ),
        ("zip bomb (64 MiB of zeros, --max-unpacked-mb 16)", 400, multipart(&server, &a, "bomb", &bomb)),
        ("zip with a symlink entry", 400, multipart(&server, &a, "sym", &symlink_zip())),
        ("zip with 100,001 entries", 400, multipart(&server, &a, "many", &many_entries(100_001))),
        ("zip with a ../ entry", 400, multipart(&server, &a, "slip", &zip_of(&[("bot.py", b"x"), ("../evil.py", b"x")]))),
        ("zip without bot.py", 400, multipart(&server, &a, "nobot", &zip_of(&[("main.py", b"x")]))),
        ("file that is not a zip", 400, multipart(&server, &a, "text", b"just text")),
        ("empty file", 400, multipart(&server, &a, "empty", b"")),
        ("name with ../", 400, multipart(&server, &a, "../etc", &bot)),
        ("name with HTML", 400, multipart(&server, &a, "<script>alert(1)</script>", &bot)),
        ("empty name", 400, multipart(&server, &a, "", &bot)),
        ("name of 41 characters", 400, multipart(&server, &a, &"n".repeat(41), &bot)),
        ("name with a newline", 400, multipart(&server, &a, "a\nb", &bot)),
        ("form without the file field", 400, {
            let mut r = multipart(&server, &a, "nofile", b"");
            let text = String::from_utf8_lossy(&r).replace("name=\"file\"", "name=\"other\"");
            r = text.into_bytes();
            r
        }),
        ("body that is not multipart", 415, format!("POST /api/bots HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {a}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{{}}").into_bytes()),
        ("multipart with a broken boundary", 400, format!("POST /api/bots HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {a}\r\nContent-Type: multipart/form-data; boundary=B\r\nContent-Length: 10\r\nConnection: close\r\n\r\n--X\r\ngarbage").into_bytes()),
        ("zip over the size cap (17 MiB, cap 16)", 413, multipart(&server, &a, "big", &over_cap)),
        ("Content-Length of 2 GB", 413, format!("POST /api/bots HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {a}\r\nContent-Type: multipart/form-data; boundary=B\r\nContent-Length: 2147483648\r\nConnection: close\r\n\r\n").into_bytes()),
        ("upload under another author's name", 409, multipart(&server, &a, "bobs", &bot)),
        ("upload under a house bot's name", 409, multipart(&server, &a, "rulebase", &bot)),
        ("100 KB header", 431, plain(&server, "GET", "/api/leaderboard", &format!("X-Big: {}\r\n", "h".repeat(100_000)))),
        ("PUT /api/leaderboard", 405, plain(&server, "PUT", "/api/leaderboard", "Content-Length: 0\r\n")),
        ("PATCH /api/bots/bobs", 405, plain(&server, "PATCH", "/api/bots/bobs", "Content-Length: 0\r\n")),
        ("GET /api/bots", 405, plain(&server, "GET", "/api/bots", "")),
        ("TRACE /healthz", 405, plain(&server, "TRACE", "/healthz", "")),
        ("unknown route /etc/passwd", 404, plain(&server, "GET", "/etc/passwd", "")),
        ("/api/games/../../etc/passwd", 404, plain(&server, "GET", "/api/games/../../etc/passwd", "")),
        ("/api/games/abc", 404, plain(&server, "GET", "/api/games/abc", "")),
        ("/api/games/99999999999999999999 (over u64)", 404, plain(&server, "GET", "/api/games/99999999999999999999", "")),
        ("/api/bots/%3Cscript%3E", 404, plain(&server, "GET", "/api/bots/%3Cscript%3E", "")),
        ("another author's errors", 404, plain(&server, "GET", "/api/bots/bobs/errors", &format!("Authorization: Bearer {a}\r\n"))),
        ("another author's validation game", 404, plain(&server, "GET", "/api/bots/bobs/validation", &format!("Authorization: Bearer {a}\r\n"))),
        ("errors without a token", 404, plain(&server, "GET", "/api/bots/bobs/errors", "")),
        ("retire another author's bot", 403, plain(&server, "DELETE", "/api/bots/bobs", &format!("Authorization: Bearer {a}\r\n"))),
        ("retire without a token", 401, plain(&server, "DELETE", "/api/bots/bobs", "")),
        ("Basic instead of Bearer", 401, plain(&server, "DELETE", "/api/bots/bobs", "Authorization: Basic YWxpY2U6eA==\r\n")),
        ("two Authorization headers, each a valid token", 401, plain(&server, "GET", "/api/leaderboard", &format!("Authorization: Bearer {a}\r\nAuthorization: Bearer {a}\r\n"))),
        ("an empty Bearer token", 401, plain(&server, "GET", "/api/leaderboard", "Authorization: Bearer \r\n")),
        ("one valid Bearer token on a public read", 200, plain(&server, "GET", "/api/leaderboard", &format!("Authorization: Bearer {a}\r\n"))),
        ("login with an unknown token", 401, format!("POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 70\r\nConnection: close\r\n\r\ntoken={}", "0".repeat(64)).into_bytes()),
        ("login with a 100 KB body", 413, format!("POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100006\r\nConnection: close\r\n\r\ntoken={}", "0".repeat(100_000)).into_bytes()),
        ("garbage request line", 400, b"HELLO\r\n\r\n".to_vec()),
    ];
    let mut wrong = Vec::new();
    for (what, expected, request) in &cases {
        let (status, answer) = raw_bytes(server.addr, request);
        if status != *expected {
            wrong.push(format!("{what}: {status}, expected {expected}: {}", answer.lines().last().unwrap_or("")));
        }
    }
    let streamed = stream_upload(&server, &a, 2_000_000_000);
    if streamed != 413 {
        wrong.push(format!("2 GB chunked body streamed: {streamed}, expected 413"));
    }
    let slow = slowloris(&server);
    if slow > Duration::from_secs(10) {
        wrong.push(format!("slowloris header: held {slow:?}, expected closed within the 2 s header timeout"));
    }
    assert!(
        wrong.is_empty(),
        "{} of {} hostile requests answered wrongly:\n{}",
        wrong.len(),
        cases.len() + 2,
        wrong.join("\n")
    );
    assert!(cases.len() + 2 >= 30);

    // still serving, every answer with the security headers
    let health = http.get(&server.url("/healthz"), None);
    assert_eq!(health.status, 200);
    let board = http.get(&server.url("/api/leaderboard"), None);
    assert_eq!(board.status, 200);
    let csp = board.headers["content-security-policy"].to_str().unwrap();
    assert!(csp.contains("default-src 'none'") && csp.contains("frame-ancestors 'none'"), "{csp}");
    assert_eq!(board.headers["x-content-type-options"], "nosniff");
    assert_eq!(board.headers["referrer-policy"], "no-referrer");
    let refused = http.get(&server.url("/nope"), None);
    assert_eq!(refused.headers["x-content-type-options"], "nosniff", "errors carry the headers too");
    // no refused upload left a trace
    let names: Vec<String> =
        board.json()["bots"].as_array().unwrap().iter().map(|e| e["name"].as_str().unwrap().to_string()).collect();
    assert_eq!(names.len(), 5, "4 house bots and bob's: {names:?}");
}

#[test]
fn rate_limits_per_token_and_per_ip_answer_429() {
    let server = spawn_server(&["--rate-per-token", "5", "--rate-per-ip", "30"]);
    let (a, b) = (server.author("alice", false), server.author("bob", false));
    let http = Http::new();
    let board = |t: &str| http.get(&server.url("/api/leaderboard"), Some(t)).status;
    let first: Vec<u16> = (0..8).map(|_| board(&a)).collect();
    assert_eq!(&first[..5], &[200; 5]);
    assert!(first[5..].iter().all(|&s| s == 429), "{first:?}");
    assert_eq!(board(&b), 200, "another token has its own bucket");
    let limited = http.get(&server.url("/api/leaderboard"), Some(&a));
    assert!(limited.headers.contains_key("retry-after"));
    // the IP's bucket: 30 a minute in all
    let statuses: Vec<u16> = (0..40).map(|_| http.get(&server.url("/healthz"), None).status).collect();
    assert!(statuses.contains(&429), "{statuses:?}");
}
