//! Compiling one document: the resource index (every `$id` base, anchor
//! and dynamic anchor, found by walking the keywords that hold schemas in
//! each node's draft), then the nodes reachable from the root, each built
//! once per (place, dynamic context) from a work list (no recursion, so
//! depth costs no stack), with every reference resolved to an edge.

use std::collections::{HashMap, VecDeque};

use serde_json::{Map, Value};

use super::uri;
use super::{Body, Dec, Draft, Graph, Keywords, Node, NodeId};
use crate::schema::types::TypeSet;

/// The base URI of a document that does not name one.
const DOCUMENT_BASE: &str = "https://mcp-contract.invalid/schema.json";

/// Deepest nesting the resource walk follows (a bound on hostile input;
/// deeper places are still compiled when reached, with the base in scope there).
const MAX_WALK_DEPTH: usize = 512;

/// Most nodes one document compiles to (dynamic contexts multiply places);
/// past it, places compile to [`Body::Unresolved`] saying so.
const MAX_NODES: usize = 200_000;

/// Where a schema position sits: its resource and draft.
#[derive(Debug, Clone)]
struct Scope {
    /// The base URI (no fragment) of the innermost resource.
    base: String,
    /// The pointer of that resource's root.
    resource: String,
    draft: Draft,
}

#[derive(Default)]
struct Index {
    /// Absolute URI (no fragment) → resource root pointer.
    resources: HashMap<String, String>,
    /// (resource URI, anchor name) → pointer.
    anchors: HashMap<(String, String), String>,
    /// Resource pointer → its `$dynamicAnchor`s (name, pointer); the name
    /// [`RECURSIVE`] for a root with `$recursiveAnchor: true`.
    dynamic: HashMap<String, Vec<(String, String)>>,
    /// (resource URI, name) of every `$dynamicAnchor`.
    dynamic_names: std::collections::HashSet<(String, String)>,
    /// Schema positions walked, with their scope.
    scopes: HashMap<String, Scope>,
}

/// The pointer prefix standing for a draft's meta-schema (no JSON pointer starts with NUL).
const META: &str = "\u{0}meta:";

/// The draft whose meta-schema `uri` (no fragment) names.
fn meta_schema(uri: &str) -> Option<Draft> {
    let uri = uri.trim_end_matches('#');
    let bare = uri
        .strip_prefix("https://")
        .or_else(|| uri.strip_prefix("http://"))?;
    Some(match bare {
        "json-schema.org/draft/2020-12/schema" => Draft::D2020,
        "json-schema.org/draft/2019-09/schema" => Draft::D2019,
        "json-schema.org/draft-07/schema" => Draft::D7,
        "json-schema.org/draft-06/schema" => Draft::D6,
        "json-schema.org/draft-04/schema" => Draft::D4,
        _ => return None,
    })
}

/// The binding name standing for 2019-09's `$recursiveAnchor`.
const RECURSIVE: &str = "\u{0}recursive";

/// The drafts' keywords that hold one schema, a list, or a map of them.
fn one_schema(d: Draft) -> &'static [&'static str] {
    match d {
        Draft::D4 => &["additionalProperties", "additionalItems", "items", "not"],
        Draft::D6 => &[
            "additionalProperties",
            "additionalItems",
            "items",
            "not",
            "contains",
            "propertyNames",
        ],
        Draft::D7 => &[
            "additionalProperties",
            "additionalItems",
            "items",
            "not",
            "contains",
            "propertyNames",
            "if",
            "then",
            "else",
        ],
        Draft::D2019 => &[
            "additionalProperties",
            "additionalItems",
            "items",
            "not",
            "contains",
            "propertyNames",
            "if",
            "then",
            "else",
            "unevaluatedProperties",
            "unevaluatedItems",
            "contentSchema",
        ],
        Draft::D2020 => &[
            "additionalProperties",
            "items",
            "not",
            "contains",
            "propertyNames",
            "if",
            "then",
            "else",
            "unevaluatedProperties",
            "unevaluatedItems",
            "contentSchema",
        ],
    }
}

