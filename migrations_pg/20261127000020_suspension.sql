-- Suspension (issue 39): a grading server's version whose chombos in its last
-- suspend_window league games reach suspend_after is suspended (status 'suspended', the
-- reason in bot_versions.reason) and leaves the league. The league's threshold is stored
-- here (`mjai-sim serve --suspend-after N --suspend-window M`; the last server started
-- sets it), so that every process recording the league's games applies it; 0: never.
ALTER TABLE tournament ADD COLUMN suspend_after BIGINT NOT NULL DEFAULT 0;
ALTER TABLE tournament ADD COLUMN suspend_window BIGINT NOT NULL DEFAULT 10;

-- Each bot's chombos in its games (the leaderboard's chombos per game), folded with the
-- other aggregates. The aggregates are dropped so that the first read or record after this
-- migration folds every game again, chombos included (store/aggregates.rs: no cursor row
-- means nothing is folded yet).
ALTER TABLE agg_bots ADD COLUMN chombos BIGINT NOT NULL DEFAULT 0;
DELETE FROM agg_pairs;
DELETE FROM agg_bots;
DELETE FROM agg_cursor;
