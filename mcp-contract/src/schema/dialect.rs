//! Reads a schema document once as its dialect means it and writes it in
//! the one dialect the comparator reads (2020-12), with spellings that
//! accept the same values made equal. Everything after this step compares
//! meanings, so an SDK upgrade that only switches `$schema` (draft-07 →
//! 2020-12) or respells a bound is no change.
//!
//! Per dialect (a document without `$schema` follows MCP's default, 2020-12;
//! a nested `$schema` switches the dialect for its subtree):
//! - draft-04/06/07: keywords beside `$ref` are ignored (only containers
//!   other references may point into, and annotations, are kept);
//!   `dependencies` splits into `dependentRequired` and `dependentSchemas`;
//! - keywords a later draft brought (`const` and `contains` in draft-04,
//!   `if` in draft-06, `dependentRequired` and `unevaluated*` in draft-07,
//!   …) are unknown to the declared one: its validators ignore them, and
//!   so does the comparator;
//! - `type` inside `propertyNames` admitting strings is dropped (every
//!   name is a string);
//! - draft-04: `integer` is a number written without a fraction (`2.0` is
//!   not one), read as [`LEXICAL_INTEGER`];
//! - draft-04: `id` becomes `$id` (or `$anchor` for `#name`); its boolean
//!   `exclusiveMinimum`/`exclusiveMaximum` become the numeric forms (in any
//!   dialect: a boolean there means nothing else);
//! - array-form `items` (before 2020-12; written anyway by converters that
//!   leave `$schema` out) becomes `prefixItems`, and `additionalItems`
//!   becomes `items`.
//!
//! In every dialect:
//! - a number written with a zero fraction is the integer it equals
//!   (`1.0` is `1`), in bounds and in `enum`/`const` values alike;
//! - on an integer-only node, exclusive and fractional bounds become the
//!   inclusive integer bounds they allow (`exclusiveMinimum: 0` is
//!   `minimum: 1`);
//! - `additionalProperties: true` (and `items`/`additionalItems: true`) is
//!   dropped, as absent, and a name listed in `required` alone is declared
//!   (`{}`: callers send it with any value) — unless the document uses
//!   `unevaluated*`, which reads what those keywords evaluated;
//! - `anyOf`/`oneOf` of a schema and its negation says nothing, and an
//!   `allOf` of them makes its node accept nothing;
//! - `$schema` is taken off every node: the dialect is kept beside the
//!   document ([`Normalized::dialect`]).
//!
//! References that pointed into a renamed keyword are rewritten to its new
//! place, and references written against an embedded resource's `$id` to
//! the pointer of their target ([`super::bases`]): after this step `$id`
//! decides nothing, and is an annotation. The walk is bounded by [`MAX_DEPTH`]; deeper nodes stay as written
//! (the comparator reports its own depth limit there).

use std::borrow::Cow;
use std::collections::BTreeSet;

use serde_json::{Map, Number, Value};

use super::numeric::Num;
use super::types::LEXICAL_INTEGER;

/// Deepest nesting the normalizer rewrites.
const MAX_DEPTH: usize = 256;

/// A JSON Schema dialect, by the draft its `$schema` names.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Dialect {
    Draft3,
    Draft4,
    Draft6,
    Draft7,
    Draft2019,
    Draft2020,
    /// A `$schema` naming no draft this engine knows (a custom meta-schema):
    /// read as 2020-12, and a switch to or from it is reported as such.
    Unknown(String),
}

impl Dialect {
    /// The dialect a `$schema` URI names (`http`/`https`, a trailing `#`
    /// and the like do not matter).
    pub fn from_uri(uri: &str) -> Dialect {
        let known = [
            ("2020-12", Dialect::Draft2020),
            ("2019-09", Dialect::Draft2019),
            ("draft-07", Dialect::Draft7),
            ("draft-06", Dialect::Draft6),
            ("draft-04", Dialect::Draft4),
            ("draft-03", Dialect::Draft3),
        ];
        known
            .into_iter()
            .find(|(d, _)| uri.contains(d))
            .map(|(_, d)| d)
            .unwrap_or_else(|| Dialect::Unknown(uri.trim_end_matches('#').to_string()))
    }

