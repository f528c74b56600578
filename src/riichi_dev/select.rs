//! The legal set as the dialect shows it (`possible_actions`) and a bot's reply matched
//! against it, both from the engine's legal answers (pure).
//!
//! Matching follows RiichiEnv's `select_action_from_mjai` (riichienv-core 0.4.11,
//! `observation/mjai_select.rs`): `hora` is any legal win (tsumo or ron), `none` is the
//! pass, `dahai` is chosen by `pai` (its `tsumogiri` picks between a drawn tile and an
//! identical one in the hand), calls by the multiset of `consumed` plus `pai` when given;
//! `kita` (three-player: a North set aside) by its type, and `pai` when given (`"N"`);
//! `actor` and `target` are not read. RiichiEnv reads `kita` only at three seats
//! (`select_action(.., three_player)`); the engine offers it only there. Mortal-family
//! sanma bots answer `nukidora`: read as `kita` (as the engine's own parser does).

use serde_json::{json, Value};

use super::wire::Object;
use mjai_sim_engine::event::{Event, Seat};
use mjai_sim_engine::tile::Tile;

/// The dialect's `type` of a legal answer.
fn kind(event: &Event) -> &'static str {
    match event {
        Event::Dahai { .. } => "dahai",
        Event::Chi { .. } => "chi",
        Event::Pon { .. } => "pon",
        Event::Daiminkan { .. } => "daiminkan",
        Event::Kakan { .. } => "kakan",
        Event::Ankan { .. } => "ankan",
        Event::Reach { .. } => "reach",
        Event::Hora { .. } => "hora",
        Event::Ryukyoku { .. } => "ryukyoku",
        Event::Kita { .. } => "kita",
        Event::None => "none",
        _ => "other",
    }
}

/// `consumed` as RiichiEnv's `Action::to_mjai` writes it: in the order of its tile ids
/// (by kind, a red five before the plain ones), as its legal actions take them from its
/// sorted hand.
fn tiles(tiles: &[Tile]) -> Value {
    let mut sorted = tiles.to_vec();
    sorted.sort_by_key(|t| (t.kind(), !t.is_red()));
    json!(sorted.iter().map(|t| t.as_mjai()).collect::<Vec<_>>())
}

fn entry(pairs: &[(&str, Value)]) -> Object {
    pairs.iter().map(|(k, v)| (k.to_string(), v.clone())).collect()
}

/// The `possible_actions` of a request: each legal answer as an mjai object with sorted
/// keys and its `actor`, without `tsumogiri` and without `target` (RiichiEnv's
/// `Action::to_mjai` writes neither); a win is `{"actor":A,"type":"hora"}`; an ankan has
/// `pai` (the kind's plain tile) and `consumed`. A `dahai` is listed once per copy of its
/// tile in the hand (`copies(tile)`, at least once): RiichiEnv lists one discard per
/// physical tile, so identical entries are expected. A `kita` (three-player) is
/// `{"actor":A,"pai":"N","type":"kita"}`, likewise once per North in the hand
/// (RiichiEnv's `get_kita_legal_actions`, `state_3p/sanma.rs`, lists one per North tile).
pub fn possible_actions(legal: &[Event], seat: Seat, copies: impl Fn(Tile) -> usize) -> Vec<Object> {
    let mut out = Vec::with_capacity(legal.len());
    let mut discarded: Vec<Tile> = Vec::new();
    for event in legal {
        let t = kind(event);
        match event {
            Event::Dahai { actor, pai, .. } => {
                if discarded.contains(pai) {
                    continue;
                }
                discarded.push(*pai);
                let one = entry(&[("actor", json!(actor)), ("pai", json!(pai.as_mjai())), ("type", json!(t))]);
                for _ in 0..copies(*pai).max(1) {
                    out.push(one.clone());
                }
            }
            Event::Chi { actor, pai, consumed, .. } | Event::Pon { actor, pai, consumed, .. } => out.push(entry(&[
                ("actor", json!(actor)),
                ("consumed", tiles(consumed)),
                ("pai", json!(pai.as_mjai())),
                ("type", json!(t)),
            ])),
            Event::Daiminkan { actor, pai, consumed, .. } | Event::Kakan { actor, pai, consumed } => {
                out.push(entry(&[
                    ("actor", json!(actor)),
                    ("consumed", tiles(consumed)),
                    ("pai", json!(pai.as_mjai())),
                    ("type", json!(t)),
                ]))
            }
            Event::Ankan { actor, consumed } => out.push(entry(&[
                ("actor", json!(actor)),
                ("consumed", tiles(consumed)),
                ("pai", json!(consumed[0].deaka().as_mjai())),
                ("type", json!(t)),
            ])),
            Event::Kita { actor, pai } => {
                let one = entry(&[("actor", json!(actor)), ("pai", json!(pai.as_mjai())), ("type", json!(t))]);
                for _ in 0..copies(*pai).max(1) {
                    out.push(one.clone());
                }
            }
            Event::Reach { actor } | Event::Hora { actor, .. } | Event::Ryukyoku { actor: Some(actor), .. } => {
                out.push(entry(&[("actor", json!(actor)), ("type", json!(t))]))
            }
            _ => out.push(entry(&[("actor", json!(seat)), ("type", json!(t))])),
        }
    }
    out
}

