//! Where a `syn` error is, when its span cannot say: the error is at the
//! token whose inclusion first makes a truncated input (delimiters closed)
//! fail the same way. Lexical errors (an unclosed string, comment or
//! delimiter) come straight from the lexer with their exact position.

use super::lex::{self, Kind, Pos, Tok};
use super::ParseError;

/// The most tokens a search walks one by one (beyond, it bisects).
const LINEAR_LIMIT: usize = 512;

/// `text` truncated after token `n` (0: nothing of `toks`), then `cont`,
/// then the delimiters still open at that point closed; `head` before and
/// `tail` after all that.
fn prefix(text: &str, toks: &[Tok], from: usize, n: usize, head: &str, tail: &str) -> String {
    with_continuation(text, toks, (from, n), (head, ""), tail)
}

fn with_continuation(
    text: &str,
    toks: &[Tok],
    (from, n): (usize, usize),
    (head, cont): (&str, &str),
    tail: &str,
) -> String {
    let upto = if n == 0 { from } else { toks[n - 1].end };
    let mut out = String::with_capacity(head.len() + upto.saturating_sub(from) + tail.len() + 8);
    out.push_str(head);
    out.push_str(&text[from..upto]);
    // A new line: the prefix may end with a `///` comment.
    out.push('\n');
    out.push_str(cont);
    let mut open: Vec<char> = Vec::new();
    for t in &toks[..n] {
        match t.kind {
            Kind::Open(c) => open.push(c),
            Kind::Close(_) => {
                open.pop();
            }
            _ => {}
        }
    }
    for c in open.iter().rev() {
        out.push('\n');
        out.push(match c {
            '(' => ')',
            '[' => ']',
            _ => '}',
        });
    }
    out.push_str(tail);
    out
}

/// The smallest `n` in `lo..hi` for which `fails(n)` holds (`hi` when
/// none does): one by one for short ranges, by bisection (assuming failure
/// persists once reached) for long ones.
fn smallest(lo: usize, hi: usize, mut fails: impl FnMut(usize) -> bool) -> usize {
    if hi - lo <= LINEAR_LIMIT {
        return (lo..hi).find(|&n| fails(n)).unwrap_or(hi);
    }
    lo + bisect(hi - lo, |k| k < hi - lo && fails(lo + k))
}

/// What is put where a prefix is cut, besides nothing: a failure at a
/// token of the prefix does not depend on it, a failure at the cut (the
/// parser wanting more) almost always does, for one of these.
const CONTINUATIONS: &[&str] = &[
    ";", ":", ",", "=", "=>", "x", "0", "()", "{}", "[]", "::", "->", "<", ">", ".", "|", "&", "!",
    "?", "#", "'a", "\"s\"", "+", "*",
];

/// Where `syn::parse_file(text)` failed with `err`: the first token such
/// that every prefix ending with it fails the same way whatever follows.
pub(crate) fn locate_parse_error(text: &str, err: &syn::Error) -> ParseError {
    let message = err.to_string();
    let (_, body) = lex::parsed_text(text);
    let toks = match lex::lex(body) {
        Ok(t) => t,
        Err(e) => {
            return ParseError {
                pos: e.pos,
                message: e.message,
            }
        }
    };
    let same =
        |candidate: &str| syn::parse_file(candidate).is_err_and(|e| e.to_string() == message);
    // First the top-level item that fails (few parses of the file), then
    // the token inside it (parses of that item alone).
    let ends = item_ends(&toks);
    let j = bisect(ends.len(), |j| same(&body[..toks[ends[j] - 1].end]));
    let first = if j == 0 { 0 } else { ends[j - 1] };
    let last = ends.get(j).copied().unwrap_or(toks.len());
    let item = &toks[first..last];
    let from = item.first().map_or(0, |t| t.start);
    let n = bisect(item.len(), |n| {
        n > 0
            && std::iter::once("")
                .chain(CONTINUATIONS.iter().copied())
                .all(|cont| same(&with_continuation(body, item, (from, n), ("", cont), "")))
    });
    ParseError {
        pos: item
            .get(n.wrapping_sub(1))
            .or(item.last())
            .map_or(Pos { line: 1, column: 0 }, |t| t.pos),
        message,
    }
}

/// Token indices just past each top-level `;` or `}`: where items end.
fn item_ends(toks: &[Tok]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        match toks[i].kind {
            Kind::Open(c) => {
                i = toks[i].mate;
                if c == '{' {
                    out.push(i + 1);
                }
            }
            Kind::Punct(';') => out.push(i + 1),
            _ => {}
        }
        i += 1;
    }
    out
}

/// The smallest `n` in `0..=len` with `fails(n)`, assuming failure persists
/// once reached (`len` when none).
fn bisect(len: usize, mut fails: impl FnMut(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (0, len);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if fails(mid) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    lo
}

/// What a search inside a delimited group found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Found {
    /// Including this token first makes the input fail.
    At(Pos),
    /// The input fails with the group empty.
    Empty,
    /// The input does not fail even whole.
    Never,
}

/// Within the delimited group of `toks` opened at index `open`, the token
/// whose inclusion first makes `fails` hold for `head + the group's
/// contents so far (delimiters closed) + tail`. The comma-separated
/// argument is found first, each cut after a whole argument (a cut inside
/// one can fail the same way for its own reason: `name` alone, before its
/// `= ".."`, is a malformed `name`); then the token inside it.
pub(crate) fn locate_in_group(
    text: &str,
    toks: &[Tok],
    open: usize,
    (head, tail): (&str, &str),
    mut fails: impl FnMut(&str) -> bool,
) -> Found {
    let Some(group) = toks.get(open).filter(|t| matches!(t.kind, Kind::Open(_))) else {
        return Found::Never;
    };
    let Some(inner) = toks.get(open + 1..group.mate) else {
        return Found::Never;
    };
    let from = group.end;
    let mut run = |n: usize| fails(&prefix(text, inner, from, n, head, tail));
    if run(0) {
        return Found::Empty;
    }
    // Token counts that end an argument: before each top-level `,`, and all.
    let mut ends = Vec::new();
    let mut i = 0;
    while i < inner.len() {
        match inner[i].kind {
            Kind::Open(_) => i = inner[i].mate.saturating_sub(open + 1),
            Kind::Punct(',') => ends.push(i),
            _ => {}
        }
        i += 1;
    }
    ends.push(inner.len());
    let a = smallest(0, ends.len(), |a| run(ends[a]));
    if a == ends.len() {
        return Found::Never;
    }
    let start = if a == 0 { 0 } else { ends[a - 1] + 1 };
    let n = smallest(start + 1, ends[a] + 1, &mut run).min(ends[a]);
    match inner.get(n.wrapping_sub(1)) {
        Some(t) => Found::At(t.pos),
        None => Found::Empty,
    }
}
