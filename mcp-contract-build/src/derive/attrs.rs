//! Reads the `#[serde]`, `#[schemars]`, `#[validate]`, `#[garde]`, doc and
//! `#[mcp_contract(schema = "...")]` attributes of a container, variant or
//! field, with schemars' precedence rules (a `#[schemars(...)]` keyword
//! overrides the same `#[serde(...)]` keyword).

use std::collections::BTreeSet;

use serde_json::Value;
use syn::punctuated::Punctuated;
use syn::{Attribute, Expr, ExprLit, Lit, Meta, Token};

use super::case::RenameRule;
use super::docs;
use super::error::{PResult, Problem};

/// Evaluates an attribute expression (a literal, a `const`...) to JSON.
pub(crate) type Eval<'e> = &'e mut dyn FnMut(&Expr) -> PResult<Value>;

/// serde keywords schemars hands to serde_derive_internals when they appear in `#[schemars]`.
const SCHEMARS_KEYWORDS_PARSED_BY_SERDE: &[&str] = &[
    "rename",
    "rename_all",
    "rename_all_fields",
    "deny_unknown_fields",
    "tag",
    "content",
    "untagged",
    "default",
    "skip",
    "skip_serializing",
    "skip_serializing_if",
    "skip_deserializing",
    "flatten",
    "remote",
    "transparent",
    "into",
    "from",
    "try_from",
    "bound",
];

const SERDE_KEYWORDS_EXTRA: &[&str] = &["serialize_with", "with"];

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SerdeDefault {
    None,
    Default,
    /// `default = "path"`: the function path as written.
    Path(String),
}

impl SerdeDefault {
    pub(crate) fn is_none(&self) -> bool {
        *self == SerdeDefault::None
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TagType {
    External,
    Internal(String),
    Adjacent(String, String),
    None,
}

/// `#[schemars(with = "T")]`, `#[serde(with = "m")]` or `#[schemars(schema_with = "f")]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum WithAttr {
    Type(String),
    Function(String),
}

/// A name with its serialize and deserialize forms.
#[derive(Debug, Clone, Default)]
pub(crate) struct Name {
    pub ser: String,
    pub de: String,
    pub ser_renamed: bool,
    pub de_renamed: bool,
}

impl Name {
    fn new(s: String) -> Self {
        Name {
            ser: s.clone(),
            de: s,
            ser_renamed: false,
            de_renamed: false,
        }
    }

    pub(crate) fn rename_variant(&mut self, rules: (RenameRule, RenameRule)) {
        if !self.ser_renamed {
            self.ser = rules.0.apply_to_variant(&self.ser);
        }
        if !self.de_renamed {
            self.de = rules.1.apply_to_variant(&self.de);
        }
    }

    pub(crate) fn rename_field(&mut self, rules: (RenameRule, RenameRule)) {
        if !self.ser_renamed {
            self.ser = rules.0.apply_to_field(&self.ser);
        }
        if !self.de_renamed {
            self.de = rules.1.apply_to_field(&self.de);
        }
    }

    pub(crate) fn get(&self, serialize: bool) -> &str {
        if serialize {
            &self.ser
        } else {
            &self.de
        }
    }
}

/// Metadata schemars adds to any schema: title, description, deprecated, examples, extensions.
#[derive(Debug, Clone, Default)]
pub(crate) struct Common {
    pub doc: Option<String>,
    pub deprecated: bool,
    pub title: Option<String>,
    pub description: Option<String>,
    pub examples: Vec<Value>,
    pub extensions: Vec<(String, Value)>,
    pub transform: bool,
}

impl Common {
    pub(crate) fn is_default(&self) -> bool {
        self.doc.is_none()
            && !self.deprecated
            && self.title.is_none()
            && self.description.is_none()
            && self.examples.is_empty()
            && self.extensions.is_empty()
            && !self.transform
    }

    /// schemars' `CommonAttrs::add_mutators` (the part that is not a post-mutator).
    pub(crate) fn apply(&self, schema: &mut Value) {
        let (doc_title, doc_description) = match &self.doc {
            Some(doc) => {
                let (t, d) = docs::title_and_description(doc);
                (Some(t), Some(d))
            }
            None => (None, None),
        };
        if let Some(title) = self.title.clone().or(doc_title) {
            insert_if_nonempty(schema, "title", title);
        }
        if let Some(description) = self.description.clone().or(doc_description) {
            insert_if_nonempty(schema, "description", description);
        }
        if self.deprecated {
            insert(schema, "deprecated", Value::Bool(true));
        }
        if !self.examples.is_empty() {
            insert(schema, "examples", Value::Array(self.examples.clone()));
        }
    }

