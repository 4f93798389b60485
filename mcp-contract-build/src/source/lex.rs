//! A Rust lexer that keeps positions: the build step parses with `syn` on
//! proc-macro2's fallback, whose spans carry no line or column unless the
//! `span-locations` feature is on, and that feature would slow every proc
//! macro of the user's build (cargo unifies host features). Positions come
//! from this lexer instead: it knows comments (nested, doc), strings, raw
//! strings, char literals and lifetimes, so a name inside any of them is
//! never taken for code, and it reports an unclosed delimiter, string or
//! comment at its exact line and column.

/// 1-based line, 0-based column in chars (as proc-macro2 counts them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Pos {
    pub line: usize,
    pub column: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// An identifier or keyword (`r#raw` included, text as written).
    Ident,
    /// `'a`: `start` is the apostrophe, the text is the name without it.
    Lifetime,
    Literal,
    Punct(char),
    Open(char),
    Close(char),
    /// `///`, `//!`, `/** */` or `/*! */`: an attribute `#[doc = ...]` to syn.
    Doc,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Tok {
    pub kind: Kind,
    /// Byte range in the lexed text (for a lifetime, without the `'`).
    pub start: usize,
    pub end: usize,
    /// Where the token starts (for a lifetime, its name).
    pub pos: Pos,
    /// For `Open`/`Close`: index of the matching delimiter.
    pub mate: usize,
}

/// A lexical error with its position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LexError {
    pub pos: Pos,
    pub message: String,
}

/// The text syn parses for `text`: without a byte-order mark, with a
/// shebang line blanked (its newline kept), as `syn::parse_file` does.
pub(crate) fn parsed_text(text: &str) -> (usize, &str) {
    let (skip, rest) = match text.strip_prefix('\u{feff}') {
        Some(r) => (text.len() - r.len(), r),
        None => (0, text),
    };
    if rest.starts_with("#!") && !rest[2..].trim_start().starts_with('[') {
        let nl = rest.find('\n').unwrap_or(rest.len());
        return (skip + nl, &rest[nl..]);
    }
    (skip, rest)
}

struct Lexer<'a> {
    text: &'a str,
    bytes: &'a [u8],
    i: usize,
    line: usize,
    /// Byte index where the current line starts.
    line_start: usize,
    toks: Vec<Tok>,
    open: Vec<usize>,
}

/// Tokens of `text` (already passed through [`parsed_text`]).
pub(crate) fn lex(text: &str) -> Result<Vec<Tok>, LexError> {
    let mut lx = Lexer {
        text,
        bytes: text.as_bytes(),
        i: 0,
        line: 1,
        line_start: 0,
        toks: Vec::new(),
        open: Vec::new(),
    };
    lx.run()?;
    if let Some(&o) = lx.open.last() {
        let t = lx.toks[o];
        let Kind::Open(c) = t.kind else {
            unreachable!("only openers are pushed")
        };
        return Err(LexError {
            pos: t.pos,
            message: format!("this `{c}` is never closed"),
        });
    }
    Ok(lx.toks)
}

fn is_ident_start(c: char) -> bool {
    c == '_' || c.is_alphabetic()
}

