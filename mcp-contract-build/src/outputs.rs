//! Everything the build step writes: the lockfile (only when its content
//! changed, atomically, and never in locked mode), the per-tool entries in
//! `OUT_DIR` that the macro embeds, and the `cargo:` directives that keep a
//! no-op build from doing any work.

use std::path::{Path, PathBuf};

use mcp_contract::{canonical, lockfile, Surface};

use crate::error::Error;
use crate::mode::{Decision, Mode, LOCKED_ENV};

/// The subdirectory of `OUT_DIR` with one `<tool>.json` per tool (the macro
/// reads the same path).
pub const OUT_SUBDIR: &str = "mcp-contract";

/// What happened to the lockfile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LockOutcome {
    /// Written because its content changed (or it did not exist); one
    /// `added: x` / `removed: y` / `changed: z` line per tool.
    Written(Vec<String>),
    /// Already up to date; not touched.
    Unchanged,
    /// Not read or written ([`Mode::EmbedOnly`]).
    Skipped,
}

/// Brings the lockfile at `path` in line with `surface` according to `decision`.
/// `shown` is the path as messages print it; `package` names the fix command.
pub fn sync_lockfile(
    surface: &Surface,
    path: &Path,
    shown: &Path,
    decision: &Decision,
    package: &str,
) -> Result<LockOutcome, Error> {
    let rendered = lockfile::render(surface);
    match decision.mode {
        Mode::EmbedOnly => Ok(LockOutcome::Skipped),
        Mode::Update => {
            let changes = match std::fs::read(path) {
                Ok(bytes) if bytes == rendered.as_bytes() => return Ok(LockOutcome::Unchanged),
                Ok(bytes) => tool_changes(&bytes, surface, shown),
                Err(_) => vec!["created".to_string()],
            };
            let written =
                lockfile::write_if_changed(path, &rendered).map_err(|source| Error::Io {
                    path: shown.to_path_buf(),
                    action: "write the lockfile",
                    source,
                })?;
            Ok(if written {
                LockOutcome::Written(changes)
            } else {
                LockOutcome::Unchanged
            })
        }
        Mode::Verify => {
            let existing = std::fs::read(path).ok();
            if existing.as_deref() == Some(rendered.as_bytes()) {
                return Ok(LockOutcome::Unchanged);
            }
            let changes = match &existing {
                Some(bytes) => tool_changes(bytes, surface, shown),
                None => Vec::new(),
            };
            Err(Error::Stale {
                lockfile: shown.to_path_buf(),
                reason: decision.reason,
                missing: existing.is_none(),
                changes,
                fix: fix_command(package, decision, shown),
            })
        }
    }
}

/// The command that brings the lockfile up to date, for the given situation.
pub fn fix_command(package: &str, decision: &Decision, lockfile: &Path) -> String {
    if decision.reason.contains("cargo package") {
        format!(
            "run `cargo build -p {package}` in the source tree and commit {} before packaging",
            lockfile.display()
        )
    } else {
        format!(
            "run `{LOCKED_ENV}=0 cargo build -p {package}` and commit {}",
            lockfile.display()
        )
    }
}

/// `added: x` / `removed: y` / `changed: z` lines between the lockfile on
/// disk and the sources (or one line saying the file cannot be read).
fn tool_changes(existing: &[u8], surface: &Surface, shown: &Path) -> Vec<String> {
    let old = match lockfile::parse(existing, &shown.display().to_string()) {
        Ok(old) => old,
        Err(e) => return vec![format!("unreadable: {}", e.message)],
    };
    let mut out = Vec::new();
    for (name, tool) in &surface.tools {
        match old.get(name) {
            None => out.push(format!("added: {name}")),
            Some(t) if t.digest() != tool.digest() => out.push(format!("changed: {name}")),
            Some(_) => {}
        }
    }
    for name in old.tools.keys() {
        if surface.get(name).is_none() {
            out.push(format!("removed: {name}"));
        }
    }
    if out.is_empty() {
        out.push("formatting differs (the content is the same)".into());
    }
    out
}

/// Writes `<out_dir>/mcp-contract/<tool>.json` (the published definition,
/// canonical compact JSON) for every tool, only where the content changed,
/// and removes entries of tools that no longer exist.
pub fn write_entries(surface: &Surface, out_dir: &Path) -> Result<(), Error> {
    let dir = out_dir.join(OUT_SUBDIR);
    let io = |path: PathBuf, action: &'static str| {
        move |source| Error::Io {
            path,
            action,
            source,
        }
    };
    std::fs::create_dir_all(&dir).map_err(io(dir.clone(), "create the directory"))?;
    for (name, tool) in &surface.tools {
        let path = dir.join(format!("{name}.json"));
        let text = canonical::to_compact_string(&tool.to_published());
        lockfile::write_if_changed(&path, &text).map_err(io(path.clone(), "write"))?;
    }
    let entries = std::fs::read_dir(&dir).map_err(io(dir.clone(), "list"))?;
    for entry in entries.flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        if let Some(name) = file.strip_suffix(".json") {
            if surface.get(name).is_none() {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
    Ok(())
}

/// Gives the just-written lockfile the mtime of cargo's `invoked.timestamp`
/// (written when this build-script run started, next to `OUT_DIR`). Cargo
/// reruns a build script when a `rerun-if-changed` file is newer than that
/// timestamp, so without this every lockfile update would cost one more
/// build-script run and crate compile on the next, otherwise no-op, build.
pub fn settle_mtime(lockfile: &Path, out_dir: Option<&Path>) {
    let Some(stamp) = out_dir
        .and_then(Path::parent)
        .map(|d| d.join("invoked.timestamp"))
    else {
        return;
    };
    let Ok(started) = std::fs::metadata(&stamp).and_then(|m| m.modified()) else {
        return;
    };
    if let Ok(file) = std::fs::File::options().write(true).open(lockfile) {
        let _ = file.set_modified(started);
    }
}

/// The `cargo:` lines that make cargo rerun the build step exactly when an
/// input changed: every source file read, the lockfile, and the two
/// environment variables that decide the mode.
pub fn rerun_directives(sources: &[PathBuf], lockfile: &Path) -> Vec<String> {
    let mut lines: Vec<String> = sources
        .iter()
        .map(|p| format!("cargo:rerun-if-changed={}", p.display()))
        .collect();
    lines.push(format!("cargo:rerun-if-changed={}", lockfile.display()));
    lines.push("cargo:rerun-if-env-changed=CI".into());
    lines.push(format!("cargo:rerun-if-env-changed={LOCKED_ENV}"));
    lines
}
