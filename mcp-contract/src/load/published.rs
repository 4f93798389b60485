//! What MCP clients accept from a published listing, beyond what the loader
//! reads. The loader takes any `inputSchema` that admits an object (so old
//! lockfiles and hand-written surfaces still compare), but the MCP
//! specification requires every tool's `inputSchema` to be an object schema,
//! `"type": "object"` at its root, and clients enforce it: the official
//! TypeScript and Python SDKs refuse the whole `tools/list` answer that
//! carries a tool without it (`{"$schema": "…draft-07/schema#"}`, `{}`,
//! `true`, a root `$ref`). A capture that locks such a tool records a
//! surface no client can use, so `snapshot` and `verify` refuse it
//! ([`require_object_inputs`]) unless told to lock it anyway.

use std::path::Path;

use serde_json::Value;

use crate::error::InputError;
use crate::lockfile::escape_pointer;
use crate::model::Surface;

/// The option that locks a surface with non-object input schemas anyway.
pub const ALLOW_FLAG: &str = "--allow-non-object-input";

/// Is `schema` what MCP requires of an `inputSchema`: an object schema with
/// `"type": "object"` at its root?
pub fn is_object_schema(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("object")
}

/// Refuses a surface in which some tool's `inputSchema` is not an object
/// schema. The error names `file`, the place of the first such tool
/// (`locate` turns a tool name into a JSON pointer to the tool), every
/// offending tool, what the specification requires and the fix.
pub fn require_object_inputs(
    surface: &Surface,
    file: &str,
    locate: &dyn Fn(&str) -> String,
) -> Result<(), InputError> {
    let bad: Vec<(&str, &Value)> = surface
        .tools
        .values()
        .filter(|t| !is_object_schema(&t.input_schema))
        .map(|t| (t.name.as_str(), &t.input_schema))
        .collect();
    let Some((first, schema)) = bad.first() else {
        return Ok(());
    };
    let what = if schema.is_null() {
        "publishes no `inputSchema`".to_string()
    } else {
        format!(
            "publishes an `inputSchema` without `\"type\": \"object\"` at its root ({})",
            shown(schema)
        )
    };
    let others = match bad.len() {
        1 => String::new(),
        n => format!(
            " (so do {} other tool(s): {})",
            n - 1,
            bad[1..]
                .iter()
                .map(|(n, _)| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    Err(InputError::new(
        file,
        format!(
            "tool `{first}` {what}{others}; the MCP specification requires `\"type\": \"object\"` at the root of every tool's inputSchema, and MCP clients (the official SDKs among them) refuse the whole tools/list that carries such a tool"
        ),
    )
    .at(format!("{}/inputSchema", locate(first)))
    .fix(format!(
        "fix the server so that the tool publishes an object schema (a tool without arguments publishes {{\"type\": \"object\"}}); to lock the surface as it is anyway (for investigation), pass {ALLOW_FLAG}"
    )))
}

/// A JSON pointer to tool `name` in the list of published tool objects
/// (`/tools/INDEX`, as capture errors point into all pages' tools).
pub fn locate_in_listing(tools: &[Value], name: &str) -> String {
    match tools
        .iter()
        .position(|t| t.get("name").and_then(Value::as_str) == Some(name))
    {
        Some(i) => format!("/tools/{i}"),
        None => format!("/tools/{}", escape_pointer(name)),
    }
}

/// A JSON pointer to tool `name` in a document in any shape the loader
/// reads (a lockfile keys tools by name; a `tools/list` result, bare or in a
/// JSON-RPC response, an array of tools, or one tool object).
pub fn locate_in_document(doc: &Value, name: &str) -> String {
    let by_name = |t: &Value| t.get("name").and_then(Value::as_str) == Some(name);
    if doc.get("lockfile_version").is_some() {
        return format!("/tools/{}", escape_pointer(name));
    }
    let (prefix, list) = match doc.get("jsonrpc") {
        Some(_) => ("/result", doc.get("result").unwrap_or(&Value::Null)),
        None => ("", doc),
    };
    match list {
        Value::Array(items) => match items.iter().position(by_name) {
            Some(i) => format!("{prefix}/{i}"),
            None => prefix.to_string(),
        },
        Value::Object(m) => match m.get("tools").and_then(Value::as_array) {
            Some(items) => match items.iter().position(by_name) {
                Some(i) => format!("{prefix}/tools/{i}"),
                None => format!("{prefix}/tools"),
            },
            None => prefix.to_string(),
        },
        _ => prefix.to_string(),
    }
}

/// Reads `path` as [`super::read_surface`] does and refuses non-object
/// input schemas unless `allow`.
pub fn read_accepted(path: &Path, allow: bool) -> Result<Surface, InputError> {
    let name = path.display().to_string();
    let bytes = crate::limits::read(path).map_err(|e| {
        InputError::new(&name, format!("cannot read file: {e}"))
            .fix("check the path and that the file is readable")
    })?;
    let doc = super::parse_json(&bytes, &name)?;
    let surface = super::surface_from_value(&doc, &name)?;
    if !allow {
        require_object_inputs(&surface, &name, &|n| locate_in_document(&doc, n))?;
    }
    Ok(surface)
}

/// The schema, short, for the message.
fn shown(schema: &Value) -> String {
    let text = schema.to_string();
    match text.char_indices().nth(120) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn surface(doc: &Value) -> Surface {
        super::super::surface_from_value(doc, "t.json").unwrap()
    }

    #[test]
    fn only_type_object_at_the_root_is_an_object_schema() {
        for ok in [
            json!({"type": "object"}),
            json!({"type": "object", "properties": {"a": {"type": "string"}}}),
        ] {
            assert!(is_object_schema(&ok), "{ok}");
        }
        for bad in [
            json!({"$schema": "http://json-schema.org/draft-07/schema#"}),
            json!({}),
            json!(true),
            json!(null),
            json!({"type": ["object", "null"]}),
            json!({"$ref": "#/$defs/A", "$defs": {"A": {"type": "object"}}}),
        ] {
            assert!(!is_object_schema(&bad), "{bad}");
        }
    }

    #[test]
    fn the_error_names_the_tool_its_place_the_requirement_and_the_fix() {
        let doc = json!({"tools": [
            {"name": "ok", "inputSchema": {"type": "object"}},
            {"name": "legacy", "inputSchema": {"$schema": "http://json-schema.org/draft-07/schema#"}},
            {"name": "bare", "inputSchema": {}}
        ]});
        let e = require_object_inputs(&surface(&doc), "t.json", &|n| locate_in_document(&doc, n))
            .unwrap_err();
        assert_eq!(e.file, "t.json");
        // tools are judged in name order: `bare` first
        assert_eq!(e.location.as_deref(), Some("/tools/2/inputSchema"));
        assert!(e.message.contains("tool `bare`"), "{e}");
        assert!(e.message.contains("`legacy`"), "{e}");
        assert!(e.message.contains("\"type\": \"object\""), "{e}");
        assert!(e.fix.as_deref().unwrap().contains(ALLOW_FLAG), "{e}");
        let fine = json!([{"name": "ok", "inputSchema": {"type": "object"}}]);
        assert!(require_object_inputs(&surface(&fine), "t.json", &|_| String::new()).is_ok());
    }

    #[test]
    fn tools_are_located_in_every_shape() {
        let t = json!({"name": "a", "inputSchema": {}});
        assert_eq!(
            locate_in_document(
                &json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [t]}}),
                "a"
            ),
            "/result/tools/0"
        );
        assert_eq!(locate_in_document(&json!([{"name": "b"}, t]), "a"), "/1");
        assert_eq!(locate_in_document(&t, "a"), "");
        assert_eq!(
            locate_in_document(&json!({"lockfile_version": 1, "tools": {}}), "a/b"),
            "/tools/a~1b"
        );
        assert_eq!(
            locate_in_listing(&[json!({"name": "x"}), t], "a"),
            "/tools/1"
        );
    }
}
