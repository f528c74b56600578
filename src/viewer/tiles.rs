//! The viewer's tile set, drawn here as one inline SVG sprite: a `<symbol id="tile-NAME">`
//! per mjai tile name (`1m`..`9m`, `1p`..`9p`, `1s`..`9s`, `E S W N P F C`, the red fives
//! `5mr 5pr 5sr`), the back (`tile-back`) and a tile the viewer cannot name
//! (`tile-unknown`). `game.js` shows a tile as `<svg><use href="#tile-NAME"/></svg>`.
//!
//! Nothing needs a system font beyond Latin: pinzu and souzu are circles and sticks, manzu
//! a Latin digit over a red `m`, winds the letters E S W N, the dragons drawn as on the
//! real tiles' colours (white: an empty blue frame, green: a green `F`, red: a red `C`, the
//! mjai letters). A machine without CJK fonts reads every tile. Only presentation
//! attributes, no `style`: the page's Content-Security-Policy allows no inline style.

use std::fmt::Write;
use std::sync::LazyLock;

/// Width and height of a tile's `viewBox`, in SVG user units.
pub const VIEW_BOX: (u32, u32) = (30, 40);

const BLUE: &str = "#1d4fa0";
const GREEN: &str = "#1f7a34";
const RED: &str = "#c0282d";
const INK: &str = "#222";

/// The sprite: a zero-size `<svg class="sprite">` holding every symbol (about 9 KB).
pub static SPRITE: LazyLock<String> = LazyLock::new(sprite);

/// Every symbol id's tile name, in the order of the sprite.
pub fn names() -> Vec<String> {
    let mut out = Vec::new();
    for suit in ['m', 'p', 's'] {
        out.extend((1..=9).map(|n| format!("{n}{suit}")));
    }
    out.extend(["E", "S", "W", "N", "P", "F", "C", "5mr", "5pr", "5sr", "back", "unknown"].map(String::from));
    out
}

fn sprite() -> String {
    let (w, h) = VIEW_BOX;
    let mut out = String::from("<svg class=\"sprite\" aria-hidden=\"true\" focusable=\"false\">");
    for name in names() {
        let _ = write!(out, "<symbol id=\"tile-{name}\" viewBox=\"0 0 {w} {h}\">{}</symbol>", face(&name));
    }
    out.push_str("</svg>");
    out
}

/// The drawing of one tile (`name` as in [`names`]).
fn face(name: &str) -> String {
    let red = name.ends_with('r');
    let body = if red { "#ffe1e1" } else { "#fffdf6" };
    if name == "back" {
        return rect(1.0, 1.0, 28.0, 38.0, "#c98b2b", "#7a5216");
    }
    let mut out = rect(1.0, 1.0, 28.0, 38.0, body, "#8a8a8a");
    let mut chars = name.chars();
    match (chars.next(), chars.next()) {
        (Some(d @ '1'..='9'), Some(suit)) => {
            let n = d.to_digit(10).unwrap_or(1) as usize;
            match suit {
                'm' => {
                    out += &text(15.0, 21.0, 19.0, if red { RED } else { INK }, &d.to_string());
                    out += &text(15.0, 35.0, 13.0, RED, "m");
                }
                'p' => out += &pins(n, red),
                _ => out += &sticks(n, red),
            }
        }
        _ => match name {
            "E" | "S" | "W" | "N" => out += &text(15.0, 28.0, 22.0, INK, name),
            "P" => out += &rect(7.0, 8.0, 16.0, 24.0, "none", BLUE),
            "F" => out += &text(15.0, 28.0, 22.0, GREEN, "F"),
            "C" => out += &text(15.0, 28.0, 22.0, RED, "C"),
            _ => out += &text(15.0, 27.0, 18.0, "#888", "?"),
        },
    }
    out
}

fn rect(x: f32, y: f32, w: f32, h: f32, fill: &str, stroke: &str) -> String {
    format!(
        "<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" rx=\"3.5\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"1.6\"/>"
    )
}

fn text(x: f32, y: f32, size: f32, fill: &str, s: &str) -> String {
    format!(
        "<text x=\"{x}\" y=\"{y}\" font-size=\"{size}\" font-family=\"sans-serif\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{fill}\">{s}</text>"
    )
}

