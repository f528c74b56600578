-- The grading server (`mjai-sim serve`, issue 21): authors, the versions of their bots in a
-- league, their uploads (for the per-hour limit) and each version's validation game.
-- A SQLite file holds one league (t = 1); PostgreSQL's schema (migrations_pg/) has the same
-- tables and columns. Authors hold across the database's leagues.

-- An author: tokens are 32 random bytes, stored only as their sha256 (hex). A token is
-- high-entropy, so a plain hash (no salt, no slow KDF) is enough: it cannot be guessed
-- from its hash.
CREATE TABLE authors (
    name TEXT PRIMARY KEY,
    token_sha256 TEXT NOT NULL UNIQUE,
    admin BIGINT NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL
);

-- Each version of a bot of a league. author NULL: a house bot of the operator.
-- status: validating, active, rejected, retired; reason: why it was rejected (one line).
-- bot_idx: its row in bots once it entered the league (NULL while validating or rejected).
CREATE TABLE bot_versions (
    t BIGINT NOT NULL DEFAULT 1,
    name TEXT NOT NULL,
    version BIGINT NOT NULL,
    author TEXT,
    sha256 TEXT NOT NULL,
    status TEXT NOT NULL,
    reason TEXT,
    bot_idx BIGINT,
    created_ms BIGINT NOT NULL,
    PRIMARY KEY (t, name, version)
);
CREATE INDEX bot_versions_author ON bot_versions (author, status);

-- Accepted uploads, for the per-author limit per hour (ms since the Unix epoch).
CREATE TABLE uploads (
    author TEXT NOT NULL,
    at_ms BIGINT NOT NULL
);
CREATE INDEX uploads_author ON uploads (author, at_ms);

-- A version's validation game: its mjai log (gzip), the bot's stderr (its tail),
-- summary.json and errors.json.
CREATE TABLE validations (
    t BIGINT NOT NULL DEFAULT 1,
    name TEXT NOT NULL,
    version BIGINT NOT NULL,
    log_gz BLOB NOT NULL,
    stderr TEXT NOT NULL,
    summary TEXT NOT NULL,
    errors TEXT NOT NULL,
    PRIMARY KEY (t, name, version)
);
