//! Mutations of a schema's structure: alternatives (`anyOf`/`oneOf`/
//! `allOf` branches, `anyOf`<->`oneOf`), `not`, `if`/`then`/`else`, and
//! references (`$defs` renamed or extracted or inlined with the same shape,
//! keywords beside a `$ref`, a `$ref` pointed elsewhere).

use serde_json::{json, Map, Value};

use super::super::rng::Rng;
use super::super::walk::{escape, refs, resolve};
use super::{declared, node, small_schema, Effect, Kind};

pub fn kinds() -> Vec<Kind> {
    use Effect::*;
    vec![
        Kind {
            name: "anyOf.branch-remove",
            effect: Narrow,
            apply: |d, p, r| branch_remove(d, p, r, "anyOf"),
        },
        Kind {
            name: "oneOf.branch-remove",
            effect: Mixed,
            apply: |d, p, r| branch_remove(d, p, r, "oneOf"),
        },
        Kind {
            name: "allOf.branch-remove",
            effect: Widen,
            apply: |d, p, r| branch_remove(d, p, r, "allOf"),
        },
        Kind {
            name: "anyOf.branch-add",
            effect: Widen,
            apply: |d, p, r| branch_add(d, p, r, "anyOf"),
        },
        Kind {
            name: "oneOf.branch-add",
            effect: Mixed,
            apply: |d, p, r| branch_add(d, p, r, "oneOf"),
        },
        Kind {
            name: "allOf.branch-add",
            effect: Narrow,
            apply: |d, p, r| branch_add(d, p, r, "allOf"),
        },
        Kind {
            name: "anyOf.to-oneOf",
            effect: Narrow,
            apply: |d, p, _| rename_kw(d, p, "anyOf", "oneOf"),
        },
        Kind {
            name: "oneOf.to-anyOf",
            effect: Widen,
            apply: |d, p, _| rename_kw(d, p, "oneOf", "anyOf"),
        },
        Kind {
            name: "branch.reorder",
            effect: Same,
            apply: branch_reorder,
        },
        Kind {
            name: "alternative.wrap",
            effect: Widen,
            apply: alt_wrap,
        },
        Kind {
            name: "not.add",
            effect: Narrow,
            apply: not_add,
        },
        Kind {
            name: "not.remove",
            effect: Widen,
            apply: not_remove,
        },
        Kind {
            name: "if.add",
            effect: Narrow,
            apply: if_add,
        },
        Kind {
            name: "if.remove",
            effect: Widen,
            apply: if_remove,
        },
        Kind {
            name: "if.change",
            effect: Mixed,
            apply: |d, p, r| cond_change(d, p, r, "if"),
        },
        Kind {
            name: "then.change",
            effect: Mixed,
            apply: |d, p, r| cond_change(d, p, r, "then"),
        },
        Kind {
            name: "else.change",
            effect: Mixed,
            apply: |d, p, r| cond_change(d, p, r, "else"),
        },
        Kind {
            name: "ref.sibling",
            effect: Narrow,
            apply: ref_sibling,
        },
        Kind {
            name: "ref.sibling-annotation",
            effect: Annotation,
            apply: ref_sibling_annotation,
        },
        Kind {
            name: "ref.retarget",
            effect: Mixed,
            apply: ref_retarget,
        },
        Kind {
            name: "defs.rename",
            effect: Same,
            apply: defs_rename,
        },
        Kind {
            name: "defs.extract",
            effect: Same,
            apply: defs_extract,
        },
        Kind {
            name: "ref.inline",
            effect: Same,
            apply: ref_inline,
        },
    ]
}

fn branch_remove(doc: &mut Value, ptr: &str, rng: &mut Rng, kw: &str) -> bool {
    let Some(Value::Array(bs)) = node(doc, ptr).and_then(|m| m.get_mut(kw)) else {
        return false;
    };
    if bs.len() < 2 {
        return false;
    }
    bs.remove(rng.below(bs.len()));
    true
}

fn branch_add(doc: &mut Value, ptr: &str, rng: &mut Rng, kw: &str) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    let extra = if kw == "allOf" {
        [
            json!({"required": ["region"]}),
            json!({"not": {"type": "null"}}),
            json!({"maxProperties": 3}),
            json!({"minLength": 1}),
        ][rng.below(4)]
        .clone()
    } else {
        small_schema(rng)
    };
    match m.get_mut(kw) {
        Some(Value::Array(bs)) => {
            if bs.contains(&extra) {
                return false;
            }
            bs.push(extra);
            true
        }
        _ => false,
    }
}

