//! A three-player log in the viewer's data: three seats, every win scored (tsumo-son
//! points agree with the deltas), the kita events kept as events (not unknown), a one-line
//! note that the log is read, not replayed; and a contradiction in such a log shown as
//! the failure.

use mjai_sim::engine::event::Event;
use mjai_sim::viewer::game::analyse;
use mjai_sim::viewer::{render_game, GameInput};

use crate::sanma_support;

/// What the winner gets from the payers at three seats (tsumo-son), from the printed
/// points: ron `X`, tsumo `X/Y` (the other non-dealer / the dealer) or `X all` (two payers).
fn hand_points(points: &str) -> i32 {
    if let Some(x) = points.strip_suffix(" all") {
        return 2 * x.parse::<i32>().unwrap();
    }
    match points.split_once('/') {
        Some((ko, oya)) => ko.parse::<i32>().unwrap() + oya.parse::<i32>().unwrap(),
        None => points.parse().unwrap(),
    }
}

#[test]
fn a_three_player_game_shows_three_seats_kita_and_scored_wins() {
    let mut checked = 0;
    for seed in 0..6 {
        let log = sanma_support::game(seed);
        let text = sanma_support::text(&log);
        let d = analyse(&GameInput { log: &text, ..Default::default() }).unwrap();
        assert_eq!(d.players, 3);
        assert!(d.failure.is_none(), "seed {seed}: {:?}", d.failure);
        assert!(d.unknown.is_empty(), "kita is a known event: {:?}", d.unknown);
        assert!(d.unverified.as_deref().is_some_and(|n| n.contains("three-player") && !n.contains('\n')));
        assert_eq!(d.names[..3], sanma_support::NAMES[..3]);
        let fin = d.final_scores.expect("the game reaches end_game");
        assert_eq!((fin[..3].iter().sum::<i32>(), fin[3]), (105000, 0), "seed {seed}: {fin:?}");
        // The kita events are in the page's events, three scores to a start_kyoku.
        let kitas = log.iter().filter(|e| matches!(e, Event::Kita { .. })).count();
        assert_eq!(d.events.iter().filter(|e| e["type"] == "kita").count(), kitas);
        let start = d.events.iter().find(|e| e["type"] == "start_kyoku").unwrap();
        assert_eq!(start["scores"].as_array().map(Vec::len), Some(3));
        // Every win scored, in order; the winner's gain is the points plus 100 per honba
        // per payer (two of them) and the sticks, for the first winner of a hand.
        let horas: Vec<usize> =
            log.iter().enumerate().filter(|(_, e)| matches!(e, Event::Hora { .. })).map(|(i, _)| i).collect();
        assert_eq!(d.horas.iter().map(|h| h.event).collect::<Vec<_>>(), horas, "seed {seed}");
        for h in &d.horas {
            let Event::Hora { actor, deltas: Some(deltas), .. } = &log[h.event] else { unreachable!() };
            let hand = log[..h.event].iter().rposition(|e| matches!(e, Event::StartKyoku { .. })).unwrap();
            let Event::StartKyoku { honba, kyotaku, .. } = &log[hand] else { unreachable!() };
            let sticks = log[hand..h.event].iter().filter(|e| matches!(e, Event::ReachAccepted { .. })).count() as i32;
            let first = !matches!(log[h.event - 1], Event::Hora { .. });
            let extra = if first { 200 * i32::from(*honba) + 1000 * (i32::from(*kyotaku) + sticks) } else { 0 };
            assert_eq!(deltas[usize::from(*actor)], hand_points(&h.points) + extra, "seed {seed}: {h:?}");
            assert_eq!(deltas[3], 0, "seat 3 takes no part");
            checked += 1;
        }
    }
    assert!(checked >= 5, "only {checked} wins checked");
}

#[test]
fn the_page_of_a_three_player_game_carries_its_table_size_and_kita() {
    let (_, log) = sanma_support::game_with_kita();
    let text = sanma_support::text(&log);
    let html = render_game(&GameInput { title: "sanma".into(), log: &text, ..Default::default() }).unwrap();
    assert!(html.contains("\"players\":3"), "the page's data names three seats");
    assert!(html.contains("\"type\":\"kita\""), "the kita events are embedded");
    assert!(html.contains("id=\"unverified\""), "the page has the note's place");
}

