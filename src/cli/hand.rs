//! `mjai-sim hand`: scores one winning hand for bot authors (yaku, han, fu, payments),
//! as text or `--json`.

use anyhow::{bail, Context};
use serde_json::json;

use crate::engine::hand::{base_points, evaluate, HandScore, Meld, MeldKind, Riichi, WinContext};
use crate::engine::tile::{parse_compact, Tile};

/// Arguments of `hand`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Tiles use compact notation: digits then a suit letter m p s z; 0 is a red five; \
1z..7z are E S W N P F C.

Examples:
  mjai-sim hand 234567m234p55s78s+6s --tsumo --riichi --dora 4p --jikaze S
  mjai-sim hand 567p345s6678s+6s --meld chi:234m
  mjai-sim hand 567s5p+5p --meld ankan:3333s --meld daiminkan:2222p --meld kakan:4444m")]
pub struct Args {
    /// Concealed tiles, then `+`, then the winning tile: `234567m234p5s+5s`. Without calls
    /// there are 13 tiles before the `+`; each `--meld` takes three of them away.
    pub hand: String,
    /// A call, as KIND:TILES with KIND one of chi, pon, daiminkan, kakan, ankan
    /// (e.g. `pon:555z`, `ankan:0555m`). Repeat for several calls.
    #[arg(long = "meld", value_name = "KIND:TILES")]
    pub melds: Vec<String>,
    /// Self-drawn win (default: ron).
    #[arg(long)]
    pub tsumo: bool,
    /// Riichi declared.
    #[arg(long, conflicts_with = "double_riichi")]
    pub riichi: bool,
    /// Double riichi declared.
    #[arg(long)]
    pub double_riichi: bool,
    /// Ippatsu (needs riichi).
    #[arg(long)]
    pub ippatsu: bool,
    /// Won on the last tile (haitei for tsumo, houtei for ron).
    #[arg(long)]
    pub last_tile: bool,
    /// Won on the replacement draw after a kan.
    #[arg(long)]
    pub rinshan: bool,
    /// Won by robbing a kakan.
    #[arg(long)]
    pub chankan: bool,
    /// Won on the first uninterrupted draw (tenhou for the dealer, chiihou otherwise).
    #[arg(long)]
    pub first_draw: bool,
    /// Dora indicators: compact notation (`4p1z`) or mjai names with commas (`4p,E,5pr`).
    #[arg(long, default_value = "")]
    pub dora: String,
    /// Ura dora indicators, same syntax (counted only with riichi).
    #[arg(long, default_value = "")]
    pub ura: String,
    /// Round wind: E S W N.
    #[arg(long, default_value = "E")]
    pub bakaze: String,
    /// Seat wind: E (dealer) S W N.
    #[arg(long, default_value = "S")]
    pub jikaze: String,
    /// Honba sticks (300 points per stick on ron, 100 per payer on tsumo).
    #[arg(long, default_value_t = 0)]
    pub honba: u32,
    /// Riichi sticks on the table (1000 points each, to the winner).
    #[arg(long, default_value_t = 0)]
    pub kyotaku: u32,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

fn wind(text: &str, what: &str) -> anyhow::Result<u8> {
    match text {
        "E" | "1z" => Ok(27),
        "S" | "2z" => Ok(28),
        "W" | "3z" => Ok(29),
        "N" | "4z" => Ok(30),
        _ => bail!("--{what} '{text}' is not a wind; use E, S, W or N"),
    }
}

/// Tiles in compact notation, or mjai names separated by commas.
fn parse_tiles(text: &str) -> anyhow::Result<Vec<Tile>> {
    if text.contains(',') || text.parse::<Tile>().is_ok() {
        let names = text.split(',').map(str::trim).filter(|n| !n.is_empty());
        return Ok(names.map(str::parse).collect::<Result<_, _>>()?);
    }
    Ok(parse_compact(text)?)
}

fn parse_meld(text: &str) -> anyhow::Result<Meld> {
    let (kind, tiles) =
        text.split_once(':').with_context(|| format!("--meld '{text}' needs KIND:TILES, e.g. pon:555z"))?;
    let kind = match kind {
        "chi" => MeldKind::Chi,
        "pon" => MeldKind::Pon,
        "daiminkan" | "minkan" => MeldKind::Daiminkan,
        "kakan" => MeldKind::Kakan,
        "ankan" => MeldKind::Ankan,
        _ => bail!("--meld kind '{kind}' is not chi, pon, daiminkan, kakan or ankan"),
    };
    Ok(Meld { kind, tiles: parse_compact(tiles)? })
}

fn context(args: &Args) -> anyhow::Result<WinContext> {
    let (tehai, win) = args.hand.split_once('+').with_context(|| {
        format!("hand '{}' has no '+': write the concealed tiles, '+', the winning tile", args.hand)
    })?;
    let win: Vec<Tile> = parse_compact(win)?;
    if win.len() != 1 {
        bail!("'{}' after '+' must be exactly one winning tile, got {}", args.hand, win.len());
    }
    let riichi = match (args.riichi, args.double_riichi) {
        (_, true) => Riichi::Double,
        (true, _) => Riichi::Riichi,
        _ => Riichi::None,
    };
    Ok(WinContext {
        tehai: parse_compact(tehai)?,
        win_tile: win[0],
        melds: args.melds.iter().map(|m| parse_meld(m)).collect::<anyhow::Result<_>>()?,
        tsumo: args.tsumo,
        riichi,
        ippatsu: args.ippatsu,
        last_tile: args.last_tile,
        rinshan: args.rinshan,
        chankan: args.chankan,
        first_draw: args.first_draw,
        bakaze: wind(&args.bakaze, "bakaze")?,
        jikaze: wind(&args.jikaze, "jikaze")?,
        dora_markers: parse_tiles(&args.dora)?,
        ura_markers: parse_tiles(&args.ura)?,
    })
}

/// Name of the limit reached, if any.
fn limit(s: &HandScore) -> Option<&'static str> {
    match (s.yakuman, s.han, base_points(s.han, s.fu, s.yakuman)) {
        (n, _, _) if n >= 2 => Some("multiple yakuman"),
        (1, _, _) => Some("yakuman"),
        (_, 13.., _) => Some("kazoe yakuman"),
        (_, 11 | 12, _) => Some("sanbaiman"),
        (_, 8..=10, _) => Some("baiman"),
        (_, 6 | 7, _) => Some("haneman"),
        (_, _, 2000) => Some("mangan"),
        _ => None,
    }
}

