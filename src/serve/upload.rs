//! `POST /api/bots` (multipart fields `name` and `file`): an author's new bot or new
//! version. The optional field `mode` (`4p` or `3p`) declares the table the bot plays: an
//! upload whose mode is not the league's is refused (409; a league is one mode, issue 38).
//! The optional field `league` names the league the bot joins on a server of several
//! (else the league whose path took the upload, [`super::dispatch`]).
//! With the field `kind=remote` and no file, a remote bot (issue 29): the name is
//! registered and its author connects `mjai-sim connect` to `/api/bots/{name}/connect`
//! ([`super::remote_socket`]), where its first connection plays the validation games. Order of
//! checks: token (401), body size (413, at the cap), the body's type (415 when it is not
//! `multipart/form-data`: [`super::upload_body`]), the name
//! ([`BotName`], 400), a season's freeze (409 naming its time:
//! [`super::freeze::upload_freeze`]), intake as `mjai-sim check` does (400 with its one-line reason, 413
//! when the zip itself is over the cap), then in one transaction the name's owner (409),
//! the author's limits (429) and the new version. Answer: 202 `{"name","version","status":
//! "validating"}`; the validation game runs in the background.
//!
//! The zip is streamed to a temporary file as it arrives ([`SpooledZip`], in `$TMPDIR`),
//! refused with 413 at the first byte over the cap, checked from the file and stored from
//! it in pieces: the server's memory does not grow with the upload.

use super::token::{new_token, token_hash};
use axum::extract::{DefaultBodyLimit, Multipart, State};
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Json, Router};
use serde::Serialize;
use tower_http::limit::RequestBodyLimitLayer;
use utoipa::ToSchema;

use super::auth::Author;
use super::error::{ApiError, ErrorBody};
use super::name::BotName;
use super::state::AppState;
use super::upload_body::UploadBody;
use mjai_sim_engine::game::Players;
use mjai_sim_runtime::submission::{Submission, SubmissionError};
use mjai_sim_tournament::leaderboard::BotStatus;
use mjai_sim_tournament::store::{BotKind, Upload, UploadedZip, VersionRow};

/// The routes of this module (each described in the OpenAPI document, [`super::openapi`]).
pub const ROUTES: [&str; 1] = ["/api/bots"];

/// Bytes a multipart form adds around the zip (boundaries, headers, the name field).
pub const FORM_SLACK: u64 = 64 * 1024;

/// `POST /api/bots`, with the upload body limit ([`with_upload_limit`]).
pub fn router(max_submission_bytes: u64) -> Router<AppState> {
    with_upload_limit(Router::new().route(ROUTES[0], post(upload)), max_submission_bytes)
}

/// `routes` (the API's upload, the page `/upload`: [`super::upload_form`]) with their own
/// body limit: the submission cap `max_submission_bytes` plus [`FORM_SLACK`] (every other
/// route has the server's small one).
pub fn with_upload_limit(routes: Router<AppState>, max_submission_bytes: u64) -> Router<AppState> {
    let cap = usize::try_from(max_submission_bytes.saturating_add(FORM_SLACK)).unwrap_or(usize::MAX);
    routes.layer(DefaultBodyLimit::max(cap)).layer(RequestBodyLimitLayer::new(cap))
}

/// The 202 answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct Accepted {
    /// The bot's name.
    pub name: String,
    /// The new version.
    pub version: u32,
    /// Always `validating`.
    pub status: BotStatus,
    /// A `kind=riichilab` bot's new bot token (64 hex digits), shown this once: the bot
    /// sends it as `Authorization: Bearer TOKEN` to `/ws/validate` and `/ws/ranked`. Each
    /// new version gets a new one; the old one stops working.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
}

/// An uploaded zip, written to a temporary file as it arrived (removed when dropped).
#[derive(Debug)]
pub struct SpooledZip {
    file: tempfile::NamedTempFile,
    /// Its hex sha256.
    pub sha256: String,
    /// The name the client gave the file (the multipart part's `filename`), as
    /// [`shown_file_name`] keeps it; `None` when it gave none (or none worth showing).
    pub file_name: Option<String>,
    /// Its size in bytes.
    pub len: u64,
}

impl SpooledZip {
    /// Where it is.
    pub fn path(&self) -> &std::path::Path {
        self.file.path()
    }
}

/// Longest file name an upload's errors repeat, in characters.
pub const MAX_SHOWN_FILE_NAME: usize = 100;

