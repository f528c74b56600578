//! Rule presets: where mjai.app's engine (smly/mjai.app `src/arena/`, built on Mortal's
//! libriichi) parts from Tenhou, and switches another platform's rule needs. Everything not listed here is the same in both presets
//! (points, yaku, fu, pao, double ron, dora timing but for [`WaitingKanDora`], game end,
//! tobi below 0).
//!
//! With them the table size ([`Players`], [`MAX_SEATS`] seats as the capacity of every
//! per-seat array), the game's length ([`GameLength`]) and the wall's sizes
//! ([`wall_size`]). Vocabulary of the whole engine: `event`, `log` and `game` read it here;
//! it reads only `tile` and `hand` (for [`Rules::tenpai_at_draw`]). `game` re-exports it
//! under its old paths (`game::Rules`, `game::wall::LIVE_TILES`, ...).

pub mod wall_size;

/// One set of rule switches. [`Rules::tenhou`] (also `Rules::default()`) is what games are
/// refereed with; [`Rules::mjai_app`] reproduces mjai.app's engine, for grading exactly like
/// mjai.app and for `verify` of its logs. Each field names the Tenhou behaviour it relaxes
/// and the source of the other one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    /// Allow kuikae (discarding the called kind, or the other end of a chi's sequence, right
    /// after the call). Tenhou forbids it; mjai.app allows it (libriichi computes the
    /// forbidden tiles but `validate_reaction` never checks them: 143 of the 4003 calls in
    /// its 100 reference games are followed by such a discard).
    pub allow_kuikae: bool,
    /// Accept any discard after `reach`, even one that leaves the hand noten. Tenhou: the
    /// riichi discard must keep tenpai; mjai.app checks tenpai only when `reach` is declared
    /// (3 of the 100 reference games have such a discard).
    pub allow_noten_riichi_discard: bool,
    /// Three rons on one discard are all paid (the first winner after the discarder takes
    /// the honba and riichi sticks, as in a double ron). Tenhou: sanchahou, an abortive draw
    /// (`board.rs`: "No triple-ron ryukyoku").
    pub pay_triple_ron: bool,
    /// Kokushi musou tenpai may ron the tile of another seat's ankan (Mahjong Soul's rule:
    /// riichienv `GameRule::default_mjsoul`; no preset here has it, kept as a switch).
    /// Tenhou: nobody may ron an ankan, kokushi included (issue 20): riichi.wiki's Chankan
    /// page shows it denied in Tenhou log 2013121107gm-0019-0000-b01e54cd (image "Kokushi
    /// Denied"), and riichienv, checked against Tenhou paifu, sets
    /// `allows_ron_on_ankan_for_kokushi_musou: false` in `GameRule::default_tenhou`
    /// (smly/RiichiEnv issue #43, PR #44: "Tenhou (false) and MJSoul (true)"). mjai.app:
    /// the same (libriichi offers no ron on an `ankan` event).
    pub kokushi_robs_ankan: bool,
    /// At an exhaustive draw a hand waiting only on a kind it holds four of (karaten)
    /// counts as tenpai: it gets noten payments and keeps the deal. mjai.app (libriichi:
    /// "karaten ... is still a valid ryukyoku tenpai in our rule spec"); Tenhou: noten.
    pub karaten_is_tenpai: bool,
    /// Tenhou and chiihou are one yakuman, never combined with another yakuman in the
    /// hand (mjai.app `board.rs`: "Tenhou (the yaku) and chihou do not accumulate with
    /// other yakus; they are always 1x yakuman"). Tenhou: they stack like any yakuman.
    pub tenhou_chiihou_alone: bool,
    /// In the West round a dealer who keeps the deal by a win or tenpai plays on although
    /// someone has 30000 (mjai.app `game.rs`, its reading of Tenhou's 「親の連荘がある場合は
    /// 連荘を優先する」); the game still ends when that dealer is first with 30000. This
    /// engine's Tenhou preset ends the game as soon as someone has 30000 in the West round.
    pub west_renchan_continues: bool,
    /// Four riichi: the next seat's `tsumo` is logged after the fourth `reach_accepted`,
    /// then the hand is aborted (mjai.app `board.rs` checks for four riichi only at the
    /// next step, after that draw). Tenhou preset: aborted right after `reach_accepted`.
    pub four_riichi_after_tsumo: bool,
    /// Four winds, or the discard after a fourth kan by two or more seats: the hand is
    /// aborted before a riichi declared with that discard is accepted, so no stick goes
    /// down (mjai.app `board.rs`). Tenhou preset: the riichi is accepted first.
    pub abort_before_reach_accepted: bool,
    /// How long the game is: a hanchan (East and South rounds, the default) or East only
    /// (tonpuusen: riichi.dev's validation game, RiichiEnv's game mode East). See
    /// the hanchan's `next_state` (in `game`) for when each ends.
    pub length: GameLength,
    /// How many sit at the table ([`Players::Four`] or [`Players::Three`], sanma). Front
    /// ends learn the table size here: `rules.players.count()` seats, numbered `0..count`.
    pub players: Players,
    /// Three-player only: a tsumo on the replacement tile drawn after a `kita` scores
    /// rinshan kaihou. RiichiEnv (`state_3p/sanma.rs` `resolve_kita_rinshan` sets
    /// `is_rinshan_flag`, as Mahjong Soul does); Tenhou: it does not (a kita is not a kan).
    pub kita_is_rinshan: bool,
    /// Riichi needs at least this many tiles left in the live wall (after the riichi
    /// player's draw). Tenhou: 4, so that the riichi player draws again (kept for the
    /// `tenhou-3p` preset: not checked against Tenhou's sanma games here). RiichiEnv
    /// 0.4.11's three-player env: 3 (measured by `scripts/crosscheck_3p.py`: it refuses
    /// riichi with 1 or 2 tiles left and allows it with 3; its 0.4.8 source,
    /// `state_3p/legal_actions.rs`, had `drawable_count > 0`).
    pub riichi_min_live: u8,
    /// Where a daiminkan's or kakan's dora that still waits (its maker made another kan on
    /// the rinshan tsumo, before discarding) is shown: see [`WaitingKanDora`].
    pub waiting_kan_dora: WaitingKanDora,
}

