//! The `observation` of a request, in the form riichi.dev's server sends: riichienv 0.4.8's
//! `Observation` / `Observation3P` ([`super::observation_048`]: riichi.dev's engine notes
//! freeze the wire formats "as v0.4.8 compatibility"), with physical tile ids.
//!
//! Each dialect seat keeps a RiichiEnv `GameState` (`riichienv-core` 0.4.11, whose replay
//! of mjai events is 0.4.8's with its bugs fixed) fed with exactly the masked events the
//! seat is sent (`apply_mjai_event` and `_push_mjai_event` for the observation's
//! `events`): it gives the round, scores, riichi flags, `last_discard` (written as 0.4.8
//! means it: the discarder's seat), `waits`, `is_tenpai` and the legal actions in
//! RiichiEnv's order (those the referee takes: [`SeatView::observation`]). mjai has no tile ids, so the replay numbers tiles by kind
//! (`[0, 0, 8, 8, ...]`); the referee's own ids replace them
//! ([`mjai_sim_engine::game::tile_ids::TileIds`], dealt from the kyoku's wall): the seat's hand
//! (ascending, the tile just drawn last, as RiichiEnv's `GameState` holds it), every river
//! (a called tile stays in it), every meld (`meld_type`, ascending `tiles`, `opened`,
//! `from_who` the seat called from, -1 for an ankan, `called_tile`; a kakan keeps its pon's),
//! the dora indicators, `drawn_tile`, `riichi_sutehais` and `last_tedashis` (ids, as the
//! server's `GameState` sets them), and the ids inside each legal action. At a request the
//! observation is serialized with RiichiEnv's `serialize_to_base64` (standard padded base64
//! of its JSON), in 0.4.8's fields and order. Only the seat's own hand is in it (RiichiEnv
//! masks the others).
//!
//! At three seats the state is RiichiEnv's own three-player one (`GameState3P`,
//! `state_3p/mod.rs`; `get_observation` gives an `Observation3P`, `observation_3p/mod.rs`,
//! with three entries per seat array and its own `serialize_to_base64`): what riichienv's
//! `Observation3P.deserialize_from_base64` reads. Kita tiles are not in 0.4.8's
//! `Observation3P`; they leave the hand.

use riichienv_core::action::Action;
use riichienv_core::parser::tid_to_mjai;
use riichienv_core::replay::MjaiEvent;
use riichienv_core::rule::GameRule;
use riichienv_core::state::GameState;
use riichienv_core::state_3p::GameState3P;

use serde::Serialize;
use serde_json::Value;

