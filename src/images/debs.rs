//! Debian packages for mjai-sim's own image ([`super::server`]): postgresql-15 and the
//! closure of its dependencies, fetched on the host with `apt-get download` into a folder
//! (the image build installs from that folder, never from a mirror).

use std::path::{Path, PathBuf};

use super::error::ImageError;
use super::ProgressLine;

/// The package the image installs (the stack's database: PostgreSQL 15, Debian bookworm's).
pub const POSTGRES_PACKAGE: &str = "postgresql-15";
/// Written into the folder once every package was downloaded.
const COMPLETE: &str = ".complete";

/// The shell command an operator runs on a Debian bookworm host to fill `dir` by hand.
pub fn manual_command(dir: &Path) -> String {
    format!(
        "cd {} && apt-get download $(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
         --no-breaks --no-replaces --no-enhances {POSTGRES_PACKAGE} | grep '^[a-z0-9]' | sort -u) && touch {COMPLETE}",
        dir.display()
    )
}

/// The `.deb` files of `dir`, sorted.
fn debs_in(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "deb") && path.is_file() {
            out.push(path);
        }
    }
    out.sort();
    Ok(out)
}

/// The package names of `apt-cache depends --recurse` output: the unindented lines that
/// are not virtual packages (`<name>`), deduplicated, sorted.
pub fn closure_names(apt_cache_output: &str) -> Vec<String> {
    let mut names: Vec<String> = apt_cache_output
        .lines()
        .filter(|l| !l.starts_with(' ') && !l.starts_with('<') && !l.trim().is_empty())
        .map(|l| l.trim().to_string())
        .collect();
    names.sort();
    names.dedup();
    names
}

/// Returns the packages in `dir`, first downloading them there (`apt-cache depends
/// --recurse`, then `apt-get download`) unless the folder says it is complete; `download`
/// false: the folder must be complete already. Errors: [`ImageError::Debs`] naming the
/// cause and the command that fills the folder by hand.
pub async fn ensure_debs(dir: &Path, download: bool, progress: ProgressLine<'_>) -> Result<Vec<PathBuf>, ImageError> {
    let fail = |cause: String| ImageError::Debs { cause, command: manual_command(dir) };
    if dir.join(COMPLETE).is_file() {
        let debs = debs_in(dir).map_err(ImageError::io(format!("listing {}", dir.display())))?;
        if debs.iter().any(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("postgresql-15_"))) {
            return Ok(debs);
        }
    }
    if !download {
        return Err(fail(format!("{} holds no complete download", dir.display())));
    }
    let codename = std::fs::read_to_string("/etc/os-release")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("VERSION_CODENAME=").map(|v| v.trim_matches('"').to_string()))
        .unwrap_or_default();
    if codename != "bookworm" {
        return Err(fail(format!("this host is not Debian bookworm (`{codename}`), whose packages the image needs")));
    }
    std::fs::create_dir_all(dir).map_err(ImageError::io(format!("creating {}", dir.display())))?;
    progress(&format!("packages: apt-get download of {POSTGRES_PACKAGE} and its dependencies into {}", dir.display()));
    let depends = tokio::process::Command::new("apt-cache")
        .args(["depends", "--recurse", "--no-recommends", "--no-suggests", "--no-conflicts", "--no-breaks"])
        .args(["--no-replaces", "--no-enhances", POSTGRES_PACKAGE])
        .stdin(std::process::Stdio::null())
        .output()
        .await
        .map_err(|e| fail(format!("cannot run apt-cache: {e}")))?;
    let names = closure_names(&String::from_utf8_lossy(&depends.stdout));
    if !depends.status.success() || !names.iter().any(|n| n == POSTGRES_PACKAGE) {
        let err = String::from_utf8_lossy(&depends.stderr);
        return Err(fail(format!("apt-cache knows no {POSTGRES_PACKAGE} ({})", err.trim())));
    }
    let got = tokio::process::Command::new("apt-get")
        .arg("download")
        .args(&names)
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .output()
        .await
        .map_err(|e| fail(format!("cannot run apt-get: {e}")))?;
    if !got.status.success() {
        let err = String::from_utf8_lossy(&got.stderr);
        let last = err.lines().rev().find(|l| l.starts_with("E:")).unwrap_or("no message").trim().to_string();
        return Err(fail(format!("apt-get download failed: {last}")));
    }
    std::fs::write(dir.join(COMPLETE), names.join("\n"))
        .map_err(ImageError::io(format!("writing in {}", dir.display())))?;
    debs_in(dir).map_err(ImageError::io(format!("listing {}", dir.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closure_names_skip_dependency_lines_and_virtual_packages() {
        let out = "postgresql-15\n  Depends: libc6\n  Depends: <locales-all>\nlibc6\n<locales-all>\nlibc6\ntzdata\n";
        assert_eq!(closure_names(out), ["libc6", "postgresql-15", "tzdata"]);
    }

    #[test]
    fn manual_command_names_the_folder_and_the_package() {
        let c = manual_command(Path::new("/x/debs"));
        assert!(c.starts_with("cd /x/debs && apt-get download") && c.contains("postgresql-15"), "{c}");
    }
}
