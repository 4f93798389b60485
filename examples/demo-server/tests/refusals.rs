//! Every refusal is structured: a table of invalid calls sent to the demo
//! server's binary over stdio with rmcp's client, each answered before its
//! handler ran as a tool execution error (`isError: true`) whose
//! `structuredContent` names the `error_code`, each failing place (JSON
//! pointer and keyword) and the tool's revision (its lockfile digest, also
//! in the result's `_meta`); the append-only effect log shows that none of
//! them placed an order.

use std::path::Path;

use mcp_contract::lockfile;
use mcp_contract::runtime::wire;
use rmcp::model::{CallToolRequestParams, CallToolResult, MetaObject, RequestMetaObject};
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{json, Map, Value};

/// One invalid call and what its refusal must say.
struct Row {
    what: &'static str,
    tool: &'static str,
    arguments: Value,
    /// A revision the call states it was built for.
    stated: Option<&'static str>,
    code: &'static str,
    /// Each failing place: (pointer, keyword).
    errors: &'static [(&'static str, &'static str)],
}

fn table() -> Vec<Row> {
    let pickup = json!({"method": "pickup", "store_id": "s-1"});
    vec![
        Row {
            what: "missing required",
            tool: "create_order",
            arguments: json!({"shipping": pickup}),
            stated: None,
            code: "INVALID_ARGUMENTS",
            errors: &[("/lines", "required")],
        },
        Row {
            what: "missing required, nested",
            tool: "create_order",
            arguments: json!({"lines": [{"item_id": "bk-1"}], "shipping": pickup}),
            stated: None,
            code: "INVALID_ARGUMENTS",
            errors: &[("/lines/0/quantity", "required")],
        },
        Row {
            what: "wrong type",
            tool: "search_catalog",
            arguments: json!({"search_text": 5}),
            stated: None,
            code: "INVALID_ARGUMENTS",
            errors: &[("/search_text", "type")],
        },
        Row {
            what: "wrong type, nested",
            tool: "create_order",
            arguments: json!({"lines": [{"item_id": "bk-1", "quantity": "two"}], "shipping": pickup}),
            stated: None,
            code: "INVALID_ARGUMENTS",
            errors: &[("/lines/0/quantity", "type")],
        },
        Row {
            what: "out of range (minimum)",
            tool: "search_catalog",
            arguments: json!({"search_text": "usb", "limit": -1}),
            stated: None,
            code: "INVALID_ARGUMENTS",
            errors: &[("/limit", "minimum"), ("/limit", "format")],
        },
        Row {
            what: "out of range (the uint32 width)",
            tool: "search_catalog",
            arguments: json!({"search_text": "usb", "limit": 4_294_967_296u64}),
            stated: None,
            code: "INVALID_ARGUMENTS",
            errors: &[("/limit", "format")],
        },
        Row {
            what: "a fraction where an integer is expected",
            tool: "create_order",
            arguments: json!({"lines": [{"item_id": "bk-1", "quantity": 1.5}], "shipping": pickup}),
            stated: None,
            code: "INVALID_ARGUMENTS",
            errors: &[("/lines/0/quantity", "type")],
        },
        Row {
            what: "enum value",
            tool: "search_catalog",
            arguments: json!({"search_text": "usb", "sort": "newest"}),
            stated: None,
            code: "INVALID_ARGUMENTS",
            errors: &[("/sort", "enum")],
        },
        Row {
            what: "enum value behind a $ref",
            tool: "create_order",
            arguments: json!({"lines": [{"item_id": "bk-1", "quantity": 1}], "shipping": pickup, "currency": "GBP"}),
            stated: None,
            code: "INVALID_ARGUMENTS",
            errors: &[("/currency", "enum")],
        },
        Row {
            what: "no alternative matches",
            tool: "create_order",
            arguments: json!({"lines": [{"item_id": "bk-1", "quantity": 1}], "shipping": {"method": "teleport"}}),
            stated: None,
            code: "INVALID_ARGUMENTS",
            errors: &[("/shipping", "oneOf")],
        },
        Row {
            what: "extra field on a closed object",
            tool: "get_item",
            arguments: json!({"id": "bk-1", "colour": "red"}),
            stated: None,
            code: "UNKNOWN_FIELD",
            errors: &[("/colour", "additionalProperties")],
        },
        Row {
            what: "extra field on an object the record closes",
            tool: "search_catalog",
            arguments: json!({"search_text": "usb", "page": 2}),
            stated: None,
            code: "UNKNOWN_FIELD",
            errors: &[("/page", "additionalProperties")],
        },
        Row {
            what: "a removed field",
            tool: "create_order",
            arguments: json!({"lines": [{"item_id": "bk-1", "quantity": 1}], "shipping": pickup, "note": "gift"}),
            stated: None,
            code: "RESERVED_FIELD",
            errors: &[("/note", "reserved")],
        },
        Row {
            what: "a stale revision (never published)",
            tool: "create_order",
            arguments: json!({"lines": [{"item_id": "bk-1", "quantity": 1}], "shipping": pickup}),
            stated: Some("sha256:0000000000000000000000000000000000000000000000000000000000000000"),
            code: "STALE_TOOL_SCHEMA",
            errors: &[],
        },
    ]
}

