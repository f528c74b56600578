//! Checking a bot's raw answer line against the legal set, with a precise one-line reason
//! when it is refused.
//!
//! Harmless variations are accepted: extra fields (`"meta"`), `hora` without `pai`,
//! `ryukyoku` without `actor`, `consumed` in any order.

use crate::event::{Event, Seat};
use crate::tile::Tile;

use super::decision::{Decision, Illegal};
use super::kyoku::{Kyoku, Phase};

fn illegal(msg: impl Into<String>) -> Illegal {
    Illegal(msg.into())
}

/// Name of an event's `type`.
pub fn type_name(e: &Event) -> String {
    serde_json::to_value(e).ok().and_then(|v| v["type"].as_str().map(str::to_string)).unwrap_or_default()
}

fn sorted(tiles: &[Tile]) -> Vec<Tile> {
    let mut v = tiles.to_vec();
    v.sort_by_key(|t| (t.kind(), t.is_red()));
    v
}

/// True when `answer` is `legal` up to harmless variations.
pub fn same_action(answer: &Event, legal: &Event) -> bool {
    use Event::*;
    match (answer, legal) {
        (Hora { actor: a, target: t, pai, .. }, Hora { actor: la, target: lt, pai: lp, .. }) => {
            a == la && t == lt && (pai.is_none() || pai == lp)
        }
        (Ryukyoku { actor, .. }, Ryukyoku { actor: la, .. }) => actor.is_none() || actor == la,
        (Chi { actor, target, pai, consumed }, Chi { actor: la, target: lt, pai: lp, consumed: lc })
        | (Pon { actor, target, pai, consumed }, Pon { actor: la, target: lt, pai: lp, consumed: lc }) => {
            actor == la && target == lt && pai == lp && sorted(consumed) == sorted(lc)
        }
        (Daiminkan { actor, target, pai, consumed }, Daiminkan { actor: la, target: lt, pai: lp, consumed: lc }) => {
            actor == la && target == lt && pai == lp && sorted(consumed) == sorted(lc)
        }
        // Kakan: the added tile decides; `consumed` is the pon already on the table
        // (Mortal's own logs write its red fives inconsistently).
        (Kakan { actor, pai, consumed }, Kakan { actor: la, pai: lp, .. }) => {
            actor == la && pai == lp && consumed.iter().all(|t| t.kind() == pai.kind())
        }
        (Ankan { actor, consumed }, Ankan { actor: la, consumed: lc }) => actor == la && sorted(consumed) == sorted(lc),
        _ => answer == legal,
    }
}

/// Validates `line` from `seat` against the pending decisions of kyoku `k`.
pub fn validate(k: &Kyoku, pending: &[Decision], seat: Seat, line: &str) -> Result<Event, Illegal> {
    let Some(decision) = pending.iter().find(|d| d.seat == seat) else {
        return Err(illegal(format!("seat {seat} was not asked to act now")));
    };
    let value: serde_json::Value = serde_json::from_str(line.trim())
        .map_err(|e| illegal(format!("unparsable JSON ({e}): send one JSON object per line")))?;
    let Some(ty) = value.get("type").and_then(|t| t.as_str()).map(str::to_string) else {
        return Err(illegal("the answer has no \"type\" field: send an mjai action object"));
    };
    let answer: Event = serde_json::from_value(value).map_err(|e| illegal(format!("malformed {ty} action: {e}")))?;
    if let Some(actor) = answer.actor() {
        if actor != seat {
            return Err(illegal(format!("actor {actor} in a {ty} is not your seat {seat}")));
        }
    }
    if let Some(l) = decision.legal.iter().find(|l| same_action(&answer, l)) {
        return Ok(l.clone());
    }
    let types: Vec<String> =
        decision.legal.iter().map(type_name).collect::<std::collections::BTreeSet<_>>().into_iter().collect();
    if let (Event::Chi { .. }, Phase::Discarded { seat: from, .. }) = (&answer, k.phase) {
        if !k.rules.players.allows_chi() {
            return Err(illegal("chi is not played at a three-player table"));
        }
        if k.next_seat(from) != seat {
            return Err(illegal(format!("chi only from the left seat: seat {seat} may not chi seat {from}'s discard")));
        }
    }
    if !types.contains(&ty) {
        let need = if ty == "none" && types.iter().any(|t| t == "dahai") { " (a discard is required)" } else { "" };
        return Err(illegal(format!("{ty} is not legal now{need}; legal: {}", types.join(", "))));
    }
    Err(illegal(reason(k, seat, &answer)))
}

