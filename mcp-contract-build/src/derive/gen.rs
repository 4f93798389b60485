//! The schema generator: a source-level twin of `schemars::SchemaGenerator`
//! with `SchemaSettings::draft2020_12()`. It decides, per type, whether the
//! schema is inlined or put in `$defs` (with schemars' naming and numbering
//! of clashing names), and builds the root schema.

use std::collections::{HashMap, HashSet};

use serde_json::{json, Map, Value};

use super::attrs::ensure_object;
use super::builtin::Prim;
use super::error::PResult;
use super::index::{ItemLoc, TypeIndex};
use super::Contract;

pub(crate) const DRAFT2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

/// A Rust type after path resolution, with generics substituted.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Ty {
    Prim(Prim),
    Option(Box<Ty>),
    Seq(Box<Ty>),
    Set(Box<Ty>),
    Map(Box<Ty>, Box<Ty>),
    Array(Box<Ty>, usize),
    Tuple(Vec<Ty>),
    Result(Box<Ty>, Box<Ty>),
    Range(Box<Ty>),
    Bound(Box<Ty>),
    /// `either::Either<L, R>`
    Either(Box<Ty>, Box<Ty>),
    /// `arrayvec::ArrayVec<T, CAP>`
    BoundedSeq(Box<Ty>, usize),
    Adt(Adt),
    /// A schema given verbatim with `#[mcp_contract(schema = "...")]` on a field.
    Override(Box<Value>),
    /// The type schemars makes of a `#[schemars(schema_with = "f")]`
    /// function whose result is a literal (see [`super::schema_with`]).
    Literal(Box<Literal>),
}

/// A schema read from a JSON literal in source ([`super::literal`]), with
/// what schemars' other `JsonSchema` methods return for it: a
/// `schema_with` function's, or a hand-written `impl JsonSchema`'s.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Literal {
    pub name: String,
    pub id: String,
    pub inline: bool,
    pub schema: Value,
}

/// A struct or enum of the crate, with its generic arguments.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Adt {
    pub loc: ItemLoc,
    pub args: Vec<Ty>,
}

pub(crate) struct Gen<'a> {
    pub ix: &'a TypeIndex,
    pub contract: Contract,
    defs: Map<String, Value>,
    id_to_name: HashMap<String, String>,
    used_names: HashSet<String>,
    root_id: Option<String>,
    pub(crate) depth: usize,
    pub(crate) resolve_depth: std::cell::Cell<usize>,
    pub(crate) attrs_cache:
        std::cell::RefCell<HashMap<ItemLoc, std::rc::Rc<super::attrs::ContainerAttrs>>>,
    /// What each hand-written `impl JsonSchema` read gives (see [`super::hand_impl`]).
    pub(crate) hand_cache: std::cell::RefCell<HashMap<ItemLoc, super::hand_impl::Read>>,
}

/// How deep generation may nest before we call it a cycle schemars would
/// not terminate on either (e.g. a transparent type containing itself).
pub(crate) const MAX_NESTING: usize = 128;

impl<'a> Gen<'a> {
    pub(crate) fn new(ix: &'a TypeIndex, contract: Contract) -> Self {
        Gen {
            ix,
            contract,
            defs: Map::new(),
            id_to_name: HashMap::new(),
            used_names: HashSet::new(),
            root_id: None,
            depth: 0,
            resolve_depth: std::cell::Cell::new(0),
            attrs_cache: Default::default(),
            hand_cache: Default::default(),
        }
    }

    pub(crate) fn is_serialize_contract(&self) -> bool {
        self.contract == Contract::Serialize
    }

    /// `SchemaGenerator::into_root_schema_for`. `root_id` replaces the root
    /// type's id (rmcp's `Parameters<T>` has the id `T::schema_name()`).
    pub(crate) fn root(&mut self, ty: &Ty, root_id: Option<String>) -> PResult<Value> {
        let id = match root_id {
            Some(id) => id,
            None => self.schema_id(ty)?,
        };
        self.root_id = Some(id);
        let name = self.schema_name(ty)?;
        let mut schema = self.json_schema(ty)?;
        let obj = ensure_object(&mut schema);
        obj.entry("title").or_insert_with(|| Value::String(name));
        obj.insert("$schema".into(), Value::String(DRAFT2020_12.into()));
        if !self.defs.is_empty() {
            let defs = std::mem::take(&mut self.defs);
            let target = obj
                .entry("$defs")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(t) = target {
                t.extend(defs);
            }
        }
        Ok(schema)
    }

