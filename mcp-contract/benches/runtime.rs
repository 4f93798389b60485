//! What the runtime compatibility layer costs per call, next to what the
//! handler path pays anyway (serde_json parsing the same `arguments`): the
//! plan of the demo server's `search_catalog` (a live rename) and
//! `create_order` (a server default and a reserved name), a current and a
//! legacy call each. Goal: normalization well under the parse cost.
//!
//! Run: `cargo bench -p mcp-contract --bench runtime`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use mcp_contract::migrations;
use mcp_contract::runtime::{plan, Compat};
use mcp_contract::{load, Surface};
use serde_json::{json, Map, Value};

fn surface() -> Surface {
    load::surface_from_value(
        &json!([
            {"name": "search_catalog", "inputSchema": {"type": "object", "properties": {
                "search_text": {"type": "string"}, "query": {"type": "string", "deprecated": true},
                "filters": {"type": ["object", "null"]}, "limit": {"type": ["integer", "null"]}, "sort": {"type": "string"}}}},
            {"name": "create_order", "inputSchema": {"type": "object", "properties": {
                "lines": {"type": "array"}, "shipping": {"type": "object"}, "currency": {"type": "string", "default": "EUR"},
                "delivery_instructions": {"type": ["string", "null"]}}, "required": ["lines", "shipping"]}}
        ]),
        "bench",
    )
    .unwrap()
}

const RECORD: &str = r#"
[[acknowledge]]
tool = "search_catalog"
rule = "input.property-removed"
pointer = "/inputSchema/properties/query"
subject = "query"
reason = "r"
owner = "o"
transition = { kind = "rename", from = "query", to = "search_text" }

[[acknowledge]]
tool = "create_order"
rule = "input.required-added"
pointer = "/inputSchema/required"
subject = "currency"
reason = "r"
owner = "o"
transition = { kind = "default", field = "currency", value = "EUR" }

[[acknowledge]]
tool = "create_order"
rule = "input.property-removed"
pointer = "/inputSchema/properties/note"
subject = "note"
reason = "r"
owner = "o"
transition = { kind = "removal", replacement = "delivery_instructions" }
"#;

fn bench(c: &mut Criterion) {
    let (record, _) = migrations::parse(RECORD, "bench.toml");
    let compat = Compat::new(plan::derive(&record, &surface(), "sha256:0").unwrap());
    let calls: [(&str, &str, Value); 4] = [
        (
            "search_current",
            "search_catalog",
            json!({"search_text": "usb", "filters": {"category": "electronics"}, "limit": 5}),
        ),
        (
            "search_legacy",
            "search_catalog",
            json!({"query": "usb", "filters": {"category": "electronics"}, "limit": 5}),
        ),
        (
            "order_legacy_default",
            "create_order",
            json!({"lines": [{"item_id": "bk-1", "quantity": 1}], "shipping": {"method": "pickup", "store_id": "s-1"}}),
        ),
        (
            "order_reserved",
            "create_order",
            json!({"lines": [], "shipping": {}, "note": "x"}),
        ),
    ];
    let mut g = c.benchmark_group("runtime");
    for (label, tool, args) in &calls {
        let text = args.to_string();
        let map: Map<String, Value> = args.as_object().unwrap().clone();
        g.bench_function(format!("{label}/parse_only"), |b| {
            b.iter(|| black_box(serde_json::from_str::<Value>(black_box(&text)).unwrap()))
        });
        g.bench_function(format!("{label}/prepare"), |b| {
            b.iter(|| black_box(compat.prepare(tool, Some(black_box(map.clone())))))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
