//! Which argument names a locked input schema lets through, read from the
//! same resolved document the comparator reads ([`dialect::normalize`]:
//! names only `required` lists are declared, draft-07 `$ref` siblings
//! dropped, …) and kept as a small table the runtime layer evaluates per
//! call without the schema ([`NameRule`], in the compatibility plan).
//!
//! A node judges the names of the arguments object the way its schema does:
//! where the schema closes the object (`additionalProperties: false`, a
//! `propertyNames` list or pattern, `unevaluatedProperties: false`) a name
//! must be declared there (`properties`) or match one of its
//! `patternProperties`; `allOf` and `$ref` targets judge too; of `anyOf` and
//! `oneOf` (and of `then`/`else`) one alternative must admit the names;
//! `dependentSchemas` judge when their name is sent. An open object admits
//! every name, as the schema does.
//!
//! Names only, never values: which alternative a value selects (`const`
//! tags, `if`) is the handler's typed parsing's to decide, so an
//! alternative is taken whenever its names fit. The rule therefore never
//! refuses a name set some valid call has, and refuses every name set no
//! alternative declares. Patterns are decided without a regex engine (the
//! server links none): a pattern of literal text with `^`/`$` anchors is
//! decided, any other is taken to match.
//!
//! Bounded: at most [`MAX_NODES`] nodes are derived per schema (past that
//! a node judges nothing, which admits more, never less), and evaluation
//! visits each node once per call.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::schema::types::TypeSet;
use crate::schema::{dialect, refs};

/// Most nodes one schema's rule holds.
pub const MAX_NODES: usize = 512;

/// The names rule of one tool: `nodes[0]` judges the arguments object, the
/// others are what it refers to. No nodes: every name is admitted.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct NameRule {
    pub nodes: Vec<NameNode>,
}

/// One schema node, as far as names go.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NameNode {
    /// Names not declared here and matching no pattern here are refused.
    #[serde(default, skip_serializing_if = "is_false")]
    pub closed: bool,
    /// Names declared here (sorted).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub declared: Vec<String>,
    /// `patternProperties` here: a name one matches is declared.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub patterns: Vec<String>,
    /// Nodes that judge the same names too (`allOf`, `$ref`, …).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub all: Vec<usize>,
    /// Groups of alternatives: in each, one node must admit the names.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub any: Vec<Vec<usize>>,
    /// When a name is sent, its node judges too (`dependentSchemas`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub dependent: BTreeMap<String, usize>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// What one input schema says about argument names.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DerivedNames {
    pub rule: NameRule,
    /// Every name declared for the arguments object, in any alternative,
    /// `allOf` part, reference or conditional branch (sorted).
    pub declared: Vec<String>,
    /// Whether some node gives undeclared names a schema of their own
    /// (`additionalProperties` other than `false`, `patternProperties`).
    pub typed_extras: bool,
}

/// Derives the names rule of an input schema (any dialect).
pub fn derive(schema: &Value) -> DerivedNames {
    let normalized = dialect::normalize(schema);
    let doc: &Value = &normalized.doc;
    let mut b = Builder {
        doc,
        nodes: vec![],
        trivial_index: None,
        at: HashMap::new(),
        declared: BTreeSet::new(),
        typed_extras: false,
    };
    let root = b.build(doc);
    let rule = compact(&b.nodes, root);
    DerivedNames {
        rule,
        declared: b.declared.into_iter().collect(),
        typed_extras: b.typed_extras,
    }
}

struct Builder<'a> {
    doc: &'a Value,
    nodes: Vec<NameNode>,
    /// One node that judges nothing, for everything past the budget.
    trivial_index: Option<usize>,
    /// Nodes by the address of the schema they were built from: a schema
    /// referenced twice (or recursively) is one node.
    at: HashMap<usize, usize>,
    declared: BTreeSet<String>,
    typed_extras: bool,
}

