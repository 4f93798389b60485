//! Reserved names without walking the whole history on every `check`: the
//! names ever published (with their last contract), the revision count and
//! the skipped revisions are cached per lockfile in
//! `<git common dir>/mcp-contract/` (which `git clean` never touches and no
//! commit carries), keyed by the last commit processed.
//!
//! - Same baseline commit: the cache answers; only the names the check asks
//!   about are parsed (one line each, found without parsing the others).
//! - A later baseline whose first-parent chain passes through the key: the
//!   revisions since are read (`git log key..baseline`) and folded into the
//!   cached state ([`HistoryBuilder::resume`]).
//! - Anything else (history rewritten, an older baseline, another file, a
//!   cache that fails its checksum or does not parse): the history is walked
//!   from the start and the cache rewritten. The cache is never trusted
//!   beyond its checksum and its key; it is written atomically.

use std::collections::{BTreeMap, BTreeSet};
use std::hash::Hasher;
use std::path::PathBuf;

use serde_json::{json, Map, Value};

use super::{History, HistoryBuilder, Published};
use crate::error::InputError;
use crate::git::{lockfile_revisions, BlobReader, Repo, Revision};
use crate::model::Tool;

/// Set to `1` to walk the history on every check (no cache read or written).
pub const DISABLE_ENV: &str = "MCP_CONTRACT_NO_HISTORY_CACHE";

const MAGIC: &str = "mcp-contract reserved-names cache";
const FORMAT: u32 = 1;

/// The names a check asks about (see [`crate::check::reserved::wanted`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Wanted {
    pub tools: BTreeSet<String>,
    /// Timeline keys of prompts, resources and templates ([`super::entry_key`]).
    pub entries: BTreeSet<String>,
}

/// How the answer was obtained (for benches and tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The cache's key was the baseline.
    Cached,
    /// The cache was brought forward by this many revisions of the lockfile.
    Updated(usize),
    /// The whole history was walked (no usable cache).
    Walked,
}

/// The history [`crate::check`] needs for reserved names, up to `upto`:
/// `published` and `published_entries` hold the `wanted` names (those ever
/// published), `revisions` and `skipped` are complete, there are no
/// timelines. Uses and keeps the cache; `use_cache: false` walks and
/// writes nothing.
pub fn reserved_history(
    repo: &Repo,
    upto: &str,
    rel_path: &str,
    wanted: &Wanted,
    use_cache: bool,
) -> Result<(History, Source), InputError> {
    let path = use_cache.then(|| cache_path(repo, rel_path)).flatten();
    let raw = path.as_ref().and_then(|p| std::fs::read_to_string(p).ok());
    let cached = raw.as_deref().and_then(|r| Cached::read(r, rel_path));
    if let Some(c) = &cached {
        if c.key == upto {
            if let Some(h) = c.partial(wanted) {
                return Ok((h, Source::Cached));
            }
        }
    }
    let (state, source) = match cached.and_then(|c| forward(repo, c, upto, rel_path).transpose()) {
        Some(Ok((state, n))) => (state, Source::Updated(n)),
        Some(Err(e)) => return Err(e),
        None => (walk(repo, upto, rel_path)?, Source::Walked),
    };
    if let Some(p) = &path {
        // A cache that cannot be written costs the next check a walk.
        match state.render(upto, rel_path) {
            Some(text) => {
                let _ = write(p, &text);
            }
            None => {
                let _ = std::fs::remove_file(p);
            }
        }
    }
    Ok((state.select(wanted), source))
}

/// The whole state after the last revision: the history (no timelines) and
/// the blob of the last revision that was applied (`None`: file absent).
struct State {
    history: History,
    last_blob: Option<String>,
}

fn walk(repo: &Repo, upto: &str, rel_path: &str) -> Result<State, InputError> {
    let revisions = lockfile_revisions(repo, upto, rel_path)?;
    let builder = HistoryBuilder::new(rel_path);
    fold(repo, builder, None, &revisions)
}

