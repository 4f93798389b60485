//! A whole tool definition: the attribute's arguments checked against the
//! struct they annotate. Every rule lives here so the macro (spanned compile
//! errors) and the build step (file:line errors) reject the same code.

use std::collections::BTreeMap;

use proc_macro2::{Span, TokenStream};
use syn::{Attribute, Fields, Ident, Item, ItemStruct, LitStr, Type};

use crate::attr::{Annotations, ToolAttr};
use crate::field::{field_aliases, Alias};
use crate::{doc_text, is_valid_tool_name};

/// A checked tool definition.
#[derive(Debug, Clone)]
pub struct ToolDef {
    /// The argument type.
    pub ident: Ident,
    pub name: String,
    pub name_span: Span,
    pub version: Option<u64>,
    pub title: Option<String>,
    /// The explicit description, else the argument type's doc comment.
    pub description: Option<String>,
    pub output: Option<Type>,
    pub annotations: Annotations,
    pub reserved: Vec<String>,
    pub aliases: Vec<Alias>,
}

/// Whether `attr` is `#[mcp_contract::tool]` (also `::mcp_contract::tool`).
/// The build step finds tools by this path, so it must be written out.
pub fn is_tool_attr(attr: &Attribute) -> bool {
    let segs: Vec<String> = attr
        .path()
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    segs == ["mcp_contract", "tool"]
}

/// Checks the attribute arguments `args` against `item` (the macro's view).
pub fn tool_def(args: TokenStream, item: &Item) -> syn::Result<ToolDef> {
    let attr: ToolAttr = syn::parse2(args)?;
    match item {
        Item::Struct(s) => check(attr, s),
        other => Err(syn::Error::new_spanned(
            item_keyword(other),
            "expected a struct with named fields (the tool's arguments)",
        )),
    }
}

/// Checks the `#[mcp_contract::tool(...)]` attribute `attr` found on `item`
/// (the build step's view).
pub fn tool_def_from_attr(attr: &Attribute, item: &ItemStruct) -> syn::Result<ToolDef> {
    let args = match &attr.meta {
        syn::Meta::List(list) => list.tokens.clone(),
        _ => TokenStream::new(),
    };
    let mut parsed: ToolAttr = syn::parse2(args)?;
    if parsed.name.is_none() {
        parsed.span = span_of(attr);
    }
    check(parsed, item)
}

fn span_of(attr: &Attribute) -> Span {
    use syn::spanned::Spanned;
    attr.span()
}

fn item_keyword(item: &Item) -> TokenStream {
    use quote::ToTokens;
    match item {
        Item::Enum(e) => e.enum_token.to_token_stream(),
        Item::Fn(f) => f.sig.fn_token.to_token_stream(),
        Item::Union(u) => u.union_token.to_token_stream(),
        other => other.to_token_stream(),
    }
}

fn check(attr: ToolAttr, item: &ItemStruct) -> syn::Result<ToolDef> {
    let mut errors: Vec<syn::Error> = Vec::new();
    let name = match &attr.name {
        Some(n) if is_valid_tool_name(&n.value()) => n.clone(),
        Some(n) => {
            errors.push(syn::Error::new(
                n.span(),
                "invalid tool name: use 1 to 128 of `a-z A-Z 0-9 _ - .`",
            ));
            n.clone()
        }
        None => {
            errors.push(syn::Error::new(
                attr.span,
                "missing `name = \"...\"`: a tool needs a stable published name",
            ));
            LitStr::new("", attr.span)
        }
    };
    let version = match &attr.version {
        Some(v) => match v.base10_parse::<u64>() {
            Ok(0) | Err(_) => {
                errors.push(syn::Error::new(v.span(), "version must be 1 or more"));
                None
            }
            Ok(n) => Some(n),
        },
        None => None,
    };
    if !item.generics.params.is_empty() {
        errors.push(syn::Error::new_spanned(
            &item.generics,
            "tool argument types cannot be generic",
        ));
    }
    let mut fields: BTreeMap<String, Ident> = BTreeMap::new();
    let mut aliases: Vec<Alias> = Vec::new();
    match &item.fields {
        Fields::Named(named) => {
            for f in &named.named {
                if let Some(ident) = &f.ident {
                    fields.insert(wire_name(f, ident), ident.clone());
                }
                match field_aliases(f) {
                    Ok(a) => aliases.extend(a),
                    Err(e) => errors.push(e),
                }
            }
        }
        _ => errors.push(syn::Error::new_spanned(
            &item.ident,
            "expected a struct with named fields (the tool's arguments)",
        )),
    }
    let mut reserved_seen: Vec<String> = Vec::new();
    for r in &attr.reserved {
        let v = r.value();
        if fields.contains_key(&v) {
            errors.push(syn::Error::new(
                r.span(),
                format!("reserved name `{v}` is still a field"),
            ));
        } else if reserved_seen.contains(&v) {
            errors.push(syn::Error::new(
                r.span(),
                format!("`{v}` is reserved twice"),
            ));
        }
        reserved_seen.push(v);
    }
    let mut alias_seen: Vec<String> = Vec::new();
    for a in &aliases {
        let v = a.alias.value();
        if fields.contains_key(&v) {
            errors.push(syn::Error::new(
                a.alias.span(),
                format!("alias `{v}` is already a field name"),
            ));
        } else if reserved_seen.contains(&v) {
            errors.push(syn::Error::new(
                a.alias.span(),
                format!("alias `{v}` is a reserved name"),
            ));
        } else if alias_seen.contains(&v) {
            errors.push(syn::Error::new(
                a.alias.span(),
                format!("alias `{v}` is declared twice"),
            ));
        }
        alias_seen.push(v);
    }
    if let Some(mut first) = errors.pop() {
        for e in errors {
            first.combine(e);
        }
        return Err(first);
    }
    Ok(ToolDef {
        ident: item.ident.clone(),
        name: name.value(),
        name_span: name.span(),
        version,
        title: attr.title.as_ref().map(LitStr::value),
        description: attr
            .description
            .as_ref()
            .map(LitStr::value)
            .or_else(|| doc_text(&item.attrs)),
        output: attr.output,
        annotations: attr.annotations,
        reserved: reserved_seen,
        aliases,
    })
}

