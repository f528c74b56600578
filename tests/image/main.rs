//! The bot image: `mjai-sim image build` and `image status`.
//!
//! One binary (`cargo test --test image`), a module per former test file; shared helpers in
//! the support modules below. Where a new test goes: tests/README.md.

mod image_build;
mod image_cli;
