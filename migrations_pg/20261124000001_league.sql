-- Leagues (open-ended tournaments, `--sets 0`): bots are added and retired while workers
-- play, and the schedule is topped up a few sets at a time.
-- bots.retired: 1 once `mjai-sim league retire` stopped scheduling the bot (its games stay
-- counted).
ALTER TABLE bots ADD COLUMN retired BIGINT NOT NULL DEFAULT 0;
-- tournament.open_ended: 1 for a league (its config has sets 0); workers look at it even
-- when none of its games is pending, since claiming tops it up.
ALTER TABLE tournament ADD COLUMN open_ended BIGINT NOT NULL DEFAULT 0;
-- games.state gains 'cancelled': a retired bot's game that was never claimed (not played,
-- not counted). One row per set (its first game, idx = 4 * set_idx): a top-up rebuilds the
-- scheduler from these rather than from every game.
CREATE INDEX games_sets ON games (t, set_idx) WHERE idx = set_idx * 4;
