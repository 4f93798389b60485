//! Where a checked lockfile's versions are declared, read at the baseline
//! (from git objects) and in the candidate (the working tree, the staged
//! copy, or a live capture): a cargo package's manifest, a capture's
//! `serverInfo`, and the nearest `server.json` between the lockfile and the
//! repository root.

use std::path::{Path, PathBuf};

use super::{cargo, server_json, Declaration, Declared, Source};
use crate::error::InputError;
use crate::git::{BlobReader, Repo};
use crate::model::Release;

/// What to read for one lockfile.
#[derive(Debug, Clone)]
pub struct Reading<'a> {
    /// The lockfile in the working tree.
    pub lockfile: &'a Path,
    /// A copy of the work tree to read the candidate from instead (`--staged`).
    pub tree: Option<&'a Path>,
    pub baseline_commit: &'a str,
    /// A cargo package: its name and manifest (in the working tree).
    pub package: Option<(&'a str, &'a Path)>,
    /// A capture: `Some(release)` of the live server when the candidate is
    /// one (`check --server`), `None` to read the candidate lockfile's.
    /// Unused for a cargo package.
    pub live: Option<&'a Release>,
    /// The lockfile's path at the baseline, relative to the repository
    /// root, when it is another than now (it moved with its package or its
    /// `contracts/` directory): the manifest and `server.json` beside it
    /// are read from where they were too.
    pub baseline_lockfile: Option<&'a str>,
}

/// Reads a file of the repository at `rel` in the candidate.
fn candidate_text(repo: &Repo, tree: Option<&Path>, rel: &str) -> Option<String> {
    let at = tree.unwrap_or(&repo.root).join(rel);
    crate::limits::read(&at)
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
}

/// The baseline's files, read through one `git cat-file` process, where
/// they were then.
struct Baseline<'a> {
    reader: BlobReader,
    commit: &'a str,
    /// A moved directory: its path now and at the baseline.
    moved: Option<(String, String)>,
}

impl Baseline<'_> {
    /// Where the file (or directory) now at `rel` was at the baseline.
    fn path(&self, rel: &str) -> String {
        moved_path(self.moved.as_ref(), rel)
    }

    /// The baseline's file at `at`, a path at the baseline.
    fn text(&mut self, at: &str) -> Result<Option<String>, InputError> {
        Ok(self
            .reader
            .read(&format!("{}:{at}", self.commit))?
            .map(|b| String::from_utf8_lossy(&b).into_owned()))
    }

    /// Whether the directory now at `dir` held the lockfile at the baseline
    /// (a directory the move left behind did not).
    fn held_lockfile(&self, dir: &Path, lockfile_now: &str) -> bool {
        let then = self.path(&dir.to_string_lossy());
        Path::new(&self.path(lockfile_now)).starts_with(then)
    }
}

/// The directories that differ between a path now and at the baseline,
/// once their common tail is taken off (`new/srv/contracts/x.lock` and
/// `old/srv/contracts/x.lock`: `new` and `old`); `None` when equal.
fn moved_dirs(now: &str, then: &str) -> Option<(String, String)> {
    let a: Vec<&str> = now.split('/').collect();
    let b: Vec<&str> = then.split('/').collect();
    let common = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (pa, pb) = (&a[..a.len() - common], &b[..b.len() - common]);
    (pa != pb).then(|| (pa.join("/"), pb.join("/")))
}

/// Where `rel` was before `moved` (its directory now and then) moved it;
/// a path outside the moved directory stays where it is.
fn moved_path(moved: Option<&(String, String)>, rel: &str) -> String {
    let Some((now, then)) = moved else {
        return rel.to_string();
    };
    let rest = if now.is_empty() {
        Some(rel)
    } else if rel == now {
        Some("")
    } else {
        rel.strip_prefix(now.as_str())
            .and_then(|r| r.strip_prefix('/'))
    };
    match rest {
        Some(rest) => [then.as_str(), rest]
            .into_iter()
            .filter(|p| !p.is_empty())
            .collect::<Vec<_>>()
            .join("/"),
        None => rel.to_string(),
    }
}

