//! The bot image: build through the Docker API, tag by input hash (issue 4).

/// Repository name of the bot image.
pub const IMAGE_REPO: &str = "mjai-sim-bot";

/// The image reference games use by default: `mjai-sim-bot:<hash of the docker/ inputs>`.
/// (Placeholder until the image builder lands: the development tag.)
pub fn default_image() -> String {
    format!("{IMAGE_REPO}:dev")
}
