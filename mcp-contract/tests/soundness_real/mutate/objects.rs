//! Mutations of object keywords: `required`, `properties`,
//! `additionalProperties` (false / a schema / absent), `patternProperties`,
//! `propertyNames`, `dependentRequired`, `dependentSchemas`,
//! `min/maxProperties` and `unevaluatedProperties`.

use serde_json::{json, Value};

use super::super::rng::Rng;
use super::{declared, is_object_node, node, required, small_schema, tighten_count, Effect, Kind};

pub const KEY_PATTERNS: [&str; 3] = ["^x-", "^[A-Z]", "_id$"];

pub fn kinds() -> Vec<Kind> {
    use Effect::*;
    vec![
        Kind {
            name: "required.add",
            effect: Narrow,
            apply: required_add,
        },
        Kind {
            name: "required.remove",
            effect: Widen,
            apply: required_remove,
        },
        Kind {
            name: "property.add",
            effect: Mixed,
            apply: property_add,
        },
        Kind {
            name: "property.remove",
            effect: Mixed,
            apply: property_remove,
        },
        Kind {
            name: "property.rename",
            effect: Mixed,
            apply: property_rename,
        },
        Kind {
            name: "required-only.constrain",
            effect: Narrow,
            apply: required_only_constrain,
        },
        Kind {
            name: "additionalProperties.false",
            effect: Narrow,
            apply: ap_false,
        },
        Kind {
            name: "additionalProperties.remove",
            effect: Widen,
            apply: ap_remove,
        },
        Kind {
            name: "additionalProperties.schema",
            effect: Mixed,
            apply: ap_schema,
        },
        Kind {
            name: "patternProperties.add",
            effect: Mixed,
            apply: pp_add,
        },
        Kind {
            name: "patternProperties.remove",
            effect: Mixed,
            apply: pp_remove,
        },
        Kind {
            name: "patternProperties.change",
            effect: Mixed,
            apply: pp_change,
        },
        Kind {
            name: "propertyNames.add",
            effect: Narrow,
            apply: pn_add,
        },
        Kind {
            name: "propertyNames.remove",
            effect: Widen,
            apply: pn_remove,
        },
        Kind {
            name: "dependentRequired.add",
            effect: Narrow,
            apply: dr_add,
        },
        Kind {
            name: "dependentRequired.remove",
            effect: Widen,
            apply: dr_remove,
        },
        Kind {
            name: "dependentSchemas.add",
            effect: Narrow,
            apply: ds_add,
        },
        Kind {
            name: "dependentSchemas.remove",
            effect: Widen,
            apply: ds_remove,
        },
        Kind {
            name: "propertyCount.tighten",
            effect: Narrow,
            apply: count_tighten,
        },
        Kind {
            name: "unevaluatedProperties.false",
            effect: Narrow,
            apply: up_false,
        },
        Kind {
            name: "unevaluatedProperties.remove",
            effect: Widen,
            apply: up_remove,
        },
    ]
}

fn required_add(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if !is_object_node(m) {
        return false;
    }
    let req = required(m);
    let mut candidates: Vec<String> = declared(m)
        .into_iter()
        .filter(|n| !req.contains(n))
        .collect();
    if candidates.is_empty() {
        candidates.push("region".into());
    }
    let name = rng.pick(&candidates).clone();
    let mut req = req;
    req.push(name);
    m.insert("required".into(), json!(req));
    true
}

fn required_remove(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    let mut req = required(m);
    if req.is_empty() {
        return false;
    }
    req.remove(rng.below(req.len()));
    if req.is_empty() {
        m.remove("required");
    } else {
        m.insert("required".into(), json!(req));
    }
    true
}

fn property_add(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if !is_object_node(m) {
        return false;
    }
    let props = m.entry("properties").or_insert_with(|| json!({}));
    let Some(p) = props.as_object_mut() else {
        return false;
    };
    let name = ["region", "extra", "x-trace", "Kind"][rng.below(4)];
    if p.contains_key(name) {
        return false;
    }
    p.insert(name.into(), small_schema(rng));
    true
}

fn property_remove(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    let names = declared(m);
    if names.is_empty() {
        return false;
    }
    let name = rng.pick(&names).clone();
    m["properties"].as_object_mut().unwrap().remove(&name);
    let req: Vec<String> = required(m).into_iter().filter(|n| *n != name).collect();
    if m.contains_key("required") {
        m.insert("required".into(), json!(req));
    }
    true
}

fn property_rename(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    let names = declared(m);
    if names.is_empty() {
        return false;
    }
    let name = rng.pick(&names).clone();
    let to = format!("{name}_v2");
    let props = m["properties"].as_object_mut().unwrap();
    let s = props.remove(&name).unwrap();
    props.insert(to.clone(), s);
    let req: Vec<String> = required(m)
        .into_iter()
        .map(|n| if n == name { to.clone() } else { n })
        .collect();
    if m.contains_key("required") {
        m.insert("required".into(), json!(req));
    }
    true
}

