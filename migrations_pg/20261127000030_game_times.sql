-- Game times (issue 39, item 2: GET /api/games and /games list games with their start and
-- end): ms since the Unix epoch (database clock). started_ms is set when a game is claimed
-- (state 'running'), finished_ms when its results are recorded (state 'done'). Games stored
-- before this migration keep NULL: they are listed without times, none is invented.
ALTER TABLE games ADD COLUMN started_ms BIGINT;
ALTER TABLE games ADD COLUMN finished_ms BIGINT;
-- The list's date filter (from/to on the end time).
CREATE INDEX games_finished ON games (t, finished_ms, idx);
