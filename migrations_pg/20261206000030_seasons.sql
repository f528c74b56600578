-- A league's seasons (issue 54): the operator opens one (`mjai-sim serve season open`, or
-- `POST /api/seasons`) with a freeze time; uploads to the league stop at the freeze (409
-- naming it); then a final: every eligible bot plays a duplicate-set round robin in a
-- tournament of its own beside the league (final_t), whose standings are frozen here
-- (final_standings, JSON) when its last game is recorded, never computed again
-- (src/tournament/store/seasons.rs).
--
-- t: the league (tournament.id); times are ms since the Unix epoch (UTC).
-- final_top: the final's top N of the league's leaderboard (NULL: every active bot);
-- final_sets: duplicate sets each bot plays; final_ms: when the final was asked for;
-- final_t: its tournament (NULL: no final yet); frozen_ms: when its standings were frozen.
CREATE TABLE seasons (
    t BIGINT NOT NULL,
    name TEXT NOT NULL,
    opened_ms BIGINT NOT NULL,
    freeze_ms BIGINT NOT NULL,
    final_t BIGINT,
    final_top BIGINT,
    final_sets BIGINT,
    final_ms BIGINT,
    final_standings TEXT,
    frozen_ms BIGINT,
    PRIMARY KEY (t, name)
);
