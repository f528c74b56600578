//! The image inputs embedded at compile time (the docker/ folder) and the tags derived from
//! them; the `mjai-sim-images` crate builds the images from the same bytes. Pure: no I/O.

use sha2::{Digest, Sha256};

/// `docker/Dockerfile`.
pub const DOCKERFILE: &str = include_str!("../../../../docker/Dockerfile");
/// `docker/requirements.txt` (pinned, with sha256 hashes).
pub const REQUIREMENTS: &str = include_str!("../../../../docker/requirements.txt");
/// `docker/relay.py`, the http relay.
pub const RELAY: &str = include_str!("../../../../docker/relay.py");
/// `python/mjai_sim/batch.py`, the helper of batched bots, installed in the image as
/// `mjai_sim.batch` (on `PYTHONPATH`, `/opt/mjai-sim/python`).
pub const BATCH_PY: &str = crate::batch::BATCH_PY;
/// `docker/requirements-ml.txt`: what the ml image adds (mjai.app's torch 2.2.2 and numpy
/// 1.26.4 with torch's dependencies), pinned with sha256 hashes.
pub const REQUIREMENTS_ML: &str = include_str!("../../../../docker/requirements-ml.txt");
/// How the ml image is made from the default one (part of its tag): the pip command run in a
/// container of the default image, with the wheels mounted read-only at `/wheels`.
pub const ML_RECIPE: &str = "python3 -m pip install --no-index --find-links /wheels --require-hashes \
    -r /wheels-requirements/requirements.txt";

/// How the fallback base is made: `debootstrap --variant=VARIANT --include=INCLUDE SUITE`.
/// Debian bookworm ships Python 3.11 (3.11.2).
pub const DEBOOTSTRAP_SUITE: &str = "bookworm";
/// debootstrap variant (minbase: essential packages and apt only).
pub const DEBOOTSTRAP_VARIANT: &str = "minbase";
/// Packages added to the minbase system.
pub const DEBOOTSTRAP_INCLUDE: &str = "python3,python3-pip";

/// The files of the build context besides the wheels: (name in the context, contents).
pub fn context_files() -> [(&'static str, &'static str); 4] {
    [("Dockerfile", DOCKERFILE), ("requirements.txt", REQUIREMENTS), ("relay.py", RELAY), ("batch.py", BATCH_PY)]
}

/// The first 12 hex digits of the sha256 of `files`, each hashed as `name NUL length NUL bytes`
/// so that moving bytes between files changes the result.
pub fn hash_files(files: &[(&str, &[u8])]) -> String {
    let mut h = Sha256::new();
    for (name, bytes) in files {
        h.update(name.as_bytes());
        h.update([0]);
        h.update(bytes.len().to_string().as_bytes());
        h.update([0]);
        h.update(bytes);
    }
    hex::encode(h.finalize())[..12].to_string()
}

/// The recipe line of the debootstrap base (part of the inputs: changing it changes the tags).
pub fn debootstrap_recipe() -> String {
    format!("{DEBOOTSTRAP_SUITE} --variant={DEBOOTSTRAP_VARIANT} --include={DEBOOTSTRAP_INCLUDE}")
}

/// The 12-hex-digit hash of the embedded docker/ inputs (Dockerfile, requirements.txt,
/// relay.py, the debootstrap recipe): the tag of the bot image.
pub fn input_hash() -> String {
    let recipe = debootstrap_recipe();
    let mut files: Vec<(&str, &[u8])> = context_files().iter().map(|(n, s)| (*n, s.as_bytes())).collect();
    files.push(("debootstrap", recipe.as_bytes()));
    hash_files(&files)
}

/// The 12-hex-digit tag of the ml image: the default image's tag, docker/requirements-ml.txt
/// and [`ML_RECIPE`] (a change of any rebuilds it).
pub fn ml_input_hash() -> String {
    let base = input_hash();
    hash_files(&[
        ("base", base.as_bytes()),
        ("requirements-ml.txt", REQUIREMENTS_ML.as_bytes()),
        ("recipe", ML_RECIPE.as_bytes()),
    ])
}

/// The 12-hex-digit hash of the debootstrap recipe alone: the tag of the fallback base image.
pub fn base_hash() -> String {
    let recipe = debootstrap_recipe();
    hash_files(&[("debootstrap", recipe.as_bytes())])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_changes_when_bytes_move_between_files() {
        let a = hash_files(&[("x", b"ab"), ("y", b"c")]);
        let b = hash_files(&[("x", b"a"), ("y", b"bc")]);
        assert_ne!(a, b);
        // python3 -c "import hashlib; print(hashlib.sha256(b'x\0' b'2\0ab' b'y\0' b'1\0c').hexdigest()[:12])"
        assert_eq!(a, "577f904a6b20");
    }

    #[test]
    fn ml_tag_differs_from_the_default_tag() {
        assert_ne!(ml_input_hash(), input_hash());
        assert_eq!(ml_input_hash().len(), 12);
    }

    #[test]
    fn input_hash_covers_the_base_recipe() {
        assert_ne!(input_hash(), base_hash());
        assert_eq!(input_hash(), input_hash());
    }
}
