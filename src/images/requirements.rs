//! The pinned requirements of the bot images (docker/requirements.txt and
//! docker/requirements-ml.txt, embedded in the runtime's `docker::image::inputs`): each
//! `name==version` with the sha256 digests a wheel must have. Pure: no I/O.

/// One pinned requirement of requirements.txt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Requirement {
    /// `name==version` as written.
    pub spec: String,
    /// The accepted wheel sha256 digests (lowercase hex).
    pub hashes: Vec<String>,
}

/// Parses a pip requirements file in hash-checking mode: each requirement `name==version`
/// followed by `--hash=sha256:HEX` options (continuation lines with `\`); comments ignored.
pub fn parse_requirements(text: &str) -> Vec<Requirement> {
    let mut out: Vec<Requirement> = Vec::new();
    let joined = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .collect::<Vec<_>>()
        .join("\n")
        .replace("\\\n", " ");
    for line in joined.lines() {
        let mut words = line.split_whitespace();
        let Some(spec) = words.next() else { continue };
        if spec.starts_with('-') {
            continue;
        }
        let hashes = words.filter_map(|w| w.strip_prefix("--hash=sha256:")).map(|h| h.to_ascii_lowercase()).collect();
        out.push(Requirement { spec: spec.to_string(), hashes });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use mjai_sim_runtime::docker::image::inputs::{REQUIREMENTS, REQUIREMENTS_ML};

    #[test]
    fn embedded_requirements_pin_every_package_with_a_hash() {
        let reqs = parse_requirements(REQUIREMENTS);
        let names: Vec<&str> = reqs.iter().map(|r| r.spec.split("==").next().unwrap()).collect();
        for needed in ["mjai", "mahjong", "numpy", "loguru", "requests"] {
            assert!(names.contains(&needed), "{needed} missing from requirements.txt");
        }
        assert!(reqs.iter().any(|r| r.spec == "mjai==0.2.1"));
        assert!(reqs.iter().any(|r| r.spec.starts_with("mahjong==1.2.")), "mjai 0.2.1 needs mahjong ~= 1.2.0");
        for r in &reqs {
            assert!(r.spec.contains("=="), "{} is not pinned", r.spec);
            assert_eq!(r.hashes.len(), 1, "{} must have one hash", r.spec);
            assert_eq!(r.hashes[0].len(), 64);
        }
    }

    #[test]
    fn parse_requirements_joins_continuations_and_skips_comments() {
        let text = "# c\nfoo==1.0 \\\n    --hash=sha256:AB \\\n    --hash=sha256:cd\n\nbar==2 --hash=sha256:ef # x\n";
        let reqs = parse_requirements(text);
        assert_eq!(
            reqs,
            vec![
                Requirement { spec: "foo==1.0".into(), hashes: vec!["ab".into(), "cd".into()] },
                Requirement { spec: "bar==2".into(), hashes: vec!["ef".into()] },
            ]
        );
    }

    #[test]
    fn ml_requirements_pin_mjai_apps_torch_and_numpy_with_a_hash_each() {
        let reqs = parse_requirements(REQUIREMENTS_ML);
        assert!(reqs.iter().any(|r| r.spec == "torch==2.2.2"), "mjai.app pins torch 2.2.2");
        assert!(reqs.iter().any(|r| r.spec == "numpy==1.26.4"), "mjai.app pins numpy 1.26.4");
        for r in &reqs {
            assert!(r.spec.contains("=="), "{} is not pinned", r.spec);
            assert_eq!(r.hashes.len(), 1, "{} must have one hash", r.spec);
            assert_eq!(r.hashes[0].len(), 64);
        }
    }
}
