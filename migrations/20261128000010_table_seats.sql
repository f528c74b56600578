-- Three-player tournaments and leagues (issue 38): seats at every table of the tournament,
-- 4 or 3 (from its rule preset), so that a worker lists a league as claimable once it has
-- that many active bots. Every tournament made before is four-player. A three-player game's
-- games.seat3 holds -1 (no bot): the column stays NOT NULL, and no bot index is negative.
ALTER TABLE tournament ADD COLUMN seats BIGINT NOT NULL DEFAULT 4;
