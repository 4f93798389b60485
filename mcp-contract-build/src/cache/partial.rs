//! Rendering only the tools an edit re-derived: after a field rename or a
//! doc-comment edit in one tool, the lockfile, the compatibility plan, the
//! rmcp manifest and the tool's `OUT_DIR` entry are updated by splicing
//! that tool's new parts into the files the cached run wrote
//! ([`super::splice`]), instead of serializing, hashing and comparing all
//! of them again.
//!
//! The builder takes this path only where the full render is a function of
//! the tools, tool by tool, and of prompts as the cached run had them:
//! - a surface of `#[mcp_contract::tool]`s and rmcp `#[tool]` fns cached
//!   item by item, and rmcp prompts that hash as they did (their parts are
//!   left as they were);
//! - no migration-record entries (their transitions tie tools together);
//! - the same tool names, gated on the same features, as the cached run
//!   (the manifest's features are kept as they were);
//! - update mode;
//! - every file spliced into still the one the cached run wrote (the
//!   lockfile by content hash, the `OUT_DIR` files by their stamps).
//!
//! Anything else, or any text the splice cannot place, takes the full
//! render. Everything is computed, or placed, before anything is written
//! (the plan's revision is computed while the other files are spliced and
//! written: see [`patch`]).

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::thread::JoinHandle;

use mcp_contract::migrations::MigrationRecord;
use mcp_contract::runtime::{plan, PLAN_PATH};
use mcp_contract::{lockfile, Surface};
use serde_json::Value;

use super::splice::{replace, value_span, Layout};
use crate::error::Error;
use crate::outputs::{
    self, entry_file_name, entry_file_text, published_value, LockOutcome, OUT_SUBDIR,
};
use crate::rmcp::link::MANIFEST_PATH;

/// The new text of every file the step writes, for a surface that differs
/// from the cached run's only in the tools named.
#[derive(Debug)]
pub struct Patched {
    lockfile: Arc<str>,
    /// SHA-256 of `lockfile`, under way (see [`patch`]).
    revision: JoinHandle<String>,
    /// `changed: <tool>` for each tool whose locked entry changed.
    changes: Vec<String>,
    /// `(path, text)` of the manifest and the changed tools' entries,
    /// relative to `OUT_DIR`.
    files: Vec<(PathBuf, String)>,
    /// The plan with the cached run's revision, at `revision_at`: the new
    /// one is set by [`Patched::write`].
    plan: String,
    revision_at: Range<usize>,
}

/// The files of a run where only `rederived` tools of `surface` may differ
/// from the cached run, whose lockfile text is `lockfile_text`; `None`
/// when the cached run's `OUT_DIR` files cannot be read or a part cannot
/// be placed.
///
/// The plan's revision is SHA-256 over the whole lockfile text. In the
/// build script, which cargo compiles without optimizations, that is the
/// largest single cost of this path (about 10 ms for 200 tools), so it
/// starts on a second thread as soon as the lockfile is spliced, and runs
/// while this thread splices the other files and [`Patched::write`] writes
/// every file but the plan, the one that holds the revision. (When a part
/// cannot be placed, the thread is left to finish on its own: the full
/// step computes the revision again.)
pub fn patch(
    out_dir: &Path,
    lockfile_text: &str,
    surface: &Surface,
    record: &MigrationRecord,
    rederived: &[String],
) -> Option<Patched> {
    let mut lock = lockfile_text.to_string();
    let mut changes = Vec::new();
    let mut entries = Vec::new();
    let mut tools = Surface::new();
    for name in rederived {
        let tool = surface.tools.get(name)?;
        let entry = lockfile::tool_entry(tool);
        let next = replace(&lock, &["tools", name], &entry, Layout::Pretty)?;
        if next != lock {
            changes.push(format!("changed: {name}"));
            lock = next;
        }
        entries.push((name, entry));
        tools.insert(tool.clone());
    }
    changes.sort();
    let lock: Arc<str> = Arc::from(lock);
    let revision = {
        let lock = Arc::clone(&lock);
        std::thread::spawn(move || plan::revision_of(&lock))
    };
    let parts = splice_parts(out_dir, record, &tools, &entries)?;
    let revision_at = value_span(parts.plan.as_bytes(), &["revision"])?;
    let mut files = parts.files;
    files.push((PathBuf::from(MANIFEST_PATH), parts.manifest));
    Some(Patched {
        lockfile: lock,
        revision,
        changes,
        files,
        plan: parts.plan,
        revision_at,
    })
}

impl Patched {
    /// Writes the files: the `OUT_DIR` ones, then the lockfile (when it
    /// changed), then runs `beside` (work that needs none of them), then
    /// writes the plan once its revision is computed (see [`patch`]; its
    /// place was found there: nothing that can fail to place comes after a
    /// write). Returns what became of the lockfile, its
    /// [`super::content_hash`] for the cache, and what `beside` returned.
    pub fn write<T>(
        self,
        out_dir: &Path,
        lock_path: &Path,
        shown: &Path,
        beside: impl FnOnce() -> T,
    ) -> Result<(LockOutcome, String, T), Error> {
        let Patched {
            lockfile,
            revision,
            changes,
            mut files,
            plan: mut plan_text,
            revision_at,
        } = self;
        let lockfile_hash = super::content_hash(lockfile.as_bytes());
        outputs::write_files(out_dir, &files)?;
        let outcome = if changes.is_empty() {
            LockOutcome::Unchanged
        } else {
            outputs::write_lockfile(lock_path, shown, &lockfile)?;
            outputs::settle_mtime(lock_path, Some(out_dir));
            LockOutcome::Written(changes)
        };
        let beside = beside();
        let revision = revision
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        plan_text.replace_range(revision_at, &Value::String(revision).to_string());
        files.clear();
        files.push((PathBuf::from(PLAN_PATH), plan_text));
        outputs::write_files(out_dir, &files)?;
        Ok((outcome, lockfile_hash, beside))
    }
}

/// The cached run's plan and manifest with some tools' parts spliced in.
struct Parts {
    /// The plan's text (its `revision` is the caller's to set).
    plan: String,
    manifest: String,
    /// `(path, text)` of each tool's new `OUT_DIR` entry.
    files: Vec<(PathBuf, String)>,
}

/// The plan and the manifest with the `entries`' tools spliced in, and
/// each tool's new `OUT_DIR` entry.
fn splice_parts(
    out_dir: &Path,
    record: &MigrationRecord,
    tools: &Surface,
    entries: &[(&String, Value)],
) -> Option<Parts> {
    let tool_plans = plan::derive(record, tools, "").ok()?;
    let mut plan_text = std::fs::read_to_string(out_dir.join(PLAN_PATH)).ok()?;
    let mut manifest = std::fs::read_to_string(out_dir.join(MANIFEST_PATH)).ok()?;
    let mut files = Vec::new();
    for (name, entry) in entries {
        let tool_plan = serde_json::to_value(tool_plans.tools.get(*name)?).ok()?;
        plan_text = replace(&plan_text, &["tools", name], &tool_plan, Layout::Pretty)?;
        let published = published_value(name, entry);
        manifest = replace(&manifest, &["published", name], &published, Layout::Compact)?;
        files.push((
            Path::new(OUT_SUBDIR).join(entry_file_name(name)),
            entry_file_text(name, entry),
        ));
    }
    Some(Parts {
        plan: plan_text,
        manifest,
        files,
    })
}
