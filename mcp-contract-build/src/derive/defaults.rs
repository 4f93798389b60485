//! Values known only to running code, computed from source: the JSON a
//! `#[serde(default)]` / `#[serde(default = "f")]` field's default value
//! serialises to (schemars puts it in the `default` keyword), `const`s used
//! in attributes, and `skip_serializing_if` predicates on such values. Only
//! simple, side-effect-free forms are understood; anything else is a
//! `Problem` with the escape hatch.

use serde_json::{Map, Value};
use syn::punctuated::Punctuated;
use syn::{Expr, Lit, Token};

use super::attrs::TagType;
use super::builtin::Prim;
use super::error::{Hatch, PResult, Problem};
use super::gen::{Adt, Gen, Ty};
use super::index::{ItemLoc, Ns, Target};
use super::resolve::Scope;

fn cannot(expr: &impl quote::ToTokens, why: &str) -> Problem {
    Problem::new(super::literal::code(expr), format!("cannot compute this value from source: {why}")).with_escape(
        "use a literal or a simple constructor (`\"text\".to_string()`, `vec![..]`, `Some(..)`, a `const`, \
         a function whose body is one such expression)",
        Hatch::Field,
    )
}

/// Whether `#[derive(..)]` on `attrs` lists a derive whose last segment is `name`.
pub(crate) fn derives(attrs: &[syn::Attribute], name: &str) -> bool {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("derive"))
        .any(|a| {
            a.parse_args_with(Punctuated::<syn::Path, Token![,]>::parse_terminated)
                .map(|paths| {
                    paths
                        .iter()
                        .any(|p| p.segments.last().is_some_and(|s| s.ident == name))
                })
                .unwrap_or(false)
        })
}

fn item_attrs(item: &syn::Item) -> &[syn::Attribute] {
    match item {
        syn::Item::Struct(s) => &s.attrs,
        syn::Item::Enum(e) => &e.attrs,
        _ => &[],
    }
}

fn segments(path: &syn::Path) -> Vec<String> {
    path.segments
        .iter()
        .map(|s| s.ident.to_string().trim_start_matches("r#").to_string())
        .collect()
}

/// The single expression a block evaluates to (`{ expr }` or `{ return expr; }`).
fn tail_expr(block: &syn::Block) -> Option<&Expr> {
    match block.stmts.as_slice() {
        [syn::Stmt::Expr(e, None)] => Some(e),
        [syn::Stmt::Expr(Expr::Return(r), Some(_))] => r.expr.as_deref(),
        _ => None,
    }
}

fn number(n: f64) -> Value {
    serde_json::Number::from_f64(n)
        .map(Value::Number)
        .unwrap_or(Value::Null)
}

