//! Actions on a seat's own turn: dahai, reach, ankan, kakan, tsumo, kyuushu kyuuhai; and
//! what follows a discard that nobody claims.

use crate::event::{DrawReason, Event, Seat};
use crate::hand::{Meld, MeldKind};
use crate::tile::Tile;

use super::super::player::Call;
use super::state::{Kyoku, Outcome, Phase};
use crate::rules::{Players, WaitingKanDora};

impl Kyoku {
    /// Applies the (already legal) action of the seat whose turn it is.
    pub fn apply_turn(&mut self, seat: Seat, action: &Event, log: &mut Vec<Event>) {
        match *action {
            Event::Dahai { pai, tsumogiri, .. } => self.discard(seat, pai, tsumogiri, log),
            Event::Reach { .. } => {
                self.players[seat as usize].reach_declared = true;
                log.push(action.clone());
            }
            Event::Ankan { consumed, .. } => self.ankan(seat, consumed, log),
            Event::Kita { pai, .. } => self.kita(seat, pai, log),
            Event::Kakan { pai, .. } => self.kakan(seat, pai, log),
            Event::Hora { .. } => {
                let tile = self.players[seat as usize].drawn.expect("tsumo wins hold the drawn tile");
                self.settle_horas(seat, tile, &[seat], false, log);
            }
            Event::Ryukyoku { .. } => {
                self.end_ryukyoku(Outcome::Abortive, [0; 4], None, DrawReason::KyuushuKyuuhai, log);
            }
            _ => unreachable!("legal turn actions are dahai, reach, ankan, kakan, kita, hora, ryukyoku"),
        }
    }

    fn discard(&mut self, seat: Seat, tile: Tile, tsumogiri: bool, log: &mut Vec<Event>) {
        let p = &mut self.players[seat as usize];
        p.remove(tile);
        p.refresh_waits();
        // Tenhou: a riichi hand that lets its winning tsumo go is furiten for good.
        if p.riichi != crate::hand::Riichi::None && p.drawn.is_some_and(|d| p.waits() >> d.kind() & 1 == 1) {
            p.furiten_riichi = true;
        }
        p.kawa.push(tile);
        p.drawn = None;
        p.kuikae = 0;
        if std::mem::take(&mut self.dora_at_discard) {
            self.reveal_dora(log);
        }
        let p = &mut self.players[seat as usize];
        p.furiten_temp = false;
        if !tile.is_yaochuu() {
            p.nagashi = false;
        }
        if !p.reach_declared {
            p.ippatsu = false;
        }
        self.rinshan_turn = false;
        log.push(Event::Dahai { actor: seat, pai: tile, tsumogiri });
        self.phase = Phase::Discarded { seat, tile };
    }

    /// Before any call on a discard that was not ronned: the riichi stick goes down.
    /// Returns false when this ended the kyoku (four riichi).
    pub(super) fn accept_reach(&mut self, seat: Seat, log: &mut Vec<Event>) -> bool {
        let uninterrupted = self.uninterrupted;
        let p = &mut self.players[seat as usize];
        if !p.reach_declared {
            return true;
        }
        p.reach_declared = false;
        p.riichi =
            if uninterrupted && p.kawa.len() == 1 { crate::hand::Riichi::Double } else { crate::hand::Riichi::Riichi };
        p.ippatsu = true;
        self.scores[seat as usize] -= 1000;
        self.kyotaku = self.kyotaku.saturating_add(1);
        log.push(Event::ReachAccepted { actor: seat });
        // Four riichi (四家立直); not at a three-player table (RiichiEnv `state_3p`
        // `check_abortive_draw`: "Suucha Riichi ... disabled in 3P").
        if self.rules.players == Players::Four && self.players.iter().all(|p| p.riichi != crate::hand::Riichi::None) {
            if self.rules.four_riichi_after_tsumo {
                // mjai.app: the next seat draws before the hand is aborted (nobody can call:
                // all four are in riichi; a riichi leaves at least 3 live tiles).
                self.draw(self.next_seat(seat), false, log);
            }
            self.end_ryukyoku(Outcome::Abortive, [0; 4], None, DrawReason::FourRiichi, log);
            return false;
        }
        true
    }

