//! Does a node accept a value? Decided exactly on the compiled graph, in
//! the node's draft: `1 == 1.0` (draft-04's `integer` excepted: it is a
//! number written without a fraction), lengths in code points, `pattern`
//! as ECMA-262 means it (through [`crate::schema::pattern`]), `format`
//! under the policy of [`super::format`], and `unevaluatedProperties` /
//! `unevaluatedItems` from the annotations of every subschema that
//! validated in place (`allOf`, `anyOf`, `oneOf`, `if`/`then`/`else`,
//! `dependentSchemas`, references).
//!
//! Three answers: valid, invalid (with the node and keyword that rejected
//! the value: the deepest place), or not known, with the reason (an
//! unresolved reference, a pattern the automata do not read, a `format`
//! this build cannot check, references that loop in place, a step
//! budget). An invalid answer is never given on a guess: a keyword that
//! says no is enough, whatever the others did not decide.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::{Body, Dec, Draft, Graph, Keywords, NodeId};
use crate::schema::types::TypeSet;

/// Node visits one answer may take.
const MAX_STEPS: usize = 2_000_000;
/// Nested node visits (the evaluator recurses with the schema).
const MAX_NESTING: usize = 400;
/// Node visits on one instance value without descending into it: past
/// this, the references loop in place (JSON Schema leaves that undefined).
const MAX_IN_PLACE: usize = 96;

/// Where a value was rejected: a node and the keyword that said no.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Site {
    pub node: NodeId,
    pub keyword: &'static str,
}

/// The evaluator's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Valid,
    Invalid(Site),
    Unknown(String),
}

impl Outcome {
    pub fn is_valid(&self) -> bool {
        matches!(self, Outcome::Valid)
    }

    /// `Some(true)` valid, `Some(false)` invalid, `None` not known.
    pub fn known(&self) -> Option<bool> {
        match self {
            Outcome::Valid => Some(true),
            Outcome::Invalid(_) => Some(false),
            Outcome::Unknown(_) => None,
        }
    }
}

/// Does `node` accept `value`?
pub fn accepts(g: &Graph<'_>, node: NodeId, value: &Value) -> Outcome {
    run(g, node, value, false)
}

/// Does `node` accept `value` through what it declares: as [`accepts`],
/// and on every object whose schema declares properties (a record, not a
/// free-form map) each property is one some keyword evaluated
/// (`properties`, `patternProperties`, an explicit `additionalProperties`
/// or `unevaluatedProperties`). A server ignores the others: a value that
/// needs them is accepted only by being ignored.
pub fn accepts_declared(g: &Graph<'_>, node: NodeId, value: &Value) -> Outcome {
    run(g, node, value, true)
}

fn run(g: &Graph<'_>, node: NodeId, value: &Value, declared: bool) -> Outcome {
    let mut ev = Ev {
        g,
        steps: 0,
        nesting: 0,
        declared,
    };
    match ev.node(node, value, 0) {
        Ok(_) => Outcome::Valid,
        Err(Fail::Invalid(s)) => Outcome::Invalid(s),
        Err(Fail::Unknown(w)) => Outcome::Unknown(w),
    }
}

/// JSON equality as JSON Schema means it (numbers by value).
pub fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            x == y || (Dec::from_number(x).is_some() && Dec::from_number(x) == Dec::from_number(y))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_eq(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, p)| y.get(k).is_some_and(|q| json_eq(p, q)))
        }
        _ => a == b,
    }
}

/// Is the number `n` an integer as `draft` counts them?
pub fn is_integer(n: &serde_json::Number, draft: Draft) -> bool {
    if draft == Draft::D4 {
        !n.is_f64()
    } else {
        !n.is_f64() || Dec::from_number(n).is_some_and(Dec::is_integer)
    }
}

#[derive(Debug)]
enum Fail {
    Invalid(Site),
    Unknown(String),
}

/// What a subschema evaluated (for `unevaluated*`).
#[derive(Debug, Default)]
struct Ann {
    props: HashSet<String>,
    all_props: bool,

