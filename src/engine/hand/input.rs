//! Validation of a [`WinContext`] before scoring: tile counts, call shapes, flags that
//! contradict each other. Every failure is a [`NoWin::Invalid`] naming the cause.

use super::agari::{Set, SetKind};
use super::meld::{Meld, MeldKind};
use super::win::{NoWin, Riichi, WinContext};
use crate::tile::{Tile, KINDS};

/// The validated tile counts of one win.
pub(crate) struct Counted {
    /// Concealed tiles by kind, winning tile included.
    pub concealed: [u8; KINDS],
    /// All tiles by kind, calls included.
    pub all: [u8; KINDS],
    /// The calls as sets (`closed` true only for ankan).
    pub melds: [Set; 4],
    /// Number of calls.
    pub meld_count: usize,
    /// Red fives anywhere in the hand.
    pub aka: u8,
}

fn invalid(msg: impl Into<String>) -> NoWin {
    NoWin::Invalid(msg.into())
}

fn known(t: Tile, what: &str) -> Result<(), NoWin> {
    if t.is_unknown() {
        Err(invalid(format!("{what} contains '?': only known tiles can be scored")))
    } else {
        Ok(())
    }
}

/// Checks the context and counts its tiles.
pub(crate) fn count(ctx: &WinContext, kita: u8) -> Result<Counted, NoWin> {
    if ctx.melds.len() > 4 {
        return Err(invalid(format!("{} calls given; a hand has at most 4", ctx.melds.len())));
    }
    let expected = 13 - 3 * ctx.melds.len();
    if ctx.tehai.len() != expected {
        return Err(invalid(format!(
            "{} concealed tiles besides the winning tile; with {} call(s) there must be {expected}",
            ctx.tehai.len(),
            ctx.melds.len()
        )));
    }
    known(ctx.win_tile, "the winning tile")?;
    let mut concealed = [0u8; KINDS];
    let mut all = [0u8; KINDS];
    let mut red = [0u8; 3];
    for &t in ctx.tehai.iter().chain(std::iter::once(&ctx.win_tile)) {
        known(t, "the concealed tiles")?;
        concealed[t.kind() as usize] += 1;
        if t.is_red() {
            red[t.suit() as usize] += 1;
        }
    }
    all.copy_from_slice(&concealed);
    let mut melds = [Set { kind: SetKind::Shuntsu, first: 0, closed: true }; 4];
    for (i, m) in ctx.melds.iter().enumerate() {
        melds[i] = meld_set(m)?;
        for &t in &m.tiles {
            all[t.kind() as usize] += 1;
            if t.is_red() {
                red[t.suit() as usize] += 1;
            }
        }
    }
    if let Some(k) = (0..KINDS).find(|&k| all[k] > 4) {
        let name = Tile::from_kind(k as u8).map_or("?", Tile::as_mjai);
        return Err(invalid(format!("{} copies of {name}; each tile exists four times", all[k])));
    }
    if let Some(s) = (0..3).find(|&s| red[s] > 1) {
        return Err(invalid(format!("{} red 5{}; each suit has one red five", red[s], ["m", "p", "s"][s])));
    }
    flags(ctx, kita)?;
    let aka = red.iter().sum();
    Ok(Counted { concealed, all, melds, meld_count: ctx.melds.len(), aka })
}

/// The set a call forms, or why it is not a legal call.
fn meld_set(m: &Meld) -> Result<Set, NoWin> {
    let size = if m.is_kan() { 4 } else { 3 };
    let shown = || crate::tile::format_compact(&m.tiles);
    if m.tiles.len() != size {
        return Err(invalid(format!("call {:?} '{}' has {} tiles; it needs {size}", m.kind, shown(), m.tiles.len())));
    }
    let mut kinds = [0u8; 4];
    for (slot, &t) in kinds.iter_mut().zip(&m.tiles) {
        known(t, "a call")?;
        *slot = t.kind();
    }
    let kinds = &mut kinds[..size];
    kinds.sort_unstable();
    let same = kinds.iter().all(|&k| k == kinds[0]);
    let kind = match m.kind {
        MeldKind::Chi => {
            let run = kinds[0] < 27 && kinds[0] % 9 < 7 && kinds[1] == kinds[0] + 1 && kinds[2] == kinds[0] + 2;
            if !run {
                return Err(invalid(format!("chi '{}' is not three consecutive tiles of one suit", shown())));
            }
            SetKind::Shuntsu
        }
        MeldKind::Pon if same => SetKind::Koutsu,
        _ if same => SetKind::Kantsu,
        _ => return Err(invalid(format!("call {:?} '{}' is not tiles of one kind", m.kind, shown()))),
    };
    Ok(Set { kind, first: kinds[0], closed: m.kind == MeldKind::Ankan })
}

/// Flags that contradict each other or the calls. `kita`: Norths set aside (three-player),
/// whose replacement draw may count as rinshan (RiichiEnv) without a kan.
fn flags(ctx: &WinContext, kita: u8) -> Result<(), NoWin> {
    let wind = |k: u8| (27..=30).contains(&k);
    if !wind(ctx.bakaze) || !wind(ctx.jikaze) {
        return Err(invalid(format!(
            "bakaze {} / jikaze {} must be wind kinds 27..=30 (E S W N)",
            ctx.bakaze, ctx.jikaze
        )));
    }
    let open = ctx.melds.iter().any(|m| m.is_open());
    if ctx.riichi != Riichi::None && open {
        return Err(invalid("riichi with an open call; riichi needs a closed hand"));
    }
    if ctx.ippatsu && ctx.riichi == Riichi::None {
        return Err(invalid("ippatsu without riichi"));
    }
    if ctx.rinshan && (!ctx.tsumo || (kita == 0 && !ctx.melds.iter().any(|m| m.is_kan()))) {
        return Err(invalid("rinshan kaihou needs a tsumo after a kan (or a kita)"));
    }
    if ctx.chankan && ctx.tsumo {
        return Err(invalid("chankan is a ron, not a tsumo"));
    }
    if ctx.first_draw && (!ctx.tsumo || !ctx.melds.is_empty()) {
        return Err(invalid("tenhou/chiihou (first_draw) needs a tsumo with no call"));
    }
    if ctx.dora_markers.len() > 5 || ctx.ura_markers.len() > 5 {
        return Err(invalid("more than 5 dora or ura indicators"));
    }
    for &t in ctx.dora_markers.iter().chain(&ctx.ura_markers) {
        known(t, "the dora indicators")?;
    }
    Ok(())
}
