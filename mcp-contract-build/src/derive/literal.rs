//! Schemas written as JSON literals in Rust source. schemars runs a
//! `schema_with` function, and a hand-written `impl JsonSchema`'s
//! `json_schema`, at run time; when what it returns is a literal —
//! `json_schema!({ ... })`, or `serde_json::json!({ ... })` made a `Schema`
//! (`.try_into().unwrap()`, `Schema::try_from(..)`, `serde_json::from_value(..)`),
//! `Schema::from(true)`, `Schema::default()` — its result is known from
//! source.
//!
//! A macro body is read exactly as `json!` builds its value: `null`,
//! `true`, `false`, string, number and char literals (a leading `-` on a
//! number), arrays and objects with string-literal keys. Anything else is
//! an interpolated Rust expression (a variable, a call, a parenthesized
//! value, a `const`), which only running code knows: it is refused, named,
//! with the JSON pointer where it sits.

use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};
use serde_json::{Map, Number, Value};

use super::resolve::type_text;

/// How deep a literal may nest (arrays and objects); deeper is refused
/// rather than followed (a literal is input the build step reads).
const MAX_NESTING: usize = 128;

/// Why an expression is not a literal: what it does, phrased to follow its
/// subject ("calls `build(..)`"), and the expression where that happens.
#[derive(Debug)]
pub(crate) struct NotLiteral<'e> {
    pub what: String,
    pub node: Option<&'e syn::Expr>,
}

impl<'e> NotLiteral<'e> {
    fn at(node: &'e syn::Expr, what: impl Into<String>) -> Self {
        NotLiteral {
            what: what.into(),
            node: Some(node),
        }
    }
}

/// The schema a function body returning `Schema` evaluates to, when the
/// body is one literal expression (`{ expr }` or `{ return expr; }`).
pub(crate) fn body_schema(block: &syn::Block) -> Result<Value, NotLiteral<'_>> {
    match block.stmts.as_slice() {
        [syn::Stmt::Expr(e, None)] => schema_of(e),
        [syn::Stmt::Expr(syn::Expr::Return(r), Some(_))] => match r.expr.as_deref() {
            Some(e) => schema_of(e),
            None => Err(NotLiteral {
                what: "returns nothing".into(),
                node: None,
            }),
        },
        stmts => Err(NotLiteral {
            what: format!(
                "has a body of {} statements, not one expression",
                stmts.len()
            ),
            node: None,
        }),
    }
}

/// The schema a `Schema`-typed expression evaluates to, when it is a literal.
pub(crate) fn schema_of(expr: &syn::Expr) -> Result<Value, NotLiteral<'_>> {
    match expr {
        syn::Expr::Paren(p) => schema_of(&p.expr),
        syn::Expr::Group(g) => schema_of(&g.expr),
        syn::Expr::Block(b) if b.label.is_none() => body_schema(&b.block),
        syn::Expr::Macro(m) if last_is(&m.mac.path, "json_schema") => {
            json_schema_macro(&m.mac.tokens)
                .map_err(|why| NotLiteral::at(expr, format!("{why} in its `json_schema!` body")))
        }
        syn::Expr::MethodCall(m) if is_unwrap(m) => fallible_schema(&m.receiver, expr),
        // `true.into()`
        syn::Expr::MethodCall(m) if m.method == "into" && m.args.is_empty() => {
            bool_literal(&m.receiver).ok_or_else(|| not_literal(expr))
        }
        syn::Expr::Call(c) => match (call_path(c).as_slice(), c.args.len()) {
            // `Schema::from(true)`
            (["Schema", "from"] | ["From", "from"], 1) => {
                bool_literal(&c.args[0]).ok_or_else(|| not_literal(expr))
            }
            (["Schema", "default"] | ["Default", "default"], 0) => Ok(Value::Object(Map::new())),
            _ => Err(not_literal(expr)),
        },
        _ => Err(not_literal(expr)),
    }
}

/// `.unwrap()` or `.expect(..)`: the value of a `Result<Schema, _>`.
fn is_unwrap(m: &syn::ExprMethodCall) -> bool {
    (m.method == "unwrap" && m.args.is_empty()) || (m.method == "expect" && m.args.len() == 1)
}

/// A `Result<Schema, _>` made from a JSON value: `value.try_into()`,
/// `Schema::try_from(value)`, `serde_json::from_value(value)`. schemars
/// accepts an object or a boolean; anything else fails (and the unwrap
/// panics) at run time.
fn fallible_schema<'e>(expr: &'e syn::Expr, whole: &'e syn::Expr) -> Result<Value, NotLiteral<'e>> {
    let value = match expr {
        syn::Expr::Paren(p) => return fallible_schema(&p.expr, whole),
        syn::Expr::MethodCall(m) if m.method == "try_into" && m.args.is_empty() => {
            json_value_of(&m.receiver)?
        }
        syn::Expr::Call(c) => match (call_path(c).as_slice(), c.args.len()) {
            ([.., "try_from"] | [.., "from_value"], 1) => json_value_of(&c.args[0])?,
            _ => return Err(not_literal(expr)),
        },
        _ => return Err(not_literal(expr)),
    };
    if value.is_object() || value.is_boolean() {
        Ok(value)
    } else {
        Err(NotLiteral::at(
            whole,
            format!(
                "returns `{}`, which is neither an object nor a boolean: making it a `Schema` fails at run time",
                snippet(&value.to_string())
            ),
        ))
    }
}

