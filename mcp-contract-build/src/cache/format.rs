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

use super::{
    content_hash, BuildCache, CachedFile, CachedTool, FileFacts, OutputStamp, RootCache,
    ToolsCache, FORMAT, INDEX_FILE, TOOLS_FILE,
};

const MAGIC: &str = "mcp-contract-build cache";

/// The index in `out_dir`, when it is there, intact and of this format.
pub fn load(out_dir: &Path) -> Option<BuildCache> {
    let text = read_checked(&out_dir.join(INDEX_FILE))?;
    let value: Value = serde_json::from_str(&text).ok()?;
    decode_index(&value)
}

/// The tools file belonging to `index`.
pub fn load_tools(out_dir: &Path, index: &BuildCache) -> Option<ToolsCache> {
    let path = out_dir.join(TOOLS_FILE);
    let raw = std::fs::read_to_string(&path).ok()?;
    if content_hash(raw.as_bytes()) != index.tools_hash {
        return None;
    }
    let text = checked_body(&raw)?;
    let value: Value = serde_json::from_str(text).ok()?;
    decode_tools(&value)
}

/// Writes both files (the tools file first: the index names its hash).
/// A cache that cannot be written only costs the next build a full run.
pub fn save(out_dir: &Path, index: &mut BuildCache, tools: &ToolsCache) {
    let tools_text = with_header(&encode_tools(tools).to_string());
    index.tools_hash = content_hash(tools_text.as_bytes());
    let index_text = with_header(&encode_index(index).to_string());
    if write(&out_dir.join(TOOLS_FILE), &tools_text).is_ok() {
        let _ = write(&out_dir.join(INDEX_FILE), &index_text);
    }
}

