//! The lockfile's history: which commits changed it (first-parent, oldest
//! first, with the blob id it had after each) and a streaming reader for
//! those blobs through one long-lived `git cat-file --batch`, so walking 500
//! revisions costs one process rather than 500.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Stdio};

use super::{first_line, git_failed, spawn_error, Repo};
use crate::error::InputError;

/// One commit that touched the lockfile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Revision {
    pub commit: String,
    pub short: String,
    /// Committer time, seconds since the epoch.
    pub time: i64,
    pub subject: String,
    /// The lockfile's blob after this commit; `None` when the commit deleted it.
    pub blob: Option<String>,
}

/// How many moves of the lockfile the history walk follows back.
pub const MAX_MOVES: usize = 64;

/// Every first-parent commit up to and including `upto` (a revision, or a
/// range `A..B`) that changed the lockfile at `rel_path`, oldest first,
/// following the lockfile back across each commit that moved it there (git's
/// rename detection in that commit: the package moved, or its `contracts/`):
/// the moving commit is a revision with the moved file's blob, the ones
/// before it the revisions of the old path.
pub fn lockfile_revisions(
    repo: &Repo,
    upto: &str,
    rel_path: &str,
) -> Result<Vec<Revision>, InputError> {
    let (since, mut end) = match upto.split_once("..") {
        Some((a, b)) => (Some(a), b.to_string()),
        None => (None, upto.to_string()),
    };
    let mut path = rel_path.to_string();
    let mut segments = vec![];
    for _ in 0..MAX_MOVES {
        let range = match since {
            Some(a) => format!("{a}..{end}"),
            None => end.clone(),
        };
        let (revs, first_added) = path_revisions(repo, &range, &path)?;
        let origin = revs
            .first()
            .filter(|_| first_added)
            .map(|r| r.commit.clone());
        segments.push(revs);
        let Some(commit) = origin else {
            break;
        };
        let Some(old) = super::moved::renamed_in_commit(repo, &commit, &path)? else {
            break;
        };
        path = old;
        end = format!("{commit}^1");
    }
    Ok(segments.into_iter().rev().flatten().collect())
}