/// A daiminkan's or kakan's dora waits for its maker's discard. When the maker makes
/// another kan on the rinshan tsumo first, that waiting dora is shown at the second kan;
/// the three engines differ in exactly where (docs/rules.md, "Kan dora").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum WaitingKanDora {
    /// Tenhou: at an ankan, right after the `ankan` and before the ankan's own dora
    /// (Tenhou's mjlog writes the closed kan, then both indicators, then the rinshan draw:
    /// kobalab/tenhou-log issue #11, log 2023010110gm-00a9-0000-096b2c08). At a kakan,
    /// right before its rinshan tsumo, once nobody robbed it: a robbed kakan shows it never
    /// (as Mortal's arena, which states Tenhou's rules; no Tenhou log of this was found).
    #[default]
    Tenhou,
    /// Mortal's arena (libriichi `arena/board.rs`), so mjai.app's engine: at an ankan,
    /// before the `ankan` ("For continuous kan"); at a kakan, as [`WaitingKanDora::Tenhou`]
    /// ("chankan is possible until an actual tsumo").
    Mortal,
    /// RiichiEnv (`state/mod.rs`, `state_3p/mod.rs`): at an ankan, as
    /// [`WaitingKanDora::Tenhou`] (`_resolve_kan` logs the `ankan`, then "any pending doras
    /// from previous kans", then the ankan's); at a kakan, right after the `kakan`, before
    /// anyone may rob it, so a chankan counts it (and its ura indicator). The engine asks
    /// nobody right after a `dora`, so it logs that dora once the kakan is robbed, right
    /// before the `hora`, or else before the rinshan tsumo: the same events in RiichiEnv's
    /// order.
    RiichiEnv,
}

