//! Tests of `source`: tricky text for the lexer and the alignment, syntax
//! error positions, and (tests are built with proc-macro2's
//! `span-locations`, a dev-dependency) every identifier's position checked
//! against the span proc-macro2 itself records, over real code.

use std::path::{Path, PathBuf};

use syn::visit::Visit;

use super::lex::{lex, parsed_text, Kind};
use super::{Found, Pos, Source};

fn pos(line: usize, column: usize) -> Pos {
    Pos { line, column }
}

/// The position of the struct, enum or fn named `name` at any depth of
/// inline modules, the k-th one in source order.
fn item_pos(src: &Source, name: &str, k: usize) -> Option<Pos> {
    struct Find<'ast> {
        name: String,
        hits: Vec<&'ast syn::Ident>,
    }
    impl<'ast> Visit<'ast> for Find<'ast> {
        fn visit_item_struct(&mut self, s: &'ast syn::ItemStruct) {
            if s.ident == self.name {
                self.hits.push(&s.ident);
            }
            syn::visit::visit_item_struct(self, s);
        }
        fn visit_item_enum(&mut self, e: &'ast syn::ItemEnum) {
            if e.ident == self.name {
                self.hits.push(&e.ident);
            }
            syn::visit::visit_item_enum(self, e);
        }
        fn visit_signature(&mut self, s: &'ast syn::Signature) {
            if s.ident == self.name {
                self.hits.push(&s.ident);
            }
            syn::visit::visit_signature(self, s);
        }
    }
    let mut f = Find {
        name: name.into(),
        hits: Vec::new(),
    };
    f.visit_file(src);
    src.pos_of(*f.hits.get(k)?)
}

fn field_pos(src: &Source, strukt: &str, field: &str) -> Option<Pos> {
    fn walk<'a>(items: &'a [syn::Item], strukt: &str, field: &str) -> Option<&'a syn::Ident> {
        items.iter().find_map(|i| match i {
            syn::Item::Struct(s) if s.ident == strukt => s
                .fields
                .iter()
                .find_map(|f| f.ident.as_ref().filter(|i| *i == field)),
            syn::Item::Mod(m) => walk(&m.content.as_ref()?.1, strukt, field),
            _ => None,
        })
    }
    src.pos_of(walk(&src.items, strukt, field)?)
}

#[test]
fn names_in_comments_strings_and_raw_strings_are_not_code() {
    let text = r####"// struct Args { x: u8 }
/* struct Args /* nested struct Args */ still comment */
const S: &str = "struct Args { \" x: u8 }";
const R: &str = r#"struct Args "quoted" { x }"#;
const B: &[u8] = br##"struct Args"#"##;
const C: char = '"';
const Q: char = '\'';
/// Docs: struct Args.
pub struct Args<'a> {
    pub x: &'a str,
}
"####;
    let src = Source::parse(text).unwrap();
    assert_eq!(item_pos(&src, "Args", 0), Some(pos(9, 11)));
    assert_eq!(field_pos(&src, "Args", "x"), Some(pos(10, 8)));
    // The doc comment is the struct's first token.
    let syn::Item::Struct(s) = &src.items[5] else {
        panic!("a struct")
    };
    assert_eq!(src.pos_of(&s.attrs[0]), Some(pos(8, 0)));
}

#[test]
fn same_field_name_in_two_structs_and_nested_modules() {
    let text = "pub struct A {\n    pub id: u8,\n}\nmod inner {\n    mod deeper {\n        pub struct B { pub id: u16 }\n    }\n    pub fn A() {}\n}\npub struct C(u8, id::Id);\n";
    let src = Source::parse(text).unwrap();
    assert_eq!(field_pos(&src, "A", "id"), Some(pos(2, 8)));
    assert_eq!(field_pos(&src, "B", "id"), Some(pos(6, 27)));
    assert_eq!(item_pos(&src, "A", 1), Some(pos(8, 11)));
    assert_eq!(item_pos(&src, "B", 0), Some(pos(6, 19)));
}

