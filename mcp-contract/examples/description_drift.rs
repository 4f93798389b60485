//! How often the description heuristics flag real releases: every
//! description change between consecutive surfaces, and every flag raised
//! on it, printed with its text for a person to judge (`flag` lines).
//!
//! ```sh
//! # the github-mcp-server corpus: each pair's tool, beside every tool name
//! # the corpus has (the server's own tools, so that naming them is no cross-reference)
//! cargo run -q -p mcp-contract --example description_drift -- corpus ../shared/corpus/github-mcp-server
//! # lockfiles of one server's successive releases, oldest first (captured with `snapshot --server`)
//! cargo run -q -p mcp-contract --example description_drift -- lockfiles v1.lock v2.lock v3.lock
//! ```

use std::path::Path;

use mcp_contract::rules::{DescriptionLevel, RuleId};
use mcp_contract::{diff_surfaces, lockfile, Surface, Tool};

#[derive(Default)]
struct Tally {
    pairs: usize,
    /// Findings of the `*.description-changed` rules.
    changed: usize,
    /// Texts the scan read (new, or different from the old text at their place).
    texts: usize,
    flagged: usize,
    /// Texts with at least one flag.
    texts_flagged: usize,
}

fn judge(name: &str, old: &Surface, new: &Surface, t: &mut Tally) {
    t.pairs += 1;
    t.texts += mcp_contract::description::changed_texts(old, new).len();
    let mut places = std::collections::BTreeSet::new();
    for c in diff_surfaces(old, new).changes {
        match RuleId::parse(c.rule).and_then(RuleId::description_level) {
            Some(DescriptionLevel::Changed) => t.changed += 1,
            Some(DescriptionLevel::Flagged) => {
                t.flagged += 1;
                if places.insert((c.tool.clone(), c.pointer.clone())) {
                    t.texts_flagged += 1;
                }
                println!(
                    "flag {name}: {} {} {}: {}",
                    c.rule, c.tool, c.pointer, c.message
                );
            }
            None => {}
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut t = Tally::default();
    match args.first().map(String::as_str) {
        Some("corpus") => {
            let dir = Path::new(&args[1]);
            let index: serde_json::Value =
                serde_json::from_slice(&std::fs::read(dir.join("index.json")).unwrap()).unwrap();
            let mut names = std::collections::BTreeSet::new();
            collect_names(&index, &mut names);
            let mut pairs: Vec<_> = std::fs::read_dir(dir.join("pairs"))
                .unwrap()
                .flatten()
                .map(|e| e.path())
                .collect();
            pairs.sort();
            for p in pairs {
                let load = |f: &str| -> Surface {
                    let v: serde_json::Value =
                        serde_json::from_slice(&std::fs::read(p.join(f)).unwrap()).unwrap();
                    let mut s = mcp_contract::load::surface_from_value(&v, f).unwrap_or_default();
                    // the server's other tools, identical on both sides
                    for n in &names {
                        if !s.tools.contains_key(n) {
                            s.insert(Tool::new(n.clone()));
                        }
                    }
                    s
                };
                judge(
                    &p.file_name().unwrap().to_string_lossy(),
                    &load("before.json"),
                    &load("after.json"),
                    &mut t,
                );
            }
        }
        Some("lockfiles") => {
            let locks: Vec<Surface> = args[1..]
                .iter()
                .map(|f| lockfile::read(Path::new(f)).unwrap_or_else(|e| panic!("{e}")))
                .collect();
            // the first release against nothing: every text of it is new
            judge(
                &format!("(none) -> {}", args[1]),
                &Surface::new(),
                &locks[0],
                &mut t,
            );
            for (i, w) in locks.windows(2).enumerate() {
                judge(
                    &format!("{} -> {}", args[1 + i], args[2 + i]),
                    &w[0],
                    &w[1],
                    &mut t,
                );
            }
        }
        _ => {
            eprintln!("usage: description_drift corpus DIR | lockfiles A B ...");
            std::process::exit(2);
        }
    }
    println!(
        "pairs {}, description-changed findings {}, texts scanned {}, flags {} on {} texts",
        t.pairs, t.changed, t.texts, t.flagged, t.texts_flagged
    );
}

fn collect_names(v: &serde_json::Value, out: &mut std::collections::BTreeSet<String>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                if matches!(k.as_str(), "tool" | "before_tool" | "after_tool") {
                    if let Some(s) = x.as_str() {
                        out.insert(s.to_string());
                    }
                }
                collect_names(x, out);
            }
        }
        serde_json::Value::Array(a) => a.iter().for_each(|x| collect_names(x, out)),
        _ => {}
    }
}
