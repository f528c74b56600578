//! Built-in bots: pure deciders over mjai events (issue 3).
