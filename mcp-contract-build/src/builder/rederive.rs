//! The re-derivation path of [`Builder::build`]: after an edit that changes
//! what some tools derive (a field renamed, a doc comment), derive only
//! those tools, parsing only the files that changed and the files their
//! derivation reads, and splice their parts into the cached run's outputs
//! ([`cache::partial`]).
//!
//! The type index comes from the names the cache kept per file
//! ([`crate::derive::FileNames`]): every changed file kept its structure
//! ([`cache::fast::walk`]), so every path resolves as it did, and an item
//! is parsed only when a derivation reads it. Taken only where the cached
//! run's output was a function of its tools, tool by tool
//! ([`cache::BuildCache::by_tool`]), in update mode, with the lockfile and
//! `OUT_DIR` files as that run left them. Anything unexpected (a
//! derivation error, a type of another crate reached, a tool renamed, an
//! item a prompt reads, a file that changed while being read) leaves the
//! decision to the full step, which reports errors as usual.

use std::collections::BTreeMap;
use std::path::Path;

use mcp_contract::Surface;
use mcp_contract_syntax::{is_tool_attr, tool_def_from_attr};

use super::{cached_roots, save_cache_encoded, Builder, Built, Saved, Setup, MAX_COMPARED};
use crate::cache::{self, CachedTool, RootCache};
use crate::compat;
use crate::derive::TypeIndex;
use crate::discover::FoundTool;
use crate::error::Error;
use crate::mode::Mode;
use crate::outputs;
use crate::rmcp::discover::find_rmcp_tool_in_item;
use crate::rmcp::{FoundRmcpTool, ToolFields};
use crate::surface::{add_rmcp_tools_cached, add_tools_cached};

impl Builder {
    /// The build when only some tools derive differently (see the module
    /// docs); `None` when the full step must decide.
    /// `walked`: every root's walk ([`Builder::try_unchanged`]).
    pub(super) fn try_rederive(
        &self,
        setup: &Setup,
        walked: Vec<cache::fast::Walked>,
    ) -> Result<Option<Built>, Error> {
        let (Some(out), Some(cached)) = (&setup.out_dir, &setup.cached) else {
            return Ok(None);
        };
        if !cached.by_tool
            || setup.decision.mode != Mode::Update
            || cached.roots.len() != setup.roots.len()
            || walked.len() != setup.roots.len()
            || cache::output_stamps(out) != cached.outputs
        {
            return Ok(None);
        }
        // The lockfile the cached run left: by its stamp, else by its bytes.
        let Some(lockfile) = std::fs::read_to_string(&setup.lock_path)
            .ok()
            .filter(|text| cached.left_lockfile(&setup.lock_path, text))
        else {
            return Ok(None);
        };
        let record = compat::read_record(&setup.record_path)?;
        if !record.entries.is_empty() {
            return Ok(None);
        }
        let fields = super::parse_fields(
            &self.tool_fields,
            "tool_field",
            crate::rmcp::surface::TOOL_FIELD_KEYS,
        )?;
        let mut roots = Vec::new();
        let mut sources = outputs::Sources::default();
        let mut surface = Surface::new();
        let mut rederived: Vec<String> = Vec::new();
        let mut found = Vec::new();
        for (rc, walked) in cached.roots.iter().zip(walked) {
            // An item a prompt's derivation read changed: the prompts may
            // change, and they are rendered as a whole.
            if rc.whole
                || rc.files.len() != rc.walked
                || rc.prompt_deps.iter().any(|d| walked.changed.contains(d))
            {
                return Ok(None);
            }
            let affected: Vec<usize> = (0..rc.tools.len())
                .filter(|&n| rc.tools[n].deps.iter().any(|d| walked.changed.contains(d)))
                .collect();
            if rederived.len() + affected.len() > MAX_COMPARED {
                return Ok(None);
            }
            let Some((root_now, read, tools)) = derive_again(
                &setup.manifest_dir,
                walked,
                &affected,
                &fields,
                &mut surface,
                &mut rederived,
            ) else {
                return Ok(None);
            };
            for path in read {
                sources.add(path);
            }
            roots.push(root_now);
            found.extend(tools);
        }
        if rederived.is_empty() {
            return Ok(None);
        }
        // The record's checks on the tools (an alias needs its rename): a
        // problem, or anything the record would change, is the full step's.
        let derived = surface.clone();
        if compat::apply(&mut surface, &record, &found.iter().collect::<Vec<_>>()).is_err()
            || surface != derived
        {
            return Ok(None);
        }
        let Some(patched) = cache::partial::patch(out, &lockfile, &surface, &record, &rederived)
        else {
            return Ok(None);
        };
        self.print_before_sync(sources.as_slice(), &setup.lock_path, &record);
        let key = &setup.cache_key;
        let (outcome, lockfile_hash, roots) =
            patched.write(out, &setup.lock_path, &setup.shown, || {
                key.is_some().then(|| cached_roots(out, roots, &surface))
            })?;
        self.print_after_sync(setup, &outcome);
        let saved = Saved {
            lockfile: lockfile_hash,
            outcome: &outcome,
            lock_path: &setup.lock_path,
            by_tool: true,
            prompts: &cached.prompts,
            prune: false,
        };
        if let (Some(key), Some(roots)) = (key, roots) {
            save_cache_encoded(out, key, roots, saved);
        }
        Ok(Some(Built {
            outcome,
            full: false,
            affected: rederived,
            spliced: true,
        }))
    }
}

