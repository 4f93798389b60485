//! `TypeIndex`: every struct, enum, type alias, const and fn of a crate, by
//! module, with the `use` declarations needed to resolve a path written in
//! any module (`use`, globs, `self::`, `super::`, `crate::`, inline `mod`).
//!
//! Other crates (workspace members, path and registry dependencies, a
//! binary's own library) join the index on demand: a path into a crate the
//! tool's crate depends on marks that crate as wanted; the build step parses
//! it and derives again ([`TypeIndex::take_wanted`], [`TypeIndex::load_crate`]),
//! so only the crates that define a reached type are ever read. A loaded
//! crate's modules sit under one root segment of their own (`::name#i`), so
//! `crate::` and its `use` declarations resolve inside it.

use std::cell::{Cell, OnceCell, RefCell};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};

use super::error::DeriveError;
use super::files::{module_files_of_dependency, ModuleFile};
use crate::metadata::CrateSource;
use crate::source::{Anchor, Source};

/// An item by (file index, item path through inline modules): what the
/// build cache records a derivation as having read.
pub type ItemRef = (usize, Vec<usize>);

/// Where an item lives: file index, then the indices through nested inline
/// `mod { .. }` blocks down to the item itself.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct ItemLoc {
    pub file: usize,
    pub path: Vec<usize>,
    pub module: Vec<String>,
}

