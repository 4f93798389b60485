//! The expansion: the struct as written (minus the `#[mcp_contract(...)]`
//! field attributes) and an `impl LockedTool` that embeds the published tool
//! definition the build step wrote to `OUT_DIR`. Generated code names only
//! `::mcp_contract::__private` paths.

use std::path::PathBuf;

use mcp_contract_syntax::{strip_field_attrs, QuickDef, ToolDef};
use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned, ToTokens};
use syn::{Ident, LitStr, Type};

use crate::validate::OUT_SUBDIR;

/// What the `impl LockedTool` is made of, from either a full [`ToolDef`]
/// or a [`QuickDef`] (no aliases, no reserved names).
pub struct Embed<'a> {
    pub ident: &'a Ident,
    pub name: &'a str,
    pub name_span: Span,
    pub version: Option<u64>,
    pub output: Option<&'a Type>,
    /// `(deprecated name, Rust field)`.
    pub aliases: Vec<(&'a LitStr, String)>,
    pub reserved: &'a [String],
    /// `$OUT_DIR/mcp-contract/<name>.json`, which the build step wrote.
    pub entry: PathBuf,
}

impl<'a> Embed<'a> {
    pub fn full(def: &'a ToolDef, entry: PathBuf) -> Self {
        Embed {
            ident: &def.ident,
            name: &def.name,
            name_span: def.name_span,
            version: def.version,
            output: def.output.as_ref(),
            aliases: def
                .aliases
                .iter()
                .map(|a| (&a.alias, a.field.to_string()))
                .collect(),
            reserved: &def.reserved,
            entry,
        }
    }

    pub fn quick(def: &'a QuickDef, entry: PathBuf) -> Self {
        Embed {
            ident: &def.ident,
            name: &def.name,
            name_span: def.name_span,
            version: def.version,
            output: def.output.as_ref(),
            aliases: Vec::new(),
            reserved: &[],
            entry,
        }
    }
}

/// The parsed struct with its contract attributes stripped, then the impl.
pub fn expand(def: &ToolDef, entry: PathBuf, mut item: syn::Item) -> TokenStream {
    if let syn::Item::Struct(s) = &mut item {
        strip_field_attrs(s);
    }
    let mut out = item.into_token_stream();
    out.extend(locked_tool_impl(&Embed::full(def, entry)));
    out
}

/// The item's own tokens, untouched (it has no contract attributes to
/// strip), then the impl: no parse, no re-printing.
pub fn expand_quick(def: &QuickDef, entry: PathBuf, item: TokenStream) -> TokenStream {
    let mut out = item;
    out.extend(locked_tool_impl(&Embed::quick(def, entry)));
    out
}

fn locked_tool_impl(e: &Embed) -> TokenStream {
    let ident = e.ident;
    let name = e.name;
    // Items equal to the trait's defaults are left out: each generated
    // const costs type checking in every build of a crate with many tools.
    let version = e.version.map(
        |v| quote!(const VERSION: ::core::option::Option<u64> = ::core::option::Option::Some(#v);),
    );
    // The path as a literal (the macro has just checked the file exists):
    // `concat!(env!("OUT_DIR"), ..)` costs two more macro expansions per
    // tool on every build. A path that is not UTF-8 cannot be a literal.
    let entry = match e.entry.to_str() {
        Some(path) => quote_spanned! {e.name_span=> ::core::include_str!(#path) },
        None => {
            let file = format!("/{OUT_SUBDIR}/{name}.json");
            quote_spanned! {e.name_span=>
                ::core::include_str!(::core::concat!(::core::env!("OUT_DIR"), #file))
            }
        }
    };
    let aliases = (!e.aliases.is_empty()).then(|| {
        let pairs = e
            .aliases
            .iter()
            .map(|(alias, field)| quote!((#alias, #field)));
        quote!(const ALIASES: &'static [(&'static str, &'static str)] = &[#(#pairs),*];)
    });
    let reserved = (!e.reserved.is_empty()).then(|| {
        let names = e.reserved;
        quote!(const RESERVED: &'static [&'static str] = &[#(#names),*];)
    });
    let output = match e.output {
        Some(ty) => quote!(#ty),
        None => quote!(()),
    };
    quote! {
        impl ::mcp_contract::__private::LockedTool for #ident {
            const NAME: &'static str = #name;
            fn entry() -> &'static str {
                #entry
            }
            #version
            #aliases
            #reserved
            type Output = #output;
        }
    }
}

/// The error, plus the item itself (stripped of contract attributes) so
/// code that uses the struct does not drown the error in follow-on errors.
pub fn with_error(err: syn::Error, mut item: syn::Item) -> TokenStream {
    if let syn::Item::Struct(s) = &mut item {
        strip_field_attrs(s);
    }
    let err = err.to_compile_error();
    quote!(#err #item)
}
