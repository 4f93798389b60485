//! The build step's cache, under `OUT_DIR`: why a rebuild after a one-line
//! edit costs a few milliseconds instead of parsing and deriving the whole
//! crate again.
//!
//! For every crate root it keeps each source file's [`FileFacts`] (content
//! hash, structure hash, one hash per item), the module files each file
//! declares, what the file contributes to the type index
//! ([`crate::derive::FileNames`]), and for every tool the items its
//! derivation read. A rebuild then:
//! - parses only the files whose bytes changed ([`fast::walk`]); when their
//!   structure is the same and no tool read a changed item (a handler's
//!   body), nothing is derived, rendered, hashed or written;
//! - when some tools read a changed item (a field renamed, a doc comment)
//!   and the structure is the same, derives only those tools, from a type
//!   index built from the cached names (a file is parsed only when an
//!   item of it is read), and splices their parts into the files the last
//!   run wrote ([`partial`], [`splice`]);
//! - otherwise derives every tool, and when every tool that read a changed
//!   item ([`Reuse`]) derives as cached (and the record has no transitions),
//!   skips rendering, hashing and writing: the output is the cached one;
//!   when only those tools changed, it splices as above.
//!
//! The cache is an optimization only. It is keyed on everything else the
//! output depends on ([`key`]: the build step's own binary, the builder's
//! settings, the package metadata, the migration record); a cache that is
//! unreadable, fails its checksum, has another format or key, or whose
//! recorded outputs in `OUT_DIR` were touched since is ignored and rebuilt.
//! rmcp's `#[tool]` fns are cached like `#[mcp_contract::tool]`s, each with
//! the items its derivation read: what discovery reads of them (attributes
//! and signatures) is structure, and their bodies are read by nothing, so a
//! handler-body edit derives nothing and a field renamed in an argument type
//! derives only the tools that reach it. rmcp `#[prompt]`s are cached as a
//! set: an edit reaching an item they read runs the full step. Crates whose
//! tools need other crates' sources are cached as a whole: any change in
//! them runs the full step. Files are
//! written atomically (temporary file, then rename); a torn or half-written
//! file fails the checksum.

pub mod facts;
pub mod fast;
pub mod format;
pub mod partial;
pub mod splice;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

pub use crate::derive::ItemRef;
pub use facts::{content_hash, facts, FileFacts};
pub use format::{load, read_tool, save_index, write_tool};

/// Bumped whenever what the cache holds, or the outputs it vouches for,
/// change meaning (7: the entries in `OUT_DIR` became `<tool>.rs` string
/// literals; a cache of 6 would skip writing them).
pub const FORMAT: u32 = 7;
/// The cache's files in `OUT_DIR`.
pub const INDEX_FILE: &str = "mcp-contract-cache.txt";
/// The directory of the derived tools, one file per tool and root.
pub const TOOLS_DIR: &str = "mcp-contract-cache";

/// Everything remembered from the last full run (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct BuildCache {
    /// [`key`] of the run that wrote it.
    pub key: String,
    pub roots: Vec<RootCache>,
    /// The files the step wrote in `OUT_DIR`, as left by that run.
    pub outputs: Vec<OutputStamp>,
    /// Content hash of the lockfile that run rendered. (Not its revision,
    /// the SHA-256 the plan holds: the next run checks a lockfile written
    /// within the last two seconds by its bytes, and in the unoptimized
    /// build script SHA-256 takes about eight times as long: 13 ms against
    /// 1.5 ms for 200 tools' 484 KB.)
    pub lockfile: String,
    /// The lockfile on disk after that run (when it was that text).
    pub lockfile_stamp: Stamp,
    /// Whether that run's output is a function of its tools, tool by tool,
    /// and its prompts as a whole (see [`partial`]): a surface of cached
    /// `#[mcp_contract::tool]`s and rmcp `#[tool]` fns (each with the cargo
    /// features that gate it, which the rmcp manifest lists beside it) and
    /// rmcp prompts, and a migration record without entries.
    pub by_tool: bool,
    /// [`prompts_hash`] of that run's surface: a later run whose prompts
    /// hash the same wrote the same prompt parts.
    pub prompts: String,
}

