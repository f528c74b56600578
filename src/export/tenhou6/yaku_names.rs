//! Tenhou's names for yaku and its point strings, as tenhou.net/6 prints them in a `和了`
//! entry: `"立直(1飜)"`, `"国士無双(役満)"`, `"30符2飜2000点"`, `"満貫2000-4000点"`,
//! `"30符4飜3900点∀"`. Pure functions over the engine's [`HandScore`]; also meant for the
//! HTML viewer and report.
//!
//! Sources: the names are Tenhou's yaku table (the ids 0..54 of its mjlog `AGARI` records);
//! the forms are checked against hands from real Tenhou games stored in mjai-reviewer's
//! `convlog/tests/testdata` (see the unit tests, which cite each example).

use mjai_sim_engine::hand::HandScore;

/// Tenhou's name of one of the engine's yaku (`"riichi"` → `"立直"`). `jikaze` and `bakaze`
/// are wind kinds (27 = E .. 30 = N) naming the wind of `"yakuhai jikaze"` (`"自風 南"`) and
/// `"yakuhai bakaze"` (`"場風 東"`). `None` for a name the engine does not produce.
pub fn yaku_name(name: &str, jikaze: u8, bakaze: u8) -> Option<String> {
    const WINDS: [&str; 4] = ["東", "南", "西", "北"];
    let wind = |k: u8| WINDS.get(usize::from(k.wrapping_sub(27))).copied().unwrap_or("?");
    let fixed = match name {
        "yakuhai jikaze" => return Some(format!("自風 {}", wind(jikaze))),
        "yakuhai bakaze" => return Some(format!("場風 {}", wind(bakaze))),
        "menzen tsumo" => "門前清自摸和",
        "riichi" => "立直",
        "ippatsu" => "一発",
        "chankan" => "槍槓",
        "rinshan kaihou" => "嶺上開花",
        "haitei" => "海底摸月",
        "houtei" => "河底撈魚",
        "pinfu" => "平和",
        "tanyao" => "断幺九",
        "iipeikou" => "一盃口",
        "yakuhai haku" => "役牌 白",
        "yakuhai hatsu" => "役牌 發",
        "yakuhai chun" => "役牌 中",
        "double riichi" => "両立直",
        "chiitoitsu" => "七対子",
        "chanta" => "混全帯幺九",
        "ittsu" => "一気通貫",
        "sanshoku doujun" => "三色同順",
        "sanshoku doukou" => "三色同刻",
        "sankantsu" => "三槓子",
        "toitoi" => "対々和",
        "sanankou" => "三暗刻",
        "shousangen" => "小三元",
        "honroutou" => "混老頭",
        "ryanpeikou" => "二盃口",
        "junchan" => "純全帯幺九",
        "honitsu" => "混一色",
        "chinitsu" => "清一色",
        "tenhou" => "天和",
        "chiihou" => "地和",
        "daisangen" => "大三元",
        "suuankou" => "四暗刻",
        "suuankou tanki" => "四暗刻単騎",
        "tsuuiisou" => "字一色",
        "ryuuiisou" => "緑一色",
        "chinroutou" => "清老頭",
        "chuuren" => "九蓮宝燈",
        "junsei chuuren" => "純正九蓮宝燈",
        "kokushi" => "国士無双",
        "kokushi juusanmen" => "国士無双１３面",
        "daisuushii" => "大四喜",
        "shousuushii" => "小四喜",
        "suukantsu" => "四槓子",
        "dora" => "ドラ",
        "ura dora" => "裏ドラ",
        "aka dora" => "赤ドラ",
        _ => return None,
    };
    Some(fixed.to_string())
}

