//! Found rmcp tools to the [`mcp_contract::Tool`]s that are locked: every
//! field exactly as rmcp 3.11's `#[tool]` builds its `rmcp::model::Tool`
//! (`Tool::new_with_raw(name, description, input_schema)` then `title`,
//! `output_schema`, `annotations`, `icons`, `meta`), the schemas derived by
//! [`crate::derive`] the way rmcp's `schema_for_input` / `schema_for_output`
//! generate them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use mcp_contract::{Surface, Tool};
use serde_json::{json, Value};

use super::attr::DocPiece;
use super::discover::{type_text, FoundRmcpTool, InputSource, OutputSource};
use super::eval::{eval_json, eval_str, expr_text};
use crate::derive::{input_schema_for, output_schema_for, schema_for, Publisher, TypeIndex};
use crate::error::Error;

/// Published fields given verbatim in `build.rs` (`Builder::tool_field`),
/// per tool name then published key (`description`, `inputSchema`,
/// `outputSchema`, `icons`, `_meta`, ...). They replace what the build step
/// would read from source, and are the escape hatch for what it cannot.
pub type ToolFields = BTreeMap<String, BTreeMap<String, Value>>;

/// The published keys `Builder::tool_field` may set.
pub const TOOL_FIELD_KEYS: &[&str] = &[
    "title",
    "description",
    "inputSchema",
    "outputSchema",
    "annotations",
    "icons",
    "_meta",
];

/// rmcp's `schema_for_empty_input()`: the input schema of a tool without `Parameters<T>`.
pub fn empty_input_schema() -> Value {
    json!({"type": "object", "properties": {}})
}

/// Adds every rmcp tool to `surface` (`seen` also holds the names of
/// `#[mcp_contract::tool]` tools: a name declared twice is an error).
pub fn add_rmcp_tools(
    surface: &mut Surface,
    seen: &mut BTreeMap<String, (PathBuf, usize)>,
    index: &TypeIndex,
    package_root: &Path,
    tools: &[FoundRmcpTool],
    fields: &ToolFields,
) -> Result<(), Error> {
    for found in tools {
        if let Some(first) = seen.get(&found.name) {
            return Err(Error::DuplicateTool {
                name: found.name.clone(),
                first: first.clone(),
                second: (found.file.clone(), found.line),
            });
        }
        seen.insert(found.name.clone(), (found.file.clone(), found.line));
        let given = fields.get(&found.name).cloned().unwrap_or_default();
        surface.insert(tool_for(index, package_root, found, &given)?);
    }
    Ok(())
}

