//! What the runtime layer puts on the wire beside MCP's own fields: the
//! revision of each tool, in `_meta`, under keys of this project's
//! reverse-DNS prefix (MCP reserves none of its labels):
//!
//! - `tools/list`: each locked tool carries [`REVISION`], the `digest` its
//!   lockfile entry has (and [`VERSION`] when the contract declares a major
//!   version, which the digest covers but `tools/list` has no field for);
//! - `tools/call` results, success and error alike: [`REVISION`] of the
//!   tool that answered;
//! - `tools/call` requests: a client may state the revision it built the
//!   call from, in the request's `_meta` under [`REVISION`]; the layer then
//!   knows whether the call was built for the current definition, an older
//!   one it still serves through the record's transitions, or one it never
//!   published ([`super::compat`]).
//!
//! A client computes the revision of a definition it received as
//! [`revision_of_definition`] does: take the tool object, drop `name` and
//! this prefix's keys from `_meta` (and `_meta` itself when nothing else is
//! left in it), add `"version": N` when [`VERSION`] said `N`, and hash with
//! SHA-256 the compact JSON of the result with object keys sorted
//! (`json.dumps(entry, sort_keys=True, separators=(",", ":"),
//! ensure_ascii=False)` in Python): `sha256:<64 hex digits>`.
//! `docs/client-authors.md` shows it.

use serde_json::{Map, Value};

use crate::model::digest_of_value;

/// The prefix of every `_meta` key this layer writes or reads.
pub const PREFIX: &str = "io.github.mcp-contract/";
/// A tool's revision: its lockfile `digest` (`sha256:<hex>`).
pub const REVISION: &str = "io.github.mcp-contract/revision";
/// A tool's declared major version (part of what the revision covers).
pub const VERSION: &str = "io.github.mcp-contract/version";

/// The `_meta` entries a tool definition in `tools/list` carries.
pub fn tool_meta(revision: &str, version: Option<u64>) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert(REVISION.into(), Value::String(revision.to_string()));
    if let Some(v) = version {
        m.insert(VERSION.into(), Value::from(v));
    }
    m
}

/// Adds `entries` to the `_meta` object of `target` (a tool definition or
/// a result), creating it when absent; a `_meta` that is not an object is
/// left alone (it is the server's own, and not ours to replace).
pub fn stamp(target: &mut Map<String, Value>, entries: Map<String, Value>) {
    if let Value::Object(meta) = target
        .entry("_meta")
        .or_insert_with(|| Value::Object(Map::new()))
    {
        meta.extend(entries);
    }
}

/// The revision a request's `_meta` states, when it states one as a string.
pub fn stated_revision(meta: Option<&Map<String, Value>>) -> Option<&str> {
    meta?.get(REVISION)?.as_str()
}

/// Takes this layer's keys out of a definition's `_meta` (and `_meta`
/// itself when nothing else is left in it): what the loader does with
/// every tool it reads, so a captured or verified definition is the
/// contract, not its wire annotations. Returns the [`VERSION`] it held.
pub fn take_wire_keys(definition: &mut Map<String, Value>) -> Option<u64> {
    let Some(Value::Object(meta)) = definition.get_mut("_meta") else {
        return None;
    };
    let version = meta.get(VERSION).and_then(Value::as_u64);
    meta.retain(|k, _| !k.starts_with(PREFIX));
    if meta.is_empty() {
        definition.remove("_meta");
    }
    version
}

/// The revision of a tool definition as received from `tools/list` (with
/// or without this layer's `_meta` keys): what its lockfile `digest` is.
/// `None` when `definition` is not a tool object with a `name`.
pub fn revision_of_definition(definition: &Value) -> Option<String> {
    let Value::Object(m) = definition else {
        return None;
    };
    let mut m = m.clone();
    if !matches!(m.remove("name"), Some(Value::String(_))) {
        return None;
    }
    if let Some(v) = take_wire_keys(&mut m) {
        m.insert("version".into(), Value::from(v));
    }
    Some(digest_of_value(&crate::canonical::canonicalize(
        &Value::Object(m),
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_received_definition_hashes_to_its_lockfile_digest() {
        let entry = json!({"annotations": {"readOnlyHint": true}, "description": "Find.",
            "inputSchema": {"properties": {"q": {"type": "string"}}, "required": ["q"], "type": "object"},
            "_meta": {"ui": 1}, "version": 2});
        let tool = crate::load::tool_from_value(
            &{
                let mut e = entry.clone();
                e["name"] = json!("search");
                e
            },
            "t",
            "",
        )
        .unwrap();
        let locked = tool.digest();
        let mut sent = tool.to_published();
        let Value::Object(m) = &mut sent else {
            panic!()
        };
        stamp(m, tool_meta(&locked, tool.version));
        assert_eq!(sent["_meta"]["ui"], 1, "the server's own _meta is kept");
        assert_eq!(
            revision_of_definition(&sent).as_deref(),
            Some(locked.as_str())
        );
        // the same without the layer's keys, and the keys order-free
        let text = serde_json::to_string(&sent).unwrap();
        let reparsed: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(revision_of_definition(&reparsed), Some(locked));
        assert_eq!(
            revision_of_definition(&json!({"description": "no name"})),
            None
        );
    }

    #[test]
    fn a_stated_revision_is_a_string_under_the_key() {
        let mut meta = Map::new();
        meta.insert(REVISION.into(), json!("sha256:ab"));
        meta.insert("other".into(), json!(1));
        assert_eq!(stated_revision(Some(&meta)), Some("sha256:ab"));
        meta.insert(REVISION.into(), json!(1));
        assert_eq!(stated_revision(Some(&meta)), None);
        assert_eq!(stated_revision(None), None);
    }
}
