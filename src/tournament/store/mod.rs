//! The results store of a tournament: `DIR/tournament.sqlite`, or a PostgreSQL database
//! shared by workers on many hosts (`--db postgres://...`), through sqlx's `Any` driver.
//!
//! One small façade ([`Store`]) for both engines and every caller (the tournament runner,
//! `mjai-sim worker`, standings, the grading server): it opens the database, is scoped to
//! one tournament ([`Store::scoped`], [`Store::tournament`], [`Store::lookup`]), creates a
//! tournament with its bots and scheduled games ([`Store::create`]) and reads its options and
//! bots. Everything else goes through one small handle per aggregate, borrowed from the
//! store, each in the file that holds its SQL:
//!
//! | handle | file | what |
//! |---|---|---|
//! | [`Store::games`] → [`Games`] | `games.rs` | record results with the game's files (one transaction per batch), mark a game failed, list records, counts, failures, a game's seats |
//! | [`Store::game_list`] → [`GameListing`] | `game_listing.rs` | the league's games a page at a time, newest first, filtered (`GET /api/games`) |
//! | [`Store::leases`] → [`Leases`] | `lease.rs` | claim games under a lease, heartbeats, requeues, which tournaments have work |
//! | [`Store::league`] → [`League`] | `league.rs` | top a league's schedule up, pace it, add and retire bots |
//! | [`Store::authors`] → [`Authors`] | `authors.rs` | a grading server's authors and their tokens' hashes |
//! | [`Store::versions`] → [`Versions`] | `versions.rs` | a grading server's bot versions: uploads, validation, admission |
//! | [`Store::blobs`] → [`Blobs`] | `blobs.rs` | submissions by sha256 and a finished game's files |
//! | [`Store::aggregates`] → [`Aggregates`] | `aggregates.rs` | the per-bot aggregates folded as results are recorded |
//! | [`Store::board`] → [`Board`] | `board.rs` | the leaderboard, a bot's page and games, read from the aggregates |
//! | [`Store::live`] → [`Live`] | `live_hands.rs` | a running game's finished hands, for watching it one hand behind |
//! | [`Store::suspensions`] → [`Suspensions`] | `suspension.rs` | a grading server's versions suspended for their chombos, and the league's threshold |
//! | [`Store::seasons`] → [`Seasons`] | `seasons.rs` | a league's seasons: freeze times, finals and their frozen standings |
//!
//! The queries are the same for both engines except a few fragments (the private
//! `open::Dialect`, which nothing outside this module sees): the clock, the creation
//! time, `FOR UPDATE SKIP LOCKED`, the lock of a league's row, and whether a new name may
//! join a database holding another tournament ([`Store::lookup`]: not a SQLite file, unless
//! the caller keeps several there on purpose, [`Store::lookup_beside`]). Schemas:
//! `migrations/` (SQLite) and `migrations_pg/` (PostgreSQL), both with many tournaments
//! (`t` = `tournament.id`; the first SQLite tournament is 1): the same tables and columns
//! (tests/pg/pg_migrations.rs compares the two).
//!
//! Why `Any` and not an enum over two pools: the queries are written once and bound the
//! same way (`$1` placeholders work in both engines), so the two back ends cannot drift
//! apart; the price is that `Any` knows only plain types (integers, text, bytes), which is
//! all this schema uses.
//!
//! Guarantees: results are keyed by (tournament, game, seat), so a game recorded twice
//! counts once and its files are written by the first recording only; a game claimed but
//! never finished (crash, `kill -9`, host gone) is claimable again once its lease expires
//! (or at once on `--resume`) and is played again from its start. SQLite runs in WAL mode
//! with a busy timeout, so readers (`mjai-sim standings DIR`) never block the runner.

