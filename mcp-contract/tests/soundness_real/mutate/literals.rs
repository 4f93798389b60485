//! Mutations of literal value sets (`enum`, `const`) and of what only
//! annotates a node (`description`, `title`, `examples`, `deprecated`) or
//! gives it a `default`.

use serde_json::{json, Value};

use super::super::oracle::ecma_matches;
use super::super::rng::Rng;
use super::{is_numeric_node, is_string_node, node, types_of, Effect, Kind};

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
            name: "enum.relax-to-pattern",
            effect: Widen,
            apply: enum_relax,
        },
        Kind {
            name: "enum.from-pattern",
            effect: Narrow,
            apply: enum_from_pattern,
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

/// A class that holds every character of `values`, from the ranges
/// `[a-z]`, `[A-Z]`, `[0-9]` and `_` (`None` when one falls outside).
fn class_for(values: &[&str]) -> Option<String> {
    let chars: Vec<char> = values.iter().flat_map(|v| v.chars()).collect();
    let mut class = String::new();
    for (test, part) in [
        (char::is_ascii_lowercase as fn(&char) -> bool, "a-z"),
        (char::is_ascii_uppercase, "A-Z"),
        (char::is_ascii_digit, "0-9"),
        (|c: &char| *c == '_', "_"),
    ] {
        if chars.iter().any(test) {
            class.push_str(part);
        }
    }
    let fits = chars.iter().all(|c| c.is_ascii_alphanumeric() || *c == '_');
    (fits && !class.is_empty()).then_some(class)
}

/// An `enum` of strings relaxed to the bounded or patterned string that
/// holds every one of them (a `type: string` node: the values were its
/// only strings).
fn enum_relax(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    let Some(Value::Array(vals)) = m.get("enum") else {
        return false;
    };
    let strs: Vec<&str> = vals.iter().filter_map(Value::as_str).collect();
    if strs.is_empty() || strs.len() != vals.len() || m.contains_key("const") {
        return false;
    }
    let longest = strs.iter().map(|s| s.chars().count()).max().unwrap_or(0);
    let shortest = strs.iter().map(|s| s.chars().count()).min().unwrap_or(0);
    let pattern = class_for(&strs).map(|c| {
        let rep = if shortest == 0 { "*" } else { "+" };
        format!("^[{c}]{rep}$")
    });
    let mut edits: Vec<Vec<(&str, Value)>> = vec![vec![
        ("maxLength", json!(longest + rng.below(3))),
        ("minLength", json!(shortest)),
    ]];
    edits.push(vec![("maxLength", json!(longest))]);
    if let Some(p) = pattern {
        edits.push(vec![("pattern", json!(p.clone()))]);
        edits.push(vec![("pattern", json!(p)), ("maxLength", json!(longest))]);
    }
    let edit = rng.pick(&edits).clone();
    m.remove("enum");
    for (k, v) in edit {
        m.insert(k.into(), v);
    }
    if types_of(m).is_empty() {
        m.insert("type".into(), json!("string"));
    }
    true
}

/// Strings a bounded or patterned string may be narrowed to.
const CANDIDATES: [&str; 14] = [
    "a", "ab", "abc", "foo", "bar", "asc", "desc", "x-trace", "12", "1234", "USD", "A", "zz", "",
];

/// A bounded or patterned string narrowed to an `enum` of strings it
/// admitted (`pattern`, `minLength`, `maxLength` give way to the list).
fn enum_from_pattern(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    // (a `format` the listed strings may not meet: the comparator asserts
    // formats, the oracle does not, so the list would not be a narrowing
    // to both)
    if !is_string_node(m)
        || m.contains_key("enum")
        || m.contains_key("const")
        || m.contains_key("format")
    {
        return false;
    }
    let keys = ["pattern", "minLength", "maxLength"];
    if !keys.iter().any(|k| m.contains_key(*k)) {
        return false;
    }
    let pattern = m.get("pattern").and_then(Value::as_str);
    let min = m.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
    let max = m
        .get("maxLength")
        .and_then(Value::as_u64)
        .map_or(usize::MAX, |v| v as usize);
    let fits: Vec<&str> = CANDIDATES
        .iter()
        .copied()
        .filter(|s| (min..=max).contains(&s.chars().count()))
        .filter(|s| pattern.is_none_or(|p| ecma_matches(p, s)))
        .collect();
    if fits.is_empty() {
        return false;
    }
    let n = 1 + rng.below(fits.len().min(3));
    let start = rng.below(fits.len());
    let chosen: Vec<&str> = (0..n).map(|i| fits[(start + i) % fits.len()]).collect();
    for k in keys {
        m.remove(k);
    }
    m.insert("enum".into(), json!(chosen));
    true
}
