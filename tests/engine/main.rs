//! The rules engine: game scenarios on arranged walls, rule presets, yaku and yakuman, hand evaluation on bad input, cross-checks of shanten and scoring, the verifier under fuzzing, self-play determinism and invariants.
//!
//! One binary (`cargo test --test engine`), a module per former test file; shared helpers in
//! the support modules below. Where a new test goes: tests/README.md.

#[path = "../common/mod.rs"]
mod common;
#[path = "../game_support/mod.rs"]
mod game_support;
#[path = "../selfplay_support/mod.rs"]
mod selfplay_support;

mod diff_scoring;
mod diff_shanten;
mod game_calls;
mod game_chankan;
mod game_draws;
mod game_riichi;
mod game_special;
mod hand_robustness;
mod rules_presets;
mod sanma_crosscheck;
mod sanma_selfplay;
mod selfplay_determinism;
mod selfplay_invariants;
mod verify_fuzz;
mod yaku_rules;
mod yakuman_rules;