impl<'a> Builder<'a> {
    fn push(&mut self, node: NameNode) -> usize {
        if self.nodes.len() >= MAX_NODES {
            return self.trivial();
        }
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    fn trivial(&mut self) -> usize {
        if let Some(i) = self.trivial_index {
            return i;
        }
        self.nodes.push(NameNode::default());
        let i = self.nodes.len() - 1;
        self.trivial_index = Some(i);
        i
    }

    fn build(&mut self, v: &'a Value) -> usize {
        let key = v as *const Value as usize;
        if let Some(&i) = self.at.get(&key) {
            return i;
        }
        let i = self.push(NameNode::default());
        if Some(i) == self.trivial_index {
            return i;
        }
        self.at.insert(key, i);
        let node = match v {
            Value::Bool(false) => closed_to_every_name(),
            Value::Object(m) => self.object(m),
            _ => NameNode::default(),
        };
        self.nodes[i] = node;
        i
    }

    fn object(&mut self, m: &'a serde_json::Map<String, Value>) -> NameNode {
        if !admits_objects(m) {
            return closed_to_every_name();
        }
        let mut n = NameNode::default();
        if let Some(Value::Object(p)) = m.get("properties") {
            n.declared = p.keys().cloned().collect();
            self.declared.extend(p.keys().cloned());
        }
        if let Some(Value::Object(pp)) = m.get("patternProperties") {
            n.patterns = pp.keys().cloned().collect();
            self.typed_extras |= !pp.is_empty();
        }
        match m.get("additionalProperties") {
            None => {}
            Some(x) if refuses_everything(x) => n.closed = true,
            Some(_) => self.typed_extras = true,
        }
        for kw in ["allOf"] {
            if let Some(Value::Array(parts)) = m.get(kw) {
                for p in parts {
                    let c = self.build(p);
                    n.all.push(c);
                }
            }
        }
        for kw in ["anyOf", "oneOf"] {
            if let Some(Value::Array(alts)) = m.get(kw) {
                if !alts.is_empty() {
                    let group = alts.iter().map(|a| self.build(a)).collect();
                    n.any.push(group);
                }
            }
        }
        if m.contains_key("if") {
            if let (Some(t), Some(e)) = (m.get("then"), m.get("else")) {
                let group = vec![self.build(t), self.build(e)];
                n.any.push(group);
            }
        }
        for kw in ["$ref", "$dynamicRef"] {
            if let Some(target) = m
                .get(kw)
                .and_then(Value::as_str)
                .and_then(|r| refs::resolve(self.doc, r))
            {
                let c = self.build(target);
                n.all.push(c);
            }
        }
        if m.contains_key("$recursiveRef") {
            let c = self.build(self.doc);
            n.all.push(c);
        }
        if let Some(Value::Object(deps)) = m.get("dependentSchemas") {
            for (name, s) in deps {
                let c = self.build(s);
                n.dependent.insert(name.clone(), c);
            }
        }
        if let Some(names) = m.get("propertyNames").and_then(name_list) {
            let c = self.push(names);
            n.all.push(c);
        }
        if m.get("unevaluatedProperties")
            .is_some_and(refuses_everything)
        {
            let mut evaluated = NameNode {
                closed: true,
                ..NameNode::default()
            };
            let mut seen = BTreeSet::new();
            if evaluated_names(self.doc, m, &mut evaluated, &mut seen) {
                evaluated.declared.sort();
                evaluated.declared.dedup();
                let c = self.push(evaluated);
                n.all.push(c);
            }
        }
        n
    }
}

/// A node no name gets through (names-wise: a schema that accepts no
/// object, or only the empty one).
fn closed_to_every_name() -> NameNode {
    NameNode {
        closed: true,
        ..NameNode::default()
    }
}

/// `false`, or `{"not": {}}`: no value passes.
fn refuses_everything(v: &Value) -> bool {
    match v {
        Value::Bool(b) => !b,
        Value::Object(m) => {
            m.len() == 1
                && m.get("not").is_some_and(|x| {
                    x == &Value::Bool(true) || x.as_object().is_some_and(|o| o.is_empty())
                })
        }
        _ => false,
    }
}

/// Can this node accept an object at all (`type`, `const`, `enum`)?
fn admits_objects(m: &serde_json::Map<String, Value>) -> bool {
    if m.contains_key("type") && !TypeSet::from_keyword(m.get("type")).contains(TypeSet::OBJECT) {
        return false;
    }
    if m.get("const").is_some_and(|c| !c.is_object()) {
        return false;
    }
    if let Some(Value::Array(values)) = m.get("enum") {
        return values.iter().any(Value::is_object);
    }
    true
}

/// `propertyNames` as a closed node, where it lists the names (`enum`,
/// `const`), gives a pattern, or is `false`; `None` where it does not
/// narrow names in a way decided here.
fn name_list(s: &Value) -> Option<NameNode> {
    if refuses_everything(s) {
        return Some(closed_to_every_name());
    }
    let m = s.as_object()?;
    let mut n = closed_to_every_name();
    if let Some(Value::Array(values)) = m.get("enum") {
        n.declared = values
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect();
    } else if let Some(c) = m.get("const") {
        n.declared = c.as_str().map(str::to_string).into_iter().collect();
    } else if let Some(Value::String(p)) = m.get("pattern") {
        n.patterns = vec![p.clone()];
    } else {
        return None;
    }
    n.declared.sort();
    n.declared.dedup();
    Some(n)
}

/// The names `unevaluatedProperties` sees evaluated at `m`: declared or
/// patterned in `m` and in what judges the same object (`allOf`, `anyOf`,
/// `oneOf`, `if`/`then`/`else`, `dependentSchemas`, references), whether or
/// not those succeed. `false` where something there evaluates every name
/// (an `additionalProperties` or `unevaluatedProperties` schema): nothing
/// is then left unevaluated.
fn evaluated_names<'a>(
    doc: &'a Value,
    m: &'a serde_json::Map<String, Value>,
    out: &mut NameNode,
    seen: &mut BTreeSet<usize>,
) -> bool {
    if !seen.insert(m as *const _ as usize) || seen.len() > MAX_NODES {
        return true;
    }
    if let Some(Value::Object(p)) = m.get("properties") {
        out.declared.extend(p.keys().cloned());
    }
    if let Some(Value::Object(pp)) = m.get("patternProperties") {
        out.patterns.extend(pp.keys().cloned());
    }
    if m.get("additionalProperties")
        .is_some_and(|x| !refuses_everything(x))
    {
        return false;
    }
    if seen.len() > 1
        && m.get("unevaluatedProperties")
            .is_some_and(|x| !refuses_everything(x))
    {
        return false;
    }
    let mut below: Vec<&Value> = vec![];
    for kw in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(a)) = m.get(kw) {
            below.extend(a);
        }
    }
    for kw in ["if", "then", "else"] {
        below.extend(m.get(kw));
    }
    if let Some(Value::Object(d)) = m.get("dependentSchemas") {
        below.extend(d.values());
    }
    for kw in ["$ref", "$dynamicRef"] {
        below.extend(
            m.get(kw)
                .and_then(Value::as_str)
                .and_then(|r| refs::resolve(doc, r)),
        );
    }
    below
        .into_iter()
        .filter_map(Value::as_object)
        .all(|b| evaluated_names(doc, b, out, seen))
}