impl Gen<'_> {
    /// Whether the type implements `Serialize` (schemars only emits `default` then).
    pub(crate) fn is_serialize(&self, ty: &Ty) -> PResult<bool> {
        Ok(match ty {
            Ty::Prim(_) | Ty::Override(_) | Ty::Literal(_) => true,
            Ty::Option(t)
            | Ty::Seq(t)
            | Ty::Set(t)
            | Ty::Array(t, _)
            | Ty::Range(t)
            | Ty::Bound(t) => self.is_serialize(t)?,
            Ty::Map(k, v) | Ty::Result(k, v) | Ty::Either(k, v) => {
                self.is_serialize(k)? && self.is_serialize(v)?
            }
            Ty::BoundedSeq(t, _) => self.is_serialize(t)?,
            Ty::Tuple(ts) => {
                for t in ts {
                    if !self.is_serialize(t)? {
                        return Ok(false);
                    }
                }
                true
            }
            Ty::Adt(adt) => {
                let item = self.ix.item(&adt.loc);
                let own = derives(item_attrs(item), "Serialize")
                    || self.ix.trait_impl(&adt.loc, "Serialize").is_some();
                if !own {
                    return Ok(false);
                }
                for a in &adt.args {
                    if !self.is_serialize(a)? {
                        return Ok(false);
                    }
                }
                true
            }
        })
    }

    /// `serde_json::to_value(<T as Default>::default())`.
    pub(crate) fn default_of(&self, ty: &Ty) -> PResult<Value> {
        Ok(match ty {
            Ty::Prim(p) => p.default_value().ok_or_else(|| {
                Problem::new(
                    p.name(),
                    "this type has no `Default` value the generator knows",
                )
            })?,
            Ty::Option(_) => Value::Null,
            Ty::Seq(_) | Ty::Set(_) | Ty::BoundedSeq(..) => Value::Array(Vec::new()),
            Ty::Map(..) => Value::Object(Map::new()),
            Ty::Array(t, n) => {
                let d = self.default_of(t)?;
                Value::Array(vec![d; *n])
            }
            Ty::Tuple(ts) => {
                let mut out = Vec::new();
                for t in ts {
                    out.push(self.default_of(t)?);
                }
                Value::Array(out)
            }
            Ty::Adt(adt) => match self.ix.item(&adt.loc) {
                syn::Item::Struct(_) => {
                    let fields = self.adt_default_fields(adt)?;
                    self.serialize_struct(adt, &fields)?
                }
                syn::Item::Enum(e) => {
                    if derives(&e.attrs, "Default") {
                        let v = e
                            .variants
                            .iter()
                            .find(|v| v.attrs.iter().any(|a| a.path().is_ident("default")))
                            .ok_or_else(|| {
                                Problem::new(
                                    e.ident.to_string(),
                                    "`#[derive(Default)]` without a `#[default]` variant",
                                )
                            })?;
                        self.serialize_unit_variant(adt, &v.ident.to_string())?
                    } else {
                        let (body, scope) = self.default_fn_body(adt)?;
                        self.eval(body, Some(ty), &scope)?
                    }
                }
                _ => unreachable!("an Adt is a struct or an enum"),
            },
            Ty::Result(..)
            | Ty::Range(_)
            | Ty::Bound(_)
            | Ty::Either(..)
            | Ty::Override(_)
            | Ty::Literal(_) => {
                return Err(Problem::new(
                    self.schema_name(ty)?,
                    "this type has no `Default` value",
                ))
            }
        })
    }

    /// The body of `impl Default for X { fn default() -> Self { body } }`.
    fn default_fn_body(&self, adt: &Adt) -> PResult<(&Expr, Scope)> {
        let name = self.adt_ident(adt);
        let imp = self.ix.trait_impl(&adt.loc, "Default").ok_or_else(|| {
            Problem::new(&name, "the type neither derives nor implements `Default`")
        })?;
        let f = imp
            .items
            .iter()
            .find_map(|i| match i {
                syn::ImplItem::Fn(f) if f.sig.ident == "default" => Some(f),
                _ => None,
            })
            .ok_or_else(|| Problem::new(&name, "`impl Default` has no `fn default`"))?;
        let body = tail_expr(&f.block).ok_or_else(|| {
            cannot(&f.block, "`fn default` must be a single expression").at(
                self.ix.file_of(&adt.loc),
                self.ix.line_in(self.ix.file_of(&adt.loc), &f.sig.ident),
            )
        })?;
        Ok((body, self.adt_scope(adt)?))
    }

    /// The field values of `X::default()` for a struct `X`, by member name.
    pub(crate) fn adt_default_fields(&self, adt: &Adt) -> PResult<Vec<(String, Value)>> {
        let syn::Item::Struct(s) = self.ix.item(&adt.loc) else {
            return Err(Problem::new(self.adt_ident(adt), "not a struct"));
        };
        if derives(&s.attrs, "Default") {
            let scope = self.adt_scope(adt)?;
            let mut out = Vec::new();
            for (i, f) in s.fields.iter().enumerate() {
                let ty = self.resolve(&f.ty, &scope)?;
                out.push((member(f, i), self.default_of(&ty)?));
            }
            return Ok(out);
        }
        let (body, scope) = self.default_fn_body(adt)?;
        self.eval_struct(body, adt, &scope)
    }

    /// `#[serde(default = "path")]` on a struct: the field values the function returns.
    pub(crate) fn call_for_struct(
        &self,
        path: &str,
        adt: &Adt,
        scope: &Scope,
    ) -> PResult<Vec<(String, Value)>> {
        let expr: Expr = syn::parse_str(&format!("{path}()"))
            .map_err(|e| Problem::new(path, format!("not a function path: {e}")))?;
        self.eval_struct(&expr, adt, scope)
    }

    /// `#[serde(default = "path")]` on a field: the value the function returns.
    pub(crate) fn call_path(&self, path: &str, expected: &Ty, scope: &Scope) -> PResult<Value> {
        let expr: Expr = syn::parse_str(&format!("{path}()"))
            .map_err(|e| Problem::new(path, format!("not a function path: {e}")))?;
        self.eval(&expr, Some(expected), scope)
    }

    /// A `skip_serializing_if` predicate applied to a (serialised) value.
    pub(crate) fn skip_predicate(&self, path: &str, v: &Value, scope: &Scope) -> PResult<bool> {
        let last = path.rsplit("::").next().unwrap_or(path).trim();
        if let Some(b) = builtin_predicate(last, v) {
            return Ok(b);
        }
        let problem = || {
            Problem::new(path, "the `skip_serializing_if` predicate cannot be run from source")
                .with_escape(
                    "use `Option::is_none`, `Vec::is_empty`, `String::is_empty`, `std::ops::Not::not` or a \
                     one-expression function such as `fn is_false(b: &bool) -> bool { !*b }`",
                    Hatch::Field,
                )
        };
        let segs: Vec<String> = path.split("::").map(|s| s.trim().to_string()).collect();
        let Some(Target::Local(loc)) = self.ix.resolve(&scope.module, &segs, Ns::Value) else {
            return Err(problem());
        };
        let syn::Item::Fn(f) = self.ix.item(&loc) else {
            return Err(problem());
        };
        let param = match f.sig.inputs.first() {
            Some(syn::FnArg::Typed(pt)) if f.sig.inputs.len() == 1 => match pt.pat.as_ref() {
                syn::Pat::Ident(i) => i.ident.to_string(),
                _ => return Err(problem()),
            },
            _ => return Err(problem()),
        };
        let body = tail_expr(&f.block).ok_or_else(problem)?;
        match predicate_value(body, &param, v) {
            Some(Value::Bool(b)) => Ok(b),
            _ => Err(problem()),
        }
    }

    /// How serde serialises a unit variant of an enum.
    fn serialize_unit_variant(&self, adt: &Adt, ident: &str) -> PResult<Value> {
        let attrs = self.adt_attrs(adt)?;
        let scope = self.adt_scope(adt)?;
        let syn::Item::Enum(e) = self.ix.item(&adt.loc) else {
            return Err(Problem::new(ident, "not an enum variant"));
        };
        let v = e
            .variants
            .iter()
            .find(|v| v.ident == ident)
            .ok_or_else(|| {
                Problem::new(ident, format!("`{}` has no variant `{ident}`", e.ident))
            })?;
        if !matches!(v.fields, syn::Fields::Unit) {
            return Err(cannot(v, "only unit variants are understood as values"));
        }
        let mut va = super::attrs::VariantAttrs::parse(&v.attrs, ident, &mut |x| {
            self.eval(x, None, &scope)
        })?;
        va.name.rename_variant(attrs.rename_all);
        let name = Value::String(va.name.ser.clone());
        if va.untagged {
            return Ok(Value::Null);
        }
        Ok(match &attrs.tag {
            TagType::External => name,
            TagType::None => Value::Null,
            TagType::Internal(tag) | TagType::Adjacent(tag, _) => {
                let mut m = Map::new();
                m.insert(tag.clone(), name);
                Value::Object(m)
            }
        })
    }

    /// How serde serialises a struct whose field values are `values`.
    fn serialize_struct(&self, adt: &Adt, values: &[(String, Value)]) -> PResult<Value> {
        let attrs = self.adt_attrs(adt)?;
        let scope = self.adt_scope(adt)?;
        let syn::Item::Struct(s) = self.ix.item(&adt.loc) else {
            return Err(Problem::new(self.adt_ident(adt), "not a struct"));
        };
        if attrs.into.is_some() {
            return Err(Problem::new(
                self.adt_ident(adt),
                "a `#[serde(into)]` value cannot be serialised from source",
            ));
        }
        let fields = self.prepare_fields(
            &s.fields,
            attrs.rename_all,
            !attrs.default.is_none(),
            &scope,
        )?;
        let value_of = |m: &str| {
            values
                .iter()
                .find(|(k, _)| k == m)
                .map(|(_, v)| v.clone())
                .unwrap_or(Value::Null)
        };
        if attrs.transparent {
            if let Some(f) = fields.iter().find(|f| !f.attrs.skip_de) {
                return Ok(value_of(&f.member));
            }
        }
        match &s.fields {
            syn::Fields::Unit => Ok(Value::Null),
            syn::Fields::Unnamed(u) if u.unnamed.len() == 1 => Ok(value_of("0")),
            syn::Fields::Unnamed(_) => Ok(Value::Array(
                fields
                    .iter()
                    .filter(|f| !f.attrs.skip_ser)
                    .map(|f| value_of(&f.member))
                    .collect(),
            )),
            syn::Fields::Named(_) => {
                let mut out = Map::new();
                if let TagType::Internal(tag) = &attrs.tag {
                    out.insert(tag.clone(), Value::String(attrs.name.ser.clone()));
                }
                for f in &fields {
                    if f.attrs.skip_ser {
                        continue;
                    }
                    if f.attrs.serialize_with.is_some() {
                        return Err(cannot(
                            f.field,
                            "the field is written with `serialize_with`",
                        ));
                    }
                    let v = value_of(&f.member);
                    if let Some(pred) = &f.attrs.skip_ser_if {
                        if self.skip_predicate(pred, &v, &scope)? {
                            continue;
                        }
                    }
                    if f.attrs.flatten {
                        if let Value::Object(o) = v {
                            out.extend(o);
                        }
                        continue;
                    }
                    out.insert(f.attrs.name.ser.clone(), v);
                }
                Ok(Value::Object(out))
            }
        }
    }

    /// Field values of a struct-typed expression (`Self { .. }`, `X::default()`, a fn call...).
    fn eval_struct(&self, expr: &Expr, adt: &Adt, scope: &Scope) -> PResult<Vec<(String, Value)>> {
        let syn::Item::Struct(s) = self.ix.item(&adt.loc) else {
            return Err(cannot(expr, "expected a struct value"));
        };
        let adt_scope = self.adt_scope(adt)?;
        match expr {
            Expr::Paren(p) => self.eval_struct(&p.expr, adt, scope),
            Expr::Group(g) => self.eval_struct(&g.expr, adt, scope),
            Expr::Block(b) => match tail_expr(&b.block) {
                Some(e) => self.eval_struct(e, adt, scope),
                None => Err(cannot(expr, "a block must be a single expression")),
            },
            Expr::Struct(st) => {
                let mut out = Vec::new();
                let base = match &st.rest {
                    Some(rest) => Some(self.eval_struct(rest, adt, scope)?),
                    None => None,
                };
                for (i, f) in s.fields.iter().enumerate() {
                    let m = member(f, i);
                    let given = st.fields.iter().find(|fv| match &fv.member {
                        syn::Member::Named(id) => id.to_string().trim_start_matches("r#") == m,
                        syn::Member::Unnamed(idx) => idx.index.to_string() == m,
                    });
                    let v = match (given, &base) {
                        (Some(fv), _) => {
                            let ty = self.resolve(&f.ty, &adt_scope)?;
                            self.eval(&fv.expr, Some(&ty), scope)?
                        }
                        (None, Some(b)) => b
                            .iter()
                            .find(|(k, _)| *k == m)
                            .map(|(_, v)| v.clone())
                            .unwrap_or(Value::Null),
                        (None, None) => return Err(cannot(expr, "a field is missing")),
                    };
                    out.push((m, v));
                }
                Ok(out)
            }
            Expr::Call(call) if call.args.is_empty() => {
                let Expr::Path(p) = call.func.as_ref() else {
                    return Err(cannot(expr, "unsupported call"));
                };
                let segs = segments(&p.path);
                if segs.last().is_some_and(|l| l == "default") && segs.len() <= 2 {
                    let prefix_is_self = segs.len() == 1
                        || segs[0] == "Self"
                        || segs[0] == "Default"
                        || self.path_is_adt(&segs[..1], adt, scope);
                    if prefix_is_self {
                        return self.adt_default_fields(adt);
                    }
                }
                let (body, fn_scope) = self
                    .fn_body(&segs, Some(adt), scope)
                    .ok_or_else(|| cannot(expr, "unknown function"))??;
                self.eval_struct(body, adt, &fn_scope)
            }
            Expr::Call(call) => {
                // A tuple struct constructor: `Wrapper(a, b)`.
                let mut out = Vec::new();
                for (i, (f, a)) in s.fields.iter().zip(call.args.iter()).enumerate() {
                    let ty = self.resolve(&f.ty, &adt_scope)?;
                    out.push((i.to_string(), self.eval(a, Some(&ty), scope)?));
                }
                Ok(out)
            }
            _ => Err(cannot(expr, "unsupported expression for a struct value")),
        }
    }

    fn path_is_adt(&self, segs: &[String], adt: &Adt, scope: &Scope) -> bool {
        matches!(self.ix.resolve(&scope.module, segs, Ns::Type), Some(Target::Local(l)) if l == adt.loc)
    }

    /// A zero-argument function (`path` or `Self::name`/`Type::name`) whose
    /// body is one expression: the body and its scope.
    fn fn_body(
        &self,
        segs: &[String],
        self_adt: Option<&Adt>,
        scope: &Scope,
    ) -> Option<PResult<(&Expr, Scope)>> {
        // Free function.
        if let Some(Target::Local(loc)) = self.ix.resolve(&scope.module, segs, Ns::Value) {
            if let syn::Item::Fn(f) = self.ix.item(&loc) {
                let fn_scope = Scope::new(&loc.module, self.ix.file_of(&loc));
                return Some(match tail_expr(&f.block) {
                    Some(e) => Ok((e, fn_scope)),
                    None => Err(
                        cannot(&f.block, "the function body must be a single expression").at(
                            self.ix.file_of(&loc),
                            self.ix.line_in(self.ix.file_of(&loc), &f.sig.ident),
                        ),
                    ),
                });
            }
        }
        // Associated function of a type of the crate.
        if segs.len() >= 2 {
            let (name, ty_segs) = segs.split_last()?;
            let target_loc: ItemLoc = if ty_segs == ["Self"] {
                self_adt?.loc.clone()
            } else {
                match self.ix.resolve(&scope.module, ty_segs, Ns::Type)? {
                    Target::Local(l) => l,
                    Target::External(_) => return None,
                }
            };
            let imp = self.ix.inherent_fn(&target_loc, name, 0)?.0;
            let adt_scope = match self_adt {
                Some(a) if a.loc == target_loc => self.adt_scope(a).ok()?,
                _ => Scope::new(&target_loc.module, self.ix.file_of(&target_loc)),
            };
            return Some(match tail_expr(&imp.block) {
                Some(e) => Ok((e, adt_scope)),
                None => Err(cannot(
                    &imp.block,
                    "the function body must be a single expression",
                )),
            });
        }
        None
    }

    /// Evaluates `expr` (written in `scope`) to the JSON its value serialises to.
    pub(crate) fn eval(&self, expr: &Expr, expected: Option<&Ty>, scope: &Scope) -> PResult<Value> {
        let depth = self.resolve_depth.get();
        if depth > 64 {
            return Err(cannot(expr, "the value refers to itself without end"));
        }
        self.resolve_depth.set(depth + 1);
        let r = self.eval_inner(expr, expected, scope);
        self.resolve_depth.set(depth);
        r
    }

    fn eval_inner(&self, expr: &Expr, expected: Option<&Ty>, scope: &Scope) -> PResult<Value> {
        let inner_of = |t: Option<&Ty>| -> Option<Ty> {
            match t {
                Some(Ty::Option(i))
                | Some(Ty::Seq(i))
                | Some(Ty::Set(i))
                | Some(Ty::Array(i, _)) => Some((**i).clone()),
                _ => None,
            }
        };
        match expr {
            Expr::Lit(l) => {
                lit_value(&l.lit, expected).ok_or_else(|| cannot(expr, "unsupported literal"))
            }
            Expr::Paren(p) => self.eval(&p.expr, expected, scope),
            Expr::Group(g) => self.eval(&g.expr, expected, scope),
            Expr::Reference(r) => self.eval(&r.expr, expected, scope),
            Expr::Cast(c) => {
                let ty = self.resolve(&c.ty, scope)?;
                self.eval(&c.expr, Some(&ty), scope)
            }
            Expr::Unary(u) => {
                let v = self.eval(&u.expr, expected, scope)?;
                match (&u.op, v) {
                    (syn::UnOp::Neg(_), Value::Number(n)) => {
                        if let Some(i) = n.as_i64() {
                            Ok(Value::from(-i))
                        } else if let Some(u) = n.as_u64() {
                            Ok(Value::from(-(u as i128) as i64))
                        } else {
                            Ok(number(-n.as_f64().unwrap_or(0.0)))
                        }
                    }
                    (syn::UnOp::Not(_), Value::Bool(b)) => Ok(Value::Bool(!b)),
                    (syn::UnOp::Deref(_), v) => Ok(v),
                    _ => Err(cannot(expr, "unsupported operator")),
                }
            }
            Expr::Block(b) => match tail_expr(&b.block) {
                Some(e) => self.eval(e, expected, scope),
                None => Err(cannot(expr, "a block must be a single expression")),
            },
            Expr::Array(a) => {
                let inner = inner_of(expected);
                let mut out = Vec::new();
                for e in &a.elems {
                    out.push(self.eval(e, inner.as_ref(), scope)?);
                }
                Ok(Value::Array(out))
            }
            Expr::Tuple(t) => {
                let tys: Vec<Option<Ty>> = match expected {
                    Some(Ty::Tuple(ts)) => ts.iter().cloned().map(Some).collect(),
                    _ => vec![None; t.elems.len()],
                };
                let mut out = Vec::new();
                for (e, ty) in t.elems.iter().zip(tys) {
                    out.push(self.eval(e, ty.as_ref(), scope)?);
                }
                if out.is_empty() {
                    return Ok(Value::Null);
                }
                Ok(Value::Array(out))
            }
            Expr::Macro(m) => {
                let name = m
                    .mac
                    .path
                    .segments
                    .last()
                    .map(|s| s.ident.to_string())
                    .unwrap_or_default();
                match name.as_str() {
                    "vec" => {
                        let inner = inner_of(expected);
                        let elems = m
                            .mac
                            .parse_body_with(Punctuated::<Expr, Token![,]>::parse_terminated)
                            .map_err(|_| cannot(expr, "unsupported `vec!` form"))?;
                        let mut out = Vec::new();
                        for e in &elems {
                            out.push(self.eval(e, inner.as_ref(), scope)?);
                        }
                        Ok(Value::Array(out))
                    }
                    "format" | "concat" => {
                        let args = m
                            .mac
                            .parse_body_with(Punctuated::<Expr, Token![,]>::parse_terminated)
                            .map_err(|_| cannot(expr, "unsupported macro form"))?;
                        let mut s = String::new();
                        for (i, a) in args.iter().enumerate() {
                            if name == "format" && i > 0 {
                                return Err(cannot(expr, "`format!` with arguments"));
                            }
                            match self.eval(a, None, scope)? {
                                Value::String(x) if name == "format" && x.contains('{') => {
                                    return Err(cannot(expr, "`format!` with placeholders"))
                                }
                                Value::String(x) => s.push_str(&x),
                                other => s.push_str(&other.to_string()),
                            }
                        }
                        Ok(Value::String(s))
                    }
                    _ => Err(cannot(expr, "unsupported macro")),
                }
            }
            Expr::Path(p) => self.eval_path(expr, &p.path, expected, scope),
            Expr::MethodCall(mc) => {
                let m = mc.method.to_string();
                if mc.args.is_empty()
                    && matches!(
                        m.as_str(),
                        "to_string"
                            | "to_owned"
                            | "into"
                            | "clone"
                            | "to_vec"
                            | "to_path_buf"
                            | "into_boxed_str"
                            | "as_str"
                            | "as_ref"
                    )
                {
                    self.eval(&mc.receiver, expected, scope)
                } else {
                    Err(cannot(expr, "unsupported method call"))
                }
            }
            Expr::Struct(st) => {
                let Some(Ty::Adt(adt)) = expected else {
                    return Err(cannot(
                        expr,
                        "a struct literal where another type is expected",
                    ));
                };
                let _ = st;
                let fields = self.eval_struct(expr, adt, scope)?;
                self.serialize_struct(adt, &fields)
            }
            Expr::Call(call) => self.eval_call(expr, call, expected, scope),
            _ => Err(cannot(expr, "unsupported expression")),
        }
    }

    fn eval_call(
        &self,
        expr: &Expr,
        call: &syn::ExprCall,
        expected: Option<&Ty>,
        scope: &Scope,
    ) -> PResult<Value> {
        let Expr::Path(p) = call.func.as_ref() else {
            return Err(cannot(expr, "unsupported call"));
        };
        let segs = segments(&p.path);
        let last = segs.last().cloned().unwrap_or_default();
        let args: Vec<&Expr> = call.args.iter().collect();
        match (last.as_str(), args.as_slice()) {
            ("Some", [a]) => {
                let inner = match expected {
                    Some(Ty::Option(i)) => Some((**i).clone()),
                    _ => None,
                };
                return self.eval(a, inner.as_ref(), scope);
            }
            ("from" | "new" | "Borrowed" | "Owned" | "into", [a]) if segs.len() <= 2 => {
                let is_external = segs.len() == 1
                    || matches!(
                        self.ix.resolve(&scope.module, &segs[..1], Ns::Type),
                        Some(Target::External(_)) | None
                    );
                if is_external {
                    return self.eval(a, expected, scope);
                }
            }
            ("with_capacity", [_]) | ("new", []) if segs.len() == 2 => {
                if let Some(Target::External(_)) =
                    self.ix.resolve(&scope.module, &segs[..1], Ns::Type)
                {
                    return match expected {
                        Some(t) => self.default_of(t),
                        None => Err(cannot(expr, "the type of this value is unknown")),
                    };
                }
            }
            ("default", []) => {
                let ty = if segs.len() >= 2 && segs[0] != "Default" && segs[0] != "Self" {
                    let text = segs[..segs.len() - 1].join("::");
                    Some(self.resolve_str(&text, scope, || self.ix.line_in(&scope.file, expr))?)
                } else {
                    expected.cloned()
                };
                return match ty {
                    Some(t) => self.default_of(&t),
                    None => Err(cannot(expr, "the type of this value is unknown")),
                };
            }
            _ => {}
        }
        // A tuple struct constructor of the crate.
        if let Some(Ty::Adt(adt)) = expected {
            if self.path_is_adt(&segs, adt, scope) || (segs.len() == 1 && segs[0] == "Self") {
                let fields = self.eval_struct(expr, adt, scope)?;
                return self.serialize_struct(adt, &fields);
            }
        }
        if args.is_empty() {
            if let Some(found) = self.fn_body(
                &segs,
                match expected {
                    Some(Ty::Adt(a)) => Some(a),
                    _ => None,
                },
                scope,
            ) {
                let (body, fn_scope) = found?;
                let ret = self.fn_return_type(&segs, scope).and_then(|r| r.ok());
                let want = ret.as_ref().or(expected);
                return self.eval(body, want, &fn_scope);
            }
        }
        Err(cannot(expr, "unsupported call"))
    }

    /// The declared return type of a free function, resolved in its module.
    fn fn_return_type(&self, segs: &[String], scope: &Scope) -> Option<PResult<Ty>> {
        let Some(Target::Local(loc)) = self.ix.resolve(&scope.module, segs, Ns::Value) else {
            return None;
        };
        let syn::Item::Fn(f) = self.ix.item(&loc) else {
            return None;
        };
        let syn::ReturnType::Type(_, ty) = &f.sig.output else {
            return None;
        };
        let fn_scope = Scope::new(&loc.module, self.ix.file_of(&loc));
        Some(self.resolve(ty, &fn_scope))
    }

    fn eval_path(
        &self,
        expr: &Expr,
        path: &syn::Path,
        expected: Option<&Ty>,
        scope: &Scope,
    ) -> PResult<Value> {
        let segs = segments(path);
        if segs.len() == 1 && segs[0] == "None" {
            return Ok(Value::Null);
        }
        // Integer bounds: `u32::MAX`.
        if segs.len() == 2 && (segs[1] == "MAX" || segs[1] == "MIN") {
            let v = match (segs[0].as_str(), segs[1].as_str()) {
                ("u8", "MAX") => Some(Value::from(u8::MAX)),
                ("u16", "MAX") => Some(Value::from(u16::MAX)),
                ("u32", "MAX") => Some(Value::from(u32::MAX)),
                ("u64", "MAX") => Some(Value::from(u64::MAX)),
                ("usize", "MAX") => Some(Value::from(usize::MAX as u64)),
                ("i8", "MAX") => Some(Value::from(i8::MAX)),
                ("i16", "MAX") => Some(Value::from(i16::MAX)),
                ("i32", "MAX") => Some(Value::from(i32::MAX)),
                ("i64", "MAX") => Some(Value::from(i64::MAX)),
                ("i8", "MIN") => Some(Value::from(i8::MIN)),
                ("i16", "MIN") => Some(Value::from(i16::MIN)),
                ("i32", "MIN") => Some(Value::from(i32::MIN)),
                ("i64", "MIN") => Some(Value::from(i64::MIN)),
                (_, "MIN") if segs[0].starts_with('u') => Some(Value::from(0)),
                _ => None,
            };
            if let Some(v) = v {
                return Ok(v);
            }
        }
        if let Some(Target::Local(loc)) = self.ix.resolve(&scope.module, &segs, Ns::Value) {
            match self.ix.item(&loc) {
                syn::Item::Const(c) => {
                    let cscope = Scope::new(&loc.module, self.ix.file_of(&loc));
                    let ty = self.resolve(&c.ty, &cscope)?;
                    return self.eval(&c.expr, Some(&ty), &cscope);
                }
                syn::Item::Static(s) => {
                    let cscope = Scope::new(&loc.module, self.ix.file_of(&loc));
                    let ty = self.resolve(&s.ty, &cscope)?;
                    return self.eval(&s.expr, Some(&ty), &cscope);
                }
                syn::Item::Struct(s) if matches!(s.fields, syn::Fields::Unit) => {
                    return Ok(Value::Null)
                }
                _ => {}
            }
        }
        // An enum variant: `Kind::A` or `Self::A`.
        if segs.len() >= 2 {
            let (variant, ty_segs) = segs.split_last().expect("two segments");
            let adt = if ty_segs == ["Self"] {
                match expected {
                    Some(Ty::Adt(a)) => Some(a.clone()),
                    _ => {
                        scope
                            .env
                            .iter()
                            .rev()
                            .find(|(n, _)| n == "Self")
                            .and_then(|(_, t)| match t {
                                Ty::Adt(a) => Some(a.clone()),
                                _ => None,
                            })
                    }
                }
            } else {
                match self.ix.resolve(&scope.module, ty_segs, Ns::Type) {
                    Some(Target::Local(loc))
                        if matches!(self.ix.item(&loc), syn::Item::Enum(_)) =>
                    {
                        let generics = match self.ix.item(&loc) {
                            syn::Item::Enum(e) => e.generics.type_params().count(),
                            _ => 0,
                        };
                        let args = match expected {
                            Some(Ty::Adt(a)) if a.loc == loc => a.args.clone(),
                            _ if generics == 0 => Vec::new(),
                            _ => {
                                return Err(cannot(
                                    expr,
                                    "a generic enum's variant outside its context",
                                ))
                            }
                        };
                        Some(Adt { loc, args })
                    }
                    _ => None,
                }
            };
            if let Some(adt) = adt {
                if matches!(self.ix.item(&adt.loc), syn::Item::Enum(_)) {
                    return self.serialize_unit_variant(&adt, variant);
                }
            }
        }
        Err(cannot(expr, "unknown constant or value"))
    }
}