async fn start(effects: &Path) -> RunningService<RoleClient, ()> {
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_demo-server"));
    for var in ["DEMO_SERVER_LOCKFILE", "DEMO_SERVER_DEPRECATION_LOG"] {
        cmd.env_remove(var);
    }
    cmd.env("DEMO_SERVER_EFFECT_LOG", effects);
    let transport = TokioChildProcess::new(cmd).expect("spawn demo-server");
    ().serve(transport).await.expect("initialize")
}

fn request(row: &Row) -> CallToolRequestParams {
    let mut p = CallToolRequestParams::new(row.tool.to_string())
        .with_arguments(row.arguments.as_object().cloned().unwrap());
    if let Some(r) = row.stated {
        let mut meta = Map::new();
        meta.insert(wire::REVISION.into(), json!(r));
        p.meta = Some(RequestMetaObject(MetaObject(meta)));
    }
    p
}

fn check(row: &Row, result: &CallToolResult, digest: &str) {
    let at = format!("{} (`{}`)", row.what, row.tool);
    assert_eq!(result.is_error, Some(true), "{at}: {result:?}");
    let sc = result
        .structured_content
        .as_ref()
        .unwrap_or_else(|| panic!("{at}: no structuredContent"));
    assert_eq!(sc["error_code"], row.code, "{at}: {sc}");
    assert_eq!(sc["tool"], row.tool, "{at}");
    assert_eq!(sc["nothing_executed"], json!(true), "{at}");
    assert_eq!(sc["side_effect_started"], json!(false), "{at}");
    assert_eq!(sc["tool_revision"], digest, "{at}: the tool's revision");
    let meta = result.meta.as_ref().map(|m| &m.0);
    assert_eq!(
        meta.and_then(|m| m.get(wire::REVISION)),
        Some(&json!(digest)),
        "{at}: the result's _meta names the revision"
    );
    let places: Vec<(String, String)> = sc["errors"]
        .as_array()
        .map(|errors| {
            errors
                .iter()
                .map(|e| {
                    assert!(
                        e["expected"].as_str().is_some_and(|x| !x.is_empty()),
                        "{at}: each place says what is expected there: {e}"
                    );
                    (
                        e["pointer"].as_str().unwrap().to_string(),
                        e["keyword"].as_str().unwrap().to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let wanted: Vec<(String, String)> = row
        .errors
        .iter()
        .map(|(p, k)| (p.to_string(), k.to_string()))
        .collect();
    assert_eq!(places, wanted, "{at}: the failing places: {sc}");
    if let Some(stated) = row.stated {
        assert_eq!(sc["stated_revision"], stated, "{at}");
    }
    let text = result.content[0]
        .as_text()
        .expect("text content")
        .text
        .clone();
    assert!(text.ends_with("Nothing was executed."), "{at}: {text}");
}

#[tokio::test]
async fn every_invalid_call_is_refused_with_its_code_place_and_revision() {
    let tmp = tempfile::tempdir().unwrap();
    let effects = tmp.path().join("effects.jsonl");
    let lock_path = Path::new(env!("CARGO_MANIFEST_DIR")).join(lockfile::DEFAULT_PATH);
    let locked = lockfile::read(&lock_path).unwrap();
    let client = start(&effects).await;
    let rows = table();
    for row in &rows {
        let result = client
            .call_tool(request(row))
            .await
            .unwrap_or_else(|e| panic!("{}: a tool result, not a JSON-RPC error: {e}", row.what));
        let digest = locked.get(row.tool).unwrap().digest();
        check(row, &result, &digest);
    }
    // the same calls, fixed, are served (the table's refusals were the
    // arguments, not the tools): one order placed, with its revision
    let fixed = CallToolRequestParams::new("create_order").with_arguments(
        json!({"lines": [{"item_id": "bk-1", "quantity": 1}], "shipping": {"method": "pickup", "store_id": "s-1"}})
            .as_object()
            .cloned()
            .unwrap(),
    );
    let served = client.call_tool(fixed).await.unwrap();
    assert_ne!(served.is_error, Some(true), "{served:?}");
    assert_eq!(
        served.meta.as_ref().and_then(|m| m.0.get(wire::REVISION)),
        Some(&json!(locked.get("create_order").unwrap().digest()))
    );
    client.cancel().await.expect("shut down");
    let log = std::fs::read_to_string(&effects).unwrap_or_default();
    assert_eq!(
        log.lines().count(),
        1,
        "only the fixed call placed an order ({} refused calls placed none): {log}",
        rows.len()
    );
}
