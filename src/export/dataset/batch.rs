//! The rows of one log as an Arrow [`RecordBatch`], one schema per [`Kind`]: the column
//! names, types and order that docs/dataset.md documents (keep the two in step).

use arrow_array::builder::{BooleanBuilder, Int32Builder, StringBuilder, UInt8Builder};
use arrow_array::RecordBatch;
use arrow_schema::ArrowError;

use mjai_sim_engine::tile::Tile;

use super::columns::Columns;
use super::decisions::DecisionRow;
use super::riichi::RiichiRow;
use super::view::View;

fn names(tiles: &[Tile]) -> impl Iterator<Item = &'static str> + '_ {
    tiles.iter().map(|t| t.as_mjai())
}

/// The leading columns of every row: `game`, `kyoku`, `seat`, `event`.
fn key<'a>(c: &mut Columns, game: &str, rows: impl Iterator<Item = (&'a str, u8, usize)> + Clone) {
    c.str("game", rows.clone().map(|_| game));
    c.str("kyoku", rows.clone().map(|r| r.0));
    c.u8("seat", rows.clone().map(|r| r.1));
    c.u32("event", rows.map(|r| u32::try_from(r.2).unwrap_or(u32::MAX)));
}

/// The first `v.seats` entries of a seat-indexed array (three at a three-player table).
fn at_table<'a, T>(v: &View, per_seat: &'a [T]) -> &'a [T] {
    &per_seat[..v.seats.min(per_seat.len())]
}

/// The public table of [`View`] (the seat's own `tehai` is added by each kind); every
/// seat-indexed list has one entry per seat at the table.
fn public<'a>(c: &mut Columns, views: impl Iterator<Item = &'a View> + Clone) {
    c.str("bakaze", views.clone().map(|v| v.bakaze.as_mjai()));
    c.u8("oya", views.clone().map(|v| v.oya));
    c.u8("honba", views.clone().map(|v| v.honba));
    c.u8("kyotaku", views.clone().map(|v| v.kyotaku));
    c.u8("tiles_left", views.clone().map(|v| v.tiles_left));
    c.list("scores", Int32Builder::new(), views.clone().map(|v| at_table(v, &v.scores).iter().copied()));
    c.list("dora_markers", StringBuilder::new(), views.clone().map(|v| names(&v.dora_markers)));
    let rivers = views.clone().map(|v| at_table(v, &v.discards));
    let each = |r: &'a [Vec<mjai_sim_engine::log::Discard>]| r.iter();
    c.list2(
        "discards",
        StringBuilder::new(),
        rivers.clone().map(|r| each(r).map(|d| d.iter().map(|x| x.pai.as_mjai()))),
    );
    c.list2(
        "discards_tsumogiri",
        BooleanBuilder::new(),
        rivers.clone().map(|r| each(r).map(|d| d.iter().map(|x| x.tsumogiri))),
    );
    c.list2(
        "discards_called",
        BooleanBuilder::new(),
        rivers.clone().map(|r| each(r).map(|d| d.iter().map(|x| x.called))),
    );
    c.list2("discards_riichi", BooleanBuilder::new(), rivers.map(|r| each(r).map(|d| d.iter().map(|x| x.riichi))));
    c.list2("melds", StringBuilder::new(), views.clone().map(|v| at_table(v, &v.melds)));
    c.list("reach", BooleanBuilder::new(), views.map(|v| at_table(v, &v.reach).iter().copied()));
}

/// The decisions table of one log named `game`.
pub fn decisions<'a>(game: &str, rows: &'a [DecisionRow]) -> Result<RecordBatch, ArrowError> {
    let mut c = Columns::default();
    key(&mut c, game, rows.iter().map(|r| (r.kyoku.as_str(), r.seat, r.event)));
    public(&mut c, rows.iter().map(|r| &r.view));
    c.list("tehai", StringBuilder::new(), rows.iter().map(|r| names(&r.view.tehai)));
    c.opt_str("tsumo", rows.iter().map(|r| r.tsumo.map(Tile::as_mjai)));
    c.list("legal_actions", StringBuilder::new(), rows.iter().map(|r| &r.legal_actions));
    c.str("action", rows.iter().map(|r| &r.action));
    c.bool("action_shown", rows.iter().map(|r| r.action_shown));
    let seen = |r: &'a DecisionRow| r.view.seats;
    c.list2(
        "label_tehais",
        StringBuilder::new(),
        rows.iter().map(|r| r.hidden.tehais[..seen(r)].iter().map(|t| names(t))),
    );
    c.list("label_tenpai", BooleanBuilder::new(), rows.iter().map(|r| r.hidden.tenpai[..seen(r)].iter().copied()));
    c.list2(
        "label_waits",
        StringBuilder::new(),
        rows.iter().map(|r| r.hidden.waits[..seen(r)].iter().map(|t| names(t))),
    );
    c.i8("label_shanten", rows.iter().map(|r| r.hidden.shanten[usize::from(r.seat)]));
    c.i32("label_hand_delta", rows.iter().map(|r| r.hand_delta));
    c.u8("label_final_rank", rows.iter().map(|r| r.final_rank));
    c.i32("label_final_score", rows.iter().map(|r| r.final_score));
    c.finish()
}

/// The riichi table of one log named `game`.
pub fn riichi(game: &str, rows: &[RiichiRow]) -> Result<RecordBatch, ArrowError> {
    let mut c = Columns::default();
    key(&mut c, game, rows.iter().map(|r| (r.kyoku.as_str(), r.seat, r.event)));
    public(&mut c, rows.iter().map(|r| &r.view));
    c.u8("turn", rows.iter().map(|r| r.turn));
    c.str("riichi_tile", rows.iter().map(|r| r.riichi_tile.as_mjai()));
    c.list("declarer_discards", StringBuilder::new(), rows.iter().map(|r| r.declarer.iter().map(|d| d.pai.as_mjai())));
    c.list("declarer_tsumogiri", BooleanBuilder::new(), rows.iter().map(|r| r.declarer.iter().map(|d| d.tsumogiri)));
    c.list("label_tehai", StringBuilder::new(), rows.iter().map(|r| names(&r.view.tehai)));
    c.list("label_waits", StringBuilder::new(), rows.iter().map(|r| names(&r.waits)));
    c.list("label_waits_unseen", UInt8Builder::new(), rows.iter().map(|r| r.waits_unseen.iter().copied()));
    c.finish()
}