/// Writes only the index (the tools file is unchanged).
pub fn save_index(out_dir: &Path, index: &BuildCache) {
    let _ = write(
        &out_dir.join(INDEX_FILE),
        &with_header(&encode_index(index).to_string()),
    );
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

fn write(path: &Path, text: &str) -> std::io::Result<()> {
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

fn path_json(p: &[usize]) -> Value {
    Value::Array(p.iter().map(|&i| json!(i)).collect())
}

fn encode_index(c: &BuildCache) -> Value {
    let roots: Vec<Value> = c
        .roots
        .iter()
        .map(|r| {
            let files: Vec<Value> = r
                .files
                .iter()
                .map(|f| {
                    let items: Vec<Value> = f
                        .facts
                        .items
                        .iter()
                        .map(|(p, h)| json!([path_json(p), h]))
                        .collect();
                    let children: Vec<Value> = f
                        .children
                        .iter()
                        .map(|(p, m, is_mod)| json!([p.to_string_lossy(), m, is_mod]))
                        .collect();
                    json!({"path": f.path.to_string_lossy(), "module": f.module,
                        "content": f.facts.content, "structure": f.facts.structure,
                        "items": items, "children": children})
                })
                .collect();
            let tools: Vec<Value> = r
                .tools
                .iter()
                .map(|t| {
                    let deps: Vec<Value> =
                        t.deps.iter().map(|(f, p)| json!([f, path_json(p)])).collect();
                    json!({"name": t.name, "deps": deps})
                })
                .collect();
            json!({"root": r.root.to_string_lossy(), "kind": r.kind, "files": files,
                "walked": r.walked, "tools": tools, "whole": r.whole})
        })
        .collect();
    let outputs: Vec<Value> = c
        .outputs
        .iter()
        .map(|o| json!([o.path, o.len, o.mtime.to_string()]))
        .collect();
    json!({"key": c.key, "roots": roots, "outputs": outputs, "lockfile": c.lockfile,
        "tools_hash": c.tools_hash})
}

fn s(v: &Value) -> Option<String> {
    v.as_str().map(str::to_string)
}

fn arr(v: &Value) -> Option<&Vec<Value>> {
    v.as_array()
}

fn usize_of(v: &Value) -> Option<usize> {
    v.as_u64().and_then(|n| usize::try_from(n).ok())
}

fn item_path(v: &Value) -> Option<Vec<usize>> {
    arr(v)?.iter().map(usize_of).collect()
}

fn strings(v: &Value) -> Option<Vec<String>> {
    arr(v)?.iter().map(s).collect()
}

fn decode_index(v: &Value) -> Option<BuildCache> {
    let roots = arr(&v["roots"])?
        .iter()
        .map(|r| {
            let files = arr(&r["files"])?
                .iter()
                .map(|f| {
                    let items = arr(&f["items"])?
                        .iter()
                        .map(|e| Some((item_path(&e[0])?, s(&e[1])?)))
                        .collect::<Option<BTreeMap<_, _>>>()?;
                    let children = arr(&f["children"])?
                        .iter()
                        .map(|e| Some((s(&e[0])?.into(), strings(&e[1])?, e[2].as_bool()?)))
                        .collect::<Option<Vec<_>>>()?;
                    Some(CachedFile {
                        path: s(&f["path"])?.into(),
                        module: strings(&f["module"])?,
                        facts: FileFacts {
                            content: s(&f["content"])?,
                            structure: s(&f["structure"])?,
                            items,
                        },
                        children,
                    })
                })
                .collect::<Option<Vec<_>>>()?;
            let tools = arr(&r["tools"])?
                .iter()
                .map(|t| {
                    let deps = arr(&t["deps"])?
                        .iter()
                        .map(|d| Some((usize_of(&d[0])?, item_path(&d[1])?)))
                        .collect::<Option<Vec<_>>>()?;
                    Some(CachedTool {
                        name: s(&t["name"])?,
                        deps,
                    })
                })
                .collect::<Option<Vec<_>>>()?;
            let walked = usize_of(&r["walked"])?;
            if walked > files.len() {
                return None;
            }
            Some(RootCache {
                root: s(&r["root"])?.into(),
                kind: s(&r["kind"])?,
                files,
                walked,
                tools,
                whole: r["whole"].as_bool()?,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    let outputs = arr(&v["outputs"])?
        .iter()
        .map(|o| {
            Some(OutputStamp {
                path: s(&o[0])?,
                len: o[1].as_u64()?,
                mtime: o[2].as_str()?.parse().ok()?,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some(BuildCache {
        key: s(&v["key"])?,
        roots,
        outputs,
        lockfile: s(&v["lockfile"])?,
        tools_hash: s(&v["tools_hash"])?,
    })
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

fn tools_json(tools: &BTreeMap<String, Tool>) -> Value {
    Value::Array(tools.values().map(tool_json).collect())
}

fn tools_from(v: &Value) -> Option<BTreeMap<String, Tool>> {
    arr(v)?
        .iter()
        .map(|t| tool_from_json(t).map(|t| (t.name.clone(), t)))
        .collect()
}

fn encode_tools(t: &ToolsCache) -> Value {
    let derived: Vec<Value> = t.derived.iter().map(tools_json).collect();
    json!({"derived": derived, "published": t.published.as_ref().map(tools_json)})
}

fn decode_tools(v: &Value) -> Option<ToolsCache> {
    let derived = arr(&v["derived"])?
        .iter()
        .map(tools_from)
        .collect::<Option<Vec<_>>>()?;
    let published = match &v["published"] {
        Value::Null => None,
        other => Some(tools_from(other)?),
    };
    Some(ToolsCache { derived, published })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> (BuildCache, ToolsCache) {
        let mut items = BTreeMap::new();
        items.insert(vec![0], "aa".to_string());
        items.insert(vec![1, 2], "bb".to_string());
        let index = BuildCache {
            key: "k".into(),
            roots: vec![RootCache {
                root: "src/lib.rs".into(),
                kind: "lib".into(),
                files: vec![CachedFile {
                    path: "src/lib.rs".into(),
                    module: vec![],
                    facts: FileFacts {
                        content: "c".into(),
                        structure: "s".into(),
                        items,
                    },
                    children: vec![("/x/src/a.rs".into(), vec!["a".into()], false)],
                }],
                walked: 1,
                tools: vec![CachedTool {
                    name: "t".into(),
                    deps: vec![(0, vec![1, 2])],
                }],
                whole: false,
            }],
            outputs: vec![OutputStamp {
                path: "mcp-contract/t.json".into(),
                len: 3,
                mtime: 1_700_000_000_123_456_789,
            }],
            lockfile: "l".into(),
            tools_hash: String::new(),
        };
        let mut t = Tool::new("t");
        t.version = Some(2);
        t.output_schema = Some(Value::Null);
        t.extra.insert("icons".into(), json!([1]));
        let mut derived = BTreeMap::new();
        derived.insert("t".to_string(), t);
        let tools = ToolsCache {
            derived: vec![derived.clone()],
            published: Some(derived),
        };
        (index, tools)
    }

    #[test]
    fn round_trips_and_rejects_damage() {
        let dir = tempfile::tempdir().unwrap();
        let (mut index, tools) = sample();
        save(dir.path(), &mut index, &tools);
        assert_eq!(load(dir.path()).as_ref(), Some(&index));
        assert_eq!(load_tools(dir.path(), &index), Some(tools));
        // One flipped byte, a truncation, another format, garbage: no cache.
        let path = dir.path().join(INDEX_FILE);
        let good = std::fs::read(&path).unwrap();
        let mut flipped = good.clone();
        let at = good.len() - 5;
        flipped[at] ^= 1;
        let other_format = String::from_utf8(good.clone())
            .unwrap()
            .replacen(&format!("cache {FORMAT} "), "cache 999 ", 1);
        for bad in [
            flipped,
            good[..good.len() / 2].to_vec(),
            other_format.into_bytes(),
            b"\x00\xff garbage".to_vec(),
        ] {
            std::fs::write(&path, &bad).unwrap();
            assert!(load(dir.path()).is_none());
        }
        // A tools file that is not the one the index names is not used.
        std::fs::write(&path, &good).unwrap();
        std::fs::write(dir.path().join(TOOLS_FILE), "x").unwrap();
        assert!(load_tools(dir.path(), &index).is_none());
    }
}
