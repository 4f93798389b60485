//! Strings that match a `pattern`, for guiding the search.
//!
//! The pattern is parsed with `regex-syntax` (the parser of the linear-time
//! `regex` engine the validator uses) and walked once: each repetition at its
//! minimum (and one more), the first few alternatives, a readable character
//! from each class. Anchors and word boundaries produce nothing; whether a
//! produced string really matches is left to the validator. Everything is
//! bounded: nesting, output length and the number of variants.

use regex_syntax::hir::{Class, Hir, HirKind};

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
        assert_eq!(matching("("), Vec::<String>::new());
    }
}