    /// The dialect of a document: its root `$schema`, or MCP's default.
    pub fn of_document(doc: &Value) -> Dialect {
        doc.get("$schema")
            .and_then(Value::as_str)
            .map_or(Dialect::Draft2020, Dialect::from_uri)
    }

    pub fn name(&self) -> &str {
        match self {
            Dialect::Draft3 => "draft-03",
            Dialect::Draft4 => "draft-04",
            Dialect::Draft6 => "draft-06",
            Dialect::Draft7 => "draft-07",
            Dialect::Draft2019 => "2019-09",
            Dialect::Draft2020 => "2020-12",
            Dialect::Unknown(uri) => uri,
        }
    }

    /// Keywords beside `$ref` are ignored (draft-07 and before).
    fn ref_overrides_siblings(&self) -> bool {
        matches!(
            self,
            Dialect::Draft3 | Dialect::Draft4 | Dialect::Draft6 | Dialect::Draft7
        )
    }

    /// `id` (not `$id`) names a resource or an anchor.
    fn draft4_ids(&self) -> bool {
        matches!(self, Dialect::Draft3 | Dialect::Draft4)
    }

    /// Does this dialect know the keyword `kw`? (Those later drafts
    /// brought are unknown to earlier ones: their validators ignore them.)
    fn knows(&self, kw: &str) -> bool {
        INTRODUCED
            .iter()
            .find(|(k, _)| *k == kw)
            .is_none_or(|(_, since)| self >= since)
    }
}

/// Validation keywords and the draft that brought each (a custom
/// dialect, read as 2020-12, knows them all).
const INTRODUCED: &[(&str, Dialect)] = &[
    ("const", Dialect::Draft6),
    ("contains", Dialect::Draft6),
    ("propertyNames", Dialect::Draft6),
    ("if", Dialect::Draft7),
    ("then", Dialect::Draft7),
    ("else", Dialect::Draft7),
    ("dependentRequired", Dialect::Draft2019),
    ("dependentSchemas", Dialect::Draft2019),
    ("unevaluatedProperties", Dialect::Draft2019),
    ("unevaluatedItems", Dialect::Draft2019),
    ("minContains", Dialect::Draft2019),
    ("maxContains", Dialect::Draft2019),
    ("$recursiveRef", Dialect::Draft2019),
    ("prefixItems", Dialect::Draft2020),
    ("$dynamicRef", Dialect::Draft2020),
];

/// A schema document read in its dialect and written as 2020-12.
#[derive(Debug, Clone)]
pub struct Normalized<'a> {
    pub doc: Cow<'a, Value>,
    /// The dialect the document declared (at its root).
    pub dialect: Dialect,
}

/// Keywords whose value is one schema.
pub(super) const ONE_SCHEMA: &[&str] = &[
    "additionalProperties",
    "additionalItems",
    "items",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contentSchema",
];
/// Keywords whose value is a list of schemas.
pub(super) const SCHEMA_LISTS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];
/// In the names an enclosing node declares: its `additionalProperties`
/// judges the names it does not declare (no property name starts with NUL).
const JUDGED_ABOVE: &str = "\u{0}additionalProperties";

/// Keywords whose schemas judge the same value as the node they stand in
/// (a name declared there is declared for them too).
const SAME_VALUE: &[&str] = &[
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "dependentSchemas",
];
/// Keywords that stay beside a draft-07 `$ref` although the dialect ignores
/// them for validation: containers other references point into, and
/// annotations (reported, never validated).
const KEPT_BESIDE_REF: &[&str] = &["$ref", "definitions", "$defs"];

