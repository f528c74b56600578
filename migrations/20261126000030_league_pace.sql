-- A league's pace (`mjai-sim serve --pace`): at most pace_per_hour games scheduled an hour
-- (NULL: unpaced). next_set_ms: the earliest time, in Unix milliseconds, the next set of 4
-- games may be scheduled; each paced top-up moves it on by 4 × 3600 s / pace.
ALTER TABLE tournament ADD COLUMN pace_per_hour BIGINT;
ALTER TABLE tournament ADD COLUMN next_set_ms BIGINT NOT NULL DEFAULT 0;