/// Seats at the table: the table size of a game, carried in [`Rules::players`].
///
/// Seat arrays keep [`MAX_SEATS`] entries as capacity (events, walls, scores); seats from
/// `count()` on are empty (score 0, no tiles) and never asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Players {
    /// Four-player riichi mahjong (136 tiles).
    #[default]
    Four,
    /// Three-player riichi mahjong, sanma (108 tiles: 2m-8m removed; no chi; kita).
    Three,
}

/// The most seats a table has: the capacity of every per-seat array.
pub const MAX_SEATS: usize = 4;

impl Players {
    /// Seats at the table: 4 or 3.
    pub const fn count(self) -> usize {
        match self {
            Players::Four => 4,
            Players::Three => 3,
        }
    }

    /// The table of `count` seats: 4 or 3; `None` for any other number.
    pub const fn of_count(count: usize) -> Option<Players> {
        match count {
            4 => Some(Players::Four),
            3 => Some(Players::Three),
            _ => None,
        }
    }

    /// The entries of this table's seats in a per-seat array ([`MAX_SEATS`] wide): four, or
    /// three at a three-player table (seat 3 is empty there), as the wire form lists them.
    pub fn seat_list<T: Copy>(self, array: [T; MAX_SEATS]) -> Vec<T> {
        array[..self.count()].to_vec()
    }

    /// The seats, `0..count()`.
    pub fn seats(self) -> std::ops::Range<u8> {
        0..self.count() as u8
    }

    /// Points each seat starts with: 25000 (Tenhou), 35000 in three-player (RiichiEnv
    /// `state_3p/game_mode.rs` `starting_score`; Tenhou sanma 35000).
    pub const fn start_score(self) -> i32 {
        match self {
            Players::Four => 25000,
            Players::Three => 35000,
        }
    }

    /// Points someone needs for the game to end after the last regular hand: 30000, or
    /// 40000 in three-player (RiichiEnv `state_3p/mod.rs` `_initialize_next_round`; Tenhou
    /// sanma 40000 返し).
    pub const fn target(self) -> i32 {
        match self {
            Players::Four => 30000,
            Players::Three => 40000,
        }
    }

    /// The noten payments' pool at an exhaustive draw: 3000, or 2000 in three-player
    /// (RiichiEnv `state_3p/game_mode.rs` `tenpai_pool`).
    pub const fn noten_pool(self) -> i32 {
        match self {
            Players::Four => 3000,
            Players::Three => 2000,
        }
    }

    /// Chi is allowed: four-player only (sanma has no chi: RiichiEnv `state_3p`
    /// `legal_actions.rs` offers pon and kans only; Tenhou sanma: チーなし).
    pub const fn allows_chi(self) -> bool {
        matches!(self, Players::Four)
    }
}

/// The length of a game (Tenhou: 東南戦 and 東風戦).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GameLength {
    /// East and South rounds; the West round when nobody has 30000 after South 4.
    #[default]
    Hanchan,
    /// The East round only; the South round when nobody has 30000 after East 4.
    Tonpuusen,
}

/// What [`Rules::name`] appends to a preset's name for an East-only game.
const EAST_SUFFIX: &str = "-east";

impl Default for Rules {
    fn default() -> Rules {
        Rules::tenhou()
    }
}

impl Rules {
    /// Tenhou's rules (the default): kuikae forbidden, the riichi discard keeps tenpai,
    /// three rons abort the hand, no ron on an ankan (kokushi included), karaten is noten,
    /// tenhou and chiihou stack with other yakuman, the West round ends as soon as someone
    /// has 30000.
    pub const fn tenhou() -> Rules {
        Rules {
            allow_kuikae: false,
            allow_noten_riichi_discard: false,
            pay_triple_ron: false,
            kokushi_robs_ankan: false,
            karaten_is_tenpai: false,
            tenhou_chiihou_alone: false,
            west_renchan_continues: false,
            four_riichi_after_tsumo: false,
            abort_before_reach_accepted: false,
            length: GameLength::Hanchan,
            players: Players::Four,
            kita_is_rinshan: false,
            riichi_min_live: 4,
            waiting_kan_dora: WaitingKanDora::Tenhou,
        }
    }

