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
        // rmcp hands the request's `_meta` to the handler in the context
        let stated = super::wire::stated_revision(request.meta.as_ref().map(|m| &m.0 .0))
            .or_else(|| super::wire::stated_revision(Some(&context.meta.0 .0)))
            .map(str::to_string);
        self.prepare_rmcp_stated(request, stated.as_deref(), &caller)
    }

    /// [`prepare_rmcp`](Self::prepare_rmcp) for a caller the server names.
    pub fn prepare_rmcp_for(
        &self,
        request: &mut CallToolRequestParams,
        caller: &Caller<'_>,
    ) -> Option<CallToolResult> {
        let stated = super::wire::stated_revision(request.meta.as_ref().map(|m| &m.0 .0))
            .map(str::to_string);
        self.prepare_rmcp_stated(request, stated.as_deref(), caller)
    }

    /// [`prepare_rmcp_for`](Self::prepare_rmcp_for) for a call built for
    /// the revision `stated` (see [`super::wire`]).
    pub fn prepare_rmcp_stated(
        &self,
        request: &mut CallToolRequestParams,
        stated: Option<&str>,
        caller: &Caller<'_>,
    ) -> Option<CallToolResult> {
        let args = request.arguments.take();
        match self.prepare_call(&request.name, args, stated, caller) {
            Prepared::Call(args) => {
                request.arguments = Some(args);
                None
            }
            Prepared::Reject(stale) => Some(stale.to_rmcp()),
        }
    }
}

impl Compat {
    /// Adds the revision of a definition `tools/list` is about to send to
    /// its `_meta`, when it is a revision this layer serves (the current
    /// one or one of the tool's previous ones): the digest of the
    /// definition as sent, so it is never the revision of something else.
    pub fn stamp_listed(&self, tool: &mut rmcp::model::Tool) {
        let Some(plan) = self.plan().tools.get(tool.name.as_ref()) else {
            return;
        };
        if plan.revision.is_empty() {
            return;
        }
        let Ok(mut value) = serde_json::to_value(&*tool) else {
            return;
        };
        if let (Some(v), Some(m)) = (plan.version, value.as_object_mut()) {
            super::wire::stamp(m, super::wire::tool_meta("", Some(v)));
        }
        let Some(digest) = super::wire::revision_of_definition(&value) else {
            return;
        };
        if digest == plan.revision || plan.previous.contains(&digest) {
            stamp_tool(tool, &digest, plan.version);
        }
    }

    /// Adds the revision of `tool` to a `tools/call` result, whoever wrote
    /// it (the handler or this layer), when the tool is locked.
    pub fn stamp_response(&self, tool: &str, response: &mut rmcp::model::CallToolResponse) {
        if let (Some(r), rmcp::model::CallToolResponse::Complete(result)) =
            (self.tool_revision(tool), response)
        {
            stamp_result(result, r);
        }
    }
}

impl StaleCall {
    /// The rejection as rmcp's `CallToolResult` (`isError: true`).
    pub fn to_rmcp(&self) -> CallToolResult {
        let mut result = CallToolResult::structured_error(self.structured());
        result.content = vec![ContentBlock::text(self.message.clone())];
        if let Some(r) = &self.tool_revision {
            stamp_result(&mut result, r);
        }
        result
    }
}

/// Adds the tool's revision to a result's `_meta` ([`super::wire`]).
pub fn stamp_result(result: &mut CallToolResult, revision: &str) {
    let meta = result
        .meta
        .get_or_insert_with(|| rmcp::model::MetaObject(Default::default()));
    meta.0.extend(super::wire::tool_meta(revision, None));
}

/// Adds the tool's revision (and declared version) to a definition's `_meta`.
pub fn stamp_tool(tool: &mut rmcp::model::Tool, revision: &str, version: Option<u64>) {
    let meta = tool
        .meta
        .get_or_insert_with(|| rmcp::model::MetaObject(Default::default()));
    meta.0.extend(super::wire::tool_meta(revision, version));
}
