//! The observation in the form riichi.dev's server sends: riichienv **0.4.8**'s
//! `Observation` / `Observation3P` as its `serialize_to_base64` writes them (padded
//! standard base64 of `serde_json::to_vec` of the struct: these fields, in this order;
//! riichienv-core 0.4.8 `observation/mod.rs`, `observation_3p/mod.rs`, `types.rs`,
//! `action.rs`). riichi.dev's engine notes freeze the wire formats "as v0.4.8
//! compatibility"; 0.4.11 added `forced_tedashi` and made `last_discard` a tile id, neither
//! of which is here. The state behind it is RiichiEnv 0.4.11's ([`super::observe`]); this is
//! the frozen shape it is written in, checked by riichienv 0.4.8's own Python decoding
//! (scripts/crosscheck_observations.py, scripts/riichi_dev_client.py).

use base64::Engine;
use serde::{Deserialize, Serialize};

/// One observation (four or three entries per seat array).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Observation048 {
    /// The seat observing.
    pub player_id: u8,
    /// Each seat's hand as tile ids; only the observer's is filled.
    pub hands: Vec<Vec<u32>>,
    /// Each seat's melds in the order made.
    pub melds: Vec<Vec<Meld048>>,
    /// Each seat's river as tile ids (a called tile stays in it).
    pub discards: Vec<Vec<u32>>,
    /// The dora indicators shown.
    pub dora_indicators: Vec<u32>,
    /// Scores in points.
    pub scores: Vec<i32>,
    /// Which seats are in riichi.
    pub riichi_declared: Vec<bool>,
    /// The legal actions (`legal_actions()` in Python).
    pub _legal_actions: Vec<Action048>,
    /// The mjai events since the last observation, as JSON texts.
    pub events: Vec<String>,
    /// Honba sticks.
    pub honba: u8,
    /// Riichi sticks on the table.
    pub riichi_sticks: u32,
    /// The round wind, 0 = East.
    pub round_wind: u8,
    /// The dealer's seat.
    pub oya: u8,
    /// The hand number in the round, from 0.
    pub kyoku_index: u8,
    /// The kinds (0..34) the observer's hand waits on.
    pub waits: Vec<u8>,
    /// `waits` is not empty.
    pub is_tenpai: bool,
    /// Empty lists in 0.4.8 (it never fills them).
    pub tsumogiri_flags: Vec<Vec<bool>>,
    /// Each seat's riichi declaration tile (an id).
    pub riichi_sutehais: Vec<Option<u8>>,
    /// Each seat's last discard from the hand (an id).
    pub last_tedashis: Vec<Option<u8>>,
    /// The seat that discarded last (0.4.8's meaning); `None` before the hand's first.
    pub last_discard: Option<u32>,
    /// The tile the observer just drew (an id).
    #[serde(default)]
    pub drawn_tile: Option<u8>,
}

/// A meld as 0.4.8's `Meld` serializes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meld048 {
    /// `Chi`, `Pon`, `Daiminkan`, `Ankan` or `Kakan`.
    pub meld_type: String,
    /// Every tile id, ascending.
    pub tiles: Vec<u8>,
    /// False for an ankan.
    pub opened: bool,
    /// The seat called from; -1 for an ankan.
    pub from_who: i8,
    /// The called tile's id; `None` for an ankan.
    pub called_tile: Option<u8>,
}

/// A legal action as 0.4.8's `Action` serializes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Action048 {
    /// `Discard`, `Chi`, `Pon`, `Daiminkan`, `Ron`, `Riichi`, `Tsumo`, `Pass`, `Ankan`,
    /// `Kakan`, `KyushuKyuhai` or `Kita`.
    pub action_type: String,
    /// The tile id it plays, if any.
    pub tile: Option<u8>,
    /// The tile ids it takes from the hand (calls, kans).
    pub consume_tiles: Vec<u8>,
    /// The seat acting.
    pub actor: Option<u8>,
}

impl Observation048 {
    /// As 0.4.8's `serialize_to_base64` writes it: padded standard base64 of the JSON.
    pub fn to_base64(&self) -> String {
        base64::engine::general_purpose::STANDARD.encode(serde_json::to_vec(self).unwrap_or_default())
    }
}
