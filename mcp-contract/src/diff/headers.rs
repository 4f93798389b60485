//! `x-mcp-header` (MCP 2026-07-28): an input property so marked is mirrored
//! by clients into an `Mcp-Param-<name>` HTTP header that load balancers,
//! gateways and rate limiters route on. Removing or renaming one breaks
//! those intermediaries even though no call is rejected, so it is judged
//! here rather than as an ordinary `x-*` extension. Header names compare
//! case-insensitively (HTTP field names); only `properties` chains count,
//! as in the specification.

use std::collections::BTreeMap;

use serde_json::Value;

use super::Change;
use crate::lockfile::escape_pointer;
use crate::rules::{self, RuleId};

/// The keyword.
pub const KEYWORD: &str = "x-mcp-header";

/// Deepest `properties` chain followed (schemas are bounded by loading, this
/// bounds the walk itself).
const MAX_DEPTH: usize = 32;

/// Pointer (under `/inputSchema`) of each marked property -> header name.
pub fn headers(schema: &Value) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    walk(schema, &mut vec![], &mut out);
    out
}

/// `names` are the properties leading to `schema`; a pointer is built only
/// for a member that carries the keyword (most carry none).
fn walk<'a>(schema: &'a Value, names: &mut Vec<&'a str>, out: &mut BTreeMap<String, String>) {
    if names.len() > MAX_DEPTH {
        return;
    }
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return;
    };
    for (name, sub) in props {
        let Value::Object(sub_map) = sub else {
            continue;
        };
        names.push(name);
        if let Some(h) = sub_map.get(KEYWORD).and_then(Value::as_str) {
            let mut at = String::new();
            for n in names.iter() {
                at.push_str("/properties/");
                at.push_str(&escape_pointer(n));
            }
            out.insert(at, h.to_string());
        }
        walk(sub, names, out);
        names.pop();
    }
}

/// Header changes between two input schemas of tool `tool`.
pub(crate) fn diff_headers(old: &Value, new: &Value, tool: &str) -> Vec<Change> {
    let (ho, hn) = (headers(old), headers(new));
    let mut out = vec![];
    for (ptr, h) in &ho {
        let what = match hn.get(ptr) {
            Some(n) if n.eq_ignore_ascii_case(h) => continue,
            Some(n) => format!("argument at {ptr} is now mirrored as `Mcp-Param-{n}` instead of `Mcp-Param-{h}`: intermediaries routing on the old header see nothing"),
            None => format!("argument at {ptr} is no longer mirrored into `Mcp-Param-{h}`: intermediaries routing on it see nothing"),
        };
        let r = RuleId::InputMcpHeaderRemoved.rule();
        out.push(
            Change::new(
                r.kind,
                tool,
                format!("/inputSchema{ptr}/{KEYWORD}"),
                format!("{what}; {}", rules::fix_for(r, tool)),
            )
            .with_subject(h.clone()),
        );
    }
    for (ptr, h) in hn.iter().filter(|(p, _)| !ho.contains_key(*p)) {
        out.push(
            Change::new(
                RuleId::InputMcpHeaderAdded,
                tool,
                format!("/inputSchema{ptr}/{KEYWORD}"),
                format!("argument at {ptr} is now mirrored into `Mcp-Param-{h}`"),
            )
            .with_subject(h.clone()),
        );
    }
    out
}

/// Is `c` the generic `x-*` extension change that [`diff_headers`] judges instead?
pub(crate) fn is_header_extension_change(c: &Change) -> bool {
    matches!(
        c.rule_id(),
        RuleId::InputExtensionChanged | RuleId::InputKeywordChanged
    ) && c.pointer.ends_with(&format!("/{KEYWORD}"))
}
