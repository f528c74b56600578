//! The bot images a seat's container starts: their references and their layout. Building
//! them is the `mjai-sim-images` crate's (`mjai-sim image build`); a game only checks that
//! the daemon has the image ([`super::require_image`]).
//!
//! Each reference is tagged with the first 12 hex digits of the sha256 of the image's
//! inputs ([`inputs`]: the docker/ folder, embedded at compile time), so that a change of
//! them names a new image (issue 4): `mjai-sim-bot:<tag>` ([`default_image`]) and the ml
//! image `mjai-sim-bot-ml:<tag>` ([`ml_image`]: the default one plus mjai.app's torch 2.2.2
//! and numpy 1.26.4).
//!
//! Image layout: Python 3.11 (`python3`, also `python`), the pinned packages of
//! docker/requirements.txt (mjai 0.2.1, mahjong 1.2.x, numpy, loguru, requests), user `bot`
//! (uid/gid [`BOT_UID`]) as the default user, working folder [`BOT_DIR`], the http relay at
//! [`RELAY_PATH`] (`python3 -u RELAY_PATH SEAT [--zip ZIP]` serves port [`RELAY_PORT`]; default
//! command: the relay for seat 0 in [`BOT_DIR`]).

pub mod inputs;

pub use inputs::{input_hash, ml_input_hash};

/// Repository name of the bot image.
pub const IMAGE_REPO: &str = "mjai-sim-bot";
/// Repository name of the ml image.
pub const ML_IMAGE_REPO: &str = "mjai-sim-bot-ml";
/// Where the relay lives in the image.
pub const RELAY_PATH: &str = "/opt/mjai-sim/relay.py";
/// Container port the relay listens on (as mjai.app).
pub const RELAY_PORT: u16 = 3000;
/// The image's working folder, owned by `bot`: where a submission is unpacked.
pub const BOT_DIR: &str = "/workspace";
/// uid and gid of the image's non-root user `bot`.
pub const BOT_UID: u32 = 1000;

/// The image reference games use by default: `mjai-sim-bot:<hash of the docker/ inputs>`.
pub fn default_image() -> String {
    format!("{IMAGE_REPO}:{}", input_hash())
}

/// The ml image reference: `mjai-sim-bot-ml:<hash of the default image's inputs, the ml
/// requirements and the recipe>`.
pub fn ml_image() -> String {
    format!("{ML_IMAGE_REPO}:{}", ml_input_hash())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_image_is_the_repo_tagged_with_the_input_hash() {
        let image = default_image();
        let (repo, tag) = image.split_once(':').unwrap();
        assert_eq!(repo, "mjai-sim-bot");
        assert_eq!(tag.len(), 12);
        assert!(tag.chars().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
        assert_eq!(tag, input_hash());
    }

    #[test]
    fn ml_image_is_its_repo_tagged_with_the_ml_hash() {
        assert_eq!(ml_image(), format!("mjai-sim-bot-ml:{}", ml_input_hash()));
        assert_ne!(ml_image(), default_image());
    }
}
