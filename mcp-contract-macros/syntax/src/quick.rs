//! The common case of `#[mcp_contract::tool]`, recognised from the item's
//! top-level tokens without parsing it: a non-generic struct with named
//! fields, no `#[mcp_contract(...)]` attributes and no reserved names.
//!
//! Why: the attribute expands once per tool on every build of the crate, in
//! a proc macro that is compiled without optimizations in the dev profile.
//! Parsing each struct with `syn` and printing it back cost about 0.45 ms per
//! tool (90 ms of a 200-tool crate's incremental build); even walking every
//! token of the item cost more than the rest of the expansion, so the item is
//! read at its top level only, and its attributes and fields are opened only
//! when its text mentions `mcp_contract` at all (one call that rustc
//! answers). The arguments are read by [`crate::quick_args`]. For an item of
//! this shape every rule of [`crate::tool_def`] that looks at the item holds
//! (a struct, not generic, named fields, no aliases to check, no reserved
//! name to compare with the fields), so the macro can emit the item untouched.
//! Anything else returns `None` and the full check runs: this recognizer
//! never gives another verdict than [`crate::tool_def`], it only skips work.

use proc_macro2::{Delimiter, Ident, Span, TokenStream, TokenTree};

use crate::field::FIELD_ATTR;
use crate::quick_args::scan_args;

/// What the macro embeds for a tool recognised by [`quick_tool_def`].
#[derive(Debug, Clone)]
pub struct QuickDef {
    /// The argument type.
    pub ident: Ident,
    pub name: String,
    pub name_span: Span,
    pub version: Option<u64>,
    /// The output type's tokens, as written.
    pub output: Option<TokenStream>,
}

/// The tool definition when `args` are valid and `item` has the common
/// shape (see the module docs); `None` when the full check must decide.
pub fn quick_tool_def(args: TokenStream, item: &TokenStream) -> Option<QuickDef> {
    let args = scan_args(args)?;
    let ident = plain_struct_ident(item)?;
    Some(QuickDef {
        ident,
        name: args.name,
        name_span: args.name_span,
        version: args.version,
        output: args.output,
    })
}

/// The struct's name when `item` is `#[attrs]* [pub[(..)]] struct Name { .. }`
/// and neither the struct nor a field carries `#[mcp_contract(...)]`.
fn plain_struct_ident(item: &TokenStream) -> Option<Ident> {
    // No `mcp_contract` anywhere in the text: no contract attribute either,
    // so attributes and fields need not be opened.
    let look_inside = item.to_string().contains(FIELD_ATTR);
    let mut tokens = item.clone().into_iter();
    loop {
        match tokens.next()? {
            TokenTree::Punct(p) if p.as_char() == '#' => {
                let attr = tokens.next()?;
                if !look_inside {
                    if !matches!(&attr, TokenTree::Group(g) if g.delimiter() == Delimiter::Bracket)
                    {
                        return None;
                    }
                } else if is_contract_attr(&attr)? {
                    return None;
                }
            }
            TokenTree::Ident(i) if i == "pub" => {}
            // `pub(crate)`, `pub(in path)`.
            TokenTree::Group(g) if g.delimiter() == Delimiter::Parenthesis => {}
            TokenTree::Ident(i) if i == "struct" => break,
            _ => return None,
        }
    }
    let TokenTree::Ident(ident) = tokens.next()? else {
        return None;
    };
    let TokenTree::Group(body) = tokens.next()? else {
        return None;
    };
    if body.delimiter() != Delimiter::Brace || tokens.next().is_some() {
        return None;
    }
    if !look_inside {
        return Some(ident);
    }
    let mut fields = body.stream().into_iter();
    while let Some(token) = fields.next() {
        if matches!(&token, TokenTree::Punct(p) if p.as_char() == '#')
            && is_contract_attr(&fields.next()?)?
        {
            return None;
        }
    }
    Some(ident)
}

/// For the token after a `#`: whether it is `[mcp_contract ...]`; `None`
/// when it is not an attribute body at all.
fn is_contract_attr(token: &TokenTree) -> Option<bool> {
    let TokenTree::Group(g) = token else {
        return None;
    };
    if g.delimiter() != Delimiter::Bracket {
        return None;
    }
    Some(matches!(
        g.stream().into_iter().next(),
        Some(TokenTree::Ident(i)) if i == FIELD_ATTR
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tool_def;
    use quote::quote;

    /// Every item either is not recognised, or is recognised with exactly
    /// what the full check returns.
    fn agrees(args: TokenStream, item: TokenStream) -> Option<QuickDef> {
        let quick = quick_tool_def(args.clone(), &item);
        let full = syn::parse2(item).ok().and_then(|i| tool_def(args, &i).ok());
        if let Some(q) = &quick {
            let f = full.expect("recognised, so the full check must accept it");
            assert_eq!(q.ident, f.ident);
            assert_eq!(q.name, f.name);
            assert_eq!(q.version, f.version);
            assert_eq!(
                q.output.as_ref().map(ToString::to_string),
                f.output
                    .map(|t| quote::ToTokens::to_token_stream(&t).to_string())
            );
            assert!(f.aliases.is_empty() && f.reserved.is_empty());
        }
        quick
    }

    #[test]
    fn recognises_the_common_shape() {
        let q = agrees(
            quote! { name = "search", version = 2, output = Hits, read_only },
            quote! {
                /// Search.
                #[derive(Debug, serde::Deserialize)]
                #[serde(deny_unknown_fields)]
                pub(crate) struct SearchArgs {
                    /// Text.
                    #[serde(default)]
                    pub query: String,
                    pub filter: Option<std::collections::BTreeMap<String, Vec<u8>>>,
                }
            },
        )
        .unwrap();
        assert_eq!(q.ident, "SearchArgs");
        assert_eq!(q.name, "search");
        assert_eq!(q.version, Some(2));
        assert!(q.output.is_some());
        assert!(agrees(quote! { name = "a" }, quote! { struct A {} }).is_some());
        // Mentioned, but not as an attribute: the fields are opened, and pass.
        assert!(agrees(
            quote! { name = "a" },
            quote! {
                /// Not `#[mcp_contract(alias = "b")]`.
                struct A { #[doc = "mcp_contract"] a: mcp_contract::Value }
            },
        )
        .is_some());
    }

    #[test]
    fn leaves_everything_else_to_the_full_check() {
        let plain = quote! { struct A { a: u8 } };
        for args in [
            quote! {},
            quote! { name = "bad name" },
            quote! { name = "a", version = 0 },
            quote! { name = "a", reserved("b") },
            quote! { name = "a", bogus },
        ] {
            assert!(agrees(args, plain.clone()).is_none());
        }
        for item in [
            quote! { struct A<T> { a: T } },
            quote! { struct A(u8); },
            quote! { struct A; },
            quote! { enum A { B } },
            quote! { fn a() {} },
            quote! { struct A where u8: Copy { a: u8 } },
            quote! { struct A { #[mcp_contract(alias = "b")] a: u8 } },
            quote! { struct A { #[mcp_contract(schema = "{}")] a: u8 } },
            quote! { #[mcp_contract(schema = "{}")] struct A { a: u8 } },
            quote! { #[derive(Debug)] #[mcp_contract(schema = "{}")] struct A { a: u8 } },
            quote! { struct A { #[serde(default)] #[mcp_contract(alias = "b")] a: u8 } },
            quote! { #![doc = "x"] struct A { a: u8 } },
        ] {
            assert!(agrees(quote! { name = "a" }, item).is_none());
        }
    }
}
