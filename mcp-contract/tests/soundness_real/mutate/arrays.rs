//! Mutations of array keywords: `items`, sizes, `uniqueItems`,
//! `prefixItems` (and closing a tuple with `items: false`), `contains` with
//! `minContains`/`maxContains`, and `unevaluatedItems`.

use serde_json::{json, Value};

use super::super::rng::Rng;
use super::{is_array_node, node, relax_count, small_schema, tighten_count, Effect, Kind};

pub fn kinds() -> Vec<Kind> {
    use Effect::*;
    vec![
        Kind {
            name: "items.change",
            effect: Mixed,
            apply: items_change,
        },
        Kind {
            name: "itemCount.tighten",
            effect: Narrow,
            apply: count_tighten,
        },
        Kind {
            name: "itemCount.relax",
            effect: Widen,
            apply: count_relax,
        },
        Kind {
            name: "uniqueItems.add",
            effect: Narrow,
            apply: unique_add,
        },
        Kind {
            name: "uniqueItems.remove",
            effect: Widen,
            apply: unique_remove,
        },
        // `items` stops applying to the positions a prefix takes: either way
        Kind {
            name: "prefixItems.add",
            effect: Mixed,
            apply: prefix_add,
        },
        Kind {
            name: "prefixItems.remove",
            effect: Mixed,
            apply: prefix_remove,
        },
        Kind {
            name: "prefixItems.change",
            effect: Mixed,
            apply: prefix_change,
        },
        Kind {
            name: "items.close-tuple",
            effect: Narrow,
            apply: close_tuple,
        },
        Kind {
            name: "contains.add",
            effect: Narrow,
            apply: contains_add,
        },
        Kind {
            name: "contains.remove",
            effect: Widen,
            apply: contains_remove,
        },
        Kind {
            name: "minContains.change",
            effect: Mixed,
            apply: min_contains,
        },
        Kind {
            name: "maxContains.add",
            effect: Narrow,
            apply: max_contains,
        },
        Kind {
            name: "unevaluatedItems.false",
            effect: Narrow,
            apply: ui_false,
        },
    ]
}

fn items_change(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if !is_array_node(m) {
        return false;
    }
    let s = small_schema(rng);
    m.insert("items".into(), s.clone()) != Some(s)
}

fn count_tighten(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if !is_array_node(m) {
        return false;
    }
    tighten_count(m, ("minItems", "maxItems"), 2, rng);
    true
}

fn count_relax(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    node(doc, ptr).is_some_and(|m| relax_count(m, ("minItems", "maxItems"), rng))
}

fn unique_add(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    is_array_node(m) && m.insert("uniqueItems".into(), json!(true)) != Some(json!(true))
}

fn unique_remove(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    node(doc, ptr).is_some_and(|m| m.remove("uniqueItems") == Some(json!(true)))
}

fn prefix_add(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if !is_array_node(m) || m.contains_key("prefixItems") {
        return false;
    }
    let n = 1 + rng.below(2);
    let items: Vec<Value> = (0..n).map(|_| small_schema(rng)).collect();
    m.insert("prefixItems".into(), json!(items));
    true
}

fn prefix_remove(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    // a closed tuple without its prefix would accept only []
    m.get("items") != Some(&json!(false)) && m.remove("prefixItems").is_some()
}

fn prefix_change(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(Value::Array(p)) = node(doc, ptr).and_then(|m| m.get_mut("prefixItems")) else {
        return false;
    };
    if p.is_empty() {
        return false;
    }
    let i = rng.below(p.len());
    p[i] = small_schema(rng);
    true
}

fn close_tuple(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    m.contains_key("prefixItems") && m.insert("items".into(), json!(false)) != Some(json!(false))
}

fn contains_add(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if !is_array_node(m) || m.contains_key("contains") {
        return false;
    }
    let s = [
        json!({"type": "string"}),
        json!({"const": 1}),
        json!({"type": "integer", "minimum": 5}),
    ][rng.below(3)]
    .clone();
    m.insert("contains".into(), s);
    true
}

fn contains_remove(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if m.remove("contains").is_none() {
        return false;
    }
    m.remove("minContains");
    m.remove("maxContains");
    true
}

fn min_contains(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if !m.contains_key("contains") {
        return false;
    }
    match rng.below(3) {
        0 => m.remove("minContains").is_some(),
        1 => m.insert("minContains".into(), json!(0)) != Some(json!(0)),
        _ => m.insert("minContains".into(), json!(2)) != Some(json!(2)),
    }
}

fn max_contains(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    m.contains_key("contains") && m.insert("maxContains".into(), json!(1)) != Some(json!(1))
}

fn ui_false(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    is_array_node(m) && m.insert("unevaluatedItems".into(), json!(false)) != Some(json!(false))
}