/// The revisions of the file at `rel_path` alone, and whether the oldest
/// one added it.
fn path_revisions(
    repo: &Repo,
    upto: &str,
    rel_path: &str,
) -> Result<(Vec<Revision>, bool), InputError> {
    let out = repo.git([
        "log",
        "--first-parent",
        "-m",
        "--reverse",
        "--no-renames",
        "--no-ext-diff",
        "--no-color",
        "--raw",
        "--no-abbrev",
        "--format=%x01%H %h %ct %s",
        upto,
        "--",
        rel_path,
    ])?;
    if !out.ok {
        return Err(git_failed(
            &format!("log {upto} -- {rel_path}"),
            &out.stderr,
        ));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let mut revs = vec![];
    let mut first_added = false;
    for block in text.split('\u{1}').filter(|b| !b.trim().is_empty()) {
        let mut lines = block.lines();
        let header = lines.next().unwrap_or_default();
        let mut parts = header.splitn(4, ' ');
        let commit = parts.next().unwrap_or_default().to_string();
        let short = parts.next().unwrap_or_default().to_string();
        let time = parts.next().and_then(|t| t.parse().ok()).unwrap_or(0);
        let subject = parts.next().unwrap_or_default().to_string();
        // `:100644 100644 OLD NEW M\tpath`; the last raw line wins.
        let raw = lines
            .filter(|l| l.starts_with(':'))
            .filter_map(|l| {
                let mut f = l.split('\t').next()?.split(' ');
                Some((f.nth(3)?.to_string(), f.next()?.to_string()))
            })
            .next_back();
        if revs.is_empty() {
            first_added = raw.as_ref().is_some_and(|(_, status)| status == "A");
        }
        let blob = raw
            .map(|(blob, _)| blob)
            .filter(|b| !b.bytes().all(|c| c == b'0'));
        revs.push(Revision {
            commit,
            short,
            time,
            subject,
            blob,
        });
    }
    Ok((revs, first_added))
}

/// Reads objects through one `git cat-file --batch` process.
pub struct BlobReader {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl BlobReader {
    pub fn start(repo: &Repo) -> Result<BlobReader, InputError> {
        let mut child = repo
            .command()
            .args(["cat-file", "--batch"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(spawn_error)?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().map(BufReader::new);
        match (stdin, stdout) {
            (Some(stdin), Some(stdout)) => Ok(BlobReader {
                child,
                stdin: Some(stdin),
                stdout,
            }),
            _ => Err(
                InputError::new("git", "cannot talk to `git cat-file --batch`")
                    .fix("check that git is installed and runnable"),
            ),
        }
    }

    /// The blob named by `spec` (`<commit>:<path>` or a blob id); `None`
    /// when it does not exist.
    pub fn read(&mut self, spec: &str) -> Result<Option<Vec<u8>>, InputError> {
        let broken = |e: std::io::Error| {
            InputError::new(
                "git",
                format!("`git cat-file --batch` stopped answering: {e}"),
            )
            .fix("run `git fsck` to check the repository")
        };
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| broken(std::io::ErrorKind::BrokenPipe.into()))?;
        stdin.write_all(spec.as_bytes()).map_err(broken)?;
        stdin.write_all(b"\n").map_err(broken)?;
        stdin.flush().map_err(broken)?;
        let mut header = String::new();
        self.stdout.read_line(&mut header).map_err(broken)?;
        let header = header.trim_end();
        if header.is_empty() {
            return Err(broken(std::io::ErrorKind::UnexpectedEof.into()));
        }
        if header.ends_with(" missing") || header.ends_with(" ambiguous") {
            return Ok(None);
        }
        let mut parts = header.split(' ');
        let (_, kind, size) = (parts.next(), parts.next(), parts.next());
        let size: usize = size.and_then(|s| s.parse().ok()).ok_or_else(|| {
            InputError::new(
                "git",
                format!("unexpected answer from `git cat-file --batch`: {header}"),
            )
            .fix("check that git works in this repository")
        })?;
        if size as u64 > crate::limits::MAX_INPUT_BYTES {
            // Skip the blob (and its newline) in bounded chunks so the batch
            // stays in step, without holding it.
            std::io::copy(
                &mut (&mut self.stdout).take(size as u64 + 1),
                &mut std::io::sink(),
            )
            .map_err(broken)?;
            return Err(InputError::new(
                spec.to_string(),
                format!("in git {}", crate::limits::too_large(size as u64)),
            )
            .fix("check out a revision whose lockfile has a sane size; a lockfile this large was not written by mcp-contract"));
        }
        let mut data = vec![0; size + 1];
        self.stdout.read_exact(&mut data).map_err(broken)?;
        data.pop();
        if kind != Some("blob") {
            return Err(InputError::new(
                spec.split(':').nth(1).unwrap_or(spec).to_string(),
                format!("is a {} in git, not a file", kind.unwrap_or("?")),
            )
            .fix("pass the path of the lockfile itself"));
        }
        Ok(Some(data))
    }

    /// Closes the process and reports a failure it printed.
    pub fn finish(mut self) -> Result<(), InputError> {
        drop(self.stdin.take());
        let status = self.child.wait().map_err(spawn_error)?;
        if !status.success() {
            let mut err = String::new();
            if let Some(mut e) = self.child.stderr.take() {
                let _ = e.read_to_string(&mut err);
            }
            return Err(git_failed("cat-file --batch", &first_line(&err)));
        }
        Ok(())
    }
}

impl Drop for BlobReader {
    fn drop(&mut self) {
        drop(self.stdin.take());
        let _ = self.child.wait();
    }
}