/// The distinct `type`s of `legal`, in order (an ack's `legal_types`).
pub fn legal_types(legal: &[Event]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for e in legal {
        let t = kind(e);
        if !out.iter().any(|x| x == t) {
            out.push(t.to_string());
        }
    }
    out
}

/// The legal answer `action` (an mjai object) stands for, or why none does (one line).
/// `nukidora` is read as `kita`.
pub fn select(legal: &[Event], action: &Value) -> Result<Event, String> {
    let t = match action.get("type").and_then(Value::as_str).unwrap_or("") {
        "nukidora" => "kita",
        other => other,
    };
    let pai = action.get("pai").and_then(Value::as_str);
    let found = match t {
        "hora" => legal.iter().find(|e| matches!(e, Event::Hora { .. })),
        "none" => legal.iter().find(|e| matches!(e, Event::None)),
        "dahai" => select_dahai(legal, pai, action.get("tsumogiri").and_then(Value::as_bool)),
        "chi" | "pon" | "daiminkan" | "kakan" | "ankan" => select_call(legal, t, pai, action.get("consumed")),
        "reach" | "ryukyoku" => legal.iter().find(|e| kind(e) == t),
        "kita" => {
            legal.iter().find(|e| matches!(e, Event::Kita { pai: p, .. } if pai.is_none_or(|want| p.as_mjai() == want)))
        }
        _ => return Err(format!("`{t}` is not an action of this dialect")),
    };
    found.cloned().ok_or_else(|| match pai {
        Some(p) => format!("no legal {t} of {p} (legal: {})", legal_types(legal).join(", ")),
        None => format!("no legal {t} (legal: {})", legal_types(legal).join(", ")),
    })
}

fn select_dahai<'a>(legal: &'a [Event], pai: Option<&str>, tsumogiri: Option<bool>) -> Option<&'a Event> {
    let candidates: Vec<&Event> = legal
        .iter()
        .filter(|e| matches!(e, Event::Dahai { pai: p, .. } if pai.is_none_or(|want| p.as_mjai() == want)))
        .collect();
    // The drawn tile unless the bot says otherwise.
    let want = tsumogiri.unwrap_or(true);
    candidates
        .iter()
        .find(|e| matches!(e, Event::Dahai { tsumogiri: g, .. } if *g == want))
        .or(candidates.first())
        .copied()
}

