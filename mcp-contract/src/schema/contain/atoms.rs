//! What an atom means on a concrete value (the clause solvers check their
//! candidates with it, and literals made of atoms are verified with it).
//! An atom of one type holds vacuously on values of the other types, as
//! the keyword it comes from does.

use serde_json::Value;

use super::formula::{Atom, Ty};
use crate::schema::graph::eval::{accepts, is_integer, json_eq};
use crate::schema::graph::{format, Dec, Draft, Graph};

/// Does the atom constrain values of type `ty` (else it holds vacuously)?
pub fn applies(a: &Atom<'_>, ty: Ty) -> bool {
    use Atom::*;
    match a {
        Const(_) | Enum(_) | In(_) | Node(_) => true,
        Int | IntWhole | Min(_) | ExMin(_) | Max(_) | ExMax(_) | Mult(_) => ty == Ty::Num,
        MinLen(_) | MaxLen(_) | Pattern(_) | Format(..) | Content(..) => ty == Ty::Str,
        MinItems(_) | MaxItems(_) | Unique | Prefix(..) | Items(..) | CountGe(..) | CountLe(..) => {
            ty == Ty::Arr
        }
        MinProps(_) | MaxProps(_) | Req(_) | Prop(..) | PatProp(..) | Add(..) | Names(_) => {
            ty == Ty::Obj
        }
    }
}

/// Every signed atom of a clause holds on `v` (`None`: not decided).
pub fn holds_clause<'a>(g: &Graph<'a>, atoms: &[(Atom<'a>, bool)], v: &Value) -> Option<bool> {
    let mut known = true;
    for (a, s) in atoms {
        match holds(g, a, v) {
            Some(b) if b != *s => return Some(false),
            None => known = false,
            _ => {}
        }
    }
    known.then_some(true)
}

fn all(answers: impl Iterator<Item = Option<bool>>) -> Option<bool> {
    let mut known = true;
    for a in answers {
        match a {
            Some(false) => return Some(false),
            None => known = false,
            Some(true) => {}
        }
    }
    known.then_some(true)
}

/// Does atom `a` hold on `v`?
pub fn holds<'a>(g: &Graph<'a>, a: &Atom<'a>, v: &Value) -> Option<bool> {
    use Atom::*;
    match (a, v) {
        (Const(n), _) => Some(g.keywords(*n)?.constant.is_some_and(|c| json_eq(c, v))),
        (Enum(n), _) => Some(
            g.keywords(*n)?
                .enumeration
                .is_some_and(|e| e.iter().any(|x| json_eq(x, v))),
        ),
        (In(vs), _) => Some(vs.values.iter().any(|x| json_eq(x, v))),
        (Int, Value::Number(n)) => Some(is_integer(n, Draft::D2020)),
        (IntWhole, Value::Number(n)) => Some(!n.is_f64()),
        (Min(m), Value::Number(n)) => Some(Dec::from_number(n)? >= *m),
        (ExMin(m), Value::Number(n)) => Some(Dec::from_number(n)? > *m),
        (Max(m), Value::Number(n)) => Some(Dec::from_number(n)? <= *m),
        (ExMax(m), Value::Number(n)) => Some(Dec::from_number(n)? < *m),
        (Mult(m), Value::Number(n)) => Some(Dec::from_number(n)?.is_multiple_of(*m)),
        (MinLen(m), Value::String(s)) => Some(s.chars().count() as u64 >= *m),
        (MaxLen(m), Value::String(s)) => Some(s.chars().count() as u64 <= *m),
        (Pattern(p), Value::String(s)) => g.pattern(*p).ok().map(|c| c.is_match(s)),
        (Format(d, f), Value::String(s)) => format::check(*d, f, s),
        (Content(enc, media), Value::String(s)) => format::content(*enc, *media, s),
        (Node(n), _) => accepts(g, *n, v).known(),
        (MinItems(m), Value::Array(x)) => Some(x.len() as u64 >= *m),
        (MaxItems(m), Value::Array(x)) => Some(x.len() as u64 <= *m),
        (Unique, Value::Array(x)) => {
            Some((0..x.len()).all(|i| (i + 1..x.len()).all(|j| !json_eq(&x[i], &x[j]))))
        }
        (Prefix(i, n), Value::Array(x)) => match x.get(*i) {
            Some(item) => accepts(g, *n, item).known(),
            None => Some(true),
        },
        (Items(from, n), Value::Array(x)) => all(x
            .iter()
            .skip(*from)
            .map(|item| accepts(g, *n, item).known())),
        (CountGe(n, k) | CountLe(n, k), Value::Array(x)) => {
            let (mut yes, mut maybe) = (0u64, 0u64);
            for item in x {
                match accepts(g, *n, item).known() {
                    Some(true) => yes += 1,
                    None => maybe += 1,
                    Some(false) => {}
                }
            }
            if matches!(a, CountGe(..)) {
                if yes >= *k {
                    Some(true)
                } else if yes + maybe < *k {
                    Some(false)
                } else {
                    None
                }
            } else if yes + maybe <= *k {
                Some(true)
            } else if yes > *k {
                Some(false)
            } else {
                None
            }
        }
        (MinProps(m), Value::Object(o)) => Some(o.len() as u64 >= *m),
        (MaxProps(m), Value::Object(o)) => Some(o.len() as u64 <= *m),
        (Req(name), Value::Object(o)) => Some(o.contains_key(*name)),
        (Prop(name, n), Value::Object(o)) => match o.get(*name) {
            Some(x) => accepts(g, *n, x).known(),
            None => Some(true),
        },
        (PatProp(p, n), Value::Object(o)) => {
            let c = g.pattern(*p).ok()?;
            all(o
                .iter()
                .filter(|(k, _)| c.is_match(k))
                .map(|(_, x)| accepts(g, *n, x).known()))
        }
        (Add(known, n), Value::Object(o)) => {
            let mut answers = vec![];
            for (k, x) in o {
                if known.names.contains(&k.as_str()) {
                    continue;
                }
                let mut matched = Some(false);
                for p in known.patterns.iter() {
                    match g.pattern(*p) {
                        Ok(c) if c.is_match(k) => {
                            matched = Some(true);
                            break;
                        }
                        Ok(_) => {}
                        Err(_) => matched = None,
                    }
                }
                match matched {
                    Some(true) => {}
                    Some(false) => answers.push(accepts(g, *n, x).known()),
                    None => answers.push(None),
                }
            }
            all(answers.into_iter())
        }
        (Names(n), Value::Object(o)) => all(o
            .keys()
            .map(|k| accepts(g, *n, &Value::String(k.clone())).known())),
        // an atom of another type holds vacuously
        _ => Some(true),
    }
}