fn is_ident_continue(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

impl Lexer<'_> {
    fn pos_at(&self, byte: usize) -> Pos {
        Pos {
            line: self.line,
            column: self.text[self.line_start..byte].chars().count(),
        }
    }

    fn peek(&self, k: usize) -> Option<u8> {
        self.bytes.get(self.i + k).copied()
    }

    fn char_at(&self, byte: usize) -> Option<char> {
        self.text.get(byte..).and_then(|s| s.chars().next())
    }

    /// Moves past `n` bytes, counting newlines.
    fn bump_to(&mut self, end: usize) {
        while self.i < end {
            if self.bytes[self.i] == b'\n' {
                self.line += 1;
                self.line_start = self.i + 1;
            }
            self.i += 1;
        }
    }

    fn err(&self, pos: Pos, message: impl Into<String>) -> LexError {
        LexError {
            pos,
            message: message.into(),
        }
    }

    fn push(&mut self, kind: Kind, start: usize, pos: Pos) {
        self.toks.push(Tok {
            kind,
            start,
            end: self.i,
            pos,
            mate: 0,
        });
    }

    fn run(&mut self) -> Result<(), LexError> {
        while self.i < self.bytes.len() {
            let start = self.i;
            let c = self.char_at(start).unwrap_or(' ');
            if c.is_whitespace() {
                self.bump_to(start + c.len_utf8());
                continue;
            }
            let pos = self.pos_at(start);
            match c {
                '/' if self.peek(1) == Some(b'/') => {
                    let end = self.text[start..]
                        .find('\n')
                        .map_or(self.text.len(), |n| start + n);
                    let body = &self.text[start..end];
                    let doc = (body.starts_with("///") && !body.starts_with("////"))
                        || body.starts_with("//!");
                    self.bump_to(end);
                    if doc {
                        self.push(Kind::Doc, start, pos);
                    }
                }
                '/' if self.peek(1) == Some(b'*') => {
                    self.block_comment(start, pos)?;
                    let body = &self.text[start..self.i];
                    let doc =
                        (body.starts_with("/**") && !body.starts_with("/***") && body != "/**/")
                            || body.starts_with("/*!");
                    if doc {
                        self.push(Kind::Doc, start, pos);
                    }
                }
                '"' => {
                    self.quoted(start + 1, b'"', pos)?;
                    self.suffix();
                    self.push(Kind::Literal, start, pos);
                }
                '\'' => self.quote_or_lifetime(start, pos)?,
                '0'..='9' => {
                    self.number(start);
                    self.push(Kind::Literal, start, pos);
                }
                '(' | '[' | '{' => {
                    self.bump_to(start + 1);
                    self.open.push(self.toks.len());
                    self.push(Kind::Open(c), start, pos);
                }
                ')' | ']' | '}' => self.close(c, start, pos)?,
                c if is_ident_start(c) => self.word(start, pos)?,
                c => {
                    self.bump_to(start + c.len_utf8());
                    self.push(Kind::Punct(c), start, pos);
                }
            }
        }
        Ok(())
    }

    fn close(&mut self, c: char, start: usize, pos: Pos) -> Result<(), LexError> {
        let want = match c {
            ')' => '(',
            ']' => '[',
            _ => '{',
        };
        let Some(o) = self.open.pop() else {
            return Err(self.err(pos, format!("unexpected closing `{c}`")));
        };
        if self.toks[o].kind != Kind::Open(want) {
            let Kind::Open(had) = self.toks[o].kind else {
                unreachable!("only openers are pushed")
            };
            let at = self.toks[o].pos;
            return Err(self.err(
                pos,
                format!(
                    "`{c}` does not close the `{had}` opened at {}:{}",
                    at.line,
                    at.column + 1
                ),
            ));
        }
        self.bump_to(start + 1);
        let me = self.toks.len();
        self.toks[o].mate = me;
        self.push(Kind::Close(c), start, pos);
        self.toks[me].mate = o;
        Ok(())
    }

    fn block_comment(&mut self, start: usize, pos: Pos) -> Result<(), LexError> {
        let mut depth = 0usize;
        let mut j = start;
        while j + 1 < self.bytes.len() + 1 {
            match (self.bytes.get(j), self.bytes.get(j + 1)) {
                (Some(b'/'), Some(b'*')) => {
                    depth += 1;
                    j += 2;
                }
                (Some(b'*'), Some(b'/')) => {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        self.bump_to(j);
                        return Ok(());
                    }
                }
                (Some(_), _) => j += 1,
                (None, _) => break,
            }
        }
        Err(self.err(pos, "this block comment is never closed (`*/` missing)"))
    }

    /// A string body from `from` up to the closing `close` (escapes honoured).
    fn quoted(&mut self, from: usize, close: u8, pos: Pos) -> Result<(), LexError> {
        let mut j = from;
        while let Some(&b) = self.bytes.get(j) {
            if b == b'\\' {
                j += 2;
            } else if b == close {
                self.bump_to(j + 1);
                return Ok(());
            } else {
                j += 1;
            }
        }
        let what = if close == b'"' { "string" } else { "character" };
        Err(self.err(pos, format!("this {what} literal is never closed")))
    }

    /// `r"..."` / `r#"..."#` from the `r`'s next byte `from`.
    fn raw(&mut self, from: usize, pos: Pos) -> Result<(), LexError> {
        let hashes = self.bytes[from..]
            .iter()
            .take_while(|&&b| b == b'#')
            .count();
        let open = from + hashes;
        if self.bytes.get(open) != Some(&b'"') {
            return Err(self.err(pos, "expected `\"` to start the raw string"));
        }
        let closer = format!("\"{}", "#".repeat(hashes));
        match self.text[open + 1..].find(&closer) {
            Some(n) => {
                self.bump_to(open + 1 + n + closer.len());
                Ok(())
            }
            None => Err(self.err(pos, "this raw string literal is never closed")),
        }
    }

    fn suffix(&mut self) {
        if self.char_at(self.i).is_some_and(is_ident_start) {
            let end = self.ident_end(self.i);
            self.bump_to(end);
        }
    }

    fn ident_end(&self, from: usize) -> usize {
        let rest = &self.text[from..];
        rest.char_indices()
            .find(|&(_, c)| !is_ident_continue(c))
            .map_or(self.text.len(), |(n, _)| from + n)
    }

    fn number(&mut self, start: usize) {
        let hex = self.text[start..].starts_with("0x") || self.text[start..].starts_with("0X");
        let mut j = start;
        loop {
            match self.bytes.get(j).copied() {
                Some(b) if b.is_ascii_alphanumeric() || b == b'_' => {
                    j += 1;
                    if !hex
                        && (b == b'e' || b == b'E')
                        && matches!(self.bytes.get(j), Some(b'+' | b'-'))
                        && self.bytes.get(j + 1).is_some_and(u8::is_ascii_digit)
                    {
                        j += 1;
                    }
                }
                Some(b'.')
                    if self.bytes.get(j + 1).is_some_and(u8::is_ascii_digit)
                        && !self.text[start..j].contains('.') =>
                {
                    j += 1
                }
                _ => break,
            }
        }
        self.bump_to(j);
    }

    fn quote_or_lifetime(&mut self, start: usize, pos: Pos) -> Result<(), LexError> {
        let next = self.char_at(start + 1);
        let after = next.and_then(|c| self.char_at(start + 1 + c.len_utf8()));
        match next {
            Some('\\') => {
                self.quoted(start + 1, b'\'', pos)?;
                self.suffix();
                self.push(Kind::Literal, start, pos);
            }
            Some(c) if after == Some('\'') => {
                self.bump_to(start + 1 + c.len_utf8() + 1);
                self.suffix();
                self.push(Kind::Literal, start, pos);
            }
            Some(c) if is_ident_start(c) => {
                let mut from = start + 1;
                if self.text[from..].starts_with("r#") {
                    from += 2;
                }
                let end = self.ident_end(from);
                self.bump_to(start + 1);
                let name_pos = self.pos_at(start + 1);
                self.bump_to(end);
                self.push(Kind::Lifetime, start + 1, name_pos);
            }
            _ => return Err(self.err(pos, "this character literal is never closed")),
        }
        Ok(())
    }

    fn word(&mut self, start: usize, pos: Pos) -> Result<(), LexError> {
        let rest = &self.text[start..];
        let prefix_len = ["br", "cr", "r", "b", "c"]
            .iter()
            .find(|p| {
                rest.starts_with(*p)
                    && matches!(rest.as_bytes().get(p.len()), Some(b'"' | b'#' | b'\''))
            })
            .map(|p| p.len());
        if let Some(n) = prefix_len {
            let raw = rest.as_bytes()[n - 1] == b'r';
            match rest.as_bytes()[n] {
                b'"' if raw => {
                    self.raw(start + n, pos)?;
                    self.suffix();
                    self.push(Kind::Literal, start, pos);
                    return Ok(());
                }
                b'#' if raw && rest[n..].trim_start_matches('#').starts_with('"') => {
                    self.raw(start + n, pos)?;
                    self.suffix();
                    self.push(Kind::Literal, start, pos);
                    return Ok(());
                }
                b'"' => {
                    self.quoted(start + n + 1, b'"', pos)?;
                    self.suffix();
                    self.push(Kind::Literal, start, pos);
                    return Ok(());
                }
                b'\'' if rest.starts_with("b'") => {
                    self.quoted(start + 2, b'\'', pos)?;
                    self.suffix();
                    self.push(Kind::Literal, start, pos);
                    return Ok(());
                }
                _ => {}
            }
        }
        let mut end = self.ident_end(start);
        if &self.text[start..end] == "r"
            && self.bytes.get(end) == Some(&b'#')
            && self.char_at(end + 1).is_some_and(is_ident_start)
        {
            end = self.ident_end(end + 1);
        }
        self.bump_to(end);
        self.push(Kind::Ident, start, pos);
        Ok(())
    }
}

impl Tok {
    /// The token's text in `text` (a lifetime's name without `'`).
    pub(crate) fn text<'a>(&self, text: &'a str) -> &'a str {
        &text[self.start..self.end]
    }
}