#[test]
fn macro_bodies_and_attribute_arguments_do_not_shift_names() {
    let text = "macro_rules! make { ($t:ident) => { struct $t; } }\n\
                make!(Args);\n\
                #[serde(rename = \"Args\", with = \"Args\")]\n\
                #[doc = \"Args\"]\n\
                pub struct Args { v: Vec<Args> }\n\
                fn f() -> bool { let x = vec![Args]; !(x.is_empty()) && return !(true) }\n\
                fn g<T>(t: T) -> T where T: Clone { let S { t } = s; S { t } }\n";
    let src = Source::parse(text).unwrap();
    assert_eq!(item_pos(&src, "Args", 0), Some(pos(5, 11)));
    let syn::Item::Struct(s) = &src.items[2] else {
        panic!("a struct")
    };
    let syn::Type::Path(v) = &s.fields.iter().next().unwrap().ty else {
        panic!("a path")
    };
    let syn::PathArguments::AngleBracketed(a) = &v.path.segments[0].arguments else {
        panic!("arguments")
    };
    let syn::GenericArgument::Type(inner) = &a.args[0] else {
        panic!("a type")
    };
    assert_eq!(src.pos_of(inner), Some(pos(5, 25)));
    assert_eq!(item_pos(&src, "g", 0), Some(pos(7, 3)));
}

#[test]
fn lexer_errors_have_exact_positions() {
    let cases = [
        (
            "fn f() {\n    let x = (1, 2;\n}\n",
            pos(3, 0),
            "opened at 2:13",
        ),
        ("fn f() {}\n\nfn g( {}\n", pos(3, 4), "never closed"),
        ("struct A {\n  s: u8,\n", pos(1, 9), "never closed"),
        (
            "const S: &str = \"abc;\n",
            pos(1, 16),
            "string literal is never closed",
        ),
        ("const S: &str = r#\"abc\"\n;", pos(1, 16), "raw string"),
        ("/* a /* b */\nfn f() {}", pos(1, 0), "block comment"),
        ("fn f() {}\n)", pos(2, 0), "unexpected closing"),
    ];
    for (text, at, message) in cases {
        let err = Source::parse(text).unwrap_err();
        assert_eq!(err.pos, at, "{text:?}: {err:?}");
        assert!(err.message.contains(message), "{text:?}: {err:?}");
    }
}

#[test]
fn syntax_errors_point_at_the_offending_token() {
    let cases = [
        ("pub struct A {\n  x: u8,\n  y: ,\n}\n", pos(3, 5)),
        ("fn f() {}\n\nfn g(x) -> {}\n", pos(3, 6)),
        ("use a::b\nstruct S;\n", pos(2, 0)),
        (
            "mod m {\n    pub struct S { a: u8 }\n    impl S { fn x(&self) -> { 1 } }\n}\n",
            pos(3, 28),
        ),
        (
            "/// Doc.\npub struct A;\n/// Doc.\npub fn f() { let x = match 1 { 1 2 }; }\n",
            pos(4, 33),
        ),
    ];
    for (text, at) in cases {
        let err = Source::parse(text).unwrap_err();
        assert_eq!(err.pos, at, "{text:?}: {err:?}");
        // Where syn itself puts it (tests have span locations).
        let real = syn::parse_file(text).unwrap_err().span().start();
        assert_eq!((real.line, real.column), (at.line, at.column), "{text:?}");
    }
}