fn reason(k: &Kyoku, seat: Seat, answer: &Event) -> String {
    let p = &k.players[seat as usize];
    let holds = |t: &Tile| p.tehai.contains(t);
    match *answer {
        Event::Dahai { pai, tsumogiri, .. } => {
            let held = p.tehai.iter().filter(|&&t| t == pai).count();
            let drawn = usize::from(p.drawn == Some(pai));
            if held == 0 {
                format!("dahai {pai}: the tile is not in your hand")
            } else if tsumogiri && drawn == 0 {
                format!("dahai {pai} with tsumogiri true, but {pai} is not the drawn tile")
            } else if !tsumogiri && held == drawn {
                format!("dahai {pai} with tsumogiri false, but the only {pai} held is the drawn tile")
            } else if p.riichi != crate::hand::Riichi::None {
                format!("dahai {pai}: after riichi only the drawn tile may be discarded (tedashi)")
            } else if p.kuikae >> pai.kind() & 1 == 1 {
                format!("dahai {pai}: kuikae, this tile may not be discarded right after the call")
            } else if p.reach_declared {
                format!("dahai {pai}: the riichi discard must leave the hand tenpai")
            } else {
                format!("dahai {pai} is not legal now")
            }
        }
        Event::Chi { target, pai, consumed, .. } => {
            let from = match k.phase {
                Phase::Discarded { seat: s, .. } => s,
                _ => target,
            };
            if target != from || k.next_seat(from) != seat {
                format!("chi only from the left seat (kamicha {})", (seat + k.seats() - 1) % k.seats())
            } else if let Some(t) = consumed.iter().find(|t| !holds(t)) {
                format!("chi: consumed {t} is not in your hand")
            } else {
                let mut n: Vec<u8> = consumed.iter().chain([&pai]).map(|t| t.kind()).collect();
                n.sort_unstable();
                let run = n[0] + 1 == n[1] && n[1] + 1 == n[2] && n[0] < 27 && n[0] / 9 == n[2] / 9;
                if !run {
                    format!("chi: {pai} with consumed {} {} is not a sequence", consumed[0], consumed[1])
                } else {
                    format!(
                        "chi of {pai} with {} {} is not legal now (the call must leave a discard kuikae allows)",
                        consumed[0], consumed[1]
                    )
                }
            }
        }
        Event::Pon { pai, consumed, .. } => same_kind_reason("pon", pai, &consumed, &holds),
        Event::Daiminkan { pai, consumed, .. } => same_kind_reason("daiminkan", pai, &consumed, &holds),
        Event::Ankan { consumed, .. } => same_kind_reason("ankan", consumed[0], &consumed[1..], &holds),
        Event::Kakan { pai, .. } if !holds(&pai) => format!("kakan: {pai} is not in your hand"),
        Event::Kakan { pai, .. } => format!("kakan of {pai} is not legal now (no pon of it, or no kan allowed)"),
        Event::Hora { pai, .. } => format!(
            "hora{}: the hand does not win now (not complete, no yaku, or furiten)",
            pai.map(|t| format!(" on {t}")).unwrap_or_default()
        ),
        _ => format!("{} is not legal now", answer.to_json()),
    }
}

fn same_kind_reason(name: &str, pai: Tile, consumed: &[Tile], holds: &dyn Fn(&Tile) -> bool) -> String {
    if let Some(t) = consumed.iter().find(|t| !holds(t)) {
        format!("{name}: consumed {t} is not in your hand")
    } else if consumed.iter().any(|t| t.kind() != pai.kind()) {
        format!("{name}: consumed tiles are not all {pai}")
    } else {
        format!("{name} of {pai} is not legal now")
    }
}
