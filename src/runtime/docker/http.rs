//! The http transport (mjai.app-compatible relay) (issue 4).
