//! mjai events and actions, as Mortal's engine (and so mjai.app) writes them.
//!
//! One enum serves both directions: the referee's events and a bot's answer are the same
//! JSON objects. Serialisation is canonical: compact, `"type"` first, then the fields in
//! the order declared here (the order of Mortal's logs), optional fields left out when
//! absent. Unknown fields in a bot's answer (e.g. `"meta"`) are ignored.

mod seats;

use serde::{Deserialize, Serialize};

use super::rules::Players;
use super::tile::Tile;

/// A seat index `0..4` (`0..3` at a three-player table); 0 is the starting dealer (chicha).
pub type Seat = u8;

/// One mjai event or action. `deltas` and `scores` are points; `kyotaku` and `honba` count
/// sticks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// First event of a game. In the log it carries `seed`; a bot receives its `id` (seat).
    StartGame {
        /// Player names, seat order.
        /// Boxed: keeps [`Event`] small (every log entry and legal action is one). Three
        /// entries are read for a three-player table (the fourth empty).
        #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "seats::names")]
        names: Option<Box<[String; 4]>>,
        /// Wall seed `[seed, key]` (mjai.app form), in the full log only.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seed: Option<[u64; 2]>,
        /// The receiving seat, in a bot's view only.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<Seat>,
    },
    /// A hand (kyoku) starts. `kyoku` is 1..4 within the round wind `bakaze`.
    StartKyoku {
        /// Round wind: E, S, W (or N).
        bakaze: Tile,
        /// First dora indicator.
        dora_marker: Tile,
        /// Hand number 1..4 within the round.
        kyoku: u8,
        /// Honba (repeat) sticks.
        honba: u8,
        /// Riichi sticks on the table.
        kyotaku: u8,
        /// Dealer seat.
        oya: Seat,
        /// Scores in points, seat order (three entries on the wire at a three-player
        /// table; seat 3 is 0 in memory).
        #[serde(deserialize_with = "seats::scores")]
        scores: [i32; 4],
        /// Starting 13 tiles per seat; other seats' are `?` in a bot's view. Boxed: keeps
        /// [`Event`] small. Three hands on the wire at a three-player table.
        #[serde(deserialize_with = "seats::tehais")]
        tehais: Box<[[Tile; 13]; 4]>,
    },
    /// A draw; `pai` is `?` when another seat draws.
    Tsumo {
        /// Seat drawing.
        actor: Seat,
        /// Tile drawn; `?` in other seats' views.
        pai: Tile,
    },
    /// A discard. `tsumogiri` is true when the discarded tile is the one just drawn.
    Dahai {
        /// Seat discarding.
        actor: Seat,
        /// Tile discarded.
        pai: Tile,
        /// True when the discarded tile is the one just drawn.
        tsumogiri: bool,
    },
    /// Chi of `target`'s discard `pai` (target is always the kamicha).
    Chi {
        /// Seat calling.
        actor: Seat,
        /// Seat whose discard is called (always the kamicha).
        target: Seat,
        /// The called discard.
        pai: Tile,
        /// The two tiles from the caller's hand.
        consumed: [Tile; 2],
    },
    /// Pon of `target`'s discard `pai`.
    Pon {
        /// Seat calling.
        actor: Seat,
        /// Seat whose discard is called.
        target: Seat,
        /// The called discard.
        pai: Tile,
        /// The two tiles from the caller's hand.
        consumed: [Tile; 2],
    },
    /// Open kan on `target`'s discard `pai`.
    Daiminkan {
        /// Seat calling.
        actor: Seat,
        /// Seat whose discard is called.
        target: Seat,
        /// The called discard.
        pai: Tile,
        /// The three tiles from the caller's hand.
        consumed: [Tile; 3],
    },
    /// Added kan: `pai` joins the pon made of `consumed`.
    Kakan {
        /// Seat adding to its pon.
        actor: Seat,
        /// Tile added.
        pai: Tile,
        /// The pon's three tiles.
        consumed: [Tile; 3],
    },
    /// Closed kan of four tiles from the hand.
    Ankan {
        /// Seat declaring the kan.
        actor: Seat,
        /// The four tiles.
        consumed: [Tile; 4],
    },
    /// Three-player only: a North set aside as nukidora right after the seat's own draw
    /// (抜きドラ), followed by a replacement draw from the dead wall and no new dora
    /// indicator; others may ron the North (not chankan). RiichiEnv `state_3p/sanma.rs`
    /// writes `{"type":"kita","actor":A,"pai":"N"}`; Mortal-family sanma bots write
    /// `nukidora`, read as an alias (logs always write `kita`).
    #[serde(alias = "nukidora")]
    Kita {
        /// Seat setting the North aside.
        actor: Seat,
        /// The tile: always `N`.
        pai: Tile,
    },
    /// A new dora indicator is revealed.
    Dora {
        /// The new dora indicator.
        dora_marker: Tile,
    },
    /// Riichi declaration; the discard follows.
    Reach {
        /// Seat declaring riichi.
        actor: Seat,
    },
    /// The riichi discard passed: 1000 points are deposited.
    ReachAccepted {
        /// Seat whose riichi stands.
        actor: Seat,
    },
    /// A win. From a bot: `actor`, `target` (itself for tsumo), optionally `pai`. In the log:
    /// `deltas` (points, kyotaku and honba included) and `ura_markers`.
    Hora {
        /// The winner.
        /// The winner.
        actor: Seat,
        /// Seat that dealt in (the winner itself for a tsumo).
        /// Seat that dealt in (the winner itself for a tsumo).
        target: Seat,
        /// Winning tile (optional in an answer).
        /// Winning tile (optional in an answer).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pai: Option<Tile>,
        /// Score changes per seat, kyotaku and honba included (in the log).
        #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "seats::deltas")]
        deltas: Option<[i32; 4]>,
        /// Ura dora indicators (in the log).
        /// Ura dora indicators (in the log).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ura_markers: Option<Vec<Tile>>,
    },
    /// A drawn hand. From a bot: kyuushu kyuuhai (only `actor`, optional). In the log:
    /// `deltas`, and `reason`: why the hand was drawn ([`DrawReason`]; `"error"` for a
    /// chombo, with the offender as `actor`). mjai readers ignore `reason` (Mortal's
    /// libriichi and mjai.app write none), and logs without it are read as before.
    Ryukyoku {
        /// Seat declaring kyuushu kyuuhai, or a chombo's offender.
        /// Seat declaring kyuushu kyuuhai, or a chombo's offender.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        actor: Option<Seat>,
        /// Score changes per seat (in the log).
        #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "seats::deltas")]
        deltas: Option<[i32; 4]>,
        /// `"error"` for a chombo; absent otherwise.
        /// `"error"` for a chombo; absent otherwise.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// End of a hand.
    EndKyoku,
    /// End of the game.
    EndGame,
    /// Pass / acknowledge.
    None,
}

