//! rmcp's `#[tool(...)]` grammar (rmcp-macros 3.11 `ToolAttribute`, parsed
//! by darling there): every key it accepts, nothing else, and the rule by
//! which a doc comment becomes the description.

use serde_json::{Map, Value};
use syn::punctuated::Punctuated;
use syn::{Attribute, Expr, ExprLit, Lit, Meta, Token};

/// The keys `#[tool(...)]` accepts.
pub const TOOL_KEYS: &str =
    "name, title, description, input_schema, output_schema, annotations, icons, meta, local";

/// The keys `annotations(...)` accepts.
pub const ANNOTATION_KEYS: &str =
    "title, read_only_hint, destructive_hint, idempotent_hint, open_world_hint";

/// Everything written inside rmcp's `#[tool(...)]`.
#[derive(Debug, Clone, Default)]
pub struct RmcpToolAttr {
    pub name: Option<String>,
    pub title: Option<String>,
    pub description: Option<Expr>,
    pub input_schema: Option<Expr>,
    pub output_schema: Option<Expr>,
    /// The published `annotations` object (keys camelCased as rmcp serializes them).
    pub annotations: Option<Map<String, Value>>,
    pub icons: Option<Expr>,
    pub meta: Option<Expr>,
}

/// Whether `attr`'s last path segment is `name` (rmcp finds its attributes
/// this way: `#[tool]`, `#[rmcp::tool]`).
pub fn last_segment_is(attr: &Attribute, name: &str) -> bool {
    attr.path().segments.last().is_some_and(|s| s.ident == name)
}

/// Parses `#[tool]` / `#[tool(...)]`.
pub fn parse_tool_attr(attr: &Attribute) -> syn::Result<RmcpToolAttr> {
    let mut out = RmcpToolAttr::default();
    let metas = match &attr.meta {
        Meta::Path(_) => return Ok(out),
        Meta::List(_) => attr.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)?,
        Meta::NameValue(nv) => {
            return Err(syn::Error::new_spanned(
                nv,
                "rmcp's `#[tool]` takes a list: `#[tool(name = \"...\")]`",
            ))
        }
    };
    for meta in metas {
        let key = meta
            .path()
            .get_ident()
            .map(|i| i.to_string())
            .unwrap_or_default();
        match (key.as_str(), &meta) {
            ("name", Meta::NameValue(nv)) => out.name = Some(string_lit(&nv.value, "name")?),
            ("title", Meta::NameValue(nv)) => out.title = Some(string_lit(&nv.value, "title")?),
            ("description", Meta::NameValue(nv)) => out.description = Some(nv.value.clone()),
            ("input_schema", Meta::NameValue(nv)) => out.input_schema = Some(nv.value.clone()),
            ("output_schema", Meta::NameValue(nv)) => out.output_schema = Some(nv.value.clone()),
            ("icons", Meta::NameValue(nv)) => out.icons = Some(nv.value.clone()),
            ("meta", Meta::NameValue(nv)) => out.meta = Some(nv.value.clone()),
            ("local", _) => {}
            ("annotations", Meta::List(list)) => {
                let inner =
                    list.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)?;
                out.annotations = Some(annotations(inner)?);
            }
            ("annotations", Meta::Path(_)) => out.annotations = Some(Map::new()),
            _ => {
                return Err(syn::Error::new_spanned(
                    meta.path(),
                    format!("unknown or malformed `{key}` in rmcp's `#[tool(...)]`; expected one of: {TOOL_KEYS}"),
                ))
            }
        }
    }
    Ok(out)
}

fn annotations(metas: Punctuated<Meta, Token![,]>) -> syn::Result<Map<String, Value>> {
    let mut out = Map::new();
    for meta in metas {
        let key = meta
            .path()
            .get_ident()
            .map(|i| i.to_string())
            .unwrap_or_default();
        let published = match key.as_str() {
            "title" => {
                let Meta::NameValue(nv) = &meta else {
                    return Err(syn::Error::new_spanned(&meta, "`title = \"...\"` expected"));
                };
                out.insert(
                    "title".into(),
                    Value::String(string_lit(&nv.value, "title")?),
                );
                continue;
            }
            "read_only_hint" => "readOnlyHint",
            "destructive_hint" => "destructiveHint",
            "idempotent_hint" => "idempotentHint",
            "open_world_hint" => "openWorldHint",
            _ => {
                return Err(syn::Error::new_spanned(
                    meta.path(),
                    format!(
                        "unknown `{key}` in `annotations(...)`; expected one of: {ANNOTATION_KEYS}"
                    ),
                ))
            }
        };
        // darling's `bool`: a bare word is `true`.
        let value = match &meta {
            Meta::Path(_) => true,
            Meta::NameValue(nv) => match &nv.value {
                Expr::Lit(ExprLit {
                    lit: Lit::Bool(b), ..
                }) => b.value,
                other => {
                    return Err(syn::Error::new_spanned(
                        other,
                        format!("`{key}` takes `true` or `false`"),
                    ))
                }
            },
            Meta::List(l) => {
                return Err(syn::Error::new_spanned(
                    l,
                    format!("`{key}` takes `true` or `false`"),
                ))
            }
        };
        out.insert(published.into(), Value::Bool(value));
    }
    Ok(out)
}

