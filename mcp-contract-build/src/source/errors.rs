//! Where a `syn` error is, when its span cannot say: the error is at the
//! token whose inclusion first makes a truncated input (delimiters closed)
//! fail the same way. Lexical errors (an unclosed string, comment or
//! delimiter) come straight from the lexer with their exact position.

use super::lex::{self, Kind, Pos, Tok};
use super::ParseError;

/// The most tokens a search walks one by one (beyond, it bisects).
const LINEAR_LIMIT: usize = 512;

/// `text` truncated after token `n` (0: nothing of `toks`), with the
/// delimiters still open at that point closed, appended to `head` and
/// followed by `tail`.
fn prefix(text: &str, toks: &[Tok], from: usize, n: usize, head: &str, tail: &str) -> String {
    let upto = if n == 0 { from } else { toks[n - 1].end };
    let mut out = String::with_capacity(head.len() + upto.saturating_sub(from) + tail.len() + 8);
    out.push_str(head);
    out.push_str(&text[from..upto]);
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
        out.push(' ');
        out.push(match c {
            '(' => ')',
            '[' => ']',
            _ => '}',
        });
    }
    out.push_str(tail);
    out
}

/// The smallest `n` in `0..=toks.len()` for which `fails(n)` holds
/// (`toks.len()` when none does): one by one for short inputs, by
/// bisection (assuming failure persists once reached) for long ones.
fn smallest(len: usize, mut fails: impl FnMut(usize) -> bool) -> usize {
    if len <= LINEAR_LIMIT {
        return (0..=len).find(|&n| fails(n)).unwrap_or(len);
    }
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

/// Where `syn::parse_file(text)` failed with `err`.
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
    let n = smallest(toks.len(), |n| {
        n > 0
            && syn::parse_file(&prefix(body, &toks, 0, n, "", ""))
                .is_err_and(|e| e.to_string() == message)
    });
    ParseError {
        pos: toks
            .get(n.wrapping_sub(1))
            .map_or(Pos { line: 1, column: 0 }, |t| t.pos),
        message,
    }
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
/// contents so far (delimiters closed) + tail`.
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
    let n = smallest(inner.len(), &mut run);
    match n {
        0 => Found::Empty,
        n if n == inner.len() && !run(n) => Found::Never,
        n => Found::At(inner[n - 1].pos),
    }
}
