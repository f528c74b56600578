//! The viewer page: one HTML file with its style, script and data inline (no network, no
//! CDN). The assets live in `assets/` and are included at build time.

use super::game::{analyse, GameData, GameInput};
use super::ViewError;

const TEMPLATE: &str = include_str!("assets/game.html");
const STYLE: &str = include_str!("assets/game.css");
const SCRIPT: &str = include_str!("assets/game.js");

/// The self-contained `game.html` of one game: about 20 KB of page plus the log as JSON.
/// Errors (one line) only when `input.log` is not an mjai log; see [`analyse`].
pub fn render_game(input: &GameInput) -> Result<String, ViewError> {
    Ok(page(&analyse(input)?))
}

/// The page showing `data`.
pub fn page(data: &GameData) -> String {
    let json = script_json(&serde_json::to_string(data).expect("view data always serialises"));
    let mut out = String::with_capacity(TEMPLATE.len() + STYLE.len() + SCRIPT.len() + json.len() + 256);
    for (i, part) in TEMPLATE.split("{{").enumerate() {
        if i == 0 {
            out.push_str(part);
            continue;
        }
        let (key, rest) = part.split_once("}}").unwrap_or(("", part));
        match key {
            "TITLE" => out.push_str(&escape_html(&data.title)),
            "STYLE" => out.push_str(STYLE),
            "SCRIPT" => out.push_str(SCRIPT),
            "DATA" => out.push_str(&json),
            _ => out.push_str("{{"),
        }
        out.push_str(rest);
    }
    out
}

/// JSON made safe inside `<script type="application/json">`: `</` and `<!--` cannot end or
/// open anything (`<\/` is the same JSON string).
pub fn script_json(json: &str) -> String {
    json.replace("</", "<\\/").replace("<!--", "<\\u0021--")
}

/// Text made safe between HTML tags and inside attribute values.
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_json_cannot_close_the_script() {
        let s = script_json(r#"{"x":"</script><!-- a"}"#);
        assert!(!s.contains("</") && !s.contains("<!--"));
        let back: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(back["x"], "</script><!-- a");
        assert_eq!(escape_html("<a href=\"x\">&'"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
    }
}