fn select_call<'a>(legal: &'a [Event], t: &str, pai: Option<&str>, consumed: Option<&Value>) -> Option<&'a Event> {
    let wanted: Option<Vec<String>> = consumed.and_then(Value::as_array).map(|a| {
        let mut v: Vec<String> = a.iter().filter_map(|x| x.as_str().map(str::to_string)).collect();
        v.sort();
        v
    });
    legal.iter().filter(|e| kind(e) == t).find(|e| {
        let (own_pai, own_consumed): (Option<Tile>, &[Tile]) = match e {
            Event::Chi { pai, consumed, .. } | Event::Pon { pai, consumed, .. } => (Some(*pai), consumed),
            Event::Daiminkan { pai, consumed, .. } | Event::Kakan { pai, consumed, .. } => (Some(*pai), consumed),
            Event::Ankan { consumed, .. } => (None, consumed),
            _ => return false,
        };
        match &wanted {
            Some(w) => {
                let mut have: Vec<String> = own_consumed.iter().map(|t| t.as_mjai().to_string()).collect();
                have.sort();
                have == *w && pai.is_none_or(|p| own_pai.is_none_or(|o| o.as_mjai() == p))
            }
            None => match pai {
                Some(p) => own_pai.unwrap_or_else(|| own_consumed[0].deaka()).as_mjai() == p,
                None => true,
            },
        }
    })
}

#[cfg(test)]
mod tests {
    use super::super::wire::text;
    use super::*;

    fn tile(s: &str) -> Tile {
        s.parse().unwrap()
    }

    fn dahai(p: &str, tsumogiri: bool) -> Event {
        Event::Dahai { actor: 0, pai: tile(p), tsumogiri }
    }