fn rename_kw(doc: &mut Value, ptr: &str, from: &str, to: &str) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if m.contains_key(to) {
        return false;
    }
    match m.remove(from) {
        Some(v) => {
            m.insert(to.into(), v);
            true
        }
        None => false,
    }
}

fn branch_reorder(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    let kw = *rng.pick(&["anyOf", "oneOf", "allOf"]);
    match m.get_mut(kw) {
        Some(Value::Array(bs)) if bs.len() > 1 && bs.first() != bs.last() => {
            bs.reverse();
            true
        }
        _ => false,
    }
}

fn alt_wrap(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if m.is_empty() {
        return false;
    }
    let inner = Value::Object(std::mem::take(m));
    m.insert("anyOf".into(), json!([inner, small_schema(rng)]));
    true
}

fn not_add(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if m.contains_key("not") {
        return false;
    }
    let s = [
        json!({"type": "null"}),
        json!({"const": 0}),
        json!({"required": ["region"]}),
        json!({"enum": ["a", ""]}),
    ][rng.below(4)]
    .clone();
    m.insert("not".into(), s);
    true
}

fn not_remove(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    node(doc, ptr).is_some_and(|m| m.remove("not").is_some())
}

fn if_add(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    let names = declared(m);
    if names.is_empty() || m.contains_key("if") {
        return false;
    }
    let a = rng.pick(&names).clone();
    let b = rng.pick(&names).clone();
    m.insert(
        "if".into(),
        json!({"properties": {a.clone(): {"type": "string"}}, "required": [a]}),
    );
    m.insert("then".into(), json!({"required": [b]}));
    if rng.chance(50) {
        m.insert(
            "else".into(),
            json!({"properties": {b: {"type": "integer"}}}),
        );
    }
    true
}

fn if_remove(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    let had = m.remove("if").is_some();
    m.remove("then");
    m.remove("else");
    had
}

fn cond_change(doc: &mut Value, ptr: &str, rng: &mut Rng, kw: &str) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if !m.contains_key("if") {
        return false;
    }
    let names = declared(m);
    let name = if names.is_empty() {
        "region".to_string()
    } else {
        rng.pick(&names).clone()
    };
    let s = match rng.below(3) {
        0 => json!({"required": [name]}),
        1 => json!({"properties": {name: small_schema(rng)}}),
        _ => json!({"not": {"required": [name]}}),
    };
    m.insert(kw.into(), s.clone()) != Some(s)
}

fn ref_sibling(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if !m.contains_key("$ref") {
        return false;
    }
    let (k, v) = [
        ("required", json!(["region"])),
        ("minProperties", json!(1)),
        ("type", json!("object")),
        ("not", json!({"type": "null"})),
        ("maxLength", json!(2)),
        ("minimum", json!(1)),
    ][rng.below(6)]
    .clone();
    if m.contains_key(k) {
        return false;
    }
    m.insert(k.into(), v);
    true
}

fn ref_sibling_annotation(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if !m.contains_key("$ref") {
        return false;
    }
    m.insert(
        "description".into(),
        json!(format!("beside the ref {}", rng.below(9))),
    );
    true
}

fn def_names(doc: &Value) -> Vec<(String, String)> {
    let mut out = vec![];
    for kw in ["$defs", "definitions"] {
        if let Some(Value::Object(d)) = doc.get(kw) {
            for k in d.keys() {
                out.push((kw.to_string(), k.clone()));
            }
        }
    }
    out
}

fn ref_retarget(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let defs = def_names(doc);
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    let Some(old) = m.get("$ref").and_then(Value::as_str).map(String::from) else {
        return false;
    };
    if defs.is_empty() {
        return false;
    }
    let (kw, name) = rng.pick(&defs);
    let to = format!("#/{kw}/{}", escape(name));
    // a reference to a definition enclosing it (Action = oneOf[..., $ref
    // Action]) recurses without consuming the instance: validators loop
    // on it (the engine too, see the `memory` miss), so it makes no pair
    if to == old || ptr.starts_with(&format!("/{kw}/{}/", escape(name))) {
        return false;
    }
    m.insert("$ref".into(), json!(to));
    true
}

