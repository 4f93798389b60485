//! What a commit would contain: the staged tree, copied out of the index into
//! a scratch directory, so the pre-commit check judges the commit rather than
//! the working tree (a source change staged without its rebuilt lockfile must
//! fail even when the working tree holds the rebuilt one, and the other way
//! round). The index a hook is given (`GIT_INDEX_FILE`, a temporary index for
//! `git commit -a` or `git commit PATH`) is the one read; nothing is written
//! to the index, the working tree or refs.

use std::path::{Path, PathBuf};

use super::{command_in, first_line, Repo};
use crate::error::InputError;

/// The staged tree, copied into a directory that is removed on drop.
#[derive(Debug)]
pub struct StagedTree {
    /// The copy: the repository's files at the same relative paths.
    pub dir: PathBuf,
    /// Staged paths that differ from `HEAD` (relative to the repository, `/`-separated).
    pub changed: Vec<String>,
}

impl Drop for StagedTree {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The index a hook would commit: the hook's `GIT_INDEX_FILE` (relative to
/// the directory git started the hook in, the work tree root) or the default.
pub(crate) fn index_file(repo: &Repo) -> Option<PathBuf> {
    let given = std::env::var_os("GIT_INDEX_FILE")?;
    let path = PathBuf::from(given);
    Some(if path.is_absolute() {
        path
    } else {
        std::env::current_dir()
            .map(|d| d.join(&path))
            .unwrap_or_else(|_| repo.root.join(path))
    })
}

fn git_with_index(repo: &Repo, index: Option<&Path>, args: &[&str]) -> Result<Vec<u8>, InputError> {
    let mut cmd = command_in(&repo.root);
    if let Some(i) = index {
        cmd.env("GIT_INDEX_FILE", i);
    }
    let out = cmd.args(args).output().map_err(|e| {
        InputError::new("git", format!("cannot run git: {e}")).fix("install git and put it on PATH")
    })?;
    if !out.status.success() {
        return Err(InputError::new(
            repo.root.display().to_string(),
            format!(
                "`git {}` failed: {}",
                args.join(" "),
                first_line(&String::from_utf8_lossy(&out.stderr))
            ),
        )
        .fix("check the repository with `git status`"));
    }
    Ok(out.stdout)
}

/// Copies the staged tree of `repo` into a new scratch directory.
pub fn export(repo: &Repo) -> Result<StagedTree, InputError> {
    let index = index_file(repo);
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    let dir = std::env::temp_dir().join(format!(
        "mcp-contract-staged-{}-{stamp}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).map_err(|e| {
        InputError::new(dir.display().to_string(), format!("cannot create: {e}"))
            .fix("check that the temporary directory is writable (TMPDIR)")
    })?;
    let mut tree = StagedTree {
        dir,
        changed: vec![],
    };
    let prefix = format!("{}/", tree.dir.display());
    git_with_index(
        repo,
        index.as_deref(),
        &[
            "checkout-index",
            "--all",
            "--force",
            &format!("--prefix={prefix}"),
        ],
    )?;
    // Against HEAD when there is one; in a repository without commits every
    // staged file is new.
    let has_head = git_with_index(repo, None, &["rev-parse", "--verify", "-q", "HEAD"]).is_ok();
    let listed = if has_head {
        git_with_index(
            repo,
            index.as_deref(),
            &["diff", "--cached", "--name-only", "-z", "HEAD"],
        )?
    } else {
        git_with_index(repo, index.as_deref(), &["ls-files", "-z"])?
    };
    tree.changed = listed
        .split(|b| *b == 0)
        .filter(|p| !p.is_empty())
        .map(|p| String::from_utf8_lossy(p).into_owned())
        .collect();
    Ok(tree)
}
