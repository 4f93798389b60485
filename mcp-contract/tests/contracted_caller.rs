//! The `Contracted` wrapper reports the client that made a call: an rmcp
//! client names itself in `initialize`, and the wrapper's compatibility
//! layer hands that name and version to every hook with the path taken.
//! A real client and server over an in-memory duplex pipe (the protocol,
//! not a fake handler context).

use std::sync::{Arc, Mutex};

use mcp_contract::rmcp::{Contract, Contracted};
use mcp_contract::runtime::plan::{Alias, CompatPlan, ToolPlan};
use mcp_contract::runtime::{Caller, Compat, DeprecationHook, Usage};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ClientCapabilities, ClientConfig,
    ContentBlock, Implementation, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::json;

/// Answers every call with the argument names it received.
struct Echo;

impl ServerHandler for Echo {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let names: Vec<String> = request
            .arguments
            .unwrap_or_default()
            .keys()
            .cloned()
            .collect();
        Ok(CallToolResult::success(vec![ContentBlock::text(names.join(","))]).into())
    }
}

#[derive(Default)]
struct Capture(Mutex<Vec<(String, String, String)>>);

impl DeprecationHook for Capture {
    fn record(&self, tool: &str, usage: &Usage, caller: &Caller<'_>) {
        self.0.lock().unwrap().push((
            tool.to_string(),
            usage.key(),
            caller.client_key().to_string(),
        ));
    }
}

fn contract(hook: Arc<Capture>) -> Contract {
    let tool = json!({"name": "search", "inputSchema": {"type": "object", "properties": {
        "search_text": {"type": "string"}, "query": {"type": "string", "deprecated": true}}}});
    let manifest =
        json!({"derived": {"search": tool}, "published": {"search": tool}, "features": {}});
    let mut plan = CompatPlan {
        revision: "r".into(),
        ..CompatPlan::default()
    };
    plan.tools.insert(
        "search".into(),
        ToolPlan {
            properties: vec!["search_text".into()],
            aliases: vec![Alias {
                from: "query".into(),
                to: "search_text".into(),
                required: false,
                until: None,
                removal: None,
            }],
            ..ToolPlan::default()
        },
    );
    Contract::from_build(&manifest.to_string(), r#"{"revision": "r", "tools": {}}"#)
        .unwrap()
        .with_compat(Compat::new(plan).with_hook(hook))
}

#[tokio::test]
async fn the_client_named_in_initialize_reaches_the_hook() {
    let hook = Arc::new(Capture::default());
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    let server = Contracted::new(Echo, contract(hook.clone()));
    let serving = tokio::spawn(async move {
        server
            .serve(server_io)
            .await
            .expect("server initialized")
            .waiting()
            .await
    });
    let client = ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("claude-desktop", "1.2"),
    )
    .serve(client_io)
    .await
    .expect("initialize");
    let result = client
        .call_tool(
            CallToolRequestParams::new("search")
                .with_arguments(json!({"query": "usb"}).as_object().cloned().unwrap()),
        )
        .await
        .expect("a tool result");
    let text = &result.content[0].as_text().expect("text").text;
    assert_eq!(text, "search_text", "the handler sees the current name");
    client.cancel().await.expect("shut down");
    let _ = serving.await;
    assert_eq!(
        *hook.0.lock().unwrap(),
        [(
            "search".to_string(),
            "field:query".to_string(),
            "claude-desktop/1.2".to_string()
        )]
    );
}