    /// Extensions, applied after everything else.
    pub(crate) fn apply_post(&self, schema: &mut Value) {
        for (k, v) in &self.extensions {
            insert(schema, k, v.clone());
        }
    }
}

/// `Schema::insert`: a bool schema becomes an object first.
pub(crate) fn insert(schema: &mut Value, key: &str, value: Value) {
    ensure_object(schema).insert(key.to_string(), value);
}

pub(crate) fn ensure_object(schema: &mut Value) -> &mut serde_json::Map<String, Value> {
    if let Value::Bool(b) = schema {
        let mut map = serde_json::Map::new();
        if !*b {
            map.insert("not".into(), Value::Object(serde_json::Map::new()));
        }
        *schema = Value::Object(map);
    }
    match schema {
        Value::Object(o) => o,
        _ => unreachable!("a schema is a bool or an object"),
    }
}

fn insert_if_nonempty(schema: &mut Value, key: &str, value: String) {
    if !value.is_empty() {
        insert(schema, key, Value::String(value));
    }
}

/// `length`/`range` bounds.
#[derive(Debug, Clone, Default)]
pub(crate) struct Bounds {
    pub min: Option<Value>,
    pub max: Option<Value>,
}

/// schemars' validation attributes (`#[schemars]`, `#[validate]`, `#[garde]`).
#[derive(Debug, Clone, Default)]
pub(crate) struct Validation {
    pub length: Option<Bounds>,
    pub range: Option<Bounds>,
    pub pattern: Option<String>,
    pub contains: Option<String>,
    pub required: bool,
    pub format: Option<&'static str>,
    pub inner: Option<Box<Validation>>,
}

impl Validation {
    pub(crate) fn is_default(&self) -> bool {
        self.length.is_none()
            && self.range.is_none()
            && self.pattern.is_none()
            && self.contains.is_none()
            && !self.required
            && self.format.is_none()
            && self.inner.is_none()
    }

