//! The runtime layer on rmcp (feature `rmcp`): one call in a
//! `ServerHandler::call_tool`, before the router dispatches to a handler:
//!
//! ```text
//! async fn call_tool(&self, mut request: CallToolRequestParams, context: RequestContext<RoleServer>)
//!     -> Result<CallToolResponse, ErrorData>
//! {
//!     if let Some(rejected) = self.compat.prepare_rmcp(&mut request) {
//!         return Ok(rejected.into()); // isError: true, nothing executed
//!     }
//!     self.router.call(ToolCallContext::new(self, request, context)).await
//! }
//! ```
//!
//! Type errors in the normalized arguments are then rmcp's own: its
//! parameter deserialization answers with a tool execution error before the
//! handler runs.

use rmcp::model::{CallToolRequestParams, CallToolResult, ContentBlock};

use super::compat::{Compat, Prepared};
use super::stale::StaleCall;

impl Compat {
    /// Normalizes `request.arguments` in place, or returns the tool error to
    /// answer with (the handler must then not run).
    pub fn prepare_rmcp(&self, request: &mut CallToolRequestParams) -> Option<CallToolResult> {
        let args = request.arguments.take();
        match self.prepare(&request.name, args) {
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