/// The uploaded file's own name as the intake's errors name it (`broken.zip`): the
/// client's `filename` without any folders, control characters dropped, at most
/// [`MAX_SHOWN_FILE_NAME`] characters; `None` when nothing is left (the errors then say
/// `NAME.zip`, after the bot).
pub fn shown_file_name(client: &str) -> Option<String> {
    let last = client.rsplit(['/', '\\']).next().unwrap_or("");
    let clean: String = last.chars().filter(|c| !c.is_control()).take(MAX_SHOWN_FILE_NAME).collect();
    let clean = clean.trim();
    (!clean.is_empty() && clean != "." && clean != "..").then(|| clean.to_string())
}

/// The multipart form of `POST /api/bots` as [`read_form`] reads it (for the OpenAPI
/// document: the form is read field by field, the zip streamed to disk).
#[derive(Debug, ToSchema)]
pub struct UploadForm {
    /// The bot's name ([`BotName`]).
    pub name: String,
    /// The zip, `bot.py` at its root (required unless `kind=remote`).
    #[schema(value_type = Option<String>, format = Binary)]
    pub file: Option<Vec<u8>>,
    /// `zip` (the default, with a file), `remote` (no file: the bot plays from its author's
    /// machine over `/api/bots/{name}/connect`) or `riichilab` (no file: a bot of
    /// riichi.dev's dialect, connecting to `/ws/validate` and `/ws/ranked` with the bot
    /// token the answer holds).
    pub kind: Option<BotKind>,
    /// The table the bot plays: `4p` (four-player) or `3p` (three-player, sanma); absent:
    /// the league's. Refused with 409 when it is not the league's mode
    /// (`GET /api/leaderboard` says it: `players`).
    pub mode: Option<String>,
    /// The league the bot joins (`GET /api/leagues` lists them); absent: the league whose
    /// path took the upload (`/api/bots`: the default; `/api/leagues/NAME/bots`: NAME).
    /// 404 for a league this server does not host.
    pub league: Option<String>,
}

/// Handles `POST /api/bots`.
#[utoipa::path(post, path = "/api/bots", summary = "Upload a bot (a new name, or a new version of one's own)",
    security(("bearer" = []), ("cookie" = [])), request_body(content = UploadForm, content_type = "multipart/form-data"),
    responses((status = 202, description = "accepted; its validation game runs", body = Accepted), (status = 400, description = "refused name, form or zip (the intake's one-line reason)", body = ErrorBody), (status = 404, description = "the field `league` names no league of this server", body = ErrorBody), (status = 415, description = "the body is not multipart/form-data", body = ErrorBody),
        (status = 401, description = "no valid token", body = ErrorBody), (status = 409, description = "the name belongs to another author or is a house bot's; kind=remote on a server whose league workers play; a mode that is not the league's; uploads frozen by a season (the answer names the freeze time)", body = ErrorBody),
        (status = 413, description = "over --max-submission-mb", body = ErrorBody), (status = 429, description = "over --max-bots or --uploads-per-hour, or a rate limit", body = ErrorBody)))]
pub async fn upload(
    State(state): State<AppState>,
    author: Author,
    UploadBody(form): UploadBody,
) -> Result<(StatusCode, Json<Accepted>), ApiError> {
    let form = read_form(form, state.settings.max_submission_bytes).await?;
    let state = form.league(&state)?;
    Ok((StatusCode::ACCEPTED, Json(accept(&state, &author, &form.name, form.bot).await?)))
}

/// An upload form as [`read_form`] reads it.
#[derive(Debug)]
pub struct ReadForm {
    /// The field `name`, as sent.
    pub name: String,
    /// The bot: a zip, or a bot that connects.
    pub bot: Submitted,
    /// The field `mode` (`4p` or `3p`), when given and not blank.
    pub mode: Option<String>,
    /// The field `league`, when given and not blank.
    pub league: Option<String>,
}

impl ReadForm {
    /// The state of the league the upload joins: the one its field `league` names, else
    /// `state`'s (the league whose path took it); its mode checked against the field
    /// `mode`. Errors: 404 for a league this server does not host, 409 for a mode that is
    /// not that league's.
    pub fn league(&self, state: &AppState) -> Result<AppState, ApiError> {
        let state = match &self.league {
            Some(name) => state.for_league(name)?,
            None => state.clone(),
        };
        if let Some(mode) = &self.mode {
            check_mode(mode, state.settings.players)?;
        }
        Ok(state)
    }
}

