//! Argument validation before the handler: a call's arguments checked
//! against the tool's locked `inputSchema`, so a missing or mistyped
//! argument is answered with the place and what the schema expects there
//! (`INVALID_ARGUMENTS`), not with the deserializer's text after the
//! handler was chosen.
//!
//! The schema is read as its dialect means it ([`dialect::normalize`]: the
//! comparator's own reading, draft-07 `$ref` siblings dropped, array
//! `items` as `prefixItems`, `1.0` as `1`) and compiled once into a graph
//! of nodes ([`Validator::compile`]); a call walks the nodes, never the
//! schema text. Numbers compare exactly ([`Num`]: integers past 2^53 are
//! not rounded, `multipleOf` is decimal).
//!
//! Three answers, never a guess: valid, invalid (with every failing place,
//! up to [`MAX_ERRORS`]), or not decided. A keyword decided here is
//! decided exactly; where it is not (a `pattern` other than literal text,
//! `unevaluatedProperties`/`unevaluatedItems`, `$dynamicRef`, a reference
//! outside the document, a walk past [`MAX_STEPS`]), the answer is "not
//! decided" and the call goes on to the handler unchanged: the layer never
//! refuses a call the schema accepts. `format` follows the project's
//! policy (`schema::graph::format`): the integer and float widths
//! schemars writes (`uint8`, `int32`, ...) are the ranges serde enforces,
//! and refused past them; a string format the policy asserts (`date-time`,
//! `email`, `uuid`, ...) needs a checker this layer does not link, so such
//! a string is not decided; any other format is an annotation.

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::schema::numeric::{format_range, is_integer_format, Bound, Num};
use crate::schema::types::TypeSet;
use crate::schema::vocabulary::ASSERTED_FORMATS;
use crate::schema::{dialect, refs};

/// Most failing places one answer lists.
pub const MAX_ERRORS: usize = 16;
/// Most node visits one call's validation makes (past that: not decided).
pub const MAX_STEPS: usize = 100_000;
/// Most nodes one schema compiles to (past that a node decides nothing).
pub const MAX_NODES: usize = 4096;
/// Deepest nesting of nodes one answer walks.
const MAX_DEPTH: usize = 128;

/// One place where the arguments are not what the schema expects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid {
    /// JSON pointer into the arguments (`/limit`, `/items/0/sku`; `""` for
    /// the arguments object itself).
    pub pointer: String,
    /// The keyword that refused it (`type`, `required`, `maximum`, ...).
    pub keyword: &'static str,
    /// What the schema expects there, in words (`an integer`, `at most 50`).
    pub expected: String,
}

/// The answer for one instance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Valid,
    Invalid(Vec<Invalid>),
    /// Some keyword on the way could not be decided here (and none refused).
    Undecided,
}

impl Verdict {
    fn and(self, other: Verdict) -> Verdict {
        match (self, other) {
            (Verdict::Invalid(mut a), Verdict::Invalid(b)) => {
                for e in b {
                    if a.len() >= MAX_ERRORS {
                        break;
                    }
                    a.push(e);
                }
                Verdict::Invalid(a)
            }
            (v @ Verdict::Invalid(_), _) | (_, v @ Verdict::Invalid(_)) => v,
            (Verdict::Undecided, _) | (_, Verdict::Undecided) => Verdict::Undecided,
            _ => Verdict::Valid,
        }
    }

    fn fail(pointer: &str, keyword: &'static str, expected: String) -> Verdict {
        Verdict::Invalid(vec![Invalid {
            pointer: pointer.to_string(),
            keyword,
            expected,
        }])
    }
}

/// What a width `format` confines numbers to.
#[derive(Debug, Clone)]
struct Width {
    lo: Bound,
    hi: Bound,
    integral: bool,
    name: String,
}

/// One schema, compiled.
#[derive(Debug, Clone, Default)]
pub struct Validator {
    nodes: Vec<Node>,
}

/// One schema node: each keyword this module decides, typed.
#[derive(Debug, Clone, Default)]
struct Node {
    /// `true`/`false` schemas.
    always: Option<bool>,
    /// A keyword here is not decided (see the module doc).
    undecided: bool,
    types: Option<TypeSet>,
    enumeration: Option<Vec<Value>>,
    constant: Option<Value>,
    minimum: Option<Num>,
    maximum: Option<Num>,
    exclusive_minimum: Option<Num>,
    exclusive_maximum: Option<Num>,
    multiple_of: Option<Num>,
    min_length: Option<u64>,
    max_length: Option<u64>,
    pattern: Option<String>,
    /// A `format` the policy asserts on strings (not decided here).
    string_format: bool,
    /// A width `format` (`uint8`, `float`, ...): the range it confines
    /// numbers to, whether it takes integers only, and its name.
    width: Option<Width>,
    prefix_items: Vec<usize>,
    items: Option<usize>,
    contains: Option<usize>,
    min_contains: Option<u64>,
    max_contains: Option<u64>,
    min_items: Option<u64>,
    max_items: Option<u64>,
    unique_items: bool,
    properties: Vec<(String, usize)>,
    pattern_properties: Vec<(String, usize)>,
    additional_properties: Option<usize>,
    property_names: Option<usize>,
    min_properties: Option<u64>,
    max_properties: Option<u64>,
    required: Vec<String>,
    dependent_required: Vec<(String, Vec<String>)>,
    dependent_schemas: Vec<(String, usize)>,
    all_of: Vec<usize>,
    any_of: Vec<usize>,
    one_of: Vec<usize>,
    not: Option<usize>,
    condition: Option<(usize, Option<usize>, Option<usize>)>,
    reference: Option<usize>,
}