/// Derives the `affected` tools of one walked root into `surface` (their
/// names into `names`); returns the root's new cache entry (those tools
/// with their new dependencies, to get files when saved), the files read
/// and the tools as discovery finds them. `None` when the full step must
/// decide.
fn derive_again(
    manifest_dir: &Path,
    walked: cache::fast::Walked,
    affected: &[usize],
    fields: &ToolFields,
    surface: &mut Surface,
    names: &mut Vec<String>,
) -> Option<(RootCache, Vec<std::path::PathBuf>, Vec<FoundTool>)> {
    let cache::fast::Walked {
        mut root,
        sources,
        parsed,
        ..
    } = walked;
    let files = root
        .files
        .iter()
        .map(|f| {
            Some((
                f.path.clone(),
                manifest_dir.join(&f.path),
                f.facts.content.clone(),
                f.module.clone(),
                cache::format::decode_names(f.names.as_deref()?)?,
            ))
        })
        .collect::<Option<Vec<_>>>()?;
    let index = TypeIndex::from_names(files, parsed);
    let mut found = Vec::new();
    for &n in affected {
        let cached = &root.tools[n];
        let mut recorded = Vec::new();
        if cached.rmcp {
            let tool = found_rmcp_tool(&index, &root, cached)?;
            add_rmcp_tools_cached(
                surface,
                &mut BTreeMap::new(),
                &index,
                manifest_dir,
                &[tool],
                fields,
                None,
                &mut recorded,
            )
            .ok()?;
        } else {
            let tool = found_tool(&index, &root, cached)?;
            add_tools_cached(
                surface,
                &mut BTreeMap::new(),
                &index,
                std::slice::from_ref(&tool),
                None,
                &mut recorded,
            )
            .ok()?;
            found.push(tool);
        }
        // The hash is empty: the tool gets its file when the cache is saved.
        root.tools[n] = recorded.pop()?;
        names.push(root.tools[n].name.clone());
    }
    if index.is_stale() || !index.take_wanted().is_empty() {
        return None;
    }
    Some((root, sources, found))
}

/// The rmcp `#[tool]` fn `cached` as discovery finds it, from its place
/// in the impl block or fn that declares it (kept as its doc item,
/// [`cache::facts::tool_doc_item`]); `None` when that is no longer there,
/// or is inside an inline module (the full step walks those).
fn found_rmcp_tool(
    index: &TypeIndex,
    root: &RootCache,
    cached: &CachedTool,
) -> Option<FoundRmcpTool> {
    let (file, path) = &cached.at;
    let [at] = path[..] else {
        return None;
    };
    let k = cached
        .deps
        .iter()
        .find_map(|(f, dep)| match cache::facts::tool_doc_place(dep) {
            Some((item, k)) if f == file && item == path.as_slice() => Some(k),
            _ => None,
        })?;
    let meta = root.files.get(*file)?;
    let item = index.item_at(*file, path)?;
    // Its name and features are structure, so they are still the cached
    // ones; checked all the same, as the splice keeps the manifest's
    // features as they were.
    find_rmcp_tool_in_item(
        &meta.path,
        index.source_of(*file),
        (item, at),
        k,
        &meta.module,
    )
    .ok()?
    .filter(|t| t.name == cached.name && t.features == cached.features)
}

/// The tool `cached` as discovery finds it, from its argument struct's
/// place; `None` when that is no longer a tool of the same name.
fn found_tool(index: &TypeIndex, root: &RootCache, cached: &CachedTool) -> Option<FoundTool> {
    let (file, path) = &cached.at;
    let meta = root.files.get(*file)?;
    let mut module = meta.module.clone();
    let (_, inner) = path.split_last()?;
    for depth in 1..=inner.len() {
        match index.item_at(*file, &path[..depth])? {
            syn::Item::Mod(m) => {
                let name = m.ident.to_string();
                module.push(name.trim_start_matches("r#").to_string());
            }
            _ => return None,
        }
    }
    let syn::Item::Struct(s) = index.item_at(*file, path)? else {
        return None;
    };
    let attr = s.attrs.iter().find(|a| is_tool_attr(a))?;
    let def = tool_def_from_attr(attr, s).ok()?;
    (def.name == cached.name).then(|| FoundTool {
        def,
        module,
        file: meta.path.clone(),
        line: index.line_in_file(*file, &s.ident),
    })
}