    /// `JsonSchema::inline_schema()`.
    pub(crate) fn inline(&self, ty: &Ty) -> PResult<bool> {
        Ok(match ty {
            Ty::Prim(p) => p.inline(),
            Ty::Result(..) | Ty::Range(_) | Ty::Bound(_) => false,
            Ty::Adt(adt) => self.adt_inline(adt)?,
            Ty::Literal(l) => l.inline,
            _ => true,
        })
    }

    /// `JsonSchema::schema_id()`: equal ids share one definition.
    pub(crate) fn schema_id(&self, ty: &Ty) -> PResult<String> {
        Ok(match ty {
            Ty::Prim(p) => p.id(),
            Ty::Option(t) => format!("Option<{}>", self.schema_id(t)?),
            Ty::Seq(t) => format!("[{}]", self.schema_id(t)?),
            Ty::Set(t) => format!("Set<{}>", self.schema_id(t)?),
            Ty::Map(k, v) => {
                let k = self.schema_id(k)?;
                if k == "string" {
                    format!("Map<{}>", self.schema_id(v)?)
                } else {
                    format!("Map<{}, {}>", k, self.schema_id(v)?)
                }
            }
            Ty::Array(t, n) => format!("[{}; {}]", n, self.schema_id(t)?),
            Ty::Tuple(ts) => {
                let ids: PResult<Vec<String>> = ts.iter().map(|t| self.schema_id(t)).collect();
                format!("({})", ids?.join(","))
            }
            Ty::Result(t, e) => format!("Result<{}, {}>", self.schema_id(t)?, self.schema_id(e)?),
            Ty::Range(t) => format!("Range<{}>", self.schema_id(t)?),
            Ty::Bound(t) => format!("Bound<{}>", self.schema_id(t)?),
            Ty::Either(l, r) => format!(
                "either::Either<{}, {}>",
                self.schema_id(l)?,
                self.schema_id(r)?
            ),
            Ty::BoundedSeq(t, n) => format!("Array_up_to_size_{n}_of_{}", self.schema_name(t)?),
            Ty::Adt(adt) => {
                if let Some(literal) = self.hand_literal(adt) {
                    return Ok(literal.id.clone());
                }
                let mut id = format!("{}::{}", adt.loc.module.join("::"), self.adt_ident(adt));
                if !adt.args.is_empty() {
                    let ids: PResult<Vec<String>> =
                        adt.args.iter().map(|t| self.schema_id(t)).collect();
                    id = format!("{id}<{}>", ids?.join(","));
                }
                id
            }
            Ty::Override(v) => format!("override:{v}"),
            Ty::Literal(l) => l.id.clone(),
        })
    }

    /// `JsonSchema::schema_name()`: the `$defs` key and the root `title`.
    pub(crate) fn schema_name(&self, ty: &Ty) -> PResult<String> {
        Ok(match ty {
            Ty::Prim(p) => p.name(),
            Ty::Option(t) => format!("Nullable_{}", self.schema_name(t)?),
            Ty::Seq(t) => format!("Array_of_{}", self.schema_name(t)?),
            Ty::Set(t) => format!("Set_of_{}", self.schema_name(t)?),
            Ty::Map(k, v) => {
                if self.schema_id(k)? == "string" {
                    format!("Map_of_{}", self.schema_name(v)?)
                } else {
                    format!(
                        "Map_from_{}_to_{}",
                        self.schema_name(k)?,
                        self.schema_name(v)?
                    )
                }
            }
            Ty::Array(_, 0) => "EmptyArray".into(),
            Ty::Array(t, n) => format!("Array_size_{n}_of_{}", self.schema_name(t)?),
            Ty::Tuple(ts) => {
                let names: PResult<Vec<String>> = ts.iter().map(|t| self.schema_name(t)).collect();
                format!("Tuple_of_{}", names?.join("_and_"))
            }
            Ty::Result(t, e) => format!(
                "Result_of_{}_or_{}",
                self.schema_name(t)?,
                self.schema_name(e)?
            ),
            Ty::Range(t) => format!("Range_of_{}", self.schema_name(t)?),
            Ty::Bound(t) => format!("Bound_of_{}", self.schema_name(t)?),
            Ty::Either(l, r) => format!(
                "Either_{}_or_{}",
                self.schema_name(l)?,
                self.schema_name(r)?
            ),
            Ty::BoundedSeq(t, n) => format!("Array_up_to_size_{n}_of_{}", self.schema_name(t)?),
            Ty::Adt(adt) => self.adt_name(adt)?,
            Ty::Override(_) => "Schema".into(),
            Ty::Literal(l) => l.name.clone(),
        })
    }