use super::observation_048::{Action048, Meld048, Observation048};
use super::wire::{into_value, Object};
use mjai_sim_engine::event::{Event, Seat};
use mjai_sim_engine::game::tile_ids::{tile_of, MeldKind, TileId, TileIds};
use mjai_sim_engine::game::{Players, WallIds};
use mjai_sim_engine::tile::Tile;

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

    /// The observation now, as riichienv 0.4.8's `serialize_to_base64` writes it, with the
    /// physical ids (see the module doc); an empty string if RiichiEnv fails (never seen;
    /// logged).
    ///
    /// Its legal actions are RiichiEnv's that the referee takes (`legal`, when given,
    /// matched as a reply is, [`super::select::select`]): a replay of mjai events is not
    /// RiichiEnv's own game (0.4.8's offered kyuushu kyuuhai after the first turn: its replay
    /// never cleared its first-turn flag), and a bot picking from `legal_actions()` must
    /// never pick a chombo.
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
                let last = state.last_discard.map(|(discarder, _)| discarder);
                wire(&state.get_observation(seat), last, ids, seat, legal).map(|o| o.to_base64())
            }
            State::Three(state) => {
                let last = state.last_discard.map(|(discarder, _)| discarder);
                wire(&state.get_observation(seat), last, ids, seat, legal).map(|o| o.to_base64())
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

/// RiichiEnv's `obs` in 0.4.8's form: `last_discard` the seat `last_discarder` (0.4.8's
/// meaning), no `forced_tedashi`, empty `tsumogiri_flags`, only the legal actions the
/// referee takes (`legal`, when given), and the referee's physical ids in place of
/// RiichiEnv's kind numbering (see the module doc) unless `ids` is `None`. Errors: the JSON
/// is not of an observation (never seen).
fn wire(
    obs: &impl Serialize,
    last_discarder: Option<u8>,
    ids: Option<&TileIds>,
    seat: Seat,
    legal: Option<&[Event]>,
) -> Result<Observation048, String> {
    let mut o: Observation048 =
        serde_json::to_value(obs).and_then(serde_json::from_value).map_err(|e| e.to_string())?;
    let seats = o.scores.len();
    o.last_discard = last_discarder.map(u32::from);
    o.tsumogiri_flags = vec![Vec::new(); seats];
    if let Some(legal) = legal {
        o._legal_actions.retain(|a| taken(a, legal));
    }
    if let Some(ids) = ids {
        let each = |f: &dyn Fn(Seat) -> Vec<u32>| (0..seats as u8).map(f).collect::<Vec<_>>();
        let wide = |v: &[TileId]| v.iter().map(|&x| u32::from(x)).collect::<Vec<u32>>();
        o.hands = each(&|s| if s == seat { wide(&ids.hand(s)) } else { Vec::new() });
        o.discards = each(&|s| wide(ids.discards(s)));
        o.melds = (0..seats as u8).map(|s| ids.melds(s).iter().map(meld).collect()).collect();
        o.dora_indicators = wide(ids.dora_indicators());
        o.riichi_sutehais = (0..seats as u8).map(|s| ids.riichi_sutehai(s)).collect();
        o.last_tedashis = (0..seats as u8).map(|s| ids.last_tedashi(s)).collect();
        if o.drawn_tile.is_some() {
            o.drawn_tile = ids.drawn(seat);
        }
        legal_ids(&mut o._legal_actions, ids, seat);
    }
    Ok(o)
}

/// One meld as 0.4.8's `Meld` serializes.
fn meld(m: &mjai_sim_engine::game::tile_ids::MeldIds) -> Meld048 {
    let meld_type = match m.kind {
        MeldKind::Chi => "Chi",
        MeldKind::Pon => "Pon",
        MeldKind::Daiminkan => "Daiminkan",
        MeldKind::Ankan => "Ankan",
        MeldKind::Kakan => "Kakan",
    };
    Meld048 {
        meld_type: meld_type.into(),
        tiles: m.tiles.clone(),
        opened: m.kind != MeldKind::Ankan,
        from_who: m.from_who.and_then(|s| i8::try_from(s).ok()).unwrap_or(-1),
        called_tile: m.called_tile,
    }
}

/// The ids in RiichiEnv's legal actions (`{"action_type","tile","consume_tiles","actor"}`)
/// made physical: a discard (or kita) of a tile the hand holds twice names each copy once,
/// lowest first (RiichiEnv lists one per physical tile of its sorted hand); a call or ron
/// names the discard's own id and takes the consumed tiles from the hand; an ankan's `tile`
/// is its lowest id; a kakan's `consume_tiles` are its pon's.
fn legal_ids(actions: &mut [Action048], ids: &TileIds, seat: Seat) {
    let mut hand = ids.hand(seat);
    hand.sort_unstable();
    let pick = |tile: Option<Tile>, used: &mut Vec<TileId>| -> Option<TileId> {
        let id = hand.iter().copied().find(|id| tile.is_some() && tile_of(*id) == tile && !used.contains(id))?;
        used.push(id);
        Some(id)
    };
    let mut discarded = Vec::new();
    for a in actions {
        let tile = a.tile.and_then(tile_of);
        let consumed: Vec<Option<Tile>> = a.consume_tiles.iter().map(|&t| tile_of(t)).collect();
        let mut used = Vec::new();
        let consume: Vec<TileId> = match a.action_type.as_str() {
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
        let id = match a.action_type.as_str() {
            "Discard" | "Kita" => pick(tile, &mut discarded),
            "Tsumo" => ids.drawn(seat).or_else(|| pick(tile, &mut used)),
            "Ron" | "Chi" | "Pon" | "Daiminkan" => last,
            "Ankan" => consume.iter().min().copied(),
            "Kakan" => pick(tile, &mut used),
            _ => None,
        };
        if let (Some(_), Some(id)) = (tile, id) {
            a.tile = Some(id);
        }
        if consume.len() == consumed.len() && !consume.is_empty() {
            a.consume_tiles = consume;
        }
    }
}

/// Whether the referee takes RiichiEnv's legal action `action`: its own mjai form
/// (`Action::to_mjai`) matched against `legal` as a reply is.
fn taken(action: &Action048, legal: &[Event]) -> bool {
    let Ok(action) = serde_json::to_value(action).and_then(serde_json::from_value::<Action>) else { return false };
    let mjai: Value = serde_json::from_str(&action.to_mjai()).unwrap_or(Value::Null);
    super::select::select(legal, &mjai).is_ok()
}
