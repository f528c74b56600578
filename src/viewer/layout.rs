//! What every page of `src/viewer/templates` and `src/pages/templates` shares: the `<head>` of `base.html` (title,
//! style inline or linked, the CSP `<meta>` of the standalone files), rendering, and the
//! Content-Security-Policy hashes of inline code.

use askama::Template;
use base64::Engine;
use sha2::{Digest, Sha256};

/// Style of the game viewer.
pub const GAME_CSS: &str = include_str!("assets/game.css");
/// Script of the game viewer.
pub const GAME_JS: &str = include_str!("assets/game.js");

/// The `<head>` of `base.html`.
#[derive(Debug, Clone)]
pub struct Head {
    /// The whole `<title>`.
    pub title: String,
    /// Content of a CSP `<meta>` (standalone files; the server sends a header instead).
    pub csp_meta: Option<String>,
    /// The style inline (standalone files) ...
    pub inline_style: Option<&'static str>,
    /// ... or else linked from this address (server pages).
    pub style_href: &'static str,
}

impl Head {
    /// A server page: style from `href`, the CSP from the response header.
    pub fn linked(title: String, href: &'static str) -> Head {
        Head { title, csp_meta: None, inline_style: None, style_href: href }
    }

    /// A standalone file: `style` inline, allowed by its hash in the CSP `<meta>` `csp`.
    pub fn inline(title: String, style: &'static str, csp: String) -> Head {
        Head { title, csp_meta: Some(csp), inline_style: Some(style), style_href: "" }
    }
}

/// What [`render`] gives in place of a page that failed.
const NOT_RENDERED: &str =
    "<!DOCTYPE html>\n<html lang=\"en\"><title>error</title><p>This page could not be rendered.</p></html>\n";

/// The page `t` renders. Rendering into a `String` fails only when a value's `Display`
/// fails, which none of ours does; the page then says so instead of panicking.
pub fn render(t: &impl Template) -> String {
    t.render().unwrap_or_else(|_| NOT_RENDERED.to_string())
}

/// The CSP source allowing an inline `<style>` or `<script>` whose content is exactly
/// `code`: `'sha256-BASE64'` (CSP level 2 hash source).
pub fn csp_hash(code: &str) -> String {
    format!("'sha256-{}'", base64::engine::general_purpose::STANDARD.encode(Sha256::digest(code.as_bytes())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_source_is_the_base64_sha256_of_the_code() {
        // printf 'alert(1)' | openssl dgst -sha256 -binary | base64
        assert_eq!(csp_hash("alert(1)"), "'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='");
    }
}
