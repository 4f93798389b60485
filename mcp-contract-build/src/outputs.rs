//! Everything the build step writes: the lockfile (only when its content
//! changed, atomically, and never in locked mode), the per-tool entries in
//! `OUT_DIR` that the macro embeds, and the `cargo:` directives that keep a
//! no-op build from doing any work.

use std::path::{Path, PathBuf};

use mcp_contract::{canonical, lockfile, Surface};
use serde_json::Value;

use crate::error::Error;
use crate::mode::{Decision, Mode, LOCKED_ENV};

pub use mcp_contract_syntax::{entry_file_name, OUT_SUBDIR};

/// The surface rendered once: the lockfile's JSON value (canonical entries
/// with digests) and its text. The `OUT_DIR` entries and the change summary
/// are read from the value, so nothing is canonicalized or hashed twice.
pub struct Rendered {
    pub value: Value,
    pub text: String,
}

/// Renders `surface` as the lockfile.
pub fn render(surface: &Surface) -> Rendered {
    let value = lockfile::to_value(surface);
    let text = canonical::to_canonical_string(&value);
    Rendered { value, text }
}

impl Rendered {
    /// `(name, locked entry)` for every tool.
    fn tools(&self) -> impl Iterator<Item = (&String, &Value)> {
        self.value
            .get("tools")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
    }

