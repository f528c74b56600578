-- PostgreSQL schema of the tournament store: the same tables and columns as SQLite's
-- (migrations/), with many tournaments in one database (t = tournament.id) and BYTEA for
-- bytes. Every query of src/tournament/store/ serves both.

CREATE TABLE tournament (
    id BIGSERIAL PRIMARY KEY,
    tid TEXT NOT NULL UNIQUE,
    config TEXT NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE bots (
    t BIGINT NOT NULL REFERENCES tournament (id),
    idx BIGINT NOT NULL,
    name TEXT NOT NULL,
    spec TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    PRIMARY KEY (t, idx)
);

-- state: pending, running, done, failed; lease_until: ms since the Unix epoch (database
-- clock), renewed by the worker that plays the game; an expired lease is claimable again.
CREATE TABLE games (
    t BIGINT NOT NULL REFERENCES tournament (id),
    idx BIGINT NOT NULL,
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
    claimed_at TEXT,
    lease_until BIGINT,
    PRIMARY KEY (t, idx)
);
CREATE INDEX games_state ON games (state, t, idx);
CREATE INDEX games_lease ON games (state, lease_until);

CREATE TABLE results (
    t BIGINT NOT NULL,
    game_idx BIGINT NOT NULL,
    seat BIGINT NOT NULL,
    bot BIGINT NOT NULL,
    score BIGINT NOT NULL,
    rank BIGINT NOT NULL,
    stats TEXT NOT NULL,
    PRIMARY KEY (t, game_idx, seat),
    FOREIGN KEY (t, game_idx) REFERENCES games (t, idx)
);

CREATE TABLE submissions (
    sha256 TEXT PRIMARY KEY,
    bytes BYTEA NOT NULL
);

CREATE TABLE game_files (
    t BIGINT NOT NULL,
    game_idx BIGINT NOT NULL,
    log_gz BYTEA NOT NULL,
    summary TEXT NOT NULL,
    errors TEXT NOT NULL,
    PRIMARY KEY (t, game_idx),
    FOREIGN KEY (t, game_idx) REFERENCES games (t, idx)
);