fn shown(rel: &str, commit_short: &str) -> String {
    format!("{rel} at {commit_short}")
}

/// Every declared version of the lockfile `r` names.
pub fn declared(r: &Reading<'_>) -> Result<Vec<Declared>, InputError> {
    let at = r.lockfile.parent().filter(|p| !p.as_os_str().is_empty());
    let repo = Repo::discover(at.unwrap_or(Path::new(".")))?;
    let short = repo.short(r.baseline_commit);
    let rel = repo.relative(r.lockfile)?;
    let mut base = Baseline {
        reader: BlobReader::start(&repo)?,
        commit: r.baseline_commit,
        moved: r.baseline_lockfile.and_then(|then| moved_dirs(&rel, then)),
    };
    let mut out = vec![];
    match r.package {
        Some((name, manifest)) => out.push(package(&repo, &mut base, r, &short, name, manifest)?),
        None => out.push(capture(&repo, &mut base, r, &short)?),
    }
    if let Some(d) = server_json(&repo, &mut base, r, &short)? {
        out.push(d);
    }
    base.reader.finish()?;
    Ok(out)
}

fn package(
    repo: &Repo,
    base: &mut Baseline<'_>,
    r: &Reading<'_>,
    short: &str,
    name: &str,
    manifest: &Path,
) -> Result<Declared, InputError> {
    let rel = repo.relative(manifest)?;
    // The workspace root: the nearest manifest above with `[workspace]`.
    let dir = Path::new(&rel)
        .parent()
        .unwrap_or(Path::new(""))
        .to_path_buf();
    let roots: Vec<String> = dir
        .ancestors()
        .skip(1)
        .map(|d| d.join("Cargo.toml").to_string_lossy().into_owned())
        .collect();
    let mut d = Declared::new(Source::CargoToml, format!("package `{name}`"));
    if let Some(text) = candidate_text(repo, r.tree, &rel) {
        let root = || {
            roots.iter().find_map(|rr| {
                candidate_text(repo, r.tree, rr)
                    .filter(|t| cargo::is_workspace_root(t))
                    .map(|t| (t, rr.clone()))
            })
        };
        d.candidate = cargo::package_version(&text, &rel, root)?;
    }
    // At the baseline: the manifest where it was then, and the workspace
    // root above it there.
    let then = base.path(&rel);
    if let Some(text) = base.text(&then)? {
        let mut found = None;
        let above = Path::new(&then).parent().unwrap_or(Path::new(""));
        for dir in above.ancestors().skip(1) {
            let rr = dir.join("Cargo.toml").to_string_lossy().into_owned();
            if let Some(t) = base.text(&rr)? {
                if cargo::is_workspace_root(&t) {
                    found = Some((t, shown(&rr, short)));
                    break;
                }
            }
        }
        d.baseline = cargo::package_version(&text, &shown(&then, short), || found)?;
    }
    Ok(d)
}

fn capture(
    repo: &Repo,
    base: &mut Baseline<'_>,
    r: &Reading<'_>,
    short: &str,
) -> Result<Declared, InputError> {
    let rel = repo.relative(r.lockfile)?;
    let mut d = Declared::new(Source::ServerInfo, "the captured server");
    let text = candidate_text(repo, r.tree, &rel);
    let line = text.as_deref().and_then(crate::lockfile::release_line);
    let release = match r.live {
        Some(live) => Some(live.clone()),
        None => match &text {
            Some(t) => crate::lockfile::release(t, &rel)?,
            None => None,
        },
    };
    if let Some(name) = release.as_ref().and_then(|x| x.name.as_ref()) {
        d.owner = format!("server `{name}`");
    }
    d.candidate = release.and_then(|x| x.version).map(|version| Declaration {
        version,
        file: rel.clone(),
        line,
    });
    let then = base.path(&rel);
    if let Some(t) = base.text(&then)? {
        let file = shown(&then, short);
        d.baseline = crate::lockfile::release(&t, &file)?
            .and_then(|x| x.version)
            .map(|version| Declaration {
                version,
                file,
                line: crate::lockfile::release_line(&t),
            });
    }
    Ok(d)
}

