//! The arguments of `#[mcp_contract::tool(...)]` in their common spellings,
//! read from the top-level tokens without `syn`: string literals without
//! escapes, a decimal version, an output type that is a plain path
//! (`Hits`, `crate::out::Hits`), bare or `= true|false` flags.
//!
//! Why: the attribute expands once per tool on every build, in a proc macro
//! compiled without optimizations in the dev profile, where `syn`'s parse
//! buffer costs more than the rest of the expansion. This scanner accepts a
//! subset of what [`crate::ToolAttr`] accepts and reads the same values from
//! it; anything else (`reserved(...)`, raw strings, escapes, generic or
//! keyword types, a duplicate, an unknown key, any error) returns `None` and
//! the full parse decides. It never accepts what the full parse rejects.

use proc_macro2::{Spacing, Span, TokenStream, TokenTree};

use crate::is_valid_tool_name;

/// What the quick path needs from the arguments.
#[derive(Debug, Clone)]
pub(crate) struct QuickArgs {
    pub name: String,
    pub name_span: Span,
    pub version: Option<u64>,
    /// The output type's tokens, as written (their spans kept for errors).
    pub output: Option<TokenStream>,
}

/// The keys this scanner reads (`reserved` is left to the full parse).
const KEYS: [&str; 9] = [
    "name",
    "version",
    "title",
    "description",
    "output",
    "read_only",
    "destructive",
    "idempotent",
    "open_world",
];

/// Words `syn` does not take as a path segment of a type (its strict and
/// reserved keywords), plus the weak keywords and `_`, for safety: a type
/// spelled with one of them goes through the full parse.
const KEYWORDS: &[&str] = &[
    "_",
    "abstract",
    "as",
    "async",
    "auto",
    "await",
    "become",
    "box",
    "break",
    "const",
    "continue",
    "crate",
    "default",
    "do",
    "dyn",
    "else",
    "enum",
    "extern",
    "false",
    "final",
    "fn",
    "for",
    "gen",
    "if",
    "impl",
    "in",
    "let",
    "loop",
    "macro",
    "macro_rules",
    "match",
    "mod",
    "move",
    "mut",
    "override",
    "priv",
    "pub",
    "raw",
    "ref",
    "return",
    "safe",
    "self",
    "Self",
    "static",
    "struct",
    "super",
    "trait",
    "true",
    "try",
    "type",
    "typeof",
    "union",
    "unsafe",
    "unsized",
    "use",
    "virtual",
    "where",
    "while",
    "yield",
];

/// Whether `name` is a Rust keyword (strict, reserved or weak) or `_`.
pub fn is_keyword(name: &str) -> bool {
    KEYWORDS.contains(&name)
}

/// Path roots a type may start with (always followed by `::` here).
const ROOTS: [&str; 4] = ["crate", "self", "super", "Self"];

/// The arguments, when every one of them has a common spelling and the
/// name is present and valid; `None` when the full parse must decide.
pub(crate) fn scan_args(args: TokenStream) -> Option<QuickArgs> {
    let mut tokens = args.into_iter().peekable();
    let mut seen = [false; KEYS.len()];
    let mut name = None;
    let mut version = None;
    let mut output = None;
    while let Some(token) = tokens.next() {
        let TokenTree::Ident(key) = token else {
            return None;
        };
        let key = key.to_string();
        let index = KEYS.iter().position(|k| *k == key)?;
        if std::mem::replace(&mut seen[index], true) {
            return None;
        }
        match key.as_str() {
            "name" => {
                equals(tokens.next()?)?;
                let (value, span) = plain_str(tokens.next()?)?;
                if !is_valid_tool_name(&value) {
                    return None;
                }
                name = Some((value, span));
            }
            "title" | "description" => {
                equals(tokens.next()?)?;
                plain_str(tokens.next()?)?;
            }
            "version" => {
                equals(tokens.next()?)?;
                version = Some(decimal(tokens.next()?)?);
            }
            "output" => {
                equals(tokens.next()?)?;
                output = Some(path_type(&mut tokens)?);
            }
            // A flag: bare, or `= true` / `= false`.
            _ => {
                if matches!(tokens.peek(), Some(TokenTree::Punct(p)) if p.as_char() == '=') {
                    tokens.next();
                    match tokens.next()? {
                        TokenTree::Ident(b) if b == "true" || b == "false" => {}
                        _ => return None,
                    }
                }
            }
        }
        match tokens.next() {
            None => break,
            Some(TokenTree::Punct(p)) if p.as_char() == ',' => {}
            Some(_) => return None,
        }
    }
    let (name, name_span) = name?;
    Some(QuickArgs {
        name,
        name_span,
        version,
        output,
    })
}

fn equals(token: TokenTree) -> Option<()> {
    matches!(&token, TokenTree::Punct(p) if p.as_char() == '=').then_some(())
}

/// A `"..."` literal with no escape and no suffix, and its value.
fn plain_str(token: TokenTree) -> Option<(String, Span)> {
    let TokenTree::Literal(lit) = token else {
        return None;
    };
    let text = lit.to_string();
    let inner = text.strip_prefix('"')?.strip_suffix('"')?;
    if inner.contains(['\\', '"']) {
        return None;
    }
    Some((inner.to_string(), lit.span()))
}

