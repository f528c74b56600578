//! The versions of a league's bots on a grading server (`mjai-sim serve`): who owns a name,
//! where each version stands (validating, active, rejected, retired, suspended), the per-author
//! limits checked at upload, and each version's validation game.
//!
//! A version enters the league's `bots` table only once it passed validation
//! ([`Versions::admit`]), under its league name ([`league_name`]: `NAME` for version 1,
//! `NAME#V` after), so the league's scheduler, workers and standings see an ordinary bot.
//! Admitting a version retires the author's older active versions of the name (their games
//! stay counted).

use sqlx::any::AnyRow;
use sqlx::Row;

use super::{AddBot, Store, StoreError};
use crate::leaderboard::{BotKind, BotStatus, VersionRow};

/// The sha256 a remote version is stored with (it has no zip): hex sha256 of `remote:NAME`,
/// as a folder tournament's remote entrant has.
pub fn remote_sha256(name: &str) -> String {
    super::blobs::sha256_hex(format!("remote:{name}").as_bytes())
}

/// The stand-in digest of a riichi.dev dialect bot (`riichilab:NAME`), which has no zip
/// either: sha256 of `riichilab:NAME`.
pub fn riichi_dev_sha256(name: &str) -> String {
    super::blobs::sha256_hex(format!("riichilab:{name}").as_bytes())
}

/// Per-author limits checked by [`Versions::begin_upload`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UploadLimits {
    /// Most names an author may have validating or active at once.
    pub max_bots: u64,
    /// Most uploads an author may make in any hour.
    pub uploads_per_hour: u64,
}

/// The zip of an upload, as [`Versions::begin_upload`] stores it.
#[derive(Debug, Clone, Copy)]
pub enum UploadedZip<'a> {
    /// Bytes in memory.
    Bytes(&'a [u8]),
    /// A file on disk (the grading server spools uploads there) and its hex sha256; stored
    /// in pieces, never read whole into memory.
    File {
        /// The zip file.
        path: &'a std::path::Path,
        /// Its hex sha256, computed while it was written.
        sha256: &'a str,
    },
    /// No zip: a remote bot ([`BotKind::Remote`]), registered by name only.
    Remote,
    /// No zip: a riichi.dev dialect bot ([`BotKind::RiichiDev`]), registered by name only.
    RiichiDev,
}

/// What [`Versions::begin_upload`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Upload {
    /// A new version, now validating.
    Started {
        /// Its version number.
        version: u32,
    },
    /// The name belongs to another author (`None`: a house bot).
    NameTaken {
        /// The owner.
        owner: Option<String>,
    },
    /// The author has this bot under another case (`Bot` for `bot`): names are unique
    /// without regard to case.
    OtherCase {
        /// The name as stored.
        existing: String,
    },
    /// The author has [`UploadLimits::max_bots`] other bots already.
    TooManyBots {
        /// The limit.
        limit: u64,
    },
    /// The author uploaded [`UploadLimits::uploads_per_hour`] times in the last hour.
    TooManyUploads {
        /// The limit.
        limit: u64,
    },
}

/// A version's validation game as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationFiles {
    /// `mjai_log.json`, gzip-compressed.
    pub log_gz: Vec<u8>,
    /// The end of the bot's stderr (at most 64 KiB).
    pub stderr: String,
    /// `summary.json`.
    pub summary: String,
    /// `errors.json`.
    pub errors: String,
}

/// The name a version has among the league's bots: `NAME` for version 1, `NAME#V` after
/// (`#` is not allowed in uploaded names, so these never collide).
pub fn league_name(name: &str, version: u32) -> String {
    match version {
        1 => name.to_string(),
        v => format!("{name}#{v}"),
    }
}

const COLUMNS: &str = "name, version, author, sha256, status, reason, bot_idx, kind";

