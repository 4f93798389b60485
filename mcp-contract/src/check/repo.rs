//! Building a [`CheckInput`] for a lockfile in a git checkout: the
//! baseline lockfile and migration record are read from git objects at the
//! baseline revision (never from the working tree or index), the candidate
//! from the working tree (or given, e.g. a live server's surface), and the
//! history only when the candidate introduces names the baseline lacks.

use std::path::Path;

use super::{needs_history, CheckInput};
use crate::error::InputError;
use crate::git::moved::{self, PackageAt, Side};
use crate::git::{resolve_baseline, Baseline, BlobReader, Repo};
use crate::history;
use crate::migrations::{self, Date, MigrationRecord};
use crate::model::Surface;
use crate::rules::Severity;
use crate::segments;

/// What to check.
#[derive(Debug, Clone)]
pub struct RepoCheck<'a> {
    /// The lockfile in the working tree (its path also locates the record).
    pub lockfile: &'a Path,
    /// `--against REV`; `None` for the merge-base with the default branch.
    pub against: Option<&'a str>,
    /// A candidate surface to use instead of the working-tree lockfile.
    pub candidate: Option<Surface>,
    /// A copy of the work tree to read the candidate lockfile and the record
    /// from instead (the staged content, for the pre-commit hook); paths
    /// inside it are the lockfile's and record's paths relative to the repository.
    pub tree: Option<&'a Path>,
    /// The cargo package the lockfile belongs to (name, directory): its
    /// baseline is that package's lockfile, wherever it was.
    pub package: Option<(&'a str, &'a Path)>,
    /// What the candidate is, for git's rename detection of a moved
    /// lockfile: the working tree, the index (`--staged`), a revision.
    pub side: Side<'a>,
    pub fail_on: Severity,
    pub fail_on_description: Option<crate::rules::DescriptionLevel>,
    pub strict: bool,
    pub today: Date,
}

/// Where the inputs came from, for reports.
#[derive(Debug, Clone)]
pub struct CheckContext {
    /// The lockfile path relative to the repository root (`contracts/mcp-contract.lock`).
    pub lockfile: String,
    /// The record path relative to the repository root.
    pub record: String,
    pub baseline: Baseline,
    /// The lockfile's path at the baseline (`None`: no lockfile of it
    /// there, a new surface); another path than `lockfile` when it moved.
    pub baseline_lockfile: Option<String>,
    /// The candidate lockfile text (for line numbers): for a live
    /// candidate, the lockfile on disk, where findings point; `None` when
    /// there is none.
    pub candidate_text: Option<String>,
    /// Revisions walked for reserved names (`None`: history not needed).
    pub history_revisions: Option<usize>,
    /// History revisions that could not be read, with why.
    pub history_skipped: Vec<(String, String)>,
    /// The file line at which `candidate_text` starts (0 for a whole
    /// lockfile; a server's entry in a consumer lockfile starts further down).
    pub line_offset: usize,
}

