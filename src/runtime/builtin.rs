//! In-process runtime for built-in bots (issue 3).
