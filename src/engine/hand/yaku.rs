//! Yaku (issue 2).
