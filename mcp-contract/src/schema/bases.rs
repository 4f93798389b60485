//! References written against a base URI, made pointers into the document.
//!
//! A subschema with its own `$id` is an embedded resource: a `$ref` inside
//! it resolves against that `$id`, not against the document root. So
//! `"#/$defs/inner"` under `"$id": "http://example.com/defs2.json"` points
//! into that subschema, and `"defs2.json#/$defs/inner"` or the absolute URI
//! reach it from anywhere. The rest of the engine follows only
//! document-local references, so this step, run once when a document is
//! read ([`super::dialect::normalize`]), rewrites every such reference to
//! the pointer of its target (`#/properties/x/$defs/inner`). A reference to
//! a URI no resource of the document has stays as written (remote).

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::dialect::{ONE_SCHEMA, SCHEMA_LISTS};
use super::NAMED_SCHEMA_KEYWORDS;

/// Deepest nesting walked.
const MAX_DEPTH: usize = 256;

/// Rewrites base-relative references of `doc`; true when any changed.
pub fn resolve_bases(doc: &mut Value) -> bool {
    // (most documents name no resource at all: nothing resolves otherwise)
    if !names_a_resource(doc, 0) {
        return false;
    }
    let root_base = doc
        .get("$id")
        .and_then(Value::as_str)
        .map(|s| strip_fragment(s).to_string())
        .unwrap_or_default();
    let mut ids = Resources::default();
    collect(doc, &root_base, "", &mut ids, 0);
    let mut changed = false;
    rewrite(doc, &root_base, "", &ids, &mut changed, 0);
    changed
}

/// Does any schema object of `v` carry an `$id`? (A cheap look, without
/// building pointers.)
fn names_a_resource(v: &Value, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return true;
    }
    match v {
        Value::Object(m) => {
            m.contains_key("$id")
                || m.iter().any(|(k, x)| {
                    !super::DATA_KEYWORDS.contains(&k.as_str())
                        && (x.is_object() || x.is_array())
                        && names_a_resource(x, depth + 1)
                })
        }
        Value::Array(a) => a.iter().any(|x| names_a_resource(x, depth + 1)),
        _ => false,
    }
}

fn strip_fragment(uri: &str) -> &str {
    uri.split_once('#').map_or(uri, |(u, _)| u)
}

/// `reference` read against `base` (RFC 3986 in the forms schemas use:
/// absolute, host-relative, path-relative, fragment-only).
fn join(base: &str, reference: &str) -> String {
    if reference.contains("://") || reference.starts_with("urn:") || base.is_empty() {
        return reference.to_string();
    }
    if reference.starts_with('#') {
        return format!("{base}{reference}");
    }
    if let Some(rest) = reference.strip_prefix('/') {
        let host_end = base
            .find("://")
            .and_then(|i| base[i + 3..].find('/').map(|j| i + 3 + j))
            .unwrap_or(base.len());
        return format!("{}/{rest}", &base[..host_end]);
    }
    match base.rfind('/') {
        Some(i) if base[..i].contains("://") || !base.contains("://") => {
            format!("{}{reference}", &base[..=i])
        }
        _ => format!("{base}/{reference}"),
    }
}

fn collect(v: &Value, base: &str, ptr: &str, ids: &mut Resources, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    let Value::Object(m) = v else { return };
    let mut base = base.to_string();
    if let Some(id) = m.get("$id").and_then(Value::as_str) {
        let id = strip_fragment(id);
        if !id.is_empty() {
            base = join(&base, id);
            ids.at
                .entry(base.clone())
                .or_insert_with(|| ptr.to_string());
        }
    }
    if let Some(a) = m.get("$dynamicAnchor").and_then(Value::as_str) {
        *ids.dynamic.entry(a.to_string()).or_default() += 1;
    }
    for (at, x) in subschemas(m, ptr) {
        collect(x, &base, &at, ids, depth + 1);
    }
}

/// What [`collect`] finds: every resource's absolute URI (without
/// fragment) and its pointer, and how many `$dynamicAnchor`s bear each name.
#[derive(Default)]
struct Resources {
    at: HashMap<String, String>,
    dynamic: HashMap<String, usize>,
}

/// The schemas directly inside a schema object, with their pointers: only
/// where JSON Schema puts schemas (an `$id` inside an unknown keyword
/// names no resource).
fn subschemas<'v>(m: &'v Map<String, Value>, ptr: &str) -> Vec<(String, &'v Value)> {
    let mut out = vec![];
    for (k, x) in m {
        let at = format!("{ptr}/{}", escape(k));
        if ONE_SCHEMA.contains(&k.as_str()) {
            out.push((at, x));
        } else if SCHEMA_LISTS.contains(&k.as_str()) {
            if let Value::Array(a) = x {
                out.extend(a.iter().enumerate().map(|(i, s)| (format!("{at}/{i}"), s)));
            }
        } else if NAMED_SCHEMA_KEYWORDS.contains(&k.as_str()) {
            if let Value::Object(named) = x {
                out.extend(
                    named
                        .iter()
                        .map(|(n, s)| (format!("{at}/{}", escape(n)), s)),
                );
            }
        }
    }
    out
}

