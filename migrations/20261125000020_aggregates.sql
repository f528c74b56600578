-- Per-bot aggregates of a tournament or league (issue 21, item 6), folded in schedule
-- order as results are recorded (src/tournament/aggregate.rs, store/aggregates.rs), so that
-- a leaderboard is read from one row per bot, not from every result. Filled from the
-- results on first use in databases made before this migration.

-- The fold's cursor: every game with idx < next_idx is folded in (or was skipped: failed
-- for good, cancelled); folded: games folded.
CREATE TABLE agg_cursor (
    t BIGINT PRIMARY KEY,
    next_idx BIGINT NOT NULL,
    folded BIGINT NOT NULL
);

-- One row per bot (bots.idx). pt_sum: uma by rank, summed in schedule order. mu, sigma:
-- Weng-Lin. peak: highest mu - 3 sigma after the provisional games. last_seq: folded
-- games of the league just after the bot's last game. rank_lo .. pt_hi: 95 % bootstrap
-- intervals. sets, history: JSON (the bot's per-set sums; its rating subsample).
CREATE TABLE agg_bots (
    t BIGINT NOT NULL,
    bot BIGINT NOT NULL,
    games BIGINT NOT NULL,
    rank1 BIGINT NOT NULL,
    rank2 BIGINT NOT NULL,
    rank3 BIGINT NOT NULL,
    rank4 BIGINT NOT NULL,
    rank_sum BIGINT NOT NULL,
    pt_sum DOUBLE PRECISION NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    peak DOUBLE PRECISION,
    last_game BIGINT,
    last_seq BIGINT NOT NULL,
    rank_lo DOUBLE PRECISION,
    rank_hi DOUBLE PRECISION,
    pt_lo DOUBLE PRECISION,
    pt_hi DOUBLE PRECISION,
    sets TEXT NOT NULL,
    history TEXT NOT NULL,
    PRIMARY KEY (t, bot)
);

-- Head-to-head of bots a < b: games shared, games a placed above b, sum of rank(a) - rank(b).
CREATE TABLE agg_pairs (
    t BIGINT NOT NULL,
    a BIGINT NOT NULL,
    b BIGINT NOT NULL,
    games BIGINT NOT NULL,
    a_above BIGINT NOT NULL,
    diff DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (t, a, b)
);

-- A bot's latest games (its page, GET /api/bots/{name}/games). Without `t`, unlike
-- PostgreSQL's: a SQLite file holds one league (`t` is 1 on every row), and SQLite, which
-- keeps no statistics, would otherwise take an index led by `t` for any `t = $1` lookup
-- (a game's seats by `game_idx`) and scan the whole league instead of the primary key.
CREATE INDEX results_bot ON results (bot, game_idx);