    /// Four winds: the first four discards, with no call, are the same wind. Never at a
    /// three-player table (RiichiEnv `state_3p` `check_abortive_draw`: "Sufuurenta ...
    /// disabled in 3P").
    pub(super) fn four_winds(&self) -> bool {
        self.rules.players == Players::Four
            && self.uninterrupted
            && self.players.iter().all(|p| p.kawa.len() == 1)
            && (27..=30).contains(&self.players[0].kawa[0].kind())
            && self.players.iter().all(|p| p.kawa[0].kind() == self.players[0].kawa[0].kind())
    }

    /// Nobody claimed `seat`'s discard: abortive draws, exhaustive draw or the next tsumo.
    pub(super) fn after_discard(&mut self, seat: Seat, log: &mut Vec<Event>) {
        if let Some(reason) = self.abort_after_discard() {
            self.end_ryukyoku(Outcome::Abortive, [0; 4], None, reason, log);
        } else if self.live_left() == 0 {
            self.exhaustive_draw(log);
        } else {
            let next = self.next_seat(seat);
            self.draw(next, false, log);
        }
    }

    /// Four winds, else four kans, when the discard that passed ends the hand.
    pub(super) fn abort_after_discard(&self) -> Option<DrawReason> {
        if self.four_winds() {
            Some(DrawReason::FourWinds)
        } else if self.four_kans_abort() {
            Some(DrawReason::FourKans)
        } else {
            None
        }
    }

    /// Four kans by more than one seat: the discard after the fourth kan was not ronned.
    pub(super) fn four_kans_abort(&self) -> bool {
        self.kans() == 4 && self.kan_makers.iter().any(|&m| m != self.kan_makers[0])
    }

    pub(super) fn interrupt(&mut self) {
        self.uninterrupted = false;
        for p in &mut self.players {
            p.ippatsu = false;
        }
    }

    fn ankan(&mut self, seat: Seat, consumed: [Tile; 4], log: &mut Vec<Event>) {
        let p = &mut self.players[seat as usize];
        for t in consumed {
            p.remove(t);
        }
        p.drawn = None;
        p.calls.push(Call { meld: Meld { kind: MeldKind::Ankan, tiles: consumed.to_vec() }, target: None });
        self.kan_makers.push(seat);
        self.interrupt();
        // A minkan's dora still waiting is shown too, before this ankan's own: after the
        // `ankan` (Tenhou, RiichiEnv) or before it (Mortal's arena). See `WaitingKanDora`.
        let waiting = std::mem::take(&mut self.dora_at_discard);
        if waiting && self.rules.waiting_kan_dora == WaitingKanDora::Mortal {
            self.reveal_dora(log);
        }
        log.push(Event::Ankan { actor: seat, consumed });
        if waiting && self.rules.waiting_kan_dora != WaitingKanDora::Mortal {
            self.reveal_dora(log);
        }
        self.reveal_dora(log);
        self.phase = Phase::Ankan { seat, tile: consumed[0] };
    }

    fn kakan(&mut self, seat: Seat, pai: Tile, log: &mut Vec<Event>) {
        let p = &mut self.players[seat as usize];
        p.remove(pai);
        p.drawn = None;
        let i = p.pon_of(pai.kind()).expect("legal kakan has a pon");
        let mut consumed: [Tile; 3] = p.calls[i].meld.tiles.clone().try_into().expect("a pon has 3 tiles");
        consumed.sort_by_key(|t| (t.kind(), t.is_red()));
        p.calls[i].meld.kind = MeldKind::Kakan;
        p.calls[i].meld.tiles.push(pai);
        self.kan_makers.push(seat);
        // Not yet an interruption: a kakan is complete only once nobody robs it, so a
        // riichi player who robs it keeps ippatsu (Tenhou). See `after_kakan`.
        log.push(Event::Kakan { actor: seat, pai, consumed });
        self.minkan_dora();
        self.phase = Phase::Kakan { seat, tile: pai };
    }

    /// A daiminkan or kakan was made: its dora waits for the maker's discard; the dora of
    /// an earlier kan still waiting is shown before the rinshan tsumo instead (or, under
    /// [`WaitingKanDora::RiichiEnv`], before the `hora` of a chankan: see `robbed_kakan`).
    pub(super) fn minkan_dora(&mut self) {
        if self.dora_at_discard {
            self.dora_at_tsumo = true;
        }
        self.dora_at_discard = true;
    }

