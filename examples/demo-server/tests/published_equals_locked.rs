//! Starts the demo server binary and talks to it over stdio with rmcp's
//! client: what `tools/list` publishes must be exactly what
//! `contracts/mcp-contract.lock` locks, for every tool.

use std::path::Path;

use mcp_contract::{load, lockfile, Surface};
use rmcp::model::CallToolRequestParams;
use rmcp::transport::TokioChildProcess;
use rmcp::ServiceExt;
use serde_json::{json, Value};

fn locked() -> Surface {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(lockfile::DEFAULT_PATH);
    lockfile::read(&path).unwrap_or_else(|e| panic!("{e}"))
}

async fn client() -> rmcp::service::RunningService<rmcp::RoleClient, ()> {
    let bin = env!("CARGO_BIN_EXE_demo-server");
    let transport = TokioChildProcess::new(tokio::process::Command::new(bin)).expect("spawn");
    ().serve(transport).await.expect("initialize")
}

#[tokio::test]
async fn tools_list_equals_the_lockfile() {
    let client = client().await;
    let tools = client.list_all_tools().await.expect("tools/list");
    client.cancel().await.expect("shut down");

    let listed = serde_json::to_value(&tools).unwrap();
    let published = load::surface_from_value(&json!({ "tools": listed }), "tools/list").unwrap();
    let locked = locked();
    let names = |s: &Surface| s.tools.keys().cloned().collect::<Vec<_>>();
    assert_eq!(names(&published), names(&locked));
    assert!(locked.len() >= 4);
    for (name, tool) in &locked.tools {
        assert_eq!(
            published.get(name).unwrap().to_published(),
            tool.to_published(),
            "tool `{name}`: published != locked"
        );
    }
    // The demo covers what the issue asks for.
    let search = locked.get("search_catalog").unwrap();
    assert!(search.input_schema.get("$defs").is_some(), "no $defs");
    assert!(locked.tools.values().all(|t| t.output_schema.is_some()));
}

#[tokio::test]
async fn a_call_returns_structured_content() {
    let client = client().await;
    let mut args = serde_json::Map::new();
    args.insert("query".into(), json!("usb"));
    args.insert("filters".into(), json!({ "category": "electronics" }));
    let result = client
        .call_tool(CallToolRequestParams::new("search_catalog").with_arguments(args))
        .await
        .expect("tools/call");
    client.cancel().await.expect("shut down");
    let structured = result.structured_content.expect("structuredContent");
    assert_eq!(structured["total"], json!(2));
    let ids: Vec<&Value> = structured["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| &h["id"])
        .collect();
    assert_eq!(ids, [&json!("el-1"), &json!("el-2")]);
}
