//! Where a lockfile was at the baseline. Moving a package (`git mv
//! crates/a crates/b`) or its `contracts/` directory must not turn its
//! surface into a new one, with every change in the same commit passing as
//! "additive": the baseline of a lockfile is the lockfile *of the same
//! package* at the baseline, wherever it was.
//!
//! [`locate`] looks, in this order:
//! 1. by package name, when the lockfile belongs to a cargo package: the
//!    manifest at the baseline whose `[package] name` is the package's (the
//!    manifest in the same directory first, then every `Cargo.toml` of the
//!    baseline tree), and the lockfile at the same place inside it;
//! 2. at the same path;
//! 3. by git's rename detection between the baseline and the candidate
//!    (the working tree, the index for `--staged`, or a revision): the
//!    deleted file the lockfile was renamed from (`-M`, git's default 50%
//!    similarity, no rename limit: the candidate is the only destination).
//!
//! `None`: no lockfile of that package existed at the baseline, the only
//! case in which the surface is new. A move git cannot see (a plain `mv`
//! whose destination is not added to the index) is not a rename to git
//! either: `git mv`, or `git add` the new path.
//!
//! [`renamed_in_commit`] is the same rename detection inside one commit,
//! which the history walk uses to follow a lockfile across the commit that
//! moved it.

use super::{git_failed, BlobReader, Repo};
use crate::error::InputError;

/// The most manifests read when looking for a package by name; a tree with
/// more is searched by path and rename detection only.
pub const MAX_MANIFESTS: usize = 10_000;
/// The most deleted files offered to rename detection as sources; beyond
/// it, only deleted files with the lockfile's file name are.
pub const MAX_SOURCES: usize = 4_096;
/// A manifest larger than this is not a package's (skipped).
const MAX_MANIFEST_BYTES: usize = 1 << 20;

/// The package a lockfile belongs to, as the check knows it today.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PackageAt<'a> {
    pub name: &'a str,
    /// The package directory relative to the repository root, `/`-separated
    /// (`""` at the root).
    pub dir: &'a str,
}

/// What the candidate is, for rename detection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side<'a> {
    /// The working tree (tracked files: a `git mv`, or a new path added).
    WorkTree,
    /// The index (`--staged`, the hook's own index file included).
    Index,
    /// A revision (`changelog --to REV`).
    Revision(&'a str),
}

/// How the baseline path was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// The lockfile is where it was.
    SamePath,
    /// The package was elsewhere at the baseline (`dir`, its directory).
    Package { name: String, dir: String },
    /// git's rename detection: the candidate was renamed from the path.
    Renamed { similarity: u8 },
}

/// The baseline lockfile of a candidate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    /// Its path at the baseline, relative to the repository root.
    pub path: String,
    pub found: Found,
}

impl Located {
    /// Why the baseline is at another path, in a few words (`None` when
    /// it is not): `the lockfile was at old/contracts/mcp-contract.lock
    /// there (package `a` moved from old)`.
    pub fn moved(&self) -> Option<String> {
        let how = match &self.found {
            Found::SamePath => return None,
            Found::Package { name, dir } => format!(
                "package `{name}` moved from {}",
                if dir.is_empty() {
                    "the repository root"
                } else {
                    dir
                }
            ),
            Found::Renamed { similarity } => {
                format!("git: renamed, {similarity}% similar")
            }
        };
        Some(format!("the lockfile was at {} there ({how})", self.path))
    }
}

/// Where the lockfile at `rel` (today) was at `commit`.
pub fn locate(
    repo: &Repo,
    commit: &str,
    rel: &str,
    package: Option<PackageAt<'_>>,
    side: Side<'_>,
) -> Result<Option<Located>, InputError> {
    let mut reader = BlobReader::start(repo)?;
    let found = locate_with(repo, &mut reader, commit, rel, package, side);
    reader.finish()?;
    found
}

fn locate_with(
    repo: &Repo,
    reader: &mut BlobReader,
    commit: &str,
    rel: &str,
    package: Option<PackageAt<'_>>,
    side: Side<'_>,
) -> Result<Option<Located>, InputError> {
    let exists = |reader: &mut BlobReader, path: &str| -> Result<bool, InputError> {
        Ok(reader.read(&format!("{commit}:{path}"))?.is_some())
    };
    let at = |path: &str, found: Found| {
        Some(Located {
            path: path.to_string(),
            found,
        })
    };
    // A package found elsewhere at the baseline owns no file at `rel` there.
    let mut same_path = true;
    if let Some(p) = package {
        let inner = match p.dir {
            "" => Some(rel),
            dir => rel.strip_prefix(dir).and_then(|r| r.strip_prefix('/')),
        };
        if let Some(inner) = inner {
            let elsewhere = package_dir_at(repo, reader, commit, p)?.filter(|d| d != p.dir);
            if let Some(dir) = elsewhere {
                let old = join(&dir, inner);
                if exists(reader, &old)? {
                    let name = p.name.to_string();
                    return Ok(at(&old, Found::Package { name, dir }));
                }
                same_path = false;
            }
        }
    }
    if same_path && exists(reader, rel)? {
        return Ok(at(rel, Found::SamePath));
    }
    Ok(
        renamed_from(repo, &diff_range(commit, side), side, rel)?.map(|(path, similarity)| {
            Located {
                path,
                found: Found::Renamed { similarity },
            }
        }),
    )
}

