//! The operator's author commands against a running server: `serve author list`, `revoke`
//! (the token gets 401 at once) and `rotate` (a new token works, the old one gets 401); and
//! `author add` without `--db` creates no store (an error naming `--db`).

use super::support::{mjai_sim, spawn_server, Server};

/// The status of `POST /login` with `token`: 303 for a known token, 401 otherwise.
fn login(server: &Server, token: &str) -> u16 {
    let body = format!("token={token}");
    let request = format!(
        "POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    server.raw(&request).0
}

/// `serve author ARGS --db <the server's store>`: (exit code, stdout, stderr).
fn author(server: &Server, args: &[&str]) -> (i32, String, String) {
    let db = server.dir.path().join("serve.sqlite").display().to_string();
    let mut argv = vec!["serve", "author"];
    argv.extend(args);
    argv.extend(["--db", &db]);
    let out = mjai_sim(&argv).output().unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (out.status.code().unwrap_or(-1), text(out.stdout), text(out.stderr))
}

#[test]
fn a_revoked_or_rotated_token_gets_401_from_the_running_server() {
    let server = spawn_server(&[]);
    let (alice, root) = (server.author("alice", false), server.author("root", true));
    assert_eq!((login(&server, &alice), login(&server, &root)), (303, 303));

    let (code, list, _) = author(&server, &["list"]);
    assert_eq!(code, 0);
    let rows: Vec<Vec<&str>> = list.lines().skip(1).map(|l| l.split_whitespace().collect()).collect();
    assert_eq!(rows.len(), 2, "{list}");
    assert_eq!((rows[0][0], rows[0][1], rows[0][4], rows[0][5]), ("alice", "no", "0", "active"), "{list}");
    assert_eq!((rows[1][0], rows[1][1], rows[1][5]), ("root", "yes", "active"), "{list}");

    let (code, out, err) = author(&server, &["revoke", "alice"]);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    assert_eq!(login(&server, &alice), 401, "revoked: refused at once");
    assert_eq!(login(&server, &root), 303, "the others keep theirs");
    assert!(author(&server, &["list"]).1.lines().nth(1).unwrap().ends_with("revoked"));

    let (code, out, err) = author(&server, &["rotate", "alice"]);
    assert_eq!(code, 0, "{err}");
    let new = out.trim();
    assert_eq!((out.lines().count(), new.len()), (1, 64), "only the token on stdout: {out:?}");
    assert_eq!((login(&server, new), login(&server, &alice)), (303, 401), "the new token works, the old one not");
    let (code, _, _) = author(&server, &["rotate", "root"]);
    assert_eq!((code, login(&server, &root)), (0, 401), "rotating an active token ends it");

    let (code, out, err) = author(&server, &["revoke", "nobody"]);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(err.contains("no author named nobody") && err.lines().count() == 1, "{err}");
}

#[test]
fn author_add_without_db_creates_no_store() {
    let dir = tempfile::tempdir().unwrap();
    let out = mjai_sim(&["serve", "author", "add", "bob"]).current_dir(dir.path()).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(out.stdout.is_empty(), "no token printed");
    assert!(err.contains("--db") && err.lines().count() == 1, "{err}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "nothing created");
    // With the default file present (a server started here), it is used.
    let made = mjai_sim(&["serve", "author", "add", "bob", "--db", "mjai-sim-serve.sqlite"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let list = mjai_sim(&["serve", "author", "list"]).current_dir(dir.path()).output().unwrap();
    assert!(list.status.success(), "{}", String::from_utf8_lossy(&list.stderr));
    assert!(String::from_utf8_lossy(&list.stdout).lines().nth(1).unwrap().starts_with("bob "));
}
