//! Finds every `#[mcp_contract::tool]` argument struct in a crate's parsed
//! files (inline `mod { }` blocks included, `#[cfg(test)]` modules skipped),
//! checking each attribute with the same rules the macro applies.

use std::path::PathBuf;

use mcp_contract_syntax::{is_tool_attr, tool_def_from_attr, ToolDef};

use crate::attr_pos::{count, locate};
use crate::derive::{is_cfg_test, ModuleFile};
use crate::error::Error;
use crate::source::{Found, Pos, Source};

/// One annotated argument struct.
pub struct FoundTool {
    pub def: ToolDef,
    /// The module the struct is declared in (`[]` for the crate root).
    pub module: Vec<String>,
    /// The file, relative to the package root.
    pub file: PathBuf,
    /// 1-based line of the struct's name.
    pub line: usize,
}

/// Every annotated struct, in file order then source order.
pub fn find_tools(files: &[ModuleFile]) -> Result<Vec<FoundTool>, Error> {
    let mut out = Vec::new();
    for (path, file, module) in files {
        walk(&file.items, (path, file), module, &mut out)?;
    }
    Ok(out)
}

fn walk(
    items: &[syn::Item],
    (path, source): (&PathBuf, &Source),
    module: &[String],
    out: &mut Vec<FoundTool>,
) -> Result<(), Error> {
    for item in items {
        match item {
            syn::Item::Struct(s) => {
                let Some(attr) = s.attrs.iter().find(|a| is_tool_attr(a)) else {
                    continue;
                };
                let def = tool_def_from_attr(attr, s)
                    .map_err(|e| Error::attribute(path, tool_problems(source, attr, s, &e)))?;
                out.push(FoundTool {
                    def,
                    module: module.to_vec(),
                    file: path.clone(),
                    line: source.line_of(&s.ident),
                });
            }
            syn::Item::Mod(m) if !is_cfg_test(&m.attrs) => {
                if let Some((_, body)) = &m.content {
                    let mut inner = module.to_vec();
                    let name = m.ident.to_string();
                    inner.push(name.trim_start_matches("r#").to_string());
                    walk(body, (path, source), &inner, out)?;
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// The problems of a tool attribute, placed: in the attribute's arguments,
/// else in a field's attributes (serde aliases), else at the generics or
/// the name of a struct whose shape is the problem, else at the attribute.
fn tool_problems(
    source: &Source,
    attr: &syn::Attribute,
    s: &syn::ItemStruct,
    err: &syn::Error,
) -> Vec<(Pos, String)> {
    let rerun = |a: &syn::Attribute| tool_def_from_attr(a, s).err();
    let elsewhere = |message: &str, k: usize| {
        let gone = |s2: &syn::ItemStruct| count(tool_def_from_attr(attr, s2).err(), message) <= k;
        for (fi, f) in s.fields.iter().enumerate() {
            for (ai, fa) in f.attrs.iter().enumerate() {
                let found = source.locate_in_attribute(fa, |a| {
                    let mut s2 = s.clone();
                    if let Some(slot) = s2
                        .fields
                        .iter_mut()
                        .nth(fi)
                        .and_then(|f| f.attrs.get_mut(ai))
                    {
                        *slot = a.clone();
                    }
                    !gone(&s2)
                });
                if let Found::At(p) = found {
                    return Some(p);
                }
            }
        }
        let ident = source.pos_of(&s.ident)?;
        let mut plain = s.clone();
        plain.generics = syn::Generics::default();
        if !s.generics.params.is_empty() && gone(&plain) {
            return source.token_after(ident);
        }
        let mut named = s.clone();
        named.fields = syn::Fields::Named(syn::FieldsNamed {
            brace_token: Default::default(),
            named: Default::default(),
        });
        (!matches!(s.fields, syn::Fields::Named(_)) && gone(&named)).then_some(ident)
    };
    locate(source, attr, err, &rerun, &elsewhere)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(src: &str) -> Vec<ModuleFile> {
        vec![(
            PathBuf::from("src/lib.rs"),
            Source::parse(src).unwrap(),
            vec![],
        )]
    }

    #[test]
    fn finds_tools_in_inline_modules_and_skips_tests() {
        let found = find_tools(&files(
            r#"
            /// Top.
            #[mcp_contract::tool(name = "top")]
            pub struct Top { a: u8 }
            pub struct Plain { b: u8 }
            mod inner {
                #[mcp_contract::tool(name = "inner", read_only)]
                struct Inner {}
            }
            #[cfg(test)]
            mod tests {
                #[mcp_contract::tool(name = "test_only")]
                struct T {}
            }
            "#,
        ))
        .unwrap();
        let names: Vec<(&str, Vec<String>, usize)> = found
            .iter()
            .map(|t| (t.def.name.as_str(), t.module.clone(), t.line))
            .collect();
        assert_eq!(
            names,
            vec![("top", vec![], 4), ("inner", vec!["inner".to_string()], 8)]
        );
        assert_eq!(found[0].def.description.as_deref(), Some("Top."));
    }

    #[test]
    fn attribute_errors_name_file_line_and_column() {
        let err = find_tools(&files(
            "\n#[mcp_contract::tool(name = \"ok\", version = 0)]\nstruct A {}\n",
        ))
        .err()
        .unwrap();
        assert_eq!(
            err.to_string().lines().next().unwrap(),
            "src/lib.rs:2:45: version must be 1 or more"
        );
    }
}
