//! What the build step's cache remembers about one parsed source file, so a
//! later build can tell, after parsing only the files that changed, which
//! derivations a change can affect:
//!
//! - the *structure*: everything the type index, the module walk and tool
//!   discovery read without going through an item's contents (item kinds
//!   and names, `use` trees, impl headers, module declarations with their
//!   attributes, which structs carry `#[mcp_contract::tool]`, and all that
//!   rmcp tool and prompt discovery reads: the attributes and signature of
//!   every fn marked `#[tool]` or `#[prompt]`, and the attributes of impl
//!   blocks). When it is unchanged, every path resolves as before, every
//!   item keeps its place and every rmcp tool and prompt is found as before
//!   (a handler's body is not structure);
//! - one hash per item (inline modules included, by item path): a
//!   derivation depends on exactly the items it read
//!   ([`crate::derive::TypeIndex::take_touched`]), so a changed item that no
//!   tool read (a handler's body) re-derives nothing.

use std::collections::BTreeMap;

use quote::ToTokens;

/// The facts of one file (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FileFacts {
    /// Hash of the file's bytes.
    pub content: String,
    /// Hash of the structure description.
    pub structure: String,
    /// Hash of each item's tokens, by item path (indices through inline modules).
    pub items: BTreeMap<Vec<usize>, String>,
}

/// A 128-bit hash of `bytes`, as 32 hex digits: two lanes of FNV-1a over
/// 8-byte words with the length mixed in. Not cryptographic (the cache is
/// an optimization, and a change confined to one word always changes both
/// lanes), but fast in the unoptimized builds build scripts get, and the
/// same on every Rust version.
pub fn content_hash(bytes: &[u8]) -> String {
    let (a, b) = lanes(bytes);
    format!("{a:016x}{b:016x}")
}

