-- Scale-out (issue 13): the columns PostgreSQL's schema (migrations_pg/) has, so that one
-- set of queries serves both. A SQLite file holds one tournament: t is always 1.
ALTER TABLE bots ADD COLUMN t BIGINT NOT NULL DEFAULT 1;
ALTER TABLE games ADD COLUMN t BIGINT NOT NULL DEFAULT 1;
ALTER TABLE results ADD COLUMN t BIGINT NOT NULL DEFAULT 1;
-- Lease of a running game: milliseconds since the Unix epoch (database clock).
ALTER TABLE games ADD COLUMN lease_until BIGINT;
CREATE INDEX games_lease ON games (state, lease_until);

-- Submissions by content: the zip bytes, keyed by their sha256 (hex).
CREATE TABLE submissions (
    sha256 TEXT PRIMARY KEY,
    bytes BLOB NOT NULL
);

-- A finished game's files: mjai_log.json gzip-compressed, summary.json and errors.json.
CREATE TABLE game_files (
    t BIGINT NOT NULL DEFAULT 1,
    game_idx BIGINT NOT NULL,
    log_gz BLOB NOT NULL,
    summary TEXT NOT NULL,
    errors TEXT NOT NULL,
    PRIMARY KEY (t, game_idx)
);
