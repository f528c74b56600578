//! The structure: layers and imports read off the source files, the crates of the workspace.
//!
//! One binary (`cargo test --test layering`), a module per former test file; shared helpers in
//! the support modules below. Where a new test goes: tests/README.md.

mod crates;
mod engine_crate;
mod imports;
