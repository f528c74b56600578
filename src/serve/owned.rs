//! Ownership as an extractor: a route that shows or changes what belongs to a bot's author
//! takes [`OwnedBot`], so no handler can forget the check. It holds the caller (the token's
//! author), the checked name of the route's `{name}` and the name's versions, and exists
//! only when the caller is the bot's author or an admin.
//!
//! A page that shows a bot to anyone and its private parts to its owner takes
//! `Option<OwnedBot>`: `None` for anyone else, while a failed store query is still an error
//! (500 or 503), never read as "not the owner".
//!
//! A league game's viewer takes [`OwnedSeats`]: which of its four seats hold the caller's
//! bots (each seat's stderr is shown only to its bot's author and admins).
//!
//! Two refusals, by what the route reveals ([`Refusal`]):
//! - [`Private`] (a bot's errors, stderr, validation game): anyone else gets 404, the same
//!   as for an unknown bot, so that nobody can tell whether another's bot has errors;
//! - [`Public`] (retiring: the bot itself is public): no token 401, another author's bot
//!   403, an unknown bot 404 (and so is another author's bot none of whose versions is
//!   public: one only rejected is private, [`mjai_sim_tournament::leaderboard::BotStatus::is_private`]).

use std::marker::PhantomData;

use axum::extract::{FromRequestParts, OptionalFromRequestParts};
use axum::http::request::Parts;
use axum::http::StatusCode;

use super::auth::{Author, MaybeAuthor};
use super::error::ApiError;
use super::name::BotName;
use super::params::{BotPath, GameId};
use super::state::AppState;
use mjai_sim_tournament::store::{SeatBot, VersionRow};

/// How [`OwnedBot`] refuses a caller who does not own the bot.
pub trait Refusal: Send + Sync + 'static {
    /// The refusal of `who` (`None`: no valid token) for `another`: the bot when it exists
    /// and is not theirs, `None` when there is no such bot.
    fn refuse(who: Option<&Author>, another: Option<&BotName>) -> ApiError;
}

/// The route shows the bot's private parts: 404 to anyone but its author and admins.
#[derive(Debug, Clone, Copy)]
pub struct Private;

/// The route changes a public bot: 401 without a token, 403 for another's bot, 404 when
/// there is no such bot.
#[derive(Debug, Clone, Copy)]
pub struct Public;

impl Refusal for Private {
    fn refuse(_: Option<&Author>, _: Option<&BotName>) -> ApiError {
        ApiError::not_found("such bot of yours")
    }
}

impl Refusal for Public {
    fn refuse(who: Option<&Author>, another: Option<&BotName>) -> ApiError {
        match (who, another) {
            (None, _) => super::auth::unauthorized(),
            (Some(_), None) => ApiError::not_found("such bot"),
            (Some(_), Some(name)) => ApiError::new(StatusCode::FORBIDDEN, format!("{name} is another author's bot")),
        }
    }
}

/// A bot the caller owns (or may act on as admin), with its versions (oldest first, never
/// empty).
#[derive(Debug, Clone)]
pub struct OwnedBot<R: Refusal = Private> {
    /// The caller.
    pub author: Author,
    /// The bot's name.
    pub name: BotName,
    /// Its versions, oldest first.
    pub versions: Vec<VersionRow>,
    refusal: PhantomData<R>,
}

impl<R: Refusal> OwnedBot<R> {
    /// The latest version.
    pub fn latest(&self) -> &VersionRow {
        // never empty: checked when extracted
        &self.versions[self.versions.len() - 1]
    }
}

/// What a request's caller is to the bot of its `{name}`.
enum Claim<R: Refusal> {
    /// The caller's bot (or an admin's view of it).
    Owned(OwnedBot<R>),
    /// Not the caller's: `who` the caller (`None`: no valid token), `another` the bot when
    /// it exists (`None`: no such bot, or a name no bot can have).
    Refused { who: Option<Author>, another: Option<BotName> },
}

