//! Strings that match a `pattern`, for guiding the search.
//!
//! [`difference`] walks the product of two patterns' automata (the
//! engine's ECMA-262 translation, `regex-automata` DFAs, size-bounded) for a
//! short, readable string the first accepts and the second rejects, within
//! length bounds: the witness of a narrowed or changed `pattern`.
//!
//! The pattern is parsed with `regex-syntax` (the parser of the linear-time
//! `regex` engine the validator uses) and walked once: each repetition at its
//! minimum (and one more), the first few alternatives, a readable character
//! from each class. Anchors and word boundaries produce nothing; whether a
//! produced string really matches is left to the validator. Everything is
//! bounded: nesting, output length and the number of variants.

use std::collections::{HashMap, VecDeque};

use regex_automata::dfa::{dense, Automaton, StartKind};
use regex_automata::nfa::thompson;
use regex_automata::util::primitives::StateID;
use regex_automata::util::{start, syntax};
use regex_automata::{Anchored, MatchKind};
use regex_syntax::hir::{Class, Hir, HirKind};

use crate::schema::pattern::translate;

/// Memory one automaton may take.
const DFA_BYTES: usize = 1 << 20;
/// Product states explored per difference.
const MAX_PRODUCT: usize = 20_000;
/// Longest difference string looked for (bytes).
const MAX_WALK: usize = 128;

struct Dfa {
    dfa: dense::DFA<Vec<u32>>,
    start: StateID,
}

impl Dfa {
    /// The language of strings `pattern` matches somewhere in (`None`: every string).
    fn new(pattern: Option<&str>) -> Option<Dfa> {
        let t = match pattern {
            Some(p) if p.len() <= MAX_PATTERN => translate(p).ok()?,
            Some(_) => return None,
            None => String::new(),
        };
        let dfa = dense::Builder::new()
            .syntax(syntax::Config::new().utf8(true).unicode(true))
            .thompson(thompson::Config::new().nfa_size_limit(Some(DFA_BYTES)))
            .configure(
                dense::Config::new()
                    .match_kind(MatchKind::All)
                    .start_kind(StartKind::Anchored)
                    .dfa_size_limit(Some(DFA_BYTES))
                    .determinize_size_limit(Some(DFA_BYTES)),
            )
            .build(&format!("(?s:.)*(?:{t})(?s:.)*"))
            .ok()?;
        let start = dfa
            .start_state(&start::Config::new().anchored(Anchored::Yes))
            .ok()?;
        Some(Dfa { dfa, start })
    }
    fn accepts_at_end(&self, s: StateID) -> bool {
        self.dfa.is_match_state(self.dfa.next_eoi_state(s))
    }
}

/// Bytes in the order a reader likes them: letters, digits, common
/// punctuation, then everything else (multi-byte characters last).
fn readable_bytes() -> Vec<u8> {
    let mut v: Vec<u8> = (b'a'..=b'z')
        .chain(b'0'..=b'9')
        .chain(b'A'..=b'Z')
        .collect();
    v.extend(b"-_. @/:".iter());
    for b in 0x20..0x7f {
        if !v.contains(&b) {
            v.push(b);
        }
    }
    for b in (0..0x20).chain(0x7f..=0xff) {
        v.push(b);
    }
    v
}

/// A short string that pattern `a` accepts and `b` rejects (`None` for no
/// pattern), with at least `min` and at most `max` characters. Breadth
/// first over the product automaton, readable bytes first; `None` when
/// there is none, or none within the bounds of the walk.
pub fn difference(
    a: Option<&str>,
    b: Option<&str>,
    min: usize,
    max: Option<usize>,
) -> Option<String> {
    let (da, db) = (Dfa::new(a)?, Dfa::new(b)?);
    let order = readable_bytes();
    let min = min.min(MAX_WALK);
    let max = max.unwrap_or(MAX_WALK).min(MAX_WALK);
    // state: both automata, and the characters so far (capped at `min`)
    type Key = (StateID, StateID, usize);
    let mut parent: HashMap<Key, Option<(Key, u8)>> = HashMap::new();
    let first = (da.start, db.start, 0);
    parent.insert(first, None);
    let mut queue = VecDeque::from([(first, 0usize, 0usize)]);
    while let Some((key @ (sa, sb, _), depth, chars)) = queue.pop_front() {
        if chars >= min && da.accepts_at_end(sa) && !db.accepts_at_end(sb) {
            let mut bytes = vec![];
            let mut at = key;
            while let Some(Some((prev, byte))) = parent.get(&at) {
                bytes.push(*byte);
                at = *prev;
            }
            bytes.reverse();
            let s = String::from_utf8(bytes).ok()?;
            return (s.chars().count() <= max).then_some(s);
        }
        if depth >= MAX_WALK * 4 {
            continue;
        }
        for &byte in &order {
            let na = da.dfa.next_state(sa, byte);
            if da.dfa.is_dead_state(na) {
                continue;
            }
            // a character starts at every byte that is not a continuation byte
            let nchars = chars + usize::from(byte & 0xC0 != 0x80);
            if nchars > max {
                continue;
            }
            let nb = db.dfa.next_state(sb, byte);
            let nk = (na, nb, nchars.min(min));
            if let std::collections::hash_map::Entry::Vacant(e) = parent.entry(nk) {
                e.insert(Some((key, byte)));
                if parent.len() > MAX_PRODUCT {
                    return None;
                }
                queue.push_back((nk, depth + 1, nchars));
            }
        }
    }
    None
}

/// Most variants produced per node.
const MAX_VARIANTS: usize = 6;
/// Longest string produced.
const MAX_LEN: usize = 256;
/// Deepest nesting walked.
const MAX_DEPTH: usize = 48;
/// Longest pattern parsed.
const MAX_PATTERN: usize = 4096;