fn version_row(r: &AnyRow) -> Result<VersionRow, sqlx::Error> {
    let status: String = r.try_get(4)?;
    let status = serde_json::from_value(serde_json::Value::String(status.clone()))
        .map_err(|_| sqlx::Error::Decode(format!("unknown bot status `{status}`").into()))?;
    Ok(VersionRow {
        name: r.try_get(0)?,
        version: r.try_get::<i64, _>(1)? as u32,
        author: r.try_get(2)?,
        sha256: r.try_get(3)?,
        status,
        reason: r.try_get(5)?,
        bot_idx: r.try_get::<Option<i64>, _>(6)?.map(|i| i as usize),
        kind: match r.try_get::<String, _>(7)?.as_str() {
            "remote" => BotKind::Remote,
            "riichilab" => BotKind::RiichiDev,
            _ => BotKind::Zip,
        },
    })
}

fn status_text(status: BotStatus) -> &'static str {
    match status {
        BotStatus::Validating => "validating",
        BotStatus::Active => "active",
        BotStatus::Rejected => "rejected",
        BotStatus::Retired => "retired",
        BotStatus::Suspended => "suspended",
    }
}

/// The versions of the bots of the league a [`Store`] is scoped to ([`Store::versions`]; see
/// the module docs).
#[derive(Clone, Copy)]
pub struct Versions<'a> {
    pub(super) store: &'a Store,
}