/// Normalizes a schema document (see the module doc).
pub fn normalize(doc: &Value) -> Normalized<'_> {
    let dialect = Dialect::of_document(doc);
    let mut w = Walk {
        keep_true: uses_unevaluated(doc, 0),
        moved: vec![],
        changed: false,
    };
    let mut out = doc.clone();
    w.node(&mut out, &dialect, "", 0, &BTreeSet::new());
    if !w.moved.is_empty() {
        rewrite_refs(&mut out, &w.moved, 0);
    }
    // references written against an embedded resource's `$id` become
    // pointers into the document
    w.changed |= super::bases::resolve_bases(&mut out);
    let doc = if w.changed {
        Cow::Owned(out)
    } else {
        Cow::Borrowed(doc)
    };
    Normalized { doc, dialect }
}

struct Walk {
    /// The document reads evaluation results (`unevaluated*`): `true`
    /// schemas that evaluate must stay.
    keep_true: bool,
    /// Pointers moved by a renamed keyword: (old prefix, new prefix).
    moved: Vec<(String, String)>,
    changed: bool,
}

impl Walk {
    /// `declared`: the names the enclosing node declares for the same value
    /// (this node is one of its alternatives, conditions or negations).
    fn node(
        &mut self,
        v: &mut Value,
        outer: &Dialect,
        ptr: &str,
        depth: usize,
        declared: &BTreeSet<String>,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        let Value::Object(m) = v else { return };
        let own = m
            .get("$schema")
            .and_then(Value::as_str)
            .map(Dialect::from_uri);
        let d = own.as_ref().unwrap_or(outer);
        if m.remove("$schema").is_some() {
            self.changed = true;
        }
        let before = m.len();
        m.retain(|k, _| d.knows(k));
        self.changed |= m.len() != before;
        if d.ref_overrides_siblings() && m.contains_key("$ref") {
            let before = m.len();
            m.retain(|k, _| {
                KEPT_BESIDE_REF.contains(&k.as_str())
                    || k.starts_with("x-")
                    || (super::ANNOTATION_KEYWORDS.contains(&k.as_str()) && k != "$id")
            });
            self.changed |= m.len() != before;
        }
        self.boolean_exclusives(m);
        if d.draft4_ids() {
            self.draft4(m);
        }
        // (2020-12 has no array form of `items`: where one is written
        // anyway, as converters without `$schema` do, the tuple it was
        // meant as is the only reading)
        self.tuple_items(m, ptr);
        if d.ref_overrides_siblings() {
            self.dependencies(m, ptr);
        }
        self.numbers(m);
        // every property name is a string: `type` admitting strings says
        // nothing of names
        if let Some(Value::Object(names)) = m.get_mut("propertyNames") {
            let strings = super::types::TypeSet::from_keyword(names.get("type"))
                .contains(super::types::TypeSet::STRING);
            if names.contains_key("type") && strings {
                names.remove("type");
                self.changed = true;
            }
        }
        if !self.keep_true {
            self.required_declares(m, declared);
        }
        if !self.keep_true {
            for k in ["additionalProperties", "items", "additionalItems"] {
                if m.get(k) == Some(&Value::Bool(true)) {
                    m.remove(k);
                    self.changed = true;
                }
            }
        }
        // what applies to the same value inherits this node's declarations
        let mut here = declared.clone();
        if let Some(Value::Object(p)) = m.get("properties") {
            here.extend(p.keys().cloned());
        }
        // (where this node's `additionalProperties` judges the names it does
        // not declare, a branch's declaration would not let one through)
        if m.contains_key("additionalProperties") {
            here.insert(JUDGED_ABOVE.to_string());
        }
        let none = BTreeSet::new();
        for (k, child) in m.iter_mut() {
            let at = || format!("{ptr}/{}", escape(k));
            let inherit = if SAME_VALUE.contains(&k.as_str()) {
                &here
            } else {
                &none
            };
            if ONE_SCHEMA.contains(&k.as_str()) {
                self.node(child, d, &at(), depth + 1, inherit);
            } else if SCHEMA_LISTS.contains(&k.as_str()) {
                if let Value::Array(a) = child {
                    let base = at();
                    for (i, x) in a.iter_mut().enumerate() {
                        self.node(x, d, &format!("{base}/{i}"), depth + 1, inherit);
                    }
                }
            } else if super::NAMED_SCHEMA_KEYWORDS.contains(&k.as_str()) {
                if let Value::Object(named) = child {
                    let base = at();
                    for (name, x) in named.iter_mut() {
                        let at = format!("{base}/{}", escape(name));
                        self.node(x, d, &at, depth + 1, inherit);
                    }
                }
            }
        }
        if !self.keep_true {
            self.complements(v);
        }
    }

