//! The table printed at the end of a game: seat, bot, final score, rank, chombos and
//! decision times (median / p99 / max, milliseconds).

use super::summary::Summary;

/// The final table as text (one header line, one line per seat: four, or three at a
/// three-player table; trailing newline).
pub fn render(summary: &Summary) -> String {
    let width = summary.bots.iter().map(|b| b.chars().count()).max().unwrap_or(3).clamp(3, 40);
    let mut out = format!(
        "{:<4} {:<width$} {:>7} {:>4} {:>7} {:>9} {:>9} {:>9}\n",
        "seat", "bot", "score", "rank", "chombos", "median ms", "p99 ms", "max ms"
    );
    for seat in 0..summary.bots.len() {
        let Some(t) = summary.decision_times.get(seat) else { break };
        let bot = shorten(&summary.bots[seat], width);
        out.push_str(&format!(
            "{:<4} {:<width$} {:>7} {:>4} {:>7} {:>9.1} {:>9.1} {:>9.1}\n",
            seat, bot, summary.scores[seat], summary.rank[seat], summary.chombos[seat], t.median_ms, t.p99_ms, t.max_ms
        ));
    }
    out
}

/// `text` cut to `width` characters, keeping its end (the file name) behind `…`.
fn shorten(text: &str, width: usize) -> String {
    let n = text.chars().count();
    if n <= width {
        return text.to_string();
    }
    let tail: String = text.chars().skip(n - (width - 1)).collect();
    format!("…{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shorten_keeps_the_file_name() {
        assert_eq!(shorten("a/very/long/path/bot.zip", 8), "…bot.zip");
        assert_eq!(shorten("bot.zip", 8), "bot.zip");
    }
}
