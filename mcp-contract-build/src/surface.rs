//! From found tools to the [`Surface`] that is locked and published: each
//! tool's input and output schema derived from source exactly as rmcp
//! publishes them ([`input_schema_for`], [`output_schema_for`]), with name,
//! version, title, description and annotations from the attribute.

use std::collections::BTreeMap;
use std::path::PathBuf;

use mcp_contract::{Surface, Tool};
use serde_json::{Map, Value};

use crate::derive::{input_schema_for, output_schema_for, TypeIndex};
use crate::discover::FoundTool;
use crate::error::Error;

/// Adds every tool of one crate (`index` built from that crate's files) to `surface`.
/// `seen` remembers where each name was declared, across crates, to report duplicates.
pub fn add_tools(
    surface: &mut Surface,
    seen: &mut BTreeMap<String, (PathBuf, usize)>,
    index: &TypeIndex,
    tools: &[FoundTool],
) -> Result<(), Error> {
    for found in tools {
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
    }
    Ok(())
}
