//! Hand-written `impl JsonSchema` blocks the build step reads: those whose
//! result is known from source. Two shapes are read:
//!
//! - one that only hands over to another type, as real servers write to
//!   keep a schema while deserializing through a custom `Deserialize`
//!   (spreadsheet-mcp's `StyleOpInput`):
//!
//!   ```text
//!   impl JsonSchema for StyleOpInput {
//!       fn schema_name() -> Cow<'static, str> { "StyleOp".into() }
//!       fn json_schema(g: &mut SchemaGenerator) -> Schema { StyleOp::json_schema(g) }
//!   }
//!   ```
//!
//!   schemars then publishes `StyleOp`'s schema under `StyleOp`'s name,
//!   which is what forwarding to `StyleOp` gives: no generics, no other
//!   method, `json_schema` a single call of `Other::json_schema` (or
//!   `<Other as JsonSchema>::json_schema`), and a `schema_name` that is
//!   `Other`'s (a literal equal to it, or `Other::schema_name()`);
//! - one whose `json_schema` returns a JSON literal ([`super::literal`]),
//!   with a literal `schema_name`, and optionally a literal `schema_id`
//!   (or `concat!(module_path!(), "...")`) and `inline_schema`: the type's
//!   schema is that literal, named, identified and inlined as the impl says.
//!
//! Anything else is refused, naming what the impl does that only running
//! code knows, at the line where it does it.

use std::rc::Rc;

use super::error::{Hatch, PResult, Problem};
use super::gen::{Adt, Gen, Literal, Ty};
use super::index::ItemLoc;
use super::literal::{body_schema, NotLiteral};
use super::resolve::{type_text, Scope};

/// What a hand-written impl gives.
#[derive(Debug, Clone)]
pub(crate) enum Hand {
    /// The type is the other type, as far as schemars is concerned.
    Delegate(Ty),
    Literal(Rc<Literal>),
}

/// A hand-written impl, read: `None` when the type has none.
pub(crate) type Read = PResult<Option<Hand>>;

const LEAD: &str =
    "have `json_schema` return a JSON literal (`json_schema!({ ... })`, JSON values \
     only) with a string-literal `schema_name`, or hand over to another type \
     (`Other::json_schema(generator)`, with `Other`'s `schema_name`)";

impl Gen<'_> {
    /// What the hand-written `impl JsonSchema` of `loc` gives (read once).
    pub(crate) fn hand_impl(&self, loc: &ItemLoc) -> Read {
        if let Some(read) = self.hand_cache.borrow().get(loc) {
            return read.clone();
        }
        let read = self.read_hand_impl(loc);
        self.hand_cache
            .borrow_mut()
            .insert(loc.clone(), read.clone());
        read
    }

    /// The literal schema `adt`'s hand-written impl returns, when it does
    /// (and no verbatim schema replaces it).
    pub(crate) fn hand_literal(&self, adt: &Adt) -> Option<Rc<Literal>> {
        if self
            .adt_attrs(adt)
            .is_ok_and(|a| a.schema_override.is_some())
        {
            return None;
        }
        match self.hand_impl(&adt.loc) {
            Ok(Some(Hand::Literal(l))) => Some(l),
            _ => None,
        }
    }

    fn read_hand_impl(&self, loc: &ItemLoc) -> Read {
        let Some((imp, at)) = self.ix.trait_impl_with_loc(loc, "JsonSchema") else {
            return Ok(None);
        };
        let file = self.ix.file_of(at).to_path_buf();
        let what = type_text(&imp.self_ty);
        let refuse = |why: String, line: usize| {
            Problem::new(
                &what,
                format!("the type implements `JsonSchema` by hand, and {why}"),
            )
            .with_escape(LEAD, Hatch::Type)
            .at(&file, line)
        };
        let line_of = |f: &syn::ImplItemFn| self.ix.line_in(&file, &f.sig.ident);
        let mut methods = Methods::default();
        for item in &imp.items {
            let syn::ImplItem::Fn(f) = item else {
                let line = self.ix.line_in(&file, imp.self_ty.as_ref());
                return Err(refuse(
                    "the impl holds an item that is not a method".into(),
                    line,
                ));
            };
            let slot = match f.sig.ident.to_string().as_str() {
                "json_schema" => &mut methods.json_schema,
                "schema_name" => &mut methods.schema_name,
                "schema_id" => &mut methods.schema_id,
                "inline_schema" => &mut methods.inline_schema,
                other => {
                    return Err(refuse(
                        format!("its `fn {other}` is not one the build step reads"),
                        line_of(f),
                    ))
                }
            };
            *slot = Some(f);
        }
        let (Some(json), Some(name)) = (methods.json_schema, methods.schema_name) else {
            let line = self.ix.line_in(&file, imp.self_ty.as_ref());
            return Err(refuse(
                "it does not define both `schema_name` and `json_schema`".into(),
                line,
            ));
        };
        let scope = Scope::new(&at.module, &file);
        if let Some(target) = single_expr(json).and_then(|e| call_of(e, "json_schema")) {
            if !imp.generics.params.is_empty() {
                return Err(refuse(
                    format!(
                        "it hands over to `{}` from a generic impl",
                        type_text(&target)
                    ),
                    line_of(json),
                ));
            }
            let other = self.resolve(&target, &scope)?;
            if let Some(extra) = methods.schema_id.or(methods.inline_schema) {
                return Err(refuse(
                    format!(
                        "it hands over to `{}` but defines `{}` too",
                        type_text(&target),
                        extra.sig.ident
                    ),
                    line_of(extra),
                ));
            }
            let other_name = self.schema_name(&other)?;
            let same_name = match single_expr(name).and_then(|e| call_of(e, "schema_name")) {
                Some(t) => self.resolve(&t, &scope).is_ok_and(|t| t == other),
                None => single_expr(name)
                    .and_then(string_literal)
                    .is_some_and(|n| n == other_name),
            };
            if !same_name {
                return Err(refuse(
                    format!(
                        "it hands over to `{}` under another `schema_name` than `{other_name}`",
                        type_text(&target)
                    ),
                    line_of(name),
                ));
            }
            return Ok(Some(Hand::Delegate(other)));
        }
        let schema = body_schema(&json.block).map_err(|n: NotLiteral<'_>| {
            let line = n.node.map_or(line_of(json), |e| self.ix.line_in(&file, e));
            refuse(format!("its `json_schema` {}", n.what), line)
        })?;
        let not_literal = |f: &syn::ImplItemFn, kind: &str| {
            refuse(format!("its `{}` is not {kind}", f.sig.ident), line_of(f))
        };
        let schema_name = single_expr(name)
            .and_then(string_literal)
            .ok_or_else(|| not_literal(name, "a string literal"))?;
        let id = match methods.schema_id {
            None => schema_name.clone(),
            Some(f) => single_expr(f)
                .and_then(|e| schema_id(e, &at.module, &schema_name))
                .ok_or_else(|| {
                    not_literal(
                        f,
                        "a string literal, `concat!(module_path!(), \"..\")` or `Self::schema_name()`",
                    )
                })?,
        };
        let inline = match methods.inline_schema {
            None => false,
            Some(f) => match single_expr(f) {
                Some(syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Bool(b),
                    ..
                })) => b.value,
                _ => return Err(not_literal(f, "`true` or `false`")),
            },
        };
        Ok(Some(Hand::Literal(Rc::new(Literal {
            name: schema_name,
            id,
            inline,
            schema,
        }))))
    }
}