fn fold(
    repo: &Repo,
    mut builder: HistoryBuilder,
    mut last_blob: Option<String>,
    revisions: &[Revision],
) -> Result<State, InputError> {
    let mut reader = BlobReader::start(repo)?;
    for rev in revisions {
        let text = match &rev.blob {
            Some(blob) => reader
                .read(blob)?
                .map(|bytes| String::from_utf8_lossy(&bytes).into_owned()),
            None => None,
        };
        if builder.push(rev, text.as_deref()) {
            last_blob = rev.blob.clone();
        }
    }
    reader.finish()?;
    let mut history = builder.finish();
    history.timelines.clear();
    Ok(State { history, last_blob })
}

/// The cached state brought to `upto` when `upto`'s first-parent chain
/// passes through the key; `Ok(None)` when it does not (or the cached
/// state does not resume).
fn forward(
    repo: &Repo,
    cached: Cached<'_>,
    upto: &str,
    rel_path: &str,
) -> Result<Option<(State, usize)>, InputError> {
    let range = format!("{}..{upto}", cached.key);
    let out = repo.git(["rev-list", "--first-parent", "--parents", &range])?;
    if !out.ok {
        return Ok(None); // the key commit is gone (rewritten history, gc)
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let chain: Vec<Vec<&str>> = text
        .lines()
        .map(|l| l.split(' ').collect::<Vec<_>>())
        .collect();
    // Newest first: each commit's first parent is the next line's commit,
    // and the oldest one's is the key.
    let linked = !chain.is_empty()
        && chain.iter().all(|c| c.len() >= 2)
        && chain.windows(2).all(|w| w[0][1] == w[1][0])
        && chain.last().map(|c| c[1]) == Some(cached.key.as_str());
    if !linked {
        return Ok(None);
    }
    let Some(history) = cached.full() else {
        return Ok(None);
    };
    let last_text = match &cached.last_blob {
        Some(blob) => {
            let mut reader = BlobReader::start(repo)?;
            let bytes = reader.read(blob)?;
            reader.finish()?;
            match bytes {
                Some(b) => Some(String::from_utf8_lossy(&b).into_owned()),
                None => return Ok(None),
            }
        }
        None => None,
    };
    let Some(builder) = HistoryBuilder::resume(rel_path, history, last_text.as_deref()) else {
        return Ok(None);
    };
    let revisions = lockfile_revisions(repo, &range, rel_path)?;
    let n = revisions.len();
    fold(repo, builder, cached.last_blob.clone(), &revisions).map(|s| Some((s, n)))
}

impl State {
    fn select(self, wanted: &Wanted) -> History {
        let mut h = self.history;
        h.published.retain(|k, _| wanted.tools.contains(k));
        h.published_entries
            .retain(|k, _| wanted.entries.contains(k));
        h
    }

    /// The cache file; `None` when an entry would not read back as it is
    /// (then no cache is written).
    fn render(&self, key: &str, rel_path: &str) -> Option<String> {
        let h = &self.history;
        let mut body = json!({"key": key, "file": rel_path, "revisions": h.revisions,
            "skipped": h.skipped, "last_blob": self.last_blob})
        .to_string();
        body.push('\n');
        for (name, p) in &h.published {
            let props: Map<String, Value> = p
                .properties
                .iter()
                .map(|(ptr, (schema, commit))| (ptr.clone(), json!([schema, commit])))
                .collect();
            let line =
                json!({"last": tool_json(&p.last), "commit": p.last_commit, "properties": props});
            body.push_str(&format!("T {}\t{line}\n", json!(name)));
        }
        for (key, (surface, commit)) in &h.published_entries {
            let text = crate::lockfile::render(surface);
            if crate::lockfile::parse(text.as_bytes(), rel_path)
                .ok()
                .as_ref()
                != Some(surface)
            {
                return None;
            }
            body.push_str(&format!("E {}\t{}\n", json!(key), json!([text, commit])));
        }
        Some(format!(
            "{MAGIC} {FORMAT} {}\n{body}",
            checksum(body.as_bytes())
        ))
    }
}

/// A cache file that passed its checksum: the header parsed, each name's
/// line kept as text until asked for.
struct Cached<'a> {
    key: String,
    revisions: usize,
    skipped: Vec<(String, String)>,
    last_blob: Option<String>,
    tools: BTreeMap<String, &'a str>,
    entries: BTreeMap<String, &'a str>,
    file: String,
}

