//! Reading a tool surface from whatever the user has at hand: a lockfile, a
//! `tools/list` result (bare or inside a JSON-RPC response; beside `tools`
//! it may carry `prompts`, `resources` and `resourceTemplates` arrays in
//! their published form), an array of tools, or a single tool object. Every
//! failure is an [`InputError`] naming the file and the place in it.
//! Prompts, resources, templates and the server section: [`entries`].
//! What MCP clients accept from a published listing: [`published`].

pub mod entries;
pub mod published;

use std::path::Path;

use serde_json::{Map, Value};

use crate::error::InputError;
use crate::lockfile;
use crate::model::{Surface, Tool};
use crate::schema::refs;

/// Reads and parses `path` as a surface in any supported shape.
pub fn read_surface(path: &Path) -> Result<Surface, InputError> {
    let name = path.display().to_string();
    let bytes = crate::limits::read(path).map_err(|e| {
        InputError::new(&name, format!("cannot read file: {e}"))
            .fix("check the path and that the file is readable")
    })?;
    parse_surface(&bytes, &name)
}

/// Decodes UTF-8, rejects merge-conflict markers and parses JSON, with positions.
pub fn parse_json(bytes: &[u8], file: &str) -> Result<Value, InputError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let (line, col) = line_col(&bytes[..e.valid_up_to()]);
        InputError::new(file, "file is not valid UTF-8")
            .at(format!("line {line}, column {col}"))
            .fix("save the file as UTF-8")
    })?;
    reject_conflict(text, file)?;
    crate::json::from_str(text).map_err(|e| InputError::from_json(file, &e))
}

/// A JSON document (a lockfile, a capture) that still holds git's conflict
/// markers is an error at the first marker's line, whatever else is wrong.
pub fn reject_conflict(text: &str, file: &str) -> Result<(), InputError> {
    match conflict_marker_line(text) {
        Some(line) => Err(InputError::new(file, "unresolved merge-conflict marker")
            .at(format!("line {line}, column 1"))
            .fix("resolve the conflict: take either side, then regenerate with `cargo build` or `cargo mcp-contract snapshot`")),
        None => Ok(()),
    }
}

fn line_col(prefix: &[u8]) -> (usize, usize) {
    let line = prefix.iter().filter(|&&b| b == b'\n').count() + 1;
    let col = prefix.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
    (line, col)
}

/// The 1-based line of the first `<<<<<<<`, `=======` or `>>>>>>>` marker line.
pub fn conflict_marker_line(text: &str) -> Option<usize> {
    // (every marker line after the first starts right after a `\n`: a file
    // without such a sequence, the usual case, is cleared without walking its lines)
    let markers = ["<<<<<<<", ">>>>>>>", "======="];
    if !markers
        .iter()
        .any(|m| text.starts_with(m) || text.contains(&format!("\n{m}")))
    {
        return None;
    }
    text.lines()
        .position(|l| {
            l.starts_with("<<<<<<<")
                || l.starts_with(">>>>>>>")
                || l == "======="
                || l.starts_with("======= ")
        })
        .map(|i| i + 1)
}

/// Parses bytes as a surface in any supported shape.
pub fn parse_surface(bytes: &[u8], file: &str) -> Result<Surface, InputError> {
    let value = parse_json(bytes, file)?;
    surface_from_owned(value, file)
}

/// Interprets an already parsed JSON document as a surface.
pub fn surface_from_value(value: &Value, file: &str) -> Result<Surface, InputError> {
    surface_from_owned(value.clone(), file)
}

/// Like [`surface_from_value`], taking the document by value (no copies).
pub fn surface_from_owned(value: Value, file: &str) -> Result<Surface, InputError> {
    match value {
        Value::Object(m) if m.contains_key("lockfile_version") => {
            lockfile::from_owned(Value::Object(m), file)
        }
        Value::Object(mut m) if m.contains_key("jsonrpc") => {
            if let Some(err) = m.get("error") {
                return Err(InputError::new(file, format!("the JSON-RPC response is an error: {err}"))
                    .at("/error")
                    .fix("capture a successful tools/list response"));
            }
            let result = m.remove("result").ok_or_else(|| {
                InputError::new(file, "JSON-RPC response has no `result`")
                    .at("")
                    .fix("capture the response to a tools/list request")
            })?;
            tools_from_list(result, file, "/result")
        }
        v @ Value::Object(_) if is_list_result(&v) => tools_from_list(v, file, ""),
        Value::Array(items) => tools_from_array(items, file, ""),
        v @ Value::Object(_) if v.get("name").is_some() => {
            let mut s = Surface::new();
            s.insert(tool_from_owned(v, file, "")?);
            Ok(s)
        }
        _ => Err(InputError::new(
            file,
            "not a tool surface: expected a lockfile, a tools/list result ({\"tools\": [...]}), a JSON-RPC response, an array of tools or one tool object",
        )
        .at("/")
        .fix("pass the lockfile or a captured tools/list response")),
    }
}