impl Event {
    /// Canonical compact JSON (no trailing newline).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("mjai events always serialise")
    }

    /// Canonical compact JSON for a table of `players`: [`Event::to_json`] at four, and at
    /// three the per-seat arrays (`scores`, `deltas`, `tehais`, `names`) cut to three
    /// entries, as RiichiEnv's sanma logs write them.
    pub fn to_json_for(&self, players: Players) -> String {
        if players == Players::Four {
            return self.to_json();
        }
        if !matches!(
            self,
            Event::StartGame { .. } | Event::StartKyoku { .. } | Event::Hora { .. } | Event::Ryukyoku { .. }
        ) {
            return self.to_json();
        }
        let serde_json::Value::Object(mut o) = serde_json::to_value(self).expect("mjai events always serialise") else {
            unreachable!("events serialise as objects")
        };
        for key in seats::SEAT_KEYS {
            if let Some(serde_json::Value::Array(a)) = o.get_mut(key) {
                a.truncate(players.count());
            }
        }
        // The map sorts its keys: write them back in the declared (canonical) order.
        let fields: Vec<String> = seats::KEY_ORDER
            .iter()
            .filter_map(|&k| o.get(k).map(|v| format!("{}:{v}", serde_json::Value::from(k))))
            .collect();
        debug_assert_eq!(fields.len(), o.len(), "every key of {o:?} is in KEY_ORDER");
        format!("{{{}}}", fields.join(","))
    }

    /// The acting seat, for events that have one.
    pub fn actor(&self) -> Option<Seat> {
        use Event::{Ankan, Chi, Dahai, Daiminkan, Hora, Kakan, Kita, Pon, Reach, ReachAccepted, Ryukyoku, Tsumo};
        match *self {
            Tsumo { actor, .. }
            | Dahai { actor, .. }
            | Chi { actor, .. }
            | Pon { actor, .. }
            | Daiminkan { actor, .. }
            | Kakan { actor, .. }
            | Ankan { actor, .. }
            | Reach { actor }
            | ReachAccepted { actor }
            | Kita { actor, .. }
            | Hora { actor, .. } => Some(actor),
            Ryukyoku { actor: Some(actor), .. } => Some(actor),
            _ => Option::None,
        }
    }

    /// This event as `seat` may see it: other seats' `tehais` and `tsumo` tiles become `?`,
    /// and `start_game` carries `id` instead of the seed. Everything else is public.
    pub fn masked_for(&self, seat: Seat) -> Event {
        match self {
            Event::StartGame { names, .. } => Event::StartGame { names: names.clone(), seed: None, id: Some(seat) },
            Event::StartKyoku { bakaze, dora_marker, kyoku, honba, kyotaku, oya, scores, tehais } => {
                let mut t = tehais.clone();
                for (s, hand) in t.iter_mut().enumerate() {
                    if s as Seat != seat {
                        *hand = [Tile::UNKNOWN; 13];
                    }
                }
                Event::StartKyoku {
                    bakaze: *bakaze,
                    dora_marker: *dora_marker,
                    kyoku: *kyoku,
                    honba: *honba,
                    kyotaku: *kyotaku,
                    oya: *oya,
                    scores: *scores,
                    tehais: t,
                }
            }
            Event::Tsumo { actor, .. } if *actor != seat => Event::Tsumo { actor: *actor, pai: Tile::UNKNOWN },
            e => e.clone(),
        }
    }
}

