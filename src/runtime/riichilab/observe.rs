//! The `observation` of a request, in the form riichi.dev's server sends: riichienv 0.4.8's
//! `Observation` / `Observation3P` (the `riichienv-core` 0.4.8 crate, the version riichi.dev's
//! engine notes freeze the wire formats at, "v0.4.8 compatibility"), with physical tile ids.
//!
//! Each dialect seat keeps a RiichiEnv `GameState` fed with exactly the masked events the
//! seat is sent (`apply_mjai_event`, RiichiEnv's own replay of mjai events, and
//! `_push_mjai_event` for the observation's `events`): it gives the round, scores, riichi
//! flags, `last_discard` (0.4.8: the discarder's seat), `waits`, `is_tenpai` and the legal
//! actions in RiichiEnv's order. mjai has no tile ids, so the replay numbers tiles by kind
//! (`[0, 0, 8, 8, ...]`); the referee's own ids replace them
//! ([`crate::engine::game::tile_ids::TileIds`], dealt from the kyoku's wall): the seat's hand
//! (ascending, the tile just drawn last, as RiichiEnv's `GameState` holds it), every river
//! (a called tile stays in it), every meld (`meld_type`, ascending `tiles`, `opened`,
//! `from_who` the seat called from, -1 for an ankan, `called_tile`; a kakan keeps its pon's),
//! the dora indicators, `drawn_tile`, `riichi_sutehais` and `last_tedashis` (ids, as the
//! server's `GameState` sets them), and the ids inside each legal action. At a request the
//! observation is serialized with RiichiEnv's `serialize_to_base64` (standard padded base64
//! of its JSON). Only the seat's own hand is in it (RiichiEnv masks the others).
//!
//! At three seats the state is RiichiEnv's own three-player one (`GameState3P`,
//! `state_3p/mod.rs`; `get_observation` gives an `Observation3P`, `observation_3p/mod.rs`,
//! with three entries per seat array and its own `serialize_to_base64`): what riichienv's
//! `Observation3P.deserialize_from_base64` reads. Kita tiles are not in 0.4.8's
//! `Observation3P`; they leave the hand.

use riichienv_core::action::Action;
use riichienv_core::observation::Observation;
use riichienv_core::observation_3p::Observation3P;
use riichienv_core::parser::tid_to_mjai;
use riichienv_core::replay::MjaiEvent;
use riichienv_core::rule::GameRule;
use riichienv_core::state::GameState;
use riichienv_core::state_3p::GameState3P;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};

use super::wire::{into_value, Object};
use crate::engine::event::{Event, Seat};
use crate::engine::game::tile_ids::{tile_of, MeldKind, TileId, TileIds};
use crate::engine::game::{Players, WallIds};
use crate::engine::tile::Tile;

/// RiichiEnv's game mode of a hanchan (`GameSubMode::Half`); the replay does not depend on
/// it (`start_kyoku` sets the round), but the state wants one.
const HANCHAN: u8 = 2;

/// RiichiEnv's three-player hanchan (`GameSubMode3P::Half`, game mode 5); as [`HANCHAN`],
/// the replay sets the round from `start_kyoku`.
const HANCHAN_3P: u8 = 5;

/// RiichiEnv's state of the table, by its size.
enum State {
    Four(Box<GameState>),
    Three(Box<GameState3P>),
}

/// One seat's view in RiichiEnv's terms.
pub struct SeatView {
    state: State,
    seat: u8,
    /// The physical ids of the kyoku in play; `None` before its deal is known (the
    /// observation then keeps RiichiEnv's numbering by kind).
    ids: Option<TileIds>,
}

impl std::fmt::Debug for SeatView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SeatView").field("seat", &self.seat).finish_non_exhaustive()
    }
}

impl SeatView {
    /// A fresh view for `seat` (`0..players.count()`) at a table of `players`, Tenhou's
    /// rules (RiichiEnv's `default_tenhou`, the rule it plays its own sanma with too): a
    /// `GameState` at four seats, a `GameState3P` at three.
    pub fn new(seat: u8, players: Players) -> SeatView {
        let state = match players {
            Players::Four => {
                let mut state = GameState::new(HANCHAN, false, Some(0), 0, GameRule::default_tenhou());
                // Forget the constructor's own `start_game`: the stream's comes next.
                state.reset();
                state.mjai_log_per_player = Default::default();
                state.player_event_counts = Default::default();
                State::Four(Box::new(state))
            }
            Players::Three => {
                let mut state = GameState3P::new(HANCHAN_3P, false, Some(0), 0, GameRule::default_tenhou());
                state.reset();
                state.mjai_log_per_player = Default::default();
                state.player_event_counts = Default::default();
                State::Three(Box::new(state))
            }
        };
        SeatView { state, seat, ids: None }
    }

