//! A signed node restricted to one JSON type, as a formula over that
//! type's atoms.
//!
//! A value of type `t` satisfies a node when it satisfies the node's
//! keywords that apply to `t` (a keyword of another type is vacuous) and
//! its applicators; it satisfies the negated node when one of those fails
//! (`¬(a ∧ b) = ¬a ∨ ¬b`, `¬anyOf = ∧¬`, `¬oneOf` = none or two, `¬not X
//! = X`, `¬(if I then T else E) = (I ∧ ¬T) ∨ (¬I ∧ ¬E)`). Atoms that hold
//! a subschema (`properties`, `items`, `contains`, …) keep it as a node:
//! the type's clause solver decides them on the parts of the value, where
//! the recursion is guarded by the value's structure.
//!
//! `unevaluatedProperties` / `unevaluatedItems` are read statically: the
//! names (or leading items) the node's unconditional in-place subschemas
//! evaluate — its own keywords, `allOf` members and references, closed
//! over — are exactly the ones evaluated whenever the node holds; where a
//! conditional subschema (`anyOf`, `oneOf`, `if`, `dependentSchemas`)
//! could evaluate more, the formula says it is not decided.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use crate::schema::graph::{Body, Dec, Graph, Keywords, NodeId, PatternId};
use crate::schema::types::TypeSet;

/// The JSON types the decision splits on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ty {
    Null,
    Bool,
    Num,
    Str,
    Arr,
    Obj,
}

impl Ty {
    pub const ALL: [Ty; 6] = [Ty::Obj, Ty::Arr, Ty::Str, Ty::Num, Ty::Bool, Ty::Null];

    pub fn set(self) -> TypeSet {
        match self {
            Ty::Null => TypeSet::NULL,
            Ty::Bool => TypeSet::BOOLEAN,
            Ty::Num => TypeSet::NUMBER,
            Ty::Str => TypeSet::STRING,
            Ty::Arr => TypeSet::ARRAY,
            Ty::Obj => TypeSet::OBJECT,
        }
    }
}

/// A set of values the decision made up (distinct items, names in use),
/// compared by its canonical text.
#[derive(Debug, Clone)]
pub struct Values {
    pub values: Rc<Vec<serde_json::Value>>,
    key: Rc<str>,
}

impl Values {
    pub fn new(mut values: Vec<serde_json::Value>) -> Values {
        values.dedup();
        let key: String = values
            .iter()
            .map(canonical)
            .collect::<Vec<_>>()
            .join("\u{1}");
        Values {
            values: Rc::new(values),
            key: key.into(),
        }
    }
}

/// A value's text with numbers written as their exact decimal (so `1` and
/// `1.0` are one key).
pub fn canonical(v: &serde_json::Value) -> String {
    use serde_json::Value;
    match v {
        Value::Number(n) => Dec::from_number(n).map_or_else(|| n.to_string(), |d| d.to_string()),
        Value::Array(a) => format!(
            "[{}]",
            a.iter().map(canonical).collect::<Vec<_>>().join(",")
        ),
        Value::Object(m) => format!(
            "{{{}}}",
            m.iter()
                .map(|(k, x)| format!("{}:{}", Value::String(k.clone()), canonical(x)))
                .collect::<Vec<_>>()
                .join(",")
        ),
        other => other.to_string(),
    }
}

