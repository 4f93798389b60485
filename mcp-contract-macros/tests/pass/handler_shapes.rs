//! Every handler shape rmcp users write serves a locked tool through
//! `LockedTool::rmcp_route`: `async fn` and `fn`, on `&self` or free, with
//! other extractors beside `Parameters<Args>`, any `IntoCallToolResult`.

use mcp_contract::LockedTool;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::ToolName;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::ErrorData;

#[derive(serde::Deserialize)]
pub struct EchoArgs {
    pub text: String,
}

// What `#[mcp_contract::tool]` generates (it needs the build step's OUT_DIR).
impl LockedTool for EchoArgs {
    fn entry() -> &'static str {
        r#"{"inputSchema":{"properties":{"text":{"type":"string"}},"required":["text"],"type":"object"},"name":"echo"}"#
    }
    type Output = ();
}

#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct Echoed {
    pub text: String,
}

pub struct Server {
    prefix: String,
}

impl Server {
    async fn echo_async(&self, Parameters(args): Parameters<EchoArgs>) -> Result<CallToolResult, ErrorData> {
        Ok(CallToolResult::success(vec![ContentBlock::text(format!("{}{}", self.prefix, args.text))]))
    }

    async fn echo_json(&self, Parameters(args): Parameters<EchoArgs>) -> Result<Json<Echoed>, String> {
        Ok(Json(Echoed { text: format!("{}{}", self.prefix, args.text) }))
    }

    async fn echo_named(&self, ToolName(name): ToolName, Parameters(args): Parameters<EchoArgs>) -> String {
        format!("{}{name}: {}", self.prefix, args.text)
    }

    fn echo_sync(&self, Parameters(args): Parameters<EchoArgs>) -> String {
        format!("{}{}", self.prefix, args.text)
    }
}

async fn echo_free(Parameters(args): Parameters<EchoArgs>) -> String {
    args.text
}

fn echo_free_sync(Parameters(args): Parameters<EchoArgs>) -> String {
    args.text
}

pub fn routers() -> Vec<ToolRouter<Server>> {
    vec![
        ToolRouter::new().with_route(EchoArgs::rmcp_route(Server::echo_async)),
        ToolRouter::new().with_route(EchoArgs::rmcp_route(Server::echo_json)),
        ToolRouter::new().with_route(EchoArgs::rmcp_route(Server::echo_named)),
        ToolRouter::new().with_route(EchoArgs::rmcp_route(Server::echo_sync)),
        ToolRouter::new().with_route(EchoArgs::rmcp_route(echo_free)),
        ToolRouter::new().with_route(EchoArgs::rmcp_route(echo_free_sync)),
        // a closure on `&Server` whose future owns what it needs
        ToolRouter::new().with_route(EchoArgs::rmcp_route(
            |server: &Server, Parameters(args): Parameters<EchoArgs>| {
                let prefix = server.prefix.clone();
                async move { format!("{prefix}{}", args.text) }
            },
        )),
    ]
}

fn main() {
    let _ = Server { prefix: String::new() };
    assert!(routers().iter().all(|r| r.has_route("echo")));
}