/// Why a hand was drawn: the `reason` of a logged `ryukyoku`, written by this engine since
/// issue 20 (mjai.app's engine writes no reason; a reader must accept its absence).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// The live wall ran out (荒牌平局; Tenhou 流局, 流し満貫 included): `"exhaustive"`.
    Exhaustive,
    /// Nine kinds of terminals and honors declared on the first draw (九種九牌):
    /// `"kyuushu_kyuuhai"`.
    KyuushuKyuuhai,
    /// All four seats in riichi (四家立直): `"four_riichi"`.
    FourRiichi,
    /// Four kans by more than one seat, the next discard not ronned (四槓散了): `"four_kans"`.
    FourKans,
    /// The same wind discarded by all four on the first go-around (四風連打): `"four_winds"`.
    FourWinds,
    /// Three rons on one discard, an abortive draw under Tenhou (三家和): `"triple_ron"`.
    TripleRon,
    /// A chombo (an illegal or missing answer), paid as a mangan: `"error"`, the value the
    /// engine already wrote before the other reasons existed.
    Chombo,
}

impl DrawReason {
    /// Every reason, in declaration order.
    pub const ALL: [DrawReason; 7] = [
        DrawReason::Exhaustive,
        DrawReason::KyuushuKyuuhai,
        DrawReason::FourRiichi,
        DrawReason::FourKans,
        DrawReason::FourWinds,
        DrawReason::TripleRon,
        DrawReason::Chombo,
    ];