impl PartialEq for Values {
    fn eq(&self, o: &Values) -> bool {
        self.key == o.key
    }
}
impl Eq for Values {}
impl std::hash::Hash for Values {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.key.hash(h)
    }
}
impl PartialOrd for Values {
    fn partial_cmp(&self, o: &Values) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Values {
    fn cmp(&self, o: &Values) -> std::cmp::Ordering {
        self.key.cmp(&o.key)
    }
}

/// The names and patterns an `additionalProperties` (or a static
/// `unevaluatedProperties`) leaves out of its reach.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Known<'a> {
    pub names: Rc<[&'a str]>,
    pub patterns: Rc<[PatternId]>,
}

/// One constraint on a value of one type; its negation is the atom with
/// the sign `false`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Atom<'a> {
    /// Equal to the node's `const`.
    Const(NodeId),
    /// Equal to one of the node's `enum` values.
    Enum(NodeId),
    /// Equal to one of these values.
    In(Values),
    // numbers
    /// An integer however written (draft-06 on).
    Int,
    /// An integer written without a fraction (draft-04's `integer`).
    IntWhole,
    Min(Dec),
    ExMin(Dec),
    Max(Dec),
    ExMax(Dec),
    Mult(Dec),
    // strings
    MinLen(u64),
    MaxLen(u64),
    Pattern(PatternId),
    /// draft-07's `contentEncoding` / `contentMediaType`.
    Content(Option<&'a str>, Option<&'a str>),
    /// A `format` (read in the draft it was written in).
    Format(crate::schema::graph::Draft, &'a str),
    // arrays
    MinItems(u64),
    MaxItems(u64),
    Unique,
    /// Item `index` (when present) is accepted by the node.
    Prefix(usize, NodeId),
    /// Every item from `from` on is accepted by the node.
    Items(usize, NodeId),
    /// At least `k` items are accepted by the node.
    CountGe(NodeId, u64),
    /// At most `k` items are accepted by the node.
    CountLe(NodeId, u64),
    // objects
    MinProps(u64),
    MaxProps(u64),
    Req(&'a str),
    /// The property (when present) is accepted by the node.
    Prop(&'a str, NodeId),
    /// Every property whose name matches is accepted by the node.
    PatProp(PatternId, NodeId),
    /// Every property outside `Known` is accepted by the node.
    Add(Known<'a>, NodeId),
    /// Every property name is accepted by the node.
    Names(NodeId),
    /// Accepted by the node, as a whole: stands beside the formula of a
    /// node that holds an undecided part, so that the node and its
    /// negation still contradict each other (no solver reads it; values
    /// are checked with the evaluator).
    Node(NodeId),
}

/// A formula over atoms.
#[derive(Debug, Clone)]
pub enum F<'a> {
    True,
    False,
    /// Not decided, and why: the part is left out when a value is built
    /// (the value is checked by the evaluator after), and it keeps the
    /// conjunction from being called empty unless the rest is.
    Unknown(Rc<str>),
    And(Rc<[F<'a>]>),
    Or(Rc<[F<'a>]>),
    A(Atom<'a>, bool),
}

impl<'a> F<'a> {
    fn and(parts: Vec<F<'a>>) -> F<'a> {
        let mut out = Vec::with_capacity(parts.len());
        for p in parts {
            match p {
                F::True => {}
                F::False => return F::False,
                F::And(inner) => out.extend(inner.iter().cloned()),
                other => out.push(other),
            }
        }
        match out.len() {
            0 => F::True,
            1 => out.pop().unwrap_or(F::True),
            _ => F::And(out.into()),
        }
    }

    fn or(parts: Vec<F<'a>>) -> F<'a> {
        let mut out = Vec::with_capacity(parts.len());
        for p in parts {
            match p {
                F::False => {}
                F::True => return F::True,
                F::Or(inner) => out.extend(inner.iter().cloned()),
                other => out.push(other),
            }
        }
        match out.len() {
            0 => F::False,
            1 => out.pop().unwrap_or(F::False),
            _ => F::Or(out.into()),
        }
    }

    fn atom(a: Atom<'a>, pos: bool) -> F<'a> {
        F::A(a, pos)
    }
}

/// Restrictions of signed nodes, computed once each.
#[derive(Default)]
pub struct Restrictions<'a> {
    memo: HashMap<(NodeId, bool, Ty), (F<'a>, bool)>,
    on_path: HashSet<(NodeId, bool, Ty)>,
    /// Nodes of equal structure share one representative (by hash, then [`facts::same`]).
    canon: HashMap<u64, Vec<NodeId>>,
    canon_of: HashMap<NodeId, NodeId>,
    /// Did the formula being built meet an undecided part?
    saw_unknown: bool,
}

const LOOP: &str = "its references lead back to the same place in the value without descending into it (a recursion JSON Schema leaves undefined)";

impl<'a> Restrictions<'a> {
    /// The formula a value of type `ty` satisfies exactly when it is (for
    /// `pos`) or is not (for `!pos`) accepted by `id`.
    pub fn get(&mut self, g: &Graph<'a>, id: NodeId, pos: bool, ty: Ty) -> F<'a> {
        let id = self.canonical(g, id);
        let key = (id, pos, ty);
        if let Some((f, unknown)) = self.memo.get(&key) {
            self.saw_unknown |= *unknown;
            return f.clone();
        }
        if !self.on_path.insert(key) || self.on_path.len() > 256 {
            self.saw_unknown = true;
            return F::Unknown(format!("`{}`: {LOOP}", g.node(id).pointer).into());
        }
        let outer = std::mem::replace(&mut self.saw_unknown, false);
        let mut f = self.build(g, id, pos, ty);
        let unknown = self.saw_unknown || matches!(f, F::Unknown(_));
        if unknown {
            // what is known of the node, beside the node itself
            f = F::and(vec![F::atom(Atom::Node(id), pos), f]);
        }
        self.saw_unknown = outer || unknown;
        self.on_path.remove(&key);
        self.memo.insert(key, (f.clone(), unknown));
        f
    }

    /// The representative of the nodes structurally equal to `id`.
    pub fn canonical(&mut self, g: &Graph<'a>, id: NodeId) -> NodeId {
        if let Some(c) = self.canon_of.get(&id) {
            return *c;
        }
        let bucket = self.canon.entry(g.hash(id)).or_default();
        let c = bucket
            .iter()
            .copied()
            .find(|c| crate::schema::graph::facts::same(g, *c, id))
            .unwrap_or_else(|| {
                bucket.push(id);
                id
            });
        self.canon_of.insert(id, c);
        c
    }

    fn build(&mut self, g: &Graph<'a>, id: NodeId, pos: bool, ty: Ty) -> F<'a> {
        let node = g.node(id);
        let k = match &node.body {
            Body::Bool(b) => return if *b == pos { F::True } else { F::False },
            Body::Unresolved(why) => {
                self.saw_unknown = true;
                return F::Unknown(why.as_str().into());
            }
            // checked as a whole, by the evaluator
            Body::Meta(_) => return F::atom(Atom::Node(id), pos),
            Body::Schema(k) => k,
        };
        if !g.types(id).overlaps(ty.set()) {
            return if pos { F::False } else { F::True };
        }
        if let Some(kw) = k.malformed.first() {
            self.saw_unknown = true;
            return F::Unknown(
                format!(
                    "the keyword `{kw}` at `{}` holds a value JSON Schema does not allow",
                    node.pointer
                )
                .into(),
            );
        }
        let mut parts: Vec<F<'a>> = vec![];
        self.own(g, id, k, ty, &mut parts);
        if !pos {
            // the own keywords are written positively; the node fails when one does
            parts = parts.into_iter().map(negate).collect();
        }
        self.applicators(g, k, pos, ty, &mut parts);
        if pos {
            F::and(parts)
        } else {
            F::or(parts)
        }
    }

    /// The node's own keywords for type `ty`, each as a positive formula.
    fn own(&mut self, g: &Graph<'a>, id: NodeId, k: &Keywords<'a>, ty: Ty, out: &mut Vec<F<'a>>) {
        let a = |x: Atom<'a>| F::atom(x, true);
        if let Some(t) = k.types {
            if ty == Ty::Num {
                let t = t.intersect(TypeSet::NUMBER);
                if !t.overlaps(TypeSet::FRACTION) {
                    if t == TypeSet::WHOLE_WRITTEN {
                        out.push(a(Atom::IntWhole));
                    } else {
                        out.push(a(Atom::Int));
                    }
                }
            }
        }
        if k.constant.is_some() {
            out.push(a(Atom::Const(id)));
        }
        if k.enumeration.is_some() {
            out.push(a(Atom::Enum(id)));
        }
        match ty {
            Ty::Num => {
                out.extend(k.minimum.map(|x| a(Atom::Min(x))));
                out.extend(k.exclusive_minimum.map(|x| a(Atom::ExMin(x))));
                out.extend(k.maximum.map(|x| a(Atom::Max(x))));
                out.extend(k.exclusive_maximum.map(|x| a(Atom::ExMax(x))));
                out.extend(k.multiple_of.map(|x| a(Atom::Mult(x))));
                if let Some((lo, hi, integral)) = k.width {
                    out.push(a(Atom::Min(lo)));
                    out.push(a(Atom::Max(hi)));
                    if integral {
                        out.push(a(Atom::Int));
                    }
                }
            }
            Ty::Str => {
                out.extend(k.min_length.map(|x| a(Atom::MinLen(x))));
                out.extend(k.max_length.map(|x| a(Atom::MaxLen(x))));
                out.extend(k.pattern.map(|p| a(Atom::Pattern(p))));
                if let Some(f) = k.format {
                    out.push(a(Atom::Format(g.node(id).draft, f)));
                }
                if let Some((enc, media)) = k.content {
                    out.push(a(Atom::Content(enc, media)));
                }
            }
            Ty::Arr => {
                out.extend(k.min_items.map(|x| a(Atom::MinItems(x))));
                out.extend(k.max_items.map(|x| a(Atom::MaxItems(x))));
                if k.unique_items {
                    out.push(a(Atom::Unique));
                }
                for (i, p) in k.prefix_items.iter().enumerate() {
                    out.push(a(Atom::Prefix(i, *p)));
                }
                if let Some(items) = k.items {
                    out.push(a(Atom::Items(k.prefix_items.len(), items)));
                }
                if let Some(c) = k.contains {
                    let draft = g.node(id).draft;
                    let modern = draft >= crate::schema::graph::Draft::D2019;
                    let min = if modern {
                        k.min_contains.unwrap_or(1)
                    } else {
                        1
                    };
                    if min > 0 {
                        out.push(a(Atom::CountGe(c, min)));
                    }
                    if let (true, Some(max)) = (modern, k.max_contains) {
                        out.push(a(Atom::CountLe(c, max)));
                    }
                }
                if let Some(u) = k.unevaluated_items {
                    out.push(self.unevaluated_items(g, id, u));
                }
            }
            Ty::Obj => {
                out.extend(k.min_properties.map(|x| a(Atom::MinProps(x))));
                out.extend(k.max_properties.map(|x| a(Atom::MaxProps(x))));
                for r in &k.required {
                    out.push(a(Atom::Req(r)));
                }
                for (name, p) in &k.properties {
                    out.push(a(Atom::Prop(name, *p)));
                }
                for (pat, p) in &k.pattern_properties {
                    out.push(a(Atom::PatProp(*pat, *p)));
                }
                if let Some(ap) = k.additional_properties {
                    let known = Known {
                        names: k.properties.iter().map(|(n, _)| *n).collect(),
                        patterns: k.pattern_properties.iter().map(|(p, _)| *p).collect(),
                    };
                    out.push(a(Atom::Add(known, ap)));
                }
                if let Some(pn) = k.property_names {
                    out.push(a(Atom::Names(pn)));
                }
                for (name, names) in &k.dependent_required {
                    let then: Vec<F<'a>> = names.iter().map(|n| a(Atom::Req(n))).collect();
                    out.push(F::or(vec![F::atom(Atom::Req(name), false), F::and(then)]));
                }
                if let Some(u) = k.unevaluated_properties {
                    out.push(self.unevaluated_properties(g, id, u));
                }
            }
            Ty::Null | Ty::Bool => {}
        }
    }

    /// The applicators, each as a part of the node's conjunction (`pos`)
    /// or of its negation's disjunction (`!pos`).
    fn applicators(
        &mut self,
        g: &Graph<'a>,
        k: &Keywords<'a>,
        pos: bool,
        ty: Ty,
        out: &mut Vec<F<'a>>,
    ) {
        if ty == Ty::Obj {
            for (name, s) in &k.dependent_schemas {
                let then = self.get(g, *s, pos, Ty::Obj);
                out.push(if pos {
                    F::or(vec![F::atom(Atom::Req(name), false), then])
                } else {
                    F::and(vec![F::atom(Atom::Req(name), true), then])
                });
            }
        }
        for r in k
            .reference
            .iter()
            .chain(k.dynamic_reference.iter())
            .chain(k.all_of.iter())
        {
            out.push(self.get(g, *r, pos, ty));
        }
        if !k.any_of.is_empty() {
            let alts = k.any_of.iter().map(|b| self.get(g, *b, pos, ty)).collect();
            out.push(if pos { F::or(alts) } else { F::and(alts) });
        }
        if !k.one_of.is_empty() {
            let yes: Vec<F<'a>> = k.one_of.iter().map(|b| self.get(g, *b, true, ty)).collect();
            let no: Vec<F<'a>> = k
                .one_of
                .iter()
                .map(|b| self.get(g, *b, false, ty))
                .collect();
            if pos {
                let alts = (0..yes.len())
                    .map(|i| {
                        let mut c = vec![yes[i].clone()];
                        c.extend(
                            no.iter()
                                .enumerate()
                                .filter(|(j, _)| *j != i)
                                .map(|(_, f)| f.clone()),
                        );
                        F::and(c)
                    })
                    .collect();
                out.push(F::or(alts));
            } else {
                // none, or two at once
                let mut alts = vec![F::and(no.clone())];
                for i in 0..yes.len() {
                    for j in i + 1..yes.len() {
                        alts.push(F::and(vec![yes[i].clone(), yes[j].clone()]));
                    }
                }
                out.push(F::or(alts));
            }
        }
        if let Some(n) = k.not {
            out.push(self.get(g, n, !pos, ty));
        }
        if let Some(i) = k.if_ {
            let then = k.then_.map_or(F::True, |t| self.get(g, t, true, ty));
            let els = k.else_.map_or(F::True, |e| self.get(g, e, true, ty));
            if !(matches!(then, F::True) && matches!(els, F::True)) {
                let yes = self.get(g, i, true, ty);
                let no = self.get(g, i, false, ty);
                if pos {
                    out.push(F::or(vec![F::and(vec![yes, then]), F::and(vec![no, els])]));
                } else {
                    let then_no = k.then_.map_or(F::False, |t| self.get(g, t, false, ty));
                    let else_no = k.else_.map_or(F::False, |e| self.get(g, e, false, ty));
                    out.push(F::or(vec![
                        F::and(vec![yes, then_no]),
                        F::and(vec![no, else_no]),
                    ]));
                }
            }
        }
    }

    fn unevaluated_properties(&mut self, g: &Graph<'a>, id: NodeId, u: NodeId) -> F<'a> {
        let mut e = Evaluated::default();
        if let Err(why) = evaluated(g, id, &mut e, &mut HashSet::new(), true) {
            self.saw_unknown = true;
            return F::Unknown(why.into());
        }
        if e.all {
            return F::True;
        }
        let known = Known {
            names: e.names.into_iter().collect::<Vec<_>>().into(),
            patterns: e.patterns.into_iter().collect::<Vec<_>>().into(),
        };
        F::atom(Atom::Add(known, u), true)
    }

    fn unevaluated_items(&mut self, g: &Graph<'a>, id: NodeId, u: NodeId) -> F<'a> {
        let mut e = Evaluated::default();
        if let Err(why) = evaluated(g, id, &mut e, &mut HashSet::new(), true) {
            self.saw_unknown = true;
            return F::Unknown(why.into());
        }
        if e.all_items {
            return F::True;
        }
        if e.contains {
            self.saw_unknown = true;
            return F::Unknown(
                format!(
                    "`unevaluatedItems` at `{}` beside a `contains` that evaluates the items it matches",
                    g.node(id).pointer
                )
                .into(),
            );
        }
        F::atom(Atom::Items(e.items_upto, u), true)
    }
}

/// What a node's unconditional in-place subschemas evaluate.
#[derive(Default)]
struct Evaluated<'a> {
    names: std::collections::BTreeSet<&'a str>,
    patterns: std::collections::BTreeSet<PatternId>,
    all: bool,
    items_upto: usize,
    all_items: bool,
    contains: bool,
}

fn evaluated<'a>(
    g: &Graph<'a>,
    id: NodeId,
    e: &mut Evaluated<'a>,
    seen: &mut HashSet<NodeId>,
    top: bool,
) -> Result<(), String> {
    if !seen.insert(id) {
        return Ok(());
    }
    let k = match &g.node(id).body {
        Body::Schema(k) => k,
        Body::Bool(_) => return Ok(()),
        Body::Unresolved(why) => return Err(why.clone()),
        Body::Meta(_) => {
            return Err(format!(
                "`unevaluated*` at `{}` reads what a meta-schema evaluated",
                g.node(id).pointer
            ))
        }
    };
    e.names.extend(k.properties.iter().map(|(n, _)| *n));
    e.patterns
        .extend(k.pattern_properties.iter().map(|(p, _)| *p));
    if k.additional_properties.is_some() || (!top && k.unevaluated_properties.is_some()) {
        e.all = true;
    }
    e.items_upto = e.items_upto.max(k.prefix_items.len());
    if k.items.is_some() || (!top && k.unevaluated_items.is_some()) {
        e.all_items = true;
    }
    if k.contains.is_some() && g.node(id).draft >= crate::schema::graph::Draft::D2020 {
        e.contains = true;
    }
    for r in k
        .reference
        .iter()
        .chain(k.dynamic_reference.iter())
        .chain(k.all_of.iter())
    {
        evaluated(g, *r, e, seen, false)?;
    }
    // conditional subschemas: their annotations count only where they
    // validate; decided here only when they can add nothing
    let conditional: Vec<NodeId> = k
        .any_of
        .iter()
        .chain(k.one_of.iter())
        .chain(k.if_.iter())
        .chain(k.then_.iter())
        .chain(k.else_.iter())
        .chain(k.dependent_schemas.iter().map(|(_, s)| s))
        .copied()
        .collect();
    for c in conditional {
        let mut inner = Evaluated::default();
        evaluated(g, c, &mut inner, &mut seen.clone(), false)?;
        let adds = (inner.all && !e.all)
            || (inner.all_items && !e.all_items)
            || inner.items_upto > e.items_upto
            || inner.contains
            || inner.names.iter().any(|n| !e.names.contains(n))
            || inner.patterns.iter().any(|p| !e.patterns.contains(p));
        if adds {
            return Err(format!(
                "`unevaluated*` at `{}` reads what an `anyOf`/`oneOf`/`if`/`dependentSchemas` subschema (`{}`) evaluated, which depends on the value",
                g.node(id).pointer,
                g.node(c).pointer
            ));
        }
    }
    Ok(())
}

/// The negation of a formula.
pub fn negate(f: F<'_>) -> F<'_> {
    match f {
        F::True => F::False,
        F::False => F::True,
        F::Unknown(w) => F::Unknown(w),
        F::A(a, s) => F::A(a, !s),
        F::And(parts) => F::or(parts.iter().cloned().map(negate).collect()),
        F::Or(parts) => F::and(parts.iter().cloned().map(negate).collect()),
    }
}