    fn has_tool(&self, name: &str) -> bool {
        self.value.get("tools").and_then(|t| t.get(name)).is_some()
    }
}

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
    rendered: &Rendered,
    path: &Path,
    shown: &Path,
    decision: &Decision,
    package: &str,
) -> Result<LockOutcome, Error> {
    let text = rendered.text.as_str();
    match decision.mode {
        Mode::EmbedOnly => Ok(LockOutcome::Skipped),
        Mode::Update => {
            let changes = match std::fs::read(path) {
                Ok(bytes) if bytes == text.as_bytes() => return Ok(LockOutcome::Unchanged),
                Ok(bytes) => tool_changes(&bytes, rendered),
                Err(_) => vec!["created".to_string()],
            };
            let written = write_lockfile(path, shown, text)?;
            Ok(if written {
                LockOutcome::Written(changes)
            } else {
                LockOutcome::Unchanged
            })
        }
        Mode::Verify => {
            let existing = std::fs::read(path).ok();
            if existing.as_deref() == Some(text.as_bytes()) {
                return Ok(LockOutcome::Unchanged);
            }
            let changes = match &existing {
                Some(bytes) => tool_changes(bytes, rendered),
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
/// disk and the sources, by digest (the lockfile is read as plain JSON: a
/// hand-edited or conflicted file is reported, not validated, here).
fn tool_changes(existing: &[u8], rendered: &Rendered) -> Vec<String> {
    // (a merge's markers: say so, not what the JSON parser makes of them)
    let text = String::from_utf8_lossy(existing);
    if let Some(line) = mcp_contract::load::conflict_marker_line(&text) {
        return vec![format!(
            "unresolved merge-conflict marker at line {line} (the build writes the lockfile afresh from the sources)"
        )];
    }
    let old: Value = match serde_json::from_slice(existing) {
        Ok(v) => v,
        Err(e) => return vec![format!("unreadable: {e}")],
    };
    let old_tools = old.get("tools").and_then(Value::as_object);
    let digest_of = |entry: &Value| entry.get("digest").cloned();
    let mut out = Vec::new();
    for (name, entry) in rendered.tools() {
        match old_tools.and_then(|t| t.get(name)) {
            None => out.push(format!("added: {name}")),
            Some(o) if digest_of(o) != digest_of(entry) => out.push(format!("changed: {name}")),
            Some(_) => {}
        }
    }
    for name in old_tools.into_iter().flat_map(|t| t.keys()) {
        if !rendered.has_tool(name) {
            out.push(format!("removed: {name}"));
        }
    }
    if out.is_empty() {
        out.push("formatting differs (the content is the same)".into());
    }
    out
}

/// Writes `<out_dir>/mcp-contract/<tool>.rs` (the embedded entry as a Rust
/// string literal, see [`entry_file_text`]) for every tool, only where the
/// content changed, and removes every other file there (entries of tools
/// that no longer exist, and the `<tool>.json` files of older versions).
pub fn write_entries(rendered: &Rendered, out_dir: &Path) -> Result<(), Error> {
    let dir = out_dir.join(OUT_SUBDIR);
    let io = |path: PathBuf, action: &'static str| {
        move |source| Error::Io {
            path,
            action,
            source,
        }
    };
    std::fs::create_dir_all(&dir).map_err(io(dir.clone(), "create the directory"))?;
    for (name, entry) in rendered.tools() {
        let path = dir.join(entry_file_name(name));
        let text = entry_file_text(name, entry);
        write_output(&path, &text).map_err(io(path.clone(), "write"))?;
    }
    let entries = std::fs::read_dir(&dir).map_err(io(dir.clone(), "list"))?;
    for entry in entries.flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        let current = file
            .strip_suffix(".rs")
            .is_some_and(|name| rendered.has_tool(name));
        if !current {
            let _ = std::fs::remove_file(entry.path());
        }
    }
    Ok(())
}

/// Replaces the build output at `path` with `text`, unless it holds that
/// already. The file is replaced by a rename, so a reader never sees it
/// half-written, but not `fsync`ed as the lockfile is
/// (`mcp_contract::atomic`): everything under `OUT_DIR` is a build
/// artifact that cargo regenerates when a build was cut short (a build
/// script's run counts only once it finished), and the cache checks the
/// outputs' stamps before it trusts them. (A file's and its directory's
/// `fsync` took 0.4 ms here; a one-tool edit writes three such files.)
pub fn write_output(path: &Path, text: &str) -> std::io::Result<()> {
    let same_len = std::fs::metadata(path).is_ok_and(|m| m.len() == text.len() as u64);
    if same_len && std::fs::read(path).is_ok_and(|existing| existing == text.as_bytes()) {
        return Ok(());
    }
    replace_file(path, text)
}

/// Writes `text` to a temporary file beside `path` and renames it over
/// `path` (no `fsync`: see [`write_output`]).
pub fn replace_file(path: &Path, text: &str) -> std::io::Result<()> {
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// Writes `(path relative to OUT_DIR, text)` files, each only where its
/// content changed (creating directories as needed).
pub fn write_files(out_dir: &Path, files: &[(PathBuf, String)]) -> Result<(), Error> {
    for (rel, text) in files {
        let path = out_dir.join(rel);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|source| Error::Io {
                path: dir.to_path_buf(),
                action: "create the directory",
                source,
            })?;
        }
        write_output(&path, text).map_err(|source| Error::Io {
            path: path.clone(),
            action: "write",
            source,
        })?;
    }
    Ok(())
}

/// Writes the lockfile text (update mode), atomically and only on change.
pub fn write_lockfile(path: &Path, shown: &Path, text: &str) -> Result<bool, Error> {
    lockfile::write_if_changed(path, text).map_err(|source| Error::Io {
        path: shown.to_path_buf(),
        action: "write the lockfile",
        source,
    })
}

/// A locked entry as the macro embeds it (`LockedTool::entry`): the
/// published definition (`Tool::to_published`) plus the contract's
/// `version` when declared, so the generated code needs no constant for
/// the name or the version. Compact JSON: the entry is canonical already
/// and serde_json's map keeps keys sorted, so this is the canonical compact
/// form without a second pass.
pub fn embedded_text(name: &str, entry: &Value) -> String {
    embedded_value(name, entry).to_string()
}

/// The text of tool `name`'s entry file: [`embedded_text`] as one Rust
/// string literal, which the macro hands to rustc as it is. The literal is
/// made here, once per changed entry, rather than in the macro, which runs
/// for every tool on every build of the crate, unoptimized in the dev
/// profile: finding how many `#` a raw literal needs cost it more than the
/// rest of the expansion.
pub fn entry_file_text(name: &str, entry: &Value) -> String {
    string_literal(&embedded_text(name, entry))
}

/// `text` as a Rust string literal: raw (`r#"…"#`, nothing for rustc to
/// unescape: JSON is full of quotes) unless it holds a carriage return,
/// which a raw string cannot; then escaped by `{:?}` (whose escapes are
/// Rust's).
fn string_literal(text: &str) -> String {
    if text.contains('\r') {
        return format!("{text:?}");
    }
    // The fewest `#` that no quote in the text is followed by (`"#/$defs/…`
    // is common, so usually two); the loop ends by the text's length at the
    // latest.
    let mut closing = String::from("\"#");
    while text.contains(&closing) {
        closing.push('#');
    }
    let hashes = &closing[1..];
    format!("r{hashes}\"{text}{closing}")
}

/// A locked entry as `tools/list` publishes it: the embedded entry
/// without `version`.
pub fn published_value(name: &str, entry: &Value) -> Value {
    let mut published = embedded_value(name, entry);
    if let Value::Object(m) = &mut published {
        m.remove("version");
    }
    published
}

/// A locked entry without its `digest`, with its `name`.
fn embedded_value(name: &str, entry: &Value) -> Value {
    let mut embedded = entry.clone();
    if let Value::Object(m) = &mut embedded {
        m.remove("digest");
        m.insert("name".into(), Value::String(name.to_string()));
    }
    embedded
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

/// The files a run read, each once, in the order first read: what
/// [`rerun_directives`] watches. (A crate has hundreds; a list searched on
/// every insertion made the no-op build's largest cost.) Paths are told
/// apart by their bytes: `Path`'s own hash splits the path into components
/// first, which in the unoptimized build script cost about 25,000
/// instructions a file. (Every path is joined the same way, from the
/// manifest directory or cargo's metadata; a file spelled two ways would
/// only be watched twice.)
#[derive(Debug, Default)]
pub struct Sources {
    list: Vec<PathBuf>,
    seen: std::collections::HashSet<std::ffi::OsString>,
}

impl Sources {
    pub fn add(&mut self, path: PathBuf) {
        if self.seen.insert(path.as_os_str().to_owned()) {
            self.list.push(path);
        }
    }

    pub fn as_slice(&self) -> &[PathBuf] {
        &self.list
    }

    pub fn into_vec(self) -> Vec<PathBuf> {
        self.list
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

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_contract::Tool;

    fn surface() -> Surface {
        let mut s = Surface::new();
        let mut t = Tool::new("search");
        t.version = Some(2);
        t.description = Some("Find.".into());
        t.input_schema = serde_json::json!({"type": "object", "required": ["b", "a"],
            "properties": {"b": {"type": "string"}, "a": {"type": "integer"}}});
        s.insert(t);
        s.insert(Tool::new("ping"));
        s
    }

    #[test]
    fn entries_are_the_published_canonical_form() {
        let s = surface();
        let r = render(&s);
        assert_eq!(r.text, lockfile::render(&s));
        for (name, entry) in r.tools() {
            let tool = s.get(name).unwrap();
            assert_eq!(
                published_value(name, entry).to_string(),
                canonical::to_compact_string(&tool.to_published())
            );
            // The embedded entry is the published form plus the version,
            // and reads back as the same tool.
            let embedded = embedded_text(name, entry);
            let mut published = tool.to_published();
            if let (Value::Object(m), Some(v)) = (&mut published, tool.version) {
                m.insert("version".into(), Value::from(v));
            }
            assert_eq!(embedded, canonical::to_compact_string(&published));
            let back = mcp_contract::__private::locked_tool(&embedded);
            assert_eq!((&back.name, back.to_entry()), (&tool.name, tool.to_entry()));
        }
    }

    /// Every text comes back from the literal unchanged: quotes followed by
    /// `#` runs (a `$ref` is `"#/$defs/…"`), backslashes, a carriage return.
    #[test]
    fn entry_literals_read_back_as_the_text() {
        for text in [
            r##"{"$ref":"#/$defs/A"}"##,
            r###"{"a":"##","b":"\"#"}"###,
            "plain",
            "",
            "line\r\nbreak \\ \"quoted\" \u{7f} \u{1b}",
        ] {
            let literal = string_literal(text);
            let lit: syn::LitStr =
                syn::parse_str(&literal).unwrap_or_else(|e| panic!("{literal}: {e}"));
            assert_eq!(lit.value(), text, "{literal}");
        }
        assert_eq!(
            string_literal(r##"{"$ref":"#/$defs/A"}"##),
            r####"r##"{"$ref":"#/$defs/A"}"##"####
        );
    }

    #[test]
    fn changes_by_tool() {
        let old = render(&surface());
        let mut s = surface();
        s.tools.remove("ping");
        s.tools.get_mut("search").unwrap().description = Some("Changed.".into());
        let mut t = Tool::new("new_tool");
        t.title = Some("New".into());
        s.insert(t);
        let changes = tool_changes(old.text.as_bytes(), &render(&s));
        assert_eq!(
            changes,
            ["added: new_tool", "changed: search", "removed: ping"]
        );
    }

    #[test]
    fn a_conflicted_lockfile_is_named_as_one() {
        let text = render(&surface()).text;
        let mut lines: Vec<&str> = text.lines().collect();
        lines.splice(3..3, ["<<<<<<< HEAD", "=======", ">>>>>>> other"]);
        let changes = tool_changes(lines.join("\n").as_bytes(), &render(&surface()));
        assert_eq!(
            changes,
            ["unresolved merge-conflict marker at line 4 (the build writes the lockfile afresh from the sources)"]
        );
    }
}