    /// The value of the `reason` field.
    pub const fn as_str(self) -> &'static str {
        match self {
            DrawReason::Exhaustive => "exhaustive",
            DrawReason::KyuushuKyuuhai => "kyuushu_kyuuhai",
            DrawReason::FourRiichi => "four_riichi",
            DrawReason::FourKans => "four_kans",
            DrawReason::FourWinds => "four_winds",
            DrawReason::TripleRon => "triple_ron",
            DrawReason::Chombo => "error",
        }
    }

    /// The reason a `reason` field names; `None` for an unknown value.
    pub fn parse(reason: &str) -> Option<DrawReason> {
        DrawReason::ALL.into_iter().find(|r| r.as_str() == reason)
    }

    /// The reason a logged `ryukyoku` gives; `None` for other events, for a `ryukyoku`
    /// without `reason` (mjai.app's logs) and for an unknown value.
    pub fn of(event: &Event) -> Option<DrawReason> {
        match event {
            Event::Ryukyoku { reason: Some(r), .. } => DrawReason::parse(r),
            _ => None,
        }
    }
}

/// Serialises events as one JSON array on one line (the batch a bot receives), without the
/// trailing newline.
pub fn batch_line(events: &[Event]) -> String {
    serde_json::to_string(events).expect("mjai events always serialise")
}

/// [`batch_line`] for a table of `players`: each event in its wire form for that table
/// ([`Event::to_json_for`]: three entries per seat array at three seats).
pub fn batch_line_for(events: &[Event], players: Players) -> String {
    if players == Players::Four {
        return batch_line(events);
    }
    let items: Vec<String> = events.iter().map(|e| e.to_json_for(players)).collect();
    format!("[{}]", items.join(","))
}

/// A line of an mjai log that is not an event.
#[derive(Debug, thiserror::Error)]
#[error("line {line} is not an mjai event: {cause}")]
pub struct LogLineError {
    /// The line's number, from 1.
    pub line: usize,
    /// The JSON parser's message.
    pub cause: String,
}