    pub(crate) fn is_option(&self, ty: &Ty) -> bool {
        matches!(ty, Ty::Option(_))
    }

    /// `SchemaGenerator::subschema_for`: the schema, or a `$ref` to it in `$defs`.
    pub(crate) fn subschema_for(&mut self, ty: &Ty) -> PResult<Value> {
        if self.inline(ty)? {
            return self.json_schema(ty);
        }
        let id = self.schema_id(ty)?;
        if self.root_id.as_deref() == Some(id.as_str()) {
            return Ok(json!({"$ref": "#"}));
        }
        let name = match self.id_to_name.get(&id) {
            Some(n) => n.clone(),
            None => {
                let base = self.schema_name(ty)?;
                let mut name = base.clone();
                let mut i = 2;
                while self.used_names.contains(&name) {
                    name = format!("{base}{i}");
                    i += 1;
                }
                self.used_names.insert(name.clone());
                self.id_to_name.insert(id, name.clone());
                name
            }
        };
        let reference = format!("#/$defs/{}", encode_ref_name(&name));
        if !self.defs.contains_key(&name) {
            self.defs.insert(name.clone(), Value::Bool(false));
            let schema = self.json_schema(ty)?;
            self.defs.insert(name, schema);
        }
        Ok(json!({ "$ref": reference }))
    }

    /// `JsonSchema::json_schema()`.
    pub(crate) fn json_schema(&mut self, ty: &Ty) -> PResult<Value> {
        self.depth += 1;
        let result = if self.depth > MAX_NESTING {
            Err(super::error::Problem::new(
                self.schema_name(ty).unwrap_or_default(),
                "the type nests without end (a cycle schemars cannot render either)",
            ))
        } else {
            self.json_schema_inner(ty)
        };
        self.depth -= 1;
        result
    }

    fn json_schema_inner(&mut self, ty: &Ty) -> PResult<Value> {
        Ok(match ty {
            Ty::Prim(p) => p.schema(self.contract),
            Ty::Option(t) => {
                let mut s = self.subschema_for(t)?;
                super::helpers::allow_null(&mut s);
                s
            }
            Ty::Seq(t) => json!({"type": "array", "items": self.subschema_for(t)?}),
            Ty::Set(t) => {
                json!({"type": "array", "uniqueItems": true, "items": self.subschema_for(t)?})
            }
            Ty::Array(_, 0) => json!({"type": "array", "maxItems": 0}),
            Ty::Array(t, n) => {
                json!({"type": "array", "items": self.subschema_for(t)?, "minItems": n, "maxItems": n})
            }
            Ty::Tuple(ts) => {
                let mut items = Vec::new();
                for t in ts {
                    items.push(self.subschema_for(t)?);
                }
                json!({"type": "array", "prefixItems": items, "minItems": ts.len(), "maxItems": ts.len()})
            }
            Ty::Map(k, v) => self.map_schema(k, v)?,
            Ty::Result(t, e) => json!({
                "oneOf": [
                    {"type": "object", "properties": {"Ok": self.subschema_for(t)?}, "required": ["Ok"]},
                    {"type": "object", "properties": {"Err": self.subschema_for(e)?}, "required": ["Err"]}
                ]
            }),
            Ty::Range(t) => {
                let s = self.subschema_for(t)?;
                json!({"type": "object", "properties": {"start": s, "end": s}, "required": ["start", "end"]})
            }
            Ty::Bound(t) => json!({
                "oneOf": [
                    {"type": "object", "properties": {"Included": self.subschema_for(t)?}, "required": ["Included"]},
                    {"type": "object", "properties": {"Excluded": self.subschema_for(t)?}, "required": ["Excluded"]},
                    {"type": "string", "const": "Unbounded"}
                ]
            }),
            Ty::Either(l, r) => json!({
                "oneOf": [
                    {"type": "object", "properties": {"Left": self.subschema_for(l)?}, "additionalProperties": false, "required": ["Left"]},
                    {"type": "object", "properties": {"Right": self.subschema_for(r)?}, "additionalProperties": false, "required": ["Right"]}
                ]
            }),
            Ty::BoundedSeq(t, n) => {
                json!({"type": "array", "items": self.subschema_for(t)?, "maxItems": n})
            }
            Ty::Adt(adt) => self.adt_schema(adt)?,
            Ty::Override(v) => (**v).clone(),
            Ty::Literal(l) => l.schema.clone(),
        })
    }

