//! `#[mcp_contract::schema]`: the derivation escape hatch, usable on any
//! struct or enum of the crate (not only a tool's argument struct).
//!
//! The build step reads the attribute from source; the macro only makes the
//! spellings compile: with an argument (`#[mcp_contract::schema(r#"{...}"#)]`)
//! the type's JSON Schema is that text, verbatim; with or without one, its
//! fields and variants may carry `#[mcp_contract(schema = r#"{...}"#)]`,
//! which the macro removes from the item it emits (they are not real
//! attributes). The item is otherwise left as written.

use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::parse::{Parse, ParseStream};
use syn::{Attribute, Ident, LitStr, Token};

use mcp_contract_syntax::{is_field_attr, FIELD_ATTR};

const ON_TYPE: &str =
    "on the type itself, give the schema as the argument: `#[mcp_contract::schema(r#\"{ ... }\"#)]`";
const ON_VARIANT: &str =
    "a variant's schema cannot be given alone: put `#[mcp_contract(schema = ...)]` on its fields, or give the whole enum's schema";

const EXPECTED_ARGS: &str =
    "expected the JSON Schema as one string literal: `#[mcp_contract::schema(r#\"{ ... }\"#)]`, or no argument";

pub fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    match check(args, item.clone()) {
        Ok(item) => item.into_token_stream(),
        Err(e) => {
            let err = e.to_compile_error();
            // The item as far as it parses, so uses of the type do not add
            // follow-on errors.
            match syn::parse2::<syn::Item>(item) {
                Ok(mut item) => {
                    strip(&mut item);
                    quote::quote!(#err #item)
                }
                Err(_) => err,
            }
        }
    }
}

fn check(args: TokenStream, item: TokenStream) -> syn::Result<syn::Item> {
    if !args.is_empty() {
        syn::parse2::<LitStr>(args).map_err(|e| syn::Error::new(e.span(), EXPECTED_ARGS))?;
    }
    let mut item: syn::Item = syn::parse2(item)?;
    let mut errors: Vec<syn::Error> = Vec::new();
    let misplaced = |attrs: &[Attribute], errors: &mut Vec<syn::Error>, msg: &str| {
        for attr in attrs.iter().filter(|a| is_field_attr(a)) {
            errors.push(syn::Error::new_spanned(attr, msg));
        }
    };
    match &item {
        syn::Item::Struct(s) => {
            misplaced(&s.attrs, &mut errors, ON_TYPE);
            for f in &s.fields {
                check_attrs(&f.attrs, &mut errors);
            }
        }
        syn::Item::Enum(e) => {
            misplaced(&e.attrs, &mut errors, ON_TYPE);
            for v in &e.variants {
                misplaced(&v.attrs, &mut errors, ON_VARIANT);
                for f in &v.fields {
                    check_attrs(&f.attrs, &mut errors);
                }
            }
        }
        other => errors.push(syn::Error::new_spanned(
            keyword(other),
            "expected a struct or an enum (the type whose schema is given)",
        )),
    }
    if let Some(mut first) = errors.pop() {
        for e in errors {
            first.combine(e);
        }
        return Err(first);
    }
    strip(&mut item);
    Ok(item)
}

/// Each `#[mcp_contract(...)]` of a field or variant must be `schema = "..."`.
fn check_attrs(attrs: &[Attribute], errors: &mut Vec<syn::Error>) {
    for attr in attrs.iter().filter(|a| is_field_attr(a)) {
        if let Err(e) = attr.parse_args::<SchemaArg>() {
            errors.push(e);
        }
    }
}

/// `schema = "<JSON Schema>"`, the only contract attribute outside a tool.
struct SchemaArg;

impl Parse for SchemaArg {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let key: Ident = input.parse()?;
        if key != "schema" {
            return Err(syn::Error::new(
                key.span(),
                format!(
                    "unknown attribute `{key}` here: only `#[{FIELD_ATTR}(schema = r#\"{{ ... }}\"#)]` \
                     (aliases belong to a tool's argument struct)"
                ),
            ));
        }
        input.parse::<Token![=]>()?;
        input.parse::<LitStr>()?;
        input.parse::<Option<Token![,]>>()?;
        if !input.is_empty() {
            return Err(input.error("expected only `schema = \"...\"`"));
        }
        Ok(SchemaArg)
    }
}

/// Removes `#[mcp_contract(...)]` from the item, its fields and variants.
fn strip(item: &mut syn::Item) {
    let keep = |attrs: &mut Vec<Attribute>| attrs.retain(|a| !is_field_attr(a));
    match item {
        syn::Item::Struct(s) => {
            keep(&mut s.attrs);
            for f in s.fields.iter_mut() {
                keep(&mut f.attrs);
            }
        }
        syn::Item::Enum(e) => {
            keep(&mut e.attrs);
            for v in e.variants.iter_mut() {
                keep(&mut v.attrs);
                for f in v.fields.iter_mut() {
                    keep(&mut f.attrs);
                }
            }
        }
        _ => {}
    }
}

fn keyword(item: &syn::Item) -> TokenStream {
    match item {
        syn::Item::Fn(f) => f.sig.fn_token.to_token_stream(),
        syn::Item::Union(u) => u.union_token.to_token_stream(),
        syn::Item::Type(t) => t.type_token.to_token_stream(),
        other => other.to_token_stream(),
    }
}
