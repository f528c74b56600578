//! Local child-process runtime (issue 4).
