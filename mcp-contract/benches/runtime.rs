//! What the runtime compatibility layer costs per call, next to what the
//! handler path pays anyway (serde_json parsing the same `arguments`): the
//! plan of the demo server's `search_catalog` (a live rename) and
//! `create_order` (a server default and a reserved name), a current and a
//! legacy call each. Goal: normalization well under the parse cost.
//!
//! Telemetry on the legacy calls (`telemetry/...`): `prepare` with no hook
//! and no `tracing` subscriber (the events are always on: this is their
//! disabled cost), with a subscriber that takes every event and visits its
//! fields, with the usage recorder (in memory; no flush runs), and with the
//! OpenTelemetry hook on an SDK meter provider.
//!
//! Argument validation (`validation/...`), on the demo server's real
//! locked schemas (`examples/demo-server/contracts/`: `$defs`, `$ref`,
//! `oneOf`, enums, integer widths): `prepare` with the tool's compiled
//! validator and without it, so the difference is what validation adds to
//! a call; what compiling every validator of the server costs once, at
//! start-up (`Compat::new` on the demo plan); and, for scale, rmcp's own
//! dispatch of one `tools/call` (a client and a server over an in-memory
//! pipe, the handler deserializing its arguments), bare and behind the
//! `Contracted` wrapper.
//!
//! Run: `cargo bench -p mcp-contract --bench runtime`.

use std::fmt::Debug;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use mcp_contract::migrations;
use mcp_contract::runtime::{plan, Caller, Compat, OtelHook, UsageRecorder};
use mcp_contract::{load, Surface};
use opentelemetry::metrics::MeterProvider;
use opentelemetry_sdk::metrics::data::ResourceMetrics;
use opentelemetry_sdk::metrics::exporter::PushMetricExporter;
use opentelemetry_sdk::metrics::{PeriodicReader, SdkMeterProvider, Temporality};
use serde_json::{json, Map, Value};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

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
    telemetry(c, &compat, &calls[1..3]);
    validation(c);
    dispatch(c);
}

fn demo_lockfile() -> (String, Surface, migrations::MigrationRecord) {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/demo-server/contracts");
    let lock = std::fs::read_to_string(dir.join("mcp-contract.lock")).unwrap();
    let surface = mcp_contract::lockfile::parse(lock.as_bytes(), "demo lockfile").unwrap();
    let record_text = std::fs::read_to_string(dir.join("migrations.toml")).unwrap();
    let (record, _) = migrations::parse(&record_text, "migrations.toml");
    (lock, surface, record)
}

fn validation(c: &mut Criterion) {
    let (lock, surface, record) = demo_lockfile();
    let plan = plan::derive(&record, &surface, &plan::revision_of(&lock)).unwrap();
    let validated = Compat::new(plan.clone());
    let calls: [(&str, &str, Value); 2] = [
        (
            "search",
            "search_catalog",
            json!({"search_text": "usb", "filters": {"category": "electronics", "price": {"min_cents": 100, "max_cents": 5000}}, "limit": 5, "sort": "price_asc"}),
        ),
        (
            "order",
            "create_order",
            json!({"lines": [{"item_id": "bk-1", "quantity": 2}, {"item_id": "el-3", "quantity": 1}],
                   "shipping": {"method": "delivery", "address": {"street": "Rua A 1", "city": "Lisbon", "postal_code": "1000-001", "country": "PT"}},
                   "currency": "EUR"}),
        ),
    ];
    let mut g = c.benchmark_group("validation");
    g.bench_function("compile_demo_server", |b| {
        b.iter(|| black_box(Compat::new(black_box(plan.clone()))))
    });
    for (label, tool, args) in &calls {
        let map: Map<String, Value> = args.as_object().unwrap().clone();
        assert!(validated.validates(tool));
        assert!(matches!(
            validated.prepare(tool, Some(map.clone())),
            mcp_contract::runtime::Prepared::Call(_)
        ));
        let unvalidated = validated.clone().without_validation(tool);
        g.bench_function(format!("{label}/prepare_validated"), |b| {
            b.iter(|| black_box(validated.prepare(tool, Some(black_box(map.clone())))))
        });
        g.bench_function(format!("{label}/prepare_unvalidated"), |b| {
            b.iter(|| black_box(unvalidated.prepare(tool, Some(black_box(map.clone())))))
        });
    }
    g.finish();
}

/// The demo server's tools, served by a handler that deserializes the
/// arguments as rmcp's `Parameters<T>` would (into JSON here) and answers.
#[derive(Clone)]
struct Echo(Arc<Vec<rmcp::model::Tool>>);

impl rmcp::ServerHandler for Echo {
    fn get_info(&self) -> rmcp::model::ServerConfig {
        rmcp::model::ServerConfig::new(
            rmcp::model::ServerCapabilities::builder()
                .enable_tools()
                .build(),
        )
    }