/// What a path names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Target {
    /// An item of this crate.
    Local(ItemLoc),
    /// A path into another crate (or the prelude when it has one segment).
    External(Vec<String>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ns {
    Type,
    Value,
}

#[derive(Default)]
struct Scope {
    file: usize,
    types: HashMap<String, ItemLoc>,
    values: HashMap<String, ItemLoc>,
    children: HashSet<String>,
    uses: Vec<(String, Vec<String>)>,
    globs: Vec<Vec<String>>,
}

/// One file of the index: parsed when it was indexed, or (an index built
/// from the build cache's [`FileNames`]) the first time one of its items
/// is read.
struct IndexFile {
    path: PathBuf,
    module: Vec<String>,
    syntax: OnceCell<Source>,
    /// Where to parse it from, and the content hash it must still have.
    source: Option<(PathBuf, String)>,
}

/// Every type-like item of a crate with its module path, file and line.
pub struct TypeIndex {
    files: Vec<IndexFile>,
    /// What each file contributed to `scopes` and `impls`, by file index.
    names: Vec<FileNames>,
    /// Set when a lazily parsed file no longer had its cached content (or
    /// an item path did not lead to an item): what was derived from this
    /// index is not to be used.
    stale: Cell<bool>,
    /// Read in place of an item that is not there (see `stale`).
    missing: syn::Item,
    scopes: HashMap<Vec<String>, Scope>,
    impls: Vec<(ItemLoc, ImplHead)>,
    /// Every crate that may be loaded (from `cargo metadata`).
    crates: Vec<CrateSource>,
    /// The crates the indexed crate names: `extern` name → index into `crates`.
    deps: BTreeMap<String, usize>,
    /// Crates already loaded, by index, with their root segment.
    loaded: BTreeMap<usize, String>,
    /// Crates a path reached that are not loaded yet.
    wanted: RefCell<BTreeSet<usize>>,
    /// While tracking ([`TypeIndex::track`]): every item a derivation read,
    /// as (file index, item path). The build step's cache re-derives a tool
    /// only when one of these items changed.
    touched: RefCell<Option<BTreeSet<ItemRef>>>,
}

const MAX_DEPTH: usize = 24;

impl TypeIndex {
    /// Indexes `files`: (display path relative to the package root, parsed
    /// file, module path such as `["tools", "search"]`). Inline `mod x { .. }`
    /// items are walked too.
    pub fn new(files: Vec<ModuleFile>) -> Self {
        let mut index = TypeIndex::empty();
        index.add_files(files);
        index
    }

    fn empty() -> Self {
        TypeIndex {
            files: Vec::new(),
            names: Vec::new(),
            stale: Cell::new(false),
            missing: syn::Item::Verbatim(proc_macro2::TokenStream::new()),
            scopes: HashMap::new(),
            impls: Vec::new(),
            crates: Vec::new(),
            deps: BTreeMap::new(),
            loaded: BTreeMap::new(),
            wanted: RefCell::new(BTreeSet::new()),
            touched: RefCell::new(None),
        }
    }

    /// An index of one crate's files as the build cache remembers them:
    /// `(display path, absolute path, content hash, module, names)`, each
    /// parsed only when an item of it is read; `parsed` gives files already
    /// parsed, by position. A file whose content changed since is not
    /// trusted: [`TypeIndex::is_stale`] tells.
    pub fn from_names(
        files: Vec<(PathBuf, PathBuf, String, Vec<String>, FileNames)>,
        mut parsed: BTreeMap<usize, Source>,
    ) -> Self {
        let mut index = TypeIndex::empty();
        for (f, (path, abs, content, module, names)) in files.into_iter().enumerate() {
            let syntax = OnceCell::new();
            if let Some(file) = parsed.remove(&f) {
                let _ = syntax.set(file);
            }
            index.files.push(IndexFile {
                path,
                module,
                syntax,
                source: Some((abs, content)),
            });
            index.file_module_child(f);
            index.absorb(names.located(f));
            index.names.push(names);
        }
        index
    }

    /// Whether a lazily parsed file had changed (see [`TypeIndex::from_names`]).
    pub fn is_stale(&self) -> bool {
        self.stale.get()
    }

    /// What file `f` contributed to the index (for the build cache).
    pub fn names_of(&self, f: usize) -> Option<&FileNames> {
        self.names.get(f)
    }

    /// The syntax tree of file `f`, parsing it now if it was indexed from
    /// the cache.
    fn syntax(&self, f: usize) -> &Source {
        let file = &self.files[f];
        file.syntax.get_or_init(|| {
            let parsed = file.source.as_ref().and_then(|(abs, content)| {
                let bytes = std::fs::read(abs).ok()?;
                if &crate::cache::content_hash(&bytes) != content {
                    return None;
                }
                Source::parse(String::from_utf8(bytes).ok()?).ok()
            });
            parsed.unwrap_or_else(|| {
                self.stale.set(true);
                Source::empty()
            })
        })
    }

    /// Lets paths into other crates resolve: `deps` are the crates the
    /// indexed crate names (`extern` name → index into `crates`).
    pub fn with_crates(mut self, deps: BTreeMap<String, usize>, crates: Vec<CrateSource>) -> Self {
        self.deps = deps;
        self.crates = crates;
        self
    }

    /// The crates a derivation reached but that are not loaded yet (emptied).
    pub fn take_wanted(&self) -> Vec<usize> {
        std::mem::take(&mut *self.wanted.borrow_mut())
            .into_iter()
            .collect()
    }

    /// The crate at `i` (of those given to [`with_crates`](Self::with_crates)).
    pub fn crate_source(&self, i: usize) -> Option<&CrateSource> {
        self.crates.get(i)
    }

    /// Parses crate `i` and adds its items (display paths relative to `package_root`).
    pub fn load_crate(&mut self, i: usize, package_root: &Path) -> Result<(), DeriveError> {
        if self.loaded.contains_key(&i) || i >= self.crates.len() {
            return Ok(());
        }
        let files = module_files_of_dependency(package_root, &self.crates[i].root)?;
        self.add_crate_files(i, files);
        Ok(())
    }

    /// Adds crate `i` from files already parsed, with module paths relative
    /// to that crate's root (what [`load_crate`](Self::load_crate) reads from
    /// its `lib.rs`; source excerpts that are not buildable give them by
    /// path convention instead).
    pub fn add_crate_files(&mut self, i: usize, files: Vec<ModuleFile>) {
        if self.loaded.contains_key(&i) {
            return;
        }
        let Some(c) = self.crates.get(i) else {
            return;
        };
        let root_seg = format!("::{}#{i}", c.name);
        let files = files
            .into_iter()
            .map(|(path, file, module)| {
                let mut m = vec![root_seg.clone()];
                m.extend(module);
                (path, file, m)
            })
            .collect();
        self.loaded.insert(i, root_seg);
        self.add_files(files);
    }

    fn add_files(&mut self, files: Vec<ModuleFile>) {
        for (path, file, module) in files {
            let f = self.files.len();
            let mut names = FileNames::default();
            collect(&file.items, &[], &module, &mut names);
            self.files.push(IndexFile {
                path,
                module,
                syntax: OnceCell::from(file),
                source: None,
            });
            self.file_module_child(f);
            self.absorb(names.located(f));
            self.names.push(names);
        }
    }

    /// A module file is a child of its parent module.
    fn file_module_child(&mut self, f: usize) {
        let module = &self.files[f].module;
        if let Some((last, parent)) = module.split_last().filter(|(l, _)| !l.starts_with("::")) {
            let (last, parent) = (last.clone(), parent.to_vec());
            self.scopes.entry(parent).or_default().children.insert(last);
        }
    }

    /// The root module of the crate `module` belongs to.
    fn crate_root(module: &[String]) -> Vec<String> {
        match module.first() {
            Some(first) if first.starts_with("::") => vec![first.clone()],
            _ => Vec::new(),
        }
    }

    /// The crates the crate of `module` names.
    fn deps_of(&self, module: &[String]) -> Option<&BTreeMap<String, usize>> {
        match module.first() {
            Some(first) if first.starts_with("::") => {
                let (_, i) = first.rsplit_once('#')?;
                Some(&self.crates.get(i.parse::<usize>().ok()?)?.deps)
            }
            _ => Some(&self.deps),
        }
    }

    /// A path that starts with a crate name (`shared::Geo`), written in
    /// `module`. A type schemars itself knows stays external; a crate not
    /// loaded yet is marked wanted.
    fn extern_path(&self, module: &[String], segs: &[String], ns: Ns, depth: usize) -> Target {
        let external = Target::External(segs.to_vec());
        if segs.len() < 2 || super::builtin::known(segs).is_some() {
            return external;
        }
        let Some(&i) = self.deps_of(module).and_then(|d| d.get(&segs[0])) else {
            return external;
        };
        match self.loaded.get(&i) {
            Some(root) => self
                .lookup_in(std::slice::from_ref(root), &segs[1..], ns, depth + 1)
                .unwrap_or(external),
            None => {
                self.wanted.borrow_mut().insert(i);
                external
            }
        }
    }

    /// Resolves a path written with a leading `::` (always a crate name).
    pub(crate) fn resolve_absolute(&self, module: &[String], segs: &[String], ns: Ns) -> Target {
        self.extern_path(module, segs, ns, 0)
    }

    fn absorb(&mut self, c: Collected) {
        for (module, file) in c.scopes {
            self.scopes.entry(module).or_default().file = file;
        }
        for (module, name) in c.children {
            self.scopes.entry(module).or_default().children.insert(name);
        }
        for (module, name, loc, ns) in c.items {
            let scope = self.scopes.entry(module).or_default();
            match ns {
                Ns::Type => scope.types.insert(name, loc),
                Ns::Value => scope.values.insert(name, loc),
            };
        }
        for (module, name, path) in c.uses {
            self.scopes
                .entry(module)
                .or_default()
                .uses
                .push((name, path));
        }
        for (module, path) in c.globs {
            self.scopes.entry(module).or_default().globs.push(path);
        }
        self.impls.extend(c.impls);
    }

    /// The files this index was built from, in the order given: (display
    /// path, syntax tree, module path). Files indexed from the cache are
    /// parsed now.
    /// The index of the file shown as `path` (no file is parsed).
    pub fn file_index(&self, path: &Path) -> Option<usize> {
        self.files.iter().position(|f| f.path == path)
    }

    /// File `f`'s syntax (parsed now when the index was built from names).
    pub fn source_of(&self, f: usize) -> &Source {
        self.syntax(f)
    }

    pub fn files(&self) -> Vec<(&Path, &Source, &[String])> {
        (0..self.files.len())
            .map(|f| {
                let file = &self.files[f];
                (file.path.as_path(), self.syntax(f), file.module.as_slice())
            })
            .collect()
    }

    /// The 1-based line of `node`, an item of file `f` (0 when it is not).
    pub(crate) fn line_in_file(&self, f: usize, node: &(impl Anchor + ?Sized)) -> usize {
        if f >= self.files.len() {
            return 0;
        }
        self.syntax(f).line_of(node)
    }

    /// The 1-based line of `node`, written in `file` (display path), 0 when
    /// it is not found there (e.g. a type parsed from an attribute string).
    pub(crate) fn line_in(&self, file: &Path, node: &(impl Anchor + ?Sized)) -> usize {
        self.files
            .iter()
            .filter(|f| f.path == file)
            .filter_map(|f| f.syntax.get())
            .map(|s| s.line_of(node))
            .find(|&l| l > 0)
            .unwrap_or(0)
    }

    /// How many files the index holds.
    pub fn file_count(&self) -> usize {
        self.files.len()
    }

    /// The file (relative to the package root) that holds `module`.
    pub fn module_file(&self, module: &[String]) -> Option<&Path> {
        let scope = self.scopes.get(module)?;
        Some(self.files[scope.file].path.as_path())
    }

    /// Number of structs, enums and type aliases indexed.
    pub fn type_count(&self) -> usize {
        self.scopes.values().map(|s| s.types.len()).sum()
    }

    pub(crate) fn file_of(&self, loc: &ItemLoc) -> &Path {
        self.files[loc.file].path.as_path()
    }

    /// Starts recording every item read (see [`TypeIndex::take_touched`]).
    pub fn track(&self) {
        *self.touched.borrow_mut() = Some(BTreeSet::new());
    }

    /// The items read since [`TypeIndex::track`], as (file index, item
    /// path through inline modules); stops recording.
    pub fn take_touched(&self) -> BTreeSet<ItemRef> {
        self.touched.borrow_mut().take().unwrap_or_default()
    }

    /// Where the type `name` declared in `module` is (file index, item path).
    pub fn type_loc(&self, module: &[String], name: &str) -> Option<ItemRef> {
        let loc = self.scopes.get(module)?.types.get(name)?;
        Some((loc.file, loc.path.clone()))
    }

    fn touch(&self, loc: &ItemLoc) {
        if let Some(set) = self.touched.borrow_mut().as_mut() {
            set.insert((loc.file, loc.path.clone()));
        }
    }

    pub(crate) fn item(&self, loc: &ItemLoc) -> &syn::Item {
        self.touch(loc);
        self.item_untracked(loc)
    }

    /// [`TypeIndex::item`] without recording it: for scans whose outcome
    /// depends only on what the file's structure digest covers (impl headers).
    fn item_untracked(&self, loc: &ItemLoc) -> &syn::Item {
        self.item_at(loc.file, &loc.path).unwrap_or_else(|| {
            self.stale.set(true);
            &self.missing
        })
    }

    /// The item at `path` (through inline modules) of file `file`.
    pub fn item_at(&self, file: usize, path: &[usize]) -> Option<&syn::Item> {
        if file >= self.files.len() {
            return None;
        }
        let mut items: &[syn::Item] = &self.syntax(file).items;
        let (last, inner) = path.split_last()?;
        for &i in inner {
            match items.get(i)? {
                syn::Item::Mod(m) => items = &m.content.as_ref()?.1,
                _ => return None,
            }
        }
        items.get(*last)
    }

    /// Every `impl Trait for X` in the crate where the trait's last segment is `trait_name`
    /// and `X` resolves to `target`.
    pub(crate) fn trait_impl(&self, target: &ItemLoc, trait_name: &str) -> Option<&syn::ItemImpl> {
        self.trait_impl_with_loc(target, trait_name)
            .map(|(imp, _)| imp)
    }

    /// [`trait_impl`](Self::trait_impl), with where the impl is written.
    pub(crate) fn trait_impl_with_loc(
        &self,
        target: &ItemLoc,
        trait_name: &str,
    ) -> Option<(&syn::ItemImpl, &ItemLoc)> {
        self.impls.iter().find_map(|(loc, head)| {
            if head.trait_last.as_deref() != Some(trait_name) {
                return None;
            }
            let segs = head.self_path.as_ref()?;
            match self.resolve(&loc.module, segs, Ns::Type) {
                Some(Target::Local(l)) if &l == target => {
                    let syn::Item::Impl(imp) = self.item_untracked(loc) else {
                        return None;
                    };
                    self.touch(loc);
                    Some((imp, loc))
                }
                _ => None,
            }
        })
    }

    /// `impl X { fn name(..) -> .. }`: an inherent function of `target`
    /// taking `arity` arguments, with where its impl is written.
    pub(crate) fn inherent_fn(
        &self,
        target: &ItemLoc,
        name: &str,
        arity: usize,
    ) -> Option<(&syn::ImplItemFn, &ItemLoc)> {
        self.impls.iter().find_map(|(loc, head)| {
            if head.trait_last.is_some() {
                return None;
            }
            let segs = head.self_path.as_ref()?;
            match self.resolve(&loc.module, segs, Ns::Type) {
                Some(Target::Local(l)) if &l == target => {
                    let syn::Item::Impl(imp) = self.item_untracked(loc) else {
                        return None;
                    };
                    self.touch(loc);
                    imp.items.iter().find_map(|i| match i {
                        syn::ImplItem::Fn(f)
                            if f.sig.ident == name && f.sig.inputs.len() == arity =>
                        {
                            Some((f, loc))
                        }
                        _ => None,
                    })
                }
                _ => None,
            }
        })
    }

    /// Resolves `segs` written in `module`.
    pub(crate) fn resolve(&self, module: &[String], segs: &[String], ns: Ns) -> Option<Target> {
        self.resolve_at(module, segs, ns, 0)
    }

    fn resolve_at(
        &self,
        module: &[String],
        segs: &[String],
        ns: Ns,
        depth: usize,
    ) -> Option<Target> {
        if depth > MAX_DEPTH || segs.is_empty() {
            return None;
        }
        let first = segs[0].as_str();
        match first {
            "crate" => self.lookup_in(&Self::crate_root(module), &segs[1..], ns, depth + 1),
            "self" => self.lookup_in(module, &segs[1..], ns, depth + 1),
            "super" => {
                let mut m = module.to_vec();
                let mut i = 0;
                let root_len = Self::crate_root(module).len();
                while i < segs.len() && segs[i] == "super" {
                    if m.len() <= root_len {
                        return None;
                    }
                    m.pop();
                    i += 1;
                }
                self.lookup_in(&m, &segs[i..], ns, depth + 1)
            }
            _ => {
                if segs.len() == 1 {
                    return self
                        .lookup_name(module, first, ns, depth + 1)
                        .or_else(|| Some(Target::External(segs.to_vec())));
                }
                let scope = self.scopes.get(module);
                if scope.is_some_and(|s| s.children.contains(first)) {
                    let mut m = module.to_vec();
                    m.push(first.to_string());
                    return self.lookup_in(&m, &segs[1..], ns, depth + 1);
                }
                if let Some(scope) = scope {
                    for (name, path) in &scope.uses {
                        if name == first {
                            let mut full = path.clone();
                            full.extend_from_slice(&segs[1..]);
                            // A `use` path is resolved from the module it is written in.
                            return self.resolve_at(module, &full, ns, depth + 1);
                        }
                    }
                    for glob in &scope.globs {
                        let mut full = glob.clone();
                        full.extend_from_slice(segs);
                        if let Some(t @ Target::Local(_)) =
                            self.resolve_at(module, &full, ns, depth + 1)
                        {
                            return Some(t);
                        }
                    }
                }
                Some(self.extern_path(module, segs, ns, depth))
            }
        }
    }

    /// A path relative to `module` (no prelude, no extern crates).
    fn lookup_in(
        &self,
        module: &[String],
        rest: &[String],
        ns: Ns,
        depth: usize,
    ) -> Option<Target> {
        if depth > MAX_DEPTH || rest.is_empty() {
            return None;
        }
        if rest.len() == 1 {
            return self.lookup_name(module, &rest[0], ns, depth + 1);
        }
        let scope = self.scopes.get(module)?;
        if scope.children.contains(&rest[0]) {
            let mut m = module.to_vec();
            m.push(rest[0].clone());
            return self.lookup_in(&m, &rest[1..], ns, depth + 1);
        }
        for (name, path) in &scope.uses {
            if *name == rest[0] {
                let mut full = path.clone();
                full.extend_from_slice(&rest[1..]);
                return self.resolve_at(module, &full, ns, depth + 1);
            }
        }
        // A module brought in by a glob (`pub use other_crate::tools::*;`
        // then `tools::fork::Params`): a path into another crate marks that
        // crate wanted, and resolves once it is loaded.
        for glob in &scope.globs {
            let mut full = glob.clone();
            full.extend_from_slice(rest);
            if let Some(t @ Target::Local(_)) = self.resolve_at(module, &full, ns, depth + 1) {
                return Some(t);
            }
        }
        None
    }

    fn lookup_name(&self, module: &[String], name: &str, ns: Ns, depth: usize) -> Option<Target> {
        if depth > MAX_DEPTH {
            return None;
        }
        let scope = self.scopes.get(module)?;
        let own = match ns {
            Ns::Type => scope.types.get(name),
            Ns::Value => scope.values.get(name),
        };
        if let Some(loc) = own {
            return Some(Target::Local(loc.clone()));
        }
        for (alias, path) in &scope.uses {
            if alias == name {
                if let Some(t) = self.resolve_at(module, path, ns, depth + 1) {
                    return Some(t);
                }
            }
        }
        for glob in &scope.globs {
            let mut full = glob.clone();
            full.push(name.to_string());
            match self.resolve_at(module, &full, ns, depth + 1) {
                Some(t @ Target::Local(_)) => return Some(t),
                Some(Target::External(p)) if super::builtin::is_known_external(&p) => {
                    return Some(Target::External(p))
                }
                _ => {}
            }
        }
        None
    }
}

/// What one file contributes to a [`TypeIndex`], whatever its position
/// in it: what the build cache keeps so that a later build can index the
/// file without parsing it (see [`TypeIndex::from_names`]). Everything
/// here is read from the file's structure (names, `use` trees, impl
/// headers, module declarations), never from an item's contents.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileNames {
    /// The modules whose items the file holds (its own, then inline ones).
    pub scopes: Vec<Vec<String>>,
    /// `(module, name)` of every `mod name` item.
    pub children: Vec<(Vec<String>, String)>,
    /// `(module, name, item path, in the type namespace)`.
    pub items: Vec<(Vec<String>, String, Vec<usize>, bool)>,
    /// `(module, name, path)` of every name a `use` brings in.
    pub uses: Vec<(Vec<String>, String, Vec<String>)>,
    /// `(module, path)` of every `use path::*`.
    pub globs: Vec<(Vec<String>, Vec<String>)>,
    /// `(module, item path, header)` of every `impl`.
    pub impls: Vec<(Vec<String>, Vec<usize>, ImplHead)>,
}