/// What an upload form brings.
#[derive(Debug)]
pub enum Submitted {
    /// A zip (field `file`), spooled to disk.
    Zip(SpooledZip),
    /// `kind=remote`, no file: a remote bot.
    Remote,
    /// `kind=riichilab`, no file: a bot of riichi.dev's dialect.
    RiichiDev,
}

/// The fields of an upload form (the API's and the page `/upload`'s): `name`, and either
/// `file` (the zip, streamed to disk, at most `cap` bytes; `kind`, if given, is `zip`) or
/// `kind=remote` with no file; `mode` (optional: `4p` or `3p`; [`ReadForm::league`] checks
/// it) and `league` (optional: the league to join). Errors: 400 for another field, a field
/// twice, one missing, an unknown kind, or a file with `kind=remote`; 413 when the file
/// is over `cap` or a body limit cut the form. An empty `file` part whose file name is
/// empty (a browser form with no file chosen) counts as no file.
pub async fn read_form(mut form: Multipart, cap: u64) -> Result<ReadForm, ApiError> {
    let (mut name, mut file, mut kind, mut mode, mut league) = (None, None, None, None, None);
    while let Some(field) = form.next_field().await.map_err(multipart_error)? {
        match field.name() {
            Some("name") if name.is_none() => name = Some(field.text().await.map_err(multipart_error)?),
            Some("kind") if kind.is_none() => kind = Some(field.text().await.map_err(multipart_error)?),
            Some("mode") if mode.is_none() => mode = Some(field.text().await.map_err(multipart_error)?),
            Some("league") if league.is_none() => league = Some(field.text().await.map_err(multipart_error)?),
            Some("file") if file.is_none() => {
                // a browser's form with no file chosen sends an empty part named ""
                let unchosen = field.file_name().is_some_and(str::is_empty);
                file = Some(spool(field, cap).await?).filter(|z| !(unchosen && z.len == 0));
            }
            _ => {
                return Err(ApiError::new(
                    StatusCode::BAD_REQUEST,
                    "the form has fields `name`, `file`, `kind`, `mode` and `league` only, once each",
                ))
            }
        }
    }
    let bad = |text: &str| Err(ApiError::new(StatusCode::BAD_REQUEST, text.to_string()));
    let Some(name) = name else { return bad("the form needs a field `name` (the bot's name)") };
    let given = |v: Option<String>| v.map(|v| v.trim().to_string()).filter(|v| !v.is_empty());
    let (mode, league) = (given(mode), given(league));
    let bot = match (kind.as_deref().map(str::trim), file) {
        (None | Some("zip"), Some(file)) => Submitted::Zip(file),
        (None | Some("zip"), None) => {
            return bad("the form needs a field `file` (the zip), or `kind=remote` for a remote bot")
        }
        (Some("remote"), None) => Submitted::Remote,
        (Some("remote"), Some(_)) => {
            return bad("a remote bot (kind=remote) has no `file`: it plays from your machine")
        }
        (Some("riichilab"), None) => Submitted::RiichiDev,
        (Some("riichilab"), Some(_)) => {
            return bad("a riichi.dev bot (kind=riichilab) has no `file`: it connects with its bot token")
        }
        (Some(_), _) => return bad("the field `kind` is `zip` (the default, with a `file`), `remote` or `riichilab`"),
    };
    Ok(ReadForm { name, bot, mode, league })
}

/// The name of a table's mode in the form's field `mode`: `4p` or `3p`.
pub fn mode_name(players: Players) -> &'static str {
    match players {
        Players::Four => "4p",
        Players::Three => "3p",
    }
}

/// Checks an upload's declared `mode` against the league's table (`league`): 400 for a
/// word that is no mode, 409 for the other mode (a league is one mode).
pub fn check_mode(mode: &str, league: Players) -> Result<(), ApiError> {
    let Some(declared) = [Players::Four, Players::Three].into_iter().find(|&p| mode_name(p) == mode) else {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "the field `mode` is `4p` (four-player) or `3p` (three-player)",
        ));
    };
    if declared == league {
        return Ok(());
    }
    Err(ApiError::new(
        StatusCode::CONFLICT,
        format!(
            "this server's league plays {}-player games (mode={}); a mode={mode} bot goes to a {}-player league's server",
            league.count(),
            mode_name(league),
            declared.count()
        ),
    ))
}