    /// Alternatives that hold a schema and its negation: `anyOf`/`oneOf`
    /// `[X, {not: X}]` accept every value (exactly one branch always
    /// matches), so the keyword says nothing; `allOf` `[X, {not: X}]`
    /// accepts none, so neither does the node. (Not where `unevaluated*`
    /// reads what the branches evaluated.)
    fn complements(&mut self, v: &mut Value) {
        let Value::Object(m) = v else { return };
        let negated_pair = |bs: &[Value]| {
            bs.iter().any(|b| {
                b.as_object()
                    .filter(|n| n.len() == 1)
                    .and_then(|n| n.get("not"))
                    .is_some_and(|x| bs.contains(x))
            })
        };
        for kw in ["anyOf", "oneOf"] {
            if let Some(Value::Array(bs)) = m.get(kw) {
                // (oneOf: only the pair, a third branch could match too)
                if negated_pair(bs) && (kw == "anyOf" || bs.len() == 2) {
                    m.remove(kw);
                    self.changed = true;
                }
            }
        }
        if let Some(Value::Array(bs)) = m.get("allOf") {
            if negated_pair(bs) {
                *v = Value::Bool(false);
                self.changed = true;
            }
        }
    }

    /// draft-04's `exclusiveMinimum: true` beside `minimum: m` is
    /// `exclusiveMinimum: m`; `false` (or `true` alone) says nothing. Read
    /// so in every dialect: a boolean there has no other meaning (later
    /// drafts want a number), and converters that leave `$schema` out still
    /// write it.
    fn boolean_exclusives(&mut self, m: &mut Map<String, Value>) {
        for (inclusive, exclusive) in [
            ("minimum", "exclusiveMinimum"),
            ("maximum", "exclusiveMaximum"),
        ] {
            let Some(Value::Bool(b)) = m.get(exclusive).cloned() else {
                continue;
            };
            m.remove(exclusive);
            if b {
                if let Some(bound) = m.remove(inclusive) {
                    m.insert(exclusive.into(), bound);
                }
            }
            self.changed = true;
        }
    }

    /// draft-04: `id` is `$id`, or `$anchor` for a plain name.
    fn draft4(&mut self, m: &mut Map<String, Value>) {
        // `integer` there is a number written without a fraction
        let lexical = |t: &mut Value| {
            if t == "integer" {
                *t = Value::from(LEXICAL_INTEGER);
                true
            } else {
                false
            }
        };
        match m.get_mut("type") {
            Some(Value::Array(ts)) => {
                for t in ts.iter_mut() {
                    self.changed |= lexical(t);
                }
            }
            Some(t) => self.changed |= lexical(t),
            None => {}
        }
        if let Some(Value::String(id)) = m.get("id").cloned() {
            if !m.contains_key("$id") && !m.contains_key("$anchor") {
                m.remove("id");
                match id.strip_prefix('#') {
                    Some(name) if !name.is_empty() && !name.contains('/') => {
                        m.insert("$anchor".into(), Value::String(name.into()));
                    }
                    _ => {
                        m.insert("$id".into(), Value::String(id));
                    }
                }
                self.changed = true;
            }
        }
    }

