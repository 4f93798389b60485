//! Crash-safe file replacement for everything this project writes into a
//! repository (lockfiles, the compatibility plan, the git hook).
//!
//! A build script can be killed at any moment (Ctrl-C, an IDE cancelling
//! rust-analyzer's `cargo check`), and two builds of the same package with
//! different target directories can write the same lockfile at once. Either
//! way the lockfile must afterwards hold the old or the new contents, never
//! a mix or a truncation. So a write is: a temporary file created beside the
//! target (same directory, so the same file system), the bytes written and
//! `fsync`ed, a `rename` over the target (atomic on POSIX), and an `fsync`
//! of the directory so the rename itself survives a power loss.
//!
//! Every step is reported to an observer ([`write_observed`]), which is how
//! the tests stop the writer between steps and kill it there
//! (`mcp-contract/tests/atomic_write.rs`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The points between the steps of an atomic write, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The temporary file exists and is empty.
    TempCreated,
    /// Half of the bytes are in the temporary file.
    TempHalfWritten,
    /// All bytes are in the temporary file (perhaps only in the page cache).
    TempWritten,
    /// The temporary file's contents are on disk.
    TempSynced,
    /// The target name points at the new contents.
    Renamed,
    /// The directory entry is on disk: the write is complete.
    DirSynced,
}

impl Step {
    /// Every step, in the order they happen.
    pub const ALL: [Step; 6] = [
        Step::TempCreated,
        Step::TempHalfWritten,
        Step::TempWritten,
        Step::TempSynced,
        Step::Renamed,
        Step::DirSynced,
    ];
}

/// Replaces `path` with `contents` atomically, creating parent directories.
pub fn write(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    write_observed(path, contents, &mut |_| {})
}

/// [`write`], calling `observe` after each [`Step`].
pub fn write_observed(
    path: &Path,
    contents: &[u8],
    observe: &mut dyn FnMut(Step),
) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let tmp = temp_path(dir, path);
    let result = write_temp(&tmp, contents, observe).and_then(|()| {
        std::fs::rename(&tmp, path)?;
        observe(Step::Renamed);
        sync_dir(dir)?;
        observe(Step::DirSynced);
        Ok(())
    });
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

fn write_temp(tmp: &Path, contents: &[u8], observe: &mut dyn FnMut(Step)) -> std::io::Result<()> {
    // `create_new`: never follow or reuse a name someone else placed there.
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(tmp)?;
    observe(Step::TempCreated);
    let half = contents.len() / 2;
    file.write_all(&contents[..half])?;
    file.flush()?;
    observe(Step::TempHalfWritten);
    file.write_all(&contents[half..])?;
    file.flush()?;
    observe(Step::TempWritten);
    file.sync_all()?;
    observe(Step::TempSynced);
    Ok(())
}

/// A name beside `target` that no other writer (process or thread) uses:
/// `.NAME.PID.N.tmp`.
fn temp_path(dir: &Path, target: &Path) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let name = target
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    dir.join(format!(".{name}.{}.{n}.tmp", std::process::id()))
}

/// Makes a rename in `dir` durable. Directories cannot be opened for
/// syncing on every platform; where they cannot, the rename is still atomic.
fn sync_dir(dir: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        std::fs::File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_and_reports_every_step_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/x.lock");
        let mut seen = vec![];
        write_observed(&path, b"new contents", &mut |s| seen.push(s)).unwrap();
        assert_eq!(seen, Step::ALL);
        assert_eq!(std::fs::read(&path).unwrap(), b"new contents");
        write(&path, b"again").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"again");
        // No temporary file is left behind.
        let names: Vec<_> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["x.lock"]);
    }

    #[test]
    fn a_failed_rename_leaves_the_target_and_no_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        // A directory in the way: the rename fails.
        let path = dir.path().join("x.lock");
        std::fs::create_dir(&path).unwrap();
        std::fs::write(path.join("keep"), b"k").unwrap();
        assert!(write(&path, b"new").is_err());
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["x.lock"]);
        assert_eq!(std::fs::read(path.join("keep")).unwrap(), b"k");
    }
}
