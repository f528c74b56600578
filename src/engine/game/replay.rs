//! Replay of an mjai log through the engine (filled in below).
