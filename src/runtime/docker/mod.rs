//! Docker runtime through bollard (issue 4).

pub mod http;
pub mod image;