#[test]
fn a_three_player_log_that_contradicts_itself_shows_where() {
    let (_, log) = sanma_support::game_with_kita();
    // Seat 0 discards a tile it cannot hold: a fifth North, right after its first draw.
    let at = log.iter().position(|e| matches!(e, Event::Tsumo { actor: 0, .. })).unwrap() + 1;
    let mut bad = log.clone();
    bad[at] = Event::Dahai { actor: 0, pai: "5m".parse().unwrap(), tsumogiri: false };
    let text = sanma_support::text(&bad);
    let d = analyse(&GameInput { log: &text, ..Default::default() }).unwrap();
    let f = d.failure.expect("the contradiction is shown");
    assert_eq!((f.event, f.line), (at, at + 1), "{f:?}");
    assert!(f.reason.contains("does not hold 5m") && !f.reason.contains('\n'), "{f:?}");
    assert!(d.horas.iter().all(|h| h.event < at), "no win after the failure is scored");
}

/// In headless Chromium: three seats and no fourth place, three final scores, the kita
/// beside the seat's calls, under the page's strict CSP and with no request made.
#[test]
fn a_three_player_page_in_the_browser_shows_three_seats_and_the_kita() {
    use crate::browser_support::{attr_after, load, scratch};
    let (_, log) = sanma_support::game_with_kita();
    let dir = scratch("sanma");
    let html = render_game(&GameInput { title: "sanma".into(), log: &sanma_support::text(&log), ..Default::default() });
    let page = dir.join("game.html");
    std::fs::write(&page, html.unwrap()).unwrap();

    let end = load(&page, &format!("event={}", log.len() - 1));
    assert!(!end.dom.contains("id=\"seat-3\""), "no fourth place on the table");
    assert!(!end.dom.contains("<option>3</option>"), "no seat 3 to view from");
    assert!(end.dom.contains("data-players=\"3\""));
    let d = analyse(&GameInput { log: &sanma_support::text(&log), ..Default::default() }).unwrap();
    let fin: Vec<String> = d.final_scores.unwrap()[..3].iter().map(i32::to_string).collect();
    assert_eq!(attr_after(&end.dom, "id=\"final\"", "data-scores"), fin.join(" "));
    assert!(end.csp_violations().is_empty(), "{}", end.console);
    assert!(end.page_requests.is_empty(), "{:?}", end.page_requests);

    // Right after the first kita: its seat shows the North set aside, as many as it made.
    let at = log.iter().position(|e| matches!(e, Event::Kita { .. })).unwrap();
    let Event::Kita { actor, .. } = log[at] else { unreachable!() };
    let hand = log[..at].iter().rposition(|e| matches!(e, Event::StartKyoku { .. })).unwrap();
    let made = log[hand..=at].iter().filter(|e| matches!(e, Event::Kita { actor: a, .. } if *a == actor)).count();
    let mid = load(&page, &format!("event={at}"));
    let seat = format!("id=\"seat-{actor}\"");
    assert_eq!(attr_after(&mid.dom, &seat, "class=\"kita\" data-count"), made.to_string(), "seat {actor}");
    assert!(mid.dom.contains("sets aside North (kita)"), "the event line says what happened");
    assert!(mid.csp_violations().is_empty(), "{}", mid.console);
}

#[test]
fn a_riichi_dev_3p_tsumo_on_a_kita_replacement_is_scored_as_paid() {
    // Seed 38: S1-1, seat 2 wins by tsumo on the tile that replaced its kita, with rinshan
    // kaihou as its only yaku (riichi-dev-3p pays it; Tenhou's rules would not).
    let log = sanma_support::game(38);
    let text = sanma_support::text(&log);
    let d = analyse(&GameInput { log: &text, ..Default::default() }).unwrap();
    let horas = log.iter().filter(|e| matches!(e, Event::Hora { .. })).count();
    assert_eq!(d.horas.len(), horas, "every win scored");
    let rinshan: Vec<_> = d.horas.iter().filter(|h| h.yaku.iter().any(|(y, _)| y == "rinshan kaihou")).collect();
    assert_eq!(rinshan.len(), 1, "{:?}", d.horas);
    let h = rinshan[0];
    assert_eq!((h.actor, h.target), (2, 2));
    assert!(matches!(log[h.event - 2], Event::Kita { actor: 2, .. }), "on a kita's replacement tile");
    let Event::Hora { deltas: Some(deltas), .. } = &log[h.event] else { unreachable!() };
    let Some(Event::StartKyoku { honba, kyotaku, .. }) =
        log[..h.event].iter().rev().find(|e| matches!(e, Event::StartKyoku { .. }))
    else {
        unreachable!()
    };
    let sticks = i32::from(*kyotaku)
        + log[..h.event]
            .iter()
            .rev()
            .take_while(|e| !matches!(e, Event::StartKyoku { .. }))
            .filter(|e| matches!(e, Event::ReachAccepted { .. }))
            .count() as i32;
    assert_eq!(deltas[2], hand_points(&h.points) + 200 * i32::from(*honba) + 1000 * sticks);
}
