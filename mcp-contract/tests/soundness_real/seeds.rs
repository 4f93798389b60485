//! The seed schemas, read at test time from where they live: schemars'
//! output for the parity fixtures, the built-in shapes, the foundation
//! shapes (dialects, numbers, recursion, dead nodes), every tool of the
//! examples' lockfiles and captured surfaces, every schema of the
//! github-mcp-server corpus in `../shared` (a skip locally, a failure under
//! CI when it is missing), and captures named by
//! `MCP_CONTRACT_SOUNDNESS_CAPTURES` (`:`-separated lockfiles or
//! `tools/list` results; the repository holds none of its own).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{foundation_shapes, schemars_seeds, shapes, skip};

pub struct Seed {
    pub origin: String,
    pub schema: Value,
}

/// Seeds by source, in a fixed order.
pub struct Seeds {
    pub groups: Vec<(&'static str, Vec<Seed>)>,
    pub notes: Vec<String>,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every `inputSchema`/`outputSchema` of every tool object in a document
/// (a lockfile keys tools by name, a `tools/list` result names them).
fn tool_schemas(v: &Value, origin: &str, out: &mut Vec<Seed>) {
    walk_tools(v, origin, "?", out, 0)
}

fn walk_tools(v: &Value, origin: &str, hint: &str, out: &mut Vec<Seed>, depth: usize) {
    if depth > 8 {
        return;
    }
    match v {
        Value::Object(m) if m.contains_key("inputSchema") => {
            let name = m.get("name").and_then(Value::as_str).unwrap_or(hint);
            for kw in ["inputSchema", "outputSchema"] {
                if let Some(s) = m.get(kw) {
                    out.push(Seed {
                        origin: format!("{origin}:{name}:{kw}"),
                        schema: s.clone(),
                    });
                }
            }
        }
        Value::Object(m) => m
            .iter()
            .for_each(|(k, c)| walk_tools(c, origin, k, out, depth + 1)),
        Value::Array(a) => a
            .iter()
            .for_each(|c| walk_tools(c, origin, hint, out, depth + 1)),
        _ => {}
    }
}

fn read_json(p: &Path) -> Option<Value> {
    serde_json::from_str(&std::fs::read_to_string(p).ok()?).ok()
}

fn files_in(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    out.sort();
    out
}

fn examples() -> Vec<Seed> {
    let mut files = vec![];
    let ex = root().join("examples");
    for d in std::fs::read_dir(&ex).into_iter().flatten().flatten() {
        files.extend(files_in(&d.path().join("contracts"), "lock"));
    }
    files.extend(files_in(&ex.join("surfaces"), "json"));
    files.sort();
    let mut out = vec![];
    for f in files {
        let rel = f.strip_prefix(root()).unwrap_or(&f).display().to_string();
        let v = read_json(&f).unwrap_or_else(|| panic!("{rel} does not parse as JSON"));
        tool_schemas(&v, &rel, &mut out);
    }
    out
}

fn corpus(notes: &mut Vec<String>) -> Vec<Seed> {
    let dir = root().join("../shared/corpus/github-mcp-server");
    if !dir.join("README.md").exists() {
        skip::skip(
            "soundness_real (corpus seeds)",
            &format!(
                "corpus not found at {} (it lives beside the repository in shared/)",
                dir.display()
            ),
        );
        notes.push("corpus: SKIPPED (not found)".into());
        return vec![];
    }
    let mut out = vec![];
    for (sub, names) in [
        ("pairs", &["before.json", "after.json"][..]),
        ("deleted", &["last.json"][..]),
        ("renames", &["before.json", "after.json"][..]),
    ] {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir.join(sub))
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .collect();
        entries.sort();
        for e in entries {
            for n in names {
                if let Some(v) = read_json(&e.join(n)) {
                    let origin = format!(
                        "corpus:{sub}/{}/{n}",
                        e.file_name().unwrap().to_string_lossy()
                    );
                    tool_schemas(&v, &origin, &mut out);
                }
            }
        }
    }
    out
}

fn captures(notes: &mut Vec<String>) -> Vec<Seed> {
    let Some(list) = std::env::var_os("MCP_CONTRACT_SOUNDNESS_CAPTURES") else {
        notes.push("npm captures: none in the repository (MCP_CONTRACT_SOUNDNESS_CAPTURES names capture files)".into());
        return vec![];
    };
    let mut out = vec![];
    for p in std::env::split_paths(&list) {
        let v = read_json(&p).unwrap_or_else(|| {
            panic!(
                "MCP_CONTRACT_SOUNDNESS_CAPTURES: {} is not a readable JSON file",
                p.display()
            )
        });
        tool_schemas(&v, &p.display().to_string(), &mut out);
    }
    out
}

/// Loads every source, dropping exact duplicates (by text).
pub fn load() -> Seeds {
    let mut notes = vec![];
    let mut seen = BTreeSet::new();
    let mut dedup = |v: Vec<Seed>| -> Vec<Seed> {
        v.into_iter()
            .filter(|s| seen.insert(s.schema.to_string()))
            .collect()
    };
    let schemars: Vec<Seed> = schemars_seeds::all()
        .into_iter()
        .map(|(n, s)| Seed {
            origin: format!("schemars:{n}"),
            schema: s,
        })
        .collect();
    let built: Vec<Seed> = shapes::all()
        .into_iter()
        .map(|(n, s)| Seed {
            origin: format!("shape:{n}"),
            schema: s,
        })
        .collect();
    let foundations: Vec<Seed> = foundation_shapes::all()
        .into_iter()
        .map(|(n, s)| Seed {
            origin: format!("foundation:{n}"),
            schema: s,
        })
        .collect();
    let groups = vec![
        ("schemars", dedup(schemars)),
        ("shapes", dedup(built)),
        ("foundations", dedup(foundations)),
        ("examples", dedup(examples())),
        ("corpus", dedup(corpus(&mut notes))),
        ("captures", dedup(captures(&mut notes))),
    ];
    Seeds { groups, notes }
}