/// Reads everything the gate needs.
pub fn prepare(opts: RepoCheck<'_>) -> Result<(CheckInput, CheckContext), InputError> {
    // The repository the lockfile's directory is in: a link must not lead out of it.
    let at = opts.lockfile.parent().filter(|p| !p.as_os_str().is_empty());
    let repo = Repo::discover(at.unwrap_or(Path::new(".")))?;
    crate::confine::inside(opts.lockfile, &repo.root, "lockfile")?;
    let rel = repo.relative(opts.lockfile)?;
    let record_path = migrations::path_for(opts.lockfile);
    crate::confine::inside(&record_path, &repo.root, "migration record")?;
    let rel_record = repo.relative(&record_path)?;
    let mut baseline = resolve_baseline(&repo, opts.against)?;
    // Where this lockfile was at the baseline: moved with its package or
    // its contracts/ directory, it keeps its baseline, record and history.
    let package_dir = match opts.package {
        Some((_, dir)) => Some(repo.relative(dir)?),
        None => None,
    };
    let package = opts
        .package
        .zip(package_dir.as_deref())
        .map(|((name, _), dir)| PackageAt { name, dir });
    let located = moved::locate(&repo, &baseline.commit, &rel, package, opts.side)?;
    let base_rel = located.as_ref().map_or(rel.clone(), |l| l.path.clone());
    let base_rel_record = match base_rel.rsplit_once('/') {
        Some((dir, _)) => format!("{dir}/{}", migrations::FILE_NAME),
        None => migrations::FILE_NAME.to_string(),
    };
    let mut reader = BlobReader::start(&repo)?;
    let base_bytes = match &located {
        Some(l) => reader.read(&format!("{}:{}", baseline.commit, l.path))?,
        None => None,
    };
    let base_record_bytes = reader.read(&format!("{}:{base_rel_record}", baseline.commit))?;
    reader.finish()?;
    if let Some(moved) = located.as_ref().and_then(moved::Located::moved) {
        baseline.description.push_str(&format!("; {moved}"));
    }
    let base_text = base_bytes.map(|b| String::from_utf8_lossy(&b).into_owned());
    let base_file = format!(
        "{base_rel} at {} ({})",
        baseline.short, baseline.description
    );
    if baseline.at_head && opts.candidate.is_none() {
        // Compared with HEAD itself, only what is not committed can differ:
        // the index under `--staged`, the working tree otherwise.
        baseline.description.push_str(match opts.tree {
            Some(_) => "; the staged changes are checked",
            None => "; the uncommitted changes are checked",
        });
    }

    let (base_surface, candidate, candidate_text) = match opts.candidate {
        Some(candidate) => {
            let base = match &base_text {
                Some(t) => Some(crate::lockfile::parse(t.as_bytes(), &base_file)?),
                None => None,
            };
            // Findings name the lockfile: they point at the tools' entries
            // in it, as for a lockfile candidate (a live surface has no
            // text). Only lines come from it: one that cannot be read (or
            // is not there) leaves them at line 1, as before.
            let read_from = opts
                .tree
                .map(|t| t.join(&rel))
                .unwrap_or_else(|| opts.lockfile.to_path_buf());
            let text = crate::limits::read(&read_from)
                .ok()
                .and_then(|b| String::from_utf8(b).ok());
            (base, candidate, text)
        }
        None => {
            let shown = opts.lockfile.display().to_string();
            let read_from = opts
                .tree
                .map(|t| t.join(&rel))
                .unwrap_or_else(|| opts.lockfile.to_path_buf());
            let text = match crate::limits::read(&read_from) {
                Ok(b) => String::from_utf8(b).map_err(|_| {
                    InputError::new(&shown, "file is not valid UTF-8")
                        .fix("regenerate the lockfile")
                })?,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    return Err(if base_text.is_some() {
                        InputError::new(&shown, format!("the lockfile was deleted, but it exists at the baseline {}: deleting it hides every change instead of removing the tools from the server", baseline.short))
                            .fix(format!("restore it with `git checkout {} -- {rel}` and regenerate it (`cargo build` or `cargo mcp-contract snapshot`)", baseline.short))
                    } else {
                        InputError::new(&shown, "no lockfile here, nor at the baseline")
                            .fix("generate it with `cargo build` (mcp-contract-build) or `cargo mcp-contract snapshot`, and commit it")
                    });
                }
                Err(e) => {
                    return Err(
                        InputError::new(&shown, format!("cannot read lockfile: {e}"))
                            .fix("check that the file is readable"),
                    )
                }
            };
            let (base, cand) = segments::reduce_pair(
                base_text.as_deref().map(|t| (t, base_file.as_str())),
                (&text, &shown),
            )?;
            (base, cand, Some(text))
        }
    };

    let (record, record_problems) = match opts.tree {
        Some(t) => {
            let shown = record_path.display().to_string();
            match std::fs::read_to_string(t.join(&rel_record)) {
                Ok(text) => migrations::parse(&text, &shown),
                Err(_) => (empty_record(&shown), vec![]),
            }
        }
        None => migrations::read(&record_path)?,
    };
    let baseline_record = base_record_bytes.map(|b| {
        let text = String::from_utf8_lossy(&b).into_owned();
        migrations::parse(&text, &format!("{base_rel_record} at {}", baseline.short)).0
    });

    let (history, history_revisions, history_skipped) =
        if needs_history(base_surface.as_ref(), &candidate) {
            let wanted = super::reserved::wanted(base_surface.as_ref(), &candidate);
            let use_cache = std::env::var(history::cache::DISABLE_ENV).map_or(true, |v| v != "1");
            let (h, _) = history::cache::reserved_history(
                &repo,
                &baseline.commit,
                &base_rel,
                &wanted,
                use_cache,
            )?;
            let (n, skipped) = (h.revisions, h.skipped.clone());
            (Some(h), Some(n), skipped)
        } else {
            (None, None, vec![])
        };

    let input = CheckInput {
        baseline: base_surface,
        served_defaults: crate::runtime::served::served_defaults(&record, &candidate),
        candidate,
        record,
        record_problems,
        aliases: vec![],
        baseline_record,
        history,
        fail_on: opts.fail_on,
        fail_on_description: opts.fail_on_description,
        strict: opts.strict,
        today: opts.today,
    };
    let context = CheckContext {
        lockfile: rel,
        record: rel_record,
        baseline,
        baseline_lockfile: located.map(|l| l.path),
        candidate_text,
        history_revisions,
        history_skipped,
        line_offset: 0,
    };
    Ok((input, context))
}

/// An empty record named after `file` (for callers without one).
pub fn empty_record(file: &str) -> MigrationRecord {
    MigrationRecord {
        file: file.to_string(),
        ..MigrationRecord::default()
    }
}