    pub(crate) fn apply(&self, schema: &mut Value) {
        if let Some(length) = &self.length {
            bounds(schema, length, "string", "Length");
            bounds(schema, length, "array", "Items");
        }
        if let Some(range) = &self.range {
            bounds(schema, range, "number", "imum");
        }
        if let Some(pattern) = &self.pattern {
            insert_validation(schema, "string", "pattern", Value::String(pattern.clone()));
        }
        if let Some(contains) = &self.contains {
            insert_validation(
                schema,
                "string",
                "pattern",
                Value::String(regex_escape(contains)),
            );
        }
        if let Some(format) = self.format {
            insert(schema, "format", Value::String(format.into()));
        }
        if let Some(inner) = &self.inner {
            if let Some(items) = schema.get_mut("items") {
                if items.is_object() || items.is_boolean() {
                    inner.apply(items);
                }
            }
        }
    }
}

fn bounds(schema: &mut Value, b: &Bounds, required_type: &str, suffix: &str) {
    if let Some(min) = &b.min {
        insert_validation(schema, required_type, &format!("min{suffix}"), min.clone());
    }
    if let Some(max) = &b.max {
        insert_validation(schema, required_type, &format!("max{suffix}"), max.clone());
    }
}

pub(crate) fn has_type(schema: &Value, ty: &str) -> bool {
    match schema.get("type") {
        Some(Value::Array(values)) => values.iter().any(|v| v.as_str() == Some(ty)),
        Some(Value::String(s)) => s == ty,
        _ => false,
    }
}

fn insert_validation(schema: &mut Value, required_type: &str, key: &str, value: Value) {
    if has_type(schema, required_type) || (required_type == "number" && has_type(schema, "integer"))
    {
        insert(schema, key, value);
    }
}

/// `regex_syntax::escape`, as schemars vendors it.
fn regex_escape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if matches!(
            c,
            '\\' | '.'
                | '+'
                | '*'
                | '?'
                | '('
                | ')'
                | '|'
                | '['
                | ']'
                | '{'
                | '}'
                | '^'
                | '$'
                | '#'
                | '&'
                | '-'
                | '~'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Attributes of a struct or enum.
#[derive(Debug, Clone)]
pub(crate) struct ContainerAttrs {
    pub name: Name,
    pub rename_all: (RenameRule, RenameRule),
    pub rename_all_fields: (RenameRule, RenameRule),
    pub deny_unknown_fields: bool,
    pub tag: TagType,
    pub default: SerdeDefault,
    pub transparent: bool,
    pub from: Option<String>,
    pub into: Option<String>,
    pub schema_rename: Option<String>,
    /// `#[serde(remote = "path::Type")]`: the remote type's name is the schema's name.
    pub remote: Option<String>,
    pub inline: bool,
    pub with: Option<WithAttr>,
    pub common: Common,
    pub schema_override: Option<Value>,
}

/// Attributes of an enum variant.
#[derive(Debug, Clone)]
pub(crate) struct VariantAttrs {
    pub name: Name,
    pub rename_all: (RenameRule, RenameRule),
    pub skip_ser: bool,
    pub skip_de: bool,
    pub untagged: bool,
    pub with: Option<WithAttr>,
    pub common: Common,
}

impl VariantAttrs {
    pub(crate) fn is_default(&self) -> bool {
        self.common.is_default() && self.with.is_none()
    }
}

/// Attributes of a field.
#[derive(Debug, Clone)]
pub(crate) struct FieldAttrs {
    pub name: Name,
    pub skip_ser: bool,
    pub skip_de: bool,
    pub skip_ser_if: Option<String>,
    pub default: SerdeDefault,
    pub flatten: bool,
    pub serialize_with: Option<String>,
    pub with: Option<WithAttr>,
    pub common: Common,
    pub validation: Validation,
    pub schema_override: Option<Value>,
}

impl FieldAttrs {
    pub(crate) fn is_default(&self) -> bool {
        self.common.is_default() && self.validation.is_default() && self.with.is_none()
    }
}

fn lit_str(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) => Some(s.value()),
        _ => None,
    }
}

fn meta_ident(meta: &Meta) -> String {
    meta.path()
        .get_ident()
        .map(|i| i.to_string())
        .unwrap_or_default()
}

fn problem(what: &str, message: impl Into<String>) -> Problem {
    Problem::new(what, message).with_help(
        "use the attribute forms serde and schemars document (string literals and literal numbers)",
    )
}

fn parse_metas(attrs: &[Attribute], name: &str, what: &str) -> PResult<Vec<Meta>> {
    let mut out = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident(name)) {
        let list = attr
            .parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
            .map_err(|e| {
                // The caller places it at the field or type it is on.
                problem(what, format!("cannot read `#[{name}(...)]`: {e}"))
            })?;
        out.extend(list);
    }
    Ok(out)
}

/// The `#[serde]` metas serde would see after schemars' rewriting, and the
/// `#[schemars]` metas.
struct Sources {
    schemars: Vec<Meta>,
    serde_raw: Vec<Meta>,
    overridden: BTreeSet<String>,
}

impl Sources {
    fn serde(&self) -> impl Iterator<Item = &Meta> {
        let from_schemars = self
            .schemars
            .iter()
            .filter(|m| SCHEMARS_KEYWORDS_PARSED_BY_SERDE.contains(&meta_ident(m).as_str()));
        let from_serde = self.serde_raw.iter().filter(|m| {
            let k = meta_ident(m);
            let known = SCHEMARS_KEYWORDS_PARSED_BY_SERDE.contains(&k.as_str())
                || SERDE_KEYWORDS_EXTRA.contains(&k.as_str());
            !self.overridden.contains(&k) && known && k != "bound"
        });
        from_schemars.chain(from_serde)
    }
}

fn sources(attrs: &[Attribute], what: &str) -> PResult<Sources> {
    let schemars = parse_metas(attrs, "schemars", what)?;
    let serde_raw = parse_metas(attrs, "serde", what)?;
    let mut overridden: BTreeSet<String> = BTreeSet::new();
    for m in &schemars {
        let k = meta_ident(m);
        if SCHEMARS_KEYWORDS_PARSED_BY_SERDE.contains(&k.as_str()) {
            overridden.insert(k);
        }
    }
    if overridden.contains("skip") {
        overridden.insert("skip_serializing".into());
        overridden.insert("skip_deserializing".into());
    }
    Ok(Sources {
        schemars,
        serde_raw,
        overridden,
    })
}