impl<R: Refusal> Claim<R> {
    /// The claim of the request in `parts`. Errors: the store failed (500, or 503 while
    /// the database is unreachable); a refusal is not an error here.
    async fn of(parts: &mut Parts, state: &AppState) -> Result<Claim<R>, ApiError> {
        let MaybeAuthor(who) = MaybeAuthor::from_request_parts(parts, state).await?;
        let who = who.map(Author);
        let Ok(BotPath(name)) = BotPath::from_request_parts(parts, state).await else {
            return Ok(Claim::Refused { who, another: None });
        };
        let versions = state.store.versions().of(name.as_str()).await?;
        let Some(owner) = versions.first().map(|v| v.author.clone()) else {
            return Ok(Claim::Refused { who, another: None });
        };
        Ok(match who {
            Some(author) if author.may_touch(owner.as_deref()) => {
                Claim::Owned(OwnedBot { author, name, versions, refusal: PhantomData })
            }
            // a name whose versions are all private (rejected) is nobody else's to know of
            who if versions.iter().all(|v| v.status.is_private()) => Claim::Refused { who, another: None },
            who => Claim::Refused { who, another: Some(name) },
        })
    }
}

impl<R: Refusal> FromRequestParts<AppState> for OwnedBot<R> {
    type Rejection = ApiError;

    /// Errors: the refusal `R` makes; a failed store query (500 or 503).
    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<OwnedBot<R>, ApiError> {
        match Claim::of(parts, state).await? {
            Claim::Owned(bot) => Ok(bot),
            Claim::Refused { who, another } => Err(R::refuse(who.as_ref(), another.as_ref())),
        }
    }
}

impl<R: Refusal> OptionalFromRequestParts<AppState> for OwnedBot<R> {
    type Rejection = ApiError;

    /// `None` when the caller does not own the bot (or there is no such bot). Errors: a
    /// failed store query (500 or 503).
    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Option<OwnedBot<R>>, ApiError> {
        Ok(match Claim::<R>::of(parts, state).await? {
            Claim::Owned(bot) => Some(bot),
            Claim::Refused { .. } => None,
        })
    }
}

/// A seat's bot as pages and downloads name it: `NAME vV`.
pub fn seat_name(seat: &SeatBot) -> String {
    format!("{} v{}", seat.name, seat.version)
}

/// A league game's seats (the route's `{id}`), with which of them hold the caller's bots:
/// `mine[seat]` when the caller is the author of that seat's bot, or an admin.
#[derive(Debug, Clone)]
pub struct OwnedSeats {
    /// The game's index.
    pub id: u64,
    /// Each seat's bot, by seat (one per seat of the table).
    pub seats: Vec<SeatBot>,
    /// Whether the caller may see each seat's private parts (its stderr), by seat.
    pub mine: Vec<bool>,
}

impl FromRequestParts<AppState> for OwnedSeats {
    type Rejection = ApiError;

