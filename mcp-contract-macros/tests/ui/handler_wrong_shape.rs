use mcp_contract::LockedTool;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;

#[derive(serde::Deserialize)]
pub struct EchoArgs {
    pub text: String,
}

impl LockedTool for EchoArgs {
    fn entry() -> &'static str {
        r#"{"inputSchema":{"type":"object"},"name":"echo"}"#
    }
    type Output = ();
}

pub struct Server;

/// Not a result rmcp can send back.
pub struct Opaque;

impl Server {
    async fn returns_opaque(&self, Parameters(_args): Parameters<EchoArgs>) -> Opaque {
        Opaque
    }

    async fn takes_a_string(&self, text: String) -> String {
        text
    }
}

fn main() {
    let _ = ToolRouter::<Server>::new().with_route(EchoArgs::rmcp_route(Server::returns_opaque));
    let _ = ToolRouter::<Server>::new().with_route(EchoArgs::rmcp_route(Server::takes_a_string));
}