/// Writes the field to a temporary file piece by piece, hashing as it goes; 413 at the
/// first byte past `cap`.
async fn spool(mut field: axum::extract::multipart::Field<'_>, cap: u64) -> Result<SpooledZip, ApiError> {
    use sha2::Digest;
    use tokio::io::AsyncWriteExt;
    let file_name = field.file_name().and_then(shown_file_name);
    let temp = tempfile::NamedTempFile::new().map_err(|e| anyhow::anyhow!("cannot create a temporary file: {e}"))?;
    let mut out = tokio::fs::File::from_std(temp.reopen().map_err(|e| anyhow::anyhow!("temporary file: {e}"))?);
    let (mut len, mut hasher) = (0u64, sha2::Sha256::new());
    // bounded: the request timeout layer and the body limit.
    while let Some(chunk) = field.chunk().await.map_err(multipart_error)? {
        len += chunk.len() as u64;
        if len > cap {
            return Err(over_cap(cap));
        }
        hasher.update(&chunk);
        out.write_all(&chunk)
            .await
            .map_err(|e| anyhow::anyhow!("writing the upload to {}: {e}", temp.path().display()))?;
    }
    out.flush().await.map_err(|e| anyhow::anyhow!("writing the upload: {e}"))?;
    Ok(SpooledZip { file: temp, sha256: hex::encode(hasher.finalize()), file_name, len })
}

/// 413 naming the cap.
fn over_cap(cap: u64) -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!("the upload is over the size cap of {} MiB (--max-submission-mb)", cap.div_ceil(1024 * 1024)),
    )
}

/// Takes `bot` (a zip, or a remote bot) as the next version of `author`'s bot `name` and
/// starts its validation game (a remote bot's: at its first connection), after the checks
/// the module docs list (400, 413, 409, 429; 409 for a remote bot on a server that plays
/// no games itself; 409 naming the freeze time while a season's freeze stops uploads:
/// [`super::freeze::upload_freeze`]).
pub async fn accept(state: &AppState, author: &Author, name: &str, bot: Submitted) -> Result<Accepted, ApiError> {
    let name = BotName::parse(name.trim()).map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, e))?;
    // a season's freeze stops every new version: zips, remote and riichi.dev bots alike
    super::freeze::upload_freeze(&state.store).await?;
    let file = match bot {
        Submitted::Zip(file) => file,
        Submitted::Remote => return accept_remote(state, author, &name).await,
        Submitted::RiichiDev => return accept_riichi_dev(state, author, &name).await,
    };
    let limits = state.settings.intake;
    // the errors name the file the author sent (`broken.zip`), not one after the bot
    let label = std::path::PathBuf::from(file.file_name.clone().unwrap_or_else(|| format!("{name}.zip")));
    let path = file.path().to_path_buf();
    let intake = tokio::task::spawn_blocking(move || Submission::check_zip_file(&label, &path, &limits))
        .await
        .map_err(|e| anyhow::anyhow!("intake task: {e}"))?;
    if let Err(e) = intake {
        let status = match e {
            SubmissionError::TooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            _ => StatusCode::BAD_REQUEST,
        };
        return Err(ApiError::new(status, e.to_string()));
    }
    let zip = UploadedZip::File { path: file.path(), sha256: &file.sha256 };
    begin(state, author, &name, zip).await
}

/// A remote bot's new version: registered, validated at its first connection.
async fn accept_remote(state: &AppState, author: &Author, name: &BotName) -> Result<Accepted, ApiError> {
    if let Some(why) = &state.settings.no_remote_bots {
        return Err(ApiError::new(StatusCode::CONFLICT, why.clone()));
    }
    let accepted = begin(state, author, name, UploadedZip::Remote).await?;
    state.hub.allow(name.as_str());
    Ok(accepted)
}

/// A riichi.dev dialect bot's new version: registered with a new bot token (answered once,
/// stored hashed), validated when it connects to `/ws/validate`.
async fn accept_riichi_dev(state: &AppState, author: &Author, name: &BotName) -> Result<Accepted, ApiError> {
    if let Some(why) = &state.settings.no_remote_bots {
        return Err(ApiError::new(StatusCode::CONFLICT, why.clone()));
    }
    let mut accepted = begin(state, author, name, UploadedZip::RiichiDev).await?;
    let token = new_token().map_err(|e| anyhow::anyhow!("cannot make a bot token: {e}"))?;
    state.store.bot_tokens().set(name.as_str(), &token_hash(&token)).await?;
    state.hub.allow_one_game(name.as_str());
    accepted.token = Some(token);
    Ok(accepted)
}