    /// Tenhou's three-player rules (三麻 東南戦): the [`Rules::tenhou`] switches on a
    /// three-seat table, 35000 start, 40000 goal, a win on a kita's replacement tile is not
    /// rinshan kaihou.
    pub const fn tenhou_3p() -> Rules {
        Rules { players: Players::Three, kita_is_rinshan: false, ..Rules::tenhou() }
    }

    /// The three-player game riichi.dev ranks: RiichiEnv's `3p-red-half` (East and South
    /// rounds; `GameSubMode3P::Half`, game mode 5), RiichiEnv's sanma example game in its
    /// README. The same as [`Rules::tenhou_3p`] except that a win on a kita's replacement
    /// tile scores rinshan kaihou (RiichiEnv `sanma.rs`), riichi may be declared while
    /// three live tiles are left ([`Rules::riichi_min_live`]), and a West-round dealer who
    /// keeps the deal by a win or tenpai plays on although someone has 40000
    /// ([`Rules::west_renchan_continues`]; RiichiEnv PR #232, "Preserve dealer renchan during
    /// extension rounds", seen in the cross-check), and a chankan on a kakan made on a
    /// kakan's rinshan tsumo counts the first kakan's dora ([`WaitingKanDora::RiichiEnv`]).
    pub const fn riichi_dev_3p() -> Rules {
        Rules {
            kita_is_rinshan: true,
            riichi_min_live: 3,
            west_renchan_continues: true,
            waiting_kan_dora: WaitingKanDora::RiichiEnv,
            ..Rules::tenhou_3p()
        }
    }

    /// mjai.app's engine (smly/mjai.app `src/arena/` with its libriichi): kuikae allowed,
    /// any riichi discard, triple ron paid, no ron on an ankan, karaten tenpai, tenhou and
    /// chiihou one yakuman alone, a West-round dealer renchan plays on, four riichi aborted
    /// after the next draw, four winds and four kans aborted before the riichi stick, a
    /// waiting kan dora shown before a following `ankan` ([`WaitingKanDora::Mortal`]).
    pub const fn mjai_app() -> Rules {
        Rules {
            allow_kuikae: true,
            allow_noten_riichi_discard: true,
            pay_triple_ron: true,
            kokushi_robs_ankan: false,
            karaten_is_tenpai: true,
            tenhou_chiihou_alone: true,
            west_renchan_continues: true,
            four_riichi_after_tsumo: true,
            abort_before_reach_accepted: true,
            length: GameLength::Hanchan,
            players: Players::Four,
            kita_is_rinshan: false,
            riichi_min_live: 4,
            waiting_kan_dora: WaitingKanDora::Mortal,
        }
    }

    /// The same rules for an East-only game (tonpuusen).
    pub const fn east_only(self) -> Rules {
        Rules { length: GameLength::Tonpuusen, ..self }
    }

    /// Whether a seat whose concealed `3k+1` tiles are `counts` (per kind), with `melds`
    /// calls, is paid as tenpai at an exhaustive draw: it waits on some kind, or (when
    /// [`Rules::karaten_is_tenpai`]) it is karaten. Shapes that are not `3k+1` are noten.
    pub fn tenpai_at_draw(&self, counts: &[u8; crate::tile::KINDS], melds: u8) -> bool {
        crate::hand::waits(counts, melds) != 0 || (self.karaten_is_tenpai && crate::hand::karaten(counts))
    }

