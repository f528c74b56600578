//! Read-only questions about a game in progress, for tools that look at a game (the HTML
//! viewer): what a win declared now would score.

use super::Game;
use crate::event::Seat;
use crate::game::kyoku::Phase;
use crate::hand::HandScore;

impl Game {
    /// What a `hora` by `seat` would score at this moment: tsumo on its turn (the drawn
    /// tile), ron on the current discard, chankan on a kakan or ankan being declared. The
    /// score is the engine's own (Tenhou rules: yaku with han, fu, points before honba and
    /// kyotaku). `None` when `seat` cannot win now (not its turn or claim, no complete hand,
    /// no yaku).
    pub fn hora_score(&self, seat: Seat) -> Option<HandScore> {
        let k = &self.kyoku;
        match k.phase {
            Phase::Turn { seat: s, .. } if s == seat => {
                let tile = k.players[seat as usize].drawn?;
                k.score_win(seat, tile, true, false)
            }
            Phase::Discarded { seat: from, tile } if from != seat => k.score_win(seat, tile, false, false),
            Phase::Kakan { seat: from, tile } | Phase::Ankan { seat: from, tile } if from != seat => {
                k.score_win(seat, tile, false, true)
            }
            _ => None,
        }
    }
}
