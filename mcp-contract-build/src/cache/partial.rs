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
//! render. Everything is computed before anything is written.

use std::path::{Path, PathBuf};

use mcp_contract::migrations::MigrationRecord;
use mcp_contract::runtime::{plan, PLAN_PATH};
use mcp_contract::{lockfile, Surface};
use serde_json::Value;

use super::splice::{replace, Layout};
use crate::outputs::{entry_file_name, entry_file_text, published_value, OUT_SUBDIR};
use crate::rmcp::link::MANIFEST_PATH;

/// The new text of every file the step writes, for a surface that differs
/// from the cached run's only in the tools named.
#[derive(Debug)]
pub struct Patched {
    pub lockfile: String,
    /// [`super::content_hash`] of `lockfile`, for the cache.
    pub lockfile_hash: String,
    /// `changed: <tool>` for each tool whose locked entry changed.
    pub changes: Vec<String>,
    /// `(path, text)` of the plan, the manifest and the changed tools'
    /// entries, relative to `OUT_DIR`.
    pub files: Vec<(PathBuf, String)>,
}

/// The files of a run where only `rederived` tools of `surface` may differ
/// from the cached run, whose lockfile text is `lockfile_text`; `None`
/// when the cached run's `OUT_DIR` files cannot be read or a part cannot
/// be placed (the caller renders in full).
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
    // The revision is SHA-256 over the whole lockfile text. In the build
    // script, which cargo compiles without optimizations, that is the
    // largest single cost of this path (about 12 ms for 200 tools, several
    // times the splices), so it runs beside them and the cache's hash of
    // the same text, which together take less: the tools' plans depend on
    // neither.
    let (mut parts, lockfile_hash) = std::thread::scope(|scope| {
        let revision = scope.spawn(|| plan::revision_of(&lock));
        let parts = splice_parts(out_dir, record, &tools, &entries);
        let lockfile_hash = super::content_hash(lock.as_bytes());
        let revision = revision.join().ok()?;
        let mut parts = parts?;
        parts.plan = replace(
            &parts.plan,
            &["revision"],
            &Value::String(revision),
            Layout::Pretty,
        )?;
        Some((parts, lockfile_hash))
    })?;
    let mut files = std::mem::take(&mut parts.files);
    files.push((PathBuf::from(PLAN_PATH), parts.plan));
    files.push((PathBuf::from(MANIFEST_PATH), parts.manifest));
    Some(Patched {
        lockfile: lock,
        lockfile_hash,
        changes,
        files,
    })
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
