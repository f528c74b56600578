-- Annulled games, the engine that played each game, games' traces and each seat's
-- decision time (issue 54).
--
-- voided_games: a game annulled by the operator (`mjai-sim serve void`): it stays listed,
-- marked with the reason and the time (voided_ms, ms since the Unix epoch), and leaves
-- every standing and rating, which are folded again without it
-- (src/tournament/store/voids.rs).
CREATE TABLE voided_games (
    t BIGINT NOT NULL,
    game_idx BIGINT NOT NULL,
    reason TEXT NOT NULL,
    voided_ms BIGINT NOT NULL,
    PRIMARY KEY (t, game_idx)
);

-- games.engine: the engine stamp of the game as recorded, JSON {"version", "commit",
-- "rules", "clock", "runtime"} (src/arena/engine_stamp.rs); engine_version: its version,
-- apart, for voiding by engine version. NULL for games recorded before.
ALTER TABLE games ADD COLUMN engine TEXT;
ALTER TABLE games ADD COLUMN engine_version TEXT;

-- game_traces: each finished league game's trace for disputes (src/arena/trace.rs): every
-- line each seat was sent and answered, with times, gzip-compressed; apart from
-- game_files so that `serve --trace-days` can delete old ones.
CREATE TABLE game_traces (
    t BIGINT NOT NULL,
    game_idx BIGINT NOT NULL,
    trace_gz BLOB NOT NULL,
    PRIMARY KEY (t, game_idx)
);

-- results.think_ms: the seat's decision time in the game, summed (ms; from its stats'
-- histogram): what a bot's share of the league's table time is counted in
-- (src/tournament/store/table_time.rs). NULL for results recorded before.
ALTER TABLE results ADD COLUMN think_ms BIGINT;
