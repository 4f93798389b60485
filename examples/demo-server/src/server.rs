//! The rmcp server: one route per tool, each published under its locked
//! definition (`LockedTool::rmcp_route`), and a `ServerHandler` that lists
//! and calls them.

use mcp_contract::LockedTool;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

use crate::catalog::OrderBook;
use crate::tools::cancel_order::{self, CancelOrderArgs};
use crate::tools::create_order::{self, CreateOrderArgs};
use crate::tools::get_item::{self, GetItemArgs};
use crate::tools::search_catalog::{self, SearchArgs};

/// The demo server's state.
pub struct DemoServer {
    router: ToolRouter<DemoServer>,
    orders: OrderBook,
}

impl Default for DemoServer {
    fn default() -> Self {
        Self::new()
    }
}

/// Every tool the server publishes.
pub fn router() -> ToolRouter<DemoServer> {
    ToolRouter::new()
        .with_route(SearchArgs::rmcp_route(DemoServer::search_catalog))
        .with_route(GetItemArgs::rmcp_route(DemoServer::get_item))
        .with_route(CreateOrderArgs::rmcp_route(DemoServer::create_order))
        .with_route(CancelOrderArgs::rmcp_route(DemoServer::cancel_order))
}

/// A tool execution error (`isError: true`), as opposed to a protocol error.
fn tool_error(message: impl Into<String>) -> Result<CallToolResult, ErrorData> {
    Ok(CallToolResult::error(vec![ContentBlock::text(
        message.into(),
    )]))
}

impl DemoServer {
    pub fn new() -> Self {
        DemoServer {
            router: router(),
            orders: OrderBook::default(),
        }
    }

    fn search_catalog(
        &self,
        Parameters(args): Parameters<SearchArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        SearchArgs::structured(&search_catalog::run(&args))
    }

    fn get_item(
        &self,
        Parameters(args): Parameters<GetItemArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        match get_item::run(&args) {
            Some(item) => GetItemArgs::structured(&item),
            None => tool_error(format!("no item with id `{}`", args.id)),
        }
    }

    fn create_order(
        &self,
        Parameters(args): Parameters<CreateOrderArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        match create_order::run(&self.orders, &args) {
            Ok(done) => CreateOrderArgs::structured(&done),
            Err(e) => tool_error(e),
        }
    }

    fn cancel_order(
        &self,
        Parameters(args): Parameters<CancelOrderArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        match cancel_order::run(&self.orders, &args) {
            Some(done) => CancelOrderArgs::structured(&done),
            None => tool_error(format!("no order with id `{}`", args.order_id)),
        }
    }
}

impl ServerHandler for DemoServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                "demo-server",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions("A demo catalog: search items, fetch one, place and cancel orders.")
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.router.list_all()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.router
            .call(ToolCallContext::new(self, request, context))
            .await
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.router.get(name).cloned()
    }
}
