//! The cache's two files as text: a header line (`mcp-contract-build cache
//! FORMAT CHECKSUM`) then JSON. Reading checks the header and the checksum
//! of everything after it, and decodes strictly: any surprise is "no
//! cache". Writing goes to a temporary file beside the target, then a
//! rename (no fsync: a file lost or torn by a crash fails its checksum and
//! is rebuilt).

use std::collections::BTreeMap;
use std::path::Path;

use mcp_contract::Tool;
use serde_json::{json, Map, Value};

use crate::derive::{FileNames, ImplHead};
use crate::outputs::replace_file;

use super::{
    content_hash, BuildCache, CachedFile, CachedTool, FileFacts, ItemRef, OutputStamp, RootCache,
    Stamp, FORMAT, INDEX_FILE,
};

const MAGIC: &str = "mcp-contract-build cache";

/// The index in `out_dir`, when it is there, intact and of this format.
pub fn load(out_dir: &Path) -> Option<BuildCache> {
    let text = read_checked(&out_dir.join(INDEX_FILE))?;
    decode_index(&text)
}

/// Writes the index. A cache that cannot be written only costs the next
/// build a full run.
pub fn save_index(out_dir: &Path, index: &BuildCache) {
    save_index_with(out_dir, index, encode_roots(&index.roots));
}

/// [`save_index`] with `roots`, the [`encode_roots`] of `index.roots`,
/// encoded already (the re-derivation path encodes them while the plan's
/// revision is computed).
pub fn save_index_with(out_dir: &Path, index: &BuildCache, roots: Option<String>) {
    match roots.and_then(|roots| encode_index(index, &roots)) {
        Some(text) => {
            let _ = replace_file(&out_dir.join(INDEX_FILE), &with_header(&text));
        }
        None => {
            let _ = std::fs::remove_file(out_dir.join(INDEX_FILE));
        }
    }
}

/// The file of tool `name` in `dir` (names are MCP tool names: no `/`).
fn tool_path(dir: &Path, name: &str) -> Option<std::path::PathBuf> {
    crate::is_plain_name(name).then(|| dir.join(format!("{name}.json")))
}

/// Writes a derived tool to `dir`; returns the file's content hash.
pub fn write_tool(dir: &Path, tool: &Tool) -> Option<String> {
    let path = tool_path(dir, &tool.name)?;
    let text = tool_json(tool).to_string();
    std::fs::create_dir_all(dir).ok()?;
    replace_file(&path, &text).ok()?;
    Some(content_hash(text.as_bytes()))
}

/// Removes the derived-tool files of tools `index` no longer has, and the
/// directories of roots it no longer has (best effort: a file left behind
/// is never read, since the index names each file with its hash).
pub fn prune_tools(out_dir: &Path, index: &BuildCache) {
    let base = out_dir.join(super::TOOLS_DIR);
    let Ok(entries) = std::fs::read_dir(&base) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let root = name
            .strip_prefix("root")
            .and_then(|n| n.parse::<usize>().ok())
            .and_then(|n| index.roots.get(n));
        let Some(root) = root else {
            let _ = std::fs::remove_dir_all(entry.path());
            continue;
        };
        let Ok(files) = std::fs::read_dir(entry.path()) else {
            continue;
        };
        for file in files.flatten() {
            let file_name = file.file_name().to_string_lossy().into_owned();
            let kept = file_name
                .strip_suffix(".json")
                .is_some_and(|tool| root.tools.iter().any(|t| t.name == tool));
            if !kept {
                let _ = std::fs::remove_file(file.path());
            }
        }
    }
}

/// The tool in `dir` whose file hashes to `hash`.
pub fn read_tool(dir: &Path, name: &str, hash: &str) -> Option<Tool> {
    let text = std::fs::read_to_string(tool_path(dir, name)?).ok()?;
    if content_hash(text.as_bytes()) != hash {
        return None;
    }
    let tool = tool_from_json(&serde_json::from_str(&text).ok()?)?;
    (tool.name == name).then_some(tool)
}

fn with_header(body: &str) -> String {
    format!("{MAGIC} {FORMAT} {}\n{body}", content_hash(body.as_bytes()))
}

