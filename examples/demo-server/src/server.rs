//! The rmcp server: one route per tool, each published under its locked
//! definition (`LockedTool::rmcp_route`, which takes `async fn` and `fn`
//! handlers on `&self` alike), and a `ServerHandler` that lists
//! and calls them. Every call first goes through the runtime compatibility
//! layer generated from `contracts/migrations.toml` (renamed arguments read
//! under both names, server-applied defaults, reserved names and retired
//! tools rejected with a structured error), so a handler only ever sees
//! arguments in the current contract's shape.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use mcp_contract::runtime::{Compat, DeprecationHook};
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
use crate::effects::EffectLog;
use crate::revision;
use crate::telemetry::DemoTelemetry;
use crate::tools::cancel_order::{self, CancelOrderArgs};
use crate::tools::create_order::{self, CreateOrderArgs};
use crate::tools::get_item::{self, GetItemArgs};
use crate::tools::search_catalog::{self, SearchArgs};
use crate::tools::send_report::{ReportReceipt, SendReportArgs, TEAM_INBOX};
use crate::tools::send_report_v2::SendReportV2Args;

/// The demo server's state.
pub struct DemoServer {
    router: ToolRouter<DemoServer>,
    orders: OrderBook,
    /// The compatibility layer generated from the migration record.
    compat: Compat,
    telemetry: Arc<DemoTelemetry>,
    effects: EffectLog,
    reports: AtomicU64,
    /// A lockfile to publish instead of the current tools (see [`revision`]).
    pinned: Option<Vec<Tool>>,
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
        .with_route(SendReportArgs::rmcp_route(DemoServer::send_report))
        .with_route(SendReportV2Args::rmcp_route(DemoServer::send_report_v2))
}

/// The compatibility layer `build.rs` generated for this server's contract.
pub fn compat() -> Compat {
    Compat::from_json(mcp_contract::compat_plan!()).unwrap_or_else(|e| {
        panic!("demo-server was built with an unreadable compatibility plan: {e}")
    })
}

/// A tool execution error (`isError: true`), as opposed to a protocol error.
fn tool_error(message: impl Into<String>) -> Result<CallToolResult, ErrorData> {
    Ok(CallToolResult::error(vec![ContentBlock::text(
        message.into(),
    )]))
}

impl DemoServer {
    pub fn new() -> Self {
        let telemetry = Arc::new(DemoTelemetry::from_env());
        let pinned = revision::pinned_tools();
        let mut compat = compat().with_hook(telemetry.clone());
        // the revisions of a pinned lockfile were published: calls built
        // for them are answered through the record's transitions
        for (name, digest) in pinned.iter().flat_map(|p| &p.revisions) {
            compat = compat.with_previous_revision(name, digest);
        }
        DemoServer {
            router: router(),
            orders: OrderBook::default(),
            compat,
            telemetry,
            effects: EffectLog::from_env(),
            reports: AtomicU64::new(0),
            pinned: pinned.map(|p| p.tools),
        }
    }

    /// Reports every compatibility path taken to `hook` too (the usage
    /// recorder, see [`crate::usage`]).
    pub fn with_hook(mut self, hook: Arc<dyn DeprecationHook>) -> Self {
        self.compat = self.compat.with_hook(hook);
        self
    }

    /// Deprecation counters so far (tool, usage key, hits).
    pub fn deprecation_hits(&self) -> Vec<(String, String, u64)> {
        self.telemetry.counter.snapshot()
    }

    fn next_report_id(&self) -> String {
        format!("rep-{}", self.reports.fetch_add(1, Ordering::Relaxed) + 1)
    }

    // Handlers are `async fn` on `&self` or plain `fn`, as rmcp users write them.
    async fn search_catalog(
        &self,
        Parameters(args): Parameters<SearchArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        SearchArgs::structured(&search_catalog::run(&args))
    }

    async fn get_item(
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
            Ok(done) => {
                self.effects.record(
                    "create_order",
                    serde_json::json!({
                        "order_id": done.order_id,
                        "total_cents": done.total_cents,
                        "currency": done.currency,
                    }),
                );
                CreateOrderArgs::structured(&done)
            }
            Err(e) => tool_error(e),
        }
    }

    fn cancel_order(
        &self,
        Parameters(args): Parameters<CancelOrderArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        match cancel_order::run(&self.orders, &args) {
            Some(done) => {
                self.effects.record(
                    "cancel_order",
                    serde_json::json!({ "order_id": done.order_id }),
                );
                CancelOrderArgs::structured(&done)
            }
            None => tool_error(format!("no order with id `{}`", args.order_id)),
        }
    }

    fn send_report(
        &self,
        Parameters(args): Parameters<SendReportArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        let receipt = ReportReceipt {
            report_id: self.next_report_id(),
            recipients: vec![TEAM_INBOX.to_string()],
        };
        self.effects.record(
            "send_report",
            serde_json::json!({ "report_id": receipt.report_id, "title": args.title, "sections": 1 }),
        );
        SendReportArgs::structured(&receipt)
    }

    fn send_report_v2(
        &self,
        Parameters(args): Parameters<SendReportV2Args>,
    ) -> Result<CallToolResult, ErrorData> {
        if args.sections.is_empty() || args.recipients.is_empty() {
            return tool_error("a report needs at least one section and one recipient");
        }
        let receipt = ReportReceipt {
            report_id: self.next_report_id(),
            recipients: args.recipients,
        };
        self.effects.record(
            "send_report_v2",
            serde_json::json!({
                "report_id": receipt.report_id,
                "title": args.title,
                "sections": args.sections.len(),
            }),
        );
        SendReportV2Args::structured(&receipt)
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
        let mut tools = match &self.pinned {
            Some(tools) => tools.clone(),
            None => self.router.list_all(),
        };
        // each definition carries its revision (`_meta`)
        for t in &mut tools {
            self.compat.stamp_listed(t);
        }
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        mut request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // Validation and normalization happen here, before any handler runs.
        // The caller is the client as it named itself in `initialize`.
        if let Some(rejected) = self.compat.prepare_rmcp(&mut request, &context) {
            return Ok(rejected.into());
        }
        let name = request.name.to_string();
        let mut response = self
            .router
            .call(ToolCallContext::new(self, request, context))
            .await?;
        // every result, the handler's errors included, names the revision
        self.compat.stamp_response(&name, &mut response);
        Ok(response)
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.router.get(name).cloned()
    }
}