/// Does `v` carry at least one list result (`tools`, `prompts`, `resources`, `resourceTemplates`)?
fn is_list_result(v: &Value) -> bool {
    [
        "tools",
        "prompts",
        "resources",
        "resourceTemplates",
        "server",
    ]
    .iter()
    .any(|k| v.get(*k).is_some())
}

fn tools_from_list(value: Value, file: &str, at: &str) -> Result<Surface, InputError> {
    let Value::Object(mut m) = value else {
        return Err(not_a_tools_array(file, at));
    };
    let mut surface = match m.remove("tools") {
        Some(Value::Array(items)) => tools_from_array(items, file, &format!("{at}/tools"))?,
        None if ["prompts", "resources", "resourceTemplates", "server"]
            .iter()
            .any(|k| m.contains_key(*k)) =>
        {
            Surface::new()
        }
        _ => return Err(not_a_tools_array(file, at)),
    };
    for kind in [
        entries::ListKind::Prompts,
        entries::ListKind::Resources,
        entries::ListKind::ResourceTemplates,
    ] {
        let ptr = format!("{at}/{}", kind.key());
        match m.remove(kind.key()) {
            None => {}
            Some(Value::Array(items)) => {
                entries::add_published(&mut surface, kind, items, file, &ptr)?
            }
            Some(_) => {
                return Err(InputError::new(
                    file,
                    format!("expected `{}` to be an array", kind.key()),
                )
                .at(ptr)
                .fix(format!("capture the result of a {} request", kind.method())))
            }
        }
    }
    match m.remove("server") {
        None => {}
        Some(Value::Object(s)) => {
            surface.server = Some(entries::server_from_map(s, file, &format!("{at}/server"))?)
        }
        Some(_) => {
            return Err(InputError::new(file, "expected `server` to be an object")
                .at(format!("{at}/server"))
                .fix("give the initialize result (protocolVersion, capabilities, instructions)"))
        }
    }
    Ok(surface)
}

fn not_a_tools_array(file: &str, at: &str) -> InputError {
    InputError::new(file, "expected `tools` to be an array of tool objects")
        .at(format!("{at}/tools"))
        .fix("capture the result of a tools/list request")
}

fn tools_from_array(items: Vec<Value>, file: &str, at: &str) -> Result<Surface, InputError> {
    let mut s = Surface::new();
    for (i, item) in items.into_iter().enumerate() {
        let ptr = format!("{at}/{i}");
        let tool = tool_from_owned(item, file, &ptr)?;
        let name = tool.name.clone();
        if s.insert(tool).is_some() {
            return Err(InputError::new(file, format!("duplicate tool `{name}`"))
                .at(ptr)
                .fix("a surface publishes each tool name once; remove or rename one of them"));
        }
    }
    Ok(s)
}

/// Parses one tool object (as published by `tools/list`).
pub fn tool_from_value(value: &Value, file: &str, at: &str) -> Result<Tool, InputError> {
    tool_from_owned(value.clone(), file, at)
}

fn tool_from_owned(value: Value, file: &str, at: &str) -> Result<Tool, InputError> {
    let Value::Object(mut m) = value else {
        return Err(InputError::new(file, "expected a tool object")
            .at(at_or_root(at))
            .fix("each tool is an object with at least `name` and `inputSchema`"));
    };
    let name = match m.remove("name") {
        Some(Value::String(n)) => n,
        _ => {
            return Err(InputError::new(file, "tool has no string `name`")
                .at(format!("{at}/name"))
                .fix("give every tool a `name`"))
        }
    };
    tool_from_map(name, m, file, at)
}