/// A decimal integer literal (digits only, no `_`, no suffix) of 1 or more.
fn decimal(token: TokenTree) -> Option<u64> {
    let TokenTree::Literal(lit) = token else {
        return None;
    };
    let text = lit.to_string();
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse::<u64>().ok().filter(|v| *v > 0)
}

/// `[::] seg (:: seg)*` up to the next top-level `,` (not consumed) or the
/// end, where each segment is a plain identifier and the first may be a
/// root (`crate`, `self`, `super`, `Self`) followed by `::`.
fn path_type(
    tokens: &mut std::iter::Peekable<proc_macro2::token_stream::IntoIter>,
) -> Option<TokenStream> {
    let mut out = Vec::new();
    let mut expect_segment = true;
    let mut first = true;
    loop {
        match tokens.peek() {
            None => break,
            Some(TokenTree::Punct(p)) if p.as_char() == ',' => break,
            _ => {}
        }
        let token = tokens.next()?;
        match &token {
            TokenTree::Punct(p) if p.as_char() == ':' && p.spacing() == Spacing::Joint => {
                // `::` before a segment (leading, or after one).
                if expect_segment && !first {
                    return None;
                }
                out.push(token);
                match tokens.next()? {
                    TokenTree::Punct(p) if p.as_char() == ':' && p.spacing() == Spacing::Alone => {
                        out.push(TokenTree::Punct(p));
                    }
                    _ => return None,
                }
                expect_segment = true;
            }
            TokenTree::Ident(i) if expect_segment => {
                let word = i.to_string();
                let root = first && ROOTS.contains(&word.as_str());
                if (!root && is_keyword(&word)) || word.starts_with("r#") {
                    return None;
                }
                out.push(token);
                // A root alone is not a type this scanner takes.
                if root && !matches!(tokens.peek(), Some(TokenTree::Punct(p)) if p.as_char() == ':')
                {
                    return None;
                }
                expect_segment = false;
            }
            _ => return None,
        }
        first = false;
    }
    if expect_segment {
        return None;
    }
    Some(out.into_iter().collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attr::ToolAttr;
    use quote::{quote, ToTokens};

    /// Either the scanner declines, or the full parse accepts the same
    /// arguments with the same name, version and output type.
    fn agrees(args: TokenStream) -> Option<QuickArgs> {
        let quick = scan_args(args.clone());
        let full: syn::Result<ToolAttr> = syn::parse2(args);
        if let Some(q) = &quick {
            let f = full.expect("scanned, so the full parse must accept it");
            assert!(f.reserved.is_empty());
            assert_eq!(Some(q.name.as_str()), f.name.map(|n| n.value()).as_deref());
            let v = f.version.map(|v| v.base10_parse::<u64>().unwrap());
            assert_eq!(q.version, v);
            assert_eq!(
                q.output.as_ref().map(ToString::to_string),
                f.output.map(|t| t.to_token_stream().to_string())
            );
        }
        quick
    }

    #[test]
    fn reads_the_common_spellings() {
        let q = agrees(quote! {
            name = "search.v2", version = 12, title = "Search", description = "Find
            things.", output = crate::out::Hits, read_only, destructive = false, idempotent = true,
        })
        .unwrap();
        assert_eq!(q.name, "search.v2");
        assert_eq!(q.version, Some(12));
        assert_eq!(q.output.unwrap().to_string(), "crate :: out :: Hits");
        for args in [
            quote! { name = "a" },
            quote! { name = "a", output = Hits },
            quote! { name = "a", output = ::x::Hits },
            quote! { name = "a", output = super::Hits, open_world },
            quote! { name = "a", version = 007 },
        ] {
            assert!(agrees(args.clone()).is_some(), "{args}");
        }
    }

    #[test]
    fn declines_everything_else() {
        for args in [
            quote! {},
            quote! { version = 1 },
            quote! { name = "bad name" },
            quote! { name = "" },
            quote! { name = "a\x62" },
            quote! { name = r"a" },
            quote! { name = "a"suffix },
            quote! { name = b"a" },
            quote! { name == "a" },
            quote! { name = "a" title = "t" },
            quote! { name = "a",, },
            quote! { name = "a", name = "b" },
            quote! { name = "a", nmae = "b" },
            quote! { name = "a", r#title = "b" },
            quote! { name = "a", reserved("b") },
            quote! { name = "a", version = 0 },
            quote! { name = "a", version = 1u64 },
            quote! { name = "a", version = 1_0 },
            quote! { name = "a", version = 0x1 },
            quote! { name = "a", version = 99999999999999999999999 },
            quote! { name = "a", version = "1" },
            quote! { name = "a", output = },
            quote! { name = "a", output = Vec<u8> },
            quote! { name = "a", output = () },
            quote! { name = "a", output = Self },
            quote! { name = "a", output = crate },
            quote! { name = "a", output = a::crate::B },
            quote! { name = "a", output = dyn Tr },
            quote! { name = "a", output = fn() },
            quote! { name = "a", output = _ },
            quote! { name = "a", output = A + Send },
            quote! { name = "a", output = A B },
            quote! { name = "a", output = A:: },
            quote! { name = "a", output = A::::B },
            quote! { name = "a", output = r#type },
            quote! { name = "a", read_only = yes },
            quote! { name = "a", read_only = "true" },
            quote! { name = "a", read_only == true },
            quote! { name = "a", read_only => true },
            quote! { name = "a", read_only read_only },
            quote! { "a" },
        ] {
            assert!(agrees(args.clone()).is_none(), "{args}");
        }
    }
}
