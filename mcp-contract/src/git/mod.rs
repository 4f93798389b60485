//! Reading lockfiles out of git history with the `git` command-line tool
//! (no libgit2/gix: compile time matters, and `git` is wherever a checkout
//! is). Every invocation runs with a clean `GIT_*` environment (a pre-commit
//! hook exports `GIT_INDEX_FILE` and friends, which would otherwise leak in),
//! `core.quotepath=off`, literal pathspecs, no pager, no colour, no external
//! diff, and never takes the index lock. Nothing here writes to the working
//! tree, the index or refs.
//!
//! Every failure is an [`InputError`] with the exact fix: git missing, not a
//! repository, no commits, shallow clone, unknown revision, detached HEAD.

mod baseline;
pub mod hook;
mod log;
pub mod moved;
pub mod staged;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::error::InputError;

pub use baseline::{resolve_baseline, Baseline};
pub use log::{lockfile_revisions, BlobReader, Revision};

/// Variables that redirect git away from the repository we discovered.
const SCRUBBED_ENV: &[&str] = &[
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_PREFIX",
    "GIT_COMMON_DIR",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_NAMESPACE",
    "GIT_CEILING_DIRECTORIES",
    "GIT_DISCOVERY_ACROSS_FILESYSTEM",
    "GIT_EXTERNAL_DIFF",
    "GIT_DIFF_OPTS",
    "GIT_PAGER",
    "GIT_GRAFT_FILE",
    "GIT_REPLACE_REF_BASE",
    "GIT_NO_REPLACE_OBJECTS",
    "GIT_SHALLOW_FILE",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
    "GIT_ICASE_PATHSPECS",
    "GIT_GLOB_PATHSPECS",
    "GIT_NOGLOB_PATHSPECS",
];

/// A git work tree (possibly a linked worktree) and a file inside it.
#[derive(Debug, Clone)]
pub struct Repo {
    /// The top of the work tree, canonicalized.
    pub root: PathBuf,
    /// Whether the clone is shallow, asked with the root in one process.
    shallow: bool,
}

/// What a git invocation printed.
pub(crate) struct GitOutput {
    pub ok: bool,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Repo {
    /// Finds the work tree containing `path` (which need not exist: the
    /// nearest existing ancestor is asked).
    pub fn discover(path: &Path) -> Result<Repo, InputError> {
        let dir = nearest_existing_dir(path);
        // One process for both answers (a check spawns a few git processes,
        // and each costs about a millisecond).
        let out = run_in(
            &dir,
            ["rev-parse", "--show-toplevel", "--is-shallow-repository"],
        )?;
        if !out.ok {
            return Err(InputError::new(
                path.display().to_string(),
                format!("not inside a git work tree ({})", first_line(&out.stderr)),
            )
            .fix("run the check inside a git checkout of the project (the baseline is read from git history)"));
        }
        let stdout = String::from_utf8_lossy(&out.stdout);
        let (top, shallow) = toplevel_and_shallow(&stdout);
        let root = std::fs::canonicalize(top).unwrap_or_else(|_| PathBuf::from(top));
        Ok(Repo { root, shallow })
    }

    /// `path` relative to the work tree root, with `/` separators.
    pub fn relative(&self, path: &Path) -> Result<String, InputError> {
        let abs = absolute(path);
        let rel = abs.strip_prefix(&self.root).map_err(|_| {
            InputError::new(
                path.display().to_string(),
                format!("is outside the git work tree {}", self.root.display()),
            )
            .fix("pass a lockfile inside the repository")
        })?;
        let parts: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        Ok(parts.join("/"))
    }

    /// Runs git at the work tree root.
    pub(crate) fn git<I, S>(&self, args: I) -> Result<GitOutput, InputError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        run_in(&self.root, args)
    }

    /// Runs git and returns trimmed stdout, or an error naming the command.
    pub(crate) fn git_ok<I, S>(&self, args: I) -> Result<String, InputError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let args: Vec<S> = args.into_iter().collect();
        let shown = args
            .iter()
            .map(|a| a.as_ref().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(" ");
        let out = self.git(&args)?;
        if !out.ok {
            return Err(git_failed(&shown, &out.stderr));
        }
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
    }

    /// A command prepared with the clean environment, at the root.
    pub(crate) fn command(&self) -> Command {
        command_in(&self.root)
    }

    /// Is this a shallow clone (history cut off)?
    pub fn is_shallow(&self) -> Result<bool, InputError> {
        Ok(self.shallow)
    }

