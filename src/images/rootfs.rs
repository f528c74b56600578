//! A debootstrap root filesystem as a tar stream for `docker import`: ownership, modes and
//! symlinks kept; device nodes, mount points' contents, apt caches and documentation left out
//! (Docker provides /dev, /proc and /sys in every container).

use std::io::{self, Write};
use std::path::Path;

/// Folders whose contents are left out of the image (the folders themselves are kept).
pub const EMPTIED: &[&str] = &[
    "dev",
    "proc",
    "sys",
    "run",
    "tmp",
    "var/cache/apt",
    "var/lib/apt/lists",
    "usr/share/doc",
    "usr/share/man",
    "usr/share/info",
    "debootstrap",
];

/// Writes the tree under `root` as a tar archive (paths relative to `root`, in sorted order) to
/// `out`; returns the number of entries. Regular files, folders and symlinks are kept with their
/// owner, mode and mtime; sockets, fifos and device nodes are skipped.
pub fn write_rootfs_tar<W: Write>(root: &Path, out: W) -> io::Result<u64> {
    let mut builder = tar::Builder::new(out);
    builder.follow_symlinks(false);
    builder.mode(tar::HeaderMode::Complete);
    let mut count = 0;
    walk(&mut builder, root, Path::new(""), &mut count)?;
    builder.into_inner()?.flush()?;
    Ok(count)
}

fn walk<W: Write>(b: &mut tar::Builder<W>, root: &Path, rel: &Path, count: &mut u64) -> io::Result<()> {
    let dir = root.join(rel);
    let mut names: Vec<_> = std::fs::read_dir(&dir)?.map(|e| e.map(|e| e.file_name())).collect::<Result<_, _>>()?;
    names.sort();
    for name in names {
        let rel_child = rel.join(&name);
        let abs = root.join(&rel_child);
        let meta = std::fs::symlink_metadata(&abs)?;
        let ft = meta.file_type();
        if ft.is_dir() {
            b.append_dir(&rel_child, &abs)?;
            *count += 1;
            let emptied = EMPTIED.iter().any(|e| Path::new(e) == rel_child);
            if !emptied {
                walk(b, root, &rel_child, count)?;
            }
        } else if ft.is_file() || ft.is_symlink() {
            b.append_path_with_name(&abs, &rel_child)?;
            *count += 1;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn keeps_files_dirs_symlinks_and_modes_and_empties_mount_points() {
        let root = tempfile::tempdir().unwrap();
        let r = root.path();
        std::fs::create_dir_all(r.join("usr/bin")).unwrap();
        std::fs::create_dir_all(r.join("dev")).unwrap();
        std::fs::create_dir_all(r.join("tmp")).unwrap();
        std::fs::write(r.join("usr/bin/python3.11"), b"elf").unwrap();
        std::fs::set_permissions(r.join("usr/bin/python3.11"), std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::set_permissions(r.join("tmp"), std::fs::Permissions::from_mode(0o1777)).unwrap();
        std::os::unix::fs::symlink("python3.11", r.join("usr/bin/python3")).unwrap();
        std::fs::write(r.join("dev/null"), b"not a device").unwrap();

        let mut buf = Vec::new();
        let n = write_rootfs_tar(r, &mut buf).unwrap();
        assert_eq!(n, 6);

        let mut archive = tar::Archive::new(&buf[..]);
        let mut seen = Vec::new();
        for e in archive.entries().unwrap() {
            let e = e.unwrap();
            let path = e.path().unwrap().to_string_lossy().trim_end_matches('/').to_string();
            let h = e.header();
            match path.as_str() {
                "usr/bin/python3" => {
                    assert!(h.entry_type().is_symlink());
                    assert_eq!(e.link_name().unwrap().unwrap().to_str(), Some("python3.11"));
                }
                "usr/bin/python3.11" => assert_eq!(h.mode().unwrap() & 0o7777, 0o755),
                "tmp" => assert_eq!(h.mode().unwrap() & 0o7777, 0o1777),
                _ => {}
            }
            seen.push(path);
        }
        assert_eq!(seen, ["dev", "tmp", "usr", "usr/bin", "usr/bin/python3", "usr/bin/python3.11"]);
    }
}