    /// Array-form `items` is `prefixItems`; `additionalItems` then applies
    /// to the rest (2020-12's `items`), and is ignored without it.
    fn tuple_items(&mut self, m: &mut Map<String, Value>, ptr: &str) {
        if matches!(m.get("items"), Some(Value::Array(_))) && !m.contains_key("prefixItems") {
            let tuple = m.remove("items").unwrap_or_default();
            m.insert("prefixItems".into(), tuple);
            self.moved
                .push((format!("{ptr}/items"), format!("{ptr}/prefixItems")));
            if let Some(rest) = m.remove("additionalItems") {
                m.insert("items".into(), rest);
                self.moved
                    .push((format!("{ptr}/additionalItems"), format!("{ptr}/items")));
            }
            self.changed = true;
        } else if m.remove("additionalItems").is_some() {
            self.changed = true;
        }
    }

    /// `dependencies` maps a name to required names or to a schema.
    fn dependencies(&mut self, m: &mut Map<String, Value>, ptr: &str) {
        let Some(Value::Object(deps)) = m.get("dependencies").cloned() else {
            return;
        };
        m.remove("dependencies");
        for (name, dep) in deps {
            let (kw, value) = match dep {
                Value::Array(_) => ("dependentRequired", dep),
                schema => ("dependentSchemas", schema),
            };
            let from = format!("{ptr}/dependencies/{}", escape(&name));
            let to = format!("{ptr}/{kw}/{}", escape(&name));
            self.moved.push((from, to));
            if let Value::Object(target) = m.entry(kw).or_insert_with(|| Value::Object(Map::new()))
            {
                target.entry(name).or_insert(value);
            }
        }
        self.changed = true;
    }

    /// A name listed in `required`, here or in this node's alternatives
    /// and conditions, with no `properties` entry here, in those branches
    /// or on the node whose alternative this is, takes any value: it is declared here as `{}`,
    /// so callers that send it are judged like those that send a name
    /// declared outright. (Not where `additionalProperties` judges
    /// undeclared names, nor where `unevaluated*` reads what `properties`
    /// evaluated.)
    fn required_declares(&mut self, m: &mut Map<String, Value>, declared: &BTreeSet<String>) {
        if m.contains_key("additionalProperties") || declared.contains(JUDGED_ABOVE) {
            return;
        }
        let (mut required, mut declared_below) = (BTreeSet::new(), BTreeSet::new());
        required_here(m, &mut required, &mut declared_below, 0);
        let missing: Vec<String> = required
            .iter()
            .map(String::as_str)
            .filter(|n| !declared.contains(*n) && !declared_below.contains(*n))
            .filter(|n| {
                !m.get("properties")
                    .and_then(Value::as_object)
                    .is_some_and(|p| p.contains_key(*n))
            })
            .map(str::to_string)
            .collect();
        if missing.is_empty() {
            return;
        }
        if let Value::Object(props) = m
            .entry("properties")
            .or_insert_with(|| Value::Object(Map::new()))
        {
            for n in missing {
                props.insert(n, Value::Object(Map::new()));
            }
            self.changed = true;
        }
    }

    /// Integral spellings of numbers, and integer-only bounds made inclusive.
    fn numbers(&mut self, m: &mut Map<String, Value>) {
        for k in [
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
            "minLength",
            "maxLength",
            "minItems",
            "maxItems",
            "minProperties",
            "maxProperties",
            "minContains",
            "maxContains",
        ] {
            if let Some(x) = m.get_mut(k) {
                self.changed |= integral(x);
            }
        }
        for k in ["enum", "const"] {
            if let Some(x) = m.get_mut(k) {
                self.changed |= integral_data(x, 0);
            }
        }
        if integer_only(m.get("type")) {
            self.integer_bounds(m);
        }
    }