/// Centres of the pips of a tile numbered `n` (1..9), as on the real pinzu.
fn layout(n: usize) -> &'static [(f32, f32)] {
    const L: [&[(f32, f32)]; 9] = [
        &[(15.0, 20.0)],
        &[(15.0, 11.0), (15.0, 29.0)],
        &[(8.5, 9.0), (15.0, 20.0), (21.5, 31.0)],
        &[(9.5, 11.5), (20.5, 11.5), (9.5, 28.5), (20.5, 28.5)],
        &[(9.0, 10.0), (21.0, 10.0), (15.0, 20.0), (9.0, 30.0), (21.0, 30.0)],
        &[(10.0, 9.0), (20.0, 9.0), (10.0, 20.0), (20.0, 20.0), (10.0, 31.0), (20.0, 31.0)],
        &[(7.5, 7.0), (15.0, 11.0), (22.5, 15.0), (10.0, 24.0), (20.0, 24.0), (10.0, 33.0), (20.0, 33.0)],
        &[(10.0, 7.0), (20.0, 7.0), (10.0, 15.5), (20.0, 15.5), (10.0, 24.5), (20.0, 24.5), (10.0, 33.0), (20.0, 33.0)],
        &[
            (7.5, 9.0),
            (15.0, 9.0),
            (22.5, 9.0),
            (7.5, 20.0),
            (15.0, 20.0),
            (22.5, 20.0),
            (7.5, 31.0),
            (15.0, 31.0),
            (22.5, 31.0),
        ],
    ];
    L[n.clamp(1, 9) - 1]
}

/// Pinzu: `n` circles (blue; the red five's red), a dot in each.
fn pins(n: usize, red: bool) -> String {
    let r = match n {
        1 => 9.0,
        2 => 6.5,
        3..=5 => 5.0,
        6 => 4.6,
        _ => 3.6,
    };
    let mut out = String::new();
    for (i, &(x, y)) in layout(n).iter().enumerate() {
        let colour = if red || (n == 1) || (n == 5 && i == 2) { RED } else { BLUE };
        let _ = write!(
            out,
            "<circle cx=\"{x}\" cy=\"{y}\" r=\"{r}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"1.8\"/><circle cx=\"{x}\" cy=\"{y}\" r=\"{:.1}\" fill=\"{colour}\"/>",
            r * 0.4
        );
    }
    out
}

/// Souzu: `n` bamboo sticks (green; the red five's red); the 1 one tall stick with a red
/// knot.
fn sticks(n: usize, red: bool) -> String {
    if n == 1 {
        return format!(
            "<rect x=\"12\" y=\"6\" width=\"6\" height=\"28\" rx=\"3\" fill=\"{GREEN}\"/><circle cx=\"15\" cy=\"20\" r=\"3.2\" fill=\"{RED}\"/>"
        );
    }
    let h = if n <= 6 { 9.0 } else { 7.0 };
    let mut out = String::new();
    for (i, &(x, y)) in layout(n).iter().enumerate() {
        let colour =
            if red || (n == 5 && i == 2) || (n == 7 && i == 0) || (n == 9 && i % 3 == 1) { RED } else { GREEN };
        let _ = write!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"3.4\" height=\"{h}\" rx=\"1.5\" fill=\"{colour}\"/>",
            x - 1.7,
            y - h / 2.0
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tile_has_one_symbol_and_no_text_outside_ascii() {
        let names = names();
        assert_eq!(names.len(), 34 + 3 + 2);
        for n in &names {
            assert_eq!(SPRITE.matches(&format!("id=\"tile-{n}\"")).count(), 1, "{n}");
        }
        assert!(SPRITE.is_ascii(), "no character a Latin font lacks");
        assert!(!SPRITE.contains("style"), "no inline style: the CSP forbids it");
    }

    #[test]
    fn each_tile_has_its_count_of_pips_and_sticks() {
        for n in 1..=9 {
            assert_eq!(pins(n, false).matches("fill=\"none\"").count(), n, "{n}p");
            let want = if n == 1 { 1 } else { n };
            assert_eq!(sticks(n, false).matches("<rect").count(), want, "{n}s");
        }
        assert!(face("5pr").contains(RED) && !pins(5, true).contains(BLUE), "the red five is red");
    }
}
