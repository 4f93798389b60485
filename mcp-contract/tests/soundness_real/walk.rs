//! Where a schema can be mutated: every sub-schema of a document by JSON
//! pointer, whether a change there moves the document's accepted set the
//! same way (a "monotone" place: not under `not`, `if` or `oneOf`, and only
//! reached that way through `$ref`s), and local reference resolution.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

/// Keywords holding one sub-schema.
pub const SINGLE: [&str; 11] = [
    "items",
    "additionalProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "propertyNames",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "additionalItems",
];
/// Keywords holding a map of sub-schemas (`dependencies` values that are
/// name lists, not schemas, are no sites: only objects are).
pub const MAPS: [&str; 6] = [
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
    "dependencies",
];
/// Keywords holding an array of sub-schemas.
pub const LISTS: [&str; 4] = ["prefixItems", "anyOf", "oneOf", "allOf"];

/// One place a mutation can happen.
#[derive(Clone, Debug)]
pub struct Site {
    pub ptr: String,
    /// Widening the schema here widens the document (and narrowing narrows).
    pub monotone: bool,
}

pub fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

fn unescape(seg: &str) -> String {
    seg.replace("~1", "/").replace("~0", "~")
}

/// Every sub-schema of `doc` that is an object (boolean schemas are not
/// mutation sites), with its place's monotonicity.
pub fn sites(doc: &Value) -> Vec<Site> {
    let mut raw = vec![];
    collect(doc, String::new(), true, &mut raw, 0);
    let defs = def_monotonicity(doc, &raw);
    raw.into_iter()
        .filter(|(_, _, is_obj)| *is_obj)
        .map(|(ptr, own, _)| {
            let via_def = def_of(&ptr).is_none_or(|d| defs.get(&d).copied().unwrap_or(true));
            Site {
                monotone: own && via_def,
                ptr,
            }
        })
        .collect()
}

/// `(pointer, monotone along its own path, is an object)` for every sub-schema.
fn collect(v: &Value, ptr: String, mono: bool, out: &mut Vec<(String, bool, bool)>, depth: usize) {
    if depth > 64 {
        return;
    }
    out.push((ptr.clone(), mono, v.is_object()));
    let Value::Object(m) = v else { return };
    for (k, child) in m {
        let k_mono = mono && !matches!(k.as_str(), "not" | "if" | "oneOf");
        let here = format!("{ptr}/{}", escape(k));
        if SINGLE.contains(&k.as_str()) {
            collect(child, here, k_mono, out, depth + 1);
        } else if MAPS.contains(&k.as_str()) {
            if let Value::Object(entries) = child {
                let defs = matches!(k.as_str(), "$defs" | "definitions");
                for (name, s) in entries {
                    // a definition's place is decided by the references to it
                    let m = if defs { true } else { k_mono };
                    collect(s, format!("{here}/{}", escape(name)), m, out, depth + 1);
                }
            }
        } else if LISTS.contains(&k.as_str()) || (k == "items" && child.is_array()) {
            if let Value::Array(items) = child {
                for (i, s) in items.iter().enumerate() {
                    collect(s, format!("{here}/{i}"), k_mono, out, depth + 1);
                }
            }
        }
    }
}

/// The definition (`/$defs/X` or `/definitions/X`) a pointer lies in.
fn def_of(ptr: &str) -> Option<String> {
    let mut segs = ptr.split('/').skip(1);
    let first = segs.next()?;
    if first == "$defs" || first == "definitions" {
        Some(format!("/{first}/{}", segs.next()?))
    } else {
        None
    }
}