/// Renames the definition at `ptr` (`/$defs/X`) and every reference to it.
fn defs_rename(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    let segs: Vec<&str> = ptr.split('/').collect();
    if segs.len() != 3 || !(segs[1] == "$defs" || segs[1] == "definitions") {
        return false;
    }
    let (kw, name) = (segs[1], segs[2]);
    let to = format!("{name}Renamed");
    let Some(Value::Object(defs)) = doc.get_mut(kw) else {
        return false;
    };
    if defs.contains_key(&to) {
        return false;
    }
    let Some(body) = defs.remove(name) else {
        return false;
    };
    defs.insert(to.clone(), body);
    let from_ref = format!("#/{kw}/{name}");
    let to_ref = format!("#/{kw}/{to}");
    for (at, r) in refs(doc) {
        if r == from_ref || r.starts_with(&format!("{from_ref}/")) {
            let nr = format!("{to_ref}{}", &r[from_ref.len()..]);
            if let Some(Value::Object(m)) = super::super::walk::at_mut(doc, &at) {
                m.insert("$ref".into(), json!(nr));
            }
        }
    }
    true
}

/// Moves the node at `ptr` into `$defs` behind a `$ref`.
fn defs_extract(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    if ptr.is_empty() || ptr.starts_with("/$defs") || ptr.starts_with("/definitions") {
        return false;
    }
    // a reference into this node by path would no longer resolve
    if refs(doc)
        .iter()
        .any(|(_, r)| r.strip_prefix('#').is_some_and(|t| t.starts_with(ptr)))
    {
        return false;
    }
    if !doc.is_object() {
        return false;
    }
    // where a document keeps its types under draft-07's `definitions`
    let kw = if doc.get("definitions").is_some() && doc.get("$defs").is_none() {
        "definitions"
    } else {
        "$defs"
    };
    let n = doc.get(kw).and_then(Value::as_object).map_or(0, Map::len);
    let name = format!("Extracted{n}");
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if m.is_empty() {
        return false;
    }
    let body = Value::Object(std::mem::take(m));
    m.insert("$ref".into(), json!(format!("#/{kw}/{name}")));
    let defs = doc
        .as_object_mut()
        .unwrap()
        .entry(kw)
        .or_insert_with(|| json!({}));
    match defs.as_object_mut() {
        Some(d) if !d.contains_key(&name) => {
            d.insert(name, body);
            true
        }
        _ => false,
    }
}

/// Replaces a local `$ref` with `allOf: [a copy of its target]`.
fn ref_inline(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    let Some(r) = super::super::walk::at(doc, ptr)
        .and_then(|n| n.get("$ref"))
        .and_then(Value::as_str)
        .map(String::from)
    else {
        return false;
    };
    if r == "#" || !r.starts_with("#/") {
        return false;
    }
    let Some(target) = resolve(doc, &r).cloned() else {
        return false;
    };
    // an embedded resource or anchor would resolve differently inline
    if target.get("$id").is_some()
        || target.get("$anchor").is_some()
        || target.get("$dynamicAnchor").is_some()
        || target.get("id").is_some_and(Value::is_string)
    {
        return false;
    }
    // draft-07 and before ignore what sits beside a `$ref`: inlined, it
    // would start to apply, so it goes (annotations and the containers
    // references point into stay)
    let legacy = super::dialects::draft_of(doc).starts_with("draft-");
    let into_node = refs(doc)
        .iter()
        .any(|(_, r)| r.starts_with(&format!("#{ptr}/")));
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    m.remove("$ref");
    if m.contains_key("allOf") {
        return false;
    }
    if legacy {
        let kept = |k: &str| {
            matches!(
                k,
                "$schema"
                    | "definitions"
                    | "$defs"
                    | "title"
                    | "description"
                    | "default"
                    | "examples"
                    | "deprecated"
                    | "$comment"
            )
        };
        if m.keys().any(|k| !kept(k)) {
            if into_node {
                return false;
            }
            m.retain(|k, _| kept(k));
        }
    }
    m.insert("allOf".into(), json!([target]));
    true
}