/// What the index reads of an `impl` without its items.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImplHead {
    /// The last segment of the trait's path; `None` for an inherent impl.
    pub trait_last: Option<String>,
    /// The segments of the self type, when it is a path.
    pub self_path: Option<Vec<String>>,
}

impl FileNames {
    /// The entries, placed as file `file` of an index.
    fn located(&self, file: usize) -> Collected {
        let loc = |module: &[String], path: &[usize]| ItemLoc {
            file,
            path: path.to_vec(),
            module: module.to_vec(),
        };
        Collected {
            scopes: self.scopes.iter().map(|m| (m.clone(), file)).collect(),
            children: self.children.clone(),
            items: self
                .items
                .iter()
                .map(|(m, name, path, ty)| {
                    let ns = if *ty { Ns::Type } else { Ns::Value };
                    (m.clone(), name.clone(), loc(m, path), ns)
                })
                .collect(),
            uses: self.uses.clone(),
            globs: self.globs.clone(),
            impls: self
                .impls
                .iter()
                .map(|(m, path, head)| (loc(m, path), head.clone()))
                .collect(),
        }
    }
}

struct Collected {
    scopes: Vec<(Vec<String>, usize)>,
    children: Vec<(Vec<String>, String)>,
    items: Vec<(Vec<String>, String, ItemLoc, Ns)>,
    uses: Vec<(Vec<String>, String, Vec<String>)>,
    globs: Vec<(Vec<String>, Vec<String>)>,
    impls: Vec<(ItemLoc, ImplHead)>,
}