/// One crate root's files and tools.
#[derive(Debug, Clone, PartialEq)]
pub struct RootCache {
    pub root: PathBuf,
    pub kind: String,
    /// The index's files: the module walk's (in walk order), then those of
    /// dependency crates the derivation loaded, then the files rmcp
    /// descriptions read through `include_str!`.
    pub files: Vec<CachedFile>,
    /// How many of `files` the module walk found.
    pub walked: usize,
    /// Every tool derived (the `#[mcp_contract::tool]`s, then the rmcp
    /// `#[tool]` fns), with the items it read.
    pub tools: Vec<CachedTool>,
    /// The items the derivations of the root's rmcp prompts read (their
    /// argument types, and what those reach): a change to one runs the
    /// full step, and a re-derivation that reaches none keeps the prompts
    /// ([`BuildCache::prompts`]). (rmcp tools are in `tools`, each with
    /// its own items.)
    /// Which tools and prompts there are, and their attributes and
    /// signatures, are in the files' structure ([`facts`]).
    pub prompt_deps: Vec<ItemRef>,
    /// Whether the root loaded other crates' sources, or an rmcp tool's or
    /// prompt's description reads a file through `include_str!` (those
    /// files follow the index's in `files`, checked by content): then any
    /// change runs the full step.
    pub whole: bool,
}

/// One source file.
#[derive(Debug, Clone, PartialEq)]
pub struct CachedFile {
    /// As the index shows it (relative to the package root when inside it).
    pub path: PathBuf,
    pub module: Vec<String>,
    /// Length and modification time when its bytes had `facts.content`.
    pub stamp: Stamp,
    pub facts: FileFacts,
    /// The module files it declares: (absolute path, module, `mod.rs`-like).
    pub children: Vec<(PathBuf, Vec<String>, bool)>,
    /// What it contributes to the type index, for a crate cached item by
    /// item (so a rebuild can index it without parsing it), as the index
    /// file's lines ([`format::encode_names`]): decoded only by a rebuild
    /// that derives again, so the builds that do not never pay for it.
    pub names: Option<String>,
}

/// One tool and the items its derivation read: (file index, item path).
#[derive(Debug, Clone, PartialEq)]
pub struct CachedTool {
    pub name: String,
    /// Where it is declared: its argument struct for an
    /// `#[mcp_contract::tool]`; for an rmcp `#[tool]` fn, the impl block
    /// or free fn that holds it (whose own hash is not a dependency: what
    /// discovery reads of it is structure, and its bodies are not read).
    pub at: ItemRef,
    /// An rmcp `#[tool]` fn, not an `#[mcp_contract::tool]` struct.
    pub rmcp: bool,
    /// Content hash of its file in [`TOOLS_DIR`] (the derived tool).
    pub hash: String,
    pub deps: Vec<ItemRef>,
    /// The cargo features that gate an rmcp tool (the rmcp manifest lists
    /// them beside the tools, so they are part of what the cached run
    /// wrote for it); empty otherwise.
    pub features: Vec<String>,
}

/// A file's length and modification time (ns since the epoch); `mtime` 0
/// means "compare the bytes": a file modified within the last two seconds
/// may change again within its file system's timestamp granularity
/// without its stamp changing (git's "racily clean" entries).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stamp {
    pub len: u64,
    pub mtime: u128,
}

impl Stamp {
    /// The stamp of `path` now (`None` when it cannot be read).
    pub fn of(path: &Path) -> Option<Stamp> {
        let meta = std::fs::metadata(path).ok()?;
        let modified = meta.modified().ok()?;
        let recent = std::time::SystemTime::now()
            .duration_since(modified)
            .map_or(true, |age| age.as_secs() < 2);
        let mtime = if recent {
            0
        } else {
            modified
                .duration_since(std::time::UNIX_EPOCH)
                .ok()?
                .as_nanos()
        };
        Some(Stamp {
            len: meta.len(),
            mtime,
        })
    }

    /// Whether `path` certainly still has the bytes it had when stamped.
    pub fn holds(&self, path: &Path) -> bool {
        self.mtime != 0 && Stamp::of(path) == Some(*self)
    }
}

/// A file the step wrote under `OUT_DIR`: path relative to it, length,
/// modification time (ns since the epoch).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputStamp {
    pub path: String,
    pub len: u64,
    pub mtime: u128,
}

/// The key of everything the output depends on besides the sources: the
/// build step's binary (its path, size and modification time: another
/// version of the step never reads this cache), and the `parts` the
/// builder gives (settings, package metadata, record bytes).
pub fn key(parts: &[&[u8]]) -> String {
    let mut text = format!("format {FORMAT} {}\n", env!("CARGO_PKG_VERSION")).into_bytes();
    if let Ok(exe) = std::env::current_exe() {
        text.extend_from_slice(exe.to_string_lossy().as_bytes());
        if let Ok(meta) = std::fs::metadata(&exe) {
            text.extend_from_slice(
                format!(" {} {:?}\n", meta.len(), meta.modified().ok()).as_bytes(),
            );
        }
    }
    for part in parts {
        text.extend_from_slice(&(part.len() as u64).to_le_bytes());
        text.extend_from_slice(part);
    }
    content_hash(&text)
}

