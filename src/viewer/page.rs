//! The viewer page of one game (`templates/viewer.html`, script `assets/game.js`): as a
//! self-contained `game.html` (style, script and data inline, allowed by their hashes in
//! a CSP `<meta>`; no network, no CDN) or as the grading server's `/games/{id}` (style and
//! script from `/assets/`, under the server's `crate::pages::site::CSP`).

use std::sync::LazyLock;

use askama::Template;

use super::game::{analyse, GameData, GameInput};
use super::layout::{csp_hash, render, Head, GAME_CSS, GAME_JS};
use super::tiles::SPRITE;
use super::ViewError;

/// The CSP of a standalone `game.html`: nothing but its own inline style and script.
pub static GAME_HTML_CSP: LazyLock<String> = LazyLock::new(|| {
    format!("default-src 'none'; style-src {}; script-src {}; img-src data:", csp_hash(GAME_CSS), csp_hash(GAME_JS))
});

#[derive(Template)]
#[template(path = "viewer.html")]
struct Viewer<'a> {
    head: Head,
    title: &'a str,
    home: Option<&'static str>,
    /// The served page's logged-in author (`None`: a visitor; the standalone page has no
    /// header links beyond its title).
    author: Option<&'a str>,
    data: String,
    inline_script: Option<&'static str>,
    script_src: &'static str,
    sprite: &'static str,
    /// Files to download, as (label, URL) links in the header (the served page only).
    downloads: &'a [(&'a str, String)],
    /// A running game's page (the served page only): what follows it.
    live: Option<&'a Live>,
}

/// What a served page of a game still in play shows and follows: `hands` finished hands
/// are in the page, `stream` (a same-origin path) sends the next ones. The script `src`
/// (`/assets/live.js` on the server) reads both from the `#live` element.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Live {
    /// Finished hands shown.
    pub hands: u32,
    /// The event stream's path, e.g. `/api/games/7/live`.
    pub stream: String,
    /// The following script's path, e.g. `/assets/live.js`.
    pub script: &'static str,
}

/// The self-contained `game.html` of one game: about 20 KB of page plus the log as JSON.
/// Errors (one line) only when `input.log` is not an mjai log; see [`analyse`].
pub fn render_game(input: &GameInput) -> Result<String, ViewError> {
    Ok(page(&analyse(input)?))
}

/// The standalone page showing `data`.
pub fn page(data: &GameData) -> String {
    let head = Head::inline(format!("{} — mjai-sim", data.title), GAME_CSS, GAME_HTML_CSP.clone());
    render(&Viewer {
        head,
        title: &data.title,
        home: None,
        author: None,
        data: json(data),
        inline_script: Some(GAME_JS),
        script_src: "",
        sprite: &SPRITE,
        downloads: &[],
        live: None,
    })
}

/// The server's page showing `data`: style and script from `/assets/`, a link home, and
/// who is logged in (`author`: a link to `/me`; `None`: a link to `/login`); `live`: the
/// game is still played (its finished hands are `data`), followed by [`Live::script`].
pub fn served_page(data: &GameData, author: Option<&str>, downloads: &[(&str, String)], live: Option<&Live>) -> String {
    let head = Head::linked(format!("{} — mjai-sim", data.title), "/assets/game.css");
    render(&Viewer {
        head,
        title: &data.title,
        home: Some("/"),
        author,
        data: json(data),
        inline_script: None,
        script_src: "/assets/game.js",
        sprite: &SPRITE,
        downloads,
        live,
    })
}

fn json(data: &GameData) -> String {
    script_json(&serde_json::to_string(data).expect("view data always serialises"))
}

/// JSON made safe inside `<script type="application/json">`: no `<`, `>` or `&` left (each
/// written as its `\u00XX` escape, the same JSON string), so nothing in the data can end
/// the element or open a tag or comment.
pub fn script_json(json: &str) -> String {
    json.replace('<', "\\u003c").replace('>', "\\u003e").replace('&', "\\u0026")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_json_cannot_close_the_script() {
        let s = script_json(r#"{"x":"</script><!-- a & b"}"#);
        assert!(!s.contains('<') && !s.contains('>') && !s.contains('&'), "{s}");
        let back: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(back["x"], "</script><!-- a & b");
    }
}