fn schema_lists(d: Draft) -> &'static [&'static str] {
    match d {
        Draft::D2020 => &["allOf", "anyOf", "oneOf", "prefixItems", "items"],
        _ => &["allOf", "anyOf", "oneOf", "items"],
    }
}

fn schema_maps(d: Draft) -> &'static [&'static str] {
    match d {
        Draft::D4 | Draft::D6 | Draft::D7 => &[
            "properties",
            "patternProperties",
            "definitions",
            "dependencies",
        ],
        _ => &[
            "properties",
            "patternProperties",
            "definitions",
            "$defs",
            "dependentSchemas",
        ],
    }
}

/// Does draft `d` know validation keyword `kw`? (Keywords a later draft
/// brought are ignored by earlier ones, as their validators do.)
fn knows(d: Draft, kw: &str) -> bool {
    let since = match kw {
        "const" | "contains" | "propertyNames" => Draft::D6,
        "if" | "then" | "else" => Draft::D7,
        "dependentRequired"
        | "dependentSchemas"
        | "unevaluatedProperties"
        | "unevaluatedItems"
        | "minContains"
        | "maxContains"
        | "$recursiveRef"
        | "$recursiveAnchor"
        | "$anchor" => Draft::D2019,
        "prefixItems" | "$dynamicRef" | "$dynamicAnchor" => Draft::D2020,
        _ => return true,
    };
    let until = match kw {
        "$recursiveRef" | "$recursiveAnchor" => Draft::D2019,
        "dependencies" => Draft::D7,
        _ => Draft::D2020,
    };
    d >= since && d <= until
}

fn id_keyword(d: Draft) -> &'static str {
    if d == Draft::D4 {
        "id"
    } else {
        "$id"
    }
}

fn push_token(ptr: &str, t: &str) -> String {
    format!("{ptr}/{}", uri::escape_token(t))
}

impl Index {
    fn walk(&mut self, v: &Value, ptr: String, outer: &Scope, depth: usize) {
        let Value::Object(m) = v else { return };
        if depth > MAX_WALK_DEPTH {
            return;
        }
        let mut scope = outer.clone();
        if let Some(d) = m
            .get("$schema")
            .and_then(Value::as_str)
            .and_then(Draft::from_uri)
        {
            scope.draft = d;
        }
        let d = scope.draft;
        let ref_only = d.ref_overrides_siblings() && m.contains_key("$ref");
        if !ref_only {
            if let Some(id) = m.get(id_keyword(d)).and_then(Value::as_str) {
                let resolved = uri::resolve(&scope.base, id);
                let (base, frag) = uri::split_fragment(&resolved);
                let names_resource = !(d <= Draft::D7 && id.starts_with('#'));
                if names_resource {
                    scope.base = base.to_string();
                    scope.resource = ptr.clone();
                    self.resources.insert(base.to_string(), ptr.clone());
                }
                if d <= Draft::D7 && !frag.is_empty() && !frag.starts_with('/') {
                    self.anchors
                        .insert((base.to_string(), frag.to_string()), ptr.clone());
                }
            }
            if d >= Draft::D2019 {
                if let Some(a) = m.get("$anchor").and_then(Value::as_str) {
                    self.anchors
                        .insert((scope.base.clone(), a.to_string()), ptr.clone());
                }
            }
            if d == Draft::D2020 {
                if let Some(a) = m.get("$dynamicAnchor").and_then(Value::as_str) {
                    self.anchors
                        .insert((scope.base.clone(), a.to_string()), ptr.clone());
                    self.dynamic_names
                        .insert((scope.base.clone(), a.to_string()));
                    self.dynamic
                        .entry(scope.resource.clone())
                        .or_default()
                        .push((a.to_string(), ptr.clone()));
                }
            }
            if d == Draft::D2019
                && m.get("$recursiveAnchor") == Some(&Value::Bool(true))
                && scope.resource == ptr
            {
                self.dynamic
                    .entry(ptr.clone())
                    .or_default()
                    .push((RECURSIVE.to_string(), ptr.clone()));
            }
        }
        self.scopes.insert(ptr.clone(), scope.clone());
        if ref_only {
            // only the containers other references may point into
            for k in ["definitions", "$defs"] {
                if let Some(Value::Object(defs)) = m.get(k) {
                    for (name, s) in defs {
                        self.walk(s, push_token(&push_token(&ptr, k), name), &scope, depth + 1);
                    }
                }
            }
            return;
        }
        for k in one_schema(d) {
            if let Some(s) = m.get(*k) {
                if s.is_object() {
                    self.walk(s, push_token(&ptr, k), &scope, depth + 1);
                }
            }
        }
        for k in schema_lists(d) {
            if let Some(Value::Array(list)) = m.get(*k) {
                for (i, s) in list.iter().enumerate() {
                    self.walk(
                        s,
                        push_token(&push_token(&ptr, k), &i.to_string()),
                        &scope,
                        depth + 1,
                    );
                }
            }
        }
        for k in schema_maps(d) {
            if let Some(Value::Object(map)) = m.get(*k) {
                for (name, s) in map {
                    if s.is_object() {
                        self.walk(s, push_token(&push_token(&ptr, k), name), &scope, depth + 1);
                    }
                }
            }
        }
    }

