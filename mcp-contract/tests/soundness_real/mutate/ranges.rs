//! Mutations of a node's ranges: numeric bounds (tightened, relaxed,
//! added, removed, made exclusive, moved past 2^53 by one), `multipleOf`,
//! string lengths and `pattern`s.

use serde_json::{json, Value};

use super::super::rng::Rng;
use super::{
    as_int, is_numeric_node, is_string_node, node, relax_count, tighten_count, Effect, Kind,
};

pub fn kinds() -> Vec<Kind> {
    use Effect::*;
    vec![
        Kind {
            name: "bound.tighten",
            effect: Narrow,
            apply: bound_tighten,
        },
        Kind {
            name: "bound.relax",
            effect: Widen,
            apply: bound_relax,
        },
        Kind {
            name: "bound.add",
            effect: Narrow,
            apply: bound_add,
        },
        Kind {
            name: "bound.remove",
            effect: Widen,
            apply: bound_remove,
        },
        Kind {
            name: "bound.exclusive",
            effect: Narrow,
            apply: bound_exclusive,
        },
        Kind {
            name: "bound.beyond-f64",
            effect: Narrow,
            apply: bound_beyond_f64,
        },
        Kind {
            name: "multipleOf.add",
            effect: Narrow,
            apply: multiple_add,
        },
        Kind {
            name: "multipleOf.remove",
            effect: Widen,
            apply: multiple_remove,
        },
        Kind {
            name: "length.tighten",
            effect: Narrow,
            apply: length_tighten,
        },
        Kind {
            name: "length.relax",
            effect: Widen,
            apply: length_relax,
        },
        Kind {
            name: "pattern.add",
            effect: Narrow,
            apply: pattern_add,
        },
        Kind {
            name: "pattern.remove",
            effect: Widen,
            apply: pattern_remove,
        },
        Kind {
            name: "pattern.widen",
            effect: Widen,
            apply: pattern_widen,
        },
        Kind {
            name: "pattern.change",
            effect: Mixed,
            apply: pattern_change,
        },
    ]
}

pub const PATTERNS: [&str; 9] = [
    "^[a-z]+$",
    "^[a-z0-9]+$",
    "^[a-c]+$",
    "^a",
    "b$",
    "^[0-9]{2,4}$",
    "^\\d+$",
    "^(foo|bar)$",
    "x",
];

const BOUNDS: [&str; 4] = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"];

fn shift_bound(m: &mut serde_json::Map<String, Value>, rng: &mut Rng, tighten: bool) -> bool {
    let present: Vec<&str> = BOUNDS
        .iter()
        .copied()
        .filter(|k| m.get(*k).is_some_and(Value::is_number))
        .collect();
    if present.is_empty() {
        return false;
    }
    let k = *rng.pick(&present);
    let lower = k.contains("inimum");
    let up = lower == tighten; // tightening a lower bound raises it
    let step = [1i128, 1, 2, 10][rng.below(4)];
    let v = &m[k];
    let new = if let Some(i) = as_int(v) {
        super::super::widths::int_value(if up {
            i.saturating_add(step)
        } else {
            i.saturating_sub(step)
        })
    } else {
        let f = v.as_f64().unwrap();
        json!(if up { f + 0.5 } else { f - 0.5 })
    };
    m.insert(k.into(), new);
    true
}

fn bound_tighten(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    node(doc, ptr).is_some_and(|m| shift_bound(m, rng, true))
}

fn bound_relax(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    node(doc, ptr).is_some_and(|m| shift_bound(m, rng, false))
}

fn bound_add(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if !is_numeric_node(m) {
        return false;
    }
    let k = *rng.pick(&BOUNDS);
    if m.contains_key(k) {
        return false;
    }
    let v = [
        json!(0),
        json!(1),
        json!(-1),
        json!(10),
        json!(255),
        json!(2.5),
    ][rng.below(6)]
    .clone();
    m.insert(k.into(), v);
    true
}

fn bound_remove(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    let present: Vec<&str> = BOUNDS
        .iter()
        .copied()
        .filter(|k| m.contains_key(*k))
        .collect();
    !present.is_empty() && m.remove(*rng.pick(&present)).is_some()
}

fn bound_exclusive(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    let (from, to) = *rng.pick(&[
        ("minimum", "exclusiveMinimum"),
        ("maximum", "exclusiveMaximum"),
    ]);
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

/// A bound one past 2^53 lowered by one: equal as `f64`, different as numbers.
fn bound_beyond_f64(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if let Some(i) = m.get("maximum").and_then(as_int) {
        if i > 9_007_199_254_740_992 {
            m.insert("maximum".into(), super::super::widths::int_value(i - 1));
            return true;
        }
    }
    false
}

fn multiple_add(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if !is_numeric_node(m) || m.contains_key("multipleOf") {
        return false;
    }
    m.insert(
        "multipleOf".into(),
        [json!(2), json!(3), json!(0.5)][rng.below(3)].clone(),
    );
    true
}

fn multiple_remove(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    node(doc, ptr).is_some_and(|m| m.remove("multipleOf").is_some())
}

fn length_tighten(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if !is_string_node(m) {
        return false;
    }
    tighten_count(m, ("minLength", "maxLength"), 3, rng);
    true
}

fn length_relax(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    node(doc, ptr).is_some_and(|m| relax_count(m, ("minLength", "maxLength"), rng))
}

fn pattern_add(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if !is_string_node(m) || m.contains_key("pattern") {
        return false;
    }
    m.insert("pattern".into(), json!(rng.pick(&PATTERNS)));
    true
}

fn pattern_remove(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    node(doc, ptr).is_some_and(|m| m.remove("pattern").is_some())
}

fn pattern_widen(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    let Some(p) = m.get("pattern").and_then(Value::as_str).map(String::from) else {
        return false;
    };
    let wider = match p.as_str() {
        "^[a-z]+$" => "^[a-z0-9]+$".to_string(),
        "^[a-c]+$" => "^[a-z]+$".to_string(),
        "^[0-9]{2,4}$" => "^\\d+$".to_string(),
        _ => format!("(?:{p})|^{}$", ["zz", "q"][rng.below(2)]),
    };
    m.insert("pattern".into(), json!(wider));
    true
}

fn pattern_change(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if !m.contains_key("pattern") {
        return false;
    }
    m.insert("pattern".into(), json!(rng.pick(&PATTERNS)));
    true
}