/// A definition is monotone when every reference to it sits at a monotone
/// place (references inside definitions count through their definition).
fn def_monotonicity(doc: &Value, raw: &[(String, bool, bool)]) -> BTreeMap<String, bool> {
    let mut refs: Vec<(String, bool, Option<String>)> = vec![];
    for (ptr, mono, _) in raw {
        let node = if ptr.is_empty() {
            Some(doc)
        } else {
            doc.pointer(ptr)
        };
        if let Some(r) = node.and_then(|n| n.get("$ref")).and_then(Value::as_str) {
            if let Some(target) = r.strip_prefix('#') {
                refs.push((target.to_string(), *mono, def_of(ptr)));
            }
        }
    }
    let mut out: BTreeMap<String, bool> = BTreeMap::new();
    let names: BTreeSet<String> = raw.iter().filter_map(|(p, _, _)| def_of(p)).collect();
    for _ in 0..8 {
        for d in &names {
            let ok = refs
                .iter()
                .filter(|(t, _, _)| t == d || t.starts_with(&format!("{d}/")))
                .all(|(_, mono, from)| {
                    *mono
                        && from
                            .as_ref()
                            .is_none_or(|f| out.get(f).copied().unwrap_or(true))
                });
            out.insert(d.clone(), ok);
        }
    }
    out
}

/// The node at a pointer (`""` is the root).
pub fn at<'v>(doc: &'v Value, ptr: &str) -> Option<&'v Value> {
    if ptr.is_empty() {
        Some(doc)
    } else {
        doc.pointer(ptr)
    }
}

pub fn at_mut<'v>(doc: &'v mut Value, ptr: &str) -> Option<&'v mut Value> {
    if ptr.is_empty() {
        Some(doc)
    } else {
        doc.pointer_mut(ptr)
    }
}

/// Resolves a local `$ref` (`#`, `#/$defs/X`, any JSON pointer, or a
/// plain-name fragment `#name`: a 2019-09+ `$anchor`, or the `#name` of a
/// draft-06/07 `$id` or a draft-04 `id`).
pub fn resolve<'v>(doc: &'v Value, reference: &str) -> Option<&'v Value> {
    let frag = reference.strip_prefix('#')?;
    let frag = percent_decode(frag);
    if !frag.is_empty() && !frag.starts_with('/') {
        return anchor(doc, &frag, 0);
    }
    at(doc, &frag)
}

/// The schema that names itself `name` (`$anchor: name`, or `$id`/`id`
/// `#name`), searched through every object but literal values.
fn anchor<'v>(v: &'v Value, name: &str, depth: usize) -> Option<&'v Value> {
    if depth > 64 {
        return None;
    }
    match v {
        Value::Object(m) => {
            let named = m.get("$anchor").and_then(Value::as_str) == Some(name)
                || ["$id", "id"].iter().any(|k| {
                    m.get(*k)
                        .and_then(Value::as_str)
                        .and_then(|i| i.strip_prefix('#'))
                        == Some(name)
                });
            if named {
                return Some(v);
            }
            m.iter()
                .filter(|(k, _)| !matches!(k.as_str(), "enum" | "const" | "examples" | "default"))
                .find_map(|(_, c)| anchor(c, name, depth + 1))
        }
        Value::Array(a) => a.iter().find_map(|c| anchor(c, name, depth + 1)),
        _ => None,
    }
}

fn percent_decode(s: &str) -> String {
    if !s.contains('%') {
        return s.to_string();
    }
    let bytes = s.as_bytes();
    let mut out = vec![];
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let Ok(b) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The last segment of a pointer, unescaped (a property's name).
pub fn last_segment(ptr: &str) -> Option<String> {
    ptr.rsplit('/').next().map(unescape)
}

/// Every `$ref` string in a document, with the pointer of its node.
pub fn refs(doc: &Value) -> Vec<(String, String)> {
    let mut out = vec![];
    refs_in(doc, String::new(), &mut out, 0);
    out
}

fn refs_in(v: &Value, ptr: String, out: &mut Vec<(String, String)>, depth: usize) {
    if depth > 64 {
        return;
    }
    match v {
        Value::Object(m) => {
            for (k, c) in m {
                if k == "$ref" {
                    if let Some(s) = c.as_str() {
                        out.push((ptr.clone(), s.to_string()));
                    }
                } else if !matches!(k.as_str(), "enum" | "const" | "examples" | "default") {
                    refs_in(c, format!("{ptr}/{}", escape(k)), out, depth + 1);
                }
            }
        }
        Value::Array(a) => {
            for (i, c) in a.iter().enumerate() {
                refs_in(c, format!("{ptr}/{i}"), out, depth + 1);
            }
        }
        _ => {}
    }
}