impl Validator {
    /// Compiles an input schema (any dialect; `$schema` decides which).
    pub fn compile(schema: &Value) -> Validator {
        let normalized = dialect::normalize(schema);
        let doc: &Value = &normalized.doc;
        let mut c = Compiler {
            doc,
            nodes: vec![],
            at: HashMap::new(),
        };
        c.build(doc, 0);
        Validator { nodes: c.nodes }
    }

    /// Validates one call's arguments (the object a call sends).
    pub fn validate(&self, arguments: &Value) -> Verdict {
        if self.nodes.is_empty() {
            return Verdict::Undecided;
        }
        let mut walk = Walk {
            nodes: &self.nodes,
            steps: 0,
        };
        let mut pointer = String::new();
        walk.eval(0, arguments, &mut pointer, 0)
    }

    /// Whether some node of the schema holds a keyword this module does not
    /// decide (each call reaching it may be answered "not decided").
    pub fn has_undecided(&self) -> bool {
        self.nodes.iter().any(|n| {
            n.undecided
                || n.pattern
                    .as_deref()
                    .is_some_and(|p| literal_match(p, "").is_none())
                || n.pattern_properties
                    .iter()
                    .any(|(p, _)| literal_match(p, "").is_none())
        })
    }
}

struct Compiler<'a> {
    doc: &'a Value,
    nodes: Vec<Node>,
    /// Nodes by the address of the schema they were built from: a schema
    /// referenced twice (or recursively) is one node.
    at: HashMap<usize, usize>,
}

impl<'a> Compiler<'a> {
    fn build(&mut self, v: &'a Value, depth: usize) -> usize {
        let key = v as *const Value as usize;
        if let Some(&i) = self.at.get(&key) {
            return i;
        }
        let i = self.nodes.len();
        if i >= MAX_NODES || depth > MAX_DEPTH {
            self.nodes.push(Node {
                undecided: true,
                ..Node::default()
            });
            return i;
        }
        self.nodes.push(Node::default());
        self.at.insert(key, i);
        let node = match v {
            Value::Bool(b) => Node {
                always: Some(*b),
                ..Node::default()
            },
            Value::Object(m) => self.object(m, depth),
            // not a schema: validators refuse to compile it; here it decides nothing
            _ => Node {
                undecided: true,
                ..Node::default()
            },
        };
        self.nodes[i] = node;
        i
    }

    fn list(&mut self, v: Option<&'a Value>, depth: usize) -> Vec<usize> {
        match v {
            Some(Value::Array(items)) => items.iter().map(|s| self.build(s, depth + 1)).collect(),
            _ => vec![],
        }
    }

    fn one(&mut self, v: Option<&'a Value>, depth: usize) -> Option<usize> {
        v.map(|s| self.build(s, depth + 1))
    }

    fn named(&mut self, v: Option<&'a Value>, depth: usize) -> Vec<(String, usize)> {
        match v {
            Some(Value::Object(m)) => m
                .iter()
                .map(|(k, s)| (k.clone(), self.build(s, depth + 1)))
                .collect(),
            _ => vec![],
        }
    }

