//! Agari detection and decompositions (issue 2).