    /// A kyoku starts on the wall of `ids` (`None`: its ids are not known; the
    /// observation keeps RiichiEnv's numbering until the next deal).
    pub fn deal(&mut self, ids: Option<WallIds>) {
        self.ids = ids.map(TileIds::deal);
    }

    /// Feeds one event as sent to the seat: `event` as the engine reads it, `message` as
    /// the wire writes it. An event RiichiEnv cannot read is skipped (its type is logged at
    /// debug level); nothing panics.
    pub fn apply(&mut self, event: &Event, message: &Object) {
        if let Some(ids) = &mut self.ids {
            ids.apply(event);
        }
        let value = into_value(message.clone());
        match serde_json::from_value::<MjaiEvent>(value.clone()) {
            Ok(event) => {
                let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match &mut self.state {
                    State::Four(state) => {
                        state.apply_mjai_event(event);
                        state._push_mjai_event(value);
                    }
                    State::Three(state) => {
                        state.apply_mjai_event(event);
                        state._push_mjai_event(value);
                    }
                }));
                if caught.is_err() {
                    tracing::debug!("riichienv could not replay {:?}", message.get("type"));
                }
            }
            Err(e) => tracing::debug!("riichienv cannot read {:?}: {e}", message.get("type")),
        }
    }

    /// The observation now, as RiichiEnv's `serialize_to_base64` writes it, with the
    /// physical ids (see the module doc); an empty string if RiichiEnv fails (never seen;
    /// logged).
    ///
    /// Its legal actions are RiichiEnv's that the referee takes (`legal`, when given, matched as a reply
    /// is, [`super::select::select`]): RiichiEnv 0.4.8's replay of mjai events offers now and
    /// then what its own game would not (kyuushu kyuuhai after the first turn: the replay
    /// never clears its first-turn flag), and a bot picking from `legal_actions()` must never
    /// pick a chombo.
    pub fn observation(&mut self, legal: Option<&[Event]>) -> String {
        let seat = self.seat;
        let ids = self.ids.as_ref().filter(|ids| match ids.desync() {
            None => true,
            Some(why) => {
                tracing::warn!("riichilab seat {seat}: tile ids lost ({why}); ids by kind");
                false
            }
        });
        let state = &mut self.state;
        let built = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match state {
            State::Four(state) => {
                let obs = state.get_observation(seat);
                with_ids(&obs, ids, seat, 4, legal)
                    .and_then(|o: Observation| o.serialize_to_base64().map_err(|e| e.to_string()))
            }
            State::Three(state) => {
                let obs = state.get_observation(seat);
                with_ids(&obs, ids, seat, 3, legal)
                    .and_then(|o: Observation3P| o.serialize_to_base64().map_err(|e| e.to_string()))
            }
        }));
        match built {
            Ok(Ok(text)) => text,
            Ok(Err(e)) => {
                tracing::warn!("riichienv observation: {e}");
                String::new()
            }
            Err(_) => {
                tracing::warn!("riichienv observation panicked");
                String::new()
            }
        }
    }

    /// How many copies of `tile` (red fives apart) the seat holds in its hand now.
    pub fn copies(&self, tile: Tile) -> usize {
        let want = tile.as_mjai();
        let hand = match &self.state {
            State::Four(state) => state.players.get(usize::from(self.seat)).map(|p| &p.hand),
            State::Three(state) => state.players.get(usize::from(self.seat)).map(|p| &p.hand),
        };
        hand.map_or(0, |hand| hand.iter().filter(|&&t| tid_to_mjai(t) == want).count())
    }
}

/// `obs` with only the legal actions the referee takes (`legal`), and the referee's physical
/// ids in place of RiichiEnv's kind numbering (see the module doc) unless `ids` is `None`.
/// Errors: RiichiEnv's type does not read the patched JSON back (never seen).
fn with_ids<T: Serialize + DeserializeOwned>(
    obs: &T,
    ids: Option<&TileIds>,
    seat: Seat,
    seats: u8,
    legal: Option<&[Event]>,
) -> Result<T, String> {
    let mut value = serde_json::to_value(obs).map_err(|e| e.to_string())?;
    if let (Some(legal), Some(Value::Array(actions))) = (legal, value.get_mut("_legal_actions")) {
        actions.retain(|a| taken(a, legal));
    }
    if let (Some(ids), Value::Object(o)) = (ids, &mut value) {
        let each = |f: &dyn Fn(Seat) -> Value| Value::Array((0..seats).map(f).collect());
        o.insert("hands".into(), each(&|s| if s == seat { json!(ids.hand(s)) } else { json!([]) }));
        o.insert("discards".into(), each(&|s| json!(ids.discards(s))));
        o.insert("melds".into(), each(&|s| Value::Array(ids.melds(s).iter().map(meld).collect())));
        o.insert("dora_indicators".into(), json!(ids.dora_indicators()));
        o.insert("riichi_sutehais".into(), each(&|s| json!(ids.riichi_sutehai(s))));
        o.insert("last_tedashis".into(), each(&|s| json!(ids.last_tedashi(s))));
        if o.get("drawn_tile").is_some_and(|d| !d.is_null()) {
            o.insert("drawn_tile".into(), json!(ids.drawn(seat)));
        }
        if let Some(Value::Array(actions)) = o.get_mut("_legal_actions") {
            legal_ids(actions, ids, seat);
        }
    }
    serde_json::from_value(value).map_err(|e| e.to_string())
}

