//! Cost of the witness pass next to parsing (goal: load + diff + witnesses
//! on the 1,000-tool pair within 3x of serde_json parsing both files;
//! `--no-witness` keeps the plain diff's cost).
//!
//! The pair is the one of `benches/diff.rs`: 1,000 tools, every tenth one
//! mutated (a field removed from an open object, a type narrowed, a field
//! made required), so 300 breaking verdicts to prove.
//!
//! Run: `cargo bench -p mcp-contract --bench witness`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use mcp_contract::{diff_surfaces, lockfile, witness, Surface, Tool};
use serde_json::{json, Value};

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
    let (old, new) = (synthetic(false), synthetic(true));
    c.bench_function("witness_1000/serde_json_parse_only", |b| {
        b.iter(|| {
            black_box(serde_json::from_str::<Value>(&old).unwrap());
            black_box(serde_json::from_str::<Value>(&new).unwrap());
        })
    });
    c.bench_function("witness_1000/load_and_diff_no_witness", |b| {
        b.iter(|| {
            let o = lockfile::parse(old.as_bytes(), "old.lock").unwrap();
            let n = lockfile::parse(new.as_bytes(), "new.lock").unwrap();
            black_box(diff_surfaces(&o, &n))
        })
    });
    c.bench_function("witness_1000/load_diff_and_witness", |b| {
        b.iter(|| {
            let o = lockfile::parse(old.as_bytes(), "old.lock").unwrap();
            let n = lockfile::parse(new.as_bytes(), "new.lock").unwrap();
            let mut r = diff_surfaces(&o, &n);
            witness::attach(&mut r, &o, &n, &witness::Options::default());
            black_box(r)
        })
    });
    let (o, n) = (
        lockfile::parse(old.as_bytes(), "old").unwrap(),
        lockfile::parse(new.as_bytes(), "new").unwrap(),
    );
    let report = diff_surfaces(&o, &n);
    let proven = {
        let mut r = report.clone();
        witness::attach(&mut r, &o, &n, &witness::Options::default());
        r.changes
            .iter()
            .filter(|c| c.proof.as_ref().is_some_and(|p| p.is_backed()))
            .count()
    };
    eprintln!(
        "witness_1000: {} breaking verdicts, {proven} backed",
        report
            .changes
            .iter()
            .filter(|c| c.proof.is_none() && c.severity == mcp_contract::Severity::Breaking)
            .count()
    );
    c.bench_function("witness_1000/witness_pass_only", |b| {
        b.iter(|| {
            let mut r = report.clone();
            witness::attach(&mut r, &o, &n, &witness::Options::default());
            black_box(r)
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