/// The methods of an `impl JsonSchema` the build step reads.
#[derive(Default)]
struct Methods<'a> {
    json_schema: Option<&'a syn::ImplItemFn>,
    schema_name: Option<&'a syn::ImplItemFn>,
    schema_id: Option<&'a syn::ImplItemFn>,
    inline_schema: Option<&'a syn::ImplItemFn>,
}

/// A method's body when it is one expression (`{ expr }` or `{ return expr; }`).
fn single_expr(f: &syn::ImplItemFn) -> Option<&syn::Expr> {
    match f.block.stmts.as_slice() {
        [syn::Stmt::Expr(e, None)] => Some(e),
        [syn::Stmt::Expr(syn::Expr::Return(r), Some(_))] => r.expr.as_deref(),
        _ => None,
    }
}

/// `Other::method(..)` or `<Other as Trait>::method(..)`: `Other`.
fn call_of(expr: &syn::Expr, method: &str) -> Option<syn::Type> {
    let syn::Expr::Call(call) = expr else {
        return None;
    };
    let syn::Expr::Path(p) = call.func.as_ref() else {
        return None;
    };
    if p.path.segments.last()?.ident != method || call.args.len() > 1 {
        return None;
    }
    if let Some(q) = &p.qself {
        return Some((*q.ty).clone());
    }
    let mut path = p.path.clone();
    path.segments.pop();
    path.segments.pop_punct();
    (!path.segments.is_empty()).then(|| syn::Type::Path(syn::TypePath { qself: None, path }))
}

/// `"x"`, `"x".into()`, `"x".to_owned()`, `Cow::Borrowed("x")`, `Cow::from("x")`.
fn string_literal(expr: &syn::Expr) -> Option<String> {
    match expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => Some(s.value()),
        syn::Expr::MethodCall(m)
            if m.args.is_empty()
                && ["into", "to_owned", "to_string"].contains(&m.method.to_string().as_str()) =>
        {
            string_literal(&m.receiver)
        }
        syn::Expr::Call(c) if c.args.len() == 1 => match c.func.as_ref() {
            syn::Expr::Path(p)
                if p.path
                    .segments
                    .last()
                    .is_some_and(|s| s.ident == "Borrowed" || s.ident == "from") =>
            {
                string_literal(&c.args[0])
            }
            _ => None,
        },
        _ => None,
    }
}

/// A `schema_id` body: a string (possibly built with `concat!` from
/// literals and `module_path!()`, which is `module` as the index writes
/// derived types' ids), or `Self::schema_name()` (the default).
fn schema_id(expr: &syn::Expr, module: &[String], name: &str) -> Option<String> {
    if let Some(s) = string_literal(expr) {
        return Some(s);
    }
    match expr {
        syn::Expr::MethodCall(m) if m.args.is_empty() && m.method == "into" => {
            schema_id(&m.receiver, module, name)
        }
        syn::Expr::Call(c) if c.args.len() == 1 => schema_id(&c.args[0], module, name),
        syn::Expr::Call(c) if c.args.is_empty() => {
            let syn::Expr::Path(p) = c.func.as_ref() else {
                return None;
            };
            let segs: Vec<String> = p
                .path
                .segments
                .iter()
                .map(|s| s.ident.to_string())
                .collect();
            (segs == ["Self", "schema_name"]).then(|| name.to_string())
        }
        syn::Expr::Macro(m) if m.mac.path.is_ident("concat") => {
            let parts = m
                .mac
                .parse_body_with(
                    syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated,
                )
                .ok()?;
            let mut out = String::new();
            for part in &parts {
                match part {
                    syn::Expr::Macro(inner) if inner.mac.path.is_ident("module_path") => {
                        out.push_str(&module.join("::"))
                    }
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(s),
                        ..
                    }) => out.push_str(&s.value()),
                    _ => return None,
                }
            }
            Some(out)
        }
        _ => None,
    }
}