fn string_lit(expr: &Expr, key: &str) -> syn::Result<String> {
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) => Ok(s.value()),
        other => Err(syn::Error::new_spanned(
            other,
            format!("`{key}` takes a string literal (rmcp's grammar)"),
        )),
    }
}

/// One piece of a doc-comment description, as rmcp keeps it.
#[derive(Debug, Clone)]
pub enum DocPiece {
    /// A `///` line or `#[doc = "..."]`, trimmed.
    Text(String),
    /// `#[doc = some_macro!(...)]`, kept as an expression (`include_str!`).
    Macro(Box<Expr>),
}

/// The files a tool's or prompt's description reads (`include_str!`, in a
/// `description = ...` argument or a doc attribute), relative to `dir`,
/// the directory of the file that declares it.
pub fn description_files(
    description: Option<&Expr>,
    doc: Option<&[DocPiece]>,
    dir: &std::path::Path,
) -> Vec<std::path::PathBuf> {
    let pieces = doc.into_iter().flatten().filter_map(|p| match p {
        DocPiece::Text(_) => None,
        DocPiece::Macro(e) => Some(&**e),
    });
    description
        .into_iter()
        .chain(pieces)
        .flat_map(|e| super::eval::included_files(e, dir))
        .collect()
}

/// The description rmcp's `#[tool]` derives from the fn's attributes (the
/// `#[tool]` attribute itself already removed), folding exactly as
/// rmcp-macros' `extract_doc_line` does: blank doc lines are skipped, each
/// line is trimmed, lines are joined with `\n`, and any attribute that is
/// not a `doc = <literal or macro>` (e.g. `#[instrument]`, `#[doc(hidden)]`)
/// discards what was gathered before it.
pub fn rmcp_doc_pieces<'a>(
    attrs: impl IntoIterator<Item = &'a Attribute>,
) -> Option<Vec<DocPiece>> {
    let mut acc: Option<Vec<DocPiece>> = None;
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            acc = None;
            continue;
        }
        let Meta::NameValue(nv) = &attr.meta else {
            acc = None;
            continue;
        };
        let piece = match &nv.value {
            Expr::Macro(_) => DocPiece::Macro(Box::new(nv.value.clone())),
            Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            }) => {
                let content = s.value().trim().to_string();
                if content.is_empty() {
                    continue;
                }
                DocPiece::Text(content)
            }
            _ => {
                acc = None;
                continue;
            }
        };
        acc.get_or_insert_with(Vec::new).push(piece);
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fn_attrs(item: syn::ImplItemFn) -> Vec<Attribute> {
        item.attrs
            .into_iter()
            .filter(|a| !last_segment_is(a, "tool"))
            .collect()
    }

    fn texts(p: Option<Vec<DocPiece>>) -> Option<Vec<String>> {
        p.map(|v| {
            v.into_iter()
                .map(|p| match p {
                    DocPiece::Text(t) => t,
                    DocPiece::Macro(_) => "<macro>".into(),
                })
                .collect()
        })
    }

    #[test]
    fn doc_fold_is_rmcps() {
        let f: syn::ImplItemFn = syn::parse_quote! {
            /// First line.
            ///
            ///    Indented.
            #[tool]
            fn a(&self) {}
        };
        assert_eq!(
            texts(rmcp_doc_pieces(&fn_attrs(f))),
            Some(vec!["First line.".into(), "Indented.".into()])
        );
        // A non-doc attribute after the doc comment discards it (rmcp's fold).
        let f: syn::ImplItemFn = syn::parse_quote! {
            #[tool]
            /// Gone.
            #[instrument(skip(self))]
            fn a(&self) {}
        };
        assert_eq!(texts(rmcp_doc_pieces(&fn_attrs(f))), None);
        let f: syn::ImplItemFn = syn::parse_quote! {
            #[instrument(skip(self))]
            /// Kept.
            #[doc = include_str!("x.md")]
            #[tool]
            fn a(&self) {}
        };
        assert_eq!(
            texts(rmcp_doc_pieces(&fn_attrs(f))),
            Some(vec!["Kept.".into(), "<macro>".into()])
        );
    }

    #[test]
    fn grammar() {
        let f: syn::ImplItemFn = syn::parse_quote! {
            #[tool(name = "n", title = "T", description = "D",
                   annotations(title = "AT", read_only_hint = true, open_world_hint = false, idempotent_hint))]
            fn a(&self) {}
        };
        let a = parse_tool_attr(&f.attrs[0]).unwrap();
        assert_eq!(a.name.as_deref(), Some("n"));
        assert_eq!(a.title.as_deref(), Some("T"));
        assert_eq!(
            Value::Object(a.annotations.unwrap()),
            serde_json::json!({"title": "AT", "readOnlyHint": true, "openWorldHint": false, "idempotentHint": true})
        );
        let f: syn::ImplItemFn = syn::parse_quote! { #[tool(nmae = "x")] fn a(&self) {} };
        let e = parse_tool_attr(&f.attrs[0]).unwrap_err().to_string();
        assert!(
            e.contains("unknown or malformed `nmae`") && e.contains(TOOL_KEYS),
            "{e}"
        );
        let f: syn::ImplItemFn =
            syn::parse_quote! { #[tool(annotations(readonly = true))] fn a(&self) {} };
        let e = parse_tool_attr(&f.attrs[0]).unwrap_err().to_string();
        assert!(e.contains(ANNOTATION_KEYS), "{e}");
    }
}