    fn object(&mut self, m: &'a Map<String, Value>, depth: usize) -> Node {
        let num = |k: &str| m.get(k).and_then(Num::from_value);
        let count = |k: &str| m.get(k).and_then(count_of);
        let mut n = Node {
            types: m.get("type").map(|t| TypeSet::from_keyword(Some(t))),
            enumeration: m.get("enum").and_then(Value::as_array).cloned(),
            constant: m.get("const").cloned(),
            minimum: num("minimum"),
            maximum: num("maximum"),
            exclusive_minimum: num("exclusiveMinimum"),
            exclusive_maximum: num("exclusiveMaximum"),
            multiple_of: num("multipleOf").filter(|d| d.as_f64() > 0.0),
            min_length: count("minLength"),
            max_length: count("maxLength"),
            pattern: m.get("pattern").and_then(Value::as_str).map(str::to_string),
            string_format: m
                .get("format")
                .and_then(Value::as_str)
                .is_some_and(|f| ASSERTED_FORMATS.contains(&f)),
            width: m.get("format").and_then(Value::as_str).and_then(|f| {
                let (lo, hi) = format_range(f)?;
                Some(Width {
                    lo,
                    hi,
                    integral: is_integer_format(f),
                    name: f.to_string(),
                })
            }),
            min_contains: count("minContains"),
            max_contains: count("maxContains"),
            min_items: count("minItems"),
            max_items: count("maxItems"),
            unique_items: m.get("uniqueItems") == Some(&Value::Bool(true)),
            min_properties: count("minProperties"),
            max_properties: count("maxProperties"),
            required: strings(m.get("required")),
            ..Node::default()
        };
        if let Some(Value::Object(deps)) = m.get("dependentRequired") {
            n.dependent_required = deps
                .iter()
                .map(|(k, v)| (k.clone(), strings(Some(v))))
                .collect();
        }
        n.prefix_items = self.list(m.get("prefixItems"), depth);
        n.items = self.one(m.get("items"), depth);
        n.contains = self.one(m.get("contains"), depth);
        n.properties = self.named(m.get("properties"), depth);
        n.pattern_properties = self.named(m.get("patternProperties"), depth);
        n.additional_properties = self.one(m.get("additionalProperties"), depth);
        n.property_names = self.one(m.get("propertyNames"), depth);
        n.dependent_schemas = self.named(m.get("dependentSchemas"), depth);
        n.all_of = self.list(m.get("allOf"), depth);
        n.any_of = self.list(m.get("anyOf"), depth);
        n.one_of = self.list(m.get("oneOf"), depth);
        n.not = self.one(m.get("not"), depth);
        if let Some(cond) = m.get("if") {
            let c = self.build(cond, depth + 1);
            let t = self.one(m.get("then"), depth);
            let e = self.one(m.get("else"), depth);
            n.condition = Some((c, t, e));
        }
        if let Some(r) = m.get("$ref").and_then(Value::as_str) {
            match refs::resolve(self.doc, r) {
                Some(target) => n.reference = Some(self.build(target, depth + 1)),
                None => n.undecided = true,
            }
        }
        // Keywords whose evaluation needs what the others evaluated, or a
        // dynamic scope: not decided here.
        for k in [
            "unevaluatedProperties",
            "unevaluatedItems",
            "$dynamicRef",
            "$recursiveRef",
        ] {
            if m.get(k).is_some_and(|v| v != &Value::Bool(true)) {
                n.undecided = true;
            }
        }
        n
    }
}

fn count_of(v: &Value) -> Option<u64> {
    match Num::from_value(v)? {
        Num::Int(i) => u64::try_from(i.max(0)).ok(),
        Num::Float(f) if f.is_finite() && f >= 0.0 => Some(f.ceil() as u64),
        Num::Float(_) => None,
    }
}

fn strings(v: Option<&Value>) -> Vec<String> {
    match v {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        _ => vec![],
    }
}

struct Walk<'a> {
    nodes: &'a [Node],
    steps: usize,
}

/// `pointer` extended by one object key or array index, for the time of `f`.
fn at<R>(pointer: &mut String, token: &str, f: impl FnOnce(&mut String) -> R) -> R {
    let len = pointer.len();
    pointer.push('/');
    for c in token.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
    let r = f(pointer);
    pointer.truncate(len);
    r
}