mod aggregates;
mod authors;
pub mod backup;
mod blobs;
mod board;
mod bot_tokens;
mod game_listing;
mod games;
mod league;
mod lease;
mod live_hands;
mod open;
pub mod retry;
mod rows;
mod seasons;
mod suspension;
pub mod table_time;
mod versions;
mod voids;

use std::path::Path;

use sqlx::AnyPool;
use sqlx::Row;

use super::config::TournamentConfig;
use super::schedule::ScheduledGame;
pub use crate::leaderboard::BotKind;
pub use crate::leaderboard::VersionRow;
pub use aggregates::{Aggregates, AllAggregates};
pub use authors::{is_revoked_hash, AuthorListing, AuthorRow, Authors};
pub use blobs::{gzip, Blobs, GameFiles};
pub use blobs::{sha256_file, sha256_hex, CHUNK_BYTES};
pub use board::Board;
pub use bot_tokens::BotTokens;
pub use game_listing::GameListing;
pub use games::{Games, SeatBot};
pub use league::{AddBot, League, Online, Retire, TopUp};
pub use lease::Leases;
pub use live_hands::{GameState, Live};
use mjai_sim_engine::game::MAX_SEATS;
use open::Dialect;
pub use open::{is_postgres_url, redact};
pub use rows::{BotRow, Counts, FailedGame};
pub use seasons::{FinalRow, Opened, SeasonRow, SeasonStatus, Seasons};
pub use suspension::{Policy as SuspensionPolicy, Suspended, Suspensions};
pub use versions::{
    league_name, remote_sha256, riichi_dev_sha256, Unsuspend, Upload, UploadLimits, UploadedZip, ValidationFiles,
    Versions,
};
pub use voids::{VoidMark, VoidSelector, Voids};

/// The database file of a tournament folder.
pub const DB_FILE: &str = "tournament.sqlite";

/// A game fails for good at this many failed attempts (it is retried once).
pub const MAX_ATTEMPTS: i64 = 2;

/// Why the store refused or failed; every message is one line naming the database and the fix.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database is locked by another process beyond the busy timeout.
    #[error(
        "{path}: the database is locked (another mjai-sim is using this tournament?); stop it or choose another --dir"
    )]
    Locked {
        /// The database, as named in messages (a file path, or a URL without its password).
        path: String,
    },
    /// Any other database failure (disk full, permissions, corrupt file, connection lost).
    #[error("{path}: database error: {cause} (check free space, permissions and that the database runs)")]
    Db {
        /// The database, as named in messages (a file path, or a URL without its password).
        path: String,
        /// The driver's error.
        cause: String,
    },
    /// A stored row does not have the expected shape.
    #[error("{path}: unexpected content: {cause} (was this file made by another version of mjai-sim?)")]
    Corrupt {
        /// The database, as named in messages (a file path, or a URL without its password).
        path: String,
        /// What was unexpected.
        cause: String,
    },
    /// The connection to a running store broke (server stopped or restarting, network
    /// gone, pool timed out): transient; callers retry it ([`retry`]).
    #[error("{db}: the database is unreachable ({cause}); start it or check the network (workers retry for --db-patience seconds)")]
    Unavailable {
        /// The database, as named in messages (a URL without its password).
        db: String,
        /// The driver's error.
        cause: String,
    },
    /// The PostgreSQL server cannot be reached or refused the connection.
    #[error("{db}: cannot connect: {cause} ({fix})")]
    Connect {
        /// The database, as named in messages (a URL without its password).
        db: String,
        /// The driver's error.
        cause: String,
        /// What to check or change.
        fix: &'static str,
    },
    /// The schema was migrated by a newer mjai-sim.
    #[error("{db}: the schema has migration {version}, unknown to this mjai-sim (made by a newer version); upgrade mjai-sim")]
    Newer {
        /// The database, as named in messages (a URL without its password).
        db: String,
        /// The newest migration recorded in the database.
        version: i64,
    },
    /// Stored submission bytes do not hash to their key.
    #[error("{db}: submission {sha256}: the stored bytes hash to {actual} (damaged); add the submission again")]
    Mismatch {
        /// The database, as named in messages (a URL without its password).
        db: String,
        /// The submission's key (sha256 of its bytes).
        sha256: String,
        /// The sha256 of the bytes stored.
        actual: String,
    },
    /// A submission read from the store could not be written to a file on this host.
    #[error(
        "{file}: cannot write submission {sha256} read from {db} ({cause}); check free space and permissions there"
    )]
    LocalFile {
        /// The database, as named in messages (a URL without its password).
        db: String,
        /// The submission's key.
        sha256: String,
        /// The file being written.
        file: String,
        /// The I/O error.
        cause: String,
    },
}