    /// `_schemars_private_non_optional_json_schema`.
    pub(crate) fn non_optional_json_schema(&mut self, ty: &Ty) -> PResult<Value> {
        match ty {
            Ty::Option(t) => self.non_optional_json_schema(t),
            other => self.json_schema(other),
        }
    }

    /// schemars' `BTreeMap<K, V>` schema.
    fn map_schema(&mut self, k: &Ty, v: &Ty) -> PResult<Value> {
        let key_schema = self.json_schema(k)?;
        let value_schema = self.subschema_for(v)?;

        let options: Option<Vec<Map<String, Value>>> =
            match key_schema.get("anyOf").and_then(Value::as_array) {
                Some(a) => a.iter().map(|o| o.as_object().cloned()).collect(),
                None => key_schema.as_object().map(|o| vec![o.clone()]),
            };
        let Some(mut options) = options else {
            return Ok(json!({"additionalProperties": value_schema, "type": "object"}));
        };
        for option in &mut options {
            let def = option
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix("#/$defs/"))
                .and_then(|r| self.defs.get(r))
                .and_then(Value::as_object)
                .cloned();
            if let Some(d) = def {
                *option = d;
            }
        }
        let mut additional = false;
        let mut integers = 0u8; // 0 none, 1 unsigned, 2 signed
        let mut patterns = std::collections::BTreeSet::new();
        let mut properties = std::collections::BTreeSet::new();
        for option in &options {
            let pattern = option.get("pattern").and_then(Value::as_str);
            let enum_values: Option<Vec<&str>> = option
                .get("enum")
                .and_then(Value::as_array)
                .and_then(|a| a.iter().map(Value::as_str).collect());
            let ty = option.get("type").and_then(Value::as_str);
            let minimum = option.get("minimum").and_then(Value::as_u64);
            match (pattern, enum_values, ty) {
                (Some(p), _, Some("string")) => {
                    patterns.insert(p.to_string());
                }
                (None, Some(values), Some("string")) => {
                    for v in values {
                        properties.insert(v.to_string());
                    }
                }
                (_, _, Some("integer")) if minimum == Some(0) => integers = integers.max(1),
                (_, _, Some("integer")) => integers = integers.max(2),
                _ => additional = true,
            }
        }
        let mut map = Map::new();
        map.insert("type".into(), "object".into());
        map.insert(
            "additionalProperties".into(),
            if additional {
                value_schema.clone()
            } else {
                Value::Bool(false)
            },
        );
        match integers {
            1 => {
                patterns.insert(r"^\d+$".to_string());
            }
            2 => {
                patterns.insert(r"^-?\d+$".to_string());
            }
            _ => {}
        }
        if !patterns.is_empty() {
            let pm: Map<String, Value> = patterns
                .into_iter()
                .map(|p| (p, value_schema.clone()))
                .collect();
            map.insert("patternProperties".into(), Value::Object(pm));
        }
        if !properties.is_empty() {
            let pm: Map<String, Value> = properties
                .into_iter()
                .map(|p| (p, value_schema.clone()))
                .collect();
            map.insert("properties".into(), Value::Object(pm));
        }
        Ok(Value::Object(map))
    }
}

/// schemars' `encode_ref_name`: JSON-pointer and percent encoding of a `$defs` key.
pub(crate) fn encode_ref_name(name: &str) -> String {
    fn needs_encoding(byte: u8) -> bool {
        match byte {
            b'~' | b'/' => true,
            b'!' | b'$' | b'&'..=b';' | b'=' | b'?'..=b'Z' | b'_' | b'a'..=b'z' => false,
            _ => true,
        }
    }
    let mut buf = String::new();
    for byte in name.bytes() {
        if byte == b'~' {
            buf.push_str("~0");
        } else if byte == b'/' {
            buf.push_str("~1");
        } else if needs_encoding(byte) {
            buf.push_str(&format!("%{byte:2X}"));
        } else {
            buf.push(byte as char);
        }
    }
    buf
}