/// `resource` is the pointer of the innermost resource around `v`.
fn rewrite(
    v: &mut Value,
    base: &str,
    resource: &str,
    ids: &Resources,
    changed: &mut bool,
    depth: usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    let Value::Object(m) = v else { return };
    let (mut base, mut resource) = (base.to_string(), resource.to_string());
    if let Some(id) = m.get("$id").and_then(Value::as_str) {
        let id = strip_fragment(id);
        if !id.is_empty() {
            base = join(&base, id);
            if let Some(p) = ids.at.get(&base) {
                resource = p.clone();
            }
        }
    }
    if let Some(Value::String(r)) = m.get_mut("$ref") {
        if let Some(local) = local_pointer(r, &base, &resource, ids) {
            if local != *r {
                *r = local;
                *changed = true;
            }
        }
    }
    // where resources nest, a dynamic reference resolves by the
    // dynamic scope, which this engine does not follow: several
    // anchors of its name leave it unresolved (compared as opaque)
    if let Some(Value::String(r)) = m.get_mut("$dynamicRef") {
        let name = r.rsplit_once('#').map_or("", |(_, n)| n).to_string();
        let nested = ids.at.values().any(|p| !p.is_empty());
        if nested && ids.dynamic.get(&name).is_some_and(|n| *n > 1) {
            *r = format!("urn:mcp-contract:dynamic-scope#{name}");
            *changed = true;
        }
    }
    let children: Vec<String> = subschemas(m, "").into_iter().map(|(p, _)| p).collect();
    for p in children {
        if let Some(x) = child_mut(m, &p) {
            rewrite(x, &base, &resource, ids, changed, depth + 1);
        }
    }
}

/// The subschema at the relative pointer `p` (one or two steps) of `m`.
fn child_mut<'v>(m: &'v mut Map<String, Value>, p: &str) -> Option<&'v mut Value> {
    let mut steps = p.trim_start_matches('/').splitn(2, '/');
    let unescape = |s: &str| s.replace("~1", "/").replace("~0", "~");
    let first = m.get_mut(&unescape(steps.next()?))?;
    match steps.next() {
        None => Some(first),
        Some(rest) => match first {
            Value::Array(a) => a.get_mut(rest.parse::<usize>().ok()?),
            Value::Object(o) => o.get_mut(&unescape(rest)),
            _ => None,
        },
    }
}

/// The document-local form of reference `r` made inside the resource at
/// `resource` (whose absolute URI is `base`), where one exists.
fn local_pointer(r: &str, base: &str, resource: &str, ids: &Resources) -> Option<String> {
    if let Some(fragment) = r.strip_prefix('#') {
        // inside an embedded resource, a pointer starts at that resource
        return (fragment.starts_with('/') && !resource.is_empty())
            .then(|| format!("#{resource}{fragment}"));
    }
    let absolute = join(base, r);
    let (uri, fragment) = absolute
        .split_once('#')
        .map_or((absolute.as_str(), ""), |(u, f)| (u, f));
    let at = ids.at.get(uri)?;
    if fragment.is_empty() || fragment.starts_with('/') {
        Some(format!("#{at}{fragment}"))
    } else {
        // a plain-name anchor: anchors are found anywhere in the document
        Some(format!("#{fragment}"))
    }
}

fn escape(k: &str) -> String {
    k.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn references_inside_an_embedded_resource_start_there() {
        let mut doc = json!({"type": "object", "properties": {"x": {
            "$id": "http://example.com/defs2.json",
            "$defs": {"inner": {"type": "integer"}},
            "$ref": "#/$defs/inner"}}});
        assert!(resolve_bases(&mut doc));
        assert_eq!(
            doc["properties"]["x"]["$ref"],
            json!("#/properties/x/$defs/inner")
        );
        assert!(crate::schema::refs::resolve(&doc, "#/properties/x/$defs/inner").is_some());
    }

    #[test]
    fn relative_and_absolute_uris_reach_their_resource() {
        let mut doc = json!({"$id": "http://example.com/root.json",
            "properties": {
                "a": {"$ref": "item.json"},
                "b": {"$ref": "http://example.com/item.json#/properties/n"},
                "c": {"$ref": "http://other.example/remote.json"}},
            "$defs": {"item": {"$id": "item.json", "properties": {"n": {"type": "string"}}}}});
        assert!(resolve_bases(&mut doc));
        assert_eq!(doc["properties"]["a"]["$ref"], json!("#/$defs/item"));
        assert_eq!(
            doc["properties"]["b"]["$ref"],
            json!("#/$defs/item/properties/n")
        );
        assert_eq!(
            doc["properties"]["c"]["$ref"],
            json!("http://other.example/remote.json")
        );
        // a document with no embedded resource is left alone
        let mut plain = json!({"properties": {"a": {"$ref": "#/$defs/x"}}, "$defs": {"x": {}}});
        assert!(!resolve_bases(&mut plain));
    }
}