/// The value of a `serde_json::Value`-typed expression: a `json!(..)` literal.
fn json_value_of(expr: &syn::Expr) -> Result<Value, NotLiteral<'_>> {
    match expr {
        syn::Expr::Paren(p) => json_value_of(&p.expr),
        syn::Expr::Macro(m) if last_is(&m.mac.path, "json") => {
            let tokens: Vec<TokenTree> = m.mac.tokens.clone().into_iter().collect();
            value(&tokens, "", 0)
                .map_err(|why| NotLiteral::at(expr, format!("{why} in its `json!` body")))
        }
        _ => Err(not_literal(expr)),
    }
}

/// The body of `json_schema!(..)`: `true`, `false`, or a `{ .. }` object.
fn json_schema_macro(tokens: &TokenStream) -> Result<Value, String> {
    let tokens: Vec<TokenTree> = tokens.clone().into_iter().collect();
    match tokens.as_slice() {
        [TokenTree::Ident(i)] if i == "true" || i == "false" => Ok(Value::Bool(i == "true")),
        [TokenTree::Group(g)] if g.delimiter() == Delimiter::Brace => value(&tokens, "", 0),
        _ => Err(format!(
            "interpolates `{}`",
            snippet(&code(&tokens_of(&tokens)))
        )),
    }
}

/// A JSON value as `json!` reads `tokens` (one value: up to a comma at the
/// level above). `Err` says what is not a literal, and where (a pointer).
fn value(tokens: &[TokenTree], pointer: &str, depth: usize) -> Result<Value, String> {
    let interpolated = || {
        format!(
            "interpolates `{}`{}",
            snippet(&code(&tokens_of(tokens))),
            at(pointer)
        )
    };
    if depth > MAX_NESTING {
        return Err(format!(
            "nests deeper than {MAX_NESTING} levels{}",
            at(pointer)
        ));
    }
    match tokens {
        [TokenTree::Ident(i)] if i == "null" => Ok(Value::Null),
        [TokenTree::Ident(i)] if i == "true" || i == "false" => Ok(Value::Bool(i == "true")),
        [TokenTree::Group(g)] if g.delimiter() == Delimiter::Bracket => {
            let mut out = Vec::new();
            for (i, item) in split_commas(g.stream()).iter().enumerate() {
                out.push(value(item, &format!("{pointer}/{i}"), depth + 1)?);
            }
            Ok(Value::Array(out))
        }
        [TokenTree::Group(g)] if g.delimiter() == Delimiter::Brace => {
            let mut out = Map::new();
            for entry in split_commas(g.stream()) {
                let colon = key_colon(&entry);
                let (key, rest) = match colon {
                    Some(c) => (&entry[..c], &entry[c + 1..]),
                    None => {
                        return Err(format!(
                            "has `{}`{}, not `\"key\": value`",
                            snippet(&code(&tokens_of(&entry))),
                            at(pointer)
                        ))
                    }
                };
                let key = match key {
                    [TokenTree::Literal(l)] => match syn::Lit::new(l.clone()) {
                        syn::Lit::Str(s) => s.value(),
                        _ => return Err(format!("has the key `{l}`{}, not a string", at(pointer))),
                    },
                    _ => {
                        return Err(format!(
                            "interpolates the key `{}`{}",
                            snippet(&code(&tokens_of(key))),
                            at(pointer)
                        ))
                    }
                };
                let v = value(rest, &format!("{pointer}/{}", escape(&key)), depth + 1)?;
                // `json!` inserts in order: a repeated key keeps the last value.
                out.insert(key, v);
            }
            Ok(Value::Object(out))
        }
        [TokenTree::Literal(l)] => literal(l, false).ok_or_else(interpolated),
        [TokenTree::Punct(p), TokenTree::Literal(l)] if p.as_char() == '-' => {
            literal(l, true).ok_or_else(interpolated)
        }
        _ => Err(interpolated()),
    }
}

/// The `:` after an object key: not one of a path's `::`.
fn key_colon(entry: &[TokenTree]) -> Option<usize> {
    let colon =
        |t: Option<&TokenTree>| matches!(t, Some(TokenTree::Punct(p)) if p.as_char() == ':');
    (0..entry.len()).find(|&i| {
        colon(entry.get(i))
            && !colon(entry.get(i + 1))
            && !(i > 0
                && colon(entry.get(i - 1))
                && matches!(&entry[i - 1], TokenTree::Punct(p) if p.spacing() == Spacing::Joint))
    })
}

fn at(pointer: &str) -> String {
    if pointer.is_empty() {
        String::new()
    } else {
        format!(" at `{pointer}`")
    }
}

