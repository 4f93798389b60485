//! The drift scenario end to end, over stdio with rmcp's client:
//! 1. the server publishes revision 1 (`tests/data/revision-1.lock`, the
//!    contract before `query` became `search_text`, `currency` was added,
//!    `note` was removed and `send_report_v2` appeared); the client lists
//!    its tools and prepares calls from that list;
//! 2. the server is redeployed at the current revision;
//! 3. the client sends its prepared calls. Each comes back either
//!    normalized and served, or as a tool execution error
//!    (`isError: true`, never a JSON-RPC error) with the structured fields
//!    an agent acts on; the append-only effect log proves that a rejected
//!    call had no effect, and the deprecation log shows which old paths
//!    were used, without argument values.

use std::path::{Path, PathBuf};

use mcp_contract::runtime::plan::revision_of;
use mcp_contract::runtime::wire;
use mcp_contract::{load, lockfile};
use rmcp::model::{CallToolRequestParams, CallToolResult, Tool};
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{json, Map, Value};

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

async fn start(envs: &[(&str, &Path)]) -> RunningService<RoleClient, ()> {
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_demo-server"));
    for var in [
        "DEMO_SERVER_LOCKFILE",
        "DEMO_SERVER_EFFECT_LOG",
        "DEMO_SERVER_DEPRECATION_LOG",
    ] {
        cmd.env_remove(var);
    }
    for (k, v) in envs {
        cmd.env(k, v);
    }
    let transport = TokioChildProcess::new(cmd).expect("spawn demo-server");
    ().serve(transport).await.expect("initialize")
}

fn properties(tool: &Tool) -> Vec<String> {
    tool.input_schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default()
}

fn find<'a>(tools: &'a [Tool], name: &str) -> &'a Tool {
    tools
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no tool `{name}`"))
}

fn lines(path: &Path) -> Vec<Value> {
    match std::fs::read_to_string(path) {
        Ok(text) => text
            .lines()
            .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
            .collect(),
        Err(_) => vec![],
    }
}

async fn send(
    client: &RunningService<RoleClient, ()>,
    tool: &str,
    args: &Map<String, Value>,
) -> CallToolResult {
    client
        .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(args.clone()))
        .await
        .unwrap_or_else(|e| panic!("`{tool}` must answer with a tool result, not an error: {e}"))
}

fn obj(v: Value) -> Map<String, Value> {
    v.as_object().cloned().expect("an object")
}

/// Asserts the rejection shape and returns its structuredContent.
fn rejected(result: &CallToolResult, code: &str, tool: &str, revision: &str) -> Value {
    assert_eq!(result.is_error, Some(true), "{result:?}");
    let sc = result
        .structured_content
        .clone()
        .expect("structuredContent");
    assert_eq!(sc["error_code"], code, "{sc}");
    assert_eq!(sc["tool"], tool);
    assert_eq!(sc["side_effect_started"], json!(false));
    assert_eq!(sc["contract_revision"], revision);
    assert!(sc["required_action"].is_string());
    let text = result.content[0]
        .as_text()
        .expect("text content")
        .text
        .clone();
    assert!(text.ends_with("Nothing was executed."), "{text}");
    sc
}