/// `Option::is_none`, `Vec::is_empty`... applied to a serialised value.
fn builtin_predicate(name: &str, v: &Value) -> Option<bool> {
    Some(match name {
        "is_none" => v.is_null(),
        "is_some" => !v.is_null(),
        "is_empty" => match v {
            Value::String(s) => s.is_empty(),
            Value::Array(a) => a.is_empty(),
            Value::Object(o) => o.is_empty(),
            _ => false,
        },
        "not" => *v == Value::Bool(false),
        _ => return None,
    })
}

/// The JSON "zero" of the same kind as `v` (`T::default()` for common `T`).
fn zero_like(v: &Value) -> Value {
    match v {
        Value::Bool(_) => Value::Bool(false),
        Value::Number(n) if n.is_f64() => number(0.0),
        Value::Number(_) => Value::from(0),
        Value::String(_) => Value::String(String::new()),
        Value::Array(_) => Value::Array(Vec::new()),
        Value::Object(_) => Value::Object(Map::new()),
        Value::Null => Value::Null,
    }
}

fn numbers_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

/// Evaluates a one-expression predicate body (`!*b`, `*n == 0`, `v.is_empty()`,
/// `*t == T::default()`) with its parameter bound to `v`.
fn predicate_value(expr: &Expr, param: &str, v: &Value) -> Option<Value> {
    match expr {
        Expr::Paren(p) => predicate_value(&p.expr, param, v),
        Expr::Group(g) => predicate_value(&g.expr, param, v),
        Expr::Reference(r) => predicate_value(&r.expr, param, v),
        Expr::Path(p) if p.path.is_ident(param) => Some(v.clone()),
        Expr::Lit(l) => lit_value(&l.lit, None),
        Expr::Unary(u) => {
            let inner = predicate_value(&u.expr, param, v)?;
            match u.op {
                syn::UnOp::Deref(_) => Some(inner),
                syn::UnOp::Not(_) => Some(Value::Bool(!inner.as_bool()?)),
                _ => None,
            }
        }
        Expr::MethodCall(mc) if mc.args.is_empty() => {
            let recv = predicate_value(&mc.receiver, param, v)?;
            builtin_predicate(&mc.method.to_string(), &recv).map(Value::Bool)
        }
        Expr::Call(c) if c.args.is_empty() => match c.func.as_ref() {
            Expr::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "default") => {
                Some(zero_like(v))
            }
            _ => None,
        },
        Expr::Binary(b) => {
            let l = predicate_value(&b.left, param, v)?;
            let r = predicate_value(&b.right, param, v)?;
            match b.op {
                syn::BinOp::Eq(_) => Some(Value::Bool(numbers_equal(&l, &r))),
                syn::BinOp::Ne(_) => Some(Value::Bool(!numbers_equal(&l, &r))),
                syn::BinOp::And(_) => Some(Value::Bool(l.as_bool()? && r.as_bool()?)),
                syn::BinOp::Or(_) => Some(Value::Bool(l.as_bool()? || r.as_bool()?)),
                _ => None,
            }
        }
        _ => None,
    }
}