/// The locked tool for one found `#[tool]`.
pub fn tool_for(
    index: &TypeIndex,
    package_root: &Path,
    found: &FoundRmcpTool,
    given: &BTreeMap<String, Value>,
) -> Result<Tool, Error> {
    let mut tool = Tool::new(found.name.clone());
    let dir = source_dir(package_root, &found.file);
    let unevaluable = |construct: &str, key: &str, expr: String| Error::Rmcp {
        file: found.file.clone(),
        line: found.line,
        message: format!(
            "tool `{}`: cannot evaluate {construct} `{expr}` at build time",
            found.name
        ),
        help: tool_field_help(&found.name, key),
    };

    tool.title = match given.get("title") {
        Some(v) => v.as_str().map(str::to_string),
        None => found.attr.title.clone(),
    };
    tool.description =
        match given.get("description") {
            Some(v) => v.as_str().map(str::to_string),
            None => match (&found.attr.description, &found.doc) {
                (Some(e), _) => Some(
                    eval_str(e, &dir)
                        .map_err(|n| unevaluable("the description", "description", n.0))?,
                ),
                (None, Some(pieces)) => {
                    let mut parts = Vec::new();
                    for p in pieces {
                        match p {
                            DocPiece::Text(t) => parts.push(t.clone()),
                            DocPiece::Macro(e) => parts.push(eval_str(e, &dir).map_err(|n| {
                                unevaluable("the doc attribute", "description", n.0)
                            })?),
                        }
                    }
                    Some(parts.join("\n"))
                }
                (None, None) => None,
            },
        };
    // rmcp publishes what schemars derives: the help names what changes that.
    let in_tool = |e: crate::derive::DeriveError| {
        let mut e = e.published_by(Publisher::Schemars);
        e.message.push_str(&format!(
            " (tool `{}`, {}:{})",
            found.name,
            found.file.display(),
            found.line
        ));
        Error::Derive(e)
    };
    tool.input_schema = match given.get("inputSchema") {
        Some(v) => v.clone(),
        None => match &found.input {
            InputSource::Parameters(t) => {
                input_schema_for(index, t, &found.module).map_err(in_tool)?
            }
            InputSource::Empty => empty_input_schema(),
            InputSource::Override(e) => schema_expr(index, found, e)
                .ok_or_else(|| unevaluable("`input_schema`", "inputSchema", expr_text(e)))?
                .map_err(|e| match e {
                    Error::Derive(d) => in_tool(d),
                    other => other,
                })?,
        },
    };
    tool.output_schema = match given.get("outputSchema") {
        Some(v) => Some(v.clone()),
        None => match &found.output {
            OutputSource::None => None,
            OutputSource::Json(t) => {
                Some(output_schema_for(index, t, &found.module).map_err(in_tool)?)
            }
            OutputSource::Override(e) => {
                Some(schema_expr(index, found, e).ok_or_else(|| {
                    unevaluable("`output_schema`", "outputSchema", expr_text(e))
                })??)
            }
        },
    };
    tool.annotations = match given.get("annotations") {
        Some(Value::Object(m)) => Some(m.clone()),
        Some(_) => None,
        None => found.attr.annotations.clone(),
    };
    for (key, expr, construct) in [
        ("icons", &found.attr.icons, "`icons`"),
        ("_meta", &found.attr.meta, "`meta`"),
    ] {
        let value = match (given.get(key), expr) {
            (Some(v), _) => Some(v.clone()),
            (None, Some(e)) => Some(eval_json(e).map_err(|n| unevaluable(construct, key, n.0))?),
            (None, None) => None,
        };
        if let Some(v) = value {
            tool.extra.insert(key.to_string(), v);
        }
    }
    Ok(tool)
}

/// A schema expression rmcp users write in `input_schema = ...` /
/// `output_schema = ...`: rmcp's own schema functions (`schema_for_type`,
/// `schema_for_input`, `schema_for_output`, `schema_for_empty_input`),
/// optionally followed by `.unwrap()` / `.expect(..)` / `.into()` or wrapped
/// in `Arc::new(..)`, or literal JSON. `None`: not evaluable.
fn schema_expr(
    index: &TypeIndex,
    found: &FoundRmcpTool,
    expr: &syn::Expr,
) -> Option<Result<Value, Error>> {
    match expr {
        syn::Expr::Paren(p) => return schema_expr(index, found, &p.expr),
        syn::Expr::MethodCall(m)
            if matches!(
                m.method.to_string().as_str(),
                "unwrap" | "expect" | "into" | "clone"
            ) =>
        {
            return schema_expr(index, found, &m.receiver)
        }
        syn::Expr::Call(c) => {
            let syn::Expr::Path(p) = &*c.func else {
                return None;
            };
            let last = p.path.segments.last()?;
            let name = last.ident.to_string();
            if name == "new" && c.args.len() == 1 {
                return schema_expr(index, found, &c.args[0]);
            }
            if name == "schema_for_empty_input" && c.args.is_empty() {
                return Some(Ok(empty_input_schema()));
            }
            let syn::PathArguments::AngleBracketed(a) = &last.arguments else {
                return None;
            };
            let Some(syn::GenericArgument::Type(ty)) = a.args.first() else {
                return None;
            };
            let module = &found.module;
            let result = match name.as_str() {
                "schema_for_type" | "cached_schema_for_type" => schema_for(index, ty, module),
                "schema_for_input" => {
                    let inner = parameters_inner(ty).unwrap_or_else(|| ty.clone());
                    input_schema_for(index, &inner, module)
                }
                "schema_for_output" => output_schema_for(index, ty, module),
                _ => return None,
            };
            return Some(result.map_err(|e| Error::from(e.published_by(Publisher::Schemars))));
        }
        _ => {}
    }
    eval_json(expr).ok().map(Ok)
}

