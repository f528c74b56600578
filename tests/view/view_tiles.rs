//! The viewer reads on a machine without CJK fonts or emoji (Debian without fonts-noto-cjk:
//! `fc-list :lang=ja` prints nothing): every tile is an SVG drawing, the page's text is
//! Latin, each of the 39 drawings renders as its own picture (a missing glyph would draw the
//! same empty box for several), and the current event reads as a line of words with the raw
//! JSON in a `<details>`.

use std::collections::HashSet;

use crate::browser_support::{load, scratch, screenshot};
use mjai_sim::bots::{from_spec, selfplay};
use mjai_sim::engine::event::Event;
use mjai_sim::engine::tile::Tile;
use mjai_sim::viewer::tiles::{names, SPRITE};
use mjai_sim::viewer::{render_game, GameInput};

/// Characters a Latin font has: Latin-1 and common punctuation (dashes, quotes, ellipsis).
fn latin(c: char) -> bool {
    (c as u32) <= 0xff || "\u{2013}\u{2014}\u{2018}\u{2019}\u{201c}\u{201d}\u{2026}".contains(c)
}

/// The DOM without the contents of its `<script>` elements (the log's JSON, the code).
fn without_scripts(dom: &str) -> String {
    let mut out = String::new();
    let mut rest = dom;
    while let Some(at) = rest.find("<script") {
        out.push_str(&rest[..at]);
        let end = rest[at..].find("</script>").expect("closed script") + at + "</script>".len();
        rest = &rest[end..];
    }
    out + rest
}

/// A self-play hanchan with pon, chi, riichi and hora (seed picked among the first ones).
fn game() -> Vec<Event> {
    let names = ["builtin:random", "builtin:rulebase", "builtin:random", "builtin:rulebase"];
    for seed in 0..20 {
        let mut agents = names.map(|n| from_spec(n).unwrap());
        let config = selfplay::series_config(7, seed, names.map(String::from));
        let g = selfplay::play(config, &mut agents, &mut selfplay::IgnoreAnswers).unwrap();
        let has = |f: fn(&Event) -> bool| g.log.iter().any(f);
        if has(|e| matches!(e, Event::Pon { .. }))
            && has(|e| matches!(e, Event::Chi { .. }))
            && has(|e| matches!(e, Event::Reach { .. }))
            && has(|e| matches!(e, Event::Hora { .. }))
        {
            return g.log;
        }
    }
    panic!("no game of the first 20 seeds has pon, chi, riichi and hora");
}

fn page(log: &[Event], name: &str) -> std::path::PathBuf {
    let text: String = log.iter().map(|e| e.to_json() + "\n").collect();
    let html = render_game(&GameInput { title: "tiles".into(), log: &text, ..Default::default() }).unwrap();
    let path = scratch(name).join("game.html");
    std::fs::write(&path, html).unwrap();
    path
}

#[test]
fn every_tile_is_a_drawing_and_the_text_is_latin() {
    let log = game();
    let path = page(&log, "latin");
    let call = log.iter().position(|e| matches!(e, Event::Pon { .. })).unwrap();
    let shown = load(&path, &format!("event={}", call + 1));
    let dom = without_scripts(&shown.dom);
    let tiles = dom.matches("class=\"tile").count();
    assert!(tiles >= 4 * 13, "the hands are drawn: {tiles} tiles");
    assert_eq!(dom.matches("<svg class=\"tile").count(), tiles, "every tile is an <svg>");
    assert_eq!(dom.matches("<use href=\"#tile-").count(), tiles, "every tile draws a symbol of the sprite");
    let foreign: HashSet<char> = dom.chars().filter(|&c| !latin(c)).collect();
    assert!(foreign.is_empty(), "characters a Latin font lacks: {foreign:?}");
    assert!(shown.page_requests.is_empty(), "the page made requests: {:?}", shown.page_requests);
    assert!(shown.csp_violations().is_empty(), "the sprite needs no inline style: {}", shown.console);
}