/// A name declared only by `required` (here or in this node's
/// alternatives) given a constraining schema in `properties`. Only where
/// nothing else judges undeclared names (no `additionalProperties` but
/// `true`, no `patternProperties`): there the name took any value before.
fn required_only_constrain(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if !is_object_node(m)
        || m.contains_key("patternProperties")
        || m.contains_key("unevaluatedProperties")
        || m.get("additionalProperties")
            .is_some_and(|a| a != &json!(true))
    {
        return false;
    }
    let mut names = required(m);
    for kw in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(bs)) = m.get(kw) {
            for b in bs.iter().filter_map(Value::as_object) {
                names.extend(required(b));
            }
        }
    }
    let have = declared(m);
    names.retain(|n| !have.contains(n));
    names.sort();
    names.dedup();
    if names.is_empty() {
        return false;
    }
    let name = rng.pick(&names).clone();
    let s = [
        json!({"type": "string", "maxLength": 3}),
        json!({"type": "integer", "minimum": 0}),
        json!({"type": "string", "enum": ["a", "b"]}),
        json!({"type": "boolean"}),
    ][rng.below(4)]
    .clone();
    let props = m.entry("properties").or_insert_with(|| json!({}));
    let Some(p) = props.as_object_mut() else {
        return false;
    };
    p.insert(name, s);
    true
}

fn ap_false(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if !is_object_node(m) {
        return false;
    }
    m.insert("additionalProperties".into(), json!(false)) != Some(json!(false))
}

fn ap_remove(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    node(doc, ptr).is_some_and(|m| m.remove("additionalProperties").is_some())
}

fn ap_schema(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if !is_object_node(m) && !m.contains_key("additionalProperties") {
        return false;
    }
    m.insert("additionalProperties".into(), small_schema(rng));
    true
}

fn pp_add(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if !is_object_node(m) {
        return false;
    }
    let pp = m.entry("patternProperties").or_insert_with(|| json!({}));
    let Some(pp) = pp.as_object_mut() else {
        return false;
    };
    let pat = *rng.pick(&KEY_PATTERNS);
    if pp.contains_key(pat) {
        return false;
    }
    pp.insert(pat.into(), small_schema(rng));
    true
}

fn pp_remove(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    remove_entry(doc, ptr, "patternProperties", true, rng)
}

fn pp_change(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    let Some(Value::Object(pp)) = m.get_mut("patternProperties") else {
        return false;
    };
    let keys: Vec<String> = pp.keys().cloned().collect();
    if keys.is_empty() {
        return false;
    }
    let k = rng.pick(&keys).clone();
    pp.insert(k, small_schema(rng));
    true
}

fn pn_add(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if !is_object_node(m) || m.contains_key("propertyNames") {
        return false;
    }
    let s = [
        json!({"maxLength": 4}),
        json!({"pattern": "^[a-z_]+$"}),
        json!({"enum": declared(m)}),
    ][rng.below(3)]
    .clone();
    m.insert("propertyNames".into(), s);
    true
}

fn pn_remove(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    node(doc, ptr).is_some_and(|m| m.remove("propertyNames").is_some())
}

fn dr_add(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    let names = declared(m);
    if names.len() < 2 {
        return false;
    }
    let a = rng.pick(&names).clone();
    let b = rng.pick(&names).clone();
    if a == b {
        return false;
    }
    let dr = m.entry("dependentRequired").or_insert_with(|| json!({}));
    let Some(dr) = dr.as_object_mut() else {
        return false;
    };
    let list = dr.entry(a).or_insert_with(|| json!([]));
    let Some(list) = list.as_array_mut() else {
        return false;
    };
    if list.contains(&json!(b)) {
        return false;
    }
    list.push(json!(b));
    true
}

fn dr_remove(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    remove_entry(doc, ptr, "dependentRequired", false, rng)
}

fn ds_add(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    let names = declared(m);
    if names.is_empty() {
        return false;
    }
    let a = rng.pick(&names).clone();
    let b = rng.pick(&names).clone();
    let s = if rng.chance(50) && a != b {
        json!({"required": [b]})
    } else {
        json!({"properties": {b: small_schema(rng)}})
    };
    let ds = m.entry("dependentSchemas").or_insert_with(|| json!({}));
    let Some(ds) = ds.as_object_mut() else {
        return false;
    };
    if ds.contains_key(&a) {
        return false;
    }
    ds.insert(a, s);
    true
}

fn ds_remove(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    remove_entry(doc, ptr, "dependentSchemas", false, rng)
}

fn count_tighten(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if !is_object_node(m) {
        return false;
    }
    let n = declared(m).len() as u64;
    tighten_count(
        m,
        ("minProperties", "maxProperties"),
        n.saturating_sub(1),
        rng,
    );
    true
}

fn up_false(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if !is_object_node(m) && !m.contains_key("allOf") && !m.contains_key("$ref") {
        return false;
    }
    m.insert("unevaluatedProperties".into(), json!(false)) != Some(json!(false))
}

fn up_remove(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    node(doc, ptr).is_some_and(|m| m.remove("unevaluatedProperties").is_some())
}

/// Removes one entry (chosen by `rng`) of the map under `kw`, and the
/// keyword itself when `drop_empty` and nothing is left.
fn remove_entry(doc: &mut Value, ptr: &str, kw: &str, drop_empty: bool, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    let Some(Value::Object(map)) = m.get_mut(kw) else {
        return false;
    };
    let keys: Vec<String> = map.keys().cloned().collect();
    if keys.is_empty() {
        return false;
    }
    map.remove(rng.pick(&keys));
    if drop_empty && map.is_empty() {
        m.remove(kw);
    }
    true
}
