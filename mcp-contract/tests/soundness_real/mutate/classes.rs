//! Mutations of a `-` in a `pattern`'s character class, as ECMA 262 reads
//! it (a `-` is a range operator only between two single characters):
//! `[a-z]` → `[a-z-]` (adds `-`), `[a-z]` → `[a-z--x]` (adds `-` through
//! `x`: digits, capitals, `_` among them), `[+]` → `[+--]` (`+` through
//! `-`: `,` among them) only widen; the reverse edits only narrow.
//! Negated classes, classes with escapes and patterns with lookarounds
//! are left alone (there the same edit could go either way).

use serde_json::{json, Value};

use super::super::rng::Rng;
use super::{node, Effect, Kind};

pub fn kinds() -> Vec<Kind> {
    use Effect::*;
    vec![
        Kind {
            name: "pattern.class-dash-add",
            effect: Widen,
            apply: |d, p, r| class_edit(d, p, r, true),
        },
        Kind {
            name: "pattern.class-dash-remove",
            effect: Narrow,
            apply: |d, p, r| class_edit(d, p, r, false),
        },
    ]
}

/// One item of a class: a single character or a range.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Item {
    One(char),
    Range(char, char),
}

/// The items of a class body, as ECMA reads them; `None` for what this
/// mutation leaves alone (escapes, nested brackets, an empty body).
fn items(body: &str) -> Option<Vec<Item>> {
    let cs: Vec<char> = body.chars().collect();
    if cs.is_empty() || cs.iter().any(|c| matches!(c, '\\' | '[' | ']')) {
        return None;
    }
    let mut out = vec![];
    let mut i = 0;
    while i < cs.len() {
        if i + 2 < cs.len() && cs[i + 1] == '-' {
            if cs[i] > cs[i + 2] {
                return None; // out of order: not a pattern ECMA compiles
            }
            out.push(Item::Range(cs[i], cs[i + 2]));
            i += 3;
        } else {
            out.push(Item::One(cs[i]));
            i += 1;
        }
    }
    Some(out)
}

fn write(items: &[Item]) -> String {
    items
        .iter()
        .map(|i| match i {
            Item::One(c) => c.to_string(),
            Item::Range(a, b) => format!("{a}-{b}"),
        })
        .collect()
}

/// `(start, end)` byte offsets of every plain class body (between `[` and
/// `]`, not negated) in the pattern.
fn classes(p: &str) -> Vec<(usize, usize)> {
    let mut out = vec![];
    let b = p.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'[' => {
                let start = i + 1;
                let mut j = start;
                while j < b.len() && b[j] != b']' {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                if j < b.len() && b.get(start) != Some(&b'^') {
                    out.push((start, j));
                }
                i = j + 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// The body with a `-` edit that widens (`add`) or narrows the class.
fn edited(body: &str, add: bool, rng: &mut Rng) -> Option<String> {
    let mut its = items(body)?;
    let last = *its.last()?;
    if add {
        let mut options: Vec<Vec<Item>> = vec![];
        if last != Item::One('-') && !matches!(last, Item::Range(_, '-')) {
            // a trailing `-` is a literal
            let mut v = its.clone();
            v.push(Item::One('-'));
            options.push(v);
        }
        if let Item::Range(_, b) = last {
            if b != '-' {
                // `--x` after a range: `-` through `x`
                let mut v = its.clone();
                v.push(Item::Range('-', 'x'));
                options.push(v);
            }
        }
        if let Item::One(c) = last {
            if c < '-' {
                // `c--`: `c` through `-`
                let mut v = its.clone();
                v.pop();
                v.push(Item::Range(c, '-'));
                options.push(v);
            }
        }
        if options.is_empty() {
            return None;
        }
        let chosen: &Vec<Item> = rng.pick(&options);
        return Some(write(chosen));
    }
    match last {
        Item::One('-') | Item::Range('-', _) if its.len() > 1 => {
            its.pop();
        }
        Item::Range(c, '-') if c != '-' => {
            its.pop();
            its.push(Item::One(c));
        }
        _ => return None,
    }
    Some(write(&its))
}

fn class_edit(doc: &mut Value, ptr: &str, rng: &mut Rng, add: bool) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    let Some(p) = m.get("pattern").and_then(Value::as_str).map(String::from) else {
        return false;
    };
    if p.contains("(?") {
        return false;
    }
    let spots: Vec<(usize, usize, String)> = classes(&p)
        .into_iter()
        .filter_map(|(s, e)| Some((s, e, edited(&p[s..e], add, rng)?)))
        .collect();
    if spots.is_empty() {
        return false;
    }
    let (s, e, body) = rng.pick(&spots).clone();
    let new = format!("{}{body}{}", &p[..s], &p[e..]);
    m.insert("pattern".into(), json!(new));
    true
}
