//! A client of riichi.dev's dialect written from the message shapes alone (issue 37), to
//! play `riichilab:NAME` seats over a real socket.
#![allow(dead_code)]

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

pub type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Connects to `url` with `Authorization: Bearer TOKEN` and reads the first message: the
/// close code and reason of a refusal after the upgrade, as riichi.dev refuses (1008 a
/// token, 1013 a second connection); `None` when the connection was taken (it is dropped).
pub async fn refused(url: &str, token: &str) -> Option<(u16, String)> {
    let mut ws = connect(url, token).await.expect("the upgrade");
    let first = tokio::time::timeout(std::time::Duration::from_secs(10), ws.next()).await.ok()??;
    match first {
        Ok(Message::Close(Some(frame))) => Some((u16::from(frame.code), frame.reason.to_string())),
        _ => None,
    }
}

/// Connects to `url` with `Authorization: Bearer TOKEN`; the HTTP status and body of a refusal.
pub async fn connect(url: &str, token: &str) -> Result<Ws, (u16, String)> {
    let mut request = url.into_client_request().unwrap();
    request.headers_mut().insert("authorization", format!("Bearer {token}").parse().unwrap());
    match tokio_tungstenite::connect_async(request).await {
        Ok((ws, _)) => Ok(ws),
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => {
            Err((r.status().as_u16(), String::from_utf8_lossy(r.body().as_deref().unwrap_or_default()).into_owned()))
        }
        Err(e) => panic!("connect {url}: {e}"),
    }
}

/// What a client does with one request: the reply messages it sends (raw text), in order.
pub type Policy<'a> = dyn FnMut(&Value, &Seen) -> Vec<String> + Send + 'a;

/// Everything a client received, in order.
#[derive(Default, Debug)]
pub struct Seen {
    pub messages: Vec<Value>,
    /// The seat from `start_game`.
    pub seat: Option<u64>,
    /// This seat's last drawn tile.
    pub drawn: Option<String>,
    /// This seat's hand (mjai tiles) and every seat's score, from the events received.
    pub hand: Vec<String>,
    pub scores: Vec<i64>,
    /// Every seat's discards and the dora indicators of the hand (mjai tiles).
    pub discards: [Vec<String>; 4],
    pub dora: Vec<String>,
    /// Every seat's melds, each its tiles (the called one first).
    pub melds: [Vec<Vec<String>>; 4],
    /// The seat each meld was called from, as `melds` (`None`: an ankan; a kakan keeps its
    /// pon's).
    pub meld_from: [Vec<Option<u64>>; 4],
    /// The seat of the hand's last discard (or kakan, while others may rob it).
    pub last_discarder: Option<u64>,
    /// Which seats are in riichi: from the discard after their `reach` (RiichiEnv's
    /// `riichi_declared`), and which declared `reach` and have not discarded yet.
    pub riichi: [bool; 4],
    reaching: [bool; 4],
    /// Each request with the hand and scores at that moment (what
    /// scripts/crosscheck_observations.py reads).
    pub records: Vec<Value>,
}