    fn integer_bounds(&mut self, m: &mut Map<String, Value>) {
        for lower in [true, false] {
            let (inclusive, exclusive) = if lower {
                ("minimum", "exclusiveMinimum")
            } else {
                ("maximum", "exclusiveMaximum")
            };
            // the tightest integer each keyword allows
            let step = |v: &Value, excl: bool| -> Option<i128> {
                let n = Num::from_value(v)?;
                let i = match n {
                    Num::Int(i) if excl => {
                        if lower {
                            i + 1
                        } else {
                            i - 1
                        }
                    }
                    Num::Int(i) => i,
                    Num::Float(f) => {
                        let r = if lower { f.floor() } else { f.ceil() };
                        if r.abs() >= 1e30 {
                            return None;
                        }
                        let r = r as i128;
                        match (lower, excl || r as f64 != f) {
                            (true, true) if (r as f64) <= f => r + 1,
                            (false, true) if (r as f64) >= f => r - 1,
                            _ => r,
                        }
                    }
                };
                Some(i)
            };
            let inc = m.get(inclusive).map(|v| step(v, false));
            let exc = m.get(exclusive).map(|v| step(v, true));
            if inc == Some(None) || exc == Some(None) || (inc.is_none() && exc.is_none()) {
                continue;
            }
            let bound = [inc.flatten(), exc.flatten()]
                .into_iter()
                .flatten()
                .reduce(|a, b| if lower { a.max(b) } else { a.min(b) });
            let Some(number) = bound.and_then(int_number) else {
                continue;
            };
            let new = Value::Number(number);
            if m.get(inclusive) != Some(&new) || m.contains_key(exclusive) {
                m.remove(exclusive);
                m.insert(inclusive.into(), new);
                self.changed = true;
            }
        }
    }
}

/// The names `required` lists in `m` and in what judges the same value
/// (alternatives and conditional branches), to a bounded depth, and the
/// names those branches declare themselves (a variant's own field).
fn required_here(
    m: &Map<String, Value>,
    out: &mut BTreeSet<String>,
    declared: &mut BTreeSet<String>,
    depth: usize,
) {
    if depth > 16 {
        return;
    }
    if let Some(Value::Array(r)) = m.get("required") {
        out.extend(r.iter().filter_map(Value::as_str).map(str::to_string));
    }
    if depth > 0 {
        if let Some(Value::Object(p)) = m.get("properties") {
            declared.extend(p.keys().cloned());
        }
    }
    // (a name required under `not` or `if` is not one callers send)
    for k in [
        "allOf",
        "anyOf",
        "oneOf",
        "then",
        "else",
        "dependentSchemas",
    ] {
        match m.get(k) {
            Some(Value::Object(b)) if k != "dependentSchemas" => {
                required_here(b, out, declared, depth + 1)
            }
            Some(Value::Object(named)) => {
                for b in named.values().filter_map(Value::as_object) {
                    required_here(b, out, declared, depth + 1);
                }
            }
            Some(Value::Array(bs)) => {
                for b in bs.iter().filter_map(Value::as_object) {
                    required_here(b, out, declared, depth + 1);
                }
            }
            _ => {}
        }
    }
}

/// `type` admits numbers only as integers (`"integer"`, or a list with
/// `"integer"` and no `"number"`).
fn integer_only(t: Option<&Value>) -> bool {
    let integer = |t: &Value| t == "integer" || t == LEXICAL_INTEGER;
    match t {
        Some(Value::Array(a)) => a.iter().any(integer) && !a.iter().any(|t| t == "number"),
        Some(t) => integer(t),
        None => false,
    }
}

fn int_number(i: i128) -> Option<Number> {
    if let Ok(x) = i64::try_from(i) {
        Some(Number::from(x))
    } else {
        u64::try_from(i).ok().map(Number::from)
    }
}

/// A float with no fraction that an `i64`/`u64` holds becomes that integer.
fn integral(v: &mut Value) -> bool {
    let Value::Number(n) = v else { return false };
    if !n.is_f64() {
        return false;
    }
    let Some(f) = n.as_f64() else { return false };
    if f.fract() != 0.0 || !f.is_finite() || f.abs() >= 1.8e19 {
        return false;
    }
    match int_number(f as i128) {
        Some(i) => {
            *v = Value::Number(i);
            true
        }
        None => false,
    }
}

