//! Files a pull request controls are read only from inside the repository.
//!
//! The merge gate runs on pull requests from people nobody vetted. The
//! lockfile, the migration record and the contract fixtures are files of that
//! pull request, so each may be a symbolic link (git stores links) pointing
//! at `/etc/…`, at a CI secret, or through `..` out of the checkout. The
//! lockfile and the record may be links only to files inside the same work
//! tree; contract fixtures (`contracts/fixtures/<tool>/<name>.json`) may not
//! be links at all — nothing needs them to be, and refusing is simpler to
//! reason about than resolving. Fixtures are written (`check
//! --write-fixtures`) through the same confinement they are read through
//! ([`fixture_path`]), so a committed link cannot redirect a write either.

use std::path::{Path, PathBuf};

use crate::error::InputError;

/// Refuses `path` when it is a symbolic link (or sits below one) that
/// resolves outside `root` (a canonical directory). A path that does not
/// exist passes: the caller reports absence in its own words.
pub fn inside(path: &Path, root: &Path, what: &str) -> Result<(), InputError> {
    if std::fs::symlink_metadata(path).is_err() {
        return Ok(());
    }
    let shown = path.display().to_string();
    match std::fs::canonicalize(path) {
        Ok(real) if real.starts_with(root) => Ok(()),
        Ok(real) => Err(InputError::new(
            &shown,
            format!(
                "the {what} is a symbolic link to {}, outside the repository {}: a pull request could make the gate read any file",
                real.display(),
                root.display()
            ),
        )
        .fix(format!("commit the {what} itself instead of a link to it"))),
        Err(e) => Err(InputError::new(
            &shown,
            format!("the {what} is a symbolic link that cannot be followed: {e}"),
        )
        .fix(format!("commit the {what} itself instead of a link to it"))),
    }
}

/// Refuses `path` when it is a symbolic link (not following it).
pub fn not_a_link(path: &Path, what: &str) -> Result<(), InputError> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => Err(InputError::new(
            path.display().to_string(),
            format!(
                "the {what} is a symbolic link: contract fixtures are read and written only as files inside the repository, never through links"
            ),
        )
        .fix("replace the link with a copy of the file (or directory) it points to")),
        _ => Ok(()),
    }
}

/// The one confinement of the fixture layout (`<dir>/<tool>/<name>.json`),
/// for reads and writes alike: `dir` joined with `parts` (a tool directory,
/// then a file), refusing the fixtures directory and every part that is a
/// symbolic link, before anything is read from or written to it. Parts that
/// do not exist yet pass (a writer creates them, as directories and files).
pub fn fixture_path<P: AsRef<Path>>(dir: &Path, parts: &[P]) -> Result<PathBuf, InputError> {
    not_a_link(dir, "fixtures directory")?;
    let mut path = dir.to_path_buf();
    for (i, part) in parts.iter().enumerate() {
        path.push(part);
        let what = if i + 1 < parts.len() || parts.len() == 1 {
            "fixture directory"
        } else {
            "fixture"
        };
        not_a_link(&path, what)?;
    }
    Ok(path)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn every_level_of_the_fixture_layout_may_not_be_a_link() {
        let tmp = tempfile::tempdir().unwrap();
        let outside = tmp.path().join("outside");
        std::fs::create_dir_all(outside.join("t")).unwrap();
        std::fs::write(outside.join("t/f.json"), "{}").unwrap();
        let link_root = tmp.path().join("linked");
        std::os::unix::fs::symlink(&outside, &link_root).unwrap();
        let e = fixture_path(&link_root, &["t", "f.json"]).unwrap_err();
        assert!(
            e.message
                .contains("the fixtures directory is a symbolic link"),
            "{e}"
        );

        let real = tmp.path().join("real");
        std::fs::create_dir_all(&real).unwrap();
        std::os::unix::fs::symlink(outside.join("t"), real.join("t")).unwrap();
        let e = fixture_path(&real, &["t", "f.json"]).unwrap_err();
        assert!(
            e.message
                .contains("the fixture directory is a symbolic link"),
            "{e}"
        );

        std::fs::create_dir_all(real.join("u")).unwrap();
        std::os::unix::fs::symlink(outside.join("t/f.json"), real.join("u/f.json")).unwrap();
        let e = fixture_path(&real, &["u", "f.json"]).unwrap_err();
        assert!(e.message.contains("the fixture is a symbolic link"), "{e}");

        assert_eq!(
            fixture_path(&real, &["new", "g.json"]).unwrap(),
            real.join("new/g.json")
        );
    }
}
