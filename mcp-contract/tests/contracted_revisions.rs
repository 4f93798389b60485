//! The wrapper on the wire, with a real rmcp client over an in-memory pipe:
//! each listed tool and each result names the tool's revision; a server
//! switching from revision A to B within its process tells the connected
//! client (`notifications/tools/list_changed`, sent once B is what
//! `tools/list` answers); a call built for A is normalized through B's
//! record, or refused with `STALE_TOOL_SCHEMA` when B cannot serve it; an
//! unknown revision is refused naming the current one; a call built for B
//! with a wrong value is `INVALID_ARGUMENTS`. A refused call never reaches
//! the handler.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use mcp_contract::load;
use mcp_contract::migrations;
use mcp_contract::rmcp::{Contract, Contracted};
use mcp_contract::runtime::{plan, wire, Compat};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ListToolsResult,
    PaginatedRequestParams, RequestMetaObject, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ClientHandler, ErrorData, RoleClient, RoleServer, ServerHandler, ServiceExt};
use serde_json::{json, Map, Value};
use tokio::sync::mpsc;

/// Revision A: `query`. Revision B: `search_text` (`query` renamed) and a bounded `limit`.
fn definition(b: bool) -> Value {
    if b {
        json!({"name": "search", "inputSchema": {"type": "object", "properties": {
            "search_text": {"type": "string"}, "limit": {"type": "integer", "maximum": 50}},
            "required": ["search_text"], "additionalProperties": false}})
    } else {
        json!({"name": "search", "inputSchema": {"type": "object", "properties": {
            "query": {"type": "string"}}, "required": ["query"], "additionalProperties": false}})
    }
}

/// B as published: `query` kept as a deprecated alias (what the build step writes).
fn published_b() -> Value {
    json!({"name": "search", "inputSchema": {"type": "object", "properties": {
        "search_text": {"type": "string"}, "limit": {"type": "integer", "maximum": 50},
        "query": {"type": "string", "deprecated": true, "description": "Deprecated: renamed to `search_text`; send `search_text` instead."}},
        "anyOf": [{"required": ["search_text"]}, {"required": ["query"]}],
        "additionalProperties": false}})
}

const RECORD_B: &str = r#"
[[acknowledge]]
tool = "search"
rule = "input.property-removed"
pointer = "/inputSchema/properties/query"
subject = "query"
reason = "r"
owner = "o"
transition = { kind = "rename", from = "query", to = "search_text" }
"#;

fn contract(b: bool) -> Contract {
    let (derived, published) = if b {
        (definition(true), published_b())
    } else {
        (definition(false), definition(false))
    };
    let manifest = json!({"derived": {"search": derived}, "published": {"search": published},
        "features": {}});
    let surface = load::surface_from_value(&json!([published]), "t").unwrap();
    let record = if b {
        migrations::parse(RECORD_B, "migrations.toml").0
    } else {
        Default::default()
    };
    let plan = plan::derive(&record, &surface, "sha256:lock").unwrap();
    Contract::from_build(&manifest.to_string(), &plan.to_json()).unwrap()
}

/// Serves revision A or B as its flag says; counts the calls its handler ran.
#[derive(Clone, Default)]
struct Switchable {
    b: Arc<AtomicBool>,
    ran: Arc<AtomicUsize>,
}

impl ServerHandler for Switchable {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        (name == "search")
            .then(|| serde_json::from_value(definition(self.b.load(Ordering::SeqCst))).unwrap())
    }

    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(
            self.get_tool("search").into_iter().collect(),
        ))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.ran.fetch_add(1, Ordering::SeqCst);
        let names: Vec<String> = request
            .arguments
            .unwrap_or_default()
            .keys()
            .cloned()
            .collect();
        Ok(CallToolResult::success(vec![ContentBlock::text(names.join(","))]).into())
    }
}

/// A client that reports each `tools/list_changed` it receives.
struct Listening(mpsc::UnboundedSender<()>);

impl ClientHandler for Listening {
    async fn on_tool_list_changed(&self, _: NotificationContext<RoleClient>) {
        let _ = self.0.send(());
    }
}

fn call(args: Value, revision: Option<&str>) -> CallToolRequestParams {
    let mut p =
        CallToolRequestParams::new("search").with_arguments(args.as_object().cloned().unwrap());
    if let Some(r) = revision {
        let mut meta = Map::new();
        meta.insert(wire::REVISION.into(), json!(r));
        p.meta = Some(RequestMetaObject(rmcp::model::MetaObject(meta)));
    }
    p
}

fn result_revision(r: &CallToolResult) -> Option<Value> {
    r.meta
        .as_ref()
        .and_then(|m| m.0.get(wire::REVISION).cloned())
}

fn digest(v: Value) -> String {
    load::tool_from_value(&v, "t", "").unwrap().digest()
}