    /// Errors: 404 when there is no such game (or the id is none a game can have); a
    /// failed store query (500 or 503).
    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<OwnedSeats, ApiError> {
        let GameId(id) = GameId::from_request_parts(parts, state).await?;
        let MaybeAuthor(who) = MaybeAuthor::from_request_parts(parts, state).await?;
        let who = who.map(Author);
        let seats = state.store.games().seat_bots(id).await?.ok_or_else(|| ApiError::not_found("such game"))?;
        let mine = seats.iter().map(|s| who.as_ref().is_some_and(|a| a.may_touch(s.author.as_deref()))).collect();
        Ok(OwnedSeats { id, seats, mine })
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use axum::body::Body;
    use axum::http::Request;
    use axum::routing::get;
    use axum::Router;
    use tower::ServiceExt;

    use super::*;
    use crate::counters::Counters;
    use crate::jobs::validation::{ValidationSettings, Validator};
    use crate::limits::RateLimits;
    use crate::params::Paged;
    use crate::state::Settings;
    use crate::token::token_hash;
    use mjai_sim_arena::cancel::Cancel;
    use mjai_sim_runtime::remote::hub::RemoteHub;
    use mjai_sim_runtime::submission::SubmissionLimits;
    use mjai_sim_tournament::config::TournamentConfig;
    use mjai_sim_tournament::store::{Store, UploadLimits};

    /// The admin's token (64 hex digits, as `serve author add` makes them).
    const ROOT: &str = "1111111111111111111111111111111111111111111111111111111111111111";
    /// Another author's token.
    const ALICE: &str = "2222222222222222222222222222222222222222222222222222222222222222";

    /// A server's state over a new SQLite store in `dir` holding the house bot `house`
    /// (an admin's to touch) and the authors `root` (admin) and `alice`.
    async fn state(dir: &std::path::Path, cancel: &Cancel) -> AppState {
        let store = Store::open(&dir.join("serve.sqlite")).await.unwrap();
        store.authors().add("root", &token_hash(ROOT), true).await.unwrap();
        store.authors().add("alice", &token_hash(ALICE), false).await.unwrap();
        store.versions().add_house("house", &"0".repeat(64), 0).await.unwrap();
        let config = TournamentConfig::default();
        let validation = ValidationSettings {
            launch: config.launch_settings(),
            options: config.match_options(),
            rules: config.rules,
            opponent: "builtin:tsumogiri".into(),
            work_dir: dir.join("work"),
            remote: None,
            cache: None,
        };
        let (validator, _) = Validator::start(validation, 1, store.clone(), cancel.clone()).unwrap();
        let settings = Settings {
            max_submission_bytes: 1 << 20,
            intake: SubmissionLimits::default(),
            uploads: UploadLimits { max_bots: 1, uploads_per_hour: 1 },
            per_ip_per_minute: 1000,
            per_token_per_minute: 1000,
            header_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(10),
            max_connections: 1,
            no_remote_bots: None,
            secure_cookie: false,
            players: config.rules.players,
        };
        AppState {
            store,
            settings: Arc::new(settings),
            validator,
            figures: Default::default(),
            counters: Arc::new(Counters::default()),
            limits: Arc::new(RateLimits::new(1000, 1000)),
            hub: RemoteHub::new(),
            credentials: Default::default(),
            watchers: Arc::new(crate::watchers::Watchers::new(cancel.token())),
            leagues: Arc::new(vec![crate::league_info::LeagueInfo::new("league", &config, true)]),
            league: 0,
            peers: Default::default(),
        }
    }

    /// `GET /bots/{name}` on a page route that shows whether the caller owns the bot, with
    /// `token` as the Bearer token: (status, body).
    async fn owns(state: &AppState, name: &str, token: Option<&str>) -> (u16, String) {
        let app = Router::new()
            .route(
                "/bots/{name}",
                get(|Paged(bot): Paged<Option<OwnedBot>>| async move {
                    bot.map_or("not owned".to_string(), |b| format!("owned by {}", b.author.0.name))
                }),
            )
            .with_state(state.clone());
        let mut request = Request::get(format!("/bots/{name}"));
        if let Some(t) = token {
            request = request.header("authorization", format!("Bearer {t}"));
        }
        let answer = app.oneshot(request.body(Body::empty()).unwrap()).await.unwrap();
        let status = answer.status().as_u16();
        let body = axum::body::to_bytes(answer.into_body(), 1 << 20).await.unwrap();
        (status, String::from_utf8_lossy(&body).into_owned())
    }

    #[tokio::test]
    async fn a_failed_query_is_an_error_not_a_caller_who_does_not_own_the_bot() {
        let dir = tempfile::tempdir().unwrap();
        let cancel = Cancel::new();
        let state = state(dir.path(), &cancel).await;
        // both sides: an admin owns the house bot; another author, a visitor, an unknown
        // bot and a name no bot can have are `None` (the page still shows, without chombos)
        assert_eq!(owns(&state, "house", Some(ROOT)).await, (200, "owned by root".into()));
        for (name, token) in [("house", Some(ALICE)), ("house", None), ("nobody", Some(ROOT)), ("a%20b", None)] {
            assert_eq!(owns(&state, name, token).await, (200, "not owned".into()), "{name} {token:?}");
        }
        // the database gone: the error page (500), not a page for a caller who owns nothing
        state.store.close().await;
        let (status, body) = owns(&state, "house", None).await;
        assert_eq!(status, 500, "{body}");
        assert!(body.starts_with("<!DOCTYPE html>") && body.contains("internal error"), "{body}");
        cancel.cancel();
    }
}