/// The field's name on the wire when `#[serde(rename = "...")]` gives one
/// explicitly, else its Rust name (raw identifiers unprefixed).
fn wire_name(field: &syn::Field, ident: &Ident) -> String {
    for attr in field.attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let mut renamed = None;
        let _ = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename") {
                if let Ok(v) = meta.value() {
                    if let Ok(s) = v.parse::<LitStr>() {
                        renamed = Some(s.value());
                    }
                }
            } else if meta.input.peek(syn::Token![=]) {
                let _ = meta.value()?.parse::<syn::Expr>();
            }
            Ok(())
        });
        if let Some(r) = renamed {
            return r;
        }
    }
    let s = ident.to_string();
    s.strip_prefix("r#").map(str::to_string).unwrap_or(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    fn def(args: TokenStream, item: TokenStream) -> syn::Result<ToolDef> {
        tool_def(args, &syn::parse2(item).unwrap())
    }

    #[test]
    fn doc_comment_is_the_default_description() {
        let d = def(
            quote! { name = "search", version = 1 },
            quote! {
                /// Search the catalog.
                struct SearchArgs { #[mcp_contract(alias = "q")] query: String }
            },
        )
        .unwrap();
        assert_eq!(d.name, "search");
        assert_eq!(d.version, Some(1));
        assert_eq!(d.description.as_deref(), Some("Search the catalog."));
        assert_eq!(d.aliases.len(), 1);
        assert_eq!(d.aliases[0].alias.value(), "q");
        assert_eq!(d.aliases[0].field, "query");
    }

    #[test]
    fn explicit_description_wins() {
        let d = def(
            quote! { name = "s", description = "Explicit." },
            quote! { /// Doc.
            struct A {} },
        )
        .unwrap();
        assert_eq!(d.description.as_deref(), Some("Explicit."));
    }

    #[test]
    fn every_problem_is_reported() {
        let e = def(
            quote! { version = 0, reserved("a") },
            quote! { struct A { a: u8, #[mcp_contract(alias = "a")] b: u8 } },
        )
        .unwrap_err();
        let all: Vec<String> = e.into_iter().map(|e| e.to_string()).collect();
        assert!(
            all.iter().any(|m| m.starts_with("missing `name")),
            "{all:?}"
        );
        assert!(all.contains(&"version must be 1 or more".to_string()));
        assert!(all.contains(&"reserved name `a` is still a field".to_string()));
        assert!(all.contains(&"alias `a` is already a field name".to_string()));
    }

    #[test]
    fn serde_rename_is_the_wire_name() {
        let e = def(
            quote! { name = "s" },
            quote! { struct A { #[serde(rename = "text")] query: String, #[mcp_contract(alias = "text")] b: u8 } },
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "alias `text` is already a field name");
    }

    #[test]
    fn only_structs() {
        let e = def(quote! { name = "s" }, quote! { enum E { A } }).unwrap_err();
        assert!(e.to_string().starts_with("expected a struct"));
        let e = def(quote! { name = "s" }, quote! { struct T(u8); }).unwrap_err();
        assert!(e.to_string().starts_with("expected a struct"));
    }

    #[test]
    fn finds_the_attribute_by_path() {
        let item: ItemStruct = syn::parse_quote! {
            #[mcp_contract::tool(name = "x")] #[derive(Debug)] struct A {}
        };
        assert!(is_tool_attr(&item.attrs[0]));
        assert!(!is_tool_attr(&item.attrs[1]));
        let d = tool_def_from_attr(&item.attrs[0], &item).unwrap();
        assert_eq!(d.name, "x");
    }
}