fn checked_body(raw: &str) -> Option<&str> {
    let (header, body) = raw.split_once('\n')?;
    let rest = header.strip_prefix(MAGIC)?.trim_start();
    let (format, sum) = rest.split_once(' ')?;
    if format != FORMAT.to_string() || sum != content_hash(body.as_bytes()) {
        return None;
    }
    Some(body)
}

fn read_checked(path: &Path) -> Option<String> {
    let raw = std::fs::read_to_string(path).ok()?;
    checked_body(&raw).map(str::to_string)
}

fn dotted(p: &[usize]) -> String {
    let mut out = String::new();
    push_dotted(&mut out, p);
    out
}

/// Appends `p` as `1.0.2`. The index is encoded on most rebuilds by the
/// unoptimized build script, where a `String` per number and a `join` cost
/// several times the digits.
fn push_dotted(out: &mut String, p: &[usize]) {
    for (i, n) in p.iter().enumerate() {
        if i > 0 {
            out.push('.');
        }
        push_number(out, *n);
    }
}

fn push_number(out: &mut String, mut n: usize) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.push_str(std::str::from_utf8(&digits[at..]).unwrap_or_default());
}

/// The path [`push_dotted`] wrote: decimal numbers joined by `.` (at least
/// one; anything else is damage).
fn undotted(s: &str) -> Option<Vec<usize>> {
    let bytes = s.as_bytes();
    let mut out = Vec::new();
    let (mut n, mut digits) = (0usize, 0);
    // One step past the end, where `None` ends the last number.
    for i in 0..=bytes.len() {
        match bytes.get(i) {
            Some(b @ b'0'..=b'9') => {
                n = n.checked_mul(10)?.checked_add(usize::from(b - b'0'))?;
                digits += 1;
            }
            None | Some(b'.') if digits > 0 => {
                out.push(n);
                (n, digits) = (0, 0);
            }
            _ => return None,
        }
    }
    Some(out)
}

/// Free text in a line: no tab, newline or carriage return (a path that has
/// one is not cached).
fn text(s: &str) -> Option<&str> {
    // Three `memchr` scans: a word at a time where a per-byte iterator in
    // the unoptimized build script costs tens of instructions a byte.
    let bytes = s.as_bytes();
    let bad = bytes.contains(&b'\t') || bytes.contains(&b'\n') || bytes.contains(&b'\r');
    (!bad).then_some(s)
}

fn module_text(m: &[String]) -> String {
    m.join("::")
}

fn module_of(s: &str) -> Vec<String> {
    if s.is_empty() {
        Vec::new()
    } else {
        s.split("::").map(str::to_string).collect()
    }
}

/// The index as lines of tab-separated fields (read without a JSON parser:
/// build scripts run unoptimized, and this file is read on every build),
/// with `roots` ([`encode_roots`] of `c.roots`) last. `None` when a path
/// cannot be written on one line.
fn encode_index(c: &BuildCache, roots: &str) -> Option<String> {
    use std::fmt::Write;
    let mut out = String::with_capacity(roots.len() + 4096);
    let l = &c.lockfile_stamp;
    let _ = writeln!(out, "key\t{}", &c.key);
    let _ = writeln!(out, "lockfile\t{}\t{}\t{}", &c.lockfile, l.len, l.mtime);
    let _ = writeln!(out, "bytool\t{}", u8::from(c.by_tool));
    let _ = writeln!(out, "promptset\t{}", &c.prompts);
    for o in &c.outputs {
        let _ = writeln!(out, "out\t{}\t{}\t{}", o.len, o.mtime, text(&o.path)?);
    }
    out.push_str(roots);
    Some(out)
}

