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
    let gone = |s2: &syn::ItemStruct, message: &str, k: usize| {
        count(tool_def_from_attr(attr, s2).err(), message) <= k
    };
    let in_fields = |message: &str, k: usize| {
        for (fi, f) in s.fields.iter().enumerate() {
            for (ai, fa) in f.attrs.iter().enumerate() {
                let with = |a: Option<&syn::Attribute>| {
                    let mut s2 = s.clone();
                    if let Some(f) = s2.fields.iter_mut().nth(fi) {
                        match a {
                            Some(a) => f.attrs[ai] = a.clone(),
                            None => {
                                f.attrs.remove(ai);
                            }
                        }
                    }
                    s2
                };
                match source.locate_in_attribute(fa, |a| !gone(&with(Some(a)), message, k)) {
                    Found::At(p) => return Some(p),
                    // Not its arguments: the attribute itself, if the
                    // problem goes with it.
                    Found::Empty if gone(&with(None), message, k) => {
                        return source.attribute_pos(fa)
                    }
                    _ => {}
                }
            }
        }
        None
    };
    let in_shape = |message: &str, k: usize| {
        let ident = source.pos_of(&s.ident)?;
        let mut plain = s.clone();
        plain.generics = syn::Generics::default();
        if !s.generics.params.is_empty() && gone(&plain, message, k) {
            return source.token_after(ident);
        }
        let mut named = s.clone();
        named.fields = syn::Fields::Named(syn::FieldsNamed {
            brace_token: Default::default(),
            named: Default::default(),
        });
        (!matches!(s.fields, syn::Fields::Named(_)) && gone(&named, message, k)).then_some(ident)
    };
    locate(source, attr, err, &rerun, (&in_fields, &in_shape))
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

    /// Every problem of a tool attribute is placed where the macro's own
    /// span puts it (tests are built with proc-macro2's span locations).
    #[test]
    fn attribute_problems_are_where_their_spans_say() {
        let cases = [
            "#[mcp_contract::tool(name = \"a\", bogus = 1)]\nstruct A { x: u8 }\n",
            "#[mcp_contract::tool(name = \"a\", name = \"b\")]\nstruct A { x: u8 }\n",
            "#[mcp_contract::tool(name = \"bad name!\")]\nstruct A { x: u8 }\n",
            "#[mcp_contract::tool(\n    name = \"a\",\n    reserved(\"x\", \"y\", \"y\"),\n)]\nstruct A {\n    x: u8,\n}\n",
            "#[mcp_contract::tool(name = \"a\", reserved(\"x\"))]\nstruct A { x: u8 }\n",
            "#[mcp_contract::tool(version = 2)]\nstruct A { x: u8 }\n",
            "#[mcp_contract::tool(name = \"a\")]\nstruct A<T> { x: T }\n",
            "#[mcp_contract::tool(name = \"a\")]\nstruct A(u8);\n",
            "/// Doc.\n#[mcp_contract::tool(name = \"a\")]\nstruct A {\n    x: u8,\n    #[mcp_contract(alias = \"x\")]\n    y: u8,\n    #[mcp_contract(alias = \"z\", alias = \"z\")]\n    w: u8,\n}\n",
            "#[mcp_contract::tool(name = \"a\", reserved(\"q\"))]\nstruct A {\n    #[mcp_contract(alias = \"q\")]\n    x: u8,\n}\n",
            "#[mcp_contract::tool(name = \"a\")]\nstruct A(#[mcp_contract(alias = \"b\")] u8);\n",
            "#[mcp_contract::tool(name = \"a\" version = 1)]\nstruct A { x: u8 }\n",
            "#[mcp_contract::tool(name = \"a\", version = 0, read_only = maybe)]\nstruct A { x: u8 }\n",
        ];
        for text in cases {
            let Err(ours) = find_tools(&files(text)) else {
                panic!("{text}: no error")
            };
            let Error::Attribute { problems, .. } = &ours else {
                panic!("{text}: {ours}")
            };
            let file = syn::parse_file(text).unwrap();
            let syn::Item::Struct(s) = &file.items[0] else {
                panic!("a struct")
            };
            let attr = s.attrs.iter().find(|a| is_tool_attr(a)).unwrap();
            let real = crate::source::span_positions(tool_def_from_attr(attr, s).err().unwrap());
            assert_eq!(problems, &real, "{text}");
        }
        // A field attribute's unknown key is found once its `=` is read:
        // the column is the `=`'s, two tokens after the key the macro names.
        let err = find_tools(&files(
            "#[mcp_contract::tool(name = \"a\")]\nstruct A {\n    #[mcp_contract(nickname = \"r\")] y: u8,\n}\n",
        ))
        .err()
        .unwrap();
        assert!(
            err.to_string()
                .starts_with("src/lib.rs:3:29: unknown field attribute `nickname`"),
            "{err}"
        );
    }
}
