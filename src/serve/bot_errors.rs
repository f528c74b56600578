//! A bot's private errors, as its author and admins see them (the JSON route
//! `GET /api/bots/{name}/errors` and the pages `/me` and `/bots/{name}` share these):
//! each version's validation verdict with its stderr, and the chombos of its league games
//! with their reasons and stderr tails. Whether the caller may see them is settled before:
//! the routes take an [`super::owned::OwnedBot`]. A constant number of queries whatever the
//! number of versions or games.

use serde::Serialize;

use super::error::ApiError;
use super::state::AppState;
use mjai_sim_tournament::leaderboard::{BotStatus, ChomboLine};
use mjai_sim_tournament::store::VersionRow;

/// Games whose chombos are listed (the latest).
pub const ERRORS_LISTED: u32 = 200;

/// The validation of one version, as its author sees it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ValidationView {
    /// The version.
    pub version: u32,
    /// Where it stands.
    pub status: BotStatus,
    /// Why it was rejected.
    pub reason: Option<String>,
    /// The end of the bot's stderr in its validation game (empty before it ended).
    pub stderr: String,
    /// The validation game's `errors.json` entries.
    #[schema(value_type = Vec<Object>)]
    pub errors: serde_json::Value,
}

/// Each of `versions`' validation (versions of one name), latest version first.
pub async fn validations(state: &AppState, versions: &[VersionRow]) -> Result<Vec<ValidationView>, ApiError> {
    let Some(name) = versions.first().map(|v| v.name.as_str()) else { return Ok(Vec::new()) };
    let mut files = state.store.versions().validations_of(name).await?;
    let mut out = Vec::new();
    for v in versions.iter().rev() {
        let found = files.iter().position(|(version, _)| *version == v.version).map(|i| files.swap_remove(i).1);
        let (stderr, errors) = match found {
            Some(f) => (f.stderr, serde_json::from_str(&f.errors).unwrap_or(serde_json::Value::Array(vec![]))),
            None => (String::new(), serde_json::Value::Array(vec![])),
        };
        out.push(ValidationView { version: v.version, status: v.status, reason: v.reason.clone(), stderr, errors });
    }
    Ok(out)
}

/// The chombos of `versions` in league games (the latest [`ERRORS_LISTED`] games with
/// one), latest game first: only the entries of the seats these versions held (another
/// bot's chombo in the same game is not theirs to read).
pub async fn chombos(state: &AppState, versions: &[VersionRow]) -> Result<Vec<ChomboLine>, ApiError> {
    let bots: Vec<usize> = versions.iter().filter_map(|v| v.bot_idx).collect();
    let mut out = Vec::new();
    for (game, seats, text) in state.store.blobs().game_errors(&bots, ERRORS_LISTED).await? {
        let entries: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap_or_default();
        for e in entries {
            let seat = e["player_id"].as_u64().and_then(|s| usize::try_from(s).ok());
            if seat.and_then(|s| seats.get(s)).is_some_and(|idx| bots.contains(idx)) {
                out.push(chombo_line(game, &e));
            }
        }
    }
    Ok(out)
}

/// One `errors.json` entry of game `game` as a [`ChomboLine`].
fn chombo_line(game: u64, e: &serde_json::Value) -> ChomboLine {
    let tail: Vec<&str> = e["stderr_tail"].as_array().into_iter().flatten().filter_map(|l| l.as_str()).collect();
    ChomboLine {
        game,
        kyoku: e["kyoku"].as_str().unwrap_or("").to_string(),
        reason: format!("{}: {}", e["error_type"].as_str().unwrap_or("?"), e["exception"].as_str().unwrap_or("")),
        stderr_tail: tail.join("\n"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_becomes_one_line_with_its_stderr_tail() {
        let e = serde_json::json!({"error_type": "timeout", "exception": "no answer in 2 s", "kyoku": "E2-1",
            "player_id": 1, "stderr_tail": ["a", "b"]});
        let c = chombo_line(7, &e);
        assert_eq!((c.game, c.kyoku.as_str(), c.reason.as_str()), (7, "E2-1", "timeout: no answer in 2 s"));
        assert_eq!(c.stderr_tail, "a\nb");
        let bare = chombo_line(8, &serde_json::json!({}));
        assert_eq!((bare.reason.as_str(), bare.stderr_tail.as_str()), ("?: ", ""));
    }
}