    /// The scope of any place: the walked one, or that of the nearest
    /// walked ancestor (places under unknown keywords, reached by pointer).
    fn scope_of(&self, ptr: &str) -> Scope {
        let mut p = ptr;
        loop {
            if let Some(s) = self.scopes.get(p) {
                return s.clone();
            }
            match p.rfind('/') {
                Some(i) => p = &p[..i],
                None => {
                    return self.scopes.get("").cloned().unwrap_or(Scope {
                        base: DOCUMENT_BASE.to_string(),
                        resource: String::new(),
                        draft: Draft::D2020,
                    })
                }
            }
        }
    }

    /// The pointer `reference` reaches from a place with base `base`.
    fn resolve(&self, doc: &Value, base: &str, reference: &str) -> Result<String, String> {
        let abs = uri::resolve(base, reference);
        let (u, frag) = uri::split_fragment(&abs);
        let Some(resource) = self.resources.get(u) else {
            if let Some(d) = meta_schema(u).filter(|_| frag.is_empty()) {
                return Ok(format!("{META}{}", d as u8));
            }
            return Err(format!(
                "the reference `{reference}` names a document this schema does not contain (`{u}`): remote references are not followed"
            ));
        };
        let frag = uri::percent_decode(frag);
        let target = if frag.is_empty() {
            resource.clone()
        } else if frag.starts_with('/') {
            format!("{resource}{frag}")
        } else {
            match self.anchors.get(&(u.to_string(), frag.to_string())) {
                Some(p) => p.clone(),
                None => {
                    return Err(format!(
                        "the reference `{reference}` names an anchor `{frag}` the schema does not declare"
                    ))
                }
            }
        };
        if !target.starts_with(META) && doc.pointer(&target).is_none() {
            return Err(format!(
                "the reference `{reference}` points to no place in the schema"
            ));
        }
        Ok(target)
    }
}

/// The dynamic anchors bound by the resources entered so far (outermost
/// first wins), sorted by name.
type Context = Vec<(String, String)>;

struct Compiler<'g, 'a> {
    graph: &'g mut Graph<'a>,
    doc_no: u32,
    doc: &'a Value,
    index: Index,
    dynamic: bool,
    contexts: Vec<Context>,
    context_ids: HashMap<Context, u32>,
    made: HashMap<(String, u32), NodeId>,
    queue: VecDeque<(NodeId, String, u32)>,
    made_here: usize,
}

