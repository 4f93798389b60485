//! Gives every identifier of a parsed `syn::File` its position in the text,
//! without proc-macro2 span locations: the n-th `Foo` syn meets walking the
//! tree in source order is the n-th `Foo` the lexer sees outside attribute
//! arguments and macro bodies (the token streams syn keeps opaque). Keyword
//! spellings (`self`, `Self`, `crate`, `union`, ...) are left out on both
//! sides, since syn holds some as tokens and some as identifiers.

use std::collections::HashMap;

use syn::visit::{self, Visit};
use syn::Ident;

use super::lex::{Kind, Pos, Tok};

/// Spellings never looked up: keywords (strict, reserved and weak) and `_`.
pub(crate) fn skipped(name: &str) -> bool {
    mcp_contract_syntax::is_keyword(name)
}

/// Keywords after which `!` is a negation, not a macro call.
fn negation_follows(word: &str) -> bool {
    matches!(
        word,
        "return" | "if" | "while" | "match" | "in" | "break" | "else" | "yield" | "move"
    )
}

/// The identifiers syn keeps as syntax, by spelling, each with the
/// positions of its occurrences in source order.
fn lexed_names<'t>(toks: &[Tok], text: &'t str) -> HashMap<&'t str, Vec<Pos>> {
    let mut out: HashMap<&str, Vec<Pos>> = HashMap::new();
    let mut i = 0;
    while i < toks.len() {
        let t = toks[i];
        match t.kind {
            Kind::Doc => out.entry("doc").or_default().push(t.pos),
            Kind::Ident | Kind::Lifetime => {
                let name = t.text(text);
                if !skipped(name) {
                    out.entry(name).or_default().push(t.pos);
                }
                // `name!(..)` and `macro_rules! name {..}`: the body is opaque.
                let bang = toks.get(i + 1).filter(|b| {
                    b.kind == Kind::Punct('!')
                        && text.as_bytes().get(b.end) != Some(&b'=')
                        && t.kind == Kind::Ident
                        && !negation_follows(name)
                });
                if let Some(_bang) = bang {
                    let mut j = i + 2;
                    if name == "macro_rules" && toks.get(j).is_some_and(|n| n.kind == Kind::Ident) {
                        out.entry(toks[j].text(text)).or_default().push(toks[j].pos);
                        j += 1;
                    }
                    if let Some(Kind::Open(_)) = toks.get(j).map(|g| g.kind) {
                        i = toks[j].mate + 1;
                        continue;
                    }
                }
            }
            Kind::Punct('#') => {
                // `#[path(..)]`, `#![path = expr]`: the path counts, a
                // delimited argument list does not.
                let mut j = i + 1;
                if toks.get(j).map(|b| b.kind) == Some(Kind::Punct('!')) {
                    j += 1;
                }
                if toks.get(j).map(|b| b.kind) == Some(Kind::Open('[')) {
                    let close = toks[j].mate;
                    let mut k = j + 1;
                    while k < close {
                        match toks[k].kind {
                            Kind::Ident => {
                                let name = toks[k].text(text);
                                if !skipped(name) {
                                    out.entry(name).or_default().push(toks[k].pos);
                                }
                                k += 1;
                            }
                            Kind::Punct(':') => k += 1,
                            Kind::Open(_) => {
                                k = toks[k].mate + 1;
                            }
                            _ => break,
                        }
                    }
                    // `= expr` (rare beyond `doc = ".."`): lexed like code.
                    i = if k < close && toks[k].kind == Kind::Punct('=') {
                        k + 1
                    } else {
                        close + 1
                    };
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// Collects identifiers in source order (where syn's default walk differs,
/// in the order they are written), each once.
struct Walk<'ast> {
    seen: Vec<&'ast Ident>,
}

fn params<'ast>(v: &mut Walk<'ast>, g: &'ast syn::Generics) {
    for p in &g.params {
        v.visit_generic_param(p);
    }
}

fn where_clause<'ast>(v: &mut Walk<'ast>, g: &'ast syn::Generics) {
    if let Some(w) = &g.where_clause {
        v.visit_where_clause(w);
    }
}

impl<'ast> Visit<'ast> for Walk<'ast> {
    fn visit_ident(&mut self, i: &'ast Ident) {
        self.seen.push(i);
    }

    // `S { x }` / `S { x } = s`: one `x` in the text, two in the tree.
    fn visit_field_value(&mut self, f: &'ast syn::FieldValue) {
        if f.colon_token.is_none() {
            for a in &f.attrs {
                self.visit_attribute(a);
            }
            self.visit_member(&f.member);
        } else {
            visit::visit_field_value(self, f);
        }
    }

    fn visit_field_pat(&mut self, f: &'ast syn::FieldPat) {
        if f.colon_token.is_none() {
            for a in &f.attrs {
                self.visit_attribute(a);
            }
            visit::visit_pat(self, &f.pat);
        } else {
            visit::visit_field_pat(self, f);
        }
    }

    // `&'a self`: syn also builds the type `&'a Self`, not in the text.
    fn visit_receiver(&mut self, r: &'ast syn::Receiver) {
        if r.colon_token.is_some() {
            visit::visit_receiver(self, r);
            return;
        }
        for a in &r.attrs {
            self.visit_attribute(a);
        }
        if let Some((_, Some(l))) = &r.reference {
            self.visit_lifetime(l);
        }
    }

    // The `where` clause is written after the output / the tuple fields /
    // the self type / the supertraits; syn walks it with the parameters.
    fn visit_signature(&mut self, s: &'ast syn::Signature) {
        if let Some(abi) = &s.abi {
            self.visit_abi(abi);
        }
        self.visit_ident(&s.ident);
        params(self, &s.generics);
        for input in &s.inputs {
            self.visit_fn_arg(input);
        }
        if let Some(v) = &s.variadic {
            self.visit_variadic(v);
        }
        self.visit_return_type(&s.output);
        where_clause(self, &s.generics);
    }

    fn visit_item_struct(&mut self, s: &'ast syn::ItemStruct) {
        if !matches!(s.fields, syn::Fields::Unnamed(_)) {
            visit::visit_item_struct(self, s);
            return;
        }
        for a in &s.attrs {
            self.visit_attribute(a);
        }
        self.visit_visibility(&s.vis);
        self.visit_ident(&s.ident);
        params(self, &s.generics);
        self.visit_fields(&s.fields);
        where_clause(self, &s.generics);
    }

    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        for a in &i.attrs {
            self.visit_attribute(a);
        }
        params(self, &i.generics);
        if let Some((_, path, _)) = &i.trait_ {
            self.visit_path(path);
        }
        self.visit_type(&i.self_ty);
        where_clause(self, &i.generics);
        for item in &i.items {
            self.visit_impl_item(item);
        }
    }

    fn visit_item_trait(&mut self, t: &'ast syn::ItemTrait) {
        for a in &t.attrs {
            self.visit_attribute(a);
        }
        self.visit_visibility(&t.vis);
        self.visit_ident(&t.ident);
        params(self, &t.generics);
        for b in &t.supertraits {
            self.visit_type_param_bound(b);
        }
        where_clause(self, &t.generics);
        for item in &t.items {
            self.visit_trait_item(item);
        }
    }
}

