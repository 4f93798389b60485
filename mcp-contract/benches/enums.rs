//! Benchmark (a bench binary, run with `cargo bench -p mcp-contract --bench
//! enums`): removing one value from a string enum of 10,000, 60,000 and
//! 100,000 values, compared by the diff alone, by the diff with the
//! witness pass, and by the containment decision on the compiled graph
//! (`schema::contain`, old ⊆ new). Prints each time; the goal is linear
//! growth (a 10x larger enum takes about 10x as long, never 100x).
//!
//! `MCP_CONTRACT_BENCH_ENUM_SIZES=1000,5000` picks other sizes.

use std::time::{Duration, Instant};

use mcp_contract::schema::contain::{Decider, Decision};
use mcp_contract::schema::graph::{Draft, Graph};
use mcp_contract::schema::types::TypeSet;
use mcp_contract::witness::{attach, Options};
use mcp_contract::{diff_surfaces, Surface, Tool};
use serde_json::{json, Value};

fn surface(values: &[Value]) -> Surface {
    let mut t = Tool::new("pick");
    t.input_schema = json!({
        "type": "object",
        "properties": {"choice": {"type": "string", "enum": values}},
        "required": ["choice"]
    });
    let mut s = Surface::new();
    s.insert(t);
    s
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return; // `cargo test --benches` lists benches; nothing to list here
    }
    let sizes: Vec<usize> = std::env::var("MCP_CONTRACT_BENCH_ENUM_SIZES")
        .ok()
        .map(|s| s.split(',').filter_map(|n| n.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![10_000, 60_000, 100_000]);
    println!(
        "{:>9} {:>12} {:>16} {:>12}",
        "values", "diff ms", "diff+witness ms", "contain ms"
    );
    for n in sizes {
        let old: Vec<Value> = (0..n).map(|i| json!(format!("value_{i:06}"))).collect();
        let mut new = old.clone();
        new.remove(n / 2);
        let (so, sn) = (surface(&old), surface(&new));
        let start = Instant::now();
        let report = diff_surfaces(&so, &sn);
        let diff = start.elapsed();
        assert_eq!(
            report.changes.iter().map(|c| c.rule).collect::<Vec<_>>(),
            ["input.enum-narrowed"],
            "one value removed is one narrowing"
        );
        let mut report = report;
        let start = Instant::now();
        let report2 = diff_surfaces(&so, &sn);
        attach(&mut report, &so, &sn, &Options::default());
        let both = start.elapsed();
        drop(report2);
        let proven = report.changes[0].witness.is_some();
        let (os, ns) = (
            &so.tools["pick"].input_schema,
            &sn.tools["pick"].input_schema,
        );
        let start = Instant::now();
        let mut g = Graph::new();
        let (a, b) = (g.add(os, Draft::D2020), g.add(ns, Draft::D2020));
        let decision = Decider::new(&g).contained(a, b, TypeSet::ALL);
        let contain = start.elapsed();
        assert!(
            matches!(decision, Decision::NotContained { .. }),
            "the old enum is not within the new: {decision:?}"
        );
        println!(
            "{n:>9} {:>12.1} {:>16.1} {:>12.1}{}",
            ms(diff),
            ms(both),
            ms(contain),
            if proven { "" } else { "  (no witness)" }
        );
    }
}