fn name_value_str(meta: &Meta, what: &str) -> PResult<String> {
    match meta {
        Meta::NameValue(nv) => lit_str(&nv.value).ok_or_else(|| {
            problem(
                what,
                format!("`{}` expects a string literal", meta_ident(meta)),
            )
        }),
        _ => Err(problem(
            what,
            format!("`{}` expects `= \"...\"`", meta_ident(meta)),
        )),
    }
}

fn nested(meta: &Meta, what: &str) -> PResult<Vec<Meta>> {
    match meta {
        Meta::List(list) => list
            .parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
            .map(|p| p.into_iter().collect())
            .map_err(|e| {
                problem(
                    what,
                    format!("cannot read `{}(...)`: {e}", meta_ident(meta)),
                )
            }),
        _ => Err(problem(
            what,
            format!("`{}` expects `(...)`", meta_ident(meta)),
        )),
    }
}

/// `rename = "x"` or `rename(serialize = "a", deserialize = "b")`: (ser, de).
fn ser_de_strings(meta: &Meta, what: &str) -> PResult<(Option<String>, Option<String>)> {
    match meta {
        Meta::NameValue(_) => {
            let s = name_value_str(meta, what)?;
            Ok((Some(s.clone()), Some(s)))
        }
        Meta::List(_) => {
            let mut out = (None, None);
            for m in nested(meta, what)? {
                match meta_ident(&m).as_str() {
                    "serialize" => out.0 = Some(name_value_str(&m, what)?),
                    "deserialize" => out.1 = Some(name_value_str(&m, what)?),
                    _ => {}
                }
            }
            Ok(out)
        }
        Meta::Path(_) => Err(problem(
            what,
            format!("`{}` expects a value", meta_ident(meta)),
        )),
    }
}

fn rename_rules(meta: &Meta, what: &str) -> PResult<(Option<RenameRule>, Option<RenameRule>)> {
    let (s, d) = ser_de_strings(meta, what)?;
    let parse = |v: Option<String>| -> PResult<Option<RenameRule>> {
        match v {
            None => Ok(None),
            Some(v) => RenameRule::parse(&v)
                .map(Some)
                .ok_or_else(|| problem(what, format!("unknown rename rule `{v}`"))),
        }
    };
    Ok((parse(s)?, parse(d)?))
}

fn common(attrs: &[Attribute], src: &Sources, what: &str, eval: Eval<'_>) -> PResult<Common> {
    let mut c = Common {
        doc: docs::doc_string(attrs).map_err(|m| problem(what, m))?,
        deprecated: attrs.iter().any(|a| a.path().is_ident("deprecated")),
        ..Common::default()
    };
    for meta in src.schemars.iter().chain(src.serde()) {
        match meta_ident(meta).as_str() {
            "title" => c.title = Some(string_expr(meta, what, eval)?),
            "description" => c.description = Some(string_expr(meta, what, eval)?),
            "example" => match meta {
                Meta::NameValue(nv) => c.examples.push(eval(&nv.value)?),
                _ => return Err(problem(what, "`example` expects `= value`")),
            },
            "extend" => c.extensions.extend(extensions(meta, what)?),
            "transform" => c.transform = true,
            _ => {}
        }
    }
    Ok(c)
}

fn string_expr(meta: &Meta, what: &str, eval: Eval<'_>) -> PResult<String> {
    match meta {
        Meta::NameValue(nv) => match eval(&nv.value)? {
            Value::String(s) => Ok(s),
            other => Err(problem(
                what,
                format!("`{}` must be a string, found {other}", meta_ident(meta)),
            )),
        },
        _ => Err(problem(
            what,
            format!("`{}` expects `= \"...\"`", meta_ident(meta)),
        )),
    }
}