/// The two lanes. The loop is written for opt-level 0, where every call
/// stays a call: plain indexing, casts and shifts compile to instructions,
/// while `chunks_exact`, `from_le_bytes` and `rotate_left` are calls per
/// word, which made this loop over 3× slower (`content_hash` of a
/// 484 KB lockfile: 2.2 ms against 0.6 ms, unoptimized; `rotate_left`
/// alone adds 0.2 ms). The words are little-endian and `w << 31 | w >> 33`
/// is `w.rotate_left(31)`: the values are what they were.
#[allow(clippy::manual_rotate)]
fn lanes(bytes: &[u8]) -> (u64, u64) {
    let (mut a, mut b) = (0xcbf2_9ce4_8422_2325u64, 0x6c62_272e_07bb_0142u64);
    let whole = bytes.len() / 8 * 8;
    let mut i = 0;
    while i < whole {
        let w = bytes[i] as u64
            | (bytes[i + 1] as u64) << 8
            | (bytes[i + 2] as u64) << 16
            | (bytes[i + 3] as u64) << 24
            | (bytes[i + 4] as u64) << 32
            | (bytes[i + 5] as u64) << 40
            | (bytes[i + 6] as u64) << 48
            | (bytes[i + 7] as u64) << 56;
        a = (a ^ w).wrapping_mul(0x0000_0100_0000_01b3);
        b = (b ^ (w << 31 | w >> 33)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        i += 8;
    }
    let mut tail = [0u8; 8];
    tail[..bytes.len() - whole].copy_from_slice(&bytes[whole..]);
    let w = u64::from_le_bytes(tail) ^ ((bytes.len() as u64) << 3);
    a = (a ^ w).wrapping_mul(0x0000_0100_0000_01b3);
    b = (b ^ w.rotate_left(31)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (a ^ (a >> 29), b ^ (b >> 32))
}

fn short_hash(text: &str) -> String {
    let (a, b) = lanes(text.as_bytes());
    format!("{:016x}", a ^ b.rotate_left(17))
}

/// The facts of `file`, whose bytes hash to `content`.
pub fn facts(content: String, file: &syn::File) -> FileFacts {
    let mut structure = String::new();
    let mut items = BTreeMap::new();
    describe(&file.items, &[], &mut structure, &mut items);
    FileFacts {
        content,
        structure: content_hash(structure.as_bytes()),
        items,
    }
}

fn tokens(t: &impl ToTokens) -> String {
    t.to_token_stream().to_string()
}

fn describe(
    items: &[syn::Item],
    prefix: &[usize],
    out: &mut String,
    hashes: &mut BTreeMap<Vec<usize>, String>,
) {
    use std::fmt::Write;
    for (i, item) in items.iter().enumerate() {
        let mut path = prefix.to_vec();
        path.push(i);
        hashes.insert(path.clone(), short_hash(&tokens(item)));
        let _ = write!(out, "{path:?} ");
        let _ = match item {
            syn::Item::Struct(s) => {
                let shape = match s.fields {
                    syn::Fields::Named(_) => "named",
                    syn::Fields::Unnamed(_) => "tuple",
                    syn::Fields::Unit => "unit",
                };
                let tool = s.attrs.iter().any(mcp_contract_syntax::is_tool_attr);
                writeln!(out, "struct {} {shape} tool={tool}", s.ident)
            }
            syn::Item::Enum(e) => writeln!(out, "enum {}", e.ident),
            syn::Item::Type(t) => writeln!(out, "type {}", t.ident),
            syn::Item::Const(c) => writeln!(out, "const {}", c.ident),
            syn::Item::Static(s) => writeln!(out, "static {}", s.ident),
            syn::Item::Fn(f) => {
                let rmcp = rmcp_fn(&f.attrs, &f.sig, || tool_doc_item(&path, 0), hashes);
                writeln!(out, "fn {}{rmcp}", f.sig.ident)
            }
            syn::Item::Impl(imp) => {
                let tr = imp
                    .trait_
                    .as_ref()
                    .map(|(bang, path, _)| format!("{} {}", bang.is_some(), tokens(path)))
                    .unwrap_or_default();
                let attrs: Vec<String> = imp.attrs.iter().map(tokens).collect();
                let _ = writeln!(
                    out,
                    "impl {} {tr} for {} {attrs:?}",
                    tokens(&imp.generics),
                    tokens(&imp.self_ty)
                );
                for (k, it) in imp.items.iter().enumerate() {
                    if let syn::ImplItem::Fn(f) = it {
                        let rmcp = rmcp_fn(&f.attrs, &f.sig, || tool_doc_item(&path, k), hashes);
                        if !rmcp.is_empty() {
                            let _ = writeln!(out, "  fn {}{rmcp}", f.sig.ident);
                        }
                    }
                }
                writeln!(out, "end impl")
            }
            syn::Item::Use(u) => writeln!(out, "use {}", tokens(u)),
            syn::Item::ExternCrate(x) => writeln!(out, "extern {}", tokens(x)),
            syn::Item::Mod(m) => {
                let attrs: Vec<String> = m.attrs.iter().map(tokens).collect();
                let _ = writeln!(out, "mod {} {attrs:?} {}", m.ident, m.content.is_some());
                if let Some((_, body)) = &m.content {
                    describe(body, &path, out, hashes);
                }
                writeln!(out, "end mod")
            }
            // Traits, unions, macros...: the index and discovery read none of
            // them, and their contents are in the item hash.
            _ => writeln!(out, "other"),
        };
    }
}

/// Where a `#[tool]` fn's doc comment is kept among the file's item hashes:
/// under the item that declares the fn (`item`: its impl block, or the free
/// fn itself), at `TOOL_DOC + k` for the impl's `k`-th item (0 for a free
/// fn). No real item has such a path (only inline modules nest items).
/// The doc comment is the tool's description and nothing else's, so it is
/// a dependency of that one tool rather than structure: editing it derives
/// that tool again.
pub fn tool_doc_item(item: &[usize], k: usize) -> Vec<usize> {
    let mut path = item.to_vec();
    path.push(TOOL_DOC + k);
    path
}

/// See [`tool_doc_item`].
const TOOL_DOC: usize = 1 << 24;

/// Whether `path` is a [`tool_doc_item`].
pub fn is_tool_doc_item(path: &[usize]) -> bool {
    path.last().is_some_and(|&i| i >= TOOL_DOC)
}

/// For a [`tool_doc_item`] `path`: the declaring item's path and the fn's
/// place `k` in it.
pub fn tool_doc_place(path: &[usize]) -> Option<(&[usize], usize)> {
    let (&last, item) = path.split_last()?;
    last.checked_sub(TOOL_DOC).map(|k| (item, k))
}

/// What rmcp discovery reads of a fn marked `#[tool]` or `#[prompt]`
/// ([`crate::rmcp::find_rmcp_tools`], [`crate::rmcp::find_rmcp_prompts`]):
/// its attributes (the macro's arguments, `#[cfg(feature = ...)]`, a
/// prompt's doc comment) and its signature (`Parameters<T>`, `Json<T>`),
/// as structure text; a `#[tool]` fn's doc comment goes apart, into
/// `hashes` at `doc_at()` (see [`tool_doc_item`]). Empty for any other fn,
/// whose attributes and signature no derivation reads.
fn rmcp_fn(
    attrs: &[syn::Attribute],
    sig: &syn::Signature,
    doc_at: impl FnOnce() -> Vec<usize>,
    hashes: &mut BTreeMap<Vec<usize>, String>,
) -> String {
    use crate::rmcp::attr::last_segment_is;
    let tool = attrs.iter().any(|a| last_segment_is(a, "tool"));
    if !tool && !attrs.iter().any(|a| last_segment_is(a, "prompt")) {
        return String::new();
    }
    let is_doc = |a: &&syn::Attribute| tool && a.path().is_ident("doc");
    if tool {
        let doc: Vec<String> = attrs.iter().filter(is_doc).map(tokens).collect();
        hashes.insert(doc_at(), short_hash(&format!("{doc:?}")));
    }
    let kept: Vec<String> = attrs.iter().filter(|a| !is_doc(a)).map(tokens).collect();
    format!(" rmcp {kept:?} {}", tokens(sig))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(src: &str) -> FileFacts {
        facts(content_hash(src.as_bytes()), &syn::parse_file(src).unwrap())
    }

    /// The hash is part of the cache format: values computed outside Rust
    /// (the same two lanes in Python), with and without a partial last word.
    #[test]
    fn content_hash_values_are_stable() {
        for (bytes, hash) in [
            (&b""[..], "af63bd49fd1c5dbb93159ee5c1128c8f"),
            (b"hello, world!", "dfdd95198aae3b8be68fca85260415b8"),
            (b"0123456789abcdef", "807c95116a2a0b04cf98aa48cc87a449"),
            (
                "tool \u{e9} \u{ff}\n".as_bytes(),
                "21d79c2142c8142a45577ed52dc50717",
            ),
        ] {
            assert_eq!(content_hash(bytes), hash, "{bytes:?}");
        }
    }

    #[test]
    fn a_body_edit_changes_one_item_and_not_the_structure() {
        let a = of("pub struct A { x: u8 }\nfn h() -> u8 { 1 }\nmod m { pub fn g() {} }\n");
        let b = of("pub struct A { x: u8 }\nfn h() -> u8 {\n  2\n}\nmod m { pub fn g() {} }\n");
        assert_ne!(a.content, b.content);
        assert_eq!(a.structure, b.structure);
        let changed: Vec<&Vec<usize>> = a
            .items
            .iter()
            .filter(|(k, v)| b.items.get(*k) != Some(*v))
            .map(|(k, _)| k)
            .collect();
        assert_eq!(changed, [&vec![1]]);
        assert!(a.items.contains_key(&vec![2, 0]));
    }

    #[test]
    fn names_uses_headers_and_tool_attributes_are_structure() {
        let base = of("use a::B;\nstruct S { x: u8 }\nimpl Default for S { fn default() -> Self { S { x: 1 } } }\n");
        for other in [
            "use a::C;\nstruct S { x: u8 }\nimpl Default for S { fn default() -> Self { S { x: 1 } } }\n",
            "use a::B;\nstruct T { x: u8 }\nimpl Default for S { fn default() -> Self { S { x: 1 } } }\n",
            "use a::B;\nstruct S { x: u8 }\nimpl Clone for S { fn default() -> Self { S { x: 1 } } }\n",
            "use a::B;\n#[mcp_contract::tool(name = \"s\")]\nstruct S { x: u8 }\nimpl Default for S { fn default() -> Self { S { x: 1 } } }\n",
        ] {
            assert_ne!(base.structure, of(other).structure, "{other}");
        }
        let same = of("use a::B;\nstruct S { y: u16 }\nimpl Default for S { fn default() -> Self { S { x: 2 } } }\n");
        assert_eq!(base.structure, same.structure);
    }

    #[test]
    fn what_rmcp_discovery_reads_is_structure_and_handler_bodies_are_not() {
        let base = "use rmcp::handler::server::wrapper::Parameters;\n\
                    #[tool_router]\nimpl S {\n    /// Echoes.\n    #[tool(annotations(read_only_hint = true))]\n    \
                    async fn echo(&self, Parameters(a): Parameters<A>) -> String { a.text }\n    \
                    fn helper(&self) -> u8 { 1 }\n}\n\
                    /// Free.\n#[tool]\nfn free() -> String { String::new() }\n\
                    #[prompt_router]\nimpl S {\n    #[prompt]\n    fn p(&self) -> Vec<u8> { vec![] }\n}\n";
        let facts = of(base);
        // Bodies, and a fn that is no tool: never structure.
        for same in [
            base.replace("{ a.text }", "{ a.text.to_uppercase() }"),
            base.replace("{ 1 }", "{ 2 }"),
            base.replace("fn helper(&self) -> u8", "fn helper(&self, x: u8) -> u8"),
            base.replace("{ String::new() }", "{ \"x\".into() }"),
            base.replace("{ vec![] }", "{ vec![1] }"),
        ] {
            assert_eq!(facts.structure, of(&same).structure, "{same}");
        }
        // A `#[tool]` fn's doc comment (its description): that tool's own
        // item, not structure.
        for (doc, at) in [
            (
                base.replace("/// Echoes.", "/// Echoes back."),
                tool_doc_item(&[1], 0),
            ),
            (
                base.replace("/// Free.", "/// Free text."),
                tool_doc_item(&[2], 0),
            ),
        ] {
            let edited = of(&doc);
            assert_eq!(facts.structure, edited.structure, "{doc}");
            assert_ne!(facts.items.get(&at), edited.items.get(&at), "{doc}");
            assert!(facts.items.contains_key(&at));
        }
        for other in [
            base.replace("read_only_hint = true", "read_only_hint = false"),
            base.replace("Parameters<A>", "Parameters<B>"),
            base.replace(") -> String { a.text }", ") -> Json<A> { a.text }"),
            base.replace(
                "async fn echo",
                "#[cfg(feature = \"x\")]\n    async fn echo",
            ),
            base.replace("#[tool_router]", "#[tool_router(router = r)]"),
            base.replace("    fn helper", "    #[tool]\n    fn helper"),
            base.replace("#[prompt]", "#[prompt(name = \"q\")]"),
            base.replace("    #[prompt]", "    /// Prompts.\n    #[prompt]"),
            base.replace("fn p(&self)", "fn p(&self, Parameters(x): Parameters<A>)"),
        ] {
            assert_ne!(facts.structure, of(&other).structure, "{other}");
        }
    }
}