/// A JSON pointer token (`~` and `/` escaped).
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// What `serde_json::to_value(&lit)` gives for a Rust literal (`negative`:
/// written after a `-`); `None` for what is no JSON literal (bytes, a
/// number out of range, a `-` before a string).
fn literal(l: &proc_macro2::Literal, negative: bool) -> Option<Value> {
    let float = |f: f64| Number::from_f64(if negative { -f } else { f }).map(Value::Number);
    match syn::Lit::new(l.clone()) {
        syn::Lit::Str(s) if !negative => Some(Value::String(s.value())),
        syn::Lit::Char(c) if !negative => Some(Value::String(c.value().to_string())),
        syn::Lit::Int(i) => match i.suffix() {
            "f32" => float(f64::from(i.base10_parse::<f32>().ok()?)),
            "f64" => float(i.base10_parse::<f64>().ok()?),
            _ => {
                let n = i.base10_parse::<i128>().ok()?;
                let n = if negative { -n } else { n };
                if let Ok(v) = i64::try_from(n) {
                    Some(Value::from(v))
                } else {
                    u64::try_from(n).ok().map(Value::from)
                }
            }
        },
        syn::Lit::Float(f) => match f.suffix() {
            // Serialized as `f32`, then widened, as serde_json does.
            "f32" => float(f64::from(f.base10_parse::<f32>().ok()?)),
            _ => float(f.base10_parse::<f64>().ok()?),
        },
        _ => None,
    }
}

/// `true` / `false` as an expression.
fn bool_literal(expr: &syn::Expr) -> Option<Value> {
    match expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Bool(b),
            ..
        }) => Some(Value::Bool(b.value)),
        syn::Expr::Paren(p) => bool_literal(&p.expr),
        _ => None,
    }
}

/// The top-level comma-separated pieces of `stream` (a trailing comma
/// ends the last piece, as `json!` allows).
fn split_commas(stream: TokenStream) -> Vec<Vec<TokenTree>> {
    let mut out = vec![Vec::new()];
    for t in stream {
        match &t {
            TokenTree::Punct(p) if p.as_char() == ',' => out.push(Vec::new()),
            _ => out.last_mut().expect("never empty").push(t),
        }
    }
    if out.last().is_some_and(Vec::is_empty) {
        out.pop();
    }
    out
}

fn tokens_of(tokens: &[TokenTree]) -> TokenStream {
    tokens.iter().cloned().collect()
}

/// Whether `path`'s last segment is `name` (`json_schema!`, `schemars::json_schema!`).
fn last_is(path: &syn::Path, name: &str) -> bool {
    path.segments.last().is_some_and(|s| s.ident == name)
}

/// The last two segments of a call's function path (`Schema::from`), or
/// the one there is; none when the function is not a path.
fn call_path(c: &syn::ExprCall) -> Vec<&'static str> {
    let syn::Expr::Path(p) = c.func.as_ref() else {
        return Vec::new();
    };
    let segs = &p.path.segments;
    segs.iter()
        .skip(segs.len().saturating_sub(2))
        .map(|s| KNOWN.iter().copied().find(|k| s.ident == k).unwrap_or("_"))
        .collect()
}

/// The path segments [`call_path`] tells apart (any other reads as `_`).
const KNOWN: &[&str] = &[
    "Schema",
    "From",
    "Default",
    "from",
    "default",
    "try_from",
    "from_value",
];

/// What a non-literal expression does, to follow its subject.
fn not_literal(expr: &syn::Expr) -> NotLiteral<'_> {
    let what = match expr {
        syn::Expr::Call(c) => format!(
            "calls `{}(..)`, which the build step cannot run",
            code(&c.func)
        ),
        syn::Expr::MethodCall(m) => format!(
            "calls `{}.{}(..)`, which the build step cannot run",
            snippet(&code(&m.receiver)),
            m.method
        ),
        syn::Expr::Macro(m) => format!(
            "expands `{}!`, which the build step does not run",
            code(&m.mac.path)
        ),
        syn::Expr::Path(p) => format!("returns `{}`, a value only running code knows", code(p)),
        syn::Expr::Block(_) => "is a block of several statements, not one expression".into(),
        other => format!("is `{}`, not a literal", snippet(&code(other))),
    };
    NotLiteral::at(expr, what)
}

/// Rust code as written, for messages: [`type_text`], with method calls
/// and call parentheses closed up (`a.b::<T>()`, not `a . b::<T> ()`).
pub(crate) fn code(tokens: &impl quote::ToTokens) -> String {
    let text = type_text(tokens).replace(" . ", ".");
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let call = matches!(chars.peek(), Some('(' | '['))
            && out
                .chars()
                .last()
                .is_some_and(|p| p.is_alphanumeric() || matches!(p, '_' | '>' | ')'));
        if c == ' ' && call {
            continue;
        }
        out.push(c);
    }
    out
}

/// `text`, cut to a length a message can carry.
fn snippet(text: &str) -> String {
    const MAX: usize = 60;
    match text.char_indices().nth(MAX) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests;
