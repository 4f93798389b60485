//! Mutations of literal value sets (`enum`, `const`) and of what only
//! annotates a node (`description`, `title`, `examples`, `deprecated`) or
//! gives it a `default`.

use serde_json::{json, Value};

use super::super::rng::Rng;
use super::{is_numeric_node, is_string_node, node, Effect, Kind};

pub fn kinds() -> Vec<Kind> {
    use Effect::*;
    vec![
        Kind {
            name: "enum.remove-value",
            effect: Narrow,
            apply: enum_remove_value,
        },
        Kind {
            name: "enum.add-value",
            effect: Widen,
            apply: enum_add_value,
        },
        Kind {
            name: "enum.reorder",
            effect: Same,
            apply: enum_reorder,
        },
        Kind {
            name: "enum.add",
            effect: Narrow,
            apply: enum_add,
        },
        Kind {
            name: "enum.remove",
            effect: Widen,
            apply: enum_remove,
        },
        Kind {
            name: "const.change",
            effect: Mixed,
            apply: const_change,
        },
        Kind {
            name: "const.to-enum",
            effect: Same,
            apply: const_to_enum,
        },
        Kind {
            name: "const.remove",
            effect: Widen,
            apply: const_remove,
        },
        Kind {
            name: "annotation.description",
            effect: Annotation,
            apply: ann_description,
        },
        Kind {
            name: "annotation.title",
            effect: Annotation,
            apply: ann_title,
        },
        Kind {
            name: "annotation.examples",
            effect: Annotation,
            apply: ann_examples,
        },
        Kind {
            name: "annotation.deprecated",
            effect: Annotation,
            apply: ann_deprecated,
        },
        Kind {
            name: "default.change",
            effect: Mixed,
            apply: default_change,
        },
    ]
}

fn fresh_like(v: Option<&Value>, rng: &mut Rng) -> Value {
    match v {
        Some(Value::Number(_)) => json!(1000 + rng.below(50) as i64),
        Some(Value::Bool(b)) => json!(!b),
        Some(Value::Null) => json!("none"),
        _ => json!(["zz_new", "Other", "b", ""][rng.below(4)]),
    }
}

fn enum_remove_value(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(Value::Array(vals)) = node(doc, ptr).and_then(|m| m.get_mut("enum")) else {
        return false;
    };
    if vals.len() < 2 {
        return false;
    }
    vals.remove(rng.below(vals.len()));
    true
}

fn enum_add_value(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(Value::Array(vals)) = node(doc, ptr).and_then(|m| m.get_mut("enum")) else {
        return false;
    };
    let v = fresh_like(vals.first(), rng);
    if vals.contains(&v) {
        return false;
    }
    vals.push(v);
    true
}

fn enum_reorder(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    let Some(Value::Array(vals)) = node(doc, ptr).and_then(|m| m.get_mut("enum")) else {
        return false;
    };
    vals.reverse();
    true
}

fn enum_add(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if m.contains_key("enum") || m.contains_key("const") {
        return false;
    }
    let vals = if is_string_node(m) {
        json!(["a", "foo", "abc"][..1 + rng.below(3)])
    } else if is_numeric_node(m) {
        json!([0, 1, 255][..1 + rng.below(3)])
    } else {
        return false;
    };
    m.insert("enum".into(), vals);
    true
}

fn enum_remove(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    node(doc, ptr).is_some_and(|m| m.remove("enum").is_some())
}

fn const_change(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    let Some(c) = m.get("const").cloned() else {
        return false;
    };
    m.insert("const".into(), fresh_like(Some(&c), rng));
    true
}

fn const_to_enum(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if m.contains_key("enum") {
        return false;
    }
    match m.remove("const") {
        Some(c) => {
            m.insert("enum".into(), json!([c]));
            true
        }
        None => false,
    }
}

fn const_remove(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    node(doc, ptr).is_some_and(|m| m.remove("const").is_some())
}

fn ann_description(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if m.contains_key("description") && rng.chance(30) {
        m.remove("description");
    } else {
        m.insert(
            "description".into(),
            json!(format!("edited {}", rng.below(100))),
        );
    }
    true
}

fn ann_title(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    m.insert("title".into(), json!(format!("Title {}", rng.below(100))));
    true
}

fn ann_examples(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    m.insert("examples".into(), json!([rng.below(5), "x"]));
    true
}

fn ann_deprecated(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    let now = !m
        .get("deprecated")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    m.insert("deprecated".into(), json!(now));
    true
}

fn default_change(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    let d = m.get("default").cloned();
    m.insert("default".into(), fresh_like(d.as_ref(), rng));
    true
}