/// The nodes reachable from `root` that judge something, renumbered; a
/// reference to one that judges nothing is dropped (and a group with such
/// an alternative, which then admits every name).
fn compact(nodes: &[NameNode], root: usize) -> NameRule {
    let mut trivial: Vec<Option<bool>> = vec![None; nodes.len()];
    fn is_trivial(nodes: &[NameNode], i: usize, memo: &mut Vec<Option<bool>>) -> bool {
        if let Some(t) = memo[i] {
            return t;
        }
        // (a node on the current path judges nothing until shown otherwise)
        memo[i] = Some(true);
        let n = &nodes[i];
        let t = !n.closed
            && n.all.iter().all(|&c| is_trivial(nodes, c, memo))
            && n.any
                .iter()
                .all(|g| g.iter().any(|&c| is_trivial(nodes, c, memo)))
            && n.dependent.values().all(|&c| is_trivial(nodes, c, memo));
        memo[i] = Some(t);
        t
    }
    if is_trivial(nodes, root, &mut trivial) {
        return NameRule::default();
    }
    let mut index: HashMap<usize, usize> = HashMap::new();
    let mut order = vec![root];
    index.insert(root, 0);
    let mut k = 0;
    while k < order.len() {
        let n = &nodes[order[k]];
        let children = n
            .all
            .iter()
            .chain(n.any.iter().flatten())
            .chain(n.dependent.values());
        for &c in children {
            if trivial[c] == Some(false) && !index.contains_key(&c) {
                index.insert(c, order.len());
                order.push(c);
            }
        }
        k += 1;
    }
    let keep = |c: &usize| trivial[*c] == Some(false);
    let out = order
        .iter()
        .map(|&i| {
            let n = &nodes[i];
            let mut declared = n.declared.clone();
            declared.sort();
            NameNode {
                closed: n.closed,
                declared: if n.closed { declared } else { vec![] },
                patterns: if n.closed { n.patterns.clone() } else { vec![] },
                all: n.all.iter().filter(|c| keep(c)).map(|c| index[c]).collect(),
                any: n
                    .any
                    .iter()
                    .filter(|g| g.iter().all(keep))
                    .map(|g| g.iter().map(|c| index[c]).collect())
                    .collect(),
                dependent: n
                    .dependent
                    .iter()
                    .filter(|(_, c)| keep(c))
                    .map(|(name, c)| (name.clone(), index[c]))
                    .collect(),
            }
        })
        .collect();
    NameRule { nodes: out }
}