/// One meld as RiichiEnv's `Meld` serializes.
fn meld(m: &crate::engine::game::tile_ids::MeldIds) -> Value {
    let meld_type = match m.kind {
        MeldKind::Chi => "Chi",
        MeldKind::Pon => "Pon",
        MeldKind::Daiminkan => "Daiminkan",
        MeldKind::Ankan => "Ankan",
        MeldKind::Kakan => "Kakan",
    };
    json!({
        "meld_type": meld_type,
        "tiles": m.tiles,
        "opened": m.kind != MeldKind::Ankan,
        "from_who": m.from_who.map_or(-1, i16::from),
        "called_tile": m.called_tile,
    })
}

/// The ids in RiichiEnv's legal actions (`{"action_type","tile","consume_tiles","actor"}`)
/// made physical: a discard (or kita) of a tile the hand holds twice names each copy once,
/// lowest first (RiichiEnv lists one per physical tile of its sorted hand); a call or ron
/// names the discard's own id and takes the consumed tiles from the hand; an ankan's `tile`
/// is its lowest id; a kakan's `consume_tiles` are its pon's.
fn legal_ids(actions: &mut [Value], ids: &TileIds, seat: Seat) {
    let mut hand = ids.hand(seat);
    hand.sort_unstable();
    let kind_of = |v: &Value| v.as_u64().and_then(|r| u8::try_from(r).ok()).and_then(tile_of);
    let pick = |tile: Option<Tile>, used: &mut Vec<TileId>| -> Option<TileId> {
        let id = hand.iter().copied().find(|id| tile.is_some() && tile_of(*id) == tile && !used.contains(id))?;
        used.push(id);
        Some(id)
    };
    let mut discarded = Vec::new();
    for action in actions {
        let Value::Object(a) = action else { continue };
        let kind = a.get("action_type").and_then(Value::as_str).unwrap_or_default().to_string();
        let tile = a.get("tile").and_then(kind_of);
        let consumed: Vec<Option<Tile>> = a
            .get("consume_tiles")
            .and_then(Value::as_array)
            .map(|c| c.iter().map(kind_of).collect())
            .unwrap_or_default();
        let mut used = Vec::new();
        let consume: Vec<TileId> = match kind.as_str() {
            "Chi" | "Pon" | "Daiminkan" | "Ankan" => consumed.iter().filter_map(|&t| pick(t, &mut used)).collect(),
            "Kakan" => ids
                .melds(seat)
                .iter()
                .find(|m| {
                    m.kind == MeldKind::Pon
                        && tile.is_some_and(|t| tile_of(m.tiles[0]).map(Tile::kind) == Some(t.kind()))
                })
                .map(|m| m.tiles.clone())
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        let last = ids.last_discard().map(|(_, id)| id).filter(|&id| tile.is_some() && tile_of(id) == tile);
        let id = match kind.as_str() {
            "Discard" | "Kita" => pick(tile, &mut discarded),
            "Tsumo" => ids.drawn(seat).or_else(|| pick(tile, &mut used)),
            "Ron" | "Chi" | "Pon" | "Daiminkan" => last,
            "Ankan" => consume.iter().min().copied(),
            "Kakan" => pick(tile, &mut used),
            _ => None,
        };
        if tile.is_some() {
            if let Some(id) = id {
                a.insert("tile".into(), json!(id));
            }
        }
        if consume.len() == consumed.len() && !consume.is_empty() {
            a.insert("consume_tiles".into(), json!(consume));
        }
    }
}

/// Whether the referee takes RiichiEnv's legal action `action` (its JSON): its own mjai form
/// (`Action::to_mjai`) matched against `legal` as a reply is.
fn taken(action: &Value, legal: &[Event]) -> bool {
    let Ok(action) = serde_json::from_value::<Action>(action.clone()) else { return false };
    let mjai: Value = serde_json::from_str(&action.to_mjai()).unwrap_or(Value::Null);
    super::select::select(legal, &mjai).is_ok()
}