/// An open store, scoped to one tournament (`t`; 1 for a SQLite file's first): the façade that
/// opens the database, scopes it and creates tournaments, and lends a handle per aggregate
/// ([`Store::games`], [`Store::leases`], [`Store::league`], [`Store::authors`],
/// [`Store::versions`], [`Store::blobs`], [`Store::aggregates`], [`Store::board`]; see the
/// module docs). Cloning shares the connection pool.
#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
    path: String,
    dialect: Dialect,
    t: i64,
    online: Option<league::Online>,
}

/// Where a tournament named so stands in a database ([`Store::lookup`]).
#[derive(Clone)]
pub enum Lookup {
    /// The database holds it: the store scoped to it.
    Found(Store),
    /// No tournament has the name, and one may be created under it.
    Missing,
    /// The database is a SQLite file holding another tournament, and the caller asked with
    /// [`Store::lookup`] (one tournament per file, so that a mistyped name is not a new
    /// tournament beside the old one).
    Occupied {
        /// The name of the tournament the file holds.
        holds: String,
    },
}

impl Store {
    /// Opens (creating if missing) the SQLite store at `path` and brings its schema up to
    /// date. Errors: the file cannot be created or opened, is locked, or is not a database.
    pub async fn open(path: &Path) -> Result<Store, StoreError> {
        let name = path.display().to_string();
        let pool = open::sqlite(path, &name).await?;
        Ok(Store { pool, path: name, dialect: Dialect::Sqlite, t: 1, online: None })
    }

    /// Opens the database `db`: a PostgreSQL URL (`postgres://user:pass@host:port/name`),
    /// `sqlite:PATH` or a plain file path; `connections` is the PostgreSQL pool size. The
    /// store is scoped to no tournament until [`Store::create`] or [`Store::tournament`].
    /// Errors: unreachable server, wrong password, missing database, newer schema.
    pub async fn open_url(db: &str, connections: u32) -> Result<Store, StoreError> {
        if is_postgres_url(db) {
            let name = redact(db);
            let pool = open::postgres(db, &name, connections).await?;
            return Ok(Store { pool, path: name, dialect: Dialect::Postgres, t: 0, online: None });
        }
        let path = db.strip_prefix("sqlite://").or_else(|| db.strip_prefix("sqlite:")).unwrap_or(db);
        Store::open(Path::new(path)).await
    }

    /// The tournament this store is scoped to (`tournament.id`; 1 in SQLite).
    pub fn id(&self) -> i64 {
        self.t
    }

    /// The database's name for messages (a path, or a URL without its password).
    pub fn name(&self) -> &str {
        &self.path
    }

    /// The same database scoped to tournament `t` (a `tournament.id`).
    pub fn scoped(&self, t: i64) -> Store {
        Store { t, ..self.clone() }
    }

    /// This store with `online` deciding which remote bots (`remote:NAME` league bots) a
    /// top-up ([`League::top_up`]) may seat: a grading server's hub says which are
    /// connected. Without it (every other process) remote bots are seated as any bot.
    pub fn with_online(&self, online: Online) -> Store {
        Store { online: Some(online), ..self.clone() }
    }