impl Walk<'_> {
    fn eval(&mut self, i: usize, v: &Value, ptr: &mut String, depth: usize) -> Verdict {
        self.steps += 1;
        if self.steps > MAX_STEPS || depth > MAX_DEPTH {
            return Verdict::Undecided;
        }
        let Some(n) = self.nodes.get(i) else {
            return Verdict::Undecided;
        };
        if let Some(b) = n.always {
            return if b {
                Verdict::Valid
            } else {
                Verdict::fail(
                    ptr,
                    "false",
                    "absent: the schema admits no value here".into(),
                )
            };
        }
        let mut out = if n.undecided {
            Verdict::Undecided
        } else {
            Verdict::Valid
        };
        if let Some(t) = n.types {
            if !t.contains(TypeSet::written(v)) {
                return Verdict::fail(ptr, "type", describe_types(t));
            }
        }
        if let Some(values) = &n.enumeration {
            if !values.iter().any(|e| same(e, v)) {
                out = out.and(Verdict::fail(ptr, "enum", one_of_values(values)));
            }
        }
        if let Some(c) = &n.constant {
            if !same(c, v) {
                out = out.and(Verdict::fail(ptr, "const", format!("exactly {}", short(c))));
            }
        }
        match v {
            Value::Number(num) => out = out.and(self.number(n, Num::from_number(num), ptr)),
            Value::String(s) => out = out.and(self.string(n, s, ptr)),
            Value::Array(items) => out = out.and(self.array(n, items, ptr, depth)),
            Value::Object(m) => out = out.and(self.object(n, v, m, ptr, depth)),
            _ => {}
        }
        if let Some(r) = n.reference {
            out = out.and(self.eval(r, v, ptr, depth + 1));
        }
        for &s in &n.all_of {
            out = out.and(self.eval(s, v, ptr, depth + 1));
        }
        if !n.any_of.is_empty() {
            out = out.and(self.any_of(&n.any_of, v, ptr, depth));
        }
        if !n.one_of.is_empty() {
            out = out.and(self.one_of(&n.one_of, v, ptr, depth));
        }
        if let Some(s) = n.not {
            out = out.and(match self.eval(s, v, ptr, depth + 1) {
                Verdict::Valid => Verdict::fail(
                    ptr,
                    "not",
                    "a value the schema's `not` does not describe".into(),
                ),
                Verdict::Invalid(_) => Verdict::Valid,
                Verdict::Undecided => Verdict::Undecided,
            });
        }
        if let Some((c, t, e)) = n.condition {
            let branch = match self.eval(c, v, ptr, depth + 1) {
                Verdict::Valid => t,
                Verdict::Invalid(_) => e,
                Verdict::Undecided => {
                    // either branch may apply: only what both refuse is refused
                    let a = t.map_or(Verdict::Valid, |t| self.eval(t, v, ptr, depth + 1));
                    let b = e.map_or(Verdict::Valid, |e| self.eval(e, v, ptr, depth + 1));
                    out = out.and(match (a, b) {
                        (Verdict::Invalid(x), Verdict::Invalid(_)) => Verdict::Invalid(x),
                        (Verdict::Valid, Verdict::Valid) => Verdict::Valid,
                        _ => Verdict::Undecided,
                    });
                    None
                }
            };
            if let Some(b) = branch {
                out = out.and(self.eval(b, v, ptr, depth + 1));
            }
        }
        out
    }

    fn any_of(&mut self, alts: &[usize], v: &Value, ptr: &mut String, depth: usize) -> Verdict {
        let mut undecided = false;
        let mut failures = vec![];
        for &a in alts {
            match self.eval(a, v, ptr, depth + 1) {
                Verdict::Valid => return Verdict::Valid,
                Verdict::Undecided => undecided = true,
                Verdict::Invalid(e) => failures.push(e),
            }
        }
        if undecided {
            return Verdict::Undecided;
        }
        Verdict::fail(ptr, "anyOf", alternatives_expected(ptr, &failures))
    }

    fn one_of(&mut self, alts: &[usize], v: &Value, ptr: &mut String, depth: usize) -> Verdict {
        let mut valid = 0;
        let mut undecided = 0;
        let mut failures = vec![];
        for &a in alts {
            match self.eval(a, v, ptr, depth + 1) {
                Verdict::Valid => valid += 1,
                Verdict::Undecided => undecided += 1,
                Verdict::Invalid(e) => failures.push(e),
            }
        }
        match (valid, undecided) {
            (1, 0) => Verdict::Valid,
            (0, 0) => Verdict::fail(ptr, "oneOf", alternatives_expected(ptr, &failures)),
            (v, _) if v >= 2 => Verdict::fail(
                ptr,
                "oneOf",
                format!(
                    "a value matching exactly one of its {} alternatives (it matches {v})",
                    alts.len()
                ),
            ),
            _ => Verdict::Undecided,
        }
    }

    fn number(&self, n: &Node, x: Num, ptr: &str) -> Verdict {
        use std::cmp::Ordering::{Greater, Less};
        let mut failed: Vec<(&'static str, String)> = vec![];
        if let Some(m) = n.minimum.filter(|m| x.total_cmp(m) == Less) {
            failed.push(("minimum", format!("at least {m}")));
        }
        if let Some(m) = n.maximum.filter(|m| x.total_cmp(m) == Greater) {
            failed.push(("maximum", format!("at most {m}")));
        }
        if let Some(m) = n.exclusive_minimum.filter(|m| x.total_cmp(m) != Greater) {
            failed.push(("exclusiveMinimum", format!("greater than {m}")));
        }
        if let Some(m) = n.exclusive_maximum.filter(|m| x.total_cmp(m) != Less) {
            failed.push(("exclusiveMaximum", format!("less than {m}")));
        }
        if let Some(w) = &n.width {
            let outside = |b: &Bound, beyond: std::cmp::Ordering| {
                let o = x.total_cmp(&b.value);
                o == beyond || (o.is_eq() && b.exclusive)
            };
            let fraction = w.integral && matches!(x, Num::Float(f) if f.fract() != 0.0);
            if outside(&w.lo, Less) || outside(&w.hi, Greater) || fraction {
                let kind = if w.integral { "an integer" } else { "a number" };
                failed.push((
                    "format",
                    format!(
                        "{kind} from {} to {} (`{}`)",
                        w.lo.value, w.hi.value, w.name
                    ),
                ));
            }
        }
        let mut undecided = false;
        if let Some(d) = n.multiple_of {
            match is_multiple(x, d) {
                Some(true) => {}
                Some(false) => failed.push(("multipleOf", format!("a multiple of {d}"))),
                None => undecided = true,
            }
        }
        if !failed.is_empty() {
            return Verdict::Invalid(
                failed
                    .into_iter()
                    .map(|(keyword, expected)| Invalid {
                        pointer: ptr.to_string(),
                        keyword,
                        expected,
                    })
                    .collect(),
            );
        }
        if undecided {
            Verdict::Undecided
        } else {
            Verdict::Valid
        }
    }

    fn string(&self, n: &Node, s: &str, ptr: &str) -> Verdict {
        let mut out = Verdict::Valid;
        if n.min_length.is_some() || n.max_length.is_some() {
            let len = s.chars().count() as u64;
            if let Some(m) = n.min_length.filter(|m| len < *m) {
                out = out.and(Verdict::fail(
                    ptr,
                    "minLength",
                    format!("a string of at least {m} character{}", plural(m)),
                ));
            }
            if let Some(m) = n.max_length.filter(|m| len > *m) {
                out = out.and(Verdict::fail(
                    ptr,
                    "maxLength",
                    format!("a string of at most {m} character{}", plural(m)),
                ));
            }
        }
        if n.string_format {
            out = out.and(Verdict::Undecided);
        }
        if let Some(p) = &n.pattern {
            out = out.and(match literal_match(p, s) {
                Some(true) => Verdict::Valid,
                Some(false) => Verdict::fail(ptr, "pattern", format!("a string matching `{p}`")),
                None => Verdict::Undecided,
            });
        }
        out
    }

    fn array(&mut self, n: &Node, items: &[Value], ptr: &mut String, depth: usize) -> Verdict {
        let mut out = Verdict::Valid;
        let len = items.len() as u64;
        if let Some(m) = n.min_items.filter(|m| len < *m) {
            out = out.and(Verdict::fail(
                ptr,
                "minItems",
                format!("an array of at least {m} item{}", plural(m)),
            ));
        }
        if let Some(m) = n.max_items.filter(|m| len > *m) {
            out = out.and(Verdict::fail(
                ptr,
                "maxItems",
                format!("an array of at most {m} item{}", plural(m)),
            ));
        }
        if n.unique_items {
            'outer: for (i, a) in items.iter().enumerate() {
                for b in &items[i + 1..] {
                    self.steps += 1;
                    if self.steps > MAX_STEPS {
                        return out.and(Verdict::Undecided);
                    }
                    if same(a, b) {
                        out = out.and(Verdict::fail(
                            ptr,
                            "uniqueItems",
                            "an array of distinct items".into(),
                        ));
                        break 'outer;
                    }
                }
            }
        }
        for (i, item) in items.iter().enumerate() {
            let schema = n.prefix_items.get(i).copied().or(n.items);
            if let Some(s) = schema {
                let r = at(ptr, &i.to_string(), |p| self.eval(s, item, p, depth + 1));
                out = out.and(r);
            }
        }
        if let Some(c) = n.contains {
            let mut found = 0u64;
            let mut undecided = false;
            for (i, item) in items.iter().enumerate() {
                match at(ptr, &i.to_string(), |p| self.eval(c, item, p, depth + 1)) {
                    Verdict::Valid => found += 1,
                    Verdict::Undecided => undecided = true,
                    Verdict::Invalid(_) => {}
                }
            }
            let min = n.min_contains.unwrap_or(1);
            if found < min && !undecided {
                out = out.and(Verdict::fail(
                    ptr,
                    "contains",
                    format!(
                        "an array with at least {min} item{} matching `contains`",
                        plural(min)
                    ),
                ));
            } else if found < min {
                out = out.and(Verdict::Undecided);
            }
            if let Some(max) = n.max_contains {
                if found > max {
                    out = out.and(Verdict::fail(
                        ptr,
                        "maxContains",
                        format!(
                            "an array with at most {max} item{} matching `contains`",
                            plural(max)
                        ),
                    ));
                } else if undecided {
                    out = out.and(Verdict::Undecided);
                }
            }
        }
        out
    }

    fn object(
        &mut self,
        n: &Node,
        whole: &Value,
        m: &Map<String, Value>,
        ptr: &mut String,
        depth: usize,
    ) -> Verdict {
        let mut out = Verdict::Valid;
        for name in &n.required {
            if !m.contains_key(name) {
                let missing = at(ptr, name, |p| p.clone());
                out = out.and(Verdict::Invalid(vec![Invalid {
                    pointer: missing,
                    keyword: "required",
                    expected: "present: the field is required".into(),
                }]));
            }
        }
        let len = m.len() as u64;
        if let Some(k) = n.min_properties.filter(|k| len < *k) {
            out = out.and(Verdict::fail(
                ptr,
                "minProperties",
                format!("an object with at least {k} field{}", plural(k)),
            ));
        }
        if let Some(k) = n.max_properties.filter(|k| len > *k) {
            out = out.and(Verdict::fail(
                ptr,
                "maxProperties",
                format!("an object with at most {k} field{}", plural(k)),
            ));
        }
        for (name, needs) in &n.dependent_required {
            if m.contains_key(name) {
                for other in needs.iter().filter(|o| !m.contains_key(*o)) {
                    let missing = at(ptr, other, |p| p.clone());
                    out = out.and(Verdict::Invalid(vec![Invalid {
                        pointer: missing,
                        keyword: "dependentRequired",
                        expected: format!("present: the field is required with `{name}`"),
                    }]));
                }
            }
        }
        for (name, s) in &n.dependent_schemas {
            if m.contains_key(name) {
                out = out.and(self.eval(*s, whole, ptr, depth + 1));
            }
        }
        for (name, value) in m {
            if let Some(s) = n.property_names {
                let key = Value::String(name.clone());
                let r = at(ptr, name, |p| self.eval(s, &key, p, depth + 1));
                out = out.and(match r {
                    Verdict::Invalid(_) => Verdict::Invalid(vec![Invalid {
                        pointer: at(ptr, name, |p| p.clone()),
                        keyword: "propertyNames",
                        expected: "a field name the schema's `propertyNames` admits".into(),
                    }]),
                    other => other,
                });
            }
            let mut matched = false;
            let mut unsure = false;
            if let Some((_, s)) = n.properties.iter().find(|(k, _)| k == name) {
                matched = true;
                let r = at(ptr, name, |p| self.eval(*s, value, p, depth + 1));
                out = out.and(r);
            }
            for (p, s) in &n.pattern_properties {
                match literal_match(p, name) {
                    Some(true) => {
                        matched = true;
                        let r = at(ptr, name, |q| self.eval(*s, value, q, depth + 1));
                        out = out.and(r);
                    }
                    Some(false) => {}
                    // the pattern may or may not apply: its schema is not
                    // applied, and the name is not judged as additional
                    None => unsure = true,
                }
            }
            if unsure {
                out = out.and(Verdict::Undecided);
            } else if !matched {
                if let Some(s) = n.additional_properties {
                    let r = at(ptr, name, |p| self.eval(s, value, p, depth + 1));
                    out = out.and(match r {
                        Verdict::Invalid(e)
                            if self.nodes.get(s).and_then(|x| x.always) == Some(false) =>
                        {
                            Verdict::Invalid(
                                e.into_iter()
                                    .map(|i| Invalid {
                                        keyword: "additionalProperties",
                                        expected: "absent: the object declares no such field"
                                            .into(),
                                        ..i
                                    })
                                    .collect(),
                            )
                        }
                        other => other,
                    });
                }
            }
        }
        out
    }
}