/// The nearest `server.json` from the lockfile's directory up to the
/// repository root, in the candidate or at the baseline.
fn server_json(
    repo: &Repo,
    base: &mut Baseline<'_>,
    r: &Reading<'_>,
    short: &str,
) -> Result<Option<Declared>, InputError> {
    let rel = repo.relative(r.lockfile)?;
    let dirs: Vec<PathBuf> = Path::new(&rel)
        .ancestors()
        .skip(1)
        .map(Path::to_path_buf)
        .collect();
    for dir in dirs {
        let file = dir.join(server_json::FILE).to_string_lossy().into_owned();
        let now = candidate_text(repo, r.tree, &file);
        let then_file = base.path(&file);
        let then = match base.held_lockfile(&dir, &rel) {
            true => base.text(&then_file)?,
            false => None,
        };
        if now.is_none() && then.is_none() {
            continue;
        }
        let now = now.map(|t| server_json::parse(&t, &file)).transpose()?;
        let then = match then {
            // an unreadable file at the baseline is history: no version there
            Some(t) => server_json::parse(&t, &shown(&then_file, short)).ok(),
            None => None,
        };
        let owner = now
            .as_ref()
            .or(then.as_ref())
            .and_then(|s| s.content.get("name"))
            .and_then(|n| n.as_str())
            .map_or_else(|| format!("`{file}`"), |n| format!("`{n}`"));
        let mut d = Declared::new(Source::ServerJson, owner);
        d.content_changed = match (&now, &then) {
            (Some(a), Some(b)) => a.content != b.content,
            _ => false,
        };
        if let Some(now) = now {
            d.registry = now.problems;
            d.candidate = now.version;
        }
        d.baseline = then.and_then(|t| t.version);
        return Ok(Some(d));
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where `rel` was when the lockfile now at `now` was at `then`.
    fn before(now: &str, then: &str, rel: &str) -> String {
        moved_path(moved_dirs(now, then).as_ref(), rel)
    }

    #[test]
    fn a_moved_directory_maps_what_it_holds_and_nothing_else() {
        let (now, then) = (
            "packages/srv/contracts/x.lock",
            "crates/srv/contracts/x.lock",
        );
        assert_eq!(
            moved_dirs(now, then),
            Some(("packages".into(), "crates".into()))
        );
        assert_eq!(
            before(now, then, "packages/srv/Cargo.toml"),
            "crates/srv/Cargo.toml"
        );
        assert_eq!(before(now, then, "packages"), "crates");
        assert_eq!(before(now, then, "Cargo.toml"), "Cargo.toml");
        assert_eq!(
            before(now, then, "packagesx/Cargo.toml"),
            "packagesx/Cargo.toml"
        );
        // into a subdirectory, and out of one
        let (now, then) = ("contracts/x.lock", "sub/contracts/x.lock");
        assert_eq!(moved_dirs(now, then), Some(("".into(), "sub".into())));
        assert_eq!(before(now, then, "contracts/x.lock"), then);
        assert_eq!(before(then, now, "sub/Cargo.toml"), "Cargo.toml");
        assert_eq!(before(then, now, "sub"), "");
        // a renamed file in the same place
        assert_eq!(
            moved_dirs("contracts/new.lock", "contracts/old.lock"),
            Some(("contracts/new.lock".into(), "contracts/old.lock".into()))
        );
        assert_eq!(moved_dirs("a/x.lock", "a/x.lock"), None);
        assert_eq!(
            before("a/x.lock", "a/x.lock", "a/Cargo.toml"),
            "a/Cargo.toml"
        );
    }
}