#[tokio::test]
async fn a_client_stays_connected_while_the_server_moves_from_a_to_b() {
    let inner = Switchable::default();
    let server = Contracted::new(inner.clone(), contract(false));
    let handle = server.clone();
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    let serving = tokio::spawn(async move {
        server
            .serve(server_io)
            .await
            .expect("server initialized")
            .waiting()
            .await
    });
    let (tx, mut changed) = mpsc::unbounded_channel();
    let client = Listening(tx).serve(client_io).await.expect("initialize");
    let caps = client
        .peer_info()
        .unwrap()
        .capabilities
        .tools
        .clone()
        .unwrap();
    assert_eq!(caps.list_changed, Some(true), "the capability is declared");

    // A: listed with its revision, which the client recomputes
    let rev_a = digest(definition(false));
    let tools = client.list_all_tools().await.unwrap();
    let sent = serde_json::to_value(&tools[0]).unwrap();
    assert_eq!(sent["_meta"][wire::REVISION], json!(rev_a));
    assert_eq!(wire::revision_of_definition(&sent), Some(rev_a.clone()));

    // the switch: B is served, then the client is told
    inner.b.store(true, Ordering::SeqCst);
    assert_eq!(handle.replace_contract(contract(true)).await, 1);
    tokio::time::timeout(std::time::Duration::from_secs(10), changed.recv())
        .await
        .expect("the notification arrives")
        .expect("one notification");
    let rev_b = digest(published_b());
    let tools = client.list_all_tools().await.unwrap();
    let sent = serde_json::to_value(&tools[0]).unwrap();
    assert_eq!(sent["_meta"][wire::REVISION], json!(rev_b));
    assert!(sent["inputSchema"]["properties"].get("query").is_some());

    // a call built for A with the renamed field: normalized, served
    let r = client
        .call_tool(call(json!({"query": "usb"}), Some(&rev_a)))
        .await
        .unwrap();
    assert_eq!(r.content[0].as_text().unwrap().text, "search_text");
    assert_eq!(result_revision(&r), Some(json!(rev_b)));
    assert_eq!(inner.ran.load(Ordering::SeqCst), 1);

    // a call built for A that B cannot serve: stale, nothing executed
    let r = client
        .call_tool(call(json!({"query": 7}), Some(&rev_a)))
        .await
        .unwrap();
    let sc = r.structured_content.clone().unwrap();
    assert_eq!(r.is_error, Some(true));
    assert_eq!(sc["error_code"], "STALE_TOOL_SCHEMA", "{sc}");
    assert_eq!(sc["required_action"], "refresh_tools");
    assert_eq!(sc["stated_revision"], json!(rev_a));
    assert_eq!(sc["tool_revision"], json!(rev_b));
    assert_eq!(sc["errors"][0]["pointer"], "/search_text", "{sc}");
    assert_eq!(sc["nothing_executed"], json!(true));
    assert_eq!(result_revision(&r), Some(json!(rev_b)));

    // a revision the server never published: stale, naming the current one
    let r = client
        .call_tool(call(json!({"search_text": "usb"}), Some("sha256:0000")))
        .await
        .unwrap();
    let sc = r.structured_content.clone().unwrap();
    assert_eq!(sc["error_code"], "STALE_TOOL_SCHEMA", "{sc}");
    assert_eq!(sc["tool_revision"], json!(rev_b));

    // built for B, a value out of range: invalid arguments, the place named
    let r = client
        .call_tool(call(
            json!({"search_text": "usb", "limit": 51}),
            Some(&rev_b),
        ))
        .await
        .unwrap();
    let sc = r.structured_content.clone().unwrap();
    assert_eq!(sc["error_code"], "INVALID_ARGUMENTS", "{sc}");
    assert_eq!(
        sc["errors"],
        json!([{"pointer": "/limit", "keyword": "maximum", "expected": "at most 50"}])
    );
    assert_eq!(sc["required_action"], "fix_arguments");
    assert_eq!(inner.ran.load(Ordering::SeqCst), 1, "no refused call ran");

    // the refreshed call succeeds
    let r = client
        .call_tool(call(
            json!({"search_text": "usb", "limit": 5}),
            Some(&rev_b),
        ))
        .await
        .unwrap();
    assert_ne!(r.is_error, Some(true));
    assert_eq!(inner.ran.load(Ordering::SeqCst), 2);
    client.cancel().await.unwrap();
    let _ = serving.await;
}

#[test]
fn a_layer_succeeding_another_knows_its_revisions() {
    let a = contract(false);
    let b = contract(true);
    let c: Compat = b.compat().clone().succeeding(a.compat());
    assert_eq!(
        c.plan().tools["search"].previous,
        [digest(definition(false))]
    );
}
