-- Results store of a tournament (issue 12). Plain SQL shared by SQLite and PostgreSQL:
-- BIGINT keys, TEXT for JSON, no engine-specific types.

-- One row: what the tournament is (its options as JSON, so that --resume replays them).
CREATE TABLE tournament (
    id BIGINT PRIMARY KEY,
    tid TEXT NOT NULL,
    config TEXT NOT NULL,
    created_at TEXT NOT NULL
);

-- The bots, by index; sha256 of the submission bytes (of the builtin name for built-ins).
CREATE TABLE bots (
    idx BIGINT PRIMARY KEY,
    name TEXT NOT NULL,
    spec TEXT NOT NULL,
    sha256 TEXT NOT NULL
);

-- Scheduled games. state: pending, running, done, failed.
-- attempts: times the game was claimed and failed (a failed game is retried once).
CREATE TABLE games (
    idx BIGINT PRIMARY KEY,
    set_idx BIGINT NOT NULL,
    seed_nonce BIGINT NOT NULL,
    seed_key BIGINT NOT NULL,
    seat0 BIGINT NOT NULL,
    seat1 BIGINT NOT NULL,
    seat2 BIGINT NOT NULL,
    seat3 BIGINT NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending',
    attempts BIGINT NOT NULL DEFAULT 0,
    error TEXT,
    claimed_by TEXT,
    claimed_at TEXT
);
CREATE INDEX games_state ON games (state, idx);

-- Per-seat results of finished games: one row per (game, seat), so nothing counts twice.
-- stats: the seat's statistics as JSON (fields added later need no migration).
CREATE TABLE results (
    game_idx BIGINT NOT NULL REFERENCES games (idx),
    seat BIGINT NOT NULL,
    bot BIGINT NOT NULL,
    score BIGINT NOT NULL,
    rank BIGINT NOT NULL,
    stats TEXT NOT NULL,
    PRIMARY KEY (game_idx, seat)
);