/// Runs `hand`; returns the exit code (0 for a win; errors, including no win, exit 1).
pub fn run(args: Args) -> anyhow::Result<i32> {
    let ctx = context(&args)?;
    let score = evaluate(&ctx).map_err(|e| anyhow::anyhow!("{e}"))?;
    let dealer = ctx.jikaze == 27;
    let seat = usize::from(ctx.jikaze - 27); // seat 0 is the dealer
    let payer = (!ctx.tsumo).then_some((seat + 1) % 4);
    let deltas = score.payment.deltas(seat, payer, 0, args.honba, args.kyotaku);
    let received = deltas[seat];
    if args.json {
        let yaku: Vec<_> = score.yaku.iter().map(|(n, h)| json!({"name": n, "han": h})).collect();
        let out = json!({
            "yaku": yaku, "han": score.han, "fu": score.fu, "yakuman": score.yakuman,
            "limit": limit(&score), "dealer": dealer, "tsumo": ctx.tsumo,
            "payment": {"ron": score.payment.ron, "tsumo_oya": score.payment.tsumo_oya,
                        "tsumo_ko": score.payment.tsumo_ko},
            "honba": args.honba, "kyotaku": args.kyotaku, "received": received,
        });
        println!("{out}");
        return Ok(0);
    }
    for (name, han) in &score.yaku {
        println!("{name:<18} {han:>2} han");
    }
    let lim = limit(&score).map(|l| format!(" ({l})")).unwrap_or_default();
    if score.yakuman > 0 {
        println!("total: {} yakuman{lim}", score.yakuman);
    } else {
        println!("total: {} han {} fu{lim}", score.han, score.fu);
    }
    let p = score.payment;
    let (h, k) = (args.honba as i32, args.kyotaku as i32);
    match (ctx.tsumo, dealer) {
        (false, _) => println!("ron: discarder pays {}", p.ron + 300 * h),
        (true, true) => println!("tsumo: each pays {}", p.tsumo_ko + 100 * h),
        (true, false) => println!("tsumo: dealer pays {}, others pay {}", p.tsumo_oya + 100 * h, p.tsumo_ko + 100 * h),
    }
    if k > 0 {
        println!("kyotaku: +{}", 1000 * k);
    }
    println!("winner receives {received}");
    Ok(0)
}