fn extensions(meta: &Meta, what: &str) -> PResult<Vec<(String, Value)>> {
    let Meta::List(list) = meta else {
        return Err(problem(what, "`extend` expects `(\"key\" = value, ...)`"));
    };
    let mut out = Vec::new();
    let mut tokens = list.tokens.clone().into_iter().peekable();
    while tokens.peek().is_some() {
        let key = match tokens.next() {
            Some(proc_macro2::TokenTree::Literal(l)) => {
                let lit: syn::LitStr = syn::parse_str(&l.to_string())
                    .map_err(|_| problem(what, "an `extend` key must be a string literal"))?;
                lit.value()
            }
            _ => return Err(problem(what, "an `extend` key must be a string literal")),
        };
        match tokens.next() {
            Some(proc_macro2::TokenTree::Punct(p)) if p.as_char() == '=' => {}
            _ => return Err(problem(what, "`extend` expects `\"key\" = value`")),
        }
        let mut value = proc_macro2::TokenStream::new();
        while let Some(t) = tokens.peek() {
            if matches!(t, proc_macro2::TokenTree::Punct(p) if p.as_char() == ',') {
                tokens.next();
                break;
            }
            value.extend(tokens.next());
        }
        let text = value.to_string();
        let parsed = serde_json::from_str(&text)
            .or_else(|_| serde_json::from_str(&text.replace("- ", "-")))
            .map_err(|_| {
                problem(
                    what,
                    format!("`extend` value `{text}` is not a JSON literal"),
                )
            })?;
        out.push((key, parsed));
    }
    Ok(out)
}

fn with_attr(src: &Sources, what: &str, allow_serde: bool) -> PResult<Option<WithAttr>> {
    for meta in &src.schemars {
        match meta_ident(meta).as_str() {
            "with" => return Ok(Some(WithAttr::Type(name_value_str(meta, what)?))),
            "schema_with" => return Ok(Some(WithAttr::Function(name_value_str(meta, what)?))),
            _ => {}
        }
    }
    if allow_serde {
        for meta in src.serde() {
            if meta_ident(meta) == "with" {
                return Ok(Some(WithAttr::Type(name_value_str(meta, what)?)));
            }
        }
    }
    Ok(None)
}

/// The verbatim schema of a type (`#[mcp_contract::schema(r#"..."#)]` on
/// its definition, or `#[mcp_contract(schema = "...")]` on a tool's argument
/// struct) or of a field (`#[mcp_contract(schema = "...")]`).
fn schema_override(attrs: &[Attribute], what: &str) -> PResult<Option<Value>> {
    for attr in attrs.iter().filter(|a| is_schema_macro(a)) {
        // `#[mcp_contract::schema]` without an argument only enables the
        // field attributes.
        if let Meta::List(list) = &attr.meta {
            let text: syn::LitStr = syn::parse2(list.tokens.clone()).map_err(|e| {
                problem(what, format!("cannot read `#[mcp_contract::schema(...)]`: {e}"))
                    .with_help("give the schema as one string literal: `#[mcp_contract::schema(r#\"{\"type\": \"string\"}\"#)]`")
            })?;
            return verbatim_schema(&text.value(), what, "#[mcp_contract::schema(...)]").map(Some);
        }
    }
    for meta in parse_metas(attrs, "mcp_contract", what)? {
        if meta_ident(&meta) == "schema" {
            let text = name_value_str(&meta, what)?;
            return verbatim_schema(&text, what, "#[mcp_contract(schema = ...)]").map(Some);
        }
    }
    Ok(None)
}

/// A `#[mcp_contract(schema = ...)]` of `item` (on it, or on one of its
/// fields) that does not compile where it is: the attribute is not a real
/// one, and only the macros remove it — `#[mcp_contract::tool]` from its
/// argument struct and that struct's fields, `#[mcp_contract::schema]`
/// from the fields of the type it marks.
pub(crate) fn uncompiled_override(item: &syn::Item) -> Option<&Attribute> {
    let (attrs, fields): (&[Attribute], Vec<&syn::Field>) = match item {
        syn::Item::Struct(s) => (&s.attrs, s.fields.iter().collect()),
        syn::Item::Enum(e) => (
            &e.attrs,
            e.variants.iter().flat_map(|v| v.fields.iter()).collect(),
        ),
        _ => return None,
    };
    let tool = attrs.iter().any(mcp_contract_syntax::is_tool_attr);
    let marked = tool || attrs.iter().any(is_schema_macro);
    let on_item = attrs.iter().find(|a| is_override(a)).filter(|_| !tool);
    on_item.or_else(|| {
        fields
            .iter()
            .flat_map(|f| &f.attrs)
            .find(|a| is_override(a))
            .filter(|_| !marked)
    })
}

