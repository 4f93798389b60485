//! The expansion: the struct as written (minus the `#[mcp_contract(...)]`
//! field attributes) and an `impl LockedTool` that embeds the locked entry
//! the build step wrote to `OUT_DIR` (the published tool definition and the
//! contract's version) as one string literal. Generated code names only
//! `::mcp_contract::__private` paths.

use std::fmt::Write;

use mcp_contract_syntax::{strip_field_attrs, QuickDef, ToolDef};
use proc_macro2::TokenStream;
use quote::{quote, ToTokens};
use syn::Ident;

/// What the `impl LockedTool` is made of, from either a full [`ToolDef`]
/// or a [`QuickDef`] (no aliases, no reserved names).
pub struct Embed<'a> {
    pub ident: &'a Ident,
    /// The output type's tokens, as written.
    pub output: Option<TokenStream>,
    /// `(deprecated name, Rust field)`.
    pub aliases: Vec<(String, String)>,
    pub reserved: &'a [String],
    /// The text of `$OUT_DIR/mcp-contract/<name>.json`, which the build
    /// step wrote.
    pub entry: String,
}

impl<'a> Embed<'a> {
    pub fn full(def: &'a ToolDef, entry: String) -> Self {
        Embed {
            ident: &def.ident,
            output: def.output.as_ref().map(ToTokens::to_token_stream),
            aliases: def
                .aliases
                .iter()
                .map(|a| (a.alias.value(), a.field.to_string()))
                .collect(),
            reserved: &def.reserved,
            entry,
        }
    }

    pub fn quick(def: &'a QuickDef, entry: String) -> Self {
        Embed {
            ident: &def.ident,
            output: def.output.clone(),
            aliases: Vec::new(),
            reserved: &[],
            entry,
        }
    }
}

/// The parsed struct with its contract attributes stripped, then the impl.
pub fn expand(def: &ToolDef, entry: String, mut item: syn::Item) -> TokenStream {
    if let syn::Item::Struct(s) = &mut item {
        strip_field_attrs(s);
    }
    let mut out = item.into_token_stream();
    out.extend(locked_tool_impl(&Embed::full(def, entry)));
    out
}

/// The item's own tokens, untouched (it has no contract attributes to
/// strip), then the impl: no parse, no re-printing.
pub fn expand_quick(def: &QuickDef, entry: String, item: TokenStream) -> TokenStream {
    let mut out = item;
    out.extend(locked_tool_impl(&Embed::quick(def, entry)));
    out
}

/// The impl, written as text and lexed by rustc in one call: building it
/// token by token (`quote!`) in the unoptimized macro cost more than the
/// rest of the expansion, and `proc_macro2`'s own `from_str` first lexes
/// the text again in the macro to validate it. Only the output type keeps
/// its tokens (and so its spans, for "cannot find type" errors). Items
/// equal to the trait's defaults are left out: each generated item costs
/// rustc resolution, hashing and metadata in every build of the crate. The
/// name and version are not emitted at all: the entry carries them (an
/// associated `const` costs rustc about three times a function; see
/// `mcp_contract::__private`).
fn locked_tool_impl(e: &Embed) -> TokenStream {
    // Every piece of text below is a Rust token by construction:
    // identifiers print as identifiers, and strings are written as raw or
    // `{:?}`-escaped literals.
    // The entry as a string literal, read by the macro: see
    // `validate::snapshotted` for why not `include_str!`.
    let mut body = String::from("fn entry() -> &'static str { ");
    string_literal(&mut body, &e.entry);
    body.push_str(" }");
    if !e.aliases.is_empty() {
        body.push_str(" const ALIASES: &'static [(&'static str, &'static str)] = &[");
        for (alias, field) in &e.aliases {
            let _ = write!(body, "({alias:?}, {field:?}),");
        }
        body.push_str("];");
    }
    if !e.reserved.is_empty() {
        body.push_str(" const RESERVED: &'static [&'static str] = &[");
        for name in e.reserved {
            let _ = write!(body, "{name:?},");
        }
        body.push_str("];");
    }
    let head = format!("impl ::mcp_contract::__private::LockedTool for {}", e.ident);
    match &e.output {
        None => lex(&format!("{head} {{ {body} type Output = (); }}")),
        Some(ty) => {
            body.push_str(" type Output =");
            let mut inner = lex(&body);
            inner.extend(ty.clone());
            inner.extend(quote!(;));
            let mut out = lex(&head);
            out.extend(quote!({ #inner }));
            out
        }
    }
}

/// `text` as a Rust string literal: raw (`r#"…"#`, nothing to unescape:
/// JSON is full of quotes) unless it holds a carriage return, which a raw
/// string cannot; then escaped by `{:?}`.
fn string_literal(out: &mut String, text: &str) {
    if text.contains('\r') {
        let _ = write!(out, "{text:?}");
        return;
    }
    // The fewest `#` that no quote in the text is followed by (`"#/$defs/…`
    // is common, so usually two); the loop ends by the text's length at the
    // latest.
    let mut closing = String::from("\"#");
    while text.contains(&closing) {
        closing.push('#');
    }
    let hashes = &closing[1..];
    let _ = write!(out, "r{hashes}\"{text}{closing}");
}

/// `text` lexed by rustc (one bridge call, in the optimized compiler).
fn lex(text: &str) -> TokenStream {
    match text.parse::<proc_macro::TokenStream>() {
        Ok(tokens) => tokens.into(),
        // Not reachable for the text above; an error, never a panic.
        Err(_) => quote!(::core::compile_error!(
            "mcp-contract: internal error: the generated impl does not lex; please report it"
        );),
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

#[cfg(test)]
mod tests {
    use super::string_literal;

    /// Every text comes back from the literal unchanged: quotes followed by
    /// `#` runs (a `$ref` is `"#/$defs/…"`), backslashes, a carriage return.
    #[test]
    fn string_literals_read_back_as_the_text() {
        for text in [
            r##"{"$ref":"#/$defs/A"}"##,
            r###"{"a":"##","b":"\"#"}"###,
            "plain",
            "",
            "line\r\nbreak \\ \"quoted\"",
        ] {
            let mut out = String::new();
            string_literal(&mut out, text);
            let lit: syn::LitStr = syn::parse_str(&out).unwrap_or_else(|e| panic!("{out}: {e}"));
            assert_eq!(lit.value(), text, "{out}");
        }
        let mut out = String::new();
        string_literal(&mut out, r##"{"$ref":"#/$defs/A"}"##);
        assert_eq!(out, r####"r##"{"$ref":"#/$defs/A"}"##"####);
    }
}
