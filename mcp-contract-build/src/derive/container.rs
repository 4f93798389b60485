//! Structs and enums: a port of what `#[derive(JsonSchema)]` generates
//! (schemars_derive's `schema_exprs`), evaluated at build time from the
//! source instead of at run time from compiled code.

use serde_json::{json, Value};

use super::attrs::{
    insert, ContainerAttrs, FieldAttrs, SerdeDefault, TagType, VariantAttrs, WithAttr,
};
use super::error::{Hatch, PResult, Problem};
use super::gen::{Adt, Gen, Ty};
use super::hand_impl::Hand;
use super::helpers::{
    allow_unknown_properties, apply_internal_tag, flatten, flatten_field_schema, insert_property,
};
use super::resolve::{type_text, Scope};
use super::Contract;

/// A field with its attributes (names already renamed by `rename_all`).
pub(crate) struct FieldInfo<'a> {
    pub field: &'a syn::Field,
    pub member: String,
    pub attrs: FieldAttrs,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    Unit,
    Newtype,
    Tuple,
    Struct,
}

fn style(fields: &syn::Fields) -> Style {
    match fields {
        syn::Fields::Named(_) => Style::Struct,
        syn::Fields::Unnamed(u) if u.unnamed.len() == 1 => Style::Newtype,
        syn::Fields::Unnamed(_) => Style::Tuple,
        syn::Fields::Unit => Style::Unit,
    }
}

struct VariantInfo<'a> {
    variant: &'a syn::Variant,
    attrs: VariantAttrs,
    fields: Vec<FieldInfo<'a>>,
    style: Style,
}

impl<'a> Gen<'a> {
    fn contract_allows(&self, skip_ser: bool, skip_de: bool) -> bool {
        match (skip_de, skip_ser) {
            (true, true) => false,
            (true, false) => self.contract == Contract::Serialize,
            (false, true) => self.contract == Contract::Deserialize,
            (false, false) => true,
        }
    }