/// Is `x` an integer multiple of `d` (zero and negatives included)? Exact
/// on the numbers as written; `None` past 128 bits.
fn is_multiple(x: Num, d: Num) -> Option<bool> {
    let (mx, ex) = x.decimal()?;
    let (md, ed) = d.decimal()?;
    let e = ex.min(ed);
    let scale = |m: i128, by: i32| {
        10i128
            .checked_pow(u32::try_from(by).ok()?)
            .and_then(|p| m.checked_mul(p))
    };
    let (a, b) = (scale(mx, ex - e)?, scale(md, ed - e)?);
    (b != 0).then(|| a % b == 0)
}

/// JSON equality with numbers by value (`1` equals `1.0`).
pub fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => Num::from_number(x) == Num::from_number(y),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, a)| y.get(k).is_some_and(|b| same(a, b)))
        }
        _ => a == b,
    }
}

/// Whether an ECMA-262 `pattern` matches `s`: decided for literal text
/// with optional `^`/`$` anchors (escaped punctuation is literal); `None`
/// for any other pattern (the server links no regex engine).
pub fn literal_match(pattern: &str, s: &str) -> Option<bool> {
    let (anchored_start, rest) = match pattern.strip_prefix('^') {
        Some(r) => (true, r),
        None => (false, pattern),
    };
    let mut literal = String::new();
    let mut anchored_end = false;
    let mut chars = rest.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(e) if e.is_ascii_punctuation() => literal.push(e),
                _ => return None,
            },
            '$' if chars.peek().is_none() => anchored_end = true,
            '.' | '*' | '+' | '?' | '(' | ')' | '[' | ']' | '{' | '}' | '|' | '^' | '$' => {
                return None
            }
            c => literal.push(c),
        }
    }
    Some(match (anchored_start, anchored_end) {
        (true, true) => s == literal,
        (true, false) => s.starts_with(&literal),
        (false, true) => s.ends_with(&literal),
        (false, false) => s.contains(&literal),
    })
}

fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn describe_types(t: TypeSet) -> String {
    let mut names: Vec<&str> = [
        (TypeSet::BOOLEAN, "a boolean"),
        (TypeSet::OBJECT, "an object"),
        (TypeSet::ARRAY, "an array"),
        (TypeSet::STRING, "a string"),
    ]
    .iter()
    .filter(|(bit, _)| t.contains(*bit))
    .map(|(_, name)| *name)
    .collect();
    if t.contains(TypeSet::NUMBER) {
        names.push("a number");
    } else if t.contains(TypeSet::INTEGER) {
        names.push("an integer");
    } else if t.contains(TypeSet::WHOLE_WRITTEN) {
        names.push("an integer written without a fraction");
    }
    if t.contains(TypeSet::NULL) {
        names.push("null");
    }
    match names.as_slice() {
        [] => "nothing: no JSON type is admitted".into(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

fn short(v: &Value) -> String {
    let text = v.to_string();
    if text.chars().count() > 60 {
        let cut: String = text.chars().take(57).collect();
        format!("{cut}...")
    } else {
        text
    }
}

fn one_of_values(values: &[Value]) -> String {
    const SHOWN: usize = 12;
    let mut list: Vec<String> = values.iter().take(SHOWN).map(short).collect();
    if values.len() > SHOWN {
        list.push(format!("... ({} more)", values.len() - SHOWN));
    }
    format!("one of {}", list.join(", "))
}

/// What alternatives expect at `ptr`: each alternative's own expectation
/// there when it refused only this place, joined with "or".
fn alternatives_expected(ptr: &str, failures: &[Vec<Invalid>]) -> String {
    let here: Option<Vec<&str>> = failures
        .iter()
        .map(|f| match f.as_slice() {
            [one] if one.pointer == ptr => Some(one.expected.as_str()),
            _ => None,
        })
        .collect();
    match here {
        Some(list) if !list.is_empty() => {
            let mut list: Vec<&str> = list;
            list.dedup();
            list.join(", or ")
        }
        _ => format!(
            "a value matching one of its {} alternatives",
            failures.len()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn errors(schema: Value, v: Value) -> Vec<(String, &'static str)> {
        match Validator::compile(&schema).validate(&v) {
            Verdict::Invalid(e) => e.into_iter().map(|i| (i.pointer, i.keyword)).collect(),
            other => panic!("{other:?}"),
        }
    }

    fn verdict(schema: Value, v: Value) -> Verdict {
        Validator::compile(&schema).validate(&v)
    }

    #[test]
    fn each_kind_of_failure_names_its_place_and_keyword() {
        let s = json!({
            "type": "object",
            "properties": {
                "q": {"type": "string", "minLength": 1},
                "limit": {"type": "integer", "minimum": 1, "maximum": 50},
                "format": {"enum": ["pdf", "html"]},
                "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true}
            },
            "required": ["q"],
            "additionalProperties": false
        });
        assert_eq!(errors(s.clone(), json!({})), [("/q".into(), "required")]);
        assert_eq!(errors(s.clone(), json!({"q": 1})), [("/q".into(), "type")]);
        assert_eq!(
            errors(s.clone(), json!({"q": "a", "limit": 51})),
            [("/limit".into(), "maximum")]
        );
        assert_eq!(
            errors(s.clone(), json!({"q": "a", "format": "doc"})),
            [("/format".into(), "enum")]
        );
        assert_eq!(
            errors(s.clone(), json!({"q": "a", "extra": true})),
            [("/extra".into(), "additionalProperties")]
        );
        assert_eq!(
            errors(s.clone(), json!({"q": "a", "tags": ["x", 2, "x"]})),
            [("/tags".into(), "uniqueItems"), ("/tags/1".into(), "type")]
        );
        assert_eq!(
            verdict(s, json!({"q": "a", "limit": 50.0, "format": "pdf"})),
            Verdict::Valid
        );
    }

    #[test]
    fn numbers_are_exact() {
        let big = json!({"type": "integer", "maximum": 9007199254740992u64});
        assert_eq!(
            verdict(big.clone(), json!(9007199254740992u64)),
            Verdict::Valid
        );
        assert!(matches!(
            verdict(big, json!(9007199254740993u64)),
            Verdict::Invalid(_)
        ));
        let m = json!({"multipleOf": 0.1});
        assert_eq!(verdict(m.clone(), json!(0.3)), Verdict::Valid);
        assert_eq!(verdict(m.clone(), json!(0)), Verdict::Valid);
        assert_eq!(verdict(m.clone(), json!(-0.7)), Verdict::Valid);
        assert!(matches!(verdict(m, json!(0.35)), Verdict::Invalid(_)));
        // `exclusiveMinimum: 0` on an integer is `minimum: 1`
        let s = json!({"type": "integer", "exclusiveMinimum": 0});
        assert!(matches!(verdict(s.clone(), json!(0)), Verdict::Invalid(_)));
        assert_eq!(verdict(s, json!(1)), Verdict::Valid);
        // 1 equals 1.0 in enum and const
        assert_eq!(verdict(json!({"enum": [1]}), json!(1.0)), Verdict::Valid);
        assert_eq!(verdict(json!({"const": 2.0}), json!(2)), Verdict::Valid);
    }

    #[test]
    fn the_declared_dialect_decides() {
        // draft-07: keywords beside `$ref` are ignored
        let d7 = json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "definitions": {"s": {"type": "string"}},
            "properties": {"a": {"$ref": "#/definitions/s", "maxLength": 1}}
        });
        assert_eq!(verdict(d7, json!({"a": "long"})), Verdict::Valid);
        let d2020 = json!({
            "$defs": {"s": {"type": "string"}},
            "properties": {"a": {"$ref": "#/$defs/s", "maxLength": 1}}
        });
        assert_eq!(
            errors(d2020, json!({"a": "long"})),
            [("/a".into(), "maxLength")]
        );
        // draft-04: `integer` is a number written without a fraction
        let d4 = json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "integer"});
        assert!(matches!(
            verdict(d4.clone(), json!(2.0)),
            Verdict::Invalid(_)
        ));
        assert_eq!(verdict(d4, json!(2)), Verdict::Valid);
        // draft-07 array `items` is a tuple
        let tuple = json!({"$schema": "http://json-schema.org/draft-07/schema#",
            "items": [{"type": "string"}], "additionalItems": false});
        assert_eq!(verdict(tuple.clone(), json!(["a"])), Verdict::Valid);
        assert!(matches!(
            verdict(tuple, json!(["a", 1])),
            Verdict::Invalid(_)
        ));
    }

    #[test]
    fn alternatives_say_what_each_expects() {
        let s = json!({
            "$defs": {"R": {"enum": ["a", "b"]}},
            "properties": {"r": {"anyOf": [{"$ref": "#/$defs/R"}, {"type": "null"}]}}
        });
        let Verdict::Invalid(e) = verdict(s.clone(), json!({"r": "c"})) else {
            panic!()
        };
        assert_eq!(e[0].pointer, "/r");
        assert_eq!(e[0].expected, "one of \"a\", \"b\", or null");
        assert_eq!(verdict(s, json!({"r": null})), Verdict::Valid);
        let one = json!({"oneOf": [{"type": "integer"}, {"type": "number"}]});
        assert!(matches!(
            verdict(one.clone(), json!(1)),
            Verdict::Invalid(_)
        ));
        assert_eq!(verdict(one, json!(1.5)), Verdict::Valid);
    }

    #[test]
    fn what_is_not_decided_refuses_nothing() {
        let p = json!({"properties": {"a": {"type": "string", "pattern": "^[a-z]+$"}}});
        assert_eq!(verdict(p.clone(), json!({"a": "ABC"})), Verdict::Undecided);
        assert!(matches!(verdict(p, json!({"a": 1})), Verdict::Invalid(_)));
        let lit = json!({"pattern": "^id-"});
        assert_eq!(verdict(lit.clone(), json!("id-1")), Verdict::Valid);
        assert!(matches!(verdict(lit, json!("x")), Verdict::Invalid(_)));
        let u = json!({"properties": {"a": {}}, "unevaluatedProperties": false});
        assert_eq!(verdict(u, json!({"b": 1})), Verdict::Undecided);
        // inside `not`, not decided stays not decided
        let n = json!({"not": {"pattern": "^[0-9]+$"}});
        assert_eq!(verdict(n, json!("12")), Verdict::Undecided);
        // an undecided pattern property: neither its schema nor
        // additionalProperties judges the name
        let pp = json!({"patternProperties": {"^x-[a-z]+$": {"type": "string"}},
            "additionalProperties": false});
        assert_eq!(verdict(pp, json!({"x-a": 1})), Verdict::Undecided);
    }

    #[test]
    fn formats_follow_the_policy() {
        let u8s = json!({"type": "integer", "format": "uint8"});
        assert_eq!(verdict(u8s.clone(), json!(255)), Verdict::Valid);
        assert_eq!(errors(u8s.clone(), json!(256)), [("".into(), "format")]);
        assert!(matches!(
            verdict(u8s.clone(), json!(-1)),
            Verdict::Invalid(_)
        ));
        assert_eq!(verdict(u8s.clone(), json!(7.0)), Verdict::Valid);
        assert!(matches!(verdict(u8s, json!(7.5)), Verdict::Invalid(_)));
        let f32s = json!({"type": "number", "format": "float"});
        assert_eq!(verdict(f32s.clone(), json!(0.5)), Verdict::Valid);
        assert!(matches!(verdict(f32s, json!(1e300)), Verdict::Invalid(_)));
        let dt = json!({"type": "string", "format": "date-time"});
        assert_eq!(verdict(dt.clone(), json!("not a date")), Verdict::Undecided);
        assert!(matches!(verdict(dt, json!(1)), Verdict::Invalid(_)));
        assert_eq!(
            verdict(json!({"format": "custom-thing"}), json!("x")),
            Verdict::Valid
        );
    }

    #[test]
    fn recursion_and_size_are_bounded() {
        let r = json!({"$ref": "#"});
        assert_eq!(verdict(r, json!({})), Verdict::Undecided);
        let tree = json!({"$defs": {"t": {"type": "object", "properties": {
            "kids": {"type": "array", "items": {"$ref": "#/$defs/t"}}}}},
            "$ref": "#/$defs/t"});
        let mut v = json!({});
        for _ in 0..40 {
            v = json!({"kids": [v]});
        }
        assert_eq!(verdict(tree.clone(), v), Verdict::Valid);
        assert!(matches!(
            verdict(tree, json!({"kids": [{"kids": 1}]})),
            Verdict::Invalid(_)
        ));
        let wide = json!({"type": "array", "uniqueItems": true});
        let items: Vec<Value> = (0..2000).map(|i| json!(i)).collect();
        assert_eq!(verdict(wide, Value::Array(items)), Verdict::Undecided);
    }
}
