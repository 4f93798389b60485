//! The build cache leaves an rmcp crate's output as it was after an edit
//! that keeps every file's *structure* and reaches no item the derivations
//! read. That is sound only if the structure covers everything rmcp tool
//! and prompt discovery reads. Checked on real servers nobody here wrote
//! (`../shared/rmcp-servers/`, read in place), every `.rs` file:
//! - every fn body (free fns, and methods of every impl, tool or not)
//!   replaced: the structure is unchanged, and discovery finds the same
//!   tools and prompts with the same attributes, docs, signatures,
//!   routers and features (only the line numbers may move);
//! - every `#[tool]` and `#[prompt]` fn's doc comment, attributes or
//!   signature changed (each fn one of the three, in turn): the structure
//!   changes, or for a `#[tool]` fn's doc comment (its description) the
//!   hash the cache keeps for that doc comment alone.
//!
//! Without `../shared` the test says so and passes; with `CI` set it fails.

use std::path::PathBuf;

use mcp_contract_build::cache::facts::is_tool_doc_item;
use mcp_contract_build::cache::{content_hash, facts};
use mcp_contract_build::derive::ModuleFile;
use mcp_contract_build::rmcp::{find_rmcp_prompts, find_rmcp_tools};
use mcp_contract_build::source::Source;
use quote::ToTokens;
use syn::visit_mut::VisitMut;

mod rmcp_servers_dir;
use rmcp_servers_dir::{rs_files, shared};

/// The file as printed from its syntax tree (so the original and the edited
/// file are compared through the same printer).
fn printed(file: &syn::File) -> String {
    file.to_token_stream().to_string()
}

/// `text` without the byte offsets `Debug` prints for spans (the test build
/// has proc-macro2's `span-locations`): an edit moves them.
fn without_spans(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("span: bytes(") {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        let end = after.find(')').map_or(after.len(), |e| e + 1);
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// The structure hash of `text`, and the hashes of its `#[tool]` fns'
/// doc comments.
fn structure_and_tool_docs(text: &str) -> String {
    let tree = syn::parse_file(text).expect("the edited file parses");
    let facts = facts(content_hash(text.as_bytes()), &tree);
    let docs: Vec<_> = facts
        .items
        .iter()
        .filter(|(path, _)| is_tool_doc_item(path))
        .collect();
    format!("{} {docs:?}", facts.structure)
}

/// Structure hash, and what discovery finds (line numbers and span
/// offsets blanked).
fn observe(text: &str) -> Option<(String, String)> {
    let source = Source::parse(text.to_string()).ok()?;
    let structure = structure_and_tool_docs(text);
    let files: Vec<ModuleFile> = vec![(PathBuf::from("f.rs"), source, vec![])];
    let tools = listed(find_rmcp_tools(&files), |t| t.line = 0);
    let prompts = listed(find_rmcp_prompts(&files), |p| p.line = 0);
    Some((structure, format!("{tools:?}\n{prompts:?}")))
}

/// What discovery found, each with its line blanked (`blank`) and without
/// span offsets; or its error.
fn listed<T: std::fmt::Debug, E: std::fmt::Display>(
    found: Result<Vec<T>, E>,
    blank: impl Fn(&mut T),
) -> Result<Vec<String>, String> {
    let found = found.map_err(|e| e.to_string())?;
    Ok(found
        .into_iter()
        .map(|mut t| {
            blank(&mut t);
            without_spans(&format!("{t:?}"))
        })
        .collect())
}

/// Replaces every fn body with one that differs from all of them.
struct NewBodies;

impl VisitMut for NewBodies {
    fn visit_item_fn_mut(&mut self, f: &mut syn::ItemFn) {
        *f.block = syn::parse_quote!({ mcp_contract_edited() });
        syn::visit_mut::visit_item_fn_mut(self, f);
    }
    fn visit_impl_item_fn_mut(&mut self, f: &mut syn::ImplItemFn) {
        f.block = syn::parse_quote!({ mcp_contract_edited() });
    }
}

/// Whether `attrs` mark an rmcp tool or prompt.
fn is_rmcp(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path()
            .segments
            .last()
            .is_some_and(|s| s.ident == "tool" || s.ident == "prompt")
    })
}

