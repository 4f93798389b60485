//! From a `syn::Type` written in some module to a resolved `Ty`: follows
//! `use` declarations and type aliases, substitutes generic arguments, and
//! recognises the std and foreign types schemars knows. Anything else is a
//! `Problem` naming the type and its line.

use std::path::{Path, PathBuf};

use super::attrs::{ContainerAttrs, FieldAttrs, WithAttr};
use super::builtin::{self, Known, Prim, Tz};
use super::error::{PResult, Problem};
use super::gen::{Adt, Gen, Ty};
use super::hand_impl::Hand;
use super::index::{ItemLoc, Ns, Target};

/// Where a type is written: its module, the generic parameters in scope and the file.
#[derive(Debug, Clone)]
pub(crate) struct Scope {
    pub module: Vec<String>,
    pub env: Vec<(String, Ty)>,
    pub file: PathBuf,
}

impl Scope {
    pub(crate) fn new(module: &[String], file: &Path) -> Self {
        Scope {
            module: module.to_vec(),
            env: Vec::new(),
            file: file.to_path_buf(),
        }
    }

    fn lookup(&self, name: &str) -> Option<&Ty> {
        self.env
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, t)| t)
    }
}

/// A type as written, for messages: `Vec<Foo>` rather than `Vec < Foo >`.
pub(crate) fn type_text(ty: &impl quote::ToTokens) -> String {
    let raw = ty.to_token_stream().to_string();
    let mut out = String::with_capacity(raw.len());
    let chars: Vec<char> = raw.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c == ' ' {
            let prev = if i > 0 { chars[i - 1] } else { ' ' };
            let next = chars.get(i + 1).copied().unwrap_or(' ');
            if matches!(prev, '<' | '&' | ':' | '(' | '[')
                || matches!(next, '<' | '>' | ',' | ':' | ')' | ']')
            {
                continue;
            }
        }
        out.push(c);
    }
    out
}

const MAX_RESOLVE_DEPTH: usize = 64;