/// [`integral`] for every number inside a data value.
fn integral_data(v: &mut Value, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    match v {
        Value::Number(_) => integral(v),
        Value::Array(a) => a
            .iter_mut()
            .fold(false, |acc, x| integral_data(x, depth + 1) | acc),
        Value::Object(m) => m
            .values_mut()
            .fold(false, |acc, x| integral_data(x, depth + 1) | acc),
        _ => false,
    }
}

fn uses_unevaluated(v: &Value, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return true;
    }
    match v {
        Value::Object(m) => m.iter().any(|(k, x)| {
            k == "unevaluatedProperties"
                || k == "unevaluatedItems"
                || uses_unevaluated(x, depth + 1)
        }),
        Value::Array(a) => a.iter().any(|x| uses_unevaluated(x, depth + 1)),
        _ => false,
    }
}

fn escape(k: &str) -> Cow<'_, str> {
    if k.contains(['~', '/']) {
        Cow::Owned(k.replace('~', "~0").replace('/', "~1"))
    } else {
        Cow::Borrowed(k)
    }
}

/// Points every local reference into a moved keyword at its new place.
fn rewrite_refs(v: &mut Value, moved: &[(String, String)], depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                if k == "$ref" {
                    if let Value::String(r) = x {
                        if let Some(p) = r.strip_prefix('#') {
                            if let Some(new) = moved_pointer(p, moved) {
                                *r = format!("#{new}");
                            }
                        }
                    }
                } else if !super::DATA_KEYWORDS.contains(&k.as_str()) {
                    rewrite_refs(x, moved, depth + 1);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| rewrite_refs(x, moved, depth + 1)),
        _ => {}
    }
}