    /// The names of the four-player presets, as `--rules` and stored tournament options
    /// take them: each base preset, and the same for an East-only game (`-east`).
    pub const PRESETS: [&'static str; 4] = ["tenhou", "mjai-app", "tenhou-east", "mjai-app-east"];

    /// The names of the three-player presets ([`Players::Three`]), kept apart from
    /// [`Rules::PRESETS`] until the front ends (CLI, tournaments, server) play three-player
    /// games: find them with [`Rules::preset_3p`] or [`Rules::any_preset`].
    pub const PRESETS_3P: [&'static str; 4] = ["tenhou-3p", "riichi-dev-3p", "tenhou-3p-east", "riichi-dev-3p-east"];

    /// The four-player preset named `name` (one of [`Rules::PRESETS`]), or `None`.
    pub fn preset(name: &str) -> Option<Rules> {
        Rules::any_preset(name).filter(|r| r.players == Players::Four)
    }

    /// The three-player preset named `name` (one of [`Rules::PRESETS_3P`]), or `None`.
    pub fn preset_3p(name: &str) -> Option<Rules> {
        Rules::any_preset(name).filter(|r| r.players == Players::Three)
    }

    /// The preset named `name`, four- or three-player, or `None`.
    pub fn any_preset(name: &str) -> Option<Rules> {
        if let Some(base) = name.strip_suffix(EAST_SUFFIX) {
            return Rules::any_preset(base).filter(|r| r.length == GameLength::Hanchan).map(Rules::east_only);
        }
        match name {
            "tenhou" => Some(Rules::tenhou()),
            "mjai-app" => Some(Rules::mjai_app()),
            "tenhou-3p" => Some(Rules::tenhou_3p()),
            "riichi-dev-3p" => Some(Rules::riichi_dev_3p()),
            _ => None,
        }
    }

    /// The preset's name (one of [`Rules::PRESETS`] or [`Rules::PRESETS_3P`]), or `custom`.
    pub fn name(&self) -> &'static str {
        let hanchan = Rules { length: GameLength::Hanchan, ..*self };
        let base = [
            (Rules::tenhou(), "tenhou", "tenhou-east"),
            (Rules::mjai_app(), "mjai-app", "mjai-app-east"),
            (Rules::tenhou_3p(), "tenhou-3p", "tenhou-3p-east"),
            (Rules::riichi_dev_3p(), "riichi-dev-3p", "riichi-dev-3p-east"),
        ];
        match base.iter().find(|(r, _, _)| *r == hanchan) {
            Some((_, name, _)) if self.length == GameLength::Hanchan => name,
            Some((_, _, east)) => east,
            None => "custom",
        }
    }

    /// Seats at the table (4, or 3 for sanma): [`Players::count`] of [`Rules::players`].
    pub const fn seats(&self) -> usize {
        self.players.count()
    }
}

#[cfg(test)]
mod tests {
    use super::Rules;

    #[test]
    fn presets_are_found_by_the_names_they_report() {
        assert_eq!(Rules::preset("tenhou"), Some(Rules::tenhou()));
        assert_eq!(Rules::preset("mjai-app"), Some(Rules::mjai_app()));
        assert_eq!(Rules::preset("mortal"), None);
        assert_eq!(Rules::preset("tenhou-east"), Some(Rules::tenhou().east_only()));
        assert_eq!(Rules::preset("tenhou-east-east"), None);
        assert_eq!(Rules::preset("riichi-dev-3p"), None, "four-player presets only");
        assert_eq!(Rules::preset_3p("riichi-dev-3p").map(|r| r.seats()), Some(3));
        assert_eq!(Rules::preset_3p("tenhou"), None);
        assert_eq!(Rules::any_preset("tenhou-3p-east"), Some(Rules::tenhou_3p().east_only()));
        for name in Rules::PRESETS_3P {
            assert_eq!(Rules::preset_3p(name).map(|r| r.name()), Some(name));
        }
        for name in Rules::PRESETS {
            assert_eq!(Rules::preset(name).map(|r| r.name()), Some(name));
        }
    }
}