    #[test]
    fn possible_actions_list_one_discard_per_copy_and_sorted_keys() {
        let legal = vec![
            dahai("1m", false),
            dahai("3m", false),
            dahai("3m", true),
            Event::Reach { actor: 0 },
            Event::Hora { actor: 0, target: 0, pai: Some(tile("3m")), deltas: None, ura_markers: None },
            Event::Ankan { actor: 0, consumed: [tile("5mr"), tile("5m"), tile("5m"), tile("5m")] },
        ];
        let copies = |t: Tile| if t == tile("3m") { 2 } else { 1 };
        let shown: Vec<String> = possible_actions(&legal, 0, copies).iter().map(text).collect();
        assert_eq!(
            shown,
            [
                r#"{"actor":0,"pai":"1m","type":"dahai"}"#,
                r#"{"actor":0,"pai":"3m","type":"dahai"}"#,
                r#"{"actor":0,"pai":"3m","type":"dahai"}"#,
                r#"{"actor":0,"type":"reach"}"#,
                r#"{"actor":0,"type":"hora"}"#,
                r#"{"actor":0,"consumed":["5mr","5m","5m","5m"],"pai":"5m","type":"ankan"}"#,
            ]
        );
        // consumed in RiichiEnv's order (its tile ids): the red five first, whatever the
        // engine's order
        let pon = Event::Pon { actor: 2, target: 1, pai: tile("5p"), consumed: [tile("5p"), tile("5pr")] };
        let shown: Vec<String> = possible_actions(&[pon, Event::None], 2, |_| 1).iter().map(text).collect();
        assert_eq!(
            shown,
            [r#"{"actor":2,"consumed":["5pr","5p"],"pai":"5p","type":"pon"}"#, r#"{"actor":2,"type":"none"}"#]
        );
    }

    #[test]
    fn replies_match_as_riichienv_matches_them() {
        let tsumo = Event::Hora { actor: 0, target: 0, pai: Some(tile("3m")), deltas: None, ura_markers: None };
        let legal = vec![dahai("3m", false), dahai("3m", true), dahai("5mr", false), tsumo.clone()];
        let pick = |v: Value| select(&legal, &v);
        assert_eq!(pick(json!({"type":"hora","actor":3,"target":1})), Ok(tsumo));
        assert_eq!(pick(json!({"type":"dahai","pai":"3m","tsumogiri":false})), Ok(dahai("3m", false)));
        assert_eq!(pick(json!({"type":"dahai","pai":"3m","tsumogiri":true})), Ok(dahai("3m", true)));
        assert_eq!(pick(json!({"type":"dahai","pai":"3m"})), Ok(dahai("3m", true)), "the drawn tile by default");
        assert_eq!(pick(json!({"type":"dahai","pai":"5mr","tsumogiri":true})), Ok(dahai("5mr", false)));
        assert!(pick(json!({"type":"dahai","pai":"5m"})).unwrap_err().contains("no legal dahai of 5m"));
        assert!(pick(json!({"type":"none"})).is_err(), "no pass on one's own draw");
        assert!(pick(json!({"type":"kita","pai":"N"})).unwrap_err().contains("no legal kita"), "no North to set aside");
        assert!(pick(json!({"type":"nonsense"})).unwrap_err().contains("not an action of this dialect"));

        let p = |c: [&str; 2]| Event::Pon { actor: 1, target: 0, pai: tile("5p"), consumed: [tile(c[0]), tile(c[1])] };
        let calls = vec![p(["5p", "5p"]), p(["5pr", "5p"]), Event::None];
        assert_eq!(select(&calls, &json!({"type":"pon","consumed":["5p","5pr"]})), Ok(p(["5pr", "5p"])));
        assert_eq!(
            select(&calls, &json!({"type":"pon","pai":"5p","consumed":["5p","5p"],"target":3})),
            Ok(p(["5p", "5p"]))
        );
        assert_eq!(select(&calls, &json!({"type":"pon"})), Ok(p(["5p", "5p"])));
        assert!(select(&calls, &json!({"type":"pon","consumed":["5p","5p"],"pai":"6p"})).is_err());
        assert!(select(&calls, &json!({"type":"chi","consumed":["4p","6p"]})).is_err());
        assert_eq!(select(&calls, &json!({"type":"none"})), Ok(Event::None));
        assert_eq!(legal_types(&calls), ["pon", "none"]);
    }

    #[test]
    fn kita_is_offered_once_per_north_and_answered_as_kita_or_nukidora() {
        let kita = Event::Kita { actor: 2, pai: tile("N") };
        let legal = vec![
            Event::Dahai { actor: 2, pai: tile("N"), tsumogiri: true },
            Event::Dahai { actor: 2, pai: tile("1p"), tsumogiri: false },
            kita.clone(),
        ];
        let copies = |t: Tile| if t == tile("N") { 2 } else { 1 };
        let shown: Vec<String> = possible_actions(&legal, 2, copies).iter().map(text).collect();
        assert_eq!(
            shown,
            [
                r#"{"actor":2,"pai":"N","type":"dahai"}"#,
                r#"{"actor":2,"pai":"N","type":"dahai"}"#,
                r#"{"actor":2,"pai":"1p","type":"dahai"}"#,
                r#"{"actor":2,"pai":"N","type":"kita"}"#,
                r#"{"actor":2,"pai":"N","type":"kita"}"#,
            ],
            "RiichiEnv lists one kita per North in the hand"
        );
        assert_eq!(legal_types(&legal), ["dahai", "kita"]);
        let pick = |v: Value| select(&legal, &v);
        assert_eq!(pick(json!({"type":"kita","actor":2,"pai":"N"})), Ok(kita.clone()));
        assert_eq!(pick(json!({"type":"kita"})), Ok(kita.clone()), "pai is optional");
        assert_eq!(pick(json!({"type":"nukidora","actor":2,"pai":"N"})), Ok(kita.clone()), "Mortal's name");
        assert!(pick(json!({"type":"kita","pai":"W"})).unwrap_err().contains("no legal kita of W"));
        let played = pick(json!({"type":"nukidora","pai":"N"})).unwrap().to_json();
        assert_eq!(played, r#"{"type":"kita","actor":2,"pai":"N"}"#, "the loop and the log hear kita");
    }
}
