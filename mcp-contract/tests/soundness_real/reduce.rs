//! Shrinks a miss to a small repro: drops annotations, properties and
//! definitions both sides share, and parts of the instance, for as long as
//! the pair still is a miss (a counterexample and no breaking verdict).
//! Bounded: a fixed number of engine calls per miss.

use mcp_contract::diff::Direction;
use serde_json::Value;

use super::oracle::validator;
use super::pair::is_counterexample;
use super::verdict::{Judge, Verdict};
use super::walk::{at, at_mut, last_segment, refs};

const MAX_TRIES: usize = 400;

fn still_a_miss(judge: &mut Judge, old: &Value, new: &Value, inst: &Value, dir: Direction) -> bool {
    let (Some(vo), Some(vn)) = (validator(old), validator(new)) else {
        return false;
    };
    is_counterexample(&vo, &vn, old, inst, dir)
        && matches!(judge.verdict(old, new, dir), Verdict::Diffed(b) if b.is_empty())
}

fn strip_annotations(v: &mut Value) {
    match v {
        Value::Object(m) => {
            for k in ["description", "title", "examples", "default", "deprecated"] {
                if m.get(k).is_some_and(|x| !x.is_object()) {
                    m.remove(k);
                }
            }
            for (k, c) in m.iter_mut() {
                if !matches!(k.as_str(), "enum" | "const") {
                    strip_annotations(c);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(strip_annotations),
        _ => {}
    }
}

/// Pointers of every keyword and every map entry below the root (the
/// reducer only removes those equal on both sides).
fn removable(doc: &Value, ptr: String, out: &mut Vec<String>, depth: usize) {
    if depth > 40 {
        return;
    }
    match doc {
        Value::Object(m) => {
            for (k, c) in m {
                let here = format!("{ptr}/{}", super::walk::escape(k));
                if k != "$schema" {
                    out.push(here.clone());
                }
                if !matches!(k.as_str(), "enum" | "const" | "required") {
                    removable(c, here, out, depth + 1);
                }
            }
        }
        Value::Array(a) => {
            for (i, c) in a.iter().enumerate() {
                removable(c, format!("{ptr}/{i}"), out, depth + 1);
            }
        }
        _ => {}
    }
}

fn remove_at(doc: &mut Value, ptr: &str) -> bool {
    let Some((parent, _)) = ptr.rsplit_once('/') else {
        return false;
    };
    let Some(name) = last_segment(ptr) else {
        return false;
    };
    let Some(Value::Object(m)) = at_mut(doc, parent) else {
        return false;
    };
    if m.remove(&name).is_none() {
        return false;
    }
    if ptr.split('/').count() <= 2 && m.is_empty() {
        return false; // keep the root a schema with something in it
    }
    // a removed property is no longer required either
    if let Some((grand, kw)) = parent.rsplit_once('/') {
        if kw == "properties" {
            if let Some(Value::Array(req)) = at_mut(doc, &format!("{grand}/required")) {
                req.retain(|r| r.as_str() != Some(&name));
            }
        }
    }
    true
}

/// The instance place of a schema pointer made only of `properties` steps.
fn instance_place(ptr: &str) -> Option<String> {
    let segs: Vec<&str> = ptr.split('/').skip(1).collect();
    if !segs.len().is_multiple_of(2) || segs.chunks(2).any(|c| c[0] != "properties") {
        return None;
    }
    Some(segs.chunks(2).map(|c| format!("/{}", c[1])).collect())
}

pub fn reduce(
    judge: &mut Judge,
    old: &Value,
    new: &Value,
    inst: &Value,
    dir: Direction,
) -> (Value, Value, Value) {
    let (mut o, mut n, mut i) = (old.clone(), new.clone(), inst.clone());
    let mut tries = 0;
    let (mut so, mut sn) = (o.clone(), n.clone());
    strip_annotations(&mut so);
    strip_annotations(&mut sn);
    tries += 1;
    if still_a_miss(judge, &so, &sn, &i, dir) {
        (o, n) = (so, sn);
    }
    let mut progress = true;
    while progress && tries < MAX_TRIES {
        progress = false;
        let mut places = vec![];
        removable(&o, String::new(), &mut places, 0);
        places.reverse();
        for p in places {
            if tries >= MAX_TRIES {
                break;
            }
            if at(&n, &p).is_none() || at(&o, &p) != at(&n, &p) {
                continue;
            }
            let (mut o2, mut n2, mut i2) = (o.clone(), n.clone(), i.clone());
            if !(remove_at(&mut o2, &p) && remove_at(&mut n2, &p)) {
                continue;
            }
            if let Some(ip) = instance_place(&p) {
                remove_at(&mut i2, &ip);
            }
            let dangling = |d: &Value| {
                refs(d)
                    .iter()
                    .any(|(_, r)| super::walk::resolve(d, r).is_none())
            };
            if dangling(&o2) || dangling(&n2) {
                continue;
            }
            tries += 1;
            if still_a_miss(judge, &o2, &n2, &i2, dir) {
                (o, n, i) = (o2, n2, i2);
                progress = true;
            }
        }
        // smaller instances: drop object members and array elements
        let mut inst_places = vec![];
        instance_parts(&i, String::new(), &mut inst_places, 0);
        inst_places.reverse();
        for p in inst_places {
            if tries >= MAX_TRIES {
                break;
            }
            let mut i2 = i.clone();
            if !remove_part(&mut i2, &p) {
                continue;
            }
            tries += 1;
            if still_a_miss(judge, &o, &n, &i2, dir) {
                i = i2;
                progress = true;
            }
        }
    }
    (o, n, i)
}

fn instance_parts(v: &Value, ptr: String, out: &mut Vec<String>, depth: usize) {
    if depth > 12 {
        return;
    }
    match v {
        Value::Object(m) => {
            for (k, c) in m {
                let here = format!("{ptr}/{}", super::walk::escape(k));
                out.push(here.clone());
                instance_parts(c, here, out, depth + 1);
            }
        }
        Value::Array(a) => {
            for (i, c) in a.iter().enumerate() {
                let here = format!("{ptr}/{i}");
                out.push(here.clone());
                instance_parts(c, here, out, depth + 1);
            }
        }
        _ => {}
    }
}

fn remove_part(v: &mut Value, ptr: &str) -> bool {
    let Some((parent, last)) = ptr.rsplit_once('/') else {
        return false;
    };
    match at_mut(v, parent) {
        Some(Value::Object(m)) => m
            .remove(&last.replace("~1", "/").replace("~0", "~"))
            .is_some(),
        Some(Value::Array(a)) => match last.parse::<usize>() {
            Ok(i) if i < a.len() => {
                a.remove(i);
                true
            }
            _ => false,
        },
        _ => false,
    }
}