impl Gen<'_> {
    pub(crate) fn unknown(
        &self,
        ty: &syn::Type,
        scope: &Scope,
        message: impl Into<String>,
    ) -> Problem {
        Problem::new(type_text(ty), message).at(&scope.file, self.ix.line_in(&scope.file, ty))
    }

    /// Resolves a type written in `scope`.
    pub(crate) fn resolve(&self, ty: &syn::Type, scope: &Scope) -> PResult<Ty> {
        let depth = self.resolve_depth.get();
        if depth > MAX_RESOLVE_DEPTH {
            return Err(self.unknown(ty, scope, "the type refers to itself without end"));
        }
        self.resolve_depth.set(depth + 1);
        let result = self.resolve_inner(ty, scope);
        self.resolve_depth.set(depth);
        result.map_err(|p| p.at(&scope.file, self.ix.line_in(&scope.file, ty)))
    }

    /// Resolves a type given as a string in an attribute (`with = "Type"`);
    /// `line` (of the attribute's node, asked only on failure) places errors.
    pub(crate) fn resolve_str(
        &self,
        text: &str,
        scope: &Scope,
        line: impl Fn() -> usize,
    ) -> PResult<Ty> {
        let ty: syn::Type = syn::parse_str(text)
            .map_err(|e| Problem::new(text, format!("not a type: {e}")).at(&scope.file, line()))?;
        self.resolve(&ty, scope).map_err(|p| match line() {
            0 => p,
            line => Problem {
                at: Some((scope.file.clone(), line)),
                ..p
            },
        })
    }

    fn resolve_inner(&self, ty: &syn::Type, scope: &Scope) -> PResult<Ty> {
        match ty {
            syn::Type::Path(tp) => {
                if tp.qself.is_some() {
                    return Err(self.unknown(
                        ty,
                        scope,
                        "qualified paths (`<T as Trait>::X`) are not supported",
                    ));
                }
                self.resolve_path(ty, &tp.path, scope)
            }
            syn::Type::Reference(r) => self.resolve(&r.elem, scope),
            syn::Type::Paren(p) => self.resolve(&p.elem, scope),
            syn::Type::Group(g) => self.resolve(&g.elem, scope),
            syn::Type::Slice(s) => Ok(Ty::Seq(Box::new(self.resolve(&s.elem, scope)?))),
            syn::Type::Array(a) => {
                let len = match self.eval(&a.len, Some(&Ty::Prim(Prim::Usize)), scope) {
                    Ok(serde_json::Value::Number(n)) if n.as_u64().is_some() => {
                        n.as_u64().unwrap_or(0) as usize
                    }
                    _ => {
                        return Err(self.unknown(
                            ty,
                            scope,
                            "the array length is not a number the generator can read",
                        ))
                    }
                };
                if len > 32 {
                    return Err(self.unknown(
                        ty,
                        scope,
                        "schemars implements `JsonSchema` for arrays of at most 32 elements",
                    ));
                }
                Ok(Ty::Array(Box::new(self.resolve(&a.elem, scope)?), len))
            }
            syn::Type::Tuple(t) => {
                if t.elems.is_empty() {
                    return Ok(Ty::Prim(Prim::Unit));
                }
                if t.elems.len() > 16 {
                    return Err(self.unknown(
                        ty,
                        scope,
                        "schemars implements `JsonSchema` for tuples of at most 16 elements",
                    ));
                }
                let elems: PResult<Vec<Ty>> =
                    t.elems.iter().map(|e| self.resolve(e, scope)).collect();
                Ok(Ty::Tuple(elems?))
            }
            _ => Err(self.unknown(ty, scope, "this kind of type has no JSON Schema")),
        }
    }

    fn type_args(&self, seg: &syn::PathSegment, scope: &Scope) -> PResult<Vec<Ty>> {
        let mut out = Vec::new();
        if let syn::PathArguments::AngleBracketed(ab) = &seg.arguments {
            for arg in &ab.args {
                if let syn::GenericArgument::Type(t) = arg {
                    out.push(self.resolve(t, scope)?);
                }
            }
        }
        Ok(out)
    }

    fn raw_type_args<'t>(&self, seg: &'t syn::PathSegment) -> Vec<&'t syn::Type> {
        let mut out = Vec::new();
        if let syn::PathArguments::AngleBracketed(ab) = &seg.arguments {
            for arg in &ab.args {
                if let syn::GenericArgument::Type(t) = arg {
                    out.push(t);
                }
            }
        }
        out
    }

    fn resolve_path(&self, ty: &syn::Type, path: &syn::Path, scope: &Scope) -> PResult<Ty> {
        let segs: Vec<String> = path
            .segments
            .iter()
            .map(|s| s.ident.to_string().trim_start_matches("r#").to_string())
            .collect();
        let last_seg = path
            .segments
            .last()
            .ok_or_else(|| self.unknown(ty, scope, "empty path"))?;
        if segs.len() == 1 && path.leading_colon.is_none() {
            if let Some(t) = scope.lookup(&segs[0]) {
                return Ok(t.clone());
            }
        }
        let target = if path.leading_colon.is_some() {
            Some(self.ix.resolve_absolute(&scope.module, &segs, Ns::Type))
        } else {
            self.ix.resolve(&scope.module, &segs, Ns::Type)
        };
        match target {
            Some(Target::Local(loc)) => {
                let args = self.type_args(last_seg, scope)?;
                self.local_type(ty, loc, args, scope)
            }
            Some(Target::External(full)) => self.external_type(ty, &full, last_seg, scope),
            None => Err(self.unknown(
                ty,
                scope,
                format!("`{}` does not name a type of this crate", segs.join("::")),
            )),
        }
    }

    fn external_type(
        &self,
        ty: &syn::Type,
        full: &[String],
        seg: &syn::PathSegment,
        scope: &Scope,
    ) -> PResult<Ty> {
        let Some(known) = builtin::known(full) else {
            return Err(self.unknown(
                ty,
                scope,
                format!(
                    "`{}` is not a type of this crate nor one schemars knows (std, serde_json, chrono, uuid, url)",
                    full.join("::")
                ),
            ));
        };
        let args = self.raw_type_args(seg);
        let arg = |i: usize| -> PResult<Ty> {
            match args.get(i) {
                Some(t) => self.resolve(t, scope),
                None => Err(self.unknown(ty, scope, "a generic argument is missing")),
            }
        };
        Ok(match known {
            Known::Prim(Prim::DateTime(_)) => {
                let tz = match args.first() {
                    Some(syn::Type::Path(p)) => {
                        let segs: Vec<String> = p
                            .path
                            .segments
                            .iter()
                            .map(|s| s.ident.to_string())
                            .collect();
                        match self.ix.resolve(&scope.module, &segs, Ns::Type) {
                            Some(Target::External(f)) => match builtin::known(&f) {
                                Some(Known::TimeZone(tz)) => tz,
                                _ => Tz::Other,
                            },
                            _ => Tz::Other,
                        }
                    }
                    _ => Tz::Other,
                };
                Ty::Prim(Prim::DateTime(tz))
            }
            Known::Prim(p) => Ty::Prim(p),
            Known::NonZero(n) => Ty::Prim(Prim::NonZero(n)),
            Known::Option => Ty::Option(Box::new(arg(0)?)),
            Known::Seq => Ty::Seq(Box::new(arg(0)?)),
            Known::Set => Ty::Set(Box::new(arg(0)?)),
            Known::Map => Ty::Map(Box::new(arg(0)?), Box::new(arg(1)?)),
            Known::JsonObject => {
                let value = if full.last().is_some_and(|l| l == "JsonObject") && !args.is_empty() {
                    arg(0)?
                } else {
                    Ty::Prim(Prim::JsonValue)
                };
                Ty::Map(Box::new(Ty::Prim(Prim::Str)), Box::new(value))
            }
            Known::Wrapper => arg(0)?,
            Known::Result => Ty::Result(Box::new(arg(0)?), Box::new(arg(1)?)),
            Known::Range => Ty::Range(Box::new(arg(0)?)),
            Known::Bound => Ty::Bound(Box::new(arg(0)?)),
            Known::Phantom => Ty::Prim(Prim::Unit),
            Known::Either => Ty::Either(Box::new(arg(0)?), Box::new(arg(1)?)),
            Known::SmallVec => match args.first() {
                Some(syn::Type::Array(a)) => Ty::Seq(Box::new(self.resolve(&a.elem, scope)?)),
                _ => return Err(self.unknown(ty, scope, "expected `SmallVec<[T; N]>`")),
            },
            Known::ArrayVec => {
                let cap = match &seg.arguments {
                    syn::PathArguments::AngleBracketed(ab) => {
                        ab.args.iter().find_map(|a| match a {
                            syn::GenericArgument::Const(e) => Some(e),
                            _ => None,
                        })
                    }
                    _ => None,
                };
                let cap = match cap.map(|e| self.eval(e, Some(&Ty::Prim(Prim::Usize)), scope)) {
                    Some(Ok(serde_json::Value::Number(n))) if n.as_u64().is_some() => {
                        n.as_u64().unwrap_or(0) as usize
                    }
                    _ => {
                        return Err(self.unknown(
                            ty,
                            scope,
                            "the capacity of `ArrayVec` is not a number the generator can read",
                        ))
                    }
                };
                Ty::BoundedSeq(Box::new(arg(0)?), cap)
            }
            Known::TimeZone(_) => {
                return Err(self.unknown(
                    ty,
                    scope,
                    "a time zone marker has no JSON Schema of its own",
                ))
            }
        })
    }

    fn local_type(
        &self,
        ty: &syn::Type,
        loc: ItemLoc,
        args: Vec<Ty>,
        scope: &Scope,
    ) -> PResult<Ty> {
        match self.ix.item(&loc) {
            syn::Item::Type(alias) => {
                let alias_scope = self.generic_scope(&loc, &alias.generics, args, None)?;
                self.resolve(&alias.ty, &alias_scope)
            }
            syn::Item::Struct(_) | syn::Item::Enum(_) => {
                let generics = match self.ix.item(&loc) {
                    syn::Item::Struct(s) => &s.generics,
                    syn::Item::Enum(e) => &e.generics,
                    _ => unreachable!(),
                };
                let full_args = self.fill_defaults(&loc, generics, args)?;
                self.make_adt(Adt {
                    loc,
                    args: full_args,
                })
            }
            _ => Err(self.unknown(ty, scope, "this path names an item that is not a type")),
        }
    }

    fn fill_defaults(
        &self,
        loc: &ItemLoc,
        generics: &syn::Generics,
        mut args: Vec<Ty>,
    ) -> PResult<Vec<Ty>> {
        let params: Vec<&syn::TypeParam> = generics.type_params().collect();
        if args.len() > params.len() {
            args.truncate(params.len());
        }
        while args.len() < params.len() {
            let p = params[args.len()];
            match &p.default {
                Some(d) => {
                    let s = self.generic_scope(loc, generics, args.clone(), None)?;
                    args.push(self.resolve(d, &s)?);
                }
                None => {
                    return Err(Problem::new(
                        p.ident.to_string(),
                        "the generic parameter has no argument here",
                    )
                    .at(
                        self.ix.file_of(loc),
                        self.ix.line_in(self.ix.file_of(loc), &p.ident),
                    ))
                }
            }
        }
        Ok(args)
    }

    /// The scope inside an item: its module, its generic parameters bound to `args`.
    pub(crate) fn generic_scope(
        &self,
        loc: &ItemLoc,
        generics: &syn::Generics,
        args: Vec<Ty>,
        self_ty: Option<Ty>,
    ) -> PResult<Scope> {
        let mut scope = Scope::new(&loc.module, self.ix.file_of(loc));
        for (p, a) in generics.type_params().zip(args) {
            scope.env.push((p.ident.to_string(), a));
        }
        if let Some(s) = self_ty {
            scope.env.push(("Self".into(), s));
        }
        Ok(scope)
    }

    pub(crate) fn adt_scope(&self, adt: &Adt) -> PResult<Scope> {
        let generics = match self.ix.item(&adt.loc) {
            syn::Item::Struct(s) => &s.generics,
            syn::Item::Enum(e) => &e.generics,
            _ => unreachable!("an Adt is a struct or an enum"),
        };
        self.generic_scope(
            &adt.loc,
            generics,
            adt.args.clone(),
            Some(Ty::Adt(adt.clone())),
        )
    }

    pub(crate) fn adt_ident(&self, adt: &Adt) -> String {
        match self.ix.item(&adt.loc) {
            syn::Item::Struct(s) => s.ident.to_string(),
            syn::Item::Enum(e) => e.ident.to_string(),
            _ => String::new(),
        }
    }

    /// The container attributes of a struct or enum (parsed once per item).
    pub(crate) fn adt_attrs(&self, adt: &Adt) -> PResult<std::rc::Rc<ContainerAttrs>> {
        if let Some(a) = self.attrs_cache.borrow().get(&adt.loc) {
            return Ok(a.clone());
        }
        let parsed = std::rc::Rc::new(self.parse_adt_attrs(adt)?);
        self.attrs_cache
            .borrow_mut()
            .insert(adt.loc.clone(), parsed.clone());
        Ok(parsed)
    }

    fn parse_adt_attrs(&self, adt: &Adt) -> PResult<ContainerAttrs> {
        let scope = self.adt_scope(adt)?;
        let (attrs, ident) = match self.ix.item(&adt.loc) {
            syn::Item::Struct(s) => (&s.attrs, &s.ident),
            syn::Item::Enum(e) => (&e.attrs, &e.ident),
            _ => unreachable!("an Adt is a struct or an enum"),
        };
        ContainerAttrs::parse(attrs, &ident.to_string(), &mut |e| {
            self.eval(e, None, &scope)
        })
        .map_err(|p| p.at(&scope.file, self.ix.line_in(&scope.file, ident)))
    }

    pub(crate) fn field_attrs(
        &self,
        field: &syn::Field,
        index: usize,
        container_has_default: bool,
        scope: &Scope,
    ) -> PResult<FieldAttrs> {
        let ident = match &field.ident {
            Some(i) => i.to_string(),
            None => index.to_string(),
        };
        FieldAttrs::parse(&field.attrs, &ident, container_has_default, &mut |e| {
            self.eval(e, None, scope)
        })
        .map_err(|p| p.at(&scope.file, self.ix.line_in(&scope.file, field)))
    }

    pub(crate) fn adt_inline(&self, adt: &Adt) -> PResult<bool> {
        if let Some(literal) = self.hand_literal(adt) {
            return Ok(literal.inline);
        }
        Ok(self.adt_attrs(adt)?.inline)
    }

    pub(crate) fn adt_name(&self, adt: &Adt) -> PResult<String> {
        if let Some(literal) = self.hand_literal(adt) {
            return Ok(literal.name.clone());
        }
        let attrs = self.adt_attrs(adt)?;
        // schemars: the remote type's name, unless `#[schemars(rename = "...")]`.
        if let (Some(remote), None) = (&attrs.remote, &attrs.schema_rename) {
            return Ok(remote.clone());
        }
        let mut name = attrs.name.de.clone();
        if attrs.schema_rename.is_some() && name.contains('{') {
            let generics = match self.ix.item(&adt.loc) {
                syn::Item::Struct(s) => &s.generics,
                syn::Item::Enum(e) => &e.generics,
                _ => unreachable!(),
            };
            for (p, a) in generics.type_params().zip(&adt.args) {
                name = name.replace(&format!("{{{}}}", p.ident), &self.schema_name(a)?);
            }
        }
        Ok(name)
    }

    /// A struct or enum, or the type it forwards to entirely (schemars'
    /// `get_transparent_type`: `#[schemars(with)]` or `#[serde(transparent)]`
    /// without any metadata of its own).
    /// A type with a hand-written `impl JsonSchema` is what the impl makes
    /// it (its attributes mean nothing to schemars): the type it hands
    /// over to, or itself, its schema read when needed
    /// ([`super::hand_impl`]).
    fn make_adt(&self, adt: Adt) -> PResult<Ty> {
        let attrs = self.adt_attrs(&adt)?;
        if attrs.schema_override.is_some() {
            return Ok(Ty::Adt(adt));
        }
        match self.hand_impl(&adt.loc) {
            Ok(Some(Hand::Delegate(ty))) => return Ok(ty),
            Ok(Some(Hand::Literal(_))) | Err(_) => return Ok(Ty::Adt(adt)),
            Ok(None) => {}
        }
        if !attrs.common.is_default() {
            return Ok(Ty::Adt(adt));
        }
        let scope = self.adt_scope(&adt)?;
        if let Some(WithAttr::Type(t)) = &attrs.with {
            let line = || {
                self.ix
                    .line_in(self.ix.file_of(&adt.loc), self.adt_ident_token(&adt))
            };
            return self.resolve_str(t, &scope, line);
        }
        if attrs.transparent {
            if let syn::Item::Struct(s) = self.ix.item(&adt.loc) {
                let has_default = !attrs.default.is_none();
                for (i, f) in s.fields.iter().enumerate() {
                    let fa = self.field_attrs(f, i, has_default, &scope)?;
                    if !fa.skip_de {
                        if fa.is_default() && fa.schema_override.is_none() {
                            return self.resolve(&f.ty, &scope);
                        }
                        break;
                    }
                }
            }
        }
        Ok(Ty::Adt(adt))
    }

    pub(crate) fn adt_ident_token(&self, adt: &Adt) -> &syn::Ident {
        match self.ix.item(&adt.loc) {
            syn::Item::Struct(s) => &s.ident,
            syn::Item::Enum(e) => &e.ident,
            _ => unreachable!("an Adt is a struct or an enum"),
        }
    }
}