    pub(crate) fn prepare_fields(
        &self,
        fields: &'a syn::Fields,
        rules: (super::case::RenameRule, super::case::RenameRule),
        container_has_default: bool,
        scope: &Scope,
    ) -> PResult<Vec<FieldInfo<'a>>> {
        let mut out = Vec::new();
        for (i, field) in fields.iter().enumerate() {
            let mut attrs = self.field_attrs(field, i, container_has_default, scope)?;
            attrs.name.rename_field(rules);
            let member = match &field.ident {
                Some(id) => id.to_string(),
                None => i.to_string(),
            };
            out.push(FieldInfo {
                field,
                member,
                attrs,
            });
        }
        Ok(out)
    }

    /// The type whose schema a field uses (`with` replaces the field's own type).
    fn field_ty(&self, f: &FieldInfo<'_>, scope: &Scope) -> PResult<Ty> {
        if let Some(v) = &f.attrs.schema_override {
            return Ok(Ty::Override(Box::new(v.clone())));
        }
        match &f.attrs.with {
            Some(WithAttr::Type(t)) => {
                self.resolve_str(t, scope, || self.ix.line_in(&scope.file, f.field))
            }
            Some(WithAttr::Function(func)) => {
                self.schema_with(func, (&type_text(&f.field.ty), Hatch::Field), scope, || {
                    self.ix.line_in(&scope.file, f.field)
                })
            }
            None => self.resolve(&f.field.ty, scope),
        }
    }

    /// `_schemars_private_is_option()` of the field's schema type.
    fn field_is_option(&self, f: &FieldInfo<'_>, scope: &Scope) -> PResult<bool> {
        if f.attrs.schema_override.is_some() {
            return Ok(match self.resolve(&f.field.ty, scope) {
                Ok(t) => self.is_option(&t),
                Err(_) => matches!(&f.field.ty, syn::Type::Path(p)
                    if p.path.segments.last().is_some_and(|s| s.ident == "Option")),
            });
        }
        Ok(self.is_option(&self.field_ty(f, scope)?))
    }

    /// schemars' `expr_for_field`, with the `default` and post-mutators applied.
    fn field_schema(
        &mut self,
        f: &FieldInfo<'_>,
        internal_newtype: bool,
        default: Option<Value>,
        scope: &Scope,
    ) -> PResult<Value> {
        let ty = self.field_ty(f, scope)?;
        if let Ty::Override(v) = ty {
            return Ok(*v);
        }
        let mut s = if f.attrs.validation.required {
            self.non_optional_json_schema(&ty)?
        } else if internal_newtype {
            self.internally_tagged_newtype(&ty)?
        } else {
            self.subschema_for(&ty)?
        };
        f.attrs.common.apply(&mut s);
        f.attrs.validation.apply(&mut s);
        if f.attrs.skip_de {
            insert(&mut s, "readOnly", Value::Bool(true));
        }
        if f.attrs.skip_ser {
            insert(&mut s, "writeOnly", Value::Bool(true));
        }
        if let Some(d) = default {
            insert(&mut s, "default", d);
        }
        f.attrs.common.apply_post(&mut s);
        Ok(s)
    }

    /// `json_schema_for_internally_tagged_enum_newtype_variant`.
    fn internally_tagged_newtype(&mut self, ty: &Ty) -> PResult<Value> {
        let mut schema = self.json_schema(ty)?;
        let modified = allow_unknown_properties(&mut schema, false);
        let denies = |k: &str| schema.get(k).and_then(Value::as_bool) == Some(false);
        if self.inline(ty)?
            || schema.get("type").and_then(Value::as_str) == Some("null")
            || denies("additionalProperties")
            || denies("unevaluatedProperties")
            || modified
        {
            return Ok(schema);
        }
        self.subschema_for(ty)
    }

    /// The schema of a struct or enum of the crate (`JsonSchema::json_schema`).
    pub(crate) fn adt_schema(&mut self, adt: &Adt) -> PResult<Value> {
        let ix = self.ix;
        let attrs = self.adt_attrs(adt)?;
        let scope = self.adt_scope(adt)?;
        let item: &'a syn::Item = ix.item(&adt.loc);
        let what = self.adt_ident(adt);
        if let Some(attr) = super::attrs::uncompiled_override(item) {
            return Err(Problem::new(
                &what,
                format!(
                    "`#[mcp_contract(schema = ...)]` here does not compile: `{what}` is neither a \
                     `#[mcp_contract::tool]` argument struct nor marked `#[mcp_contract::schema]`"
                ),
            )
            .with_escape("", Hatch::Unmarked(what.clone()))
            .at(&scope.file, self.ix.line_in(&scope.file, attr)));
        }
        if let Some(v) = &attrs.schema_override {
            return Ok(v.clone());
        }
        // Asked only when something fails.
        let ident_line = || {
            self.ix
                .line_in(self.ix.file_of(&adt.loc), self.adt_ident_token(adt))
        };
        match self.hand_impl(&adt.loc)? {
            Some(Hand::Literal(literal)) => return Ok(literal.schema.clone()),
            Some(Hand::Delegate(ty)) => return self.json_schema(&ty),
            None => {}
        }
        if let syn::Item::Enum(e) = item {
            if super::defaults::derives(&e.attrs, "JsonSchema_repr") {
                let mut schema = self.repr_schema(e, &scope)?;
                attrs.common.apply(&mut schema);
                attrs.common.apply_post(&mut schema);
                return Ok(schema);
            }
        }
        let mut schema = if let Some(with) = &attrs.with {
            match with {
                WithAttr::Type(t) => {
                    let ty = self.resolve_str(t, &scope, ident_line)?;
                    self.json_schema(&ty)?
                }
                WithAttr::Function(f) => {
                    let ty = self.schema_with(f, (&what, Hatch::Type), &scope, ident_line)?;
                    self.json_schema(&ty)?
                }
            }
        } else if let Some(field) = self.transparent_field(item, &attrs, &scope)? {
            self.field_schema(&field, false, None, &scope)?
        } else {
            let from = match &attrs.from {
                Some(t) => Some(self.resolve_str(t, &scope, ident_line)?),
                None => None,
            };
            let into = match &attrs.into {
                Some(t) => Some(self.resolve_str(t, &scope, ident_line)?),
                None => None,
            };
            match (from, into, self.contract) {
                (Some(from), _, Contract::Deserialize) => self.json_schema(&from)?,
                (_, Some(into), Contract::Serialize) => self.json_schema(&into)?,
                _ => self.data_schema(item, &attrs, adt, &scope)?,
            }
        };
        attrs.common.apply(&mut schema);
        attrs.common.apply_post(&mut schema);
        Ok(schema)
    }

    /// `#[derive(JsonSchema_repr)]`: an integer `enum` of the discriminants.
    fn repr_schema(&self, e: &syn::ItemEnum, scope: &Scope) -> PResult<Value> {
        let has_repr = e.attrs.iter().any(|a| a.path().is_ident("repr"));
        if !has_repr {
            return Err(Problem::new(
                e.ident.to_string(),
                "`JsonSchema_repr` needs a `#[repr(...)]` attribute",
            )
            .at(&scope.file, self.ix.line_in(&scope.file, &e.ident)));
        }
        let mut values = Vec::new();
        let mut next: i128 = 0;
        for v in &e.variants {
            if !matches!(v.fields, syn::Fields::Unit) {
                return Err(Problem::new(
                    v.ident.to_string(),
                    "`JsonSchema_repr` variants must be unit variants",
                )
                .at(&scope.file, self.ix.line_in(&scope.file, &v.ident)));
            }
            if let Some((_, d)) = &v.discriminant {
                let value = self.eval(d, Some(&Ty::Prim(super::builtin::Prim::I64)), scope)?;
                next = value
                    .as_i64()
                    .map(i128::from)
                    .or_else(|| value.as_u64().map(i128::from))
                    .ok_or_else(|| {
                        Problem::new(v.ident.to_string(), "the discriminant is not an integer")
                            .at(&scope.file, self.ix.line_in(&scope.file, &v.ident))
                    })?;
            }
            values.push(match i64::try_from(next) {
                Ok(i) => Value::from(i),
                Err(_) => Value::from(next as u64),
            });
            next += 1;
        }
        Ok(json!({"type": "integer", "enum": values}))
    }

    fn transparent_field(
        &self,
        item: &'a syn::Item,
        attrs: &ContainerAttrs,
        scope: &Scope,
    ) -> PResult<Option<FieldInfo<'a>>> {
        if !attrs.transparent {
            return Ok(None);
        }
        let syn::Item::Struct(s) = item else {
            return Ok(None);
        };
        let fields =
            self.prepare_fields(&s.fields, attrs.rename_all, !attrs.default.is_none(), scope)?;
        Ok(fields.into_iter().find(|f| !f.attrs.skip_de))
    }

    fn data_schema(
        &mut self,
        item: &'a syn::Item,
        attrs: &ContainerAttrs,
        adt: &Adt,
        scope: &Scope,
    ) -> PResult<Value> {
        match item {
            syn::Item::Struct(s) => {
                let has_default = !attrs.default.is_none();
                let fields =
                    self.prepare_fields(&s.fields, attrs.rename_all, has_default, scope)?;
                match style(&s.fields) {
                    Style::Unit => self.subschema_for(&Ty::Prim(super::builtin::Prim::Unit)),
                    Style::Newtype => self.field_schema(&fields[0], false, None, scope),
                    Style::Tuple => self.tuple_schema(&fields, scope),
                    Style::Struct => self.struct_schema(
                        &fields,
                        &attrs.default,
                        attrs.deny_unknown_fields,
                        Some(adt),
                        scope,
                    ),
                }
            }
            syn::Item::Enum(e) => {
                let mut variants = Vec::new();
                for v in &e.variants {
                    let mut va = VariantAttrs::parse(&v.attrs, &v.ident.to_string(), &mut |x| {
                        self.eval(x, None, scope)
                    })
                    .map_err(|p| p.at(&scope.file, self.ix.line_in(&scope.file, &v.ident)))?;
                    va.name.rename_variant(attrs.rename_all);
                    let rules = (
                        va.rename_all.0.or(attrs.rename_all_fields.0),
                        va.rename_all.1.or(attrs.rename_all_fields.1),
                    );
                    let fields = self.prepare_fields(&v.fields, rules, false, scope)?;
                    variants.push(VariantInfo {
                        variant: v,
                        attrs: va,
                        fields,
                        style: style(&v.fields),
                    });
                }
                self.enum_schema(&variants, attrs, scope)
            }
            _ => unreachable!("an Adt is a struct or an enum"),
        }
    }

    fn tuple_schema(&mut self, fields: &[FieldInfo<'_>], scope: &Scope) -> PResult<Value> {
        let mut items = Vec::new();
        for f in fields {
            if self.contract_allows(f.attrs.skip_ser, f.attrs.skip_de) {
                items.push(self.field_schema(f, false, None, scope)?);
            }
        }
        let len = items.len();
        let mut map = serde_json::Map::new();
        map.insert("type".into(), "array".into());
        if !items.is_empty() {
            map.insert("prefixItems".into(), Value::Array(items));
            map.insert("minItems".into(), len.into());
        }
        map.insert("maxItems".into(), len.into());
        Ok(Value::Object(map))
    }

    fn struct_schema(
        &mut self,
        fields: &[FieldInfo<'_>],
        container_default: &SerdeDefault,
        deny_unknown_fields: bool,
        adt: Option<&Adt>,
        scope: &Scope,
    ) -> PResult<Value> {
        let mut schema = json!({"type": "object"});
        if deny_unknown_fields {
            insert(&mut schema, "additionalProperties", Value::Bool(false));
        }
        let container_has_default = !container_default.is_none();
        let mut struct_default: Option<Vec<(String, Value)>> = None;
        for f in fields {
            if !self.contract_allows(f.attrs.skip_ser, f.attrs.skip_de) {
                continue;
            }
            if f.attrs.flatten {
                let ty = self.field_ty(f, scope)?;
                let required = f.attrs.validation.required;
                let inner = if let Ty::Override(v) = &ty {
                    (**v).clone()
                } else {
                    self.non_optional_json_schema(&ty)?
                };
                let is_optional = self.is_option(&ty) && !required;
                flatten(&mut schema, flatten_field_schema(inner, is_optional));
                continue;
            }
            let default =
                self.field_default(f, container_default, adt, &mut struct_default, scope)?;
            let property = self.field_schema(f, false, default, scope)?;
            let has_default = container_has_default || !f.attrs.default.is_none();
            let has_skip_if = f.attrs.skip_ser_if.is_some();
            let required_attr = f.attrs.validation.required;
            let de = self.contract == Contract::Deserialize;
            let is_optional = if has_skip_if && has_default {
                true
            } else if !has_skip_if && !has_default && !required_attr {
                de && self.field_is_option(f, scope)?
            } else if de {
                has_default || (!required_attr && self.field_is_option(f, scope)?)
            } else {
                has_skip_if
            };
            let name = f.attrs.name.get(self.is_serialize_contract()).to_string();
            insert_property(&mut schema, &name, is_optional, property);
        }
        Ok(schema)
    }

    /// The `default` keyword of a field (schemars' `field_default_expr`).
    fn field_default(
        &self,
        f: &FieldInfo<'_>,
        container_default: &SerdeDefault,
        adt: Option<&Adt>,
        struct_default: &mut Option<Vec<(String, Value)>>,
        scope: &Scope,
    ) -> PResult<Option<Value>> {
        if f.attrs.skip_ser || (f.attrs.default.is_none() && container_default.is_none()) {
            return Ok(None);
        }
        if f.attrs.schema_override.is_some() {
            return Ok(None);
        }
        let at = |p: Problem| p.at(&scope.file, self.ix.line_in(&scope.file, f.field));
        let ty = self.resolve(&f.field.ty, scope)?;
        if !self.is_serialize(&ty)? {
            return Ok(None);
        }
        if f.attrs.serialize_with.is_some() {
            return Err(at(Problem::new(
                type_text(&f.field.ty),
                "the field's default is written with `serialize_with`/`with`, which cannot be run from source",
            )
            .with_escape(
                "write the default without `serialize_with`/`with`",
                Hatch::Field,
            )));
        }
        let value = match &f.attrs.default {
            SerdeDefault::None => {
                if struct_default.is_none() {
                    let Some(adt) = adt else {
                        return Ok(None);
                    };
                    let values = match container_default {
                        SerdeDefault::Path(p) => self.call_for_struct(p, adt, scope),
                        _ => self.adt_default_fields(adt),
                    }
                    .map_err(at)?;
                    *struct_default = Some(values);
                }
                struct_default
                    .as_ref()
                    .and_then(|v| v.iter().find(|(m, _)| *m == f.member))
                    .map(|(_, v)| v.clone())
                    .unwrap_or(Value::Null)
            }
            SerdeDefault::Default => self.default_of(&ty).map_err(at)?,
            SerdeDefault::Path(p) => self.call_path(p, &ty, scope).map_err(at)?,
        };
        if let Some(pred) = &f.attrs.skip_ser_if {
            if self.skip_predicate(pred, &value, scope).map_err(at)? {
                return Ok(None);
            }
        }
        Ok(Some(value))
    }

    fn enum_schema(
        &mut self,
        variants: &[VariantInfo<'_>],
        attrs: &ContainerAttrs,
        scope: &Scope,
    ) -> PResult<Value> {
        if variants.is_empty() {
            return Ok(Value::Bool(false));
        }
        let deny = attrs.deny_unknown_fields;
        match &attrs.tag {
            TagType::External => self.external_enum(variants, deny, scope),
            TagType::None => {
                let mut schemas = Vec::new();
                for v in variants {
                    if self.contract_allows(v.attrs.skip_ser, v.attrs.skip_de) {
                        schemas.push(self.untagged_variant(v, deny, true, scope)?);
                    }
                }
                Ok(json!({ "anyOf": schemas }))
            }
            TagType::Internal(tag) => {
                let mut schemas = Vec::new();
                for v in variants {
                    if !self.contract_allows(v.attrs.skip_ser, v.attrs.skip_de) {
                        continue;
                    }
                    if v.attrs.untagged {
                        schemas.push(self.untagged_variant(v, deny, true, scope)?);
                        continue;
                    }
                    let mut s = self.internal_variant(v, deny, scope)?;
                    let name = v.attrs.name.get(self.is_serialize_contract()).to_string();
                    apply_internal_tag(&mut s, tag, &name, deny);
                    v.attrs.common.apply(&mut s);
                    v.attrs.common.apply_post(&mut s);
                    schemas.push(s);
                }
                Ok(one_or_any(variants, schemas))
            }
            TagType::Adjacent(tag, content) => {
                let mut schemas = Vec::new();
                for v in variants {
                    if !self.contract_allows(v.attrs.skip_ser, v.attrs.skip_de) {
                        continue;
                    }
                    if v.attrs.untagged {
                        schemas.push(self.untagged_variant(v, deny, true, scope)?);
                        continue;
                    }
                    let content_schema = if v.style == Style::Unit && v.attrs.with.is_none() {
                        None
                    } else {
                        Some(self.untagged_variant(v, deny, false, scope)?)
                    };
                    let name = v.attrs.name.get(self.is_serialize_contract()).to_string();
                    let mut properties = serde_json::Map::new();
                    properties.insert(tag.clone(), json!({"type": "string", "const": name}));
                    let mut required = vec![Value::String(tag.clone())];
                    if let Some(c) = content_schema {
                        properties.insert(content.clone(), c);
                        required.push(Value::String(content.clone()));
                    }
                    let mut s =
                        json!({"type": "object", "properties": properties, "required": required});
                    if deny {
                        insert(&mut s, "additionalProperties", Value::Bool(false));
                    }
                    v.attrs.common.apply(&mut s);
                    v.attrs.common.apply_post(&mut s);
                    schemas.push(s);
                }
                Ok(one_or_any(variants, schemas))
            }
        }
    }

    fn external_enum(
        &mut self,
        variants: &[VariantInfo<'_>],
        deny: bool,
        scope: &Scope,
    ) -> PResult<Value> {
        let is_simple_unit = |v: &VariantInfo<'_>| {
            v.style == Style::Unit && v.attrs.is_default() && !v.attrs.untagged
        };
        let ser = self.is_serialize_contract();
        let unit_names: Vec<Value> = variants
            .iter()
            .filter(|v| {
                is_simple_unit(v) && self.contract_allows(v.attrs.skip_ser, v.attrs.skip_de)
            })
            .map(|v| Value::String(v.attrs.name.get(ser).to_string()))
            .collect();
        let unit_schema = json!({"type": "string", "enum": unit_names});
        let complex: Vec<&VariantInfo<'_>> =
            variants.iter().filter(|v| !is_simple_unit(v)).collect();
        if complex.is_empty() {
            return Ok(unit_schema);
        }
        let mut schemas = Vec::new();
        if variants.iter().any(is_simple_unit) {
            schemas.push(unit_schema);
        }
        for v in complex {
            if !self.contract_allows(v.attrs.skip_ser, v.attrs.skip_de) {
                continue;
            }
            if v.attrs.untagged {
                schemas.push(self.untagged_variant(v, deny, true, scope)?);
                continue;
            }
            let name = v.attrs.name.get(ser).to_string();
            let mut s = if v.style == Style::Unit && v.attrs.with.is_none() {
                json!({"type": "string", "const": name})
            } else {
                let sub = self.untagged_variant(v, deny, false, scope)?;
                json!({
                    "type": "object",
                    "properties": { name.clone(): sub },
                    "required": [name],
                    "additionalProperties": false
                })
            };
            v.attrs.common.apply(&mut s);
            v.attrs.common.apply_post(&mut s);
            schemas.push(s);
        }
        Ok(one_or_any(variants, schemas))
    }

    fn variant_with(&self, v: &VariantInfo<'_>, scope: &Scope) -> PResult<Option<Ty>> {
        match &v.attrs.with {
            None => Ok(None),
            Some(WithAttr::Type(t)) => {
                Ok(Some(self.resolve_str(t, scope, || {
                    self.ix.line_in(&scope.file, &v.variant.ident)
                })?))
            }
            // A variant's schema is not given alone: the enum's is.
            Some(WithAttr::Function(f)) => Ok(Some(self.schema_with(
                f,
                (&v.variant.ident.to_string(), Hatch::Type),
                scope,
                || self.ix.line_in(&scope.file, &v.variant.ident),
            )?)),
        }
    }

    fn untagged_variant(
        &mut self,
        v: &VariantInfo<'_>,
        deny: bool,
        actually_untagged: bool,
        scope: &Scope,
    ) -> PResult<Value> {
        let mut s = if let Some(ty) = self.variant_with(v, scope)? {
            self.subschema_for(&ty)?
        } else {
            match v.style {
                Style::Unit => self.subschema_for(&Ty::Prim(super::builtin::Prim::Unit))?,
                Style::Newtype => self.field_schema(&v.fields[0], false, None, scope)?,
                Style::Tuple => self.tuple_schema(&v.fields, scope)?,
                Style::Struct => {
                    self.struct_schema(&v.fields, &SerdeDefault::None, deny, None, scope)?
                }
            }
        };
        if actually_untagged {
            v.attrs.common.apply(&mut s);
            v.attrs.common.apply_post(&mut s);
        }
        Ok(s)
    }

    fn internal_variant(
        &mut self,
        v: &VariantInfo<'_>,
        deny: bool,
        scope: &Scope,
    ) -> PResult<Value> {
        if let Some(ty) = self.variant_with(v, scope)? {
            return self.json_schema(&ty);
        }
        match v.style {
            Style::Unit => self.subschema_for(&Ty::Prim(super::builtin::Prim::Unit)),
            Style::Newtype => self.field_schema(&v.fields[0], true, None, scope),
            Style::Tuple => self.tuple_schema(&v.fields, scope),
            Style::Struct => self.struct_schema(&v.fields, &SerdeDefault::None, deny, None, scope),
        }
    }
}

/// `variant_subschemas`: `oneOf`, or `anyOf` as soon as one variant is untagged.
fn one_or_any(variants: &[VariantInfo<'_>], schemas: Vec<Value>) -> Value {
    let keyword = if variants.iter().any(|v| v.attrs.untagged) {
        "anyOf"
    } else {
        "oneOf"
    };
    json!({ keyword: schemas })
}