fn unraw(ident: &syn::Ident) -> String {
    let s = ident.to_string();
    s.strip_prefix("r#").map(str::to_string).unwrap_or(s)
}

fn impl_head(imp: &syn::ItemImpl) -> ImplHead {
    let trait_last = imp.trait_.as_ref().map(|(_, tr, _)| {
        tr.segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default()
    });
    let self_path = match imp.self_ty.as_ref() {
        syn::Type::Path(tp) => Some(
            tp.path
                .segments
                .iter()
                .map(|s| s.ident.to_string())
                .collect(),
        ),
        _ => None,
    };
    ImplHead {
        trait_last,
        self_path,
    }
}

fn collect(items: &[syn::Item], prefix: &[usize], module: &[String], out: &mut FileNames) {
    out.scopes.push(module.to_vec());
    for (i, item) in items.iter().enumerate() {
        let mut path = prefix.to_vec();
        path.push(i);
        let mut add = |name: &syn::Ident, ty: bool| {
            out.items
                .push((module.to_vec(), unraw(name), path.clone(), ty));
        };
        match item {
            syn::Item::Struct(s) => {
                add(&s.ident, true);
                if matches!(s.fields, syn::Fields::Unit | syn::Fields::Unnamed(_)) {
                    add(&s.ident, false);
                }
            }
            syn::Item::Enum(e) => add(&e.ident, true),
            syn::Item::Type(t) => add(&t.ident, true),
            syn::Item::Const(c) => add(&c.ident, false),
            syn::Item::Static(s) => add(&s.ident, false),
            syn::Item::Fn(f) => add(&f.sig.ident, false),
            syn::Item::Impl(imp) => out.impls.push((module.to_vec(), path, impl_head(imp))),
            syn::Item::Use(u) => flatten_use(&u.tree, &[], module, out),
            syn::Item::Mod(m) => {
                let name = unraw(&m.ident);
                out.children.push((module.to_vec(), name.clone()));
                if let Some((_, body)) = &m.content {
                    let mut child = module.to_vec();
                    child.push(name);
                    collect(body, &path, &child, out);
                }
            }
            _ => {}
        }
    }
}

fn flatten_use(tree: &syn::UseTree, prefix: &[String], module: &[String], out: &mut FileNames) {
    match tree {
        syn::UseTree::Path(p) => {
            let mut next = prefix.to_vec();
            next.push(unraw(&p.ident));
            flatten_use(&p.tree, &next, module, out);
        }
        syn::UseTree::Name(n) => {
            let name = unraw(&n.ident);
            if name == "self" {
                if let Some(last) = prefix.last() {
                    out.uses
                        .push((module.to_vec(), last.clone(), prefix.to_vec()));
                }
            } else {
                let mut path = prefix.to_vec();
                path.push(name.clone());
                out.uses.push((module.to_vec(), name, path));
            }
        }
        syn::UseTree::Rename(r) => {
            let alias = unraw(&r.rename);
            if alias == "_" {
                return;
            }
            let name = unraw(&r.ident);
            let path = if name == "self" {
                prefix.to_vec()
            } else {
                let mut p = prefix.to_vec();
                p.push(name);
                p
            };
            out.uses.push((module.to_vec(), alias, path));
        }
        syn::UseTree::Glob(_) => out.globs.push((module.to_vec(), prefix.to_vec())),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                flatten_use(t, prefix, module, out);
            }
        }
    }
}