impl Seen {
    /// Follows the seat, its hand, its drawn tile and the scores.
    fn track(&mut self, m: &Value) {
        let own = m["actor"].as_u64().is_some() && m["actor"].as_u64() == self.seat;
        let strings = |v: &Value| -> Vec<String> {
            v.as_array().map(|a| a.iter().filter_map(|t| t.as_str().map(str::to_string)).collect()).unwrap_or_default()
        };
        let remove = |hand: &mut Vec<String>, tile: &str| {
            if let Some(i) = hand.iter().position(|t| t == tile) {
                hand.remove(i);
            }
        };
        match m["type"].as_str().unwrap_or("") {
            "start_game" => self.seat = m["id"].as_u64(),
            "start_kyoku" => {
                self.discards = Default::default();
                self.melds = Default::default();
                self.meld_from = Default::default();
                self.last_discarder = None;
                self.riichi = Default::default();
                self.reaching = Default::default();
                self.dora = vec![m["dora_marker"].as_str().unwrap().to_string()];
                self.hand = strings(&m["tehais"][self.seat.unwrap_or(0) as usize]);
                self.scores = m["scores"].as_array().unwrap().iter().map(|s| s.as_i64().unwrap()).collect();
            }
            "tsumo" if own => {
                let pai = m["pai"].as_str().unwrap().to_string();
                self.drawn = Some(pai.clone());
                self.hand.push(pai);
            }
            "reach" => self.reaching[m["actor"].as_u64().unwrap() as usize] = true,
            "dahai" => {
                let pai = m["pai"].as_str().unwrap();
                let actor = m["actor"].as_u64().unwrap() as usize;
                self.discards[actor].push(pai.to_string());
                self.last_discarder = Some(actor as u64);
                if std::mem::take(&mut self.reaching[actor]) {
                    self.riichi[actor] = true;
                }
                if own {
                    self.drawn = None;
                    remove(&mut self.hand, pai);
                }
            }
            "dora" => self.dora.push(m["dora_marker"].as_str().unwrap().to_string()),
            "chi" | "pon" | "daiminkan" | "ankan" => {
                let consumed = strings(&m["consumed"]);
                let called: Vec<String> = match m["type"].as_str() {
                    Some("ankan") => Vec::new(),
                    _ => vec![m["pai"].as_str().unwrap().to_string()],
                };
                let actor = m["actor"].as_u64().unwrap() as usize;
                self.melds[actor].push([called, consumed.clone()].concat());
                self.meld_from[actor].push(m["target"].as_u64());
                if own {
                    for t in consumed {
                        remove(&mut self.hand, &t);
                    }
                }
            }
            "kakan" => {
                let pai = m["pai"].as_str().unwrap();
                self.last_discarder = m["actor"].as_u64();
                let kind = |t: &str| t.trim_end_matches('r').to_string();
                let melds = &mut self.melds[m["actor"].as_u64().unwrap() as usize];
                if let Some(pon) =
                    melds.iter_mut().find(|meld| meld.len() == 3 && meld.iter().all(|t| kind(t) == kind(pai)))
                {
                    pon.push(pai.to_string());
                }
                if own {
                    remove(&mut self.hand, pai);
                }
            }
            "kita" if own => {
                self.drawn = None;
                remove(&mut self.hand, m["pai"].as_str().unwrap_or("N"));
            }
            "reach_accepted" => {
                if let Some(s) = m["actor"].as_u64().and_then(|a| self.scores.get_mut(a as usize)) {
                    *s -= 1000;
                }
            }
            _ => {}
        }
    }

    pub fn of_type(&self, t: &str) -> Vec<&Value> {
        self.messages.iter().filter(|m| m["type"] == t).collect()
    }
}

/// The reply of a tsumogiri: the drawn tile on a draw, `none` where `none` is possible,
/// else the first possible `dahai`. Echoes the `request_id`.
pub fn tsumogiri(request: &Value, seen: &Seen) -> Value {
    let possible = request["possible_actions"].as_array().unwrap();
    let id = request["request_id"].clone();
    if possible.iter().any(|a| a["type"] == "none") {
        return json!({"type": "none", "request_id": id});
    }
    let seat = seen.seat.unwrap();
    if let Some(drawn) = &seen.drawn {
        if possible.iter().any(|a| a["type"] == "dahai" && a["pai"] == drawn.as_str()) {
            return json!({"type": "dahai", "actor": seat, "pai": drawn, "tsumogiri": true, "request_id": id});
        }
    }
    let first = possible.iter().find(|a| a["type"] == "dahai").unwrap();
    json!({"type": "dahai", "actor": seat, "pai": first["pai"], "tsumogiri": false, "request_id": id})
}

/// Plays until the server closes (or `stop_after` requests, then drops the connection);
/// returns all it received.
pub async fn play(mut ws: Ws, policy: &mut Policy<'_>, stop_after: Option<usize>) -> Seen {
    let mut seen = Seen::default();
    let mut requests = 0;
    while let Some(message) = ws.next().await {
        let text = match message {
            Ok(Message::Text(t)) => t,
            Ok(Message::Close(_)) | Err(_) => break,
            Ok(_) => continue,
        };
        let value: Value = serde_json::from_str(text.as_str()).expect("every message is JSON");
        assert!(value.is_object(), "one JSON object per message: {value}");
        seen.track(&value);
        seen.messages.push(value.clone());
        if value["type"] == "request_action" {
            seen.records.push(json!({
                "request": value, "hand": seen.hand, "scores": seen.scores,
                "discards": seen.discards, "dora_indicators": seen.dora, "melds": seen.melds,
                "riichi_declared": seen.riichi, "meld_from": seen.meld_from,
                "last_discarder": seen.last_discarder, "drawn": seen.drawn,
            }));
            requests += 1;
            if stop_after.is_some_and(|n| requests > n) {
                break;
            }
            for reply in policy(&value, &seen) {
                if ws.send(Message::Text(reply.into())).await.is_err() {
                    break;
                }
            }
        }
    }
    seen
}
