-- A SQLite file holds several tournaments (issue 54: leagues at one address, a season's
-- final beside its league): bots, games and results are keyed by their tournament (t) too,
-- as in PostgreSQL's schema. SQLite cannot change a primary key: each table is built
-- again with the same columns and its rows copied (t = 1 for every row written before).

CREATE TABLE games_new (
    t BIGINT NOT NULL DEFAULT 1,
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
    started_ms BIGINT,
    finished_ms BIGINT,
    engine TEXT,
    engine_version TEXT,
    PRIMARY KEY (t, idx)
);
INSERT INTO games_new (t, idx, set_idx, seed_nonce, seed_key, seat0, seat1, seat2, seat3, state, attempts,
    error, claimed_by, claimed_at, lease_until, started_ms, finished_ms, engine, engine_version)
SELECT t, idx, set_idx, seed_nonce, seed_key, seat0, seat1, seat2, seat3, state, attempts,
    error, claimed_by, claimed_at, lease_until, started_ms, finished_ms, engine, engine_version FROM games;

CREATE TABLE results_new (
    t BIGINT NOT NULL DEFAULT 1,
    game_idx BIGINT NOT NULL,
    seat BIGINT NOT NULL,
    bot BIGINT NOT NULL,
    score BIGINT NOT NULL,
    rank BIGINT NOT NULL,
    stats TEXT NOT NULL,
    think_ms BIGINT,
    PRIMARY KEY (t, game_idx, seat),
    FOREIGN KEY (t, game_idx) REFERENCES games_new (t, idx)
);
INSERT INTO results_new (t, game_idx, seat, bot, score, rank, stats, think_ms)
SELECT t, game_idx, seat, bot, score, rank, stats, think_ms FROM results;

CREATE TABLE bots_new (
    t BIGINT NOT NULL DEFAULT 1,
    idx BIGINT NOT NULL,
    name TEXT NOT NULL,
    spec TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    retired BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (t, idx)
);
INSERT INTO bots_new (t, idx, name, spec, sha256, retired) SELECT t, idx, name, spec, sha256, retired FROM bots;

DROP TABLE results;
DROP TABLE games;
DROP TABLE bots;
-- (renaming updates results' foreign key to name games)
ALTER TABLE games_new RENAME TO games;
ALTER TABLE results_new RENAME TO results;
ALTER TABLE bots_new RENAME TO bots;

CREATE INDEX games_state ON games (state, t, idx);
CREATE INDEX games_lease ON games (state, lease_until);
CREATE INDEX games_sets ON games (t, set_idx) WHERE idx = set_idx * 4;
CREATE INDEX games_finished ON games (t, finished_ms, idx);
CREATE INDEX results_bot ON results (t, bot, game_idx);