/// Position of every identifier of `file` (by address) that the lexer
/// could match; the others are absent.
pub(crate) fn positions(file: &syn::File, toks: &[Tok], text: &str) -> HashMap<usize, Pos> {
    let lexed = lexed_names(toks, text);
    let seen = in_source_order(file);
    let mut next: HashMap<String, usize> = HashMap::new();
    let mut out = HashMap::with_capacity(seen.len());
    for ident in seen {
        let name = ident.to_string();
        if skipped(&name) {
            continue;
        }
        let Some(at) = lexed.get(name.as_str()) else {
            continue;
        };
        let n = next.entry(name).or_default();
        if let Some(p) = at.get(*n) {
            out.insert(ident as *const Ident as usize, *p);
        }
        *n += 1;
    }
    out
}

/// The identifiers of `file` in the order they are written (each once).
pub(crate) fn in_source_order(file: &syn::File) -> Vec<&Ident> {
    let mut walk = Walk { seen: Vec::new() };
    walk.visit_file(file);
    walk.seen
}

/// The first identifier of a node (where its text starts, give or take a
/// leading `&`, `(` or keyword), to be looked up in [`positions`].
pub(crate) trait Anchor {
    fn anchor(&self) -> Option<&Ident>;
}

struct First<'ast> {
    found: Option<&'ast Ident>,
}

impl<'ast> Visit<'ast> for First<'ast> {
    fn visit_ident(&mut self, i: &'ast Ident) {
        if self.found.is_none() && !skipped(&i.to_string()) {
            self.found = Some(i);
        }
    }
}

impl Anchor for Ident {
    fn anchor(&self) -> Option<&Ident> {
        Some(self)
    }
}

macro_rules! anchor_by_walk {
    ($($ty:ty => $visit:ident),* $(,)?) => {$(
        impl Anchor for $ty {
            fn anchor(&self) -> Option<&Ident> {
                let mut first = First { found: None };
                first.$visit(self);
                first.found
            }
        }
    )*};
}

anchor_by_walk!(
    syn::Type => visit_type,
    syn::Field => visit_field,
    syn::Expr => visit_expr,
    syn::Attribute => visit_attribute,
    syn::Path => visit_path,
);
