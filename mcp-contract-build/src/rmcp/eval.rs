//! The expressions in rmcp attributes that the build step can evaluate
//! without compiling the crate: string literals, `concat!` of them,
//! `include_str!("file")` (read relative to the source file, as rustc does),
//! and JSON written literally in `json!` / `object!` (optionally wrapped in a
//! one-argument constructor such as `Meta(...)` or `Arc::new(...)`).
//! Anything else is `Err` with the expression's text, for the build error.

use std::path::{Path, PathBuf};

use quote::ToTokens;
use serde_json::Value;
use syn::punctuated::Punctuated;
use syn::{Expr, ExprLit, Lit};

/// An expression the build step cannot evaluate; holds its source text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotEvaluable(pub String);

/// The files evaluating `expr` reads (`include_str!`, relative to `dir`,
/// the directory of the file it is written in): files the build cache
/// must watch besides the sources (see `crate::cache::RootCache::whole`).
pub fn included_files(expr: &Expr, dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    collect_included(expr, dir, &mut out);
    out
}

fn collect_included(expr: &Expr, dir: &Path, out: &mut Vec<PathBuf>) {
    match expr {
        Expr::Paren(p) => collect_included(&p.expr, dir, out),
        Expr::Group(g) => collect_included(&g.expr, dir, out),
        Expr::Macro(_) => match macro_call(expr) {
            Some((name, args)) if name == "include_str" && args.len() == 1 => {
                if let Ok(rel) = eval_str(&args[0], dir) {
                    out.push(dir.join(rel));
                }
            }
            Some((name, args)) if name == "concat" => {
                for a in &args {
                    collect_included(a, dir, out);
                }
            }
            _ => {}
        },
        _ => {}
    }
}

/// A macro call's name (its path's last segment) and comma-separated
/// arguments; `None` for anything else, or arguments that are not expressions.
fn macro_call(expr: &Expr) -> Option<(String, Punctuated<Expr, syn::Token![,]>)> {
    let Expr::Macro(m) = expr else { return None };
    let name = m.mac.path.segments.last()?.ident.to_string();
    let args = m.mac.parse_body_with(Punctuated::parse_terminated).ok()?;
    Some((name, args))
}

/// The text of `expr` as rmcp would turn it into a `String`.
/// `dir` is the directory of the file the expression is written in.
pub fn eval_str(expr: &Expr, dir: &Path) -> Result<String, NotEvaluable> {
    let fail = || NotEvaluable(expr_text(expr));
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) => Ok(s.value()),
        Expr::Paren(p) => eval_str(&p.expr, dir),
        Expr::Group(g) => eval_str(&g.expr, dir),
        Expr::Macro(_) => {
            let (name, args) = macro_call(expr).ok_or_else(fail)?;
            match name.as_str() {
                "concat" => {
                    let mut out = String::new();
                    for a in &args {
                        out.push_str(&eval_str(a, dir)?);
                    }
                    Ok(out)
                }
                "include_str" if args.len() == 1 => {
                    let rel = eval_str(&args[0], dir)?;
                    std::fs::read_to_string(dir.join(&rel)).map_err(|_| fail())
                }
                _ => Err(fail()),
            }
        }
        _ => Err(fail()),
    }
}

/// The JSON value of an expression written as literal JSON.
pub fn eval_json(expr: &Expr) -> Result<Value, NotEvaluable> {
    let fail = || NotEvaluable(expr_text(expr));
    match expr {
        Expr::Paren(p) => eval_json(&p.expr),
        Expr::Group(g) => eval_json(&g.expr),
        // `Meta(object!({...}))`, `Arc::new(...)`, `Some(...)`.
        Expr::Call(c) if c.args.len() == 1 => eval_json(&c.args[0]),
        // `x.into()`
        Expr::MethodCall(m) if m.method == "into" && m.args.is_empty() => eval_json(&m.receiver),
        Expr::Macro(m) => {
            let name = m
                .mac
                .path
                .segments
                .last()
                .map(|s| s.ident.to_string())
                .unwrap_or_default();
            if name != "json" && name != "object" {
                return Err(fail());
            }
            // Literal JSON tokens print as JSON text (`{ "a" : 1 }`); anything
            // with Rust expressions in it does not parse and is refused.
            serde_json::from_str(&m.mac.tokens.to_string()).map_err(|_| fail())
        }
        _ => Err(fail()),
    }
}

/// An expression's source text, for messages.
pub fn expr_text(expr: &Expr) -> String {
    let text = expr.to_token_stream().to_string();
    const MAX: usize = 120;
    if text.chars().count() > MAX {
        let cut: String = text.chars().take(MAX).collect();
        format!("{cut}…")
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings() {
        let dir = std::env::temp_dir();
        let e: Expr = syn::parse_quote!(concat!("a", "b", ("c")));
        assert_eq!(eval_str(&e, &dir).unwrap(), "abc");
        let e: Expr = syn::parse_quote!(describe());
        assert_eq!(eval_str(&e, &dir).unwrap_err().0, "describe ()");
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("d.md"), "From a file.").unwrap();
        let e: Expr = syn::parse_quote!(include_str!("d.md"));
        assert_eq!(eval_str(&e, tmp.path()).unwrap(), "From a file.");
    }

    #[test]
    fn json() {
        let e: Expr = syn::parse_quote!(Meta(rmcp::object!({"k": "v", "n": [1, true, null]})));
        assert_eq!(
            eval_json(&e).unwrap(),
            serde_json::json!({"k": "v", "n": [1, true, null]})
        );
        let e: Expr = syn::parse_quote!(json!({ "k": value }));
        assert!(eval_json(&e).is_err());
    }
}