    fn get_tool(&self, name: &str) -> Option<rmcp::model::Tool> {
        self.0.iter().find(|t| t.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: rmcp::model::CallToolRequestParams,
        _: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<rmcp::model::CallToolResponse, rmcp::ErrorData> {
        let args: Value =
            serde_json::from_value(Value::Object(request.arguments.unwrap_or_default()))
                .map_err(|e| rmcp::ErrorData::invalid_params(e.to_string(), None))?;
        Ok(rmcp::model::CallToolResult::structured(
            json!({"keys": args.as_object().map_or(0, Map::len)}),
        )
        .into())
    }
}

fn dispatch(c: &mut Criterion) {
    use rmcp::ServiceExt;
    let (lock, surface, record) = demo_lockfile();
    let plan = plan::derive(&record, &surface, &plan::revision_of(&lock)).unwrap();
    let mut entries = Map::new();
    let mut tools = vec![];
    for tool in surface.tools.values() {
        let mut v = tool.to_published();
        v["name"] = json!(tool.name);
        tools.push(serde_json::from_value::<rmcp::model::Tool>(v.clone()).unwrap());
        entries.insert(tool.name.clone(), v);
    }
    let manifest = json!({"derived": entries, "published": entries, "features": {}});
    let contract =
        mcp_contract::rmcp::Contract::from_build(&manifest.to_string(), &plan.to_json()).unwrap();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let echo = Echo(Arc::new(tools));
    let args = json!({"search_text": "usb", "filters": {"category": "electronics", "price": {"min_cents": 100, "max_cents": 5000}}, "limit": 5, "sort": "price_asc"});
    let request = rmcp::model::CallToolRequestParams::new("search_catalog")
        .with_arguments(args.as_object().unwrap().clone());
    let mut g = c.benchmark_group("dispatch");
    for (label, wrapped) in [
        ("rmcp_call_tool", false),
        ("rmcp_call_tool_contracted", true),
    ] {
        let client = rt.block_on(async {
            let (server_io, client_io) = tokio::io::duplex(1 << 16);
            if wrapped {
                let server = mcp_contract::rmcp::Contracted::new(echo.clone(), contract.clone());
                tokio::spawn(async move { server.serve(server_io).await.unwrap().waiting().await });
            } else {
                let server = echo.clone();
                tokio::spawn(async move { server.serve(server_io).await.unwrap().waiting().await });
            }
            ().serve(client_io).await.unwrap()
        });
        let first = rt.block_on(client.call_tool(request.clone())).unwrap();
        assert_ne!(first.is_error, Some(true), "{first:?}");
        g.bench_function(label, |b| {
            b.iter(|| {
                black_box(
                    rt.block_on(client.call_tool(black_box(request.clone())))
                        .unwrap(),
                )
            })
        });
        rt.block_on(client.cancel()).unwrap();
    }
    g.finish();
}

/// A subscriber that wants every event and reads every field.
struct Visiting;

struct Sink;

impl Visit for Sink {
    fn record_str(&mut self, _: &Field, value: &str) {
        black_box(value);
    }
    fn record_debug(&mut self, _: &Field, value: &dyn Debug) {
        black_box(format!("{value:?}"));
    }
}

impl Subscriber for Visiting {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        event.record(&mut Sink);
    }
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

/// An exporter that drops what it is given (the bench measures recording).
struct Discard;

impl PushMetricExporter for Discard {
    async fn export(&self, _: &ResourceMetrics) -> opentelemetry_sdk::error::OTelSdkResult {
        Ok(())
    }
    fn force_flush(&self) -> opentelemetry_sdk::error::OTelSdkResult {
        Ok(())
    }
    fn shutdown_with_timeout(&self, _: Duration) -> opentelemetry_sdk::error::OTelSdkResult {
        Ok(())
    }
    fn temporality(&self) -> Temporality {
        Temporality::Cumulative
    }
}

fn telemetry(c: &mut Criterion, compat: &Compat, calls: &[(&str, &str, Value)]) {
    let dir = tempfile::tempdir().unwrap();
    let recorder = Arc::new(UsageRecorder::new(dir.path().join("usage.json")));
    let provider = SdkMeterProvider::builder()
        .with_reader(PeriodicReader::builder(Discard).build())
        .build();
    let variants: [(&str, Compat); 3] = [
        ("no_hook", compat.clone()),
        ("recorder", compat.clone().with_hook(recorder.clone())),
        (
            "otel",
            compat
                .clone()
                .with_hook(Arc::new(OtelHook::new(&provider.meter("bench")))),
        ),
    ];
    let caller = Caller::client("claude-desktop", "1.2").with_agent("bench");
    let mut g = c.benchmark_group("telemetry");
    g.warm_up_time(Duration::from_secs(1));
    g.measurement_time(Duration::from_secs(3));
    for (label, tool, args) in calls {
        let map: Map<String, Value> = args.as_object().unwrap().clone();
        for (hook, compat) in &variants {
            g.bench_function(format!("{label}/{hook}"), |b| {
                b.iter(|| {
                    black_box(compat.prepare_for(tool, Some(black_box(map.clone())), &caller))
                })
            });
        }
        let plain = &variants[0].1;
        tracing::subscriber::with_default(Visiting, || {
            g.bench_function(format!("{label}/tracing_subscriber"), |b| {
                b.iter(|| black_box(plain.prepare_for(tool, Some(black_box(map.clone())), &caller)))
            });
        });
    }
    g.finish();
    drop(variants);
    let _ = provider.shutdown();
}

criterion_group!(benches, bench);
criterion_main!(benches);
