//! Details of the site a first visit meets (issue 54's trial): the icon browsers ask for by
//! themselves.

use super::support::{spawn_server, Http};

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