    items_upto: usize,
    all_items: bool,
    item_idx: HashSet<usize>,
}

impl Ann {
    fn merge(&mut self, o: Ann) {
        if self.props.is_empty() {
            self.props = o.props;
        } else {
            self.props.extend(o.props);
        }
        self.all_props |= o.all_props;

        self.items_upto = self.items_upto.max(o.items_upto);
        self.all_items |= o.all_items;
        self.item_idx.extend(o.item_idx);
    }
}

type Res = Result<Ann, Fail>;

struct Ev<'g, 'a> {
    g: &'g Graph<'a>,
    steps: usize,
    nesting: usize,
    /// Only declared properties count ([`accepts_declared`]).
    declared: bool,
}

/// Collects the outcome of one keyword: a no ends the node, a not-known is
/// remembered, annotations are merged.
struct Acc {
    ann: Ann,
    unknown: Option<String>,
}

impl Acc {
    fn take(&mut self, r: Res) -> Result<(), Fail> {
        match r {
            Ok(a) => {
                self.ann.merge(a);
                Ok(())
            }
            Err(Fail::Invalid(s)) => Err(Fail::Invalid(s)),
            Err(Fail::Unknown(w)) => {
                self.unknown.get_or_insert(w);
                Ok(())
            }
        }
    }

    fn no(&self, node: NodeId, keyword: &'static str) -> Fail {
        Fail::Invalid(Site { node, keyword })
    }
}

fn len_chars(s: &str) -> u64 {
    s.chars().count() as u64
}

