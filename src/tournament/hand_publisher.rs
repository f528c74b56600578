//! A game's finished hands as they end, for those watching it one hand behind
//! ([`HandPublisher`]): the runner publishes each into the store
//! ([`super::store::Live`]), from which the grading server's pages and event stream read.

use mjai_sim_arena::observer::GameObserver;
use mjai_sim_engine::event::Event;

/// Collects a game's events and hands each finished hand to `publish` at its `end_kyoku`:
/// `(hand, events)`, `hand` counting from 0, `events` the JSON array of that hand's mjai
/// events (the first hand's starting with `start_game`). Events after the last
/// `end_kyoku` (`end_game`) are never published: the finished game's log has them. A hand
/// in play is never published, so a watcher sees no concealed tile before its hand ends.
pub struct HandPublisher<F: FnMut(u32, String)> {
    hand: u32,
    lines: Vec<String>,
    publish: F,
}

impl<F: FnMut(u32, String)> HandPublisher<F> {
    /// A publisher calling `publish` once per finished hand.
    pub fn new(publish: F) -> HandPublisher<F> {
        HandPublisher { hand: 0, lines: Vec::new(), publish }
    }
}

impl<F: FnMut(u32, String)> GameObserver for HandPublisher<F> {
    fn on_events(&mut self, events: &[Event]) -> std::io::Result<()> {
        for e in events {
            self.lines.push(e.to_json());
            if matches!(e, Event::EndKyoku) {
                let json = format!("[{}]", self.lines.join(","));
                self.lines.clear();
                (self.publish)(self.hand, json);
                self.hand += 1;
            }
        }
        Ok(())
    }
}

/// The hands of a finished game's mjai log (one event per line), as [`HandPublisher`]
/// published them while it was played: `(hand, events)`, the bots' `meta` left out.
/// Lines that are not mjai events are skipped (the stored log is the referee's own).
pub fn hands_of_log(log: &str) -> Vec<(u32, String)> {
    let mut hands = Vec::new();
    let mut publisher = HandPublisher::new(|hand, events| hands.push((hand, events)));
    for line in log.lines().filter(|l| !l.trim().is_empty()) {
        if let Ok(event) = serde_json::from_str::<Event>(line) {
            let _ = publisher.on_events(&[event]);
        }
    }
    drop(publisher);
    hands
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(json: &str) -> Event {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn each_hand_is_published_at_its_end_kyoku_and_nothing_of_the_hand_in_play() {
        let mut out: Vec<(u32, String)> = Vec::new();
        let mut p = HandPublisher::new(|hand, json| out.push((hand, json)));
        let start = event(r#"{"type":"start_game","names":["a","b","c","d"]}"#);
        let dahai = event(r#"{"type":"dahai","actor":0,"pai":"5m","tsumogiri":true}"#);
        p.on_events(&[start, dahai.clone(), Event::EndKyoku, dahai.clone()]).unwrap();
        p.on_events(std::slice::from_ref(&dahai)).unwrap();
        p.on_events(&[Event::EndKyoku, Event::EndGame]).unwrap();
        assert_eq!(out.len(), 2, "{out:?}");
        let hands: Vec<Vec<serde_json::Value>> = out.iter().map(|(_, j)| serde_json::from_str(j).unwrap()).collect();
        assert_eq!((out[0].0, out[1].0), (0, 1));
        assert_eq!(hands[0][0]["type"], "start_game");
        assert_eq!(hands[0].len(), 3);
        assert_eq!(
            hands[1].iter().map(|e| e["type"].as_str().unwrap()).collect::<Vec<_>>(),
            ["dahai", "dahai", "end_kyoku"]
        );
        assert!(!out.iter().any(|(_, j)| j.contains("end_game")));
    }

    #[test]
    fn a_finished_log_splits_into_the_hands_published_while_it_was_played() {
        let log = "{\"type\":\"start_game\",\"names\":[\"a\",\"b\",\"c\",\"d\"]}\n\
            {\"type\":\"dahai\",\"actor\":0,\"pai\":\"5m\",\"tsumogiri\":true,\"meta\":{\"q\":[1]}}\n\
            {\"type\":\"end_kyoku\"}\n\n{\"type\":\"end_kyoku\"}\n{\"type\":\"end_game\"}\n";
        let hands = hands_of_log(log);
        assert_eq!(hands.iter().map(|h| h.0).collect::<Vec<_>>(), [0, 1]);
        assert!(hands[0].1.starts_with("[{\"type\":\"start_game\"") && !hands[0].1.contains("meta"), "{hands:?}");
        assert_eq!(hands[1].1, "[{\"type\":\"end_kyoku\"}]");
    }
}