/// The roots' part of the index (see [`encode_index`]).
pub fn encode_roots(roots: &[RootCache]) -> Option<String> {
    use std::fmt::Write;
    let mut out = String::new();
    for r in roots {
        let _ = writeln!(
            out,
            "root\t{}\t{}\t{}\t{}",
            r.walked,
            u8::from(r.whole),
            text(&r.kind)?,
            text(&r.root.to_string_lossy())?
        );
        for f in &r.files {
            let _ = writeln!(
                out,
                "file\t{}\t{}\t{}\t{}\t{}\t{}",
                f.stamp.len,
                f.stamp.mtime,
                &f.facts.content,
                &f.facts.structure,
                text(&module_text(&f.module))?,
                text(&f.path.to_string_lossy())?
            );
            for (p, h) in &f.facts.items {
                out.push_str("item\t");
                push_dotted(&mut out, p);
                out.push('\t');
                out.push_str(h);
                out.push('\n');
            }
            for (p, m, is_mod) in &f.children {
                let _ = writeln!(
                    out,
                    "child\t{}\t{}\t{}",
                    u8::from(*is_mod),
                    text(&module_text(m))?,
                    text(&p.to_string_lossy())?
                );
            }
            if let Some(names) = &f.names {
                out.push_str(names);
            }
        }
        for t in &r.tools {
            let _ = write!(
                out,
                "{}\t{}\t{}\t{}:{}\t{}",
                if t.rmcp { "rtool" } else { "tool" },
                text(&t.name)?,
                &t.hash,
                t.at.0,
                dotted(&t.at.1),
                item_refs(&t.deps)
            );
            // Its features, one field each, to the end of the line.
            for f in &t.features {
                let _ = write!(out, "\t{}", text(f)?);
            }
            out.push('\n');
        }
        if !r.prompt_deps.is_empty() {
            let _ = writeln!(out, "prompts\t{}", item_refs(&r.prompt_deps));
        }
    }
    Some(out)
}

/// `file:dotted.path` for each item, space-separated.
fn item_refs(items: &[ItemRef]) -> String {
    let mut out = String::new();
    for (i, (f, p)) in items.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        push_number(&mut out, *f);
        out.push(':');
        push_dotted(&mut out, p);
    }
    out
}

/// The items [`item_refs`] wrote.
fn item_refs_of(text: &str) -> Option<Vec<ItemRef>> {
    text.split(' ')
        .filter(|d| !d.is_empty())
        .map(|d| {
            let (f, p) = d.split_once(':')?;
            Some((f.parse().ok()?, undotted(p)?))
        })
        .collect()
}

/// A file's [`FileNames`] as lines of the index (`names` first, so a file
/// with none still has them); `None` when a module or name cannot be
/// written on a line.
pub fn encode_names(n: &FileNames) -> Option<String> {
    use std::fmt::Write;
    let segs = |m: &[String]| -> Option<String> {
        let bad = m
            .iter()
            .any(|s| s.is_empty() || s.contains(':') || text(s).is_none());
        (!bad).then(|| module_text(m))
    };
    let opt = |v: Option<String>| v.unwrap_or_else(|| "-".into());
    let mut out = String::from("names\n");
    for m in &n.scopes {
        let _ = writeln!(out, "scope\t{}", segs(m)?);
    }
    for (m, name) in &n.children {
        let _ = writeln!(
            out,
            "sub\t{}\t{}",
            segs(m)?,
            segs(std::slice::from_ref(name))?
        );
    }
    for (m, name, path, ty) in &n.items {
        let ns = if *ty { "T" } else { "V" };
        let name = segs(std::slice::from_ref(name))?;
        let _ = writeln!(out, "name\t{ns}\t{}\t{}\t{name}", dotted(path), segs(m)?);
    }
    for (m, name, path) in &n.uses {
        let name = segs(std::slice::from_ref(name))?;
        let _ = writeln!(out, "use\t{}\t{name}\t{}", segs(m)?, segs(path)?);
    }
    for (m, path) in &n.globs {
        let _ = writeln!(out, "glob\t{}\t{}", segs(m)?, segs(path)?);
    }
    for (m, path, head) in &n.impls {
        let tr = match &head.trait_last {
            Some(t) => Some(segs(std::slice::from_ref(t))?),
            None => None,
        };
        let ty = match &head.self_path {
            Some(p) if !p.is_empty() => Some(segs(p)?),
            Some(_) => return None,
            None => None,
        };
        let _ = writeln!(
            out,
            "impl\t{}\t{}\t{}\t{}",
            dotted(path),
            segs(m)?,
            opt(tr),
            opt(ty)
        );
    }
    Some(out)
}

/// The [`FileNames`] of [`encode_names`]'s text; `None` when it is not that.
pub fn decode_names(text: &str) -> Option<FileNames> {
    let mut names = FileNames::default();
    let mut lines = text.lines();
    if lines.next()? != "names" {
        return None;
    }
    for line in lines {
        let mut fields = line.split('\t');
        let kind = fields.next()?;
        let fields: Vec<&str> = fields.collect();
        decode_names_line(kind, &fields, &mut names)?;
    }
    Some(names)
}