/// The `n`-th rmcp fn (free or in an impl, anywhere in the file), changed
/// by `edit`; counts them in `seen`.
struct EditRmcpFn<'a> {
    n: usize,
    seen: usize,
    edit: &'a FnEdit,
}

/// An edit of a fn's attributes or signature.
type FnEdit = dyn Fn(&mut Vec<syn::Attribute>, &mut syn::Signature);

impl EditRmcpFn<'_> {
    fn visit(&mut self, attrs: &mut Vec<syn::Attribute>, sig: &mut syn::Signature) {
        if is_rmcp(attrs) {
            if self.seen == self.n {
                (self.edit)(attrs, sig);
            }
            self.seen += 1;
        }
    }
}

impl VisitMut for EditRmcpFn<'_> {
    fn visit_item_fn_mut(&mut self, f: &mut syn::ItemFn) {
        self.visit(&mut f.attrs, &mut f.sig);
        syn::visit_mut::visit_item_fn_mut(self, f);
    }
    fn visit_impl_item_fn_mut(&mut self, f: &mut syn::ImplItemFn) {
        self.visit(&mut f.attrs, &mut f.sig);
    }
}

#[test]
fn the_structure_covers_what_rmcp_discovery_reads_on_real_servers() {
    let Some(dir) = shared() else { return };
    let mut files = Vec::new();
    rs_files(&dir, &mut files);
    let edits: [(&str, &FnEdit); 3] = [
        ("doc comment", &|attrs, _| {
            attrs.push(syn::parse_quote!(#[doc = " One more line."]))
        }),
        ("attribute", &|attrs, _| {
            attrs.push(syn::parse_quote!(#[cfg(feature = "mcp-contract-edited")]))
        }),
        ("signature", &|_, sig| {
            sig.inputs.push(syn::parse_quote!(mcp_contract_edited: u8))
        }),
    ];
    let (mut parsed, mut rmcp_fns, mut with_bodies) = (0, 0, 0);
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let Ok(tree) = syn::parse_file(&text) else {
            continue;
        };
        parsed += 1;
        let original = printed(&tree);
        let Some((structure, found)) = observe(&original) else {
            continue;
        };
        let mut edited = tree.clone();
        NewBodies.visit_file_mut(&mut edited);
        let edited = printed(&edited);
        if edited != original {
            with_bodies += 1;
        }
        let (structure2, found2) = observe(&edited).expect("the edited file parses");
        assert_eq!(
            structure,
            structure2,
            "{}: new fn bodies changed the structure",
            path.display()
        );
        assert_eq!(
            found,
            found2,
            "{}: same structure, but discovery found something else",
            path.display()
        );
        // Each rmcp fn gets one of the edits, in turn (every kind reaches
        // dozens of fns; all three on each would triple the test's time).
        for n in 0.. {
            let (what, edit) = edits[rmcp_fns % edits.len()];
            let mut e = EditRmcpFn { n, seen: 0, edit };
            let mut tree = tree.clone();
            e.visit_file_mut(&mut tree);
            if e.seen <= n {
                break;
            }
            assert_ne!(
                structure,
                structure_and_tool_docs(&printed(&tree)),
                "{}: the {what} of rmcp fn #{n} changed, the structure did not",
                path.display()
            );
            rmcp_fns += 1;
        }
    }
    eprintln!(
        "rmcp structure: {parsed} files parsed, {with_bodies} with fn bodies, {rmcp_fns} #[tool]/#[prompt] fns edited"
    );
    // The excerpts hold well over a hundred tools: the generator must reach them.
    assert!(
        parsed > 20 && rmcp_fns > 100,
        "{parsed} files, {rmcp_fns} rmcp fns"
    );
}