impl NameRule {
    /// Whether every name is admitted (the schema never closes the object).
    pub fn is_open(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The names among `names` the rule does not let through together with
    /// the others: empty when the schema admits the whole set. Where
    /// alternatives differ, the one admitting the most names is taken, and
    /// the rest are the ones named.
    pub fn refused<'n>(&self, names: &[&'n str]) -> Vec<&'n str> {
        if self.nodes.is_empty() || names.is_empty() {
            return vec![];
        }
        let mut eval = Eval {
            rule: self,
            names,
            memo: vec![State::Todo; self.nodes.len().min(MAX_NODES)],
        };
        let admitted = eval.node(0);
        names
            .iter()
            .enumerate()
            .filter(|(i, _)| !admitted.has(*i))
            .map(|(_, n)| *n)
            .collect()
    }
}

/// A set of argument positions.
#[derive(Debug, Clone, PartialEq)]
struct Bits(Vec<u64>);

impl Bits {
    fn all(n: usize) -> Bits {
        let mut b = Bits(vec![u64::MAX; n.div_ceil(64)]);
        if !n.is_multiple_of(64) {
            if let Some(last) = b.0.last_mut() {
                *last = (1u64 << (n % 64)) - 1;
            }
        }
        b
    }
    fn none(n: usize) -> Bits {
        Bits(vec![0; n.div_ceil(64)])
    }
    fn has(&self, i: usize) -> bool {
        self.0.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0)
    }
    fn set(&mut self, i: usize) {
        if let Some(w) = self.0.get_mut(i / 64) {
            *w |= 1 << (i % 64);
        }
    }
    fn and(&mut self, o: &Bits) {
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            *a &= b;
        }
    }
    fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
}

#[derive(Clone)]
enum State {
    Todo,
    Busy,
    Done(Bits),
}

struct Eval<'r, 'n> {
    rule: &'r NameRule,
    names: &'r [&'n str],
    memo: Vec<State>,
}

impl Eval<'_, '_> {
    /// The names node `i` admits under its best alternatives. A node past
    /// the table, or one being evaluated (a reference cycle), admits all.
    fn node(&mut self, i: usize) -> Bits {
        let every = || Bits::all(self.names.len());
        let (Some(n), Some(state)) = (self.rule.nodes.get(i), self.memo.get(i)) else {
            return every();
        };
        match state {
            State::Done(b) => return b.clone(),
            State::Busy => return every(),
            State::Todo => {}
        }
        self.memo[i] = State::Busy;
        let mut acc = if n.closed {
            let mut b = Bits::none(self.names.len());
            for (k, name) in self.names.iter().enumerate() {
                let declared = n
                    .declared
                    .binary_search_by(|d| d.as_str().cmp(name))
                    .is_ok();
                if declared || n.patterns.iter().any(|p| may_match(p, name)) {
                    b.set(k);
                }
            }
            b
        } else {
            every()
        };
        for &c in &n.all {
            let b = self.node(c);
            acc.and(&b);
        }
        for group in &n.any {
            let mut best: Option<Bits> = None;
            for &c in group {
                let b = self.node(c);
                if best.as_ref().is_none_or(|x| b.count() > x.count()) {
                    best = Some(b);
                }
            }
            if let Some(b) = best {
                acc.and(&b);
            }
        }
        for (name, &c) in &n.dependent {
            if self.names.contains(&name.as_str()) {
                let b = self.node(c);
                acc.and(&b);
            }
        }
        self.memo[i] = State::Done(acc.clone());
        acc
    }
}

