//! Fu (issue 2).
