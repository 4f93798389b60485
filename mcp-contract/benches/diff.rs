//! Classifier throughput next to what serde_json alone needs to parse the
//! same bytes (goal: load + diff within 2x of parsing).
//!
//! - `corpus/*`: every before/after pair of `../shared/corpus/github-mcp-server`
//!   (skipped with a message when the corpus is absent);
//! - `synthetic_1000/*`: a 1,000-tool lockfile against a mutated copy.
//!
//! Run: `cargo bench -p mcp-contract --bench diff`.

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion};
use mcp_contract::{diff_surfaces, load, lockfile, Surface, Tool};
use serde_json::{json, Value};

fn corpus_pairs() -> Vec<(Vec<u8>, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus/github-mcp-server/pairs");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!(
            "corpus not found at {}: corpus benches skipped",
            dir.display()
        );
        return vec![];
    };
    let mut dirs: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
    dirs.sort();
    dirs.iter()
        .map(|d| {
            (
                std::fs::read(d.join("before.json")).unwrap(),
                std::fs::read(d.join("after.json")).unwrap(),
            )
        })
        .collect()
}

fn synthetic_tool(i: usize, mutated: bool) -> Tool {
    let mut t = Tool::new(format!("tool_{i:04}"));
    t.description = Some(format!("Synthetic tool number {i} for benchmarking."));
    let mut props = serde_json::Map::new();
    for p in 0..8 {
        props.insert(
            format!("field_{p}"),
            json!({"type": if p % 3 == 0 { "integer" } else { "string" }, "description": format!("Field {p}"), "minimum": 0}),
        );
    }
    props.insert(
        "mode".into(),
        json!({"type": "string", "enum": ["fast", "full", "auto"]}),
    );
    props.insert("filter".into(), json!({"$ref": "#/$defs/Filter"}));
    let mut required = vec![json!("field_0"), json!("field_1")];
    if mutated && i.is_multiple_of(10) {
        props.remove("field_7");
        props.insert("field_3".into(), json!({"type": "string"}));
        required.push(json!("field_2"));
    }
    t.input_schema = json!({
        "type": "object",
        "properties": props,
        "required": required,
        "$defs": {"Filter": {"type": "object", "properties": {"labels": {"type": "array", "items": {"type": "string"}}, "since": {"type": ["string", "null"], "format": "date-time"}}}}
    });
    t.output_schema = Some(
        json!({"type": "object", "properties": {"items": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}}}}),
    );
    t.annotations = Some(
        json!({"readOnlyHint": i.is_multiple_of(2)})
            .as_object()
            .unwrap()
            .clone(),
    );
    t
}

fn synthetic(mutated: bool) -> String {
    let mut s = Surface::new();
    for i in 0..1000 {
        s.insert(synthetic_tool(i, mutated));
    }
    lockfile::render(&s)
}

fn bench(c: &mut Criterion) {
    let pairs = corpus_pairs();
    if !pairs.is_empty() {
        c.bench_function("corpus/serde_json_parse_only", |b| {
            b.iter(|| {
                for (old, new) in &pairs {
                    black_box(serde_json::from_slice::<Value>(old).unwrap());
                    black_box(serde_json::from_slice::<Value>(new).unwrap());
                }
            })
        });
        c.bench_function("corpus/load_only", |b| {
            b.iter(|| {
                for (old, new) in &pairs {
                    black_box(load::parse_surface(old, "old").unwrap());
                    black_box(load::parse_surface(new, "new").unwrap());
                }
            })
        });
        c.bench_function("corpus/load_and_diff", |b| {
            b.iter(|| {
                for (old, new) in &pairs {
                    let o = load::parse_surface(old, "old").unwrap();
                    let n = load::parse_surface(new, "new").unwrap();
                    black_box(diff_surfaces(&o, &n));
                }
            })
        });
    }
    let (old, new) = (synthetic(false), synthetic(true));
    c.bench_function("synthetic_1000/serde_json_parse_only", |b| {
        b.iter(|| {
            black_box(serde_json::from_str::<Value>(&old).unwrap());
            black_box(serde_json::from_str::<Value>(&new).unwrap());
        })
    });
    c.bench_function("synthetic_1000/load_and_diff", |b| {
        b.iter(|| {
            let o = lockfile::parse(old.as_bytes(), "old.lock").unwrap();
            let n = lockfile::parse(new.as_bytes(), "new.lock").unwrap();
            black_box(diff_surfaces(&o, &n))
        })
    });
    let (o, n) = (
        lockfile::parse(old.as_bytes(), "old").unwrap(),
        lockfile::parse(new.as_bytes(), "new").unwrap(),
    );
    c.bench_function("synthetic_1000/diff_only", |b| {
        b.iter(|| black_box(diff_surfaces(&o, &n)))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
