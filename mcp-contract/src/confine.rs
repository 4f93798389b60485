//! Files a pull request controls are read only from inside the repository.
//!
//! The merge gate runs on pull requests from people nobody vetted. The
//! lockfile, the migration record and the contract fixtures are files of that
//! pull request, so each may be a symbolic link (git stores links) pointing
//! at `/etc/…`, at a CI secret, or through `..` out of the checkout. The
//! lockfile and the record may be links only to files inside the same work
//! tree; contract fixtures (`contracts/fixtures/<tool>/<name>.json`) may not
//! be links at all — nothing needs them to be, and refusing is simpler to
//! reason about than resolving.

use std::path::Path;

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
                "the {what} is a symbolic link: contract fixtures are read only as files inside the repository, never through links"
            ),
        )
        .fix("replace the link with a copy of the file (or directory) it points to")),
        _ => Ok(()),
    }
}
