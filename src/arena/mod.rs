//! The match loop: one game, four bots, logs and summary (issue 5).