    /// The kakan was not robbed: it is complete, which ends every ippatsu; then the rinshan
    /// tsumo (its dora comes with the discard).
    pub(super) fn after_kakan(&mut self, seat: Seat, log: &mut Vec<Event>) {
        self.interrupt();
        self.draw(seat, true, log);
    }

    /// The kakan is robbed: under [`WaitingKanDora::RiichiEnv`] the dora of the kan before
    /// it, still waiting, is shown now, before the `hora` (RiichiEnv shows it right after
    /// the `kakan`, before the chankan is decided; this engine asks nobody right after a
    /// `dora`), so the chankan counts it and its ura indicator. Elsewhere it is never shown.
    pub(super) fn robbed_kakan(&mut self, log: &mut Vec<Event>) {
        if self.rules.waiting_kan_dora == WaitingKanDora::RiichiEnv && std::mem::take(&mut self.dora_at_tsumo) {
            self.reveal_dora(log);
        }
    }

    /// The ankan was not robbed (its dora is already shown): the rinshan tsumo.
    pub(super) fn after_ankan(&mut self, seat: Seat, log: &mut Vec<Event>) {
        self.draw(seat, true, log);
    }

    /// Chi, pon or daiminkan of `seat`'s discard.
    pub(super) fn call(&mut self, discarder: Seat, action: &Event, log: &mut Vec<Event>) {
        let (actor, pai, consumed, kind): (Seat, Tile, Vec<Tile>, MeldKind) = match action {
            Event::Chi { actor, pai, consumed, .. } => (*actor, *pai, consumed.to_vec(), MeldKind::Chi),
            Event::Pon { actor, pai, consumed, .. } => (*actor, *pai, consumed.to_vec(), MeldKind::Pon),
            Event::Daiminkan { actor, pai, consumed, .. } => (*actor, *pai, consumed.to_vec(), MeldKind::Daiminkan),
            _ => unreachable!("calls are chi, pon, daiminkan"),
        };
        self.players[discarder as usize].nagashi = false;
        self.interrupt();
        let allow_kuikae = self.rules.allow_kuikae;
        let p = &mut self.players[actor as usize];
        for &t in &consumed {
            p.remove(t);
        }
        let mut tiles = consumed.clone();
        tiles.push(pai);
        p.calls.push(Call { meld: Meld { kind, tiles }, target: Some(discarder) });
        p.kuikae = if allow_kuikae { 0 } else { kuikae(pai, &consumed, kind) };
        set_pao(p, discarder, pai, kind);
        log.push(action.clone());
        if kind == MeldKind::Daiminkan {
            self.kan_makers.push(actor);
            self.minkan_dora();
            self.draw(actor, true, log);
        } else {
            self.phase = Phase::Turn { seat: actor, after_call: true };
        }
    }
}

/// Kinds the caller may not discard right after a chi or pon, as a mask (bit `k` set:
/// kind `k` forbidden). Tenhou: neither the called kind nor, for a chi on an end, the kind
/// at the other end of the sequence.
pub fn kuikae(pai: Tile, consumed: &[Tile], kind: MeldKind) -> u64 {
    let c = pai.kind();
    let mut out = 1u64 << c;
    if kind == MeldKind::Chi {
        let low = consumed.iter().map(|t| t.kind()).min().unwrap_or(c);
        let n = pai.number();
        if c < low && n <= 6 {
            out |= 1 << (c + 3);
        } else if c > low + 1 && n >= 4 {
            out |= 1 << (c - 3);
        }
    }
    out
}

/// Pao (Tenhou): the seat that fed the third dragon set or the fourth wind set pays for
/// daisangen or daisuushii.
fn set_pao(p: &mut super::super::player::Player, discarder: Seat, pai: Tile, kind: MeldKind) {
    if !matches!(kind, MeldKind::Pon | MeldKind::Daiminkan) || !pai.is_honor() {
        return;
    }
    let sets_of = |range: std::ops::RangeInclusive<u8>| {
        p.calls.iter().filter(|c| c.meld.kind != MeldKind::Chi && range.contains(&c.meld.tiles[0].kind())).count()
    };
    if pai.kind() >= 31 && sets_of(31..=33) == 3 {
        p.pao = Some((discarder, "daisangen"));
    } else if pai.kind() <= 30 && sets_of(27..=30) == 4 {
        p.pao = Some((discarder, "daisuushii"));
    }
}
