//! Hand-written `impl JsonSchema` blocks that only hand over to another
//! type. Real servers write them to keep a schema while deserializing
//! through a custom `Deserialize` (spreadsheet-mcp's `StyleOpInput`):
//!
//! ```text
//! impl JsonSchema for StyleOpInput {
//!     fn schema_name() -> Cow<'static, str> { "StyleOp".into() }
//!     fn json_schema(g: &mut SchemaGenerator) -> Schema { StyleOp::json_schema(g) }
//! }
//! ```
//!
//! schemars then publishes `StyleOp`'s schema under `StyleOp`'s name, which
//! is what forwarding to `StyleOp` gives. Only that exact shape is read —
//! no generics, no other method, `json_schema` a single call of
//! `Other::json_schema` (or `<Other as JsonSchema>::json_schema`), and a
//! `schema_name` that is `Other`'s (a literal equal to it, or
//! `Other::schema_name()`); anything else stays "implemented by hand".

use super::error::PResult;
use super::gen::{Gen, Ty};
use super::index::ItemLoc;
use super::resolve::Scope;

impl Gen<'_> {
    /// The type a hand-written `impl JsonSchema` of `loc` delegates to
    /// entirely, when it is that simple (see the module docs).
    pub(crate) fn delegated_schema(&self, loc: &ItemLoc) -> PResult<Option<Ty>> {
        let Some((imp, at)) = self.ix.trait_impl_with_loc(loc, "JsonSchema") else {
            return Ok(None);
        };
        if !imp.generics.params.is_empty() {
            return Ok(None);
        }
        let (mut target, mut name) = (None, None);
        for item in &imp.items {
            let syn::ImplItem::Fn(f) = item else {
                return Ok(None);
            };
            let [syn::Stmt::Expr(body, None)] = f.block.stmts.as_slice() else {
                return Ok(None);
            };
            match f.sig.ident.to_string().as_str() {
                "json_schema" => target = call_of(body, "json_schema"),
                "schema_name" => name = Some(body),
                _ => return Ok(None),
            }
        }
        let (Some(target), Some(name)) = (target, name) else {
            return Ok(None);
        };
        let scope = Scope::new(&at.module, self.ix.file_of(at));
        let Ok(ty) = self.resolve(&target, &scope) else {
            return Ok(None);
        };
        let other = self.schema_name(&ty)?;
        let same_name = match call_of(name, "schema_name") {
            Some(t) => self.resolve(&t, &scope).is_ok_and(|t| t == ty),
            None => literal(name).is_some_and(|n| n == other),
        };
        Ok(same_name.then_some(ty))
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
fn literal(expr: &syn::Expr) -> Option<String> {
    match expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => Some(s.value()),
        syn::Expr::MethodCall(m)
            if m.args.is_empty()
                && ["into", "to_owned", "to_string"].contains(&m.method.to_string().as_str()) =>
        {
            literal(&m.receiver)
        }
        syn::Expr::Call(c) if c.args.len() == 1 => match c.func.as_ref() {
            syn::Expr::Path(p)
                if p.path
                    .segments
                    .last()
                    .is_some_and(|s| s.ident == "Borrowed" || s.ident == "from") =>
            {
                literal(&c.args[0])
            }
            _ => None,
        },
        _ => None,
    }
}