impl BuildCache {
    /// This index with `roots` for its roots: a clone of everything else.
    /// (The roots are most of the index, and the callers replace them.)
    pub fn with_roots(&self, roots: Vec<RootCache>) -> BuildCache {
        BuildCache {
            key: self.key.clone(),
            roots,
            outputs: self.outputs.clone(),
            lockfile: self.lockfile.clone(),
            lockfile_stamp: self.lockfile_stamp,
            by_tool: self.by_tool,
            prompts: self.prompts.clone(),
        }
    }

    /// Whether `text`, just read from the lockfile at `path`, is the
    /// lockfile the cached run left: by the file's stamp, else by the
    /// text's hash.
    pub fn left_lockfile(&self, path: &Path, text: &str) -> bool {
        self.lockfile_stamp.holds(path) || self.rendered_lockfile(text)
    }

    /// Whether `text` is the lockfile the cached run rendered (by hash).
    pub fn rendered_lockfile(&self, text: &str) -> bool {
        content_hash(text.as_bytes()) == self.lockfile
    }
}

/// Content hash of `surface`'s prompts as locked (name and entry each):
/// what the cache keeps of them, to know that a later run's prompts are
/// the cached run's without rendering them.
pub fn prompts_hash(surface: &mcp_contract::Surface) -> String {
    let mut text = String::new();
    for (name, prompt) in &surface.prompts {
        text.push_str(name);
        text.push('\0');
        text.push_str(&prompt.to_entry().to_string());
        text.push('\n');
    }
    content_hash(text.as_bytes())
}

/// The files the step writes under `out_dir` (entries, plan, rmcp
/// manifest), as they are now, sorted by path.
pub fn output_stamps(out_dir: &Path) -> Vec<OutputStamp> {
    let mut paths: Vec<String> = Vec::new();
    if let Ok(entries) = std::fs::read_dir(out_dir.join(crate::outputs::OUT_SUBDIR)) {
        for e in entries.flatten() {
            paths.push(format!(
                "{}/{}",
                crate::outputs::OUT_SUBDIR,
                e.file_name().to_string_lossy()
            ));
        }
    }
    paths.push(mcp_contract::runtime::PLAN_PATH.to_string());
    paths.push(crate::rmcp::link::MANIFEST_PATH.to_string());
    paths.sort();
    paths
        .into_iter()
        .filter_map(|path| {
            let meta = std::fs::metadata(out_dir.join(&path)).ok()?;
            let mtime = meta
                .modified()
                .ok()?
                .duration_since(std::time::UNIX_EPOCH)
                .ok()?
                .as_nanos();
            Some(OutputStamp {
                path,
                len: meta.len(),
                mtime,
            })
        })
        .collect()
}

/// What a full run knows from the cache for one root: which items changed,
/// so which tools' derivations read a changed item ("affected"); every
/// other tool derives exactly as cached. (The run still derives every tool:
/// in the unoptimized builds build scripts get, deriving a tool costs less
/// than parsing its cached JSON back; what the sets save is rendering and
/// writing when nothing affected changed, see the module docs.)
#[derive(Debug, Default)]
pub struct Reuse {
    /// (file index, item path) of every item that changed.
    pub changed: BTreeSet<ItemRef>,
    /// The cached tools: file hash and the items they read.
    pub tools: BTreeMap<String, (String, Vec<ItemRef>)>,
}

impl Reuse {
    /// The cached file hash of `name` when none of the items its
    /// derivation read changed (it derives as cached).
    pub fn unaffected(&self, name: &str) -> Option<&str> {
        let (hash, deps) = self.tools.get(name)?;
        if deps.iter().any(|d| self.changed.contains(d)) {
            return None;
        }
        Some(hash)
    }
}

/// The items whose hash differs between `old` and `new` facts of file `file`.
pub fn changed_items(file: usize, old: &FileFacts, new: &FileFacts, into: &mut BTreeSet<ItemRef>) {
    for (path, hash) in &new.items {
        if old.items.get(path) != Some(hash) {
            into.insert((file, path.clone()));
        }
    }
    for path in old.items.keys() {
        if !new.items.contains_key(path) {
            into.insert((file, path.clone()));
        }
    }
}