/// One line of [`encode_names`] (its kind and fields) into `names`.
fn decode_names_line(kind: &str, f: &[&str], names: &mut FileNames) -> Option<()> {
    let opt = |s: &str| (s != "-").then(|| s.to_string());
    match (kind, f) {
        ("names", []) => {}
        ("scope", [m]) => names.scopes.push(module_of(m)),
        ("sub", [m, name]) => names.children.push((module_of(m), name.to_string())),
        ("name", [ns, path, m, name]) => {
            let ty = match *ns {
                "T" => true,
                "V" => false,
                _ => return None,
            };
            names
                .items
                .push((module_of(m), name.to_string(), undotted(path)?, ty));
        }
        ("use", [m, name, path]) => {
            names
                .uses
                .push((module_of(m), name.to_string(), module_of(path)))
        }
        ("glob", [m, path]) => names.globs.push((module_of(m), module_of(path))),
        ("impl", [path, m, tr, ty]) => names.impls.push((
            module_of(m),
            undotted(path)?,
            ImplHead {
                trait_last: opt(tr),
                self_path: opt(ty).map(|t| module_of(&t)),
            },
        )),
        _ => return None,
    }
    Some(())
}

fn decode_index(body: &str) -> Option<BuildCache> {
    let mut c = BuildCache {
        key: String::new(),
        roots: Vec::new(),
        outputs: Vec::new(),
        lockfile: String::new(),
        lockfile_stamp: Stamp::default(),
        by_tool: false,
        prompts: String::new(),
    };
    for line in body.lines() {
        let mut f = line.split('\t');
        let kind = f.next()?;
        let mut next = || f.next();
        match kind {
            "key" => c.key = next()?.to_string(),
            "lockfile" => {
                c.lockfile = next()?.to_string();
                c.lockfile_stamp = Stamp {
                    len: next()?.parse().ok()?,
                    mtime: next()?.parse().ok()?,
                };
            }
            "bytool" => c.by_tool = next()? == "1",
            "promptset" => c.prompts = next()?.to_string(),
            "out" => c.outputs.push(OutputStamp {
                len: next()?.parse().ok()?,
                mtime: next()?.parse().ok()?,
                path: next()?.to_string(),
            }),
            "root" => c.roots.push(RootCache {
                walked: next()?.parse().ok()?,
                whole: next()? == "1",
                kind: next()?.to_string(),
                root: next()?.into(),
                files: Vec::new(),
                tools: Vec::new(),
                prompt_deps: Vec::new(),
            }),
            "file" => {
                let stamp = Stamp {
                    len: next()?.parse().ok()?,
                    mtime: next()?.parse().ok()?,
                };
                let content = next()?.to_string();
                let structure = next()?.to_string();
                let module = module_of(next()?);
                let path = next()?.into();
                c.roots.last_mut()?.files.push(CachedFile {
                    path,
                    module,
                    stamp,
                    facts: FileFacts {
                        content,
                        structure,
                        items: BTreeMap::new(),
                    },
                    children: Vec::new(),
                    names: None,
                });
            }
            // Kept as text, decoded when read (see `CachedFile::names`).
            "names" | "scope" | "sub" | "name" | "use" | "glob" | "impl" => {
                let file = c.roots.last_mut()?.files.last_mut()?;
                let names = file.names.get_or_insert_with(String::new);
                names.push_str(line);
                names.push('\n');
                continue;
            }
            "item" => {
                let p = undotted(next()?)?;
                let h = next()?.to_string();
                let file = c.roots.last_mut()?.files.last_mut()?;
                file.facts.items.insert(p, h);
            }
            "child" => {
                let is_mod = next()? == "1";
                let m = module_of(next()?);
                let p = next()?.into();
                let file = c.roots.last_mut()?.files.last_mut()?;
                file.children.push((p, m, is_mod));
            }
            "tool" | "rtool" => {
                let name = next()?.to_string();
                let hash = next()?.to_string();
                let (f, p) = next()?.split_once(':')?;
                let at = (f.parse().ok()?, undotted(p)?);
                let deps = item_refs_of(next()?)?;
                let features = std::iter::from_fn(&mut next).map(str::to_string).collect();
                c.roots.last_mut()?.tools.push(CachedTool {
                    name,
                    at,
                    rmcp: kind == "rtool",
                    hash,
                    deps,
                    features,
                });
            }
            "prompts" => c.roots.last_mut()?.prompt_deps = item_refs_of(next()?)?,
            _ => return None,
        }
        if next().is_some() {
            return None;
        }
    }
    if c.key.is_empty() || c.roots.iter().any(|r| r.walked > r.files.len()) {
        return None;
    }
    Some(c)
}

