//! From found tools to the [`Surface`] that is locked and published: each
//! tool's input and output schema derived from source exactly as rmcp
//! publishes them ([`input_schema_for`], [`output_schema_for`]), with name,
//! version, title, description and annotations from the attribute.

use std::collections::BTreeMap;
use std::path::PathBuf;

use mcp_contract::{Surface, Tool};
use serde_json::{Map, Value};

use crate::cache::{CachedTool, Reuse};
use crate::derive::{input_schema_for, output_schema_for, TypeIndex};
use crate::discover::FoundTool;
use crate::error::Error;
use crate::rmcp::{add_rmcp_tools, FoundRmcpTool, ToolFields};

/// Adds every tool of one crate (`index` built from that crate's files) to `surface`.
/// `seen` remembers where each name was declared, across crates, to report duplicates.
pub fn add_tools(
    surface: &mut Surface,
    seen: &mut BTreeMap<String, (PathBuf, usize)>,
    index: &TypeIndex,
    tools: &[FoundTool],
) -> Result<(), Error> {
    add_tools_cached(surface, seen, index, tools, None, &mut Vec::new())
}

/// [`add_tools`], recording in `record` the items each tool's derivation
/// read (its own struct included) for the next build, and whether `reuse`
/// knows it as unaffected (its cached file hash kept; empty: affected).
pub fn add_tools_cached(
    surface: &mut Surface,
    seen: &mut BTreeMap<String, (PathBuf, usize)>,
    index: &TypeIndex,
    tools: &[FoundTool],
    reuse: Option<&Reuse>,
    record: &mut Vec<CachedTool>,
) -> Result<(), Error> {
    for found in tools {
        let def = &found.def;
        let cached = reuse.and_then(|r| r.unaffected(&def.name));
        index.track();
        let derived = add_tool(surface, seen, index, found);
        let mut deps = index.take_touched();
        derived?;
        let at = index.type_loc(&found.module, &def.ident.to_string());
        if let Some(own) = &at {
            deps.insert(own.clone());
        }
        // An affected tool gets its file (and `hash`) after the run.
        record.push(CachedTool {
            name: def.name.clone(),
            at: at.unwrap_or_default(),
            rmcp: false,
            hash: cached.unwrap_or_default().to_string(),
            deps: deps.into_iter().collect(),
            features: Vec::new(),
        });
    }
    Ok(())
}

/// Adds rmcp's `#[tool]` fns `tools` (see [`crate::rmcp::add_rmcp_tools`]),
/// recording each with the items its derivation read, as
/// [`add_tools_cached`] does, and its doc comment. Its own impl block or
/// fn is not one of them: the rest of what discovery reads of it is the
/// file's structure.
#[allow(clippy::too_many_arguments)]
pub fn add_rmcp_tools_cached(
    surface: &mut Surface,
    seen: &mut BTreeMap<String, (PathBuf, usize)>,
    index: &TypeIndex,
    package_root: &std::path::Path,
    tools: &[FoundRmcpTool],
    fields: &ToolFields,
    reuse: Option<&Reuse>,
    record: &mut Vec<CachedTool>,
) -> Result<(), Error> {
    for found in tools {
        let cached = reuse.and_then(|r| r.unaffected(&found.name));
        index.track();
        let added = add_rmcp_tools(
            surface,
            seen,
            index,
            package_root,
            std::slice::from_ref(found),
            fields,
        );
        let mut deps = index.take_touched();
        added?;
        let file = index.file_index(&found.file).unwrap_or(usize::MAX);
        // Its description: the doc comment, kept apart from the structure.
        deps.insert((file, found.doc_item.clone()));
        record.push(CachedTool {
            name: found.name.clone(),
            at: (file, found.item.clone()),
            rmcp: true,
            hash: cached.unwrap_or_default().to_string(),
            deps: deps.into_iter().collect(),
            features: found.features.clone(),
        });
    }
    Ok(())
}

fn add_tool(
    surface: &mut Surface,
    seen: &mut BTreeMap<String, (PathBuf, usize)>,
    index: &TypeIndex,
    found: &FoundTool,
) -> Result<(), Error> {
    let def = &found.def;
    if let Some(first) = seen.get(&def.name) {
        return Err(Error::DuplicateTool {
            name: def.name.clone(),
            first: first.clone(),
            second: (found.file.clone(), found.line),
        });
    }
    seen.insert(def.name.clone(), (found.file.clone(), found.line));
    let ident = &def.ident;
    let args: syn::Type = syn::parse_quote!(#ident);
    let input = input_schema_for(index, &args, &found.module)?;
    if !mcp_contract::load::input_root_admits_object(&input) {
        return Err(Error::Attribute {
                file: found.file.clone(),
                problems: vec![(
                    found.line,
                    1,
                    format!(
                        "the input schema of tool `{}` admits no object, but MCP tool arguments are always a JSON object; give it an object schema (wrap a scalar or array in a field)",
                        def.name
                    ),
                )],
            });
    }
    let output = match &def.output {
        Some(ty) => Some(output_schema_for(index, ty, &found.module)?),
        None => None,
    };
    let hints = def.annotations.hints();
    let annotations = (!hints.is_empty()).then(|| {
        hints
            .into_iter()
            .map(|(k, v)| (k.to_string(), Value::Bool(v)))
            .collect::<Map<String, Value>>()
    });
    let mut tool = Tool::new(def.name.clone());
    tool.version = def.version;
    tool.title = def.title.clone();
    tool.description = def.description.clone();
    tool.annotations = annotations;
    tool.input_schema = input;
    tool.output_schema = output;
    surface.insert(tool);
    Ok(())
}