impl Versions<'_> {
    /// Records a house bot (the operator's, from the command line) already among the
    /// league's bots at `bot_idx`: version 1, active, no author. Nothing changes when the
    /// name is recorded already.
    pub async fn add_house(self, name: &str, sha256: &str, bot_idx: usize) -> Result<(), StoreError> {
        let sql = "INSERT INTO bot_versions (t, name, version, author, sha256, status, bot_idx, created_ms) \
                   VALUES ($1, $2, 1, NULL, $3, 'active', $4, {now}) ON CONFLICT DO NOTHING"
            .replace("{now}", self.store.dialect.now_ms());
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(self.store.t)
            .bind(name)
            .bind(sha256)
            .bind(bot_idx as i64)
            .execute(&self.store.pool)
            .await
            .map_err(|e| self.store.err(e))?;
        Ok(())
    }

    /// Starts a new version of `name` by `author` in one transaction: checks that the name
    /// is free or `author`'s, then the limits; stores the zip (by sha256, in pieces) and the
    /// version (status validating) and counts the upload. Errors: the database failed, or
    /// the zip file could not be read.
    pub async fn begin_upload(
        self,
        author: &str,
        name: &str,
        zip: UploadedZip<'_>,
        limits: UploadLimits,
    ) -> Result<Upload, StoreError> {
        let mut tx = self.store.begin_locked().await?;
        // names are unique without regard to case (ASCII names: LOWER is the same on both engines)
        let owner = sqlx::query(
            "SELECT name, author, MAX(version) FROM bot_versions WHERE t = $1 AND LOWER(name) = LOWER($2) \
             GROUP BY name, author",
        )
        .bind(self.store.t)
        .bind(name)
        .fetch_optional(&mut *tx)
        .await
        .map_err(|e| self.store.err(e))?;
        let mut latest = 0;
        if let Some(row) = owner {
            let existing: String = row.try_get(0).map_err(|e| self.store.err(e))?;
            let who: Option<String> = row.try_get(1).map_err(|e| self.store.err(e))?;
            if who.as_deref() != Some(author) {
                return Ok(Upload::NameTaken { owner: who });
            }
            if existing != name {
                return Ok(Upload::OtherCase { existing });
            }
            latest = row.try_get::<i64, _>(2).map_err(|e| self.store.err(e))?;
        }
        let others = sqlx::query(
            "SELECT COUNT(DISTINCT name) FROM bot_versions WHERE t = $1 AND author = $2 AND name <> $3 \
             AND status IN ('validating', 'active')",
        );
        let others = self.count_in(&mut tx, others.bind(self.store.t).bind(author).bind(name)).await?;
        if others >= limits.max_bots {
            return Ok(Upload::TooManyBots { limit: limits.max_bots });
        }
        let sql = "SELECT COUNT(*) FROM uploads WHERE author = $1 AND at_ms > {now} - 3600000"
            .replace("{now}", self.store.dialect.now_ms());
        let recent = self.count_in(&mut tx, sqlx::query(sqlx::AssertSqlSafe(sql)).bind(author)).await?;
        if recent >= limits.uploads_per_hour {
            return Ok(Upload::TooManyUploads { limit: limits.uploads_per_hour });
        }
        let (sha, kind) = match zip {
            UploadedZip::Remote => (remote_sha256(name), BotKind::Remote),
            UploadedZip::RiichiDev => (riichi_dev_sha256(name), BotKind::RiichiDev),
            UploadedZip::Bytes(bytes) => {
                let sha = super::blobs::sha256_hex(bytes);
                super::blobs::insert_submission(&mut tx, &sha, bytes).await.map_err(|e| self.store.err(e))?;
                (sha, BotKind::Zip)
            }
            UploadedZip::File { path, sha256 } => {
                super::blobs::insert_submission_file(&mut tx, sha256, path).await.map_err(|e| self.store.err(e))?;
                (sha256.to_string(), BotKind::Zip)
            }
        };
        let version = latest + 1;
        let now = self.store.dialect.now_ms();
        let insert = format!(
            "INSERT INTO bot_versions (t, name, version, author, sha256, status, created_ms, kind) \
             VALUES ($1, $2, $3, $4, $5, 'validating', {now}, $6)"
        );
        sqlx::query(sqlx::AssertSqlSafe(insert))
            .bind(self.store.t)
            .bind(name)
            .bind(version)
            .bind(author)
            .bind(&sha)
            .bind(kind.as_str())
            .execute(&mut *tx)
            .await
            .map_err(|e| self.store.err(e))?;
        sqlx::query(sqlx::AssertSqlSafe(format!("INSERT INTO uploads (author, at_ms) VALUES ($1, {now})")))
            .bind(author)
            .execute(&mut *tx)
            .await
            .map_err(|e| self.store.err(e))?;
        tx.commit().await.map_err(|e| self.store.err(e))?;
        Ok(Upload::Started { version: version as u32 })
    }

    /// Every version of every bot, by name then version.
    pub async fn all(self) -> Result<Vec<VersionRow>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM bot_versions WHERE t = $1 ORDER BY name, version");
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(self.store.t).fetch_all(&self.store.pool).await;
        rows.map_err(|e| self.store.err(e))?.iter().map(|r| version_row(r).map_err(|e| self.store.err(e))).collect()
    }

    /// The versions of `name`, oldest first (empty: no such bot).
    pub async fn of(self, name: &str) -> Result<Vec<VersionRow>, StoreError> {
        let mut conn = self.store.pool.acquire().await.map_err(|e| self.store.err(e))?;
        self.versions_on(&mut conn, name).await
    }

    /// [`Versions::of`] on `conn` (a transaction's connection).
    async fn versions_on(self, conn: &mut sqlx::AnyConnection, name: &str) -> Result<Vec<VersionRow>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM bot_versions WHERE t = $1 AND name = $2 ORDER BY version");
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(self.store.t).bind(name).fetch_all(conn).await;
        rows.map_err(|e| self.store.err(e))?.iter().map(|r| version_row(r).map_err(|e| self.store.err(e))).collect()
    }

    /// Stores a version's validation game and its verdict: `Err(reason)` rejects it;
    /// `Ok(())` is followed by [`Versions::admit`]. Errors: the database failed.
    pub async fn record_validation(
        self,
        name: &str,
        version: u32,
        files: &ValidationFiles,
        verdict: Result<(), &str>,
    ) -> Result<(), StoreError> {
        let mut tx = self.store.pool.begin().await.map_err(|e| self.store.err(e))?;
        sqlx::query(
            "INSERT INTO validations (t, name, version, log_gz, stderr, summary, errors) \
             VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING",
        )
        .bind(self.store.t)
        .bind(name)
        .bind(version as i64)
        .bind(files.log_gz.clone())
        .bind(&files.stderr)
        .bind(&files.summary)
        .bind(&files.errors)
        .execute(&mut *tx)
        .await
        .map_err(|e| self.store.err(e))?;
        if let Err(reason) = verdict {
            // only while validating: a version retired meanwhile stays retired
            sqlx::query(
                "UPDATE bot_versions SET status = 'rejected', reason = $1 \
                 WHERE t = $2 AND name = $3 AND version = $4 AND status = 'validating'",
            )
            .bind(reason)
            .bind(self.store.t)
            .bind(name)
            .bind(version as i64)
            .execute(&mut *tx)
            .await
            .map_err(|e| self.store.err(e))?;
        }
        tx.commit().await.map_err(|e| self.store.err(e))
    }

    /// Admits a version that passed validation, in one transaction: it joins the league's
    /// bots under its [`league_name`] (a zip version: its zip is in the store already; a
    /// remote one: spec `remote:NAME`, played over the server's hub) and becomes active;
    /// the name's older active versions retire. Returns its index among the league's bots,
    /// or `None` when the version is no longer validating (retired meanwhile: it stays out).
    /// A league bot of that name with the version's sha256 that no version claims (left by
    /// a crash of a version of this program that admitted in two transactions) is taken
    /// over. Errors: the database failed, or the league name is another bot's (a damaged
    /// store).
    pub async fn admit(self, name: &str, version: u32) -> Result<Option<usize>, StoreError> {
        let mut tx = self.store.begin_locked().await?;
        let rows = self.versions_on(&mut tx, name).await?;
        let Some(row) = rows.iter().find(|r| r.version == version) else {
            return Err(StoreError::Corrupt {
                path: self.store.path.clone(),
                cause: format!("no version {version} of {name}"),
            });
        };
        if row.status != BotStatus::Validating {
            return Ok(None);
        }
        let lname = league_name(name, version);
        let spec = match row.kind {
            BotKind::Zip => format!("{lname}.zip"),
            BotKind::Remote => format!("remote:{name}"),
            BotKind::RiichiDev => format!("riichilab:{name}"),
        };
        let idx = match self.store.league().add_bot_in(&mut tx, &lname, &spec, &row.sha256, None).await? {
            AddBot::Added { idx } => idx,
            AddBot::NameTaken => match self.unclaimed_bot(&mut tx, &lname, &row.sha256).await? {
                Some(idx) => idx,
                None => {
                    let cause = format!("the league already has a bot named {lname}");
                    return Err(StoreError::Corrupt { path: self.store.path.clone(), cause });
                }
            },
        };
        self.set_status(&mut tx, name, version, BotStatus::Active, None).await?;
        sqlx::query("UPDATE bot_versions SET bot_idx = $1 WHERE t = $2 AND name = $3 AND version = $4")
            .bind(idx as i64)
            .bind(self.store.t)
            .bind(name)
            .bind(version as i64)
            .execute(&mut *tx)
            .await
            .map_err(|e| self.store.err(e))?;
        for old in rows.iter().filter(|r| r.version < version && r.status == BotStatus::Active) {
            self.retire_version_in(&mut tx, old).await?;
        }
        tx.commit().await.map_err(|e| self.store.err(e))?;
        Ok(Some(idx))
    }

    /// The league bot named `lname` with `sha256`, not retired, that no version claims as
    /// its `bot_idx`.
    async fn unclaimed_bot(
        self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        lname: &str,
        sha256: &str,
    ) -> Result<Option<usize>, StoreError> {
        let row = sqlx::query(
            "SELECT b.idx FROM bots b WHERE b.t = $1 AND b.name = $2 AND b.sha256 = $3 AND b.retired = 0 \
             AND NOT EXISTS (SELECT 1 FROM bot_versions v WHERE v.t = b.t AND v.bot_idx = b.idx)",
        )
        .bind(self.store.t)
        .bind(lname)
        .bind(sha256)
        .fetch_optional(&mut **tx)
        .await
        .map_err(|e| self.store.err(e))?;
        row.map(|r| r.try_get::<i64, _>(0).map(|i| i as usize).map_err(|e| self.store.err(e))).transpose()
    }

    /// Retires versions in one transaction: status retired, and for those in the league,
    /// never scheduled again (their pending games cancelled; games in play finish and count).
    pub async fn retire(self, rows: &[&VersionRow]) -> Result<(), StoreError> {
        let mut tx = self.store.begin_locked().await?;
        for row in rows {
            self.retire_version_in(&mut tx, row).await?;
        }
        tx.commit().await.map_err(|e| self.store.err(e))
    }

    /// Retires one version inside `tx`, which holds the tournament's lock.
    async fn retire_version_in(
        self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        row: &VersionRow,
    ) -> Result<(), StoreError> {
        if row.bot_idx.is_some() {
            self.store.league().retire_in(tx, &league_name(&row.name, row.version)).await?;
        }
        self.set_status(tx, &row.name, row.version, BotStatus::Retired, None).await
    }

    /// Suspends `row` with `reason` in one transaction holding the league's lock, when it
    /// is still active: status `suspended`, out of the league as a retirement takes it.
    /// Returns whether it was suspended now (false: no longer active).
    pub async fn suspend(self, row: &VersionRow, reason: &str) -> Result<bool, StoreError> {
        let mut tx = self.store.begin_locked().await?;
        let now = self.versions_on(&mut tx, &row.name).await?;
        let Some(row) = now.iter().find(|v| v.version == row.version && v.status == BotStatus::Active) else {
            return Ok(false);
        };
        if row.bot_idx.is_some() {
            self.store.league().retire_in(&mut tx, &league_name(&row.name, row.version)).await?;
        }
        self.set_status(&mut tx, &row.name, row.version, BotStatus::Suspended, Some(reason)).await?;
        tx.commit().await.map_err(|e| self.store.err(e))?;
        Ok(true)
    }

    /// Lifts the suspension of version `version` of `name` (an operator's decision, `serve
    /// unsuspend`): status `active` again, its reason cleared, back in the league's
    /// schedule. Its past games' chombos still count in the suspension window (the window
    /// is games, not time): a chombo in its next games may suspend it again. Errors: the
    /// database failed.
    pub async fn unsuspend(self, name: &str, version: u32) -> Result<Unsuspend, StoreError> {
        let mut tx = self.store.begin_locked().await?;
        let rows = self.versions_on(&mut tx, name).await?;
        let Some(row) = rows.iter().find(|v| v.version == version) else { return Ok(Unsuspend::Unknown) };
        if row.status != BotStatus::Suspended {
            return Ok(Unsuspend::NotSuspended(row.status));
        }
        let newer = rows.iter().filter(|v| v.version > version && v.status != BotStatus::Rejected).map(|v| v.version);
        if let Some(newer) = newer.max() {
            return Ok(Unsuspend::Newer(newer));
        }
        if let Some(idx) = row.bot_idx {
            sqlx::query("UPDATE bots SET retired = 0 WHERE t = $1 AND idx = $2")
                .bind(self.store.t)
                .bind(idx as i64)
                .execute(&mut *tx)
                .await
                .map_err(|e| self.store.err(e))?;
        }
        self.set_status(&mut tx, name, version, BotStatus::Active, None).await?;
        tx.commit().await.map_err(|e| self.store.err(e))?;
        Ok(Unsuspend::Done)
    }

    /// The validation game of a version; `None` before it ended.
    pub async fn validation(self, name: &str, version: u32) -> Result<Option<ValidationFiles>, StoreError> {
        let row = sqlx::query(
            "SELECT log_gz, stderr, summary, errors FROM validations WHERE t = $1 AND name = $2 AND version = $3",
        )
        .bind(self.store.t)
        .bind(name)
        .bind(version as i64)
        .fetch_optional(&self.store.pool)
        .await
        .map_err(|e| self.store.err(e))?;
        row.map(|r| {
            Ok(ValidationFiles {
                log_gz: r.try_get(0).map_err(|e| self.store.err(e))?,
                stderr: r.try_get(1).map_err(|e| self.store.err(e))?,
                summary: r.try_get(2).map_err(|e| self.store.err(e))?,
                errors: r.try_get(3).map_err(|e| self.store.err(e))?,
            })
        })
        .transpose()
    }

    /// The verdict files of the ended validation games of every version of `name`, in one
    /// query: `(version, files)`, oldest version first. The logs are not read (`log_gz` is
    /// left empty: [`Versions::validation`] reads one).
    pub async fn validations_of(self, name: &str) -> Result<Vec<(u32, ValidationFiles)>, StoreError> {
        let rows = sqlx::query(
            "SELECT version, stderr, summary, errors FROM validations WHERE t = $1 AND name = $2 ORDER BY version",
        )
        .bind(self.store.t)
        .bind(name)
        .fetch_all(&self.store.pool)
        .await
        .map_err(|e| self.store.err(e))?;
        rows.iter()
            .map(|r| {
                let version: i64 = r.try_get(0).map_err(|e| self.store.err(e))?;
                let files = ValidationFiles {
                    log_gz: Vec::new(),
                    stderr: r.try_get(1).map_err(|e| self.store.err(e))?,
                    summary: r.try_get(2).map_err(|e| self.store.err(e))?,
                    errors: r.try_get(3).map_err(|e| self.store.err(e))?,
                };
                Ok((version as u32, files))
            })
            .collect()
    }

    /// Versions per status (for `/metrics`).
    pub async fn counts(self) -> Result<Vec<(String, u64)>, StoreError> {
        let rows =
            sqlx::query("SELECT status, COUNT(*) FROM bot_versions WHERE t = $1 GROUP BY status ORDER BY status")
                .bind(self.store.t)
                .fetch_all(&self.store.pool)
                .await
                .map_err(|e| self.store.err(e))?;
        rows.iter()
            .map(|r| {
                let n: i64 = r.try_get(1).map_err(|e| self.store.err(e))?;
                Ok((r.try_get(0).map_err(|e| self.store.err(e))?, n as u64))
            })
            .collect()
    }

    /// The count a bound `SELECT COUNT(...)` query returns in `tx` (the upload limits).
    async fn count_in<'q>(
        self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        query: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments>,
    ) -> Result<u64, StoreError> {
        let n = query.fetch_one(&mut **tx).await.and_then(|r| r.try_get::<i64, _>(0)).map_err(|e| self.store.err(e))?;
        Ok(n.max(0) as u64)
    }

    async fn set_status(
        self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        name: &str,
        version: u32,
        status: BotStatus,
        reason: Option<&str>,
    ) -> Result<(), StoreError> {
        sqlx::query("UPDATE bot_versions SET status = $1, reason = $2 WHERE t = $3 AND name = $4 AND version = $5")
            .bind(status_text(status))
            .bind(reason)
            .bind(self.store.t)
            .bind(name)
            .bind(version as i64)
            .execute(&mut **tx)
            .await
            .map_err(|e| self.store.err(e))?;
        Ok(())
    }
}

/// What [`Versions::unsuspend`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unsuspend {
    /// The version is active again.
    Done,
    /// No such version.
    Unknown,
    /// The version is not suspended (its status).
    NotSuspended(BotStatus),
    /// A newer version of the name (validating, active, retired or suspended) exists: the
    /// old one stays suspended.
    Newer(u32),
}
