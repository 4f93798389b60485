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
}

/// Reads a file of the repository at `rel` in the candidate.
fn candidate_text(repo: &Repo, tree: Option<&Path>, rel: &str) -> Option<String> {
    let at = tree.unwrap_or(&repo.root).join(rel);
    crate::limits::read(&at)
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
}

/// The baseline's files, read through one `git cat-file` process.
struct Baseline<'a> {
    reader: BlobReader,
    commit: &'a str,
}

impl Baseline<'_> {
    fn text(&mut self, rel: &str) -> Result<Option<String>, InputError> {
        Ok(self
            .reader
            .read(&format!("{}:{rel}", self.commit))?
            .map(|b| String::from_utf8_lossy(&b).into_owned()))
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
    let mut base = Baseline {
        reader: BlobReader::start(&repo)?,
        commit: r.baseline_commit,
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
    if let Some(text) = base.text(&rel)? {
        let mut found = None;
        for rr in &roots {
            if let Some(t) = base.text(rr)? {
                if cargo::is_workspace_root(&t) {
                    found = Some((t, shown(rr, short)));
                    break;
                }
            }
        }
        d.baseline = cargo::package_version(&text, &shown(&rel, short), || found)?;
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
    if let Some(t) = base.text(&rel)? {
        let file = shown(&rel, short);
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
        let then = base.text(&file)?;
        if now.is_none() && then.is_none() {
            continue;
        }
        let now = now.map(|t| server_json::parse(&t, &file)).transpose()?;
        let then = match then {
            // an unreadable file at the baseline is history: no version there
            Some(t) => server_json::parse(&t, &shown(&file, short)).ok(),
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