    /// The games of this tournament: results, failures, counts ([`Games`]).
    pub fn games(&self) -> Games<'_> {
        Games { store: self }
    }

    /// Voided games: void some, read their marks ([`Voids`]).
    pub fn voids(&self) -> Voids<'_> {
        Voids { store: self }
    }

    /// The league's games listed a page at a time, newest first ([`GameListing`]).
    pub fn game_list(&self) -> GameListing<'_> {
        GameListing { store: self }
    }

    /// Claims of games under a lease ([`Leases`]).
    pub fn leases(&self) -> Leases<'_> {
        Leases { store: self }
    }

    /// This tournament as a league: top-ups, pace, bots added and retired ([`League`]).
    pub fn league(&self) -> League<'_> {
        League { store: self }
    }

    /// A grading server's authors ([`Authors`]).
    pub fn authors(&self) -> Authors<'_> {
        Authors { store: self }
    }

    /// This league's riichi.dev-dialect bot tokens ([`BotTokens`]).
    pub fn bot_tokens(&self) -> BotTokens<'_> {
        BotTokens { store: self }
    }

    /// The versions of this league's bots on a grading server ([`Versions`]).
    pub fn versions(&self) -> Versions<'_> {
        Versions { store: self }
    }

    /// Stored bytes: submissions and games' files ([`Blobs`]).
    pub fn blobs(&self) -> Blobs<'_> {
        Blobs { store: self }
    }

    /// A running game's finished hands ([`Live`]).
    pub fn live(&self) -> Live<'_> {
        Live { store: self }
    }

    /// This tournament's per-bot aggregates ([`Aggregates`]).
    pub fn aggregates(&self) -> Aggregates<'_> {
        Aggregates { store: self }
    }

    /// The leaderboard and bots' pages read from the aggregates ([`Board`]).
    pub fn board(&self) -> Board<'_> {
        Board { store: self }
    }

    /// Versions suspended for their chombos, and the league's threshold ([`Suspensions`]).
    pub fn suspensions(&self) -> Suspensions<'_> {
        Suspensions { store: self }
    }

    /// This league's seasons: freeze times, finals, frozen standings ([`Seasons`]).
    pub fn seasons(&self) -> Seasons<'_> {
        Seasons { store: self }
    }

    /// The same database scoped to the tournament named `tid`; `None` when there is none.
    pub async fn tournament(&self, tid: &str) -> Result<Option<Store>, StoreError> {
        let row = sqlx::query("SELECT id FROM tournament WHERE tid = $1")
            .bind(tid)
            .fetch_optional(&self.pool)
            .await
            .map_err(|e| self.err(e))?;
        row.map(|r| r.try_get::<i64, _>(0).map(|t| self.scoped(t)).map_err(|e| self.err(e))).transpose()
    }

    /// Where the tournament named `tid` stands in this database, for a caller that creates
    /// it when missing: found (the store scoped to it), missing (it may be created), or
    /// refused because the database is a SQLite file, which holds one tournament, holding
    /// another. Errors: the database failed.
    pub async fn lookup(&self, tid: &str) -> Result<Lookup, StoreError> {
        let found = match self.dialect {
            Dialect::Sqlite => match self.meta().await? {
                Some((other, _)) if other != tid => return Ok(Lookup::Occupied { holds: other }),
                Some(_) => Some(self.clone()),
                None => None,
            },
            Dialect::Postgres => self.tournament(tid).await?,
        };
        Ok(found.map_or(Lookup::Missing, Lookup::Found))
    }

    /// Where the tournament named `tid` stands in this database, for a caller that keeps
    /// several tournaments in one database (a server's further leagues, a season's final):
    /// found (the store scoped to it) or missing; a SQLite file may hold it beside others.
    /// Errors: the database failed.
    pub async fn lookup_beside(&self, tid: &str) -> Result<Lookup, StoreError> {
        Ok(self.tournament(tid).await?.map_or(Lookup::Missing, Lookup::Found))
    }

    /// Every tournament of this database: (name, options as JSON text), oldest first.
    /// Errors: the database failed.
    pub async fn tournaments(&self) -> Result<Vec<(String, String)>, StoreError> {
        let rows = sqlx::query("SELECT tid, config FROM tournament ORDER BY id")
            .fetch_all(&self.pool)
            .await
            .map_err(|e| self.err(e))?;
        rows.iter()
            .map(|r| Ok((r.try_get(0).map_err(|e| self.err(e))?, r.try_get(1).map_err(|e| self.err(e))?)))
            .collect()
    }

    /// Writes a new tournament in one transaction: its id, options (JSON text), bots and
    /// every scheduled game (state `pending`). Options with `"sets": 0` make it a league
    /// (open-ended: no game yet, topped up by [`League::top_up`]). Returns the store scoped
    /// to it.
    pub async fn create(
        &self,
        tid: &str,
        config: &str,
        bots: &[BotRow],
        games: &[ScheduledGame],
    ) -> Result<Store, StoreError> {
        let mut tx = self.pool.begin().await.map_err(|e| self.err(e))?;
        let insert = match self.dialect {
            Dialect::Sqlite => {
                "INSERT INTO tournament (id, tid, config, created_at) \
                 SELECT COALESCE(MAX(id), 0) + 1, $1, $2, {now} FROM tournament RETURNING id"
            }
            Dialect::Postgres => "INSERT INTO tournament (tid, config, created_at) VALUES ($1, $2, {now}) RETURNING id",
        }
        .replace("{now}", self.dialect.now_text());
        let row = sqlx::query(sqlx::AssertSqlSafe(insert))
            .bind(tid)
            .bind(config)
            .fetch_one(&mut *tx)
            .await
            .map_err(|e| self.err(e))?;
        let t: i64 = row.try_get(0).map_err(|e| self.err(e))?;
        for b in bots {
            insert_bot(&mut tx, t, b).await.map_err(|e| self.err(e))?;
        }
        insert_games(&mut tx, t, games).await.map_err(|e| self.err(e))?;
        if is_open_ended(config) {
            sqlx::query("UPDATE tournament SET open_ended = 1 WHERE id = $1")
                .bind(t)
                .execute(&mut *tx)
                .await
                .map_err(|e| self.err(e))?;
        }
        let seats = TournamentConfig::parse(config).map_or(MAX_SEATS, |c| c.players().count());
        if seats != MAX_SEATS {
            sqlx::query("UPDATE tournament SET seats = $2 WHERE id = $1")
                .bind(t)
                .bind(seats as i64)
                .execute(&mut *tx)
                .await
                .map_err(|e| self.err(e))?;
        }
        tx.commit().await.map_err(|e| self.err(e))?;
        Ok(self.scoped(t))
    }

    /// The tournament's id and options (JSON text); `None` when none was created.
    pub async fn meta(&self) -> Result<Option<(String, String)>, StoreError> {
        let row = sqlx::query("SELECT tid, config FROM tournament WHERE id = $1")
            .bind(self.t)
            .fetch_optional(&self.pool)
            .await
            .map_err(|e| self.err(e))?;
        row.map(|r| Ok((r.try_get(0).map_err(|e| self.err(e))?, r.try_get(1).map_err(|e| self.err(e))?))).transpose()
    }

    /// Seats at every table of the tournament: 4, or 3 for a three-player preset (the
    /// `tournament.seats` column, set by [`Store::create`]); 4 when none was created.
    pub async fn seats(&self) -> Result<usize, StoreError> {
        let row = sqlx::query("SELECT seats FROM tournament WHERE id = $1")
            .bind(self.t)
            .fetch_optional(&self.pool)
            .await
            .map_err(|e| self.err(e))?;
        let seats = row.map(|r| r.try_get::<i64, _>(0).map_err(|e| self.err(e))).transpose()?;
        Ok(seats.map_or(MAX_SEATS, |n| (n.clamp(1, MAX_SEATS as i64)) as usize))
    }

    /// The bots, by index.
    pub async fn bots(&self) -> Result<Vec<BotRow>, StoreError> {
        let rows = sqlx::query("SELECT idx, name, spec, sha256 FROM bots WHERE t = $1 ORDER BY idx")
            .bind(self.t)
            .fetch_all(&self.pool)
            .await
            .map_err(|e| self.err(e))?;
        rows.iter().map(|r| rows::bot(r).map_err(|e| self.err(e))).collect()
    }

    /// Closes the pool (checkpoints SQLite's WAL).
    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// Begins a transaction that changes a league (a top-up, a bot added or retired, a
    /// version uploaded, admitted or retired): its first statement locks the tournament's
    /// row ([`Dialect::lock_tournament`]), so such transactions run one after another.
    async fn begin_locked(&self) -> Result<sqlx::Transaction<'static, sqlx::Any>, StoreError> {
        let mut tx = self.pool.begin().await.map_err(|e| self.err(e))?;
        sqlx::query(self.dialect.lock_tournament()).bind(self.t).execute(&mut *tx).await.map_err(|e| self.err(e))?;
        Ok(tx)
    }

    fn err(&self, e: sqlx::Error) -> StoreError {
        db_error(&self.path, e)
    }
}