impl<'a> Cached<'a> {
    fn read(raw: &'a str, rel_path: &str) -> Option<Cached<'a>> {
        let (first, body) = raw.split_once('\n')?;
        let rest = first.strip_prefix(MAGIC)?.trim_start();
        let (format, sum) = rest.split_once(' ')?;
        if format != FORMAT.to_string() || sum != checksum(body.as_bytes()) {
            return None;
        }
        let mut lines = body.lines();
        let header: Value = serde_json::from_str(lines.next()?).ok()?;
        if header["file"].as_str()? != rel_path {
            return None;
        }
        let key = header["key"].as_str()?.to_string();
        let skipped = header["skipped"]
            .as_array()?
            .iter()
            .map(|s| Some((s[0].as_str()?.to_string(), s[1].as_str()?.to_string())))
            .collect::<Option<Vec<_>>>()?;
        let last_blob = match &header["last_blob"] {
            Value::Null => None,
            v => Some(v.as_str()?.to_string()),
        };
        let mut tools = BTreeMap::new();
        let mut entries = BTreeMap::new();
        for line in lines {
            let (kind, rest) = line.split_at_checked(2)?;
            let (name, json_text) = rest.split_once('\t')?;
            let name: String = serde_json::from_str(name).ok()?;
            match kind {
                "T " => tools.insert(name, json_text),
                "E " => entries.insert(name, json_text),
                _ => return None,
            };
        }
        Some(Cached {
            key,
            revisions: header["revisions"].as_u64()? as usize,
            skipped,
            last_blob,
            tools,
            entries,
            file: rel_path.to_string(),
        })
    }

    fn history_with(
        &self,
        tools: &mut dyn Iterator<Item = (&String, &&'a str)>,
        entries: &mut dyn Iterator<Item = (&String, &&'a str)>,
    ) -> Option<History> {
        let mut h = History {
            revisions: self.revisions,
            skipped: self.skipped.clone(),
            ..History::default()
        };
        for (name, line) in tools {
            h.published.insert(name.clone(), published_from(line)?);
        }
        for (key, line) in entries {
            let v: Value = serde_json::from_str(line).ok()?;
            let surface = crate::lockfile::parse(v[0].as_str()?.as_bytes(), &self.file).ok()?;
            h.published_entries
                .insert(key.clone(), (surface, v[1].as_str()?.to_string()));
        }
        Some(h)
    }

    /// Only the wanted names, parsed.
    fn partial(&self, wanted: &Wanted) -> Option<History> {
        let mut tools = wanted
            .tools
            .iter()
            .filter_map(|n| self.tools.get_key_value(n));
        let mut entries = wanted
            .entries
            .iter()
            .filter_map(|n| self.entries.get_key_value(n));
        self.history_with(&mut tools, &mut entries)
    }

    /// Every name, parsed (to continue the history).
    fn full(&self) -> Option<History> {
        self.history_with(&mut self.tools.iter(), &mut self.entries.iter())
    }
}

fn published_from(line: &str) -> Option<Published> {
    let v: Value = serde_json::from_str(line).ok()?;
    let properties = v["properties"]
        .as_object()?
        .iter()
        .map(|(ptr, e)| Some((ptr.clone(), (e[0].clone(), e[1].as_str()?.to_string()))))
        .collect::<Option<BTreeMap<_, _>>>()?;
    Some(Published {
        last: tool_from_json(&v["last"])?,
        last_commit: v["commit"].as_str()?.to_string(),
        properties,
    })
}

/// A tool as JSON with every field kept (an option present is a
/// one-element array, so `Some(null)` survives).
fn tool_json(t: &Tool) -> Value {
    let mut m = Map::new();
    m.insert("name".into(), json!(t.name));
    let mut opt = |k: &str, v: Option<Value>| {
        if let Some(v) = v {
            m.insert(k.into(), json!([v]));
        }
    };
    opt("version", t.version.map(|v| json!(v)));
    opt("title", t.title.as_ref().map(|v| json!(v)));
    opt("description", t.description.as_ref().map(|v| json!(v)));
    opt("annotations", t.annotations.clone().map(Value::Object));
    opt("output", t.output_schema.clone());
    m.insert("input".into(), t.input_schema.clone());
    m.insert("extra".into(), json!(t.extra));
    Value::Object(m)
}

fn tool_from_json(v: &Value) -> Option<Tool> {
    let one = |k: &str| -> Option<Option<Value>> {
        match v.get(k) {
            None => Some(None),
            Some(Value::Array(a)) if a.len() == 1 => Some(Some(a[0].clone())),
            Some(_) => None,
        }
    };
    let mut t = Tool::new(v["name"].as_str()?);
    t.version = match one("version")? {
        Some(n) => Some(n.as_u64()?),
        None => None,
    };
    t.title = match one("title")? {
        Some(s) => Some(s.as_str()?.to_string()),
        None => None,
    };
    t.description = match one("description")? {
        Some(s) => Some(s.as_str()?.to_string()),
        None => None,
    };
    t.annotations = match one("annotations")? {
        Some(Value::Object(m)) => Some(m),
        Some(_) => return None,
        None => None,
    };
    t.output_schema = one("output")?;
    t.input_schema = v.get("input")?.clone();
    t.extra = v.get("extra")?.as_object()?.clone().into_iter().collect();
    Some(t)
}

/// 64-bit FNV-1a over 8-byte words, two lanes: a checksum against damage
/// (truncation, a flipped bit), stable across Rust versions.
fn checksum(bytes: &[u8]) -> String {
    let (mut a, mut b) = (0xcbf2_9ce4_8422_2325u64, 0x8422_2325_cbf2_9ce4u64);
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
        a = (a ^ w).wrapping_mul(0x0000_0100_0000_01b3);
        b = (b ^ w.rotate_left(29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    let mut h = std::collections::hash_map::DefaultHasher::new();
    h.write(chunks.remainder());
    format!(
        "{a:016x}{b:016x}{:016x}{:04x}",
        h.finish() & 0xffff_ffff,
        bytes.len() & 0xffff
    )
}

/// `<git common dir>/mcp-contract/reserved-<hash of the path>.cache`.
fn cache_path(repo: &Repo, rel_path: &str) -> Option<PathBuf> {
    let dot = repo.root.join(".git");
    let git_dir = if dot.is_dir() {
        dot
    } else {
        let text = std::fs::read_to_string(&dot).ok()?;
        let dir = PathBuf::from(text.strip_prefix("gitdir:")?.trim());
        let dir = if dir.is_absolute() {
            dir
        } else {
            repo.root.join(dir)
        };
        match std::fs::read_to_string(dir.join("commondir")) {
            Ok(common) => {
                let c = PathBuf::from(common.trim());
                if c.is_absolute() {
                    c
                } else {
                    dir.join(c)
                }
            }
            Err(_) => dir,
        }
    };
    let name = format!("reserved-{}.cache", &checksum(rel_path.as_bytes())[..16]);
    Some(git_dir.join("mcp-contract").join(name))
}

fn write(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    crate::atomic::write(path, text.as_bytes())
}
