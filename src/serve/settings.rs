//! Everything a grading server is started with ([`ServeSettings`]): the command line's
//! options, parsed (`mjai-sim serve`), or a test's or another front end's.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use mjai_sim_tournament::config::TournamentConfig;
use mjai_sim_tournament::store::{SuspensionPolicy, UploadLimits};
use mjai_sim_tournament::submission_cache::CachePlace;

use super::house::HouseBot;

/// The options of a server ([`super::start()`]); the league's own options are stored with it
/// when it is created, and a later start keeps them (but for the pace and the suspension
/// policy: the last server started sets them).
#[derive(Debug, Clone)]
pub struct ServeSettings {
    /// The store: a SQLite file (`sqlite:PATH` or `PATH`) or a `postgres://` URL (with its
    /// password).
    pub db: String,
    /// The token of the author `admin` (added as an admin at start, or given this token
    /// when present); `None`: no such author is touched.
    pub admin_token: Option<String>,
    /// Where the server listens (port 0: any free port).
    pub listen: SocketAddr,
    /// League games played at once by this process (`None`: 2 with SQLite, 0 with
    /// PostgreSQL, whose workers play them).
    pub jobs: Option<usize>,
    /// The leagues this server hosts, at least one; the first is the default league, whose
    /// paths are the server's own (`/`, `/api/...`); each league is also at
    /// `/leagues/NAME/...` and `/api/leagues/NAME/...` ([`super::dispatch`]).
    pub leagues: Vec<LeagueSettings>,
    /// The house bots, checked ([`HouseBot::load`]): added to every league when missing.
    pub house: Vec<HouseBot>,
    /// League games scheduled per hour at most (`None`: unpaced).
    pub pace: Option<u32>,
    /// When an uploaded version is suspended for its chombos.
    pub suspension: SuspensionPolicy,
    /// Per-author limits of uploads.
    pub uploads: UploadLimits,
    /// Requests per minute from one IP address (then 429).
    pub per_ip_per_minute: u32,
    /// Requests per minute with one token (then 429).
    pub per_token_per_minute: u32,
    /// Longest wait for a request's headers (also an idle keep-alive connection's limit).
    pub header_timeout: Duration,
    /// Longest a request may take, body included (then 408).
    pub request_timeout: Duration,
    /// Largest unpacked size of an uploaded zip, in bytes (more: refused as a zip bomb).
    pub max_unpacked_bytes: u64,
    /// Validation games at once.
    pub max_validations: usize,
    /// Open connections one remote bot may have at once; each plays one game at a time.
    pub max_connections: usize,
    /// Mark the login cookie `Secure` on every login (the server is reached over HTTPS).
    pub secure_cookie: bool,
    /// The built-in bot an upload's validation opponents are (a `builtin:` name).
    pub validation_opponent: String,
    /// How long a claimed game stays this process's without a heartbeat.
    pub lease: Duration,
    /// How long to ride out an unreachable database before giving up.
    pub db_patience: Duration,
    /// Days a finished game's trace is kept ([`super::jobs::retention`]); 0: for good.
    pub trace_days: u32,
    /// This host's submission cache (validation and league games read zips through it).
    pub cache: CachePlace,
    /// Where games are played until stored (`None`: `mjai-sim-serve-PID` under the
    /// system's temporary folder); removed when the server stops.
    pub work_dir: Option<PathBuf>,
}

/// One league of a server: its name and its options when it is created here.
#[derive(Debug, Clone)]
pub struct LeagueSettings {
    /// The league's name (its tournament id): letters, digits, `-`, `_` and `.`, as a path
    /// segment ([`check_league_name`]).
    pub name: String,
    /// Its options when it is created here (its bots are the house bots and its sets 0,
    /// whatever this holds); a league already stored keeps its own.
    pub new_league: TournamentConfig,
}

/// Longest league name, in characters.
pub const MAX_LEAGUE_NAME: usize = 40;

/// Checks a league's name: 1 to [`MAX_LEAGUE_NAME`] ASCII letters, digits, `-`, `_` or `.`
/// (not `.` or `..`), so that it is one path segment of `/leagues/NAME`. Errors: the
/// sentence saying what is allowed.
pub fn check_league_name(name: &str) -> Result<(), String> {
    let fine = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.');
    if name.is_empty() || name.len() > MAX_LEAGUE_NAME || !name.chars().all(fine) || name == "." || name == ".." {
        return Err(format!(
            "league name {name:?}: 1 to {MAX_LEAGUE_NAME} letters, digits, '-', '_' or '.' (it is a path segment of /leagues/NAME)"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_league_name_is_one_path_segment() {
        for good in ["league", "4p", "tenhou-3p_east.v2", &"x".repeat(MAX_LEAGUE_NAME)] {
            assert_eq!(check_league_name(good), Ok(()), "{good}");
        }
        for bad in ["", ".", "..", "a/b", "a b", "%2e", "ü", &"x".repeat(MAX_LEAGUE_NAME + 1)] {
            assert!(check_league_name(bad).is_err(), "{bad}");
        }
    }
}