/// Builds a tool from its fields (taking them out of `m`); `name` comes from
/// the object or the lockfile key.
pub(crate) fn tool_from_map(
    name: String,
    mut m: Map<String, Value>,
    file: &str,
    at: &str,
) -> Result<Tool, InputError> {
    let mut opt_string = |key: &str| -> Result<Option<String>, InputError> {
        match m.remove(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(_) => Err(InputError::new(
                file,
                format!("`{key}` of tool `{name}` must be a string"),
            )
            .at(format!("{at}/{key}"))
            .fix(format!("make `{key}` a string or remove it"))),
        }
    };
    let title = opt_string("title")?;
    let description = opt_string("description")?;
    // what the runtime layer adds on the wire (a tool's revision) is not
    // part of the contract it names
    let wire_version = crate::runtime::wire::take_wire_keys(&mut m);
    let version = match m.remove("version") {
        None | Some(Value::Null) => wire_version,
        Some(v) => Some(v.as_u64().ok_or_else(|| {
            InputError::new(
                file,
                format!("`version` of tool `{name}` must be a non-negative integer"),
            )
            .at(format!("{at}/version"))
            .fix("use the contract's major version number, e.g. 1")
        })?),
    };
    let annotations = match m.remove("annotations") {
        None | Some(Value::Null) => None,
        Some(Value::Object(a)) => Some(a),
        Some(_) => {
            return Err(InputError::new(
                file,
                format!("`annotations` of tool `{name}` must be an object"),
            )
            .at(format!("{at}/annotations"))
            .fix("annotations is an object of hints such as {\"readOnlyHint\": true}"))
        }
    };
    let mut schema = |key: &str| -> Result<Option<Value>, InputError> {
        match m.remove(key) {
            None => Ok(None),
            Some(v @ (Value::Object(_) | Value::Bool(_) | Value::Null)) => Ok(Some(v)),
            Some(_) => Err(InputError::new(
                file,
                format!("`{key}` of tool `{name}` must be a JSON Schema object"),
            )
            .at(format!("{at}/{key}"))
            .fix(format!(
                "make `{key}` an object such as {{\"type\": \"object\"}}"
            ))),
        }
    };
    let input_schema = schema("inputSchema")?.unwrap_or(Value::Null);
    let output_schema = schema("outputSchema")?.filter(|v| !v.is_null());
    for (key, schema) in [
        ("inputSchema", Some(&input_schema)),
        ("outputSchema", output_schema.as_ref()),
    ] {
        if let Some(schema) = schema {
            // a reference that does not resolve as written may as the
            // comparator reads the document (in its dialect, references
            // against embedded `$id`s made pointers)
            refs::validate(schema)
                .or_else(|e| {
                    let read = crate::schema::dialect::normalize(schema);
                    refs::validate(&read.doc).map_err(|_| e)
                })
                .map_err(|e| {
                    InputError::new(file, format!("tool `{name}`: {}", e.message))
                        .at(format!("{at}/{key}{}", e.pointer))
                        .fix(e.fix)
                })?;
        }
    }
    if !input_root_admits_object(&input_schema) {
        return Err(InputError::new(
            file,
            format!("the `inputSchema` of tool `{name}` admits no object, but MCP tool arguments are always a JSON object"),
        )
        .at(format!("{at}/inputSchema"))
        .fix("give the input root `\"type\": \"object\"` (wrap a scalar or array argument in a property)"));
    }
    m.remove("digest");
    m.remove("name");
    let extra = m.into_iter().collect();
    Ok(Tool {
        title,
        description,
        name,
        version,
        annotations,
        input_schema,
        output_schema,
        extra,
    })
}

/// Does an input schema root admit some object (after following its
/// reference)? MCP tool arguments are always an object, so a root that
/// admits none is not a valid `inputSchema` (the build step checks it too).
pub fn input_root_admits_object(schema: &Value) -> bool {
    if schema.is_null() {
        return true;
    }
    let root = crate::schema::shape::shape(schema, schema);
    #[cfg(feature = "gate")]
    let types = crate::diff::effective_types(&root);
    // Without the engine (a server reading the entry its build step already
    // checked with it): the declared types.
    #[cfg(not(feature = "gate"))]
    let types = crate::schema::types::TypeSet::from_keyword(root.get("type"));
    types.overlaps(crate::schema::types::TypeSet::OBJECT)
}

fn at_or_root(at: &str) -> String {
    if at.is_empty() {
        "/".to_string()
    } else {
        at.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::conflict_marker_line;

    #[test]
    fn conflict_markers_found_on_any_line_and_only_at_line_start() {
        let cases: [(&str, Option<usize>); 11] = [
            ("{}\n", None),
            ("<<<<<<< HEAD\n{}", Some(1)),
            ("{\n>>>>>>> b\n}", Some(2)),
            ("{\n\n=======\n}", Some(3)),
            ("{\n=======\r\n}", Some(2)),
            ("{\n======= x\n}", Some(2)),
            ("{\n=======", Some(2)),
            ("{\n========\n}", None),
            ("{\n=======\r", None),
            ("{ \"a\": \"<<<<<<<\" }\n", None),
            ("a\n b\n<<<<<<<\n=======\n", Some(3)),
        ];
        for (text, line) in cases {
            assert_eq!(conflict_marker_line(text), line, "{text:?}");
        }
    }
}
