//! The error a call gets when the runtime layer rejects it before the
//! handler runs: an MCP tool execution error (`isError: true`, never a
//! JSON-RPC error, so the agent sees it and can act), with text that says
//! what changed and that nothing was executed, and a `structuredContent`
//! object a program can branch on:
//!
//! ```json
//! {
//!   "error_code": "RESERVED_FIELD",
//!   "tool": "create_order",
//!   "fields": ["note"],
//!   "replacement": "delivery_instructions",
//!   "required_action": "refresh_tools",
//!   "side_effect_started": false,
//!   "nothing_executed": true,
//!   "contract_revision": "sha256:…",
//!   "tool_revision": "sha256:…",
//!   "message": "…the same text as the content…"
//! }
//! ```
//!
//! `INVALID_ARGUMENTS` (and a `STALE_TOOL_SCHEMA` for a call built for an
//! older revision the current one cannot serve) also carry `errors`: each
//! failing place as a JSON pointer into the arguments, the keyword that
//! refused it and what the schema expects there
//! (`{"pointer": "/limit", "keyword": "maximum", "expected": "at most 50"}`).
//! `tool_revision` is the revision of the tool served (its lockfile
//! `digest`, see [`super::wire`]); `stated_revision` the one the call said
//! it was built for, when it said one.

use std::fmt;

use serde_json::{json, Map, Value};

use super::validate::Invalid;

/// Why a call was rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ErrorCode {
    /// The tool called is no longer served (removed, renamed, or an old
    /// major version past its removal): the caller's tool list is stale.
    StaleToolSchema,
    /// A deprecated argument name and its replacement were both given, with
    /// different values.
    ConflictingAliases,
    /// An argument name that was removed from the contract.
    ReservedField,
    /// An argument name the contract does not declare.
    UnknownField,
    /// The arguments do not match the tool's input schema (a required
    /// field missing, a value of the wrong type, out of range, not among
    /// the allowed values), for a call built for the current revision.
    InvalidArguments,
}

impl ErrorCode {
    pub const ALL: [ErrorCode; 5] = [
        ErrorCode::StaleToolSchema,
        ErrorCode::ConflictingAliases,
        ErrorCode::ReservedField,
        ErrorCode::UnknownField,
        ErrorCode::InvalidArguments,
    ];

    /// The code as it appears in `structuredContent.error_code`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::StaleToolSchema => "STALE_TOOL_SCHEMA",
            ErrorCode::ConflictingAliases => "CONFLICTING_ALIASES",
            ErrorCode::ReservedField => "RESERVED_FIELD",
            ErrorCode::UnknownField => "UNKNOWN_FIELD",
            ErrorCode::InvalidArguments => "INVALID_ARGUMENTS",
        }
    }

    /// What the caller must do before trying again.
    pub fn required_action(self) -> RequiredAction {
        match self {
            ErrorCode::ConflictingAliases | ErrorCode::InvalidArguments => {
                RequiredAction::FixArguments
            }
            _ => RequiredAction::RefreshTools,
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What the caller must do next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequiredAction {
    /// List the tools again (`tools/list`) and rebuild the call from the
    /// current schema.
    RefreshTools,
    /// Resend the call with corrected arguments (the schema is current).
    FixArguments,
}

impl RequiredAction {
    pub fn as_str(self) -> &'static str {
        match self {
            RequiredAction::RefreshTools => "refresh_tools",
            RequiredAction::FixArguments => "fix_arguments",
        }
    }
}

/// A call rejected before its handler ran. Holds argument names, never values.
#[derive(Debug, Clone, PartialEq)]
pub struct StaleCall {
    pub code: ErrorCode,
    pub tool: String,
    /// The argument names concerned (empty for a stale tool).
    pub fields: Vec<String>,
    /// What to use instead, when the contract says.
    pub replacement: Option<String>,
    /// What changed, in words (ends with "Nothing was executed.").
    pub message: String,
    /// The contract revision the server serves.
    pub revision: String,
    /// The revision of the tool served (its lockfile digest), when known.
    pub tool_revision: Option<String>,
    /// The revision the call said it was built for, when it said one.
    pub stated_revision: Option<String>,
    /// Where the arguments fail the schema (`INVALID_ARGUMENTS`, and a
    /// stale call the current revision cannot serve).
    pub errors: Vec<Invalid>,
}

impl StaleCall {
    pub fn required_action(&self) -> RequiredAction {
        self.code.required_action()
    }

    /// The `structuredContent` object.
    pub fn structured(&self) -> Value {
        let mut m = Map::new();
        m.insert("error_code".into(), json!(self.code.as_str()));
        m.insert("tool".into(), json!(self.tool));
        if !self.fields.is_empty() {
            m.insert("fields".into(), json!(self.fields));
        }
        if let Some(r) = &self.replacement {
            m.insert("replacement".into(), json!(r));
        }
        m.insert(
            "required_action".into(),
            json!(self.required_action().as_str()),
        );
        if !self.errors.is_empty() {
            let errors: Vec<Value> = self
                .errors
                .iter()
                .map(
                    |e| json!({"pointer": e.pointer, "keyword": e.keyword, "expected": e.expected}),
                )
                .collect();
            m.insert("errors".into(), Value::Array(errors));
        }
        m.insert("side_effect_started".into(), json!(false));
        m.insert("nothing_executed".into(), json!(true));
        m.insert("contract_revision".into(), json!(self.revision));
        if let Some(r) = &self.tool_revision {
            m.insert("tool_revision".into(), json!(r));
        }
        if let Some(r) = &self.stated_revision {
            m.insert("stated_revision".into(), json!(r));
        }
        m.insert("message".into(), json!(self.message));
        Value::Object(m)
    }

    /// The whole `CallToolResult` as JSON: text content, `isError: true`,
    /// `structuredContent`.
    pub fn to_call_result(&self) -> Value {
        let mut result = json!({
            "content": [{ "type": "text", "text": self.message }],
            "isError": true,
            "structuredContent": self.structured(),
        });
        if let (Some(r), Value::Object(m)) = (&self.tool_revision, &mut result) {
            super::wire::stamp(m, super::wire::tool_meta(r, None));
        }
        result
    }
}

impl fmt::Display for StaleCall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

/// The sentence every rejection ends with.
pub const NOTHING_EXECUTED: &str = "Nothing was executed.";