/// Every drawing at 60 × 80 CSS pixels in a 10-column grid, screenshotted: each is more than
/// a uniform box and no two are the same picture.
#[test]
fn the_39_drawings_render_as_39_different_pictures() {
    let names = names();
    let (w, h, cols) = (60usize, 80usize, 10usize);
    let mut html = String::from("<!DOCTYPE html><html><body style=\"margin:0;background:#fff\">");
    html.push_str(&SPRITE);
    for (i, n) in names.iter().enumerate() {
        html.push_str(&format!(
            "<svg style=\"position:absolute;left:{}px;top:{}px\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 30 40\"><use href=\"#tile-{n}\"/></svg>",
            (i % cols) * w,
            (i / cols) * h
        ));
    }
    html.push_str("</body></html>");
    let path = scratch("sprite").join("sprite.html");
    std::fs::write(&path, html).unwrap();
    let (width, _, px) = screenshot(&path, (cols * w) as u32, (names.len().div_ceil(cols) * h) as u32);
    let width = width as usize;
    let mut seen: Vec<(String, Vec<u8>)> = Vec::new();
    for (i, n) in names.iter().enumerate() {
        let (x0, y0) = ((i % cols) * w, (i / cols) * h);
        let cell: Vec<u8> =
            (y0..y0 + h).flat_map(|y| px[(y * width + x0) * 4..(y * width + x0 + w) * 4].to_vec()).collect();
        let colours: HashSet<&[u8]> = cell.chunks(4).collect();
        assert!(colours.len() > 8, "{n}: {} colours, not a drawing", colours.len());
        // Inside the frame, what the face shows: the same for two tiles means a blank or tofu.
        if let Some((other, _)) = seen.iter().find(|(_, c)| *c == cell) {
            panic!("{n} renders the same as {other}");
        }
        seen.push((n.clone(), cell));
    }
}

/// The text of the element `id` up to `close` (no nested tags), entities decoded.
fn inner(dom: &str, id: &str, close: &str) -> String {
    let at = dom.find(&format!("id=\"{id}\"")).unwrap_or_else(|| panic!("#{id} not in the page"));
    let start = at + dom[at..].find('>').unwrap() + 1;
    let end = start + dom[start..].find(close).unwrap();
    dom[start..end].replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&amp;", "&")
}

/// A tile as the event line names it, from the mjai name (this test's own table).
fn spoken(t: &Tile) -> String {
    let s = t.to_string();
    let honour = match s.as_str() {
        "E" => "East",
        "S" => "South",
        "W" => "West",
        "N" => "North",
        "P" => "white dragon",
        "F" => "green dragon",
        "C" => "red dragon",
        _ if s.ends_with('r') => return format!("red {}", &s[..2]),
        _ => return s,
    };
    honour.to_string()
}

#[test]
fn the_current_event_reads_as_a_line_with_the_raw_json_behind_a_click() {
    let log = game();
    let path = page(&log, "line");
    let label = |i: usize| {
        log[..=i]
            .iter()
            .rev()
            .find_map(|e| match e {
                Event::StartKyoku { bakaze, kyoku, honba, .. } => Some(format!("{bakaze}{kyoku}-{honba}")),
                _ => None,
            })
            .unwrap()
    };
    let first = |f: fn(&Event) -> bool| log.iter().position(f).unwrap();
    let mut checked = 0;
    for i in [
        first(|e| matches!(e, Event::Pon { .. })),
        first(|e| matches!(e, Event::Chi { .. })),
        first(|e| matches!(e, Event::Reach { .. })),
        first(|e| matches!(e, Event::Hora { .. })),
    ] {
        let shown = load(&path, &format!("event={i}"));
        let line = inner(&shown.dom, "event-line", "</div>");
        let want = match &log[i] {
            Event::Pon { actor, target, pai, .. } => format!("seat {actor} pon {} from seat {target}", spoken(pai)),
            Event::Chi { actor, target, pai, consumed } => format!(
                "seat {actor} chi {} from seat {target} with {}",
                spoken(pai),
                consumed.iter().map(spoken).collect::<Vec<_>>().join(" ")
            ),
            Event::Reach { actor } => format!("seat {actor} declares riichi"),
            Event::Hora { actor, target, .. } if actor == target => format!("seat {actor} hora by tsumo: "),
            Event::Hora { actor, target, .. } => format!("seat {actor} hora by ron from seat {target}: "),
            e => unreachable!("{e:?}"),
        };
        let want = format!("{} \u{b7} {want}", label(i));
        if matches!(log[i], Event::Hora { .. }) {
            assert!(line.starts_with(&want) && line.ends_with(" points"), "{line:?} is not {want:?}... points");
        } else {
            assert_eq!(line, want);
        }
        let raw = shown.dom.split("id=\"event-raw\"").nth(1).expect("the raw JSON is in a <details>");
        assert!(!raw.split('>').next().unwrap().contains("open"), "the raw JSON is folded");
        let json = inner(&shown.dom, "event-json", "</pre>");
        let json = json.strip_prefix(&format!("line {}: ", i + 1)).expect("the raw line with its number");
        let raw_event: serde_json::Value = serde_json::from_str(json).unwrap();
        assert_eq!(raw_event, serde_json::from_str::<serde_json::Value>(&log[i].to_json()).unwrap());
        checked += 1;
    }
    assert_eq!(checked, 4);
}