fn moved_pointer(p: &str, moved: &[(String, String)]) -> Option<String> {
    // the longest moved prefix first: nested moves apply inside out
    let mut p = p.to_string();
    let mut any = false;
    let mut sorted: Vec<&(String, String)> = moved.iter().collect();
    sorted.sort_by_key(|(from, _)| std::cmp::Reverse(from.len()));
    for (from, to) in sorted {
        if p == *from || p.starts_with(&format!("{from}/")) {
            p = format!("{to}{}", &p[from.len()..]);
            any = true;
        }
    }
    any.then_some(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn norm(v: Value) -> Value {
        normalize(&v).doc.into_owned()
    }

    #[test]
    fn a_schema_switch_alone_is_no_change() {
        let old =
            json!({"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]});
        let mut new = old.clone();
        new["$schema"] = json!("http://json-schema.org/draft-07/schema#");
        assert_eq!(norm(new.clone()), old);
        assert_eq!(normalize(&new).dialect, Dialect::Draft7);
        assert_eq!(normalize(&old).dialect, Dialect::Draft2020);
    }

    #[test]
    fn draft07_ignores_siblings_of_ref_and_keeps_definitions() {
        let doc = json!({"$schema": "http://json-schema.org/draft-07/schema#",
            "$ref": "#/definitions/A", "maxLength": 3, "description": "d",
            "definitions": {"A": {"type": "string"}}});
        assert_eq!(
            norm(doc),
            json!({"$ref": "#/definitions/A", "description": "d", "definitions": {"A": {"type": "string"}}})
        );
        // 2020-12 keeps them: they apply beside the reference
        let doc = json!({"$ref": "#/$defs/A", "maxLength": 3, "$defs": {"A": {"type": "string"}}});
        assert_eq!(norm(doc.clone()), doc);
    }

    #[test]
    fn tuple_items_and_dependencies_become_2020_12_keywords() {
        let doc = json!({"$schema": "http://json-schema.org/draft-07/schema#",
            "type": "array", "items": [{"type": "string"}], "additionalItems": false,
            "dependencies": {"a": ["b"], "c": {"required": ["d"]}},
            "properties": {"r": {"$ref": "#/items/0"}}});
        assert_eq!(
            norm(doc),
            json!({"type": "array", "prefixItems": [{"type": "string"}], "items": false,
                "dependentRequired": {"a": ["b"]}, "dependentSchemas": {"c": {"required": ["d"]}},
                "properties": {"d": {}, "r": {"$ref": "#/prefixItems/0"}}})
        );
    }

    #[test]
    fn draft04_boolean_exclusives_and_plain_name_ids() {
        let doc = json!({"$schema": "http://json-schema.org/draft-04/schema#",
            "type": "number", "minimum": 0, "exclusiveMinimum": true, "maximum": 9, "exclusiveMaximum": false,
            "definitions": {"f": {"id": "#foo", "type": "string"}}});
        assert_eq!(
            norm(doc),
            json!({"type": "number", "exclusiveMinimum": 0, "maximum": 9,
                "definitions": {"f": {"$anchor": "foo", "type": "string"}}})
        );
    }

    #[test]
    fn integer_bounds_and_numbers_are_read_exactly() {
        assert_eq!(
            norm(json!({"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 1000000})),
            json!({"type": "integer", "minimum": 1, "maximum": 999999})
        );
        assert_eq!(
            norm(json!({"type": "integer", "minimum": 0.5, "maximum": 2.5})),
            json!({"type": "integer", "minimum": 1, "maximum": 2})
        );
        assert_eq!(
            norm(json!({"type": "integer", "exclusiveMinimum": 1.5, "minimum": 0})),
            json!({"type": "integer", "minimum": 2})
        );
        assert_eq!(
            norm(json!({"enum": [1.0, 2.5, [3.0]], "const": 1.0, "multipleOf": 2.0})),
            json!({"enum": [1, 2.5, [3]], "const": 1, "multipleOf": 2})
        );
        // a number type keeps exclusive bounds (1.5 is between 1 and 2)
        let n = json!({"type": "number", "exclusiveMinimum": 1});
        assert_eq!(norm(n.clone()), n);
        let big = json!({"type": "integer", "exclusiveMinimum": 9007199254740992u64});
        assert_eq!(
            norm(big),
            json!({"type": "integer", "minimum": 9007199254740993u64})
        );
    }

    #[test]
    fn a_schema_beside_its_negation_is_read_as_what_it_accepts() {
        let x = json!({"type": "string", "maxLength": 3});
        assert_eq!(norm(json!({"anyOf": [x, {"not": x}]})), json!({}));
        assert_eq!(
            norm(json!({"type": "object", "properties": {"a": {"allOf": [x, {"not": x}]}}})),
            json!({"type": "object", "properties": {"a": false}})
        );
        // a third branch of a oneOf could match as well
        let three = json!({"oneOf": [x, {"not": x}, {"type": "string"}]});
        assert_eq!(norm(three.clone()), three);
    }

    #[test]
    fn keywords_a_later_draft_brought_constrain_nothing() {
        let d4 = json!({"$schema": "http://json-schema.org/draft-04/schema#",
            "oneOf": [{"enum": ["Low"]}, {"const": "Urgent"}]});
        assert_eq!(norm(d4), json!({"oneOf": [{"enum": ["Low"]}, {}]}));
        let d7 = json!({"$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object", "dependentRequired": {"a": ["b"]}, "if": {"required": ["a"]}});
        assert_eq!(
            norm(d7),
            json!({"type": "object", "if": {"required": ["a"], "properties": {"a": {}}}})
        );
    }

    #[test]
    fn true_schemas_drop_unless_evaluation_is_read() {
        assert_eq!(
            norm(json!({"type": "object", "additionalProperties": true})),
            json!({"type": "object"})
        );
        let kept =
            json!({"allOf": [{"additionalProperties": true}], "unevaluatedProperties": false});
        assert_eq!(norm(kept.clone()), kept);
    }
}
