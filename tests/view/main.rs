//! The game viewer, the report and the grading server's pages: data, escaping, headless Chromium.
//!
//! One binary (`cargo test --test view`), a module per former test file; shared helpers in
//! the support modules below. Where a new test goes: tests/README.md.

#[path = "../browser_support/mod.rs"]
mod browser_support;
#[path = "../sanma_support/mod.rs"]
mod sanma_support;

mod view_browser;
mod view_data;
mod view_sanma;
mod view_site;
mod view_tiles;
