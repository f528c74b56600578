-- Live hands (issue 39, item 3: watching a running game one hand behind): each finished
-- hand of a running league game, as the player of the game (the server or a worker)
-- publishes it at its end_kyoku. events: a JSON array of the hand's mjai events (hand 0
-- starts with start_game), none of a hand still in play. Rows go when the game is recorded,
-- failed or handed back; a game played again starts over at hand 0.
CREATE TABLE live_hands (
    t BIGINT NOT NULL,
    game_idx BIGINT NOT NULL,
    hand BIGINT NOT NULL,
    events TEXT NOT NULL,
    PRIMARY KEY (t, game_idx, hand)
);
