//! The no-derivation path: walks a crate's module tree again, reading every
//! file but parsing only those whose bytes changed, and decides whether the
//! last run's output still holds. It does when every changed file keeps its
//! structure and module declarations (which covers all that rmcp tool and
//! prompt discovery reads: see [`super::facts`]) and no tool's or prompt's
//! derivation read one of its changed items. When some did, the
//! same walk tells which items changed, so only those tools are derived
//! again (the builder's re-derivation path).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::{changed_items, content_hash, facts, ItemRef, RootCache, Stamp};
use crate::derive::declared_children;

/// What walking a cached crate's module tree again found, when every file
/// kept its structure and module declarations.
pub struct Walked {
    /// The cached root with new stamps and facts for the changed files.
    pub root: RootCache,
    /// The absolute paths of every file read.
    pub sources: Vec<PathBuf>,
    /// Every item whose hash changed.
    pub changed: BTreeSet<ItemRef>,
    /// The files whose bytes changed, parsed, by file index.
    pub parsed: BTreeMap<usize, crate::source::Source>,
}

/// Walks `cached`'s module tree again (see [`Walked`]); `None` when a
/// file's structure or module declarations changed, or a file of another
/// crate the derivation read changed.
pub fn walk(cached: &RootCache, manifest_dir: &Path) -> Option<Walked> {
    let mut updated = cached.clone();
    let mut changed = BTreeSet::new();
    let mut parsed = BTreeMap::new();
    let mut pending = vec![(manifest_dir.join(&cached.root), Vec::<String>::new())];
    let mut n = 0;
    while let Some((path, module)) = pending.pop() {
        if n >= cached.walked {
            return None;
        }
        let file = &cached.files[n];
        let display = path
            .strip_prefix(manifest_dir)
            .map(Path::to_path_buf)
            .unwrap_or_else(|_| path.clone());
        if file.path != display || file.module != module {
            return None;
        }
        let (bytes, hash) = if file.stamp.holds(&path) {
            (Vec::new(), file.facts.content.clone())
        } else {
            let bytes = std::fs::read(&path).ok()?;
            let hash = content_hash(&bytes);
            updated.files[n].stamp = Stamp::of(&path)?;
            (bytes, hash)
        };
        let children = if hash == file.facts.content {
            // A `mod x;` found as `x/mod.rs`: still so only while `x.rs` is absent.
            for (child, child_module, is_mod_rs) in &file.children {
                if *is_mod_rs {
                    let dir = child.parent()?.parent()?;
                    if dir.join(format!("{}.rs", child_module.last()?)).is_file() {
                        return None;
                    }
                }
            }
            file.children.clone()
        } else {
            if cached.whole {
                return None;
            }
            let text = String::from_utf8(bytes).ok()?;
            let tree = crate::source::Source::parse(text).ok()?;
            let new = facts(hash, &tree);
            if new.structure != file.facts.structure {
                return None;
            }
            let children = declared_children(manifest_dir, &path, &module, &tree).ok()?;
            if children != file.children {
                return None;
            }
            changed_items(n, &file.facts, &new, &mut changed);
            updated.files[n].facts = new;
            parsed.insert(n, tree);
            children
        };
        n += 1;
        pending.extend(children.into_iter().rev().map(|(p, m, _)| (p, m)));
    }
    if n != cached.walked {
        return None;
    }
    // Files of other crates the derivation read: unchanged, or the full step.
    for file in &cached.files[cached.walked..] {
        let path = manifest_dir.join(&file.path);
        if !file.stamp.holds(&path)
            && content_hash(&std::fs::read(&path).ok()?) != file.facts.content
        {
            return None;
        }
    }
    let sources = cached
        .files
        .iter()
        .map(|f| manifest_dir.join(&f.path))
        .collect();
    Some(Walked {
        root: updated,
        sources,
        changed,
        parsed,
    })
}
