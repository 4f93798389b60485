//! A parsed Rust file that still knows where things are. The build step
//! parses with `syn` on proc-macro2's fallback without `span-locations`
//! (that feature, unified over the host, would slow down every proc macro
//! of the user's build), so spans carry no position. [`Source`] keeps the
//! text next to the tree and answers "which line and column" from its own
//! lexer: identifiers by alignment ([`align`]), syntax errors by finding the
//! shortest prefix of the file that fails the same way ([`errors`]).

mod align;
mod errors;
mod lex;
#[cfg(test)]
mod tests;

use std::cell::OnceCell;
use std::collections::HashMap;
use std::fmt;
use std::ops::Deref;

pub(crate) use align::Anchor;
pub(crate) use errors::Found;
pub use lex::Pos;

/// A file's syntax tree with its text.
pub struct Source {
    file: syn::File,
    text: String,
    /// Identifier address → position, computed on first use.
    positions: OnceCell<HashMap<usize, Pos>>,
}

/// Why a file did not parse, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub pos: Pos,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message)
    }
}

impl Source {
    /// Parses `text` as a file (as `syn::parse_file` does); a failure
    /// carries the position of the offending token.
    pub fn parse(text: impl Into<String>) -> Result<Source, ParseError> {
        let text = text.into();
        match syn::parse_file(&text) {
            Ok(file) => Ok(Source {
                file,
                text,
                positions: OnceCell::new(),
            }),
            Err(e) => Err(errors::locate_parse_error(&text, &e)),
        }
    }

    /// An empty file (what a file that vanished reads as).
    pub fn empty() -> Source {
        Source {
            file: syn::File {
                shebang: None,
                attrs: Vec::new(),
                items: Vec::new(),
            },
            text: String::new(),
            positions: OnceCell::new(),
        }
    }

    /// The text the tree was parsed from.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The syntax tree.
    pub fn syntax(&self) -> &syn::File {
        &self.file
    }

    /// The syntax tree, to change (positions are computed anew after; an
    /// identifier the change adds or removes may go without one).
    pub fn syntax_mut(&mut self) -> &mut syn::File {
        self.positions = OnceCell::new();
        &mut self.file
    }

    /// Where `node` (an item of this tree) starts: its first identifier.
    pub(crate) fn pos_of(&self, node: &(impl Anchor + ?Sized)) -> Option<Pos> {
        let ident = node.anchor()?;
        let map = self.positions.get_or_init(|| {
            let (_, body) = lex::parsed_text(&self.text);
            match lex::lex(body) {
                Ok(toks) => align::positions(&self.file, &toks, body),
                Err(_) => HashMap::new(),
            }
        });
        map.get(&(ident as *const syn::Ident as usize)).copied()
    }

    /// Tokens of the text, when it lexes.
    fn tokens(&self) -> Option<(&str, Vec<lex::Tok>)> {
        let (_, body) = lex::parsed_text(&self.text);
        lex::lex(body).ok().map(|t| (body, t))
    }

    /// The position of the token after the one at `pos` (e.g. the `<` after
    /// an item's name).
    pub(crate) fn token_after(&self, pos: Pos) -> Option<Pos> {
        let (_, toks) = self.tokens()?;
        let i = toks.iter().position(|t| t.pos == pos)?;
        toks.get(i + 1).map(|t| t.pos)
    }

    /// Where attribute `attr` (of this tree) starts: its `#`.
    pub(crate) fn attribute_pos(&self, attr: &syn::Attribute) -> Option<Pos> {
        let (_, toks) = self.tokens()?;
        let (hash, _, _) = attribute_tokens(&toks, self.pos_of(attr.path())?)?;
        Some(toks[hash].pos)
    }

    /// Inside attribute `attr` (of this tree), the argument token whose
    /// inclusion first makes `fails` hold for the attribute cut short there
    /// (`attr` parsed anew from the text, delimiters closed).
    pub(crate) fn locate_in_attribute(
        &self,
        attr: &syn::Attribute,
        mut fails: impl FnMut(&syn::Attribute) -> bool,
    ) -> Found {
        use syn::parse::Parser;
        let Some(path) = self.pos_of(attr.path()) else {
            return Found::Never;
        };
        let Some((body, toks)) = self.tokens() else {
            return Found::Never;
        };
        let Some((_, bracket, open)) = attribute_tokens(&toks, path) else {
            return Found::Never;
        };
        let Some(open) = open else {
            return Found::Empty;
        };
        let closer = match toks[open].kind {
            lex::Kind::Open('(') => ')',
            lex::Kind::Open('[') => ']',
            _ => '}',
        };
        let head = format!("#[{}", &body[toks[bracket + 1].start..toks[open].end]);
        let tail = format!("{closer}]");
        errors::locate_in_group(body, &toks, open, (&head, &tail), |candidate| {
            syn::Attribute::parse_outer
                .parse_str(candidate)
                .ok()
                .and_then(|v| v.into_iter().next())
                .is_some_and(|a| fails(&a))
        })
    }

    /// The 1-based line of `node`, 0 when it is not in this tree.
    pub(crate) fn line_of(&self, node: &(impl Anchor + ?Sized)) -> usize {
        self.pos_of(node).map_or(0, |p| p.line)
    }
}

/// For the attribute whose path starts at `path`: the indices of its `#`,
/// its `[` and the opening delimiter of its arguments (if any).
fn attribute_tokens(toks: &[lex::Tok], path: Pos) -> Option<(usize, usize, Option<usize>)> {
    let p = toks
        .iter()
        .position(|t| t.pos == path && t.kind == lex::Kind::Ident)?;
    let bracket = (0..p)
        .rev()
        .take(4)
        .find(|&i| toks[i].kind == lex::Kind::Open('['))?;
    let hash = (0..bracket)
        .rev()
        .take(2)
        .find(|&i| toks[i].kind == lex::Kind::Punct('#'))?;
    let close = toks[bracket].mate;
    let open = (p..close).find(|&i| matches!(toks[i].kind, lex::Kind::Open(_)));
    Some((hash, bracket, open))
}

impl Deref for Source {
    type Target = syn::File;

    fn deref(&self) -> &syn::File {
        &self.file
    }
}

impl Clone for Source {
    /// A copy has new identifier addresses: its positions are computed anew.
    fn clone(&self) -> Self {
        Source {
            file: self.file.clone(),
            text: self.text.clone(),
            positions: OnceCell::new(),
        }
    }
}

impl fmt::Debug for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Source")
            .field("items", &self.file.items.len())
            .field("bytes", &self.text.len())
            .finish()
    }
}

/// Tests only: each of `err`'s messages at proc-macro2's own span position
/// (line, 1-based column) — the oracle the text-derived positions are
/// checked against (the dev-dependency turns on `span-locations`).
#[cfg(test)]
pub(crate) fn span_positions(err: syn::Error) -> Vec<(usize, usize, String)> {
    err.into_iter()
        .map(|e| {
            let at = e.span().start();
            (at.line, at.column + 1, e.to_string())
        })
        .collect()
}