fn s(v: &Value) -> Option<String> {
    v.as_str().map(str::to_string)
}

/// A tool as JSON, every field kept (an absent option is a missing key, a
/// present one a one-element array, so `Some(null)` survives).
pub fn tool_json(t: &Tool) -> Value {
    let mut m = Map::new();
    m.insert("name".into(), json!(t.name));
    if let Some(v) = t.version {
        m.insert("version".into(), json!([v]));
    }
    if let Some(v) = &t.title {
        m.insert("title".into(), json!([v]));
    }
    if let Some(v) = &t.description {
        m.insert("description".into(), json!([v]));
    }
    if let Some(v) = &t.annotations {
        m.insert("annotations".into(), json!([v]));
    }
    m.insert("input".into(), t.input_schema.clone());
    if let Some(v) = &t.output_schema {
        m.insert("output".into(), json!([v]));
    }
    m.insert("extra".into(), json!(t.extra));
    Value::Object(m)
}

fn one(v: &Value, key: &str) -> Option<Option<Value>> {
    match v.get(key) {
        None => Some(None),
        Some(Value::Array(a)) if a.len() == 1 => Some(Some(a[0].clone())),
        Some(_) => None,
    }
}

pub fn tool_from_json(v: &Value) -> Option<Tool> {
    let mut t = Tool::new(s(&v["name"])?);
    t.version = match one(v, "version")? {
        Some(n) => Some(n.as_u64()?),
        None => None,
    };
    t.title = match one(v, "title")? {
        Some(x) => Some(s(&x)?),
        None => None,
    };
    t.description = match one(v, "description")? {
        Some(x) => Some(s(&x)?),
        None => None,
    };
    t.annotations = match one(v, "annotations")? {
        Some(Value::Object(m)) => Some(m),
        Some(_) => return None,
        None => None,
    };
    t.input_schema = v.get("input")?.clone();
    t.output_schema = one(v, "output")?;
    t.extra = match v.get("extra")? {
        Value::Object(m) => m.clone().into_iter().collect(),
        _ => return None,
    };
    Some(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> BuildCache {
        let mut items = BTreeMap::new();
        items.insert(vec![0], "aa".to_string());
        items.insert(vec![1, 2], "bb".to_string());
        BuildCache {
            key: "k".into(),
            roots: vec![RootCache {
                root: "src/lib.rs".into(),
                kind: "lib".into(),
                files: vec![CachedFile {
                    path: "src/lib.rs".into(),
                    module: vec!["a".into(), "b".into()],
                    stamp: Stamp {
                        len: 10,
                        mtime: 1_700_000_000_000_000_001,
                    },
                    facts: FileFacts {
                        content: "c".into(),
                        structure: "s".into(),
                        items,
                    },
                    children: vec![("/x/src/a.rs".into(), vec!["a".into()], false)],
                    names: encode_names(&FileNames {
                        scopes: vec![vec![], vec!["m".into()]],
                        children: vec![(vec![], "m".into())],
                        items: vec![
                            (vec![], "A".into(), vec![0], true),
                            (vec!["m".into()], "f".into(), vec![1, 0], false),
                        ],
                        uses: vec![(vec![], "B".into(), vec!["crate".into(), "B".into()])],
                        globs: vec![(vec!["m".into()], vec!["super".into()])],
                        impls: vec![
                            (
                                vec![],
                                vec![2],
                                ImplHead {
                                    trait_last: Some("Default".into()),
                                    self_path: Some(vec!["A".into()]),
                                },
                            ),
                            (vec![], vec![3], ImplHead::default()),
                        ],
                    }),
                }],
                walked: 1,
                tools: vec![
                    CachedTool {
                        name: "t".into(),
                        at: (0, vec![0]),
                        hash: "h".into(),
                        deps: vec![(0, vec![1, 2]), (0, vec![0])],
                        rmcp: false,
                        features: vec![],
                    },
                    CachedTool {
                        name: "r".into(),
                        at: (0, vec![4]),
                        hash: "h2".into(),
                        deps: vec![(0, vec![0])],
                        rmcp: true,
                        features: vec!["x".into(), "with space".into()],
                    },
                ],
                prompt_deps: vec![(0, vec![3]), (0, vec![1, 0])],
                whole: false,
            }],
            outputs: vec![OutputStamp {
                path: "mcp-contract/t.json".into(),
                len: 3,
                mtime: 1_700_000_000_123_456_789,
            }],
            lockfile: "l".into(),
            lockfile_stamp: Stamp { len: 5, mtime: 0 },
            by_tool: true,
            prompts: "p".into(),
        }
    }

    #[test]
    fn item_paths_and_refs_read_back() {
        for p in [vec![], vec![0], vec![3, 10, 205], vec![usize::MAX, 9]] {
            assert_eq!(
                dotted(&p),
                p.iter().map(usize::to_string).collect::<Vec<_>>().join(".")
            );
            if !p.is_empty() {
                assert_eq!(undotted(&dotted(&p)), Some(p));
            }
        }
        for damaged in [
            "",
            ".",
            "1.",
            ".1",
            "1..2",
            "1.x",
            "+1",
            "99999999999999999999999",
        ] {
            assert_eq!(undotted(damaged), None, "{damaged:?}");
        }
        let refs: Vec<ItemRef> = vec![(0, vec![1]), (12, vec![0, 3]), (7, vec![100, 20, 3])];
        assert_eq!(item_refs(&refs), "0:1 12:0.3 7:100.20.3");
        assert_eq!(item_refs_of(&item_refs(&refs)), Some(refs));
        assert_eq!(item_refs(&[]), "");
        assert_eq!(text("src/a b.rs"), Some("src/a b.rs"));
        for bad in ["a\tb", "a\nb", "a\rb"] {
            assert_eq!(text(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn round_trips_and_rejects_damage() {
        let dir = tempfile::tempdir().unwrap();
        let index = sample();
        save_index(dir.path(), &index);
        assert_eq!(load(dir.path()).as_ref(), Some(&index));
        // One flipped byte, a truncation, another format, garbage: no cache.
        let path = dir.path().join(INDEX_FILE);
        let good = std::fs::read(&path).unwrap();
        let mut flipped = good.clone();
        let at = good.len() - 5;
        flipped[at] ^= 1;
        let other_format = String::from_utf8(good.clone()).unwrap().replacen(
            &format!("cache {FORMAT} "),
            "cache 999 ",
            1,
        );
        for bad in [
            flipped,
            good[..good.len() / 2].to_vec(),
            other_format.into_bytes(),
            b"\x00\xff garbage".to_vec(),
        ] {
            std::fs::write(&path, &bad).unwrap();
            assert!(load(dir.path()).is_none());
        }
    }

    #[test]
    fn names_round_trip_and_foreign_lines_are_refused() {
        let index = sample();
        let text = index.roots[0].files[0].names.clone().unwrap();
        let names = decode_names(&text).unwrap();
        assert_eq!(names.impls.len(), 2);
        assert_eq!(encode_names(&names).as_deref(), Some(text.as_str()));
        for bad in [
            "",
            "scope\t\n",
            "names\nname\tX\t0\t\tA\n",
            "names\nimpl\t0\n",
        ] {
            assert!(decode_names(bad).is_none(), "{bad:?}");
        }
        // A module that cannot be written on a line is not cached.
        let odd = FileNames {
            scopes: vec![vec!["::dep#0".into()]],
            ..FileNames::default()
        };
        assert!(encode_names(&odd).is_none());
    }

    #[test]
    fn tools_round_trip_and_a_changed_file_is_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let mut t = Tool::new("t");
        t.version = Some(2);
        t.output_schema = Some(Value::Null);
        t.extra.insert("icons".into(), json!([1]));
        let hash = write_tool(dir.path(), &t).unwrap();
        assert_eq!(read_tool(dir.path(), "t", &hash), Some(t.clone()));
        assert_eq!(read_tool(dir.path(), "t", "other"), None);
        std::fs::write(dir.path().join("t.json"), "{}").unwrap();
        assert_eq!(read_tool(dir.path(), "t", &hash), None);
        assert!(write_tool(dir.path(), &Tool::new("../x")).is_none());
    }
}