/// Whether tournament options (JSON text) describe a league: `"sets": 0`.
fn is_open_ended(config: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(config).ok().and_then(|v| v.get("sets")?.as_u64()) == Some(0)
}

/// Games per `INSERT` statement (9 parameters each: well under both engines' limits).
const INSERT_CHUNK: usize = 256;

/// Writes bot `b` of tournament `t`.
async fn insert_bot(conn: &mut sqlx::AnyConnection, t: i64, b: &BotRow) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO bots (t, idx, name, spec, sha256) VALUES ($1, $2, $3, $4, $5)")
        .bind(t)
        .bind(b.idx as i64)
        .bind(&b.name)
        .bind(&b.spec)
        .bind(&b.sha256)
        .execute(conn)
        .await?;
    Ok(())
}

/// Inserts scheduled games (state `pending`) of tournament `t`, [`INSERT_CHUNK`] rows per
/// statement (one round trip per chunk rather than per game).
async fn insert_games(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    t: i64,
    games: &[ScheduledGame],
) -> Result<(), sqlx::Error> {
    for chunk in games.chunks(INSERT_CHUNK) {
        let rows: Vec<String> = (0..chunk.len())
            .map(|i| format!("(${})", (1..=9).map(|c| (i * 9 + c).to_string()).collect::<Vec<_>>().join(", $")))
            .collect();
        let sql = format!(
            "INSERT INTO games (t, idx, set_idx, seed_nonce, seed_key, seat0, seat1, seat2, seat3) VALUES {}",
            rows.join(", ")
        );
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
        for g in chunk {
            query = query.bind(t).bind(g.index as i64).bind(g.set as i64).bind(g.seed[0] as i64).bind(g.seed[1] as i64);
            for seat in rows::seat_columns(&g.seats) {
                query = query.bind(seat);
            }
        }
        query.execute(&mut **tx).await?;
    }
    Ok(())
}

fn db_error(path: &str, e: sqlx::Error) -> StoreError {
    let cause = e.to_string().replace('\n', " ");
    if cause.contains("database is locked") || cause.contains("database table is locked") {
        StoreError::Locked { path: path.to_string() }
    } else if retry::is_transient(&e) {
        StoreError::Unavailable { db: path.to_string(), cause }
    } else {
        StoreError::Db { path: path.to_string(), cause }
    }
}

#[cfg(test)]
mod league_tests;
#[cfg(test)]
mod seasons_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod voids_tests;
