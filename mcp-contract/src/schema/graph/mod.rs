//! A schema document compiled once into a graph of typed nodes.
//!
//! Each document is read in its dialect (draft-04, -06, -07, 2019-09 or
//! 2020-12: the keyword table is chosen when the node is compiled, and a
//! nested `$schema` switches it for its subtree) into an arena of
//! [`Node`]s addressed by [`NodeId`]. Keywords become typed fields
//! ([`Keywords`]): numbers are exact decimals ([`Dec`]), `type` a
//! [`TypeSet`] (draft-04's `integer` is a number written without a
//! fraction), array-form `items` a tuple, draft-07 `dependencies` split in
//! two, draft-04's boolean `exclusiveMinimum` a bound. References of every
//! kind — `$ref`, `$dynamicRef`, `$recursiveRef`, `$anchor`,
//! `$dynamicAnchor`, `$id` bases (draft-04: `id`) — are resolved by one
//! resolver ([`compile`]) into edges to the node they reach. A dynamic
//! reference depends on the resources entered on the way to it, so a node
//! is compiled once per *dynamic context* (the dynamic anchors bound by
//! the resources entered, outermost first); a document without dynamic
//! anchors has one context, and every node once.
//!
//! Everything after compilation walks nodes: the evaluator ([`eval`])
//! decides whether a node accepts a value, exactly, and the containment
//! decision (`crate::schema::contain`) reasons on nodes and their cached
//! [`facts`]. A reference the document cannot resolve (remote, or to a
//! place that holds no schema) is a node of its own
//! ([`Body::Unresolved`]) that says why: nothing that reaches it is
//! decided, never guessed.

mod compile;
pub mod decimal;
pub mod eval;
pub mod facts;
pub mod format;
pub mod uri;

use std::cell::OnceCell;

use serde_json::{Map, Value};

pub use compile::compile_document;
pub use decimal::Dec;

use super::pattern::Compiled;
use super::types::TypeSet;

/// A node of a [`Graph`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub(crate) u32);

impl NodeId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A pattern of the graph (`pattern`, `patternProperties`), compiled on first use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PatternId(pub(crate) u32);

/// The JSON Schema drafts the graph reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Draft {
    /// draft-04 (and draft-03, read as draft-04).
    D4,
    D6,
    D7,
    D2019,
    D2020,
}

impl Draft {
    /// The draft a `$schema` URI names; `None` for one this engine does not know.
    pub fn from_uri(uri: &str) -> Option<Draft> {
        [
            ("2020-12", Draft::D2020),
            ("2019-09", Draft::D2019),
            ("draft-07", Draft::D7),
            ("draft-06", Draft::D6),
            ("draft-04", Draft::D4),
            ("draft-03", Draft::D4),
        ]
        .into_iter()
        .find(|(d, _)| uri.contains(d))
        .map(|(_, d)| d)
    }

    /// The meta-schema URI of this draft (the format checkers' dialect).
    pub fn uri(self) -> &'static str {
        match self {
            Draft::D4 => "http://json-schema.org/draft-04/schema#",
            Draft::D6 => "http://json-schema.org/draft-06/schema#",
            Draft::D7 => "http://json-schema.org/draft-07/schema#",
            Draft::D2019 => "https://json-schema.org/draft/2019-09/schema",
            Draft::D2020 => "https://json-schema.org/draft/2020-12/schema",
        }
    }

    /// Keywords beside `$ref` are ignored (draft-07 and before).
    pub fn ref_overrides_siblings(self) -> bool {
        self <= Draft::D7
    }
}

/// What a node is.
#[derive(Debug)]
pub enum Body<'a> {
    /// `true` or `false`.
    Bool(bool),
    Schema(Box<Keywords<'a>>),
    /// A reference that does not resolve in the document, or a place that
    /// holds no schema: what reaches it is not decided.
    Unresolved(String),
    /// A draft's meta-schema, reached by its URI (`{"$ref":
    /// "https://json-schema.org/draft/2020-12/schema"}`): values are checked
    /// against it by the validator's own copy ([`format::meta`]); the
    /// decision reads it as one opaque constraint.
    Meta(Draft),
}

/// One compiled node.
#[derive(Debug)]
pub struct Node<'a> {
    /// The document it belongs to (an index into [`Graph::roots`]).
    pub doc: u32,
    /// Its JSON pointer in that document, as written.
    pub pointer: String,
    pub draft: Draft,
    pub body: Body<'a>,
}