/// A few strings matching `pattern` (shortest first); empty when the pattern
/// does not parse or needs longer strings than the search makes.
pub fn matching(pattern: &str) -> Vec<String> {
    if pattern.len() > MAX_PATTERN {
        return vec![];
    }
    let Ok(hir) = regex_syntax::ParserBuilder::new()
        .nest_limit(MAX_DEPTH as u32)
        .build()
        .parse(pattern)
    else {
        return vec![];
    };
    let mut out = gen(&hir, 0).unwrap_or_default();
    out.sort_by_key(|s| (s.chars().count(), s.clone()));
    out.dedup();
    out
}

fn gen(h: &Hir, depth: usize) -> Option<Vec<String>> {
    if depth > MAX_DEPTH {
        return None;
    }
    Some(match h.kind() {
        HirKind::Empty | HirKind::Look(_) => vec![String::new()],
        HirKind::Literal(l) => vec![String::from_utf8_lossy(&l.0).into_owned()],
        HirKind::Class(c) => class_chars(c).into_iter().map(String::from).collect(),
        HirKind::Capture(c) => gen(&c.sub, depth + 1)?,
        HirKind::Repetition(r) => {
            let sub = gen(&r.sub, depth + 1)?;
            let first = sub.first().cloned().unwrap_or_default();
            let min = r.min as usize;
            if min.saturating_mul(first.len().max(1)) > MAX_LEN {
                return None;
            }
            let mut v = vec![first.repeat(min)];
            if r.max.is_none_or(|m| m as usize > min) {
                for s in sub.iter().take(3) {
                    v.push(format!("{}{s}", first.repeat(min)));
                }
            }
            v
        }
        HirKind::Concat(parts) => {
            let mut acc = vec![String::new()];
            for p in parts {
                let sub = gen(p, depth + 1)?;
                let mut next = vec![];
                for a in &acc {
                    for s in &sub {
                        if next.len() < MAX_VARIANTS && a.len() + s.len() <= MAX_LEN {
                            next.push(format!("{a}{s}"));
                        }
                    }
                }
                if next.is_empty() {
                    return None;
                }
                acc = next;
            }
            acc
        }
        HirKind::Alternation(alts) => {
            let mut v = vec![];
            for a in alts.iter().take(MAX_VARIANTS) {
                if let Some(s) = gen(a, depth + 1) {
                    v.extend(s.into_iter().take(2));
                }
            }
            if v.is_empty() {
                return None;
            }
            v
        }
    })
}

/// Readable characters a class contains: preferred ones first, else the ends of its first ranges.
fn class_chars(c: &Class) -> Vec<char> {
    let ranges: Vec<(char, char)> = match c {
        Class::Unicode(u) => u.ranges().iter().map(|r| (r.start(), r.end())).collect(),
        Class::Bytes(b) => b
            .ranges()
            .iter()
            .filter(|r| r.start() < 0x80)
            .map(|r| (r.start() as char, (r.end().min(0x7f)) as char))
            .collect(),
    };
    let contains = |ch: char| ranges.iter().any(|(a, b)| *a <= ch && ch <= *b);
    let mut out: Vec<char> = ['a', '0', 'b', 'A', 'x', '1', '-', '_', '.', ' ']
        .into_iter()
        .filter(|c| contains(*c))
        .take(2)
        .collect();
    if out.is_empty() {
        for (a, b) in ranges.iter().take(2) {
            let start = if (*a as u32) < 0x21 && (*b as u32) >= 0x21 {
                '!'
            } else {
                *a
            };
            out.push(start);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::matching;

    #[test]
    fn produces_matching_strings() {
        assert_eq!(
            matching("^[0-9a-f]{4}$").first().map(String::as_str),
            Some("aaaa")
        );
        assert!(matching("^(foo|bar)-\\d+$").contains(&"foo-0".to_string()));
        for p in [
            "^[0-9a-f]{40}$",
            "^(foo|bar)-\\d+$",
            "^\\w+@\\w+\\.com$",
            "[A-Z]{2,3}_[0-9]?",
        ] {
            let re = regex::Regex::new(p).unwrap();
            let found = matching(p);
            assert!(!found.is_empty(), "{p}");
            assert!(found.iter().all(|s| re.is_match(s)), "{p}: {found:?}");
        }
        assert_eq!(matching("a{100000}"), Vec::<String>::new());
    }

    #[test]
    fn differences_are_short_readable_and_bounded() {
        use super::difference;
        assert_eq!(
            difference(Some("^[a-z0-9]+$"), Some("^[a-z]+$"), 0, None).as_deref(),
            Some("0")
        );
        assert_eq!(difference(None, Some("^a"), 0, None).as_deref(), Some(""));
        assert_eq!(difference(None, Some("^a"), 2, None).as_deref(), Some("ba"));
        let d = difference(None, Some("^a"), 2, Some(3)).unwrap();
        assert!(d.chars().count() >= 2 && !d.starts_with('a'), "{d}");
        assert_eq!(
            difference(Some("^[ab]+$"), Some("b$"), 0, None).as_deref(),
            Some("a")
        );
        // nothing: the second accepts all the first does
        assert_eq!(difference(Some("^a"), Some("a"), 0, None), None);
        // astral characters are characters
        let d = difference(None, Some("^[\\u0000-\\uffff]*$"), 1, Some(1)).unwrap();
        assert_eq!(d.chars().count(), 1, "{d:?}");
        // hostile: bounded, no answer rather than a hang
        assert_eq!(difference(Some("a{100000}{100000}"), None, 0, None), None);
        let _ = difference(Some("(a|b)*a(a|b){20}"), Some("(a|b)*a(a|b){21}"), 0, None);
        assert_eq!(matching("("), Vec::<String>::new());
    }
}