/// Parses an mjai log (`mjai_log.json`: one event per line; blank lines skipped). Errors:
/// the first line that is not an event, by number.
pub fn parse_log(text: &str) -> Result<Vec<Event>, LogLineError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| serde_json::from_str(l).map_err(|e| LogLineError { line: i + 1, cause: e.to_string() }))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_parses_line_by_line_and_names_a_bad_line() {
        let log = "{\"type\":\"start_game\",\"names\":[\"a\",\"b\",\"c\",\"d\"]}\n\n{\"type\":\"end_game\"}\n";
        assert_eq!(parse_log(log).unwrap().len(), 2);
        let e = parse_log("{\"type\":\"end_game\"}\n\n{\"type\":\"nope\"}").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.to_string().starts_with("line 3 is not an mjai event"), "{e}");
    }

    #[test]
    fn draw_reasons_round_trip_and_chombo_stays_error() {
        for r in DrawReason::ALL {
            assert_eq!(DrawReason::parse(r.as_str()), Some(r));
        }
        assert_eq!(DrawReason::Chombo.as_str(), "error");
        assert_eq!(DrawReason::parse("fanpai"), None);
        let e: Event =
            serde_json::from_str(r#"{"type":"ryukyoku","deltas":[0,0,0,0],"reason":"four_riichi"}"#).unwrap();
        assert_eq!(DrawReason::of(&e), Some(DrawReason::FourRiichi));
        let e: Event = serde_json::from_str(r#"{"type":"ryukyoku","deltas":[0,0,0,0]}"#).unwrap();
        assert_eq!(DrawReason::of(&e), None);
    }

    #[test]
    fn canonical_form_matches_mortal_logs() {
        let lines = [
            r#"{"type":"start_game","names":["0","1","2","3"],"seed":[100,2000]}"#,
            r#"{"type":"tsumo","actor":0,"pai":"P"}"#,
            r#"{"type":"dahai","actor":0,"pai":"8s","tsumogiri":false}"#,
            r#"{"type":"pon","actor":3,"target":0,"pai":"1p","consumed":["1p","1p"]}"#,
            r#"{"type":"kakan","actor":1,"pai":"5p","consumed":["5pr","5p","5p"]}"#,
            r#"{"type":"hora","actor":3,"target":2,"deltas":[0,0,-5200,6200],"ura_markers":["3m"]}"#,
            r#"{"type":"ryukyoku","deltas":[-1500,1500,1500,-1500]}"#,
            r#"{"type":"reach_accepted","actor":3}"#,
            r#"{"type":"end_kyoku"}"#,
        ];
        for l in lines {
            let e: Event = serde_json::from_str(l).unwrap();
            assert_eq!(e.to_json(), l);
        }
    }

    #[test]
    fn bot_answers_with_extra_fields_parse() {
        let e: Event =
            serde_json::from_str(r#"{"type":"dahai","actor":0,"pai":"C","tsumogiri":false,"meta":{"q":[1]}}"#).unwrap();
        assert_eq!(e, Event::Dahai { actor: 0, pai: "C".parse().unwrap(), tsumogiri: false });
        assert!(serde_json::from_str::<Event>(r#"{"type":"dahai","pai":"C"}"#).is_err());
        assert!(serde_json::from_str::<Event>(r#"{"type":"dahai","actor":0,"pai":"0m","tsumogiri":true}"#).is_err());
    }

    #[test]
    fn kita_reads_nukidora_and_writes_kita() {
        let n: Tile = "N".parse().unwrap();
        let e: Event = serde_json::from_str(r#"{"type":"nukidora","actor":1,"pai":"N"}"#).unwrap();
        assert_eq!(e, Event::Kita { actor: 1, pai: n });
        assert_eq!(e.to_json(), r#"{"type":"kita","actor":1,"pai":"N"}"#);
        assert_eq!(e.actor(), Some(1));
    }

    #[test]
    fn three_seat_arrays_read_padded_and_write_cut() {
        let l = r#"{"type":"start_kyoku","bakaze":"E","dora_marker":"1m","kyoku":1,"honba":0,"kyotaku":0,"oya":0,"scores":[35000,35000,35000],"tehais":[["1m","1m","1m","1m","9m","9m","9m","9m","1p","1p","1p","1p","2p"],["?","?","?","?","?","?","?","?","?","?","?","?","?"],["?","?","?","?","?","?","?","?","?","?","?","?","?"]]}"#;
        let e: Event = serde_json::from_str(l).unwrap();
        match &e {
            Event::StartKyoku { scores, tehais, .. } => {
                assert_eq!(*scores, [35000, 35000, 35000, 0]);
                assert_eq!(tehais[3], [Tile::UNKNOWN; 13]);
            }
            _ => unreachable!(),
        }
        assert_eq!(e.to_json_for(Players::Three), l);
        let h = r#"{"type":"hora","actor":2,"target":0,"deltas":[-8000,0,8000],"ura_markers":[]}"#;
        let e: Event = serde_json::from_str(h).unwrap();
        assert_eq!(e.to_json_for(Players::Three), h);
        assert!(e.to_json().contains("[-8000,0,8000,0]"));
        assert!(serde_json::from_str::<Event>(r#"{"type":"ryukyoku","deltas":[1,2]}"#).is_err());
    }

    #[test]
    fn masking_hides_other_seats_only() {
        let t: Tile = "1m".parse().unwrap();
        let e = Event::Tsumo { actor: 2, pai: t };
        assert_eq!(e.masked_for(2), e);
        assert_eq!(e.masked_for(0), Event::Tsumo { actor: 2, pai: Tile::UNKNOWN });
        let sk = Event::StartKyoku {
            bakaze: "E".parse().unwrap(),
            dora_marker: t,
            kyoku: 1,
            honba: 0,
            kyotaku: 0,
            oya: 0,
            scores: [25000; 4],
            tehais: Box::new([[t; 13]; 4]),
        };
        match sk.masked_for(1) {
            Event::StartKyoku { tehais, .. } => {
                assert_eq!(tehais[1], [t; 13]);
                assert_eq!(tehais[0], [Tile::UNKNOWN; 13]);
                assert_eq!(tehais[3], [Tile::UNKNOWN; 13]);
            }
            _ => unreachable!(),
        }
    }
}