/// The store's part of an upload, in one transaction: the name's owner (409), the
/// author's limits (429) and the new version; then its validation is queued (a zip's) or
/// awaits the first connection (a remote bot's).
async fn begin(state: &AppState, author: &Author, name: &BotName, zip: UploadedZip<'_>) -> Result<Accepted, ApiError> {
    let who = author.0.name.clone();
    match state.store.versions().begin_upload(&who, name.as_str(), zip, state.settings.uploads).await? {
        Upload::Started { version } => {
            state.counters.uploads.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let row = state.store.versions().of(name.as_str()).await?.into_iter().find(|v| v.version == version);
            let row: VersionRow = row.ok_or_else(|| anyhow::anyhow!("version {version} of {name} vanished"))?;
            let kind = row.kind.as_str();
            tracing::info!(target: super::AUDIT, event = "upload", bot = %name, version, author = %who, kind, sha256 = %row.sha256, "upload accepted");
            // a remote bot already connected (a new version) validates at once
            // (a riichi.dev dialect bot validates when it connects to /ws/validate)
            if row.kind == BotKind::Zip || (row.kind == BotKind::Remote && state.hub.online(name.as_str()) > 0) {
                state.validator.spawn(row);
            }
            Ok(Accepted { name: name.to_string(), version, status: BotStatus::Validating, token: None })
        }
        Upload::NameTaken { owner: None } => Err(ApiError::new(
            StatusCode::CONFLICT,
            format!("the name {name} is reserved (a house bot of this league); choose another name"),
        )),
        Upload::NameTaken { owner: Some(_) } => Err(ApiError::new(
            StatusCode::CONFLICT,
            format!("the name {name} belongs to another author (names are unique without regard to case); choose another name"),
        )),
        Upload::OtherCase { existing } => Err(ApiError::new(
            StatusCode::CONFLICT,
            format!("you have this bot as {existing} (names are unique without regard to case): upload under that name"),
        )),
        Upload::TooManyBots { limit } => Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!("you have {limit} bots already (the limit); retire one on its page (or DELETE /api/bots/NAME)"),
        )),
        Upload::TooManyUploads { limit } => Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!("{limit} uploads in the last hour (the limit); try again later"),
        )),
    }
}

/// A malformed or oversized form: 413 when a body limit cut it (axum's; or the request
/// body limit layer's, which axum sees as a failed read of the body stream: status 500,
/// an [`http_body_util::LengthLimitError`] down its source chain, found by type), else 400.
fn multipart_error(e: axum::extract::multipart::MultipartError) -> ApiError {
    let text = e.body_text().replace('\n', " ");
    let mut source: Option<&dyn std::error::Error> = Some(&e);
    let mut limited = false;
    while let Some(err) = source {
        limited |= err.is::<http_body_util::LengthLimitError>();
        source = err.source();
    }
    let cut = e.status() == StatusCode::PAYLOAD_TOO_LARGE || e.status() == StatusCode::INTERNAL_SERVER_ERROR || limited;
    match cut {
        true => ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "the upload is over the size cap (--max-submission-mb)"),
        false => ApiError::new(StatusCode::BAD_REQUEST, format!("malformed multipart form: {text}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_errors_name_the_file_sent_without_its_folders() {
        assert_eq!(shown_file_name("broken.zip").as_deref(), Some("broken.zip"));
        assert_eq!(shown_file_name("C:\\bots\\my bot.zip").as_deref(), Some("my bot.zip"));
        assert_eq!(shown_file_name("../../etc/x\n.zip").as_deref(), Some("x.zip"));
        for nothing in ["", "dir/", " ", "..", "a/.."] {
            assert_eq!(shown_file_name(nothing), None, "{nothing:?}");
        }
        assert_eq!(shown_file_name(&"z".repeat(500)).map(|n| n.chars().count()), Some(MAX_SHOWN_FILE_NAME));
    }

    /// The declared mode is taken when it is the league's, refused with 409 when it is the
    /// other one, and with 400 when it is no mode.
    #[test]
    fn an_upload_declares_the_leagues_mode_or_is_refused() {
        assert!(check_mode("4p", Players::Four).is_ok());
        assert!(check_mode("3p", Players::Three).is_ok());
        let other = check_mode("3p", Players::Four).unwrap_err();
        assert_eq!(other.status, StatusCode::CONFLICT);
        assert!(other.reason.contains("plays 4-player games (mode=4p)"), "{}", other.reason);
        assert_eq!(check_mode("4p", Players::Three).unwrap_err().status, StatusCode::CONFLICT);
        for word in ["4", "sanma", "3P", ""] {
            assert_eq!(check_mode(word, Players::Three).unwrap_err().status, StatusCode::BAD_REQUEST, "{word:?}");
        }
    }
}
