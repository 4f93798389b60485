//! Strings: a conjunction of length bounds, patterns (and their
//! negations), excluded values and formats.
//!
//! The patterns are automata (the ECMA-262 subset of
//! [`crate::schema::pattern`]); a breadth-first search runs over their
//! product — positive patterns must match, negated ones must not, the
//! text must be valid UTF-8 and none of the excluded strings (a trie) —
//! counting code points for the length bounds. Exhausting the product
//! proves no string exists; a string found is the shortest. `format` is
//! not regular: strings the search yields and known examples of each
//! format are checked with the format policy, so a format never makes a
//! string exist by assumption, and a format with no example that fits is
//! "not known", never "none".

use std::collections::{HashMap, VecDeque};

use regex_automata::util::primitives::StateID;
use serde_json::Value;

use super::formula::{Atom, Ty};
use super::{check_candidates, excluded_values, positive_values, Ans, Decider};
use crate::schema::pattern::Compiled;

thread_local! {
    /// Every valid UTF-8 string (the negated patterns' complements are taken within it).
    static UTF8: Result<Compiled, String> = Compiled::new(None);
}

/// Product states one search may visit.
const MAX_STATES: usize = 60_000;
/// Length bounds up to this far above the lower bound are counted exactly.
const EXACT_LENGTHS: u64 = 2_048;
/// Strings collected for the formats to choose from.
const CANDIDATES: usize = 24;

/// Known members of each asserted format (checked, never assumed).
fn examples(f: &str) -> &'static [&'static str] {
    match f {
        "date" => &["2024-01-01", "1999-12-31"],
        "date-time" => &["2024-01-01T00:00:00Z", "1999-12-31T23:59:59.123+01:00"],
        "time" => &["00:00:00Z", "23:59:59+01:00", "12:34:56.789Z"],
        "duration" => &["P1D", "PT1H", "P1Y2M3DT4H5M6S"],
        "email" | "idn-email" => &["a@example.com", "joe.bloggs@example.com", "x@y.io"],
        "hostname" | "idn-hostname" => &["example.com", "a", "localhost", "a-b.example.org"],
        "ipv4" => &["127.0.0.1", "192.168.0.1", "0.0.0.0"],
        "ipv6" => &["::1", "2001:db8::8a2e:370:7334", "::"],
        "uri" | "iri" => &[
            "http://a.example/",
            "https://example.com/path?q=1",
            "urn:isbn:0451450523",
            "a:b",
        ],
        "uri-reference" | "iri-reference" => &["", "a", "/path", "http://a.example/", "#frag"],
        "uri-template" => &["", "a", "http://example.com/{id}", "{x}"],
        "json-pointer" => &["", "/a", "/a/0", "/"],
        "relative-json-pointer" => &["0", "1/a", "0#", "2"],
        "regex" => &["", "a", "^[a-z]+$", ".*"],
        "uuid" => &[
            "00000000-0000-0000-0000-000000000000",
            "2eb8aa08-aa98-11ea-b4aa-73b441d16380",
        ],
        "\u{0}content:base64-json" => &["e30=", "MQ==", "W10="],
        "\u{0}content:base64" => &["", "YQ==", "e30="],
        "\u{0}content:json" => &["{}", "1", "[]", "\"a\""],
        _ => &[],
    }
}

struct Trie {
    next: Vec<HashMap<u8, usize>>,
    end: Vec<bool>,
}

impl Trie {
    fn new(words: &[String]) -> Trie {
        let mut t = Trie {
            next: vec![HashMap::new()],
            end: vec![false],
        };
        for w in words {
            let mut at = 0;
            for b in w.bytes() {
                at = match t.next[at].get(&b) {
                    Some(n) => *n,
                    None => {
                        t.next.push(HashMap::new());
                        t.end.push(false);
                        let n = t.next.len() - 1;
                        t.next[at].insert(b, n);
                        n
                    }
                };
            }
            t.end[at] = true;
        }
        t
    }
}

/// A state of the product: each pattern's state, the trie's (`None` once
/// off every excluded string), and the code points read.
#[derive(Clone, PartialEq, Eq, Hash)]
struct State {
    dfa: Vec<StateID>,
    trie: Option<usize>,
    count: u64,
}