/// The directory of package `p` at `commit`: its own directory when the
/// manifest there names it, else the first manifest of the tree that does.
fn package_dir_at(
    repo: &Repo,
    reader: &mut BlobReader,
    commit: &str,
    p: PackageAt<'_>,
) -> Result<Option<String>, InputError> {
    if manifest_names(reader, commit, &join(p.dir, "Cargo.toml"), p.name)? {
        return Ok(Some(p.dir.to_string()));
    }
    let out = repo.git(["ls-tree", "-r", "-z", "--name-only", commit])?;
    if !out.ok {
        return Err(git_failed(&format!("ls-tree -r {commit}"), &out.stderr));
    }
    let manifests = out
        .stdout
        .split(|b| *b == 0)
        .filter(|p| p == b"Cargo.toml" || p.ends_with(b"/Cargo.toml"))
        .take(MAX_MANIFESTS);
    for m in manifests {
        let m = String::from_utf8_lossy(m);
        if manifest_names(reader, commit, &m, p.name)? {
            let dir = m.strip_suffix("Cargo.toml").unwrap_or_default();
            return Ok(Some(dir.trim_end_matches('/').to_string()));
        }
    }
    Ok(None)
}

/// Does the manifest at `path` (at `commit`) declare package `name`?
fn manifest_names(
    reader: &mut BlobReader,
    commit: &str,
    path: &str,
    name: &str,
) -> Result<bool, InputError> {
    // A manifest git cannot hand over (too large, not a file) is not the
    // package's: skipped, as one that does not parse.
    let Ok(Some(bytes)) = reader.read(&format!("{commit}:{path}")) else {
        return Ok(false);
    };
    if bytes.len() > MAX_MANIFEST_BYTES {
        return Ok(false);
    }
    let Ok(text) = std::str::from_utf8(&bytes) else {
        return Ok(false);
    };
    let Ok(doc) = text.parse::<toml_edit::Document<String>>() else {
        return Ok(false);
    };
    Ok(doc
        .get("package")
        .and_then(|p| p.get("name"))
        .and_then(|n| n.as_str())
        == Some(name))
}

fn join(dir: &str, rest: &str) -> String {
    match dir {
        "" => rest.to_string(),
        d => format!("{d}/{rest}"),
    }
}

/// The `git diff` arguments that compare `commit` with `side`.
fn diff_range(commit: &str, side: Side<'_>) -> Vec<String> {
    match side {
        Side::WorkTree => vec![commit.to_string()],
        Side::Index => vec!["--cached".into(), commit.to_string()],
        Side::Revision(rev) => vec![commit.to_string(), rev.to_string()],
    }
}

/// The path `rel` was renamed from inside `commit` (against its first
/// parent), for the history walk; `None` for a root commit or no rename.
pub fn renamed_in_commit(
    repo: &Repo,
    commit: &str,
    rel: &str,
) -> Result<Option<String>, InputError> {
    let out = repo.git(["rev-list", "--parents", "-n", "1", commit])?;
    if !out.ok {
        return Err(git_failed(
            &format!("rev-list --parents -n 1 {commit}"),
            &out.stderr,
        ));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let Some(parent) = text.split_whitespace().nth(1) else {
        return Ok(None);
    };
    let range = vec![parent.to_string(), commit.to_string()];
    Ok(renamed_from(repo, &range, Side::Revision(commit), rel)?.map(|(p, _)| p))
}

/// git's rename detection over `range`, with `rel` the only destination:
/// the source path and its similarity.
fn renamed_from(
    repo: &Repo,
    range: &[String],
    side: Side<'_>,
    rel: &str,
) -> Result<Option<(String, u8)>, InputError> {
    let diff = |args: &[&str], paths: &[&str]| -> Result<Vec<u8>, InputError> {
        let mut cmd = repo.command();
        if side == Side::Index {
            if let Some(index) = super::staged::index_file(repo) {
                cmd.env("GIT_INDEX_FILE", index);
            }
        }
        cmd.args(["diff", "-z", "--no-ext-diff", "--no-textconv"])
            .args(args)
            .args(range)
            .arg("--")
            .args(paths)
            .stdin(std::process::Stdio::null());
        let out = cmd.output().map_err(super::spawn_error)?;
        if !out.status.success() {
            let shown = format!("diff {} {}", args.join(" "), range.join(" "));
            return Err(git_failed(&shown, &String::from_utf8_lossy(&out.stderr)));
        }
        Ok(out.stdout)
    };
    let deleted = diff(&["--name-only", "--no-renames", "--diff-filter=D"], &[])?;
    let mut sources: Vec<&str> = nul_separated(&deleted).collect();
    if sources.is_empty() {
        return Ok(None);
    }
    if sources.len() > MAX_SOURCES {
        let name = rel.rsplit('/').next().unwrap_or(rel);
        sources.retain(|s| s.rsplit('/').next() == Some(name));
        sources.truncate(MAX_SOURCES);
    }
    let mut paths = vec![rel];
    paths.extend(sources);
    let status = diff(&["--name-status", "-M", "-l0", "--diff-filter=R"], &paths)?;
    // `R080 NUL old NUL new NUL`, repeated.
    let mut fields = nul_separated(&status);
    while let (Some(st), Some(old), Some(new)) = (fields.next(), fields.next(), fields.next()) {
        if new == rel {
            let similarity = st.get(1..).and_then(|s| s.parse().ok()).unwrap_or(0);
            return Ok(Some((old.to_string(), similarity)));
        }
    }
    Ok(None)
}

fn nul_separated(bytes: &[u8]) -> impl Iterator<Item = &str> {
    bytes
        .split(|b| *b == 0)
        .filter(|p| !p.is_empty())
        .filter_map(|p| std::str::from_utf8(p).ok())
}