impl<'a> Ev<'_, 'a> {
    fn node(&mut self, id: NodeId, v: &Value, in_place: usize) -> Res {
        let r = self.node_in(id, v, in_place);
        // a record's undeclared properties, where only declared ones count
        if let (true, 0, Ok(_), Value::Object(m)) = (self.declared, in_place, &r, v) {
            let d = declared_at(self.g, id);
            let undeclared = |k: &String| {
                !d.names.contains(k.as_str())
                    && !d
                        .patterns
                        .iter()
                        .any(|p| self.g.pattern(*p).is_ok_and(|c| c.is_match(k)))
            };
            if d.record && !d.all && m.keys().any(undeclared) {
                return Err(Fail::Invalid(Site {
                    node: id,
                    keyword: "properties",
                }));
            }
        }
        r
    }

    fn node_in(&mut self, id: NodeId, v: &Value, in_place: usize) -> Res {
        self.steps += 1;
        if self.steps > MAX_STEPS {
            return Err(Fail::Unknown(format!(
                "evaluating the value took more than {MAX_STEPS} steps"
            )));
        }
        if in_place > MAX_IN_PLACE || self.nesting > MAX_NESTING {
            return Err(Fail::Unknown(
                "the schema's references lead back to the same place in the value without descending into it".into(),
            ));
        }
        let g = self.g;
        match &g.node(id).body {
            Body::Bool(true) => Ok(Ann::default()),
            Body::Bool(false) => Err(Fail::Invalid(Site {
                node: id,
                keyword: "false",
            })),
            Body::Unresolved(why) => Err(Fail::Unknown(why.clone())),
            Body::Meta(d) => match super::format::meta(*d, v) {
                Some(true) => Ok(Ann::default()),
                Some(false) => Err(Fail::Invalid(Site {
                    node: id,
                    keyword: "$ref",
                })),
                None => Err(Fail::Unknown(format!(
                    "whether a value is a valid {d:?} schema is not decided in this build"
                ))),
            },
            Body::Schema(k) => {
                self.nesting += 1;
                let r = self.keywords(id, k, v, in_place);
                self.nesting -= 1;
                r
            }
        }
    }

    /// A subschema applied to the same value.
    fn here(&mut self, id: NodeId, v: &Value, in_place: usize) -> Res {
        self.node(id, v, in_place + 1)
    }

    /// A subschema applied to a part of the value.
    fn below(&mut self, id: NodeId, v: &Value) -> Res {
        self.node(id, v, 0)
    }

    fn keywords(&mut self, id: NodeId, k: &Keywords<'a>, v: &Value, in_place: usize) -> Res {
        let g = self.g;
        let draft = g.node(id).draft;
        let mut acc = Acc {
            ann: Ann::default(),
            unknown: None,
        };
        if let Some(kw) = k.malformed.first() {
            acc.unknown = Some(format!(
                "the keyword `{kw}` at `{}` holds a value JSON Schema does not allow",
                g.node(id).pointer
            ));
        }
        if let Some(t) = k.types {
            let ok = match v {
                Value::Number(n) => {
                    let kind = if draft == Draft::D4 {
                        TypeSet::written(v)
                    } else if is_integer(n, draft) {
                        TypeSet::INTEGER
                    } else {
                        TypeSet::FRACTION
                    };
                    t.overlaps(kind)
                }
                other => t.overlaps(TypeSet::of(other)),
            };
            if !ok {
                return Err(acc.no(id, "type"));
            }
        }
        if let Some(c) = k.constant {
            if !json_eq(c, v) {
                return Err(acc.no(id, "const"));
            }
        }
        if let Some(e) = k.enumeration {
            if !e.iter().any(|x| json_eq(x, v)) {
                return Err(acc.no(id, "enum"));
            }
        }
        match v {
            Value::Number(n) => self.number(id, k, n, &mut acc)?,
            Value::String(s) => self.string(id, k, s, draft, &mut acc)?,
            Value::Array(a) => self.array(id, k, a, draft, &mut acc)?,
            Value::Object(m) => self.object(id, k, m, &mut acc)?,
            _ => {}
        }
        self.applicators(id, k, v, in_place, &mut acc)?;
        // `unevaluated*` read what everything else evaluated
        if k.unevaluated_items.is_some() || k.unevaluated_properties.is_some() {
            if let Some(w) = acc.unknown.take() {
                return Err(Fail::Unknown(w));
            }
            match v {
                Value::Array(a) => {
                    if let Some(u) = k.unevaluated_items {
                        for (i, x) in a.iter().enumerate() {
                            let done = acc.ann.all_items
                                || i < acc.ann.items_upto
                                || acc.ann.item_idx.contains(&i);
                            if !done {
                                acc.take(self.below(u, x))?;
                            }
                        }
                        acc.ann.all_items = true;
                    }
                }
                Value::Object(m) => {
                    if let Some(u) = k.unevaluated_properties {
                        for (name, x) in m {
                            if !acc.ann.all_props && !acc.ann.props.contains(name) {
                                acc.take(self.below(u, x))?;
                            }
                        }
                        acc.ann.all_props = true;
                    }
                }
                _ => {}
            }
        }
        match acc.unknown {
            Some(w) => Err(Fail::Unknown(w)),
            None => Ok(acc.ann),
        }
    }

    fn number(
        &mut self,
        id: NodeId,
        k: &Keywords<'a>,
        n: &serde_json::Number,
        acc: &mut Acc,
    ) -> Result<(), Fail> {
        let Some(x) = Dec::from_number(n) else {
            acc.unknown
                .get_or_insert_with(|| "a number too large to read exactly".into());
            return Ok(());
        };
        if k.minimum.is_some_and(|m| x < m) {
            return Err(acc.no(id, "minimum"));
        }
        if k.exclusive_minimum.is_some_and(|m| x <= m) {
            return Err(acc.no(id, "exclusiveMinimum"));
        }
        if k.maximum.is_some_and(|m| x > m) {
            return Err(acc.no(id, "maximum"));
        }
        if k.exclusive_maximum.is_some_and(|m| x >= m) {
            return Err(acc.no(id, "exclusiveMaximum"));
        }
        if let Some(m) = k.multiple_of {
            if !x.is_multiple_of(m) {
                return Err(acc.no(id, "multipleOf"));
            }
        }
        if let Some((lo, hi, integral)) = k.width {
            if x < lo || x > hi || (integral && !x.is_integer()) {
                return Err(acc.no(id, "format"));
            }
        }
        Ok(())
    }

    fn string(
        &mut self,
        id: NodeId,
        k: &Keywords<'a>,
        s: &str,
        draft: Draft,
        acc: &mut Acc,
    ) -> Result<(), Fail> {
        if k.min_length.is_some() || k.max_length.is_some() {
            let n = len_chars(s);
            if k.min_length.is_some_and(|m| n < m) {
                return Err(acc.no(id, "minLength"));
            }
            if k.max_length.is_some_and(|m| n > m) {
                return Err(acc.no(id, "maxLength"));
            }
        }
        if let Some(p) = k.pattern {
            match self.g.pattern(p) {
                Ok(c) if c.is_match(s) => {}
                Ok(_) => return Err(acc.no(id, "pattern")),
                Err(why) => {
                    acc.unknown.get_or_insert_with(|| {
                        format!("`pattern` {:?}: {why}", self.g.pattern_source(p))
                    });
                }
            }
        }
        if let Some((enc, media)) = k.content {
            if super::format::content(enc, media, s) == Some(false) {
                return Err(acc.no(
                    id,
                    if enc.is_some() && !super::format::content_known(enc) {
                        "contentMediaType"
                    } else {
                        "contentEncoding"
                    },
                ));
            }
        }
        if let Some(f) = k.format {
            match super::format::check(draft, f, s) {
                Some(true) => {}
                Some(false) => return Err(acc.no(id, "format")),
                None => {
                    acc.unknown.get_or_insert_with(|| {
                        format!("whether a string is a `{f}` is not decided in this build")
                    });
                }
            }
        }
        Ok(())
    }

    fn array(
        &mut self,
        id: NodeId,
        k: &Keywords<'a>,
        a: &[Value],
        draft: Draft,
        acc: &mut Acc,
    ) -> Result<(), Fail> {
        let n = a.len() as u64;
        if k.min_items.is_some_and(|m| n < m) {
            return Err(acc.no(id, "minItems"));
        }
        if k.max_items.is_some_and(|m| n > m) {
            return Err(acc.no(id, "maxItems"));
        }
        if k.unique_items {
            for i in 0..a.len() {
                for j in i + 1..a.len() {
                    if json_eq(&a[i], &a[j]) {
                        return Err(acc.no(id, "uniqueItems"));
                    }
                }
            }
        }
        for (i, (p, x)) in k.prefix_items.iter().zip(a).enumerate() {
            let r = self.below(*p, x);
            acc.take(r)?;
            acc.ann.items_upto = acc.ann.items_upto.max(i + 1);
        }
        if let Some(items) = k.items {
            for x in a.iter().skip(k.prefix_items.len()) {
                let r = self.below(items, x);
                acc.take(r)?;
            }
            acc.ann.all_items = true;
        }
        if let Some(c) = k.contains {
            let mut count = 0u64;
            let mut unknown = None;
            for (i, x) in a.iter().enumerate() {
                match self.below(c, x) {
                    Ok(_) => {
                        count += 1;
                        if draft >= Draft::D2020 {
                            acc.ann.item_idx.insert(i);
                        }
                    }
                    Err(Fail::Invalid(_)) => {}
                    Err(Fail::Unknown(w)) => unknown = Some(w),
                }
            }
            let min = if draft >= Draft::D2019 {
                k.min_contains.unwrap_or(1)
            } else {
                1
            };
            let max = if draft >= Draft::D2019 {
                k.max_contains
            } else {
                None
            };
            match unknown {
                None => {
                    if count < min {
                        return Err(acc.no(
                            id,
                            if k.min_contains.is_some() {
                                "minContains"
                            } else {
                                "contains"
                            },
                        ));
                    }
                    if max.is_some_and(|m| count > m) {
                        return Err(acc.no(id, "maxContains"));
                    }
                }
                Some(w) => {
                    // a count past the maximum is a no whatever the unknown items are
                    if max.is_some_and(|m| count > m) {
                        return Err(acc.no(id, "maxContains"));
                    }
                    acc.unknown.get_or_insert(w);
                }
            }
        }
        Ok(())
    }

    fn object(
        &mut self,
        id: NodeId,
        k: &Keywords<'a>,
        m: &Map<String, Value>,
        acc: &mut Acc,
    ) -> Result<(), Fail> {
        let n = m.len() as u64;
        if k.min_properties.is_some_and(|x| n < x) {
            return Err(acc.no(id, "minProperties"));
        }
        if k.max_properties.is_some_and(|x| n > x) {
            return Err(acc.no(id, "maxProperties"));
        }
        for r in &k.required {
            if !m.contains_key(*r) {
                return Err(acc.no(id, "required"));
            }
        }
        for (name, names) in &k.dependent_required {
            if m.contains_key(*name) && names.iter().any(|x| !m.contains_key(*x)) {
                return Err(acc.no(id, "dependentRequired"));
            }
        }
        for (name, p) in &k.properties {
            if let Some(x) = m.get(*name) {
                let r = self.below(*p, x);
                acc.take(r)?;
                acc.ann.props.insert((*name).to_string());
            }
        }
        let mut pattern_unknown = None;
        let mut matched: HashSet<&str> = HashSet::new();
        for (p, s) in &k.pattern_properties {
            let c = match self.g.pattern(*p) {
                Ok(c) => c,
                Err(why) => {
                    pattern_unknown = Some(format!(
                        "`patternProperties` {:?}: {why}",
                        self.g.pattern_source(*p)
                    ));
                    continue;
                }
            };
            for (name, x) in m {
                if c.is_match(name) {
                    matched.insert(name.as_str());
                    let r = self.below(*s, x);
                    acc.take(r)?;
                    acc.ann.props.insert(name.clone());
                }
            }
        }
        if let Some(a) = k.additional_properties {
            for (name, x) in m {
                if k.properties.iter().any(|(p, _)| p == name) || matched.contains(name.as_str()) {
                    continue;
                }
                if let Some(w) = &pattern_unknown {
                    acc.unknown.get_or_insert(w.clone());
                    continue;
                }
                let r = self.below(a, x);
                acc.take(r)?;
                acc.ann.props.insert(name.clone());
            }
            acc.ann.all_props = true;
        }
        if let Some(w) = pattern_unknown {
            acc.unknown.get_or_insert(w);
        }
        if let Some(pn) = k.property_names {
            for name in m.keys() {
                let r = self.below(pn, &Value::String(name.clone()));
                // (property names evaluate no property)
                acc.take(r.map(|_| Ann::default()))?;
            }
        }
        Ok(())
    }

    fn applicators(
        &mut self,
        id: NodeId,
        k: &Keywords<'a>,
        v: &Value,
        in_place: usize,
        acc: &mut Acc,
    ) -> Result<(), Fail> {
        if let Value::Object(m) = v {
            for (name, s) in &k.dependent_schemas {
                if m.contains_key(*name) {
                    let r = self.here(*s, v, in_place);
                    acc.take(r)?;
                }
            }
        }
        for r in k.reference.iter().chain(k.dynamic_reference.iter()) {
            let res = self.here(*r, v, in_place);
            acc.take(res)?;
        }
        for s in &k.all_of {
            let r = self.here(*s, v, in_place);
            acc.take(r)?;
        }
        if !k.any_of.is_empty() {
            let mut any = false;
            let mut unknown = None;
            for s in &k.any_of {
                match self.here(*s, v, in_place) {
                    Ok(a) => {
                        any = true;
                        acc.ann.merge(a);
                    }
                    Err(Fail::Invalid(_)) => {}
                    Err(Fail::Unknown(w)) => unknown = Some(w),
                }
            }
            match (any, unknown) {
                (true, None) => {}
                // valid either way; what the unknown branch evaluated is not known
                (true, Some(w))
                    if k.unevaluated_items.is_some() || k.unevaluated_properties.is_some() =>
                {
                    acc.unknown.get_or_insert(w);
                }
                (true, Some(_)) => {}
                (false, None) => return Err(acc.no(id, "anyOf")),
                (false, Some(w)) => {
                    acc.unknown.get_or_insert(w);
                }
            }
        }
        if !k.one_of.is_empty() {
            let mut valid = 0;
            let mut unknown = None;
            let mut ann = None;
            for s in &k.one_of {
                match self.here(*s, v, in_place) {
                    Ok(a) => {
                        valid += 1;
                        ann = Some(a);
                    }
                    Err(Fail::Invalid(_)) => {}
                    Err(Fail::Unknown(w)) => unknown = Some(w),
                }
            }
            if valid > 1 {
                return Err(acc.no(id, "oneOf"));
            }
            match unknown {
                Some(w) => {
                    acc.unknown.get_or_insert(w);
                }
                None if valid == 0 => return Err(acc.no(id, "oneOf")),
                None => {
                    if let Some(a) = ann {
                        acc.ann.merge(a);
                    }
                }
            }
        }
        if let Some(n) = k.not {
            match self.here(n, v, in_place) {
                Ok(_) => return Err(acc.no(id, "not")),
                Err(Fail::Invalid(_)) => {}
                Err(Fail::Unknown(w)) => {
                    acc.unknown.get_or_insert(w);
                }
            }
        }
        if let Some(i) = k.if_ {
            match self.here(i, v, in_place) {
                Ok(a) => {
                    acc.ann.merge(a);
                    if let Some(t) = k.then_ {
                        let r = self.here(t, v, in_place);
                        acc.take(r)?;
                    }
                }
                Err(Fail::Invalid(_)) => {
                    if let Some(e) = k.else_ {
                        let r = self.here(e, v, in_place);
                        acc.take(r)?;
                    }
                }
                Err(Fail::Unknown(w)) => {
                    acc.unknown.get_or_insert(w);
                }
            }
        }
        Ok(())
    }
}