/// Position of a yaku in a `和了` entry. Tenhou's own order is not its id order; this one
/// agrees with every real Tenhou hand in the unit tests: situational yaku, then menzen
/// tsumo, pinfu, the straights, tanyao, yakuhai, the rest, and dora last.
fn rank(name: &str) -> usize {
    const ORDER: [&str; 33] = [
        "riichi",
        "double riichi",
        "ippatsu",
        "chankan",
        "rinshan kaihou",
        "haitei",
        "houtei",
        "menzen tsumo",
        "pinfu",
        "ittsu",
        "sanshoku doujun",
        "tanyao",
        "iipeikou",
        "yakuhai jikaze",
        "yakuhai bakaze",
        "yakuhai haku",
        "yakuhai hatsu",
        "yakuhai chun",
        "chiitoitsu",
        "chanta",
        "junchan",
        "sanshoku doukou",
        "sankantsu",
        "toitoi",
        "sanankou",
        "shousangen",
        "honroutou",
        "ryanpeikou",
        "honitsu",
        "chinitsu",
        "dora",
        "aka dora",
        "ura dora",
    ];
    ORDER.iter().position(|n| *n == name).unwrap_or(ORDER.len())
}

/// The yaku strings of a win in Tenhou's form and order: `"立直(1飜)"`, `"ドラ(2飜)"`, and
/// `"四槓子(役満)"` for each yakuman. Dora entries worth 0 han are left out (Tenhou shows no
/// `裏ドラ(0飜)`). Nukidora (three-player kita) is added to `ドラ`, as Tenhou counts it
/// (see [`super::sanma`]). An engine name without a Tenhou name is written as it is.
pub fn yaku_strings(score: &HandScore, jikaze: u8, bakaze: u8) -> Vec<String> {
    let nuki: u8 = score.yaku.iter().filter(|(name, _)| *name == "nukidora").map(|(_, han)| *han).sum();
    let mut yaku: Vec<(&str, u8)> = score.yaku.iter().filter(|(name, _)| *name != "nukidora").copied().collect();
    if nuki > 0 {
        match yaku.iter_mut().find(|(name, _)| *name == "dora") {
            Some(dora) => dora.1 += nuki,
            None => yaku.push(("dora", nuki)),
        }
    }
    let mut items: Vec<&(&str, u8)> = yaku.iter().filter(|(_, han)| *han > 0).collect();
    items.sort_by_key(|(name, _)| rank(name));
    items
        .into_iter()
        .map(|&(name, han)| {
            let shown = yaku_name(name, jikaze, bakaze).unwrap_or_else(|| name.to_string());
            if score.yakuman > 0 {
                format!("{shown}(役満)")
            } else {
                format!("{shown}({han}飜)")
            }
        })
        .collect()
}

/// Tenhou's name of the limit a win reaches, or `None` below mangan: `満貫` (5 han, or
/// basic points capped at 2000), `跳満` (6-7), `倍満` (8-10), `三倍満` (11-12), `役満` (13+
/// han, kazoe included, and every yakuman, multiple ones too). Tenhou: no kiriage mangan.
pub fn limit_name(score: &HandScore) -> Option<&'static str> {
    if score.yakuman > 0 {
        return Some("役満");
    }
    match score.han {
        13.. => Some("役満"),
        11 | 12 => Some("三倍満"),
        8..=10 => Some("倍満"),
        6 | 7 => Some("跳満"),
        5 => Some("満貫"),
        _ if mjai_sim_engine::hand::base_points(score.han, score.fu, 0) >= 2000 => Some("満貫"),
        _ => None,
    }
}

/// The point string of a win, honba and riichi sticks excluded, as Tenhou prints it:
/// `"30符2飜2000点"` (ron), `"30符3飜1000-2000点"` (non-dealer tsumo: each non-dealer -
/// the dealer), `"30符4飜3900点∀"` (dealer tsumo: each), or the limit name instead of fu
/// and han (`"満貫8000点"`, `"役満32000点"`). `dealer` is the winner's status.
pub fn point_string(score: &HandScore, dealer: bool) -> String {
    let head = match limit_name(score) {
        Some(limit) => limit.to_string(),
        None => format!("{}符{}飜", score.fu, score.han),
    };
    let p = score.payment;
    if p.ron > 0 {
        format!("{head}{}点", p.ron)
    } else if dealer {
        format!("{head}{}点∀", p.tsumo_ko)
    } else {
        format!("{head}{}-{}点", p.tsumo_ko, p.tsumo_oya)
    }
}

#[cfg(test)]
mod tests;
