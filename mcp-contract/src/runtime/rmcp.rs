//! The runtime layer on rmcp (feature `rmcp`): one call in a
//! `ServerHandler::call_tool`, before the router dispatches to a handler:
//!
//! ```text
//! async fn call_tool(&self, mut request: CallToolRequestParams, context: RequestContext<RoleServer>)
//!     -> Result<CallToolResponse, ErrorData>
//! {
//!     if let Some(rejected) = self.compat.prepare_rmcp(&mut request, &context) {
//!         return Ok(rejected.into()); // isError: true, nothing executed
//!     }
//!     self.router.call(ToolCallContext::new(self, request, context)).await
//! }
//! ```
//!
//! Type errors in the normalized arguments are then rmcp's own: its
//! parameter deserialization answers with a tool execution error before the
//! handler runs.
//!
//! The caller is the client as it named itself in `initialize`
//! (`clientInfo`, kept by rmcp as the peer's info). A server with an agent
//! or tenant label adds it and calls [`Compat::prepare_rmcp_for`]:
//!
//! ```text
//! let info = context.peer.peer_info();
//! let caller = info.as_deref().map(caller_of).unwrap_or_default().with_agent(&tenant);
//! if let Some(rejected) = self.compat.prepare_rmcp_for(&mut request, &caller) { ... }
//! ```

use rmcp::model::{CallToolRequestParams, CallToolResult, ContentBlock, InitializeRequestParams};
use rmcp::service::RequestContext;
use rmcp::RoleServer;

use super::caller::Caller;
use super::compat::{Compat, Prepared};
use super::stale::StaleCall;

/// The caller an `initialize` request names (`clientInfo.name`, `.version`).
pub fn caller_of(info: &InitializeRequestParams) -> Caller<'_> {
    Caller::client(&info.client_info.name, &info.client_info.version)
}

impl Compat {
    /// Normalizes `request.arguments` in place, or returns the tool error to
    /// answer with (the handler must then not run). The caller is the
    /// client of `context` (unknown before `initialize`).
    pub fn prepare_rmcp(
        &self,
        request: &mut CallToolRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Option<CallToolResult> {
        let info = context.peer.peer_info();
        let caller = info.as_deref().map(caller_of).unwrap_or_default();
        self.prepare_rmcp_for(request, &caller)
    }

    /// [`prepare_rmcp`](Self::prepare_rmcp) for a caller the server names.
    pub fn prepare_rmcp_for(
        &self,
        request: &mut CallToolRequestParams,
        caller: &Caller<'_>,
    ) -> Option<CallToolResult> {
        let args = request.arguments.take();
        match self.prepare_for(&request.name, args, caller) {
            Prepared::Call(args) => {
                request.arguments = Some(args);
                None
            }
            Prepared::Reject(stale) => Some(stale.to_rmcp()),
        }
    }
}

impl StaleCall {
    /// The rejection as rmcp's `CallToolResult` (`isError: true`).
    pub fn to_rmcp(&self) -> CallToolResult {
        let mut result = CallToolResult::structured_error(self.structured());
        result.content = vec![ContentBlock::text(self.message.clone())];
        result
    }
}