/// The keywords of a schema object, typed. An absent keyword is `None` /
/// empty; everything is as the node's draft means it.
#[derive(Debug, Default)]
pub struct Keywords<'a> {
    /// The object as written (annotations are read from it).
    pub raw: Option<&'a Map<String, Value>>,
    /// `type` (`None`: every type).
    pub types: Option<TypeSet>,
    pub enumeration: Option<&'a [Value]>,
    pub constant: Option<&'a Value>,
    pub minimum: Option<Dec>,
    pub exclusive_minimum: Option<Dec>,
    pub maximum: Option<Dec>,
    pub exclusive_maximum: Option<Dec>,
    pub multiple_of: Option<Dec>,
    /// The range an integer or float `format` (`int32`, `uint8`, `float`,
    /// …) confines numbers to, as serde enforces it: (low, high, integers only).
    pub width: Option<(Dec, Dec, bool)>,
    pub min_length: Option<u64>,
    pub max_length: Option<u64>,
    pub pattern: Option<PatternId>,
    /// A string `format` the policy asserts ([`format`]); width formats are in `width`.
    pub format: Option<&'a str>,
    /// draft-07's `contentEncoding` / `contentMediaType`, which its
    /// validators assert on strings (later drafts make them annotations).
    pub content: Option<(Option<&'a str>, Option<&'a str>)>,
    pub prefix_items: Vec<NodeId>,
    /// The schema of the items after `prefix_items` (2020-12 `items`,
    /// earlier drafts' `additionalItems` beside a tuple or object `items`).
    pub items: Option<NodeId>,
    pub contains: Option<NodeId>,
    pub min_contains: Option<u64>,
    pub max_contains: Option<u64>,
    pub min_items: Option<u64>,
    pub max_items: Option<u64>,
    pub unique_items: bool,
    pub unevaluated_items: Option<NodeId>,
    pub properties: Vec<(&'a str, NodeId)>,
    pub pattern_properties: Vec<(PatternId, NodeId)>,
    pub additional_properties: Option<NodeId>,
    pub property_names: Option<NodeId>,
    pub required: Vec<&'a str>,
    pub dependent_required: Vec<(&'a str, Vec<&'a str>)>,
    pub dependent_schemas: Vec<(&'a str, NodeId)>,
    pub min_properties: Option<u64>,
    pub max_properties: Option<u64>,
    pub unevaluated_properties: Option<NodeId>,
    pub all_of: Vec<NodeId>,
    pub any_of: Vec<NodeId>,
    pub one_of: Vec<NodeId>,
    pub not: Option<NodeId>,
    pub if_: Option<NodeId>,
    pub then_: Option<NodeId>,
    pub else_: Option<NodeId>,
    /// `$ref`.
    pub reference: Option<NodeId>,
    /// `$dynamicRef` / `$recursiveRef`, resolved in the node's dynamic context.
    pub dynamic_reference: Option<NodeId>,
    /// Keywords whose value is not what the draft allows (`"minLength": "x"`):
    /// the node is not decided.
    pub malformed: Vec<String>,
}

impl Keywords<'_> {
    /// The annotation `name` as written (`default`, `description`, …).
    pub fn annotation(&self, name: &str) -> Option<&Value> {
        self.raw.and_then(|m| m.get(name))
    }
}

/// A compiled pattern and its source.
pub struct PatternEntry<'a> {
    pub source: &'a str,
    compiled: OnceCell<Result<Compiled, String>>,
}

impl std::fmt::Debug for PatternEntry<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PatternEntry({:?})", self.source)
    }
}

/// Compiled documents: nodes, their facts, and the patterns they use.
#[derive(Debug, Default)]
pub struct Graph<'a> {
    pub(crate) nodes: Vec<Node<'a>>,
    /// The root node of each document compiled, in order.
    pub roots: Vec<NodeId>,
    pub(crate) patterns: Vec<PatternEntry<'a>>,
    pattern_index: std::collections::HashMap<&'a str, PatternId>,
    pub(crate) facts: facts::Facts<'a>,
}

impl<'a> Graph<'a> {
    pub fn new() -> Graph<'a> {
        Graph::default()
    }

    /// Compiles `doc` (in `default` when it names no `$schema`) and returns its root.
    pub fn add(&mut self, doc: &'a Value, default: Draft) -> NodeId {
        let root = compile_document(self, doc, default);
        self.roots.push(root);
        facts::compute(self);
        root
    }

    pub fn node(&self, id: NodeId) -> &Node<'a> {
        &self.nodes[id.index()]
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The keywords of a schema-object node.
    pub fn keywords(&self, id: NodeId) -> Option<&Keywords<'a>> {
        match &self.node(id).body {
            Body::Schema(k) => Some(k),
            _ => None,
        }
    }

    pub(crate) fn intern_pattern(&mut self, source: &'a str) -> PatternId {
        if let Some(id) = self.pattern_index.get(source) {
            return *id;
        }
        let id = PatternId(self.patterns.len() as u32);
        self.patterns.push(PatternEntry {
            source,
            compiled: OnceCell::new(),
        });
        self.pattern_index.insert(source, id);
        id
    }

    /// The compiled pattern (compiled on first use), or why it cannot be.
    pub fn pattern(&self, id: PatternId) -> Result<&Compiled, &str> {
        let e = &self.patterns[id.0 as usize];
        e.compiled
            .get_or_init(|| Compiled::new(Some(e.source)))
            .as_ref()
            .map_err(String::as_str)
    }

    pub fn pattern_source(&self, id: PatternId) -> &'a str {
        self.patterns[id.0 as usize].source
    }

    /// The JSON types `id` can accept (an over-approximation: a type not
    /// in it is accepted by no value).
    pub fn types(&self, id: NodeId) -> TypeSet {
        self.facts.types[id.index()]
    }

    /// Every value `id` accepts is among these (when the node says so
    /// through `const`, `enum`, a null- or boolean-only `type`, …); the
    /// evaluator decides which of them it really accepts.
    pub fn finite(&self, id: NodeId) -> Option<&[Value]> {
        self.facts.finite[id.index()].as_deref()
    }

    /// A hash of what the node means structurally (references by the hash
    /// of what they reach): equal meaning, equal hash.
    pub fn hash(&self, id: NodeId) -> u64 {
        self.facts.hash[id.index()]
    }

    /// Is `id` `true` or `{}` (annotations aside): a schema that says nothing?
    pub fn says_nothing(&self, id: NodeId) -> bool {
        match &self.node(id).body {
            Body::Bool(b) => *b,
            Body::Schema(k) => k.raw.is_some_and(|m| {
                m.keys()
                    .all(|kw| crate::schema::ANNOTATION_KEYWORDS.contains(&kw.as_str()))
            }),
            _ => false,
        }
    }

    /// Does `id` accept no value at all, as far as its keywords show?
    pub fn accepts_nothing(&self, id: NodeId) -> bool {
        self.types(id).is_empty()
    }
}

#[cfg(test)]
mod tests;