fn parameters_inner(ty: &syn::Type) -> Option<syn::Type> {
    let syn::Type::Path(tp) = ty else { return None };
    let last = tp.path.segments.last()?;
    if last.ident != "Parameters" {
        return None;
    }
    let syn::PathArguments::AngleBracketed(a) = &last.arguments else {
        return None;
    };
    match a.args.first()? {
        syn::GenericArgument::Type(t) => Some(t.clone()),
        _ => None,
    }
}

/// The escape hatch: the published value given in `build.rs`.
pub fn tool_field_help(tool: &str, key: &str) -> String {
    let example = match key {
        "description" | "title" => "r#\"\"Your text.\"\"#",
        _ => "r#\"{ ... }\"#",
    };
    format!(
        "give the published value in build.rs: `mcp_contract_build::Builder::new().tool_field(\"{tool}\", \"{key}\", {example}).run()` (JSON text); it is locked and published as given"
    )
}

/// For messages: the type a tool's input is derived from.
pub fn input_type_text(found: &FoundRmcpTool) -> Option<String> {
    match &found.input {
        InputSource::Parameters(t) => Some(type_text(t)),
        _ => None,
    }
}

/// The directory of `file` (relative to `package_root`): what
/// `include_str!` in it reads relative to, as rustc does.
pub fn source_dir(package_root: &Path, file: &Path) -> PathBuf {
    package_root
        .join(file)
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rmcp::find_rmcp_tools;

    fn run(src: &str, fields: &ToolFields) -> Result<Surface, Error> {
        let files = vec![(
            PathBuf::from("src/lib.rs"),
            crate::source::Source::parse(src).unwrap(),
            vec![],
        )];
        let found = find_rmcp_tools(&files)?;
        let index = TypeIndex::new(files);
        let mut surface = Surface::new();
        let mut seen = BTreeMap::new();
        add_rmcp_tools(
            &mut surface,
            &mut seen,
            &index,
            Path::new("."),
            &found,
            fields,
        )?;
        Ok(surface)
    }

    const SERVER: &str = r#"
        #[derive(serde::Deserialize, schemars::JsonSchema)]
        pub struct A { pub q: String }
        #[tool_router]
        impl S {
            /// Finds.
            #[tool(input_schema = build_schema())]
            async fn find(&self) -> String { String::new() }
            #[tool(name = "find")]
            async fn other(&self, Parameters(a): Parameters<A>) -> String { a.0 }
        }
    "#;

    #[test]
    fn an_unevaluable_expression_is_an_error_naming_the_escape_hatch() {
        let e = run(
            &SERVER.replace("#[tool(name = \"find\")]", "#[tool]"),
            &ToolFields::new(),
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.starts_with(
                "src/lib.rs:8: tool `find`: cannot evaluate `input_schema` `build_schema ()`"
            ),
            "{e}"
        );
        assert!(e.contains(".tool_field(\"find\", \"inputSchema\""), "{e}");
    }

    #[test]
    fn tool_field_replaces_what_cannot_be_read_and_a_name_twice_fails() {
        let mut fields = ToolFields::new();
        fields.entry("find".into()).or_default().insert(
            "inputSchema".into(),
            json!({"type": "object", "properties": {"x": {"type": "string"}}}),
        );
        let s = run(
            &SERVER.replace("#[tool(name = \"find\")]", "#[tool]"),
            &fields,
        )
        .unwrap();
        assert_eq!(
            s.get("find").unwrap().input_schema["properties"]["x"]["type"],
            "string"
        );
        assert_eq!(
            s.get("find").unwrap().description.as_deref(),
            Some("Finds.")
        );
        assert_eq!(
            s.get("other").unwrap().input_schema["required"],
            json!(["q"])
        );
        let e = run(SERVER, &fields).unwrap_err().to_string();
        assert!(
            e.starts_with("src/lib.rs:10: tool name `find` is already used at src/lib.rs:8"),
            "{e}"
        );
    }
}