#[test]
fn a_problem_in_an_attribute_is_placed_at_its_token() {
    let text = "#[tool(name = \"a\", version = 0, extra)]\nstruct S;\n";
    let src = Source::parse(text).unwrap();
    let attr = &src.items[0].clone();
    let syn::Item::Struct(s) = attr else {
        panic!("a struct")
    };
    let a = &s.attrs[0];
    // Inside the source's own tree (the clone above has other addresses).
    let syn::Item::Struct(own) = &src.items[0] else {
        panic!("a struct")
    };
    let has = |needle: &'static str| {
        move |a: &syn::Attribute| {
            a.meta
                .require_list()
                .is_ok_and(|l| l.tokens.to_string().contains(needle))
        }
    };
    assert_eq!(
        src.locate_in_attribute(&own.attrs[0], has("0")),
        Found::At(pos(1, 29))
    );
    assert_eq!(
        src.locate_in_attribute(&own.attrs[0], has("extra")),
        Found::At(pos(1, 32))
    );
    assert_eq!(
        src.locate_in_attribute(&own.attrs[0], |_| true),
        Found::Empty
    );
    assert_eq!(
        src.locate_in_attribute(&own.attrs[0], |_| false),
        Found::Never
    );
    assert_eq!(src.attribute_pos(&own.attrs[0]), Some(pos(1, 0)));
    // A node that is not in the tree has no position.
    assert_eq!(src.pos_of(&a.path().segments[0].ident), None);
}

#[test]
fn byte_order_mark_and_shebang_are_skipped_like_syn_does() {
    let (skip, body) = parsed_text("\u{feff}#!/usr/bin/env run\nfn main() {}\n");
    assert_eq!(skip, 3 + "#!/usr/bin/env run".len());
    assert_eq!(body, "\nfn main() {}\n");
    let src = Source::parse("#!/usr/bin/env run\nfn main() {}\n").unwrap();
    assert_eq!(item_pos(&src, "main", 0), Some(pos(2, 3)));
    let toks = lex("#![allow(x)]").unwrap();
    assert_eq!(toks[0].kind, Kind::Punct('#'));
}

/// Every identifier syn has, against the span proc-macro2 gives it.
fn check_against_spans(path: &Path, text: &str, totals: &mut (usize, usize)) {
    struct All<'ast>(Vec<&'ast syn::Ident>);
    impl<'ast> Visit<'ast> for All<'ast> {
        fn visit_ident(&mut self, i: &'ast syn::Ident) {
            self.0.push(i);
        }
    }
    let Ok(src) = Source::parse(text) else {
        return;
    };
    let mut all = All(Vec::new());
    all.visit_file(&src);
    for ident in all.0 {
        if let Some(mine) = src.pos_of(ident) {
            let real = ident.span().start();
            assert_eq!(
                (mine.line, mine.column),
                (real.line, real.column),
                "{}: `{ident}`",
                path.display()
            );
        }
    }
    // Every identifier written in the text has a position (syn's second
    // copies, as of `x` in `S { x }`, need none).
    for ident in super::align::in_source_order(&src) {
        if super::align::skipped(&ident.to_string()) {
            continue;
        }
        totals.0 += 1;
        if src.pos_of(ident).is_some() {
            totals.1 += 1;
        } else if std::env::var_os("SHOW_UNPLACED").is_some() {
            eprintln!(
                "UNPLACED {} {ident} {:?}",
                path.display(),
                ident.span().start()
            );
        }
    }
}

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>, depth: usize) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = e.file_name();
        if p.is_dir() && depth < 12 && name != "target" && name != ".git" {
            rs_files(&p, out, depth + 1);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn every_identifier_of_real_code_is_where_its_span_says() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    rs_files(&workspace, &mut files, 0);
    let shared = workspace.join("../shared/rmcp-servers");
    if shared.is_dir() {
        rs_files(&shared, &mut files, 0);
    } else if std::env::var_os("CI").is_some() {
        panic!("{} is missing, and CI is set", shared.display());
    } else {
        eprintln!("SKIPPED (part): {} is missing", shared.display());
    }
    assert!(files.len() > 50, "{} files", files.len());
    let mut totals = (0, 0);
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        check_against_spans(f, &text, &mut totals);
    }
    // Nearly every identifier is placed (the rest: syn's verbatim items).
    assert!(
        totals.1 * 1000 >= totals.0 * 999,
        "{} of {} identifiers placed",
        totals.1,
        totals.0
    );
}