#[tokio::test]
async fn old_calls_after_a_redeploy_are_served_or_refused_without_effect() {
    let tmp = tempfile::tempdir().unwrap();
    let effects: PathBuf = tmp.path().join("effects.jsonl");
    let deprecations: PathBuf = tmp.path().join("deprecations.jsonl");
    let revision_1 = manifest_dir().join("tests/data/revision-1.lock");

    // 1. The agent lists the tools of revision 1 and prepares its calls.
    let old = start(&[("DEMO_SERVER_LOCKFILE", &revision_1)]).await;
    let old_tools = old.list_all_tools().await.expect("tools/list");
    old.cancel().await.expect("shut down");
    let old_search = find(&old_tools, "search_catalog");
    assert!(properties(old_search).contains(&"query".to_string()));
    assert_eq!(old_search.input_schema["required"], json!(["query"]));
    let old_order = find(&old_tools, "create_order");
    assert!(properties(old_order).contains(&"note".to_string()));
    assert!(!properties(old_order).contains(&"currency".to_string()));
    assert!(old_tools.iter().all(|t| t.name != "send_report_v2"));
    let v1 = find(&old_tools, "send_report");
    assert_eq!(properties(v1), ["body", "title"]);
    // revision 1's definitions carry revision 1's digests
    let old_lock = lockfile::read(&revision_1).unwrap();
    let old_search_value = serde_json::to_value(old_search).unwrap();
    assert_eq!(
        old_search_value["_meta"][wire::REVISION],
        json!(old_lock.get("search_catalog").unwrap().digest())
    );

    let search_call = obj(json!({ "query": "usb" }));
    let order_call = obj(json!({
        "lines": [{ "item_id": "bk-1", "quantity": 2 }],
        "shipping": { "method": "pickup", "store_id": "s-1" },
    }));
    let mut order_with_note = order_call.clone();
    order_with_note.insert("note".into(), json!("gift wrap please"));
    let report_call = obj(json!({ "title": "Weekly", "body": "All good." }));

    // 2. Redeploy: the current revision, with the effect and deprecation logs.
    let new = start(&[
        ("DEMO_SERVER_EFFECT_LOG", &effects),
        ("DEMO_SERVER_DEPRECATION_LOG", &deprecations),
    ])
    .await;
    let new_tools = new.list_all_tools().await.expect("tools/list");
    let lock_path = manifest_dir().join(lockfile::DEFAULT_PATH);
    let lock_text = std::fs::read_to_string(&lock_path).unwrap();
    let revision = revision_of(&lock_text);
    let listed = load::surface_from_value(
        &json!({ "tools": serde_json::to_value(&new_tools).unwrap() }),
        "tools/list",
    )
    .unwrap();
    let locked = lockfile::read(&lock_path).unwrap();
    for (name, tool) in &locked.tools {
        // each definition names its revision: its lockfile digest, which a
        // client recomputes from the definition it received
        let sent = serde_json::to_value(find(&new_tools, name)).unwrap();
        assert_eq!(
            sent["_meta"][wire::REVISION],
            json!(tool.digest()),
            "`{name}`"
        );
        assert_eq!(
            wire::revision_of_definition(&sent),
            Some(tool.digest()),
            "`{name}`"
        );
        assert_eq!(
            listed.get(name).unwrap().to_published(),
            tool.to_published(),
            "`{name}`: published != locked"
        );
    }
    assert!(listed.get("send_report").is_some() && listed.get("send_report_v2").is_some());

    // 3a. The renamed argument: normalized and served.
    let r = send(&new, "search_catalog", &search_call).await;
    assert_ne!(r.is_error, Some(true), "{r:?}");
    let sc = r.structured_content.expect("structuredContent");
    assert_eq!(sc["total"], json!(2), "{sc}");

    // 3b. The new required field: the server applies its default.
    let r = send(&new, "create_order", &order_call).await;
    assert_ne!(r.is_error, Some(true), "{r:?}");
    let sc = r.structured_content.expect("structuredContent");
    assert_eq!(sc["currency"], "EUR", "{sc}");
    let log = lines(&effects);
    assert_eq!(log.len(), 1, "{log:?}");
    assert_eq!(log[0]["tool"], "create_order");
    assert_eq!(log[0]["currency"], "EUR");

    // 3c. The removed argument: refused, naming the replacement; no order placed.
    let r = send(&new, "create_order", &order_with_note).await;
    let sc = rejected(&r, "RESERVED_FIELD", "create_order", &revision);
    assert_eq!(sc["replacement"], "delivery_instructions");
    assert_eq!(sc["required_action"], "refresh_tools");
    assert_eq!(sc["fields"], json!(["note"]));
    assert_eq!(lines(&effects).len(), 1, "a rejected call had an effect");

    // 3d. Old and new name with different values: refused, never a silent pick.
    let r = send(
        &new,
        "search_catalog",
        &obj(json!({ "query": "tea", "search_text": "usb" })),
    )
    .await;
    let sc = rejected(&r, "CONFLICTING_ALIASES", "search_catalog", &revision);
    assert_eq!(sc["required_action"], "fix_arguments");

    // 3e. The old major version keeps serving; a v1 call sent to v2 is refused.
    let r = send(&new, "send_report", &report_call).await;
    assert_ne!(r.is_error, Some(true), "{r:?}");
    assert_eq!(lines(&effects).len(), 2);
    let r = send(&new, "send_report_v2", &report_call).await;
    let sc = rejected(&r, "UNKNOWN_FIELD", "send_report_v2", &revision);
    assert_eq!(sc["fields"], json!(["body"]));
    assert_eq!(lines(&effects).len(), 2, "a rejected call had an effect");

    // A wrong type is refused before the handler runs, naming the place,
    // what the schema expects there and the tool's revision.
    let r = send(
        &new,
        "create_order",
        &obj(json!({
            "lines": [{ "item_id": "bk-1", "quantity": "two" }],
            "shipping": { "method": "pickup", "store_id": "s-1" },
        })),
    )
    .await;
    let sc = rejected(&r, "INVALID_ARGUMENTS", "create_order", &revision);
    assert_eq!(sc["errors"][0]["pointer"], "/lines/0/quantity", "{sc}");
    assert_eq!(sc["errors"][0]["keyword"], "type", "{sc}");
    assert_eq!(sc["errors"][0]["expected"], "an integer", "{sc}");
    assert_eq!(sc["nothing_executed"], json!(true));
    assert_eq!(sc["required_action"], "fix_arguments");
    let order_revision = json!(locked.get("create_order").unwrap().digest());
    assert_eq!(sc["tool_revision"], order_revision);
    assert_eq!(
        r.meta.as_ref().map(|m| m.0[wire::REVISION].clone()),
        Some(order_revision.clone()),
        "a refusal carries the revision in _meta"
    );
    assert_eq!(lines(&effects).len(), 2, "a rejected call had an effect");
    // and a call the handler answers carries it too
    let r = send(&new, "create_order", &order_call).await;
    assert_eq!(
        r.meta.as_ref().map(|m| m.0[wire::REVISION].clone()),
        Some(order_revision)
    );
    new.cancel().await.expect("shut down");

    // Deprecation telemetry: which old paths were taken, never the values.
    let hits: Vec<(String, String)> = lines(&deprecations)
        .iter()
        .map(|l| {
            (
                l["tool"].as_str().unwrap().to_string(),
                l["usage"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let has = |tool: &str, usage: &str| hits.contains(&(tool.to_string(), usage.to_string()));
    assert!(has("search_catalog", "field:query"), "{hits:?}");
    assert!(has("create_order", "default:currency"), "{hits:?}");
    assert!(has("create_order", "rejected:RESERVED_FIELD"), "{hits:?}");
    assert!(has("send_report", "tool:send_report_v2"), "{hits:?}");
    let raw = std::fs::read_to_string(&deprecations).unwrap();
    for value in ["usb", "gift wrap", "All good", "bk-1"] {
        assert!(!raw.contains(value), "telemetry recorded a value: {raw}");
    }
}