    /// The commit id of `rev`, or `None` when git does not know it.
    pub fn resolve_commit(&self, rev: &str) -> Result<Option<String>, InputError> {
        let spec = format!("{rev}^{{commit}}");
        let out = self.git([
            "rev-parse",
            "--verify",
            "--quiet",
            "--end-of-options",
            &spec,
        ])?;
        Ok(out
            .ok
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string()))
    }

    /// The abbreviated id of a commit.
    pub fn short(&self, commit: &str) -> String {
        self.git_ok(["rev-parse", "--short", commit])
            .unwrap_or_else(|_| commit.chars().take(7).collect())
    }

    /// The paths of the files under directory `rel_dir` at `commit`
    /// (recursively, `/`-separated from the work tree root); none when the
    /// directory does not exist there.
    pub fn files_at(&self, commit: &str, rel_dir: &str) -> Result<Vec<String>, InputError> {
        let out = self.git(["ls-tree", "-r", "-z", "--name-only", commit, "--", rel_dir])?;
        if !out.ok {
            return Err(git_failed(
                &format!("ls-tree -r {commit} -- {rel_dir}"),
                &out.stderr,
            ));
        }
        Ok(out
            .stdout
            .split(|b| *b == 0)
            .filter(|p| !p.is_empty())
            .map(|p| String::from_utf8_lossy(p).into_owned())
            .collect())
    }

    /// The file's bytes at `commit`, or `None` when it does not exist there.
    pub fn read_at(&self, commit: &str, rel_path: &str) -> Result<Option<Vec<u8>>, InputError> {
        let mut reader = BlobReader::start(self)?;
        let got = reader.read(&format!("{commit}:{rel_path}"))?;
        reader.finish()?;
        Ok(got)
    }
}

/// The output of `rev-parse --show-toplevel --is-shallow-repository`: the
/// path (which may itself hold a newline) and the last line's flag.
fn toplevel_and_shallow(stdout: &str) -> (&str, bool) {
    let text = stdout.strip_suffix('\n').unwrap_or(stdout);
    match text.rsplit_once('\n') {
        Some((top, flag)) => (top, flag == "true"),
        None => (text, false),
    }
}

pub(crate) fn command_in(dir: &Path) -> Command {
    let mut cmd = Command::new("git");
    cmd.current_dir(dir);
    for v in SCRUBBED_ENV {
        cmd.env_remove(v);
    }
    cmd.env("GIT_LITERAL_PATHSPECS", "1")
        .env("GIT_OPTIONAL_LOCKS", "0")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_PAGER", "cat")
        .env("LC_ALL", "C")
        .args([
            "--no-pager",
            "-c",
            "core.quotepath=off",
            "-c",
            "color.ui=false",
            "-c",
            "log.showSignature=false",
        ]);
    cmd
}

fn run_in<I, S>(dir: &Path, args: I) -> Result<GitOutput, InputError>
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut cmd = command_in(dir);
    cmd.args(args).stdin(Stdio::null());
    let out: Output = cmd.output().map_err(spawn_error)?;
    Ok(GitOutput {
        ok: out.status.success(),
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    })
}

pub(crate) fn spawn_error(e: std::io::Error) -> InputError {
    if e.kind() == std::io::ErrorKind::NotFound {
        InputError::new("git", "the `git` command was not found")
            .fix("install git and make sure it is on PATH (the baseline is read from git history)")
    } else {
        InputError::new("git", format!("cannot run git: {e}"))
            .fix("check that git is installed and runnable")
    }
}

pub(crate) fn git_failed(command: &str, stderr: &str) -> InputError {
    InputError::new(
        "git",
        format!("`git {command}` failed: {}", first_line(stderr)),
    )
    .fix("run the same git command by hand to see why; the check needs a readable repository")
}

pub(crate) fn first_line(s: &str) -> String {
    s.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("(no message)")
        .to_string()
}

fn absolute(path: &Path) -> PathBuf {
    let abs = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().unwrap_or_default().join(path)
    };
    // Canonicalize the deepest existing ancestor, keep the rest as written.
    let mut existing = abs.as_path();
    let mut rest = vec![];
    loop {
        if let Ok(c) = std::fs::canonicalize(existing) {
            let mut out = c;
            for part in rest.iter().rev() {
                out.push(part);
            }
            return out;
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                existing = parent;
            }
            _ => return abs,
        }
    }
}

fn nearest_existing_dir(path: &Path) -> PathBuf {
    let abs = absolute(path);
    let mut p = abs.as_path();
    loop {
        if p.is_dir() {
            return p.to_path_buf();
        }
        match p.parent() {
            Some(parent) => p = parent,
            None => return PathBuf::from("."),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::toplevel_and_shallow;

    #[test]
    fn toplevel_and_shallow_flag_split_at_the_last_line() {
        assert_eq!(toplevel_and_shallow("/r\ntrue\n"), ("/r", true));
        assert_eq!(toplevel_and_shallow("/r\nfalse\n"), ("/r", false));
        assert_eq!(toplevel_and_shallow("/a\nb\ntrue\n"), ("/a\nb", true));
    }
}
