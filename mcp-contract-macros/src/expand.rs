//! The expansion: the struct as written (minus the `#[mcp_contract(...)]`
//! field attributes) and an `impl LockedTool` that embeds the published tool
//! definition the build step wrote to `OUT_DIR`. Generated code names only
//! `::mcp_contract::__private` paths.

use mcp_contract_syntax::{strip_field_attrs, ToolDef};
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use crate::validate::OUT_SUBDIR;

pub fn expand(def: &ToolDef, mut item: syn::Item) -> TokenStream {
    if let syn::Item::Struct(s) = &mut item {
        strip_field_attrs(s);
    }
    let ident = &def.ident;
    let name = &def.name;
    // Items equal to the trait's defaults are left out: each generated
    // const costs type checking in every build of a crate with many tools.
    let version = def.version.map(
        |v| quote!(const VERSION: ::core::option::Option<u64> = ::core::option::Option::Some(#v);),
    );
    let file = format!("/{OUT_SUBDIR}/{name}.json");
    let entry = quote_spanned! {def.name_span=>
        ::core::include_str!(::core::concat!(::core::env!("OUT_DIR"), #file))
    };
    let aliases = (!def.aliases.is_empty()).then(|| {
        let pairs = def.aliases.iter().map(|a| {
            let alias = &a.alias;
            let field = a.field.to_string();
            quote!((#alias, #field))
        });
        quote!(const ALIASES: &'static [(&'static str, &'static str)] = &[#(#pairs),*];)
    });
    let reserved = (!def.reserved.is_empty()).then(|| {
        let names = &def.reserved;
        quote!(const RESERVED: &'static [&'static str] = &[#(#names),*];)
    });
    let output = match &def.output {
        Some(ty) => quote!(#ty),
        None => quote!(()),
    };
    quote! {
        #item

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