fn member(f: &syn::Field, i: usize) -> String {
    match &f.ident {
        Some(id) => id.to_string(),
        None => i.to_string(),
    }
}

/// A literal as the JSON its value serialises to, given the expected type.
fn lit_value(lit: &Lit, expected: Option<&Ty>) -> Option<Value> {
    let prim = match expected {
        Some(Ty::Prim(p)) => Some(*p),
        _ => None,
    };
    Some(match lit {
        Lit::Str(s) => Value::String(s.value()),
        Lit::Char(c) => Value::String(c.value().to_string()),
        Lit::Bool(b) => Value::Bool(b.value),
        Lit::Int(i) => {
            let suffix = i.suffix();
            let float = matches!(suffix, "f32" | "f64") || prim.is_some_and(Prim::is_float);
            if float {
                let v: f64 = i.base10_digits().parse().ok()?;
                if suffix == "f32" || prim == Some(Prim::F32) {
                    number((v as f32) as f64)
                } else {
                    number(v)
                }
            } else {
                let v: i128 = i.base10_digits().parse().ok()?;
                if let Ok(x) = i64::try_from(v) {
                    Value::from(x)
                } else {
                    Value::from(u64::try_from(v).ok()?)
                }
            }
        }
        Lit::Float(f) => {
            let v: f64 = f.base10_digits().parse().ok()?;
            if f.suffix() == "f32" || prim == Some(Prim::F32) {
                number((v as f32) as f64)
            } else {
                number(v)
            }
        }
        _ => return None,
    })
}