/// `#[mcp_contract(schema = ...)]`.
fn is_override(attr: &Attribute) -> bool {
    attr.path().is_ident("mcp_contract")
        && attr
            .parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
            .is_ok_and(|metas| metas.iter().any(|m| meta_ident(m) == "schema"))
}

/// `#[mcp_contract::schema(...)]`, the escape-hatch attribute on a type
/// (spelled out, like `#[mcp_contract::tool]`: the build step reads source).
fn is_schema_macro(attr: &Attribute) -> bool {
    let segments: Vec<String> = attr
        .path()
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    segments == ["mcp_contract", "schema"]
}

fn verbatim_schema(text: &str, what: &str, spelling: &str) -> PResult<Value> {
    let help = "write the schema as a JSON object, e.g. `r#\"{\"type\": \"string\"}\"#`";
    let value: Value = serde_json::from_str(text).map_err(|e| {
        Problem::new(what, format!("`{spelling}` is not valid JSON: {e}")).with_help(help)
    })?;
    if !value.is_object() && !value.is_boolean() {
        return Err(Problem::new(
            what,
            format!("`{spelling}` must be a JSON object or boolean"),
        )
        .with_help(help));
    }
    Ok(value)
}

impl ContainerAttrs {
    pub(crate) fn parse(attrs: &[Attribute], ident: &str, eval: Eval<'_>) -> PResult<Self> {
        let src = sources(attrs, ident)?;
        let mut c = ContainerAttrs {
            name: Name::new(ident.to_string()),
            rename_all: Default::default(),
            rename_all_fields: Default::default(),
            deny_unknown_fields: false,
            tag: TagType::External,
            default: SerdeDefault::None,
            transparent: false,
            from: None,
            into: None,
            schema_rename: None,
            remote: None,
            inline: false,
            with: with_attr(&src, ident, false)?,
            common: common(attrs, &src, ident, eval)?,
            schema_override: schema_override(attrs, ident)?,
        };
        let (mut tag, mut content, mut untagged) = (None, None, false);
        for meta in src.serde() {
            match meta_ident(meta).as_str() {
                "rename" => {
                    let (s, d) = ser_de_strings(meta, ident)?;
                    if let Some(s) = s {
                        c.name.ser = s;
                        c.name.ser_renamed = true;
                    }
                    if let Some(d) = d {
                        c.name.de = d;
                        c.name.de_renamed = true;
                    }
                }
                "rename_all" => {
                    let (s, d) = rename_rules(meta, ident)?;
                    c.rename_all = (s.unwrap_or_default(), d.unwrap_or_default());
                }
                "rename_all_fields" => {
                    let (s, d) = rename_rules(meta, ident)?;
                    c.rename_all_fields = (s.unwrap_or_default(), d.unwrap_or_default());
                }
                "deny_unknown_fields" => c.deny_unknown_fields = true,
                "tag" => tag = Some(name_value_str(meta, ident)?),
                "content" => content = Some(name_value_str(meta, ident)?),
                "untagged" => untagged = true,
                "default" => {
                    c.default = match meta {
                        Meta::Path(_) => SerdeDefault::Default,
                        _ => SerdeDefault::Path(name_value_str(meta, ident)?),
                    }
                }
                "transparent" => c.transparent = true,
                "from" | "try_from" => c.from = Some(name_value_str(meta, ident)?),
                "into" => c.into = Some(name_value_str(meta, ident)?),
                "remote" => {
                    let path = name_value_str(meta, ident)?;
                    c.remote = path.rsplit("::").next().map(|n| n.trim().to_string());
                }
                _ => {}
            }
        }
        for meta in &src.schemars {
            match meta_ident(meta).as_str() {
                "rename" => c.schema_rename = Some(name_value_str(meta, ident)?),
                "inline" => c.inline = true,
                _ => {}
            }
        }
        c.tag = match (untagged, tag, content) {
            (false, None, None) => TagType::External,
            (true, None, None) => TagType::None,
            (false, Some(t), None) => TagType::Internal(t),
            (false, Some(t), Some(c)) => TagType::Adjacent(t, c),
            _ => {
                return Err(problem(
                    ident,
                    "conflicting `tag`/`content`/`untagged` attributes",
                ))
            }
        };
        Ok(c)
    }
}