pub(super) fn solve<'a>(cx: &mut Decider<'_, 'a>, atoms: &[(Atom<'a>, bool)]) -> Ans {
    if let Some(values) = positive_values(cx.g, atoms, Ty::Str) {
        return check_candidates(cx, atoms, values);
    }
    let g = cx.g;
    let (mut lo, mut hi) = (0u64, u64::MAX);
    let mut pos: Vec<&Compiled> = vec![];
    let mut neg: Vec<&Compiled> = vec![];
    let mut formats_pos: Vec<&str> = vec![];
    let mut has_format = false;
    let mut unknown: Option<String> = None;
    for (a, s) in atoms {
        match (a, *s) {
            (Atom::MinLen(n), true) => lo = lo.max(*n),
            (Atom::MinLen(n), false) => {
                if *n == 0 {
                    return Ans::Unsat;
                }
                hi = hi.min(n - 1)
            }
            (Atom::MaxLen(n), true) => hi = hi.min(*n),
            (Atom::MaxLen(n), false) => lo = lo.max(n.saturating_add(1)),
            (Atom::Pattern(p), s) => match g.pattern(*p) {
                Ok(c) if s => pos.push(c),
                Ok(c) => neg.push(c),
                Err(why) => {
                    unknown.get_or_insert_with(|| {
                        format!("`pattern` {:?}: {why}", g.pattern_source(*p))
                    });
                }
            },
            (Atom::Content(enc, media), s) => {
                has_format = true;
                if s {
                    let json = *media == Some("application/json");
                    formats_pos.push(match (*enc == Some("base64"), json) {
                        (true, true) => "\u{0}content:base64-json",
                        (true, false) => "\u{0}content:base64",
                        (false, _) => "\u{0}content:json",
                    });
                }
            }
            (Atom::Format(_, f), s) => {
                has_format = true;
                if s {
                    formats_pos.push(f);
                }
            }
            _ => {}
        }
    }
    if lo > hi {
        return Ans::Unsat;
    }
    let excluded: Vec<String> = excluded_values(g, atoms, Ty::Str)
        .into_iter()
        .filter_map(|v| match v {
            Value::String(s) => Some(s),
            _ => None,
        })
        .collect();
    let searched = UTF8.with(|utf8| {
        let utf8 = utf8.as_ref().map_err(String::clone)?;
        let mut pos = pos.clone();
        pos.push(utf8);
        product(&pos, &neg, &Trie::new(&excluded), lo, hi, has_format)
    });
    let found = match searched {
        Ok(found) => found,
        Err(why) => return Ans::unknown(why),
    };
    if found.is_empty() {
        // even without the formats and the undecided patterns, no string
        return Ans::Unsat;
    }
    let mut candidates: Vec<Value> = found.into_iter().map(Value::String).collect();
    for f in &formats_pos {
        candidates.extend(examples(f).iter().map(|s| Value::String((*s).to_string())));
    }
    let mut why = None;
    for v in &candidates {
        match super::atoms::holds_clause(g, atoms, v) {
            Some(true) => return Ans::Sat(v.clone()),
            Some(false) => {}
            None => why = why.or_else(|| Some(format!("whether {v} fits is not decided"))),
        }
    }
    if let Some(w) = unknown.or(why) {
        return Ans::unknown(w);
    }
    if has_format {
        let mut names: Vec<&str> = atoms
            .iter()
            .filter_map(|(a, _)| match a {
                Atom::Format(_, f) => Some(*f),
                _ => None,
            })
            .collect();
        names.dedup();
        return Ans::unknown(format!(
            "no string was found that is (or is not) a {} and fits the other constraints; formats are checked on examples, not searched",
            names.join(", ")
        ));
    }
    Ans::unknown("the strings found did not hold when checked")
}

/// Strings of the product language (up to [`CANDIDATES`] when `many`, else one).
fn product(
    pos: &[&Compiled],
    neg: &[&Compiled],
    trie: &Trie,
    lo: u64,
    hi: u64,
    many: bool,
) -> Result<Vec<String>, String> {
    let all: Vec<&Compiled> = pos.iter().chain(neg.iter()).copied().collect();
    let exact = hi != u64::MAX && hi <= lo.saturating_add(EXACT_LENGTHS);
    let accepting = |s: &State| {
        s.count >= lo
            && (s.count <= hi)
            && pos.iter().enumerate().all(|(i, c)| c.accepts(s.dfa[i]))
            && neg
                .iter()
                .enumerate()
                .all(|(i, c)| !c.accepts(s.dfa[pos.len() + i]))
            && s.trie.is_none_or(|t| !trie.end[t])
    };
    let start = State {
        dfa: all.iter().map(|c| c.start()).collect(),
        trie: Some(0),
        count: 0,
    };
    let mut parent: HashMap<State, Option<(State, u8)>> = HashMap::new();
    parent.insert(start.clone(), None);
    let mut queue = VecDeque::from([start]);
    let mut found = vec![];
    let want = if many { CANDIDATES } else { 1 };
    while let Some(s) = queue.pop_front() {
        if accepting(&s) {
            found.push(spell(&parent, &s));
            if found.len() >= want {
                break;
            }
        }
        'bytes: for b in 0..=255u8 {
            let mut dfa = Vec::with_capacity(all.len());
            for (i, c) in all.iter().enumerate() {
                let n = c.step(s.dfa[i], b);
                if i < pos.len() && c.is_dead(n) {
                    continue 'bytes;
                }
                dfa.push(n);
            }
            let starts_char = b & 0xC0 != 0x80;
            let count = s.count + u64::from(starts_char);
            let count = if exact {
                if count > hi {
                    continue;
                }
                count
            } else {
                count.min(lo)
            };
            let trie_next = s.trie.and_then(|t| trie.next[t].get(&b).copied());
            let next = State {
                dfa,
                trie: trie_next,
                count,
            };
            if !parent.contains_key(&next) {
                if parent.len() >= MAX_STATES {
                    return Err(format!(
                        "the string constraints take more than {MAX_STATES} automaton states to search"
                    ));
                }
                parent.insert(next.clone(), Some((s.clone(), b)));
                queue.push_back(next);
            }
        }
    }
    Ok(found)
}

fn spell(parent: &HashMap<State, Option<(State, u8)>>, s: &State) -> String {
    let mut bytes = vec![];
    let mut at = s.clone();
    while let Some(Some((prev, b))) = parent.get(&at) {
        bytes.push(*b);
        at = prev.clone();
    }
    bytes.reverse();
    String::from_utf8_lossy(&bytes).into_owned()
}