/// The names a node declares for the object it stands at, through every
/// subschema applied in place (whichever of its alternatives the value
/// takes: a name an alternative declares is one callers send on purpose).
struct Declared<'a> {
    names: HashSet<&'a str>,
    patterns: Vec<super::PatternId>,
    /// An `additionalProperties` / `unevaluatedProperties` that says
    /// something (not `true` or `{}`) takes every other name.
    all: bool,
    /// It declares names at all (`properties`, `patternProperties`, or
    /// `type: object`: a struct); `{}` is any JSON value, a map.
    record: bool,
}

fn declared_at<'a>(g: &Graph<'a>, id: NodeId) -> Declared<'a> {
    let mut d = Declared {
        names: HashSet::new(),
        patterns: vec![],
        all: false,
        record: false,
    };
    let mut todo = vec![id];
    let mut seen = HashSet::new();
    while let Some(n) = todo.pop() {
        if !seen.insert(n) || seen.len() > 4096 {
            continue;
        }
        let Some(k) = g.keywords(n) else { continue };
        // (a name listed only in `required` or `dependentRequired` is declared)
        d.names.extend(k.properties.iter().map(|(p, _)| *p));
        d.names.extend(k.required.iter().copied());
        for (n, names) in &k.dependent_required {
            d.names.insert(n);
            d.names.extend(names.iter().copied());
        }
        d.names.extend(k.dependent_schemas.iter().map(|(n, _)| *n));
        d.patterns
            .extend(k.pattern_properties.iter().map(|(p, _)| *p));
        if !k.properties.is_empty()
            || !k.pattern_properties.is_empty()
            || k.types.is_some_and(|t| t.contains(TypeSet::OBJECT))
        {
            d.record = true;
        }
        for x in k
            .additional_properties
            .iter()
            .chain(k.unevaluated_properties.iter())
        {
            if !g.says_nothing(*x) {
                d.all = true;
            }
        }
        todo.extend(k.reference.iter().chain(k.dynamic_reference.iter()));
        todo.extend(k.all_of.iter().chain(&k.any_of).chain(&k.one_of));
        todo.extend(
            k.not
                .iter()
                .chain(k.if_.iter())
                .chain(k.then_.iter())
                .chain(k.else_.iter()),
        );
        todo.extend(k.dependent_schemas.iter().map(|(_, s)| *s));
    }
    d
}