impl VariantAttrs {
    pub(crate) fn parse(attrs: &[Attribute], ident: &str, eval: Eval<'_>) -> PResult<Self> {
        let src = sources(attrs, ident)?;
        let mut v = VariantAttrs {
            name: Name::new(ident.to_string()),
            rename_all: Default::default(),
            skip_ser: false,
            skip_de: false,
            untagged: false,
            with: with_attr(&src, ident, true)?,
            common: common(attrs, &src, ident, eval)?,
        };
        for meta in src.serde() {
            match meta_ident(meta).as_str() {
                "rename" => {
                    let (s, d) = ser_de_strings(meta, ident)?;
                    if let Some(s) = s {
                        v.name.ser = s;
                        v.name.ser_renamed = true;
                    }
                    if let Some(d) = d {
                        v.name.de = d;
                        v.name.de_renamed = true;
                    }
                }
                "rename_all" => {
                    let (s, d) = rename_rules(meta, ident)?;
                    v.rename_all = (s.unwrap_or_default(), d.unwrap_or_default());
                }
                "skip" => {
                    v.skip_ser = true;
                    v.skip_de = true;
                }
                "skip_serializing" => v.skip_ser = true,
                "skip_deserializing" => v.skip_de = true,
                "untagged" => v.untagged = true,
                _ => {}
            }
        }
        Ok(v)
    }
}