/// Whether an ECMA-262 `pattern` may match `name`: decided for literal text
/// with optional `^`/`$` anchors (escaped punctuation is literal); any
/// other pattern is taken to match.
pub fn may_match(pattern: &str, name: &str) -> bool {
    super::validate::literal_match(pattern, name).unwrap_or(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn refused(schema: Value, args: &[&str]) -> Vec<String> {
        derive(&schema)
            .rule
            .refused(args)
            .into_iter()
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn literal_patterns_are_decided_others_taken_to_match() {
        assert!(may_match("^x-", "x-trace"));
        assert!(!may_match("^x-", "trace"));
        assert!(may_match("_id$", "user_id"));
        assert!(!may_match("^a\\.b$", "axb"));
        assert!(
            may_match("^[a-z]+$", "UPPER"),
            "not decided: taken to match"
        );
        assert!(may_match("\\d", "x"), "a class escape is not decided");
    }

    #[test]
    fn an_open_schema_has_no_rule() {
        let d = derive(&json!({"type": "object", "properties": {"a": {}}}));
        assert!(d.rule.is_open());
        assert_eq!(d.declared, ["a"]);
        assert!(!d.typed_extras);
    }

    #[test]
    fn alternatives_each_declare_their_names() {
        let s = json!({
            "type": "object",
            "properties": {"query": {"type": "string"}},
            "additionalProperties": false,
            "allOf": [{"oneOf": [
                {"properties": {"by_author": {}}, "required": ["by_author"], "additionalProperties": false},
                {"properties": {"by_date": {}}, "required": ["by_date"], "additionalProperties": false}
            ]}]
        });
        // (the root's additionalProperties judges branch names undeclared:
        // JSON Schema's reading, not a convenience)
        assert_eq!(refused(s, &["query", "by_author"]), ["by_author"]);
        let s = json!({
            "type": "object",
            "properties": {"query": {}},
            "oneOf": [
                {"properties": {"query": {}, "a": {}}, "additionalProperties": false},
                {"properties": {"query": {}, "b": {}}, "additionalProperties": false}
            ]
        });
        assert!(refused(s.clone(), &["query", "a"]).is_empty());
        assert!(refused(s.clone(), &["query", "b"]).is_empty());
        assert_eq!(refused(s.clone(), &["query", "a", "b"]), ["b"]);
        assert_eq!(refused(s, &["zzz"]), ["zzz"]);
    }

    #[test]
    fn references_cycles_and_the_budget_never_refuse_a_declared_name() {
        let s = json!({
            "$ref": "#/$defs/A",
            "$defs": {
                "A": {"allOf": [{"$ref": "#/$defs/B"}], "properties": {"a": {}}, "additionalProperties": false},
                "B": {"allOf": [{"$ref": "#/$defs/A"}]}
            }
        });
        assert!(refused(s.clone(), &["a"]).is_empty());
        assert_eq!(refused(s, &["b"]), ["b"]);
        let mut wide = json!({"properties": {"x": {}}, "additionalProperties": false});
        for _ in 0..12 {
            wide = json!({"anyOf": [wide.clone(), wide.clone(), {"type": "object", "properties": {"x": {}}, "additionalProperties": false}]});
        }
        let d = derive(&wide);
        assert!(d.rule.nodes.len() <= MAX_NODES);
        assert!(d.rule.refused(&["x"]).is_empty());
    }

    #[test]
    fn property_names_unevaluated_and_dependent_schemas_close_too() {
        let s = json!({"propertyNames": {"enum": ["a", "b"]}});
        assert_eq!(refused(s, &["a", "c"]), ["c"]);
        let s = json!({
            "properties": {"a": {}},
            "allOf": [{"properties": {"b": {}}}],
            "unevaluatedProperties": false
        });
        assert_eq!(refused(s, &["a", "b", "c"]), ["c"]);
        let s = json!({
            "properties": {"a": {}, "b": {}},
            "dependentSchemas": {"a": {"properties": {"a": {}}, "additionalProperties": false}}
        });
        assert!(refused(s.clone(), &["b"]).is_empty());
        assert_eq!(refused(s, &["a", "b"]), ["b"]);
    }

    #[test]
    fn a_branch_that_is_never_an_object_admits_no_name() {
        let s = json!({"anyOf": [
            {"type": "object", "properties": {"a": {}}, "additionalProperties": false},
            {"type": "string"}
        ]});
        assert_eq!(refused(s, &["b"]), ["b"]);
    }

    #[test]
    fn hostile_plans_do_not_panic() {
        let rule = NameRule {
            nodes: vec![NameNode {
                closed: true,
                all: vec![7, 0],
                any: vec![vec![], vec![99]],
                dependent: [("a".to_string(), 1000)].into_iter().collect(),
                ..NameNode::default()
            }],
        };
        assert_eq!(rule.refused(&["a"]), ["a"]);
        let many: Vec<String> = (0..200).map(|i| format!("n{i}")).collect();
        let names: Vec<&str> = many.iter().map(String::as_str).collect();
        assert_eq!(rule.refused(&names).len(), 200);
    }
}