/// Compiles `doc` into `graph` (see the module doc); returns its root.
pub fn compile_document<'a>(graph: &mut Graph<'a>, doc: &'a Value, default: Draft) -> NodeId {
    let mut index = Index::default();
    let root_scope = Scope {
        base: DOCUMENT_BASE.to_string(),
        resource: String::new(),
        draft: default,
    };
    index
        .resources
        .insert(DOCUMENT_BASE.to_string(), String::new());
    index.walk(doc, String::new(), &root_scope, 0);
    let dynamic = !index.dynamic.is_empty();
    let mut c = Compiler {
        doc_no: graph.roots.len() as u32,
        graph,
        doc,
        index,
        dynamic,
        contexts: vec![vec![]],
        context_ids: HashMap::from([(vec![], 0)]),
        made: HashMap::new(),
        queue: VecDeque::new(),
        made_here: 0,
    };
    let root = c.node_at(String::new(), 0);
    while let Some((id, ptr, ctx)) = c.queue.pop_front() {
        let body = c.build(&ptr, ctx);
        c.graph.nodes[id.index()].body = body;
    }
    root
}

impl<'a> Compiler<'_, 'a> {
    /// The node of place `ptr` in context `ctx` (entering the place's
    /// resource binds its dynamic anchors), made on first use.
    fn node_at(&mut self, ptr: String, ctx: u32) -> NodeId {
        let scope = self.index.scope_of(&ptr);
        let ctx = self.enter(ctx, &scope.resource);
        if let Some(id) = self.made.get(&(ptr.clone(), ctx)) {
            return *id;
        }
        let id = NodeId(self.graph.nodes.len() as u32);
        let over = self.made_here >= MAX_NODES;
        self.made_here += 1;
        self.graph.nodes.push(Node {
            doc: self.doc_no,
            pointer: ptr.clone(),
            draft: scope.draft,
            body: Body::Unresolved(if over {
                format!("the schema compiles to more than {MAX_NODES} nodes")
            } else {
                String::new()
            }),
        });
        self.made.insert((ptr.clone(), ctx), id);
        if !over {
            self.queue.push_back((id, ptr, ctx));
        }
        id
    }

    fn enter(&mut self, ctx: u32, resource: &str) -> u32 {
        if !self.dynamic {
            return 0;
        }
        let Some(anchors) = self.index.dynamic.get(resource) else {
            return ctx;
        };
        let mut next = self.contexts[ctx as usize].clone();
        let mut grew = false;
        for (name, ptr) in anchors {
            if !next.iter().any(|(n, _)| n == name) {
                next.push((name.clone(), ptr.clone()));
                grew = true;
            }
        }
        if !grew {
            return ctx;
        }
        next.sort();
        if let Some(id) = self.context_ids.get(&next) {
            return *id;
        }
        let id = self.contexts.len() as u32;
        self.contexts.push(next.clone());
        self.context_ids.insert(next, id);
        id
    }

    fn child(&mut self, ptr: &str, token: &str, ctx: u32) -> NodeId {
        self.node_at(push_token(ptr, token), ctx)
    }

    fn child2(&mut self, ptr: &str, a: &str, b: &str, ctx: u32) -> NodeId {
        self.node_at(push_token(&push_token(ptr, a), b), ctx)
    }

    fn build(&mut self, ptr: &str, ctx: u32) -> Body<'a> {
        let doc = self.doc;
        if let Some(d) = ptr.strip_prefix(META) {
            let draft = [Draft::D4, Draft::D6, Draft::D7, Draft::D2019, Draft::D2020]
                .into_iter()
                .find(|x| (*x as u8).to_string() == d)
                .unwrap_or(Draft::D2020);
            return Body::Meta(draft);
        }
        let Some(v) = doc.pointer(ptr) else {
            return Body::Unresolved(format!("no schema at `{ptr}`"));
        };
        let m = match v {
            Value::Bool(b) => return Body::Bool(*b),
            Value::Object(m) => m,
            other => {
                return Body::Unresolved(format!("`{ptr}` holds {other}, which is not a schema"))
            }
        };
        let scope = self.index.scope_of(ptr);
        let d = scope.draft;
        let mut k = Keywords {
            raw: Some(m),
            ..Keywords::default()
        };
        // the base references resolve against: the node's own `$id` is in its scope
        let base = scope.base.clone();
        if let Some(r) = m.get("$ref") {
            match r.as_str() {
                Some(r) => match self.index.resolve(doc, &base, r) {
                    Ok(target) => k.reference = Some(self.node_at(target, ctx)),
                    Err(why) => k.reference = Some(self.unresolved(why)),
                },
                None => k.malformed.push("$ref".into()),
            }
            if d.ref_overrides_siblings() {
                return Body::Schema(Box::new(k));
            }
        }
        for (kw, v) in m {
            if !knows(d, kw) {
                continue;
            }
            self.keyword(&mut k, m, kw, v, ptr, ctx, &scope);
        }
        Body::Schema(Box::new(k))
    }

    fn unresolved(&mut self, why: String) -> NodeId {
        let id = NodeId(self.graph.nodes.len() as u32);
        self.graph.nodes.push(Node {
            doc: self.doc_no,
            pointer: String::new(),
            draft: Draft::D2020,
            body: Body::Unresolved(why),
        });
        id
    }

    #[allow(clippy::too_many_arguments)]
    fn keyword(
        &mut self,
        k: &mut Keywords<'a>,
        m: &'a Map<String, Value>,
        kw: &str,
        v: &'a Value,
        ptr: &str,
        ctx: u32,
        scope: &Scope,
    ) {
        let d = scope.draft;
        let count = |v: &Value| -> Option<u64> {
            let n = Dec::from_value(v)?;
            if n.is_negative() || !n.is_integer() {
                return None;
            }
            Some(
                n.scaled(0)
                    .and_then(|i| u64::try_from(i).ok())
                    .unwrap_or(u64::MAX),
            )
        };
        let mut bad = false;
        match kw {
            "type" => {
                let names: Vec<&str> = match v {
                    Value::String(s) => vec![s.as_str()],
                    Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
                    _ => {
                        k.malformed.push(kw.into());
                        return;
                    }
                };
                let mut t = TypeSet::NONE;
                for n in names {
                    let one = match n {
                        "integer" if d == Draft::D4 => TypeSet::WHOLE_WRITTEN,
                        "any" => TypeSet::ALL,
                        other => TypeSet::from_name(other),
                    };
                    if one.is_empty() {
                        bad = true;
                    }
                    t = t.union(one);
                }
                k.types = Some(t);
            }
            "enum" => match v {
                Value::Array(a) => k.enumeration = Some(a.as_slice()),
                _ => bad = true,
            },
            "const" => k.constant = Some(v),
            "minimum" | "maximum" => {
                let Some(n) = Dec::from_value(v) else {
                    k.malformed.push(kw.into());
                    return;
                };
                let excl_kw = if kw == "minimum" {
                    "exclusiveMinimum"
                } else {
                    "exclusiveMaximum"
                };
                let exclusive = m.get(excl_kw) == Some(&Value::Bool(true));
                match (kw, exclusive) {
                    ("minimum", false) => k.minimum = Some(n),
                    ("minimum", true) => k.exclusive_minimum = max_of(k.exclusive_minimum, n),
                    (_, false) => k.maximum = Some(n),
                    (_, true) => k.exclusive_maximum = min_of(k.exclusive_maximum, n),
                }
            }
            "exclusiveMinimum" | "exclusiveMaximum" => match v {
                Value::Bool(_) => {} // draft-04's modifier, read with its bound
                _ => match Dec::from_value(v) {
                    Some(n) if kw == "exclusiveMinimum" => {
                        k.exclusive_minimum = max_of(k.exclusive_minimum, n)
                    }
                    Some(n) => k.exclusive_maximum = min_of(k.exclusive_maximum, n),
                    None => bad = true,
                },
            },
            "multipleOf" => match Dec::from_value(v) {
                Some(n) if !n.is_negative() && !n.is_zero() => k.multiple_of = Some(n),
                _ => bad = true,
            },
            "minLength" => k.min_length = count(v).or_else(|| mark(&mut bad)),
            "maxLength" => k.max_length = count(v).or_else(|| mark(&mut bad)),
            "minItems" => k.min_items = count(v).or_else(|| mark(&mut bad)),
            "maxItems" => k.max_items = count(v).or_else(|| mark(&mut bad)),
            "minProperties" => k.min_properties = count(v).or_else(|| mark(&mut bad)),
            "maxProperties" => k.max_properties = count(v).or_else(|| mark(&mut bad)),
            "minContains" => k.min_contains = count(v).or_else(|| mark(&mut bad)),
            "maxContains" => k.max_contains = count(v).or_else(|| mark(&mut bad)),
            "uniqueItems" => match v {
                Value::Bool(b) => k.unique_items = *b,
                _ => bad = true,
            },
            "pattern" => match v {
                Value::String(s) => k.pattern = Some(self.graph.intern_pattern(s)),
                _ => bad = true,
            },
            "format" => match v {
                Value::String(s) => match super::format::width(s) {
                    Some(w) => k.width = Some(w),
                    None if super::format::asserted(s) => k.format = Some(s),
                    None => {}
                },
                _ => bad = true,
            },
            "contentEncoding" | "contentMediaType" if d == Draft::D7 => {
                let (mut enc, mut media) = k.content.unwrap_or((None, None));
                match v.as_str() {
                    Some(x) if kw == "contentEncoding" => enc = Some(x),
                    Some(x) => media = Some(x),
                    None => bad = true,
                }
                k.content = Some((enc, media));
            }
            "items" => match v {
                Value::Array(list) => {
                    k.prefix_items = (0..list.len())
                        .map(|i| self.child2(ptr, "items", &i.to_string(), ctx))
                        .collect();
                    if d < Draft::D2020 || !m.contains_key("prefixItems") {
                        if let Some(a) = m.get("additionalItems") {
                            if a.is_object() || a.is_boolean() {
                                k.items = Some(self.child(ptr, "additionalItems", ctx));
                            }
                        }
                    }
                }
                Value::Object(_) | Value::Bool(_) => {
                    k.items = Some(self.child(ptr, "items", ctx));
                }
                _ => bad = true,
            },
            "prefixItems" => match v {
                Value::Array(list) => {
                    k.prefix_items = (0..list.len())
                        .map(|i| self.child2(ptr, "prefixItems", &i.to_string(), ctx))
                        .collect();
                }
                _ => bad = true,
            },
            "contains" => k.contains = Some(self.child(ptr, kw, ctx)),
            "unevaluatedItems" => k.unevaluated_items = Some(self.child(ptr, kw, ctx)),
            "unevaluatedProperties" => k.unevaluated_properties = Some(self.child(ptr, kw, ctx)),
            "additionalProperties" => k.additional_properties = Some(self.child(ptr, kw, ctx)),
            "propertyNames" => k.property_names = Some(self.child(ptr, kw, ctx)),
            "not" => k.not = Some(self.child(ptr, kw, ctx)),
            "if" => k.if_ = Some(self.child(ptr, kw, ctx)),
            "then" => k.then_ = Some(self.child(ptr, kw, ctx)),
            "else" => k.else_ = Some(self.child(ptr, kw, ctx)),
            "properties" => match v {
                Value::Object(props) => {
                    for name in props.keys() {
                        let id = self.child2(ptr, kw, name, ctx);
                        k.properties.push((name.as_str(), id));
                    }
                }
                _ => bad = true,
            },
            "patternProperties" => match v {
                Value::Object(props) => {
                    for name in props.keys() {
                        let id = self.child2(ptr, kw, name, ctx);
                        let p = self.graph.intern_pattern(name);
                        k.pattern_properties.push((p, id));
                    }
                }
                _ => bad = true,
            },
            "required" => match v {
                Value::Array(a) if a.iter().all(Value::is_string) => {
                    k.required = a.iter().filter_map(Value::as_str).collect();
                }
                // draft-03's boolean `required` is not this keyword
                Value::Bool(_) => {}
                _ => bad = true,
            },
            "dependentRequired" => match v {
                Value::Object(deps) => {
                    for (name, names) in deps {
                        match names.as_array() {
                            Some(a) => k.dependent_required.push((
                                name.as_str(),
                                a.iter().filter_map(Value::as_str).collect(),
                            )),
                            None => bad = true,
                        }
                    }
                }
                _ => bad = true,
            },
            "dependentSchemas" => match v {
                Value::Object(deps) => {
                    for name in deps.keys() {
                        let id = self.child2(ptr, kw, name, ctx);
                        k.dependent_schemas.push((name.as_str(), id));
                    }
                }
                _ => bad = true,
            },
            "dependencies" => match v {
                Value::Object(deps) => {
                    for (name, dep) in deps {
                        match dep {
                            Value::Array(a) => k.dependent_required.push((
                                name.as_str(),
                                a.iter().filter_map(Value::as_str).collect(),
                            )),
                            Value::Object(_) | Value::Bool(_) => {
                                let id = self.child2(ptr, kw, name, ctx);
                                k.dependent_schemas.push((name.as_str(), id));
                            }
                            _ => bad = true,
                        }
                    }
                }
                _ => bad = true,
            },
            "allOf" | "anyOf" | "oneOf" => match v {
                Value::Array(list) if !list.is_empty() => {
                    let ids: Vec<NodeId> = (0..list.len())
                        .map(|i| self.child2(ptr, kw, &i.to_string(), ctx))
                        .collect();
                    match kw {
                        "allOf" => k.all_of = ids,
                        "anyOf" => k.any_of = ids,
                        _ => k.one_of = ids,
                    }
                }
                _ => bad = true,
            },
            "$dynamicRef" => match v.as_str() {
                Some(r) => k.dynamic_reference = Some(self.dynamic_ref(r, ptr, ctx, scope)),
                None => bad = true,
            },
            "$recursiveRef" => match v.as_str() {
                Some(r) => k.dynamic_reference = Some(self.recursive_ref(r, ctx, scope)),
                None => bad = true,
            },
            _ => {}
        }
        if bad {
            k.malformed.push(kw.to_string());
        }
    }

    fn dynamic_ref(&mut self, r: &str, _ptr: &str, ctx: u32, scope: &Scope) -> NodeId {
        let target = match self.index.resolve(self.doc, &scope.base, r) {
            Ok(t) => t,
            Err(why) => return self.unresolved(why),
        };
        let abs = uri::resolve(&scope.base, r);
        let (u, frag) = uri::split_fragment(&abs);
        let dynamic_anchor = !frag.is_empty()
            && !frag.starts_with('/')
            && self
                .index
                .dynamic_names
                .contains(&(u.to_string(), frag.to_string()));
        if dynamic_anchor {
            let bound = self.contexts[ctx as usize]
                .iter()
                .find(|(n, _)| n == frag)
                .map(|(_, p)| p.clone());
            if let Some(p) = bound {
                return self.node_at(p, ctx);
            }
        }
        self.node_at(target, ctx)
    }

    fn recursive_ref(&mut self, r: &str, ctx: u32, scope: &Scope) -> NodeId {
        if r != "#" {
            return self.unresolved(format!(
                "`$recursiveRef` is `{r}`: 2019-09 defines it only as `#`"
            ));
        }
        let target = match self.index.resolve(self.doc, &scope.base, r) {
            Ok(t) => t,
            Err(why) => return self.unresolved(why),
        };
        let anchored = self
            .doc
            .pointer(&target)
            .and_then(|t| t.get("$recursiveAnchor"))
            == Some(&Value::Bool(true));
        if anchored {
            let bound = self.contexts[ctx as usize]
                .iter()
                .find(|(n, _)| n == RECURSIVE)
                .map(|(_, p)| p.clone());
            if let Some(p) = bound {
                return self.node_at(p, ctx);
            }
        }
        self.node_at(target, ctx)
    }
}

fn mark(bad: &mut bool) -> Option<u64> {
    *bad = true;
    None
}

fn max_of(a: Option<Dec>, b: Dec) -> Option<Dec> {
    Some(a.map_or(b, |a| a.max(b)))
}

fn min_of(a: Option<Dec>, b: Dec) -> Option<Dec> {
    Some(a.map_or(b, |a| a.min(b)))
}
