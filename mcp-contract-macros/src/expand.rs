//! The expansion: the struct as written (minus the `#[mcp_contract(...)]`
//! field attributes) and an `impl LockedTool` that embeds the locked entry
//! the build step wrote to `OUT_DIR` (the published tool definition and the
//! contract's version) as one string literal. Generated code names only
//! `::mcp_contract::__private` paths.

use std::fmt::Write;

use mcp_contract_syntax::{strip_field_attrs, QuickDef, ToolDef};
use proc_macro::{Delimiter, Spacing, Span, TokenTree};
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
    /// The literal in `$OUT_DIR/mcp-contract/<name>.rs`, which the build
    /// step wrote: the locked entry's text.
    pub entry: proc_macro::Literal,
}

impl<'a> Embed<'a> {
    pub fn full(def: &'a ToolDef, entry: proc_macro::Literal) -> Self {
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

    pub fn quick(def: &'a QuickDef, entry: proc_macro::Literal) -> Self {
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
pub fn expand(
    def: &ToolDef,
    entry: proc_macro::Literal,
    mut item: syn::Item,
) -> proc_macro::TokenStream {
    if let syn::Item::Struct(s) = &mut item {
        strip_field_attrs(s);
    }
    let mut out = proc_macro::TokenStream::from(item.into_token_stream());
    out.extend([locked_tool_impl(Embed::full(def, entry))]);
    out
}

/// The item's own tokens, untouched (it has no contract attributes to
/// strip), then the impl: no parse, no re-printing.
pub fn expand_quick(
    def: &QuickDef,
    entry: proc_macro::Literal,
    mut item: proc_macro::TokenStream,
) -> proc_macro::TokenStream {
    item.extend([locked_tool_impl(Embed::quick(def, entry))]);
    item
}

/// The impl, built from `proc_macro`'s own token constructors. The macro is
/// compiled without optimizations in the dev profile and runs once per tool
/// on every build of the crate, so it leaves the work to optimized code:
/// the entry is the literal rustc lexed from the build step's file (see
/// `validate::snapshotted`), and the fixed tokens are made one by one
/// (lexing them from text made rustc add a source file, hash it and index
/// its lines on every call). Only the output type keeps its tokens
/// (and so its spans, for "cannot find type" errors); every other token
/// has the call site's span, as lexed text had. Items equal to the trait's
/// defaults are left out: each generated item costs rustc resolution,
/// hashing and metadata in every build of the crate. The name and version
/// are not emitted at all: the entry carries them (an associated `const`
/// costs rustc about three times a function; see `mcp_contract::__private`).
fn locked_tool_impl(e: Embed) -> proc_macro::TokenStream {
    let mut body = Tokens::default();
    // fn entry() -> &'static str { "<entry>" }
    body.ident("fn").ident("entry");
    body.group(Delimiter::Parenthesis, proc_macro::TokenStream::new());
    body.punct('-', Spacing::Joint).punct('>', Spacing::Alone);
    body.punct('&', Spacing::Alone)
        .lifetime("static")
        .ident("str");
    body.group(Delimiter::Brace, TokenTree::Literal(e.entry).into());
    // The rare items, as text: neither holds the entry.
    if !e.aliases.is_empty() {
        let mut text = String::from("const ALIASES: &'static [(&'static str, &'static str)] = &[");
        for (alias, field) in &e.aliases {
            let _ = write!(text, "({alias:?}, {field:?}),");
        }
        text.push_str("];");
        body.extend(lex(&text));
    }
    if !e.reserved.is_empty() {
        let mut text = String::from("const RESERVED: &'static [&'static str] = &[");
        for name in e.reserved {
            let _ = write!(text, "{name:?},");
        }
        text.push_str("];");
        body.extend(lex(&text));
    }
    body.ident("type")
        .ident("Output")
        .punct('=', Spacing::Alone);
    match &e.output {
        Some(ty) => body.extend(proc_macro::TokenStream::from(ty.clone())),
        None => {
            body.group(Delimiter::Parenthesis, proc_macro::TokenStream::new());
        }
    }
    body.punct(';', Spacing::Alone);

    // impl ::mcp_contract::__private::LockedTool for <Ident> { .. }
    let mut out = Tokens::default();
    out.ident("impl");
    for segment in ["mcp_contract", "__private", "LockedTool"] {
        out.punct(':', Spacing::Joint).punct(':', Spacing::Alone);
        out.ident(segment);
    }
    out.ident("for").type_ident(e.ident);
    out.group(Delimiter::Brace, body.0.into_iter().collect());
    out.0.into_iter().collect()
}

/// Tokens being put together, each with the call site's span.
#[derive(Default)]
struct Tokens(Vec<TokenTree>);

impl Tokens {
    fn ident(&mut self, word: &str) -> &mut Self {
        self.0
            .push(proc_macro::Ident::new(word, Span::call_site()).into());
        self
    }

    /// The argument type's name, as written (`r#Name` stays raw).
    fn type_ident(&mut self, ident: &Ident) -> &mut Self {
        let word = ident.to_string();
        let ident = match word.strip_prefix("r#") {
            Some(raw) => proc_macro::Ident::new_raw(raw, Span::call_site()),
            None => proc_macro::Ident::new(&word, Span::call_site()),
        };
        self.0.push(ident.into());
        self
    }

    fn punct(&mut self, ch: char, spacing: Spacing) -> &mut Self {
        self.0.push(proc_macro::Punct::new(ch, spacing).into());
        self
    }

    /// `'name`: a joint `'` and the name, as the lexer gives it.
    fn lifetime(&mut self, name: &str) -> &mut Self {
        self.punct('\'', Spacing::Joint).ident(name)
    }

    fn group(&mut self, delimiter: Delimiter, stream: proc_macro::TokenStream) -> &mut Self {
        self.0
            .push(proc_macro::Group::new(delimiter, stream).into());
        self
    }

    fn extend(&mut self, stream: proc_macro::TokenStream) {
        self.0.extend(stream);
    }
}

/// `text` lexed by rustc (one bridge call, in the optimized compiler).
fn lex(text: &str) -> proc_macro::TokenStream {
    match text.parse::<proc_macro::TokenStream>() {
        Ok(tokens) => tokens,
        // Not reachable for the text above; an error, never a panic.
        Err(_) => quote!(::core::compile_error!(
            "mcp-contract: internal error: the generated impl does not lex; please report it"
        );)
        .into(),
    }
}

/// The error, plus the item itself (stripped of contract attributes) so
/// code that uses the struct does not drown the error in follow-on errors.
pub fn with_error(err: syn::Error, mut item: syn::Item) -> proc_macro::TokenStream {
    if let syn::Item::Struct(s) = &mut item {
        strip_field_attrs(s);
    }
    let err = err.to_compile_error();
    quote!(#err #item).into()
}