impl FieldAttrs {
    /// `container_has_default`: whether the struct has `#[serde(default)]`
    /// (serde then does not give skipped fields their own default).
    pub(crate) fn parse(
        attrs: &[Attribute],
        ident: &str,
        container_has_default: bool,
        eval: Eval<'_>,
    ) -> PResult<Self> {
        let src = sources(attrs, ident)?;
        let mut f = FieldAttrs {
            name: Name::new(ident.trim_start_matches("r#").to_string()),
            skip_ser: false,
            skip_de: false,
            skip_ser_if: None,
            default: SerdeDefault::None,
            flatten: false,
            serialize_with: None,
            with: with_attr(&src, ident, true)?,
            common: common(attrs, &src, ident, &mut *eval)?,
            validation: Validation::default(),
            schema_override: schema_override(attrs, ident)?,
        };
        for meta in src.serde() {
            match meta_ident(meta).as_str() {
                "rename" => {
                    let (s, d) = ser_de_strings(meta, ident)?;
                    if let Some(s) = s {
                        f.name.ser = s;
                        f.name.ser_renamed = true;
                    }
                    if let Some(d) = d {
                        f.name.de = d;
                        f.name.de_renamed = true;
                    }
                }
                "skip" => {
                    f.skip_ser = true;
                    f.skip_de = true;
                }
                "skip_serializing" => f.skip_ser = true,
                "skip_deserializing" => f.skip_de = true,
                "skip_serializing_if" => f.skip_ser_if = Some(name_value_str(meta, ident)?),
                "default" => {
                    f.default = match meta {
                        Meta::Path(_) => SerdeDefault::Default,
                        _ => SerdeDefault::Path(name_value_str(meta, ident)?),
                    }
                }
                "flatten" => f.flatten = true,
                "serialize_with" => f.serialize_with = Some(name_value_str(meta, ident)?),
                "with" => {
                    f.serialize_with = Some(format!("{}::serialize", name_value_str(meta, ident)?))
                }
                _ => {}
            }
        }
        if !container_has_default && f.skip_de && f.default.is_none() {
            f.default = SerdeDefault::Default;
        }
        let mut validation = Validation::default();
        let validate = parse_metas(attrs, "validate", ident)?;
        let garde = parse_metas(attrs, "garde", ident)?;
        for (source, kind) in [
            (&src.schemars, Dialect::Schemars),
            (&validate, Dialect::Validate),
            (&garde, Dialect::Garde),
        ] {
            validation_metas(&mut validation, source, kind, ident, &mut *eval)?;
        }
        f.validation = validation;
        Ok(f)
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Dialect {
    Schemars,
    Validate,
    Garde,
}

fn validation_metas(
    v: &mut Validation,
    metas: &[Meta],
    dialect: Dialect,
    what: &str,
    eval: Eval<'_>,
) -> PResult<()> {
    for meta in metas {
        let key = meta_ident(meta);
        let format = match key.as_str() {
            "email" => Some("email"),
            "url" => Some("uri"),
            "ip" => Some("ip"),
            "ipv4" => Some("ipv4"),
            "ipv6" => Some("ipv6"),
            _ => None,
        };
        if let Some(format) = format {
            if v.format.is_none() {
                v.format = Some(format);
            }
            continue;
        }
        match key.as_str() {
            "length" if v.length.is_none() => {
                v.length = Some(parse_bounds(meta, what, &mut *eval)?)
            }
            "range" if v.range.is_none() => v.range = Some(parse_bounds(meta, what, &mut *eval)?),
            "required" => v.required = true,
            "pattern" if dialect != Dialect::Validate && v.pattern.is_none() => {
                let Meta::List(list) = meta else {
                    return Err(problem(what, "`pattern` expects `(\"regex\")`"));
                };
                let expr: Expr = list
                    .parse_args()
                    .map_err(|e| problem(what, format!("cannot read `pattern(...)`: {e}")))?;
                v.pattern = Some(to_display_string(eval(&expr)?));
            }
            "regex" if dialect != Dialect::Garde && v.pattern.is_none() => {
                let wanted = if dialect == Dialect::Validate {
                    "path"
                } else {
                    "pattern"
                };
                let mut found = None;
                for m in nested(meta, what)? {
                    if meta_ident(&m) == wanted {
                        if let Meta::NameValue(nv) = &m {
                            let value = match (&nv.value, dialect) {
                                (e, Dialect::Validate) => match lit_str(e) {
                                    Some(s) => {
                                        let parsed: Expr = syn::parse_str(&s).map_err(|e| {
                                            problem(
                                                what,
                                                format!("cannot read `regex(path = ...)`: {e}"),
                                            )
                                        })?;
                                        eval(&parsed)?
                                    }
                                    None => eval(e)?,
                                },
                                (e, _) => eval(e)?,
                            };
                            found = Some(to_display_string(value));
                        }
                    }
                }
                v.pattern = Some(found.ok_or_else(|| {
                    problem(what, format!("`regex(...)` requires `{wanted} = ...`"))
                })?);
            }
            "contains" if v.contains.is_none() => {
                let Meta::List(list) = meta else {
                    return Err(problem(what, "`contains` expects `(...)`"));
                };
                if let Ok(expr) = list.parse_args::<Expr>() {
                    if !matches!(expr, Expr::Assign(_)) {
                        v.contains = Some(to_display_string(eval(&expr)?));
                        continue;
                    }
                }
                for m in nested(meta, what)? {
                    if meta_ident(&m) == "pattern" {
                        if let Meta::NameValue(nv) = &m {
                            v.contains = Some(to_display_string(eval(&nv.value)?));
                        }
                    }
                }
            }
            "inner" if dialect != Dialect::Validate => {
                let inner_metas = nested(meta, what)?;
                let inner = v.inner.get_or_insert_with(Default::default);
                validation_metas(inner, &inner_metas, dialect, what, &mut *eval)?;
            }
            _ => {}
        }
    }
    Ok(())
}

fn to_display_string(v: Value) -> String {
    match v {
        Value::String(s) => s,
        other => other.to_string(),
    }
}

fn parse_bounds(meta: &Meta, what: &str, eval: Eval<'_>) -> PResult<Bounds> {
    let mut b = Bounds::default();
    for m in nested(meta, what)? {
        let Meta::NameValue(nv) = &m else { continue };
        // A string literal holds an expression (`min = "1"`).
        let value = match lit_str(&nv.value) {
            Some(s) => {
                let e: Expr = syn::parse_str(&s)
                    .map_err(|e| problem(what, format!("cannot read bound `{s}`: {e}")))?;
                eval(&e)?
            }
            None => eval(&nv.value)?,
        };
        match meta_ident(&m).as_str() {
            "min" => b.min = Some(value),
            "max" => b.max = Some(value),
            "equal" => {
                b.min = Some(value.clone());
                b.max = Some(value);
            }
            _ => {}
        }
    }
    Ok(b)
}
