//! [`Builder`]: the build step's configuration and its one operation,
//! [`Builder::generate`]. Defaults come from the variables cargo sets for
//! build scripts (`CARGO_MANIFEST_DIR`, `OUT_DIR`, `CARGO_PKG_NAME`,
//! `CARGO_PKG_VERSION`, `CI`, `MCP_CONTRACT_LOCKED`), so `build.rs` is one line.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use mcp_contract::{lockfile, Surface};

use crate::cache;
use crate::compat;
use crate::derive::{declared_children, module_files, ModuleFile, TypeIndex};
use crate::discover::find_tools;
use crate::error::Error;
use crate::metadata::PackageInfo;
use crate::mode::{decide, Decision, Mode};
use crate::outputs::{self, LockOutcome};
use crate::surface::{add_rmcp_tools_cached, add_tools_cached};

mod rederive;

/// Configures and runs the snapshot (cbindgen style):
///
/// ```no_run
/// // in build.rs's `main`:
/// mcp_contract_build::Builder::new()
///     .lockfile("contracts/mcp-contract.lock")
///     .run();
/// ```
#[derive(Debug, Clone, Default)]
pub struct Builder {
    manifest_dir: Option<PathBuf>,
    crate_roots: Vec<PathBuf>,
    lockfile: Option<PathBuf>,
    out_dir: Option<PathBuf>,
    package: Option<String>,
    mode: Option<Mode>,
    quiet: bool,
    /// `(tool, published key, JSON text)` given with [`Builder::tool_field`].
    tool_fields: Vec<(String, String, String)>,
    /// `(prompt, published key, JSON text)` given with [`Builder::prompt_field`].
    prompt_fields: Vec<(String, String, String)>,
    no_cache: bool,
}

/// The most affected tools compared with their cached files to skip
/// rendering (see `generate_from`).
const MAX_COMPARED: usize = 16;

/// What every run works out first from the builder and the environment.
struct Setup {
    manifest_dir: PathBuf,
    package: String,
    decision: Decision,
    shown: PathBuf,
    lock_path: PathBuf,
    out_dir: Option<PathBuf>,
    info: Option<PackageInfo>,
    roots: Vec<(PathBuf, String)>,
    record_path: PathBuf,
    /// The cache key, when the cache is used (an `OUT_DIR`, not disabled).
    cache_key: Option<String>,
    /// The cache in `OUT_DIR`, when it has this key (read once per run).
    cached: Option<cache::BuildCache>,
}

/// The result of a successful [`Builder::generate`].
#[derive(Debug, Clone)]
pub struct Snapshot {
    /// Every tool found, as locked and published.
    pub surface: Surface,
    /// The lockfile (absolute path).
    pub lockfile: PathBuf,
    pub outcome: LockOutcome,
    pub mode: Mode,
    /// Every source file read (absolute paths).
    pub sources: Vec<PathBuf>,
    /// Every rmcp `#[tool]` found (see [`crate::rmcp`]).
    pub rmcp_tools: Vec<crate::rmcp::FoundRmcpTool>,
    /// The tools as rmcp derives them, before the record's transitions.
    pub derived: Surface,
    /// The tools (either form) whose derivation read an item that
    /// changed since the cached run (all of them without a cache); the
    /// others derive exactly as cached (see [`crate::cache`]).
    pub affected: Vec<String>,
    /// Whether the outputs were updated by splicing the affected tools'
    /// parts into the files the cached run wrote ([`crate::cache::partial`])
    /// instead of rendering every tool.
    pub spliced: bool,
}

/// What [`Builder::build`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Built {
    pub outcome: LockOutcome,
    /// Whether the sources were parsed and derived (false: the cache showed
    /// the last output still holds, after parsing only the changed files).
    pub full: bool,
    /// The tools an edit could change (see [`Snapshot::affected`]); empty
    /// when the full step did not run.
    pub affected: Vec<String>,
    /// See [`Snapshot::spliced`].
    pub spliced: bool,
}

impl Builder {
    /// A builder with every setting taken from the build-script environment.
    pub fn new() -> Self {
        Builder::default()
    }

    /// The package root (default: `CARGO_MANIFEST_DIR`).
    pub fn manifest_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.manifest_dir = Some(dir.into());
        self
    }

    /// A crate root file to walk, relative to the package root; repeatable
    /// (default: `src/lib.rs` and `src/main.rs`, those that exist).
    pub fn crate_root(mut self, file: impl Into<PathBuf>) -> Self {
        self.crate_roots.push(file.into());
        self
    }

    /// The lockfile, relative to the package root (default: `contracts/mcp-contract.lock`).
    pub fn lockfile(mut self, path: impl Into<PathBuf>) -> Self {
        self.lockfile = Some(path.into());
        self
    }

    /// Where the per-tool entries the macro embeds are written (default: `OUT_DIR`;
    /// none are written when neither is set).
    pub fn out_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.out_dir = Some(dir.into());
        self
    }

    /// The package name used in the fix command (default: `CARGO_PKG_NAME`).
    pub fn package(mut self, name: impl Into<String>) -> Self {
        self.package = Some(name.into());
        self
    }

    /// Verify only: never write the lockfile, fail when it is missing or stale.
    pub fn verify(self) -> Self {
        self.mode(Mode::Verify)
    }

    /// Overrides the mode otherwise decided from `CI`, `MCP_CONTRACT_LOCKED` and
    /// where the package is (see [`crate::mode::decide`]).
    pub fn mode(mut self, mode: Mode) -> Self {
        self.mode = Some(mode);
        self
    }

    /// Gives one published field of an rmcp `#[tool]` verbatim, as JSON text
    /// (`key`: `description`, `title`, `inputSchema`, `outputSchema`,
    /// `annotations`, `icons`, `_meta`): the escape hatch for a value the
    /// build step cannot read from source (a function call in
    /// `input_schema = ...`, computed icons). The value is locked and
    /// published as given; repeatable.
    pub fn tool_field(
        mut self,
        tool: impl Into<String>,
        key: impl Into<String>,
        json: impl Into<String>,
    ) -> Self {
        self.tool_fields
            .push((tool.into(), key.into(), json.into()));
        self
    }

    /// Like [`Builder::tool_field`], for an rmcp `#[prompt]` (`key`:
    /// `description`, `title`, `arguments`, `icons`, `_meta`).
    pub fn prompt_field(
        mut self,
        prompt: impl Into<String>,
        key: impl Into<String>,
        json: impl Into<String>,
    ) -> Self {
        self.prompt_fields
            .push((prompt.into(), key.into(), json.into()));
        self
    }

    /// Prints no `cargo:` directives (for use outside build scripts).
    pub fn quiet(mut self) -> Self {
        self.quiet = true;
        self
    }

    /// Neither reads nor writes the build cache in `OUT_DIR` (see
    /// [`crate::cache`]); every run parses and derives everything.
    pub fn no_cache(mut self) -> Self {
        self.no_cache = true;
        self
    }

    /// Runs the snapshot from `build.rs`: on failure prints the error (file,
    /// line, fix) and exits with status 1, which fails the build.
    pub fn run(&self) {
        if let Err(e) = self.build() {
            eprintln!("error: mcp-contract: {e}");
            std::process::exit(1);
        }
    }

    /// What [`run`](Self::run) does: [`generate`](Self::generate), unless
    /// the cache shows that no change since the last run can change its
    /// output (a handler's body edited): then only the `cargo:` directives
    /// are printed and the lockfile compared, and nothing is derived,
    /// rendered or written.
    pub fn build(&self) -> Result<Built, Error> {
        let setup = self.setup()?;
        let mut walked = Vec::new();
        if let Some(outcome) = self.try_unchanged(&setup, &mut walked)? {
            return Ok(Built {
                outcome,
                full: false,
                affected: Vec::new(),
                spliced: false,
            });
        }
        if let Some(built) = self.try_rederive(&setup, walked)? {
            return Ok(built);
        }
        self.generate_from(setup).map(|s| Built {
            outcome: s.outcome,
            full: true,
            affected: s.affected,
            spliced: s.spliced,
        })
    }

    /// Finds every tool, derives its schemas, writes the `OUT_DIR` entries and
    /// (per the mode) writes or verifies the lockfile, then prints the
    /// `cargo:` directives unless [`quiet`](Self::quiet).
    pub fn generate(&self) -> Result<Snapshot, Error> {
        let setup = self.setup()?;
        self.generate_from(setup)
    }

    fn setup(&self) -> Result<Setup, Error> {
        let manifest_dir = self.resolve_manifest_dir()?;
        let package = self
            .package
            .clone()
            .or_else(|| env("CARGO_PKG_NAME"))
            .unwrap_or_else(|| dir_name(&manifest_dir));
        let version = env("CARGO_PKG_VERSION").unwrap_or_default();
        let mut decision = decide(env, &manifest_dir, &package, &version);
        if let Some(mode) = self.mode {
            decision = Decision {
                mode,
                reason: "the build script asked for it",
            };
        }
        let shown = self
            .lockfile
            .clone()
            .unwrap_or_else(|| PathBuf::from(lockfile::DEFAULT_PATH));
        let lock_path = manifest_dir.join(&shown);
        let out_dir = self
            .out_dir
            .clone()
            .or_else(|| env("OUT_DIR").map(PathBuf::from));
        let info = PackageInfo::load(&manifest_dir, out_dir.as_deref())?;
        let roots = self.crate_roots(&manifest_dir, info.as_ref())?;
        let record_path = mcp_contract::migrations::path_for(&lock_path);
        let cache_key = match (&out_dir, self.no_cache) {
            (Some(_), false) => {
                let record = std::fs::read(&record_path).ok();
                let settings = format!(
                    "{manifest_dir:?}\n{roots:?}\n{shown:?}\n{out_dir:?}\n{package}\n{:?}\n{:?}\n{info:?}",
                    self.tool_fields, self.prompt_fields
                );
                Some(cache::key(&[
                    settings.as_bytes(),
                    record.as_deref().unwrap_or(b"\0absent"),
                ]))
            }
            _ => None,
        };
        let cached = match (&out_dir, &cache_key) {
            (Some(dir), Some(key)) => cache::load(dir).filter(|c| &c.key == key),
            _ => None,
        };
        Ok(Setup {
            manifest_dir,
            package,
            decision,
            shown,
            lock_path,
            out_dir,
            info,
            roots,
            record_path,
            cache_key,
            cached,
        })
    }

    /// The cache's answer when the last output still holds (see
    /// [`cache::fast`]): directives printed, lockfile compared.
    /// When every root walked but some tool read a changed item, the walks
    /// are left in `walked` for [`Builder::try_rederive`].
    fn try_unchanged(
        &self,
        setup: &Setup,
        walked: &mut Vec<cache::fast::Walked>,
    ) -> Result<Option<LockOutcome>, Error> {
        let (Some(out_dir), Some(cached)) = (&setup.out_dir, &setup.cached) else {
            return Ok(None);
        };
        if cached.roots.len() != setup.roots.len() {
            return Ok(None);
        }
        let mut walks = Vec::new();
        for (i, (root, kind)) in setup.roots.iter().enumerate() {
            let rc = &cached.roots[i];
            if &rc.root != root || &rc.kind != kind {
                return Ok(None);
            }
            let Some(walk) = cache::fast::walk(rc, &setup.manifest_dir) else {
                return Ok(None);
            };
            walks.push(walk);
        }
        let affected = cached.roots.iter().zip(&walks).any(|(rc, w)| {
            rc.tools
                .iter()
                .flat_map(|t| &t.deps)
                .chain(&rc.prompt_deps)
                .any(|d| w.changed.contains(d))
        });
        if affected {
            *walked = walks;
            return Ok(None);
        }
        let mut sources = outputs::Sources::default();
        let mut roots = Vec::with_capacity(walks.len());
        for walk in walks {
            roots.push(walk.root);
            for f in walk.sources {
                sources.add(f);
            }
        }
        if cache::output_stamps(out_dir) != cached.outputs {
            return Ok(None);
        }
        let mut updated = cached.with_roots(roots);
        let outcome = match setup.decision.mode {
            Mode::EmbedOnly => LockOutcome::Skipped,
            Mode::Update | Mode::Verify => {
                let Some(stamp) = held_lockfile_stamp(cached, &setup.lock_path) else {
                    return Ok(None);
                };
                updated.lockfile_stamp = stamp;
                LockOutcome::Unchanged
            }
        };
        let record = compat::read_record(&setup.record_path)?;
        self.print_before_sync(sources.as_slice(), &setup.lock_path, &record);
        self.print_after_sync(setup, &outcome);
        if &updated != cached {
            cache::format::save_index(out_dir, &updated);
        }
        Ok(Some(outcome))
    }

    fn print_before_sync(
        &self,
        sources: &[PathBuf],
        lock_path: &Path,
        record: &mcp_contract::migrations::MigrationRecord,
    ) {
        if self.quiet {
            return;
        }
        for line in outputs::rerun_directives(sources, lock_path) {
            println!("{line}");
        }
        if let Some(warning) = crate::rmcp::unapplied_transitions_warning(record, sources) {
            println!("cargo:warning={warning}");
        }
    }

    fn print_after_sync(&self, setup: &Setup, outcome: &LockOutcome) {
        if self.quiet {
            return;
        }
        // After the lockfile is written: its directory may be new.
        println!(
            "cargo:rerun-if-changed={}",
            compat::record_watch_path(&setup.record_path, setup.out_dir.as_deref()).display()
        );
        if let LockOutcome::Written(changes) = outcome {
            println!(
                "cargo:warning=mcp-contract: updated {} ({}); review and commit it",
                setup.shown.display(),
                changes.join(", ")
            );
        }
    }

    fn generate_from(&self, setup: Setup) -> Result<Snapshot, Error> {
        let Setup {
            manifest_dir,
            package,
            decision,
            shown,
            lock_path,
            out_dir,
            info,
            roots,
            record_path,
            cache_key,
            cached,
        } = &setup;
        let mut new_roots: Vec<cache::RootCache> = Vec::new();
        let mut affected: Vec<String> = Vec::new();

        let mut surface = Surface::new();
        let mut seen = BTreeMap::new();
        let mut sources = outputs::Sources::default();
        let mut found_tools = Vec::new();
        let mut rmcp_tools = Vec::new();
        let fields = parse_fields(
            &self.tool_fields,
            "tool_field",
            crate::rmcp::surface::TOOL_FIELD_KEYS,
        )?;
        let prompt_fields = parse_fields(
            &self.prompt_fields,
            "prompt_field",
            crate::rmcp::prompts::PROMPT_FIELD_KEYS,
        )?;
        let mut seen_prompts = BTreeMap::new();
        for (i, (root, kind)) in roots.iter().enumerate() {
            let files = module_files(manifest_dir, root)?;
            let walked = files.len();
            let tools = find_tools(&files)?;
            let rmcp_found = crate::rmcp::find_rmcp_tools(&files)?;
            let prompts_found = crate::rmcp::find_rmcp_prompts(&files)?;
            let old_root = cached
                .as_ref()
                .and_then(|c| c.roots.get(i))
                .filter(|r| &r.root == root && &r.kind == kind);
            let facts = cache_key
                .as_ref()
                .map(|_| file_facts(manifest_dir, &files, old_root.map(|r| &r.files[..])));
            let reuse = match (old_root, &facts, &cached) {
                (Some(old), Some(facts), Some(_)) => reuse_for(old, &files, facts),
                _ => None,
            };
            let mut index = TypeIndex::new(files);
            if let Some(info) = &info {
                index = index.with_crates(info.deps_of_target(kind), info.crates.clone());
            }
            let recorded;
            let prompt_deps;
            // A type from another crate loads that crate and derives again;
            // each round loads at least one crate, so this ends.
            loop {
                let (mut trial, mut trial_seen, mut trial_prompts) =
                    (surface.clone(), seen.clone(), seen_prompts.clone());
                let mut trial_recorded = Vec::new();
                let mut trial_prompt_deps = BTreeSet::new();
                let attempt = add_tools_cached(
                    &mut trial,
                    &mut trial_seen,
                    &index,
                    &tools,
                    reuse.as_ref(),
                    &mut trial_recorded,
                )
                .and_then(|()| {
                    add_rmcp_tools_cached(
                        &mut trial,
                        &mut trial_seen,
                        &index,
                        manifest_dir,
                        &rmcp_found,
                        &fields,
                        reuse.as_ref(),
                        &mut trial_recorded,
                    )
                })
                .and_then(|()| {
                    // Every item the prompts' derivations read.
                    index.track();
                    let added = crate::rmcp::add_rmcp_prompts(
                        &mut trial,
                        &mut trial_prompts,
                        &index,
                        manifest_dir,
                        &prompts_found,
                        &prompt_fields,
                    );
                    trial_prompt_deps = index.take_touched();
                    added
                });
                match attempt {
                    Ok(()) => {
                        (surface, seen, seen_prompts) = (trial, trial_seen, trial_prompts);
                        recorded = trial_recorded;
                        prompt_deps = trial_prompt_deps;
                        break;
                    }
                    Err(e) => {
                        let wanted = index.take_wanted();
                        if wanted.is_empty() {
                            return Err(unavailable_note(e, info.as_ref()));
                        }
                        for i in wanted {
                            index.load_crate(i, manifest_dir)?;
                        }
                    }
                }
            }
            affected.extend(
                recorded
                    .iter()
                    .filter(|t| t.hash.is_empty())
                    .map(|t| t.name.clone()),
            );
            for (path, _, _) in index.files() {
                sources.add(manifest_dir.join(path));
            }
            // Descriptions read through `include_str!`: watched like sources.
            let mut included: Vec<PathBuf> = rmcp_found
                .iter()
                .flat_map(|t| t.included_files(manifest_dir))
                .chain(
                    prompts_found
                        .iter()
                        .flat_map(|p| p.included_files(manifest_dir)),
                )
                .collect();
            included.sort();
            included.dedup();
            for file in &included {
                sources.add(file.clone());
            }
            if let Some(facts) = facts {
                let whole = index.files().len() > walked || !included.is_empty();
                new_roots.push(root_cache(
                    manifest_dir,
                    root,
                    kind,
                    &index,
                    facts,
                    walked,
                    (recorded, prompt_deps.into_iter().collect()),
                    whole,
                    &included,
                ));
            }
            found_tools.extend(tools);
            rmcp_tools.extend(rmcp_found);
        }
        crate::rmcp::check_tool_fields(&fields, &surface)?;
        crate::rmcp::link::check_prompt_fields(&prompt_fields, &surface)?;
        let derived = surface.clone();
        // The migration record's transitions shape what is published and locked.
        let record = compat::read_record(record_path)?;
        compat::apply(
            &mut surface,
            &record,
            &found_tools.iter().collect::<Vec<_>>(),
        )?;
        // Prompts are kept as a whole: by their hash, and by the items their
        // derivations read (a re-derivation that reaches none of them keeps
        // them). Resources and a server block are not cached.
        let tools_and_prompts = surface.resources.is_empty()
            && surface.resource_templates.is_empty()
            && surface.server.is_none();
        let prompts = cache::prompts_hash(&surface);

        // The same surface as last time, outputs untouched since: nothing to
        // render, hash or write. Decided without a record (its transitions
        // may tie tools together) and for surfaces of tools and prompts:
        // every tool taken from the cache is the cached one, every tool
        // derived again equals its cached file, and the prompts hash the
        // same.
        // Every tool (`#[mcp_contract::tool]` or rmcp `#[tool]`, with the
        // features that gate it) is of a root cached item by item (no other
        // crates' types), and nothing ties tools together: the output is a
        // function of the tools, tool by tool.
        let tool_wise = tools_and_prompts
            && new_roots.iter().all(|r| !r.whole)
            && new_roots.iter().map(|r| r.tools.len()).sum::<usize>() == derived.tools.len()
            && record.entries.is_empty()
            && surface == derived;
        let (outcome, spliced) = 'written: {
            if let (Some(index), Some(out)) = (&cached, out_dir) {
                // Comparing reads each affected tool's cached file: past a few,
                // rendering is cheaper than finding out that it was not needed.
                let few = affected.len() <= MAX_COMPARED;
                let by_tool = tool_wise
                    && few
                    && index.prompts == prompts
                    && cache::output_stamps(out) == index.outputs;
                let same = by_tool && same_tools(index, &new_roots, out, &derived);
                let held = match decision.mode {
                    _ if !same => None,
                    Mode::EmbedOnly => Some((LockOutcome::Skipped, index.lockfile_stamp)),
                    Mode::Update | Mode::Verify => held_lockfile_stamp(index, lock_path)
                        .map(|stamp| (LockOutcome::Unchanged, stamp)),
                };
                if let Some((outcome, stamp)) = held {
                    self.print_before_sync(sources.as_slice(), lock_path, &record);
                    self.print_after_sync(&setup, &outcome);
                    let mut updated = index.with_roots(new_roots);
                    updated.lockfile_stamp = stamp;
                    fill_tool_hashes(&mut updated, index);
                    if &updated != index {
                        cache::save_index(out, &updated);
                    }
                    break 'written (outcome, false);
                }
                // The same tools, some derived again: splice their parts into
                // the files the cached run wrote (see `cache::partial`).
                let patched = (by_tool
                    && decision.mode == Mode::Update
                    && same_names(index, &new_roots))
                .then(|| std::fs::read_to_string(lock_path).ok())
                .flatten()
                .filter(|text| index.left_lockfile(lock_path, text))
                .and_then(|text| cache::partial::patch(out, &text, &surface, &record, &affected));
                if let Some(patched) = patched {
                    self.print_before_sync(sources.as_slice(), lock_path, &record);
                    let (outcome, lockfile_hash, roots) =
                        patched.write(out, lock_path, shown, || {
                            cache_key
                                .is_some()
                                .then(|| cached_roots(out, new_roots, &derived))
                        })?;
                    self.print_after_sync(&setup, &outcome);
                    let saved = Saved {
                        lockfile: lockfile_hash,
                        outcome: &outcome,
                        lock_path,
                        by_tool: tool_wise,
                        prompts: &prompts,
                        prune: false,
                    };
                    if let (Some(key), Some(roots)) = (cache_key, roots) {
                        save_cache_encoded(out, key, roots, saved);
                    }
                    break 'written (outcome, true);
                }
            }

            let rendered = outputs::render(&surface);
            let plan = compat::plan(&surface, &record, &rendered.text)?;

            self.print_before_sync(sources.as_slice(), lock_path, &record);
            if let Some(out_dir) = out_dir {
                outputs::write_entries(&rendered, out_dir)?;
                compat::write_plan(&plan, out_dir)?;
                crate::rmcp::write_manifest(
                    out_dir,
                    &derived,
                    &surface,
                    &rendered.value,
                    &rmcp_tools,
                )?;
            }
            let outcome = outputs::sync_lockfile(&rendered, lock_path, shown, decision, package)?;
            if let LockOutcome::Written(_) = outcome {
                outputs::settle_mtime(lock_path, out_dir.as_deref());
            }
            self.print_after_sync(&setup, &outcome);
            if let Some(out) = out_dir {
                let saved = Saved {
                    lockfile: cache::content_hash(rendered.text.as_bytes()),
                    outcome: &outcome,
                    lock_path,
                    by_tool: tool_wise,
                    prompts: &prompts,
                    prune: true,
                };
                save_cache(out, cache_key, new_roots, &derived, saved);
            }
            (outcome, false)
        };
        Ok(Snapshot {
            surface,
            lockfile: lock_path.clone(),
            outcome,
            mode: decision.mode,
            sources: sources.into_vec(),
            rmcp_tools,
            derived,
            affected,
            spliced,
        })
    }

    fn resolve_manifest_dir(&self) -> Result<PathBuf, Error> {
        self.manifest_dir
            .clone()
            .or_else(|| env("CARGO_MANIFEST_DIR").map(PathBuf::from))
            .ok_or_else(|| Error::Setup {
                message: "CARGO_MANIFEST_DIR is not set: not running as a build script".into(),
                help: "call mcp_contract_build::snapshot() from build.rs, or set Builder::manifest_dir".into(),
            })
    }

    /// Every crate root to walk, with its target kind (`lib`/`bin`): those
    /// given with [`crate_root`](Self::crate_root), else every library and
    /// binary target of the package (`cargo metadata`: `src/lib.rs`,
    /// `src/main.rs`, `src/bin/*.rs`, `[[bin]] path = ...`), else (no
    /// `Cargo.toml`) `src/lib.rs` and `src/main.rs`.
    fn crate_roots(
        &self,
        manifest_dir: &Path,
        info: Option<&PackageInfo>,
    ) -> Result<Vec<(PathBuf, String)>, Error> {
        let kind_of = |root: &Path| -> String {
            let abs = manifest_dir.join(root);
            info.and_then(|i| i.targets.iter().find(|t| t.root == abs))
                .map(|t| t.kind.clone())
                .unwrap_or_else(|| {
                    if root.file_name().is_some_and(|n| n == "lib.rs") {
                        "lib".into()
                    } else {
                        "bin".into()
                    }
                })
        };
        if !self.crate_roots.is_empty() {
            return Ok(self
                .crate_roots
                .iter()
                .map(|r| (r.clone(), kind_of(r)))
                .collect());
        }
        if let Some(info) = info {
            if !info.targets.is_empty() {
                return Ok(info
                    .targets
                    .iter()
                    .map(|t| (t.root.clone(), t.kind.clone()))
                    .collect());
            }
        }
        let roots: Vec<(PathBuf, String)> = ["src/lib.rs", "src/main.rs"]
            .iter()
            .map(PathBuf::from)
            .filter(|p| manifest_dir.join(p).is_file())
            .map(|p| {
                let k = kind_of(&p);
                (p, k)
            })
            .collect();
        if roots.is_empty() {
            return Err(Error::Setup {
                message: format!("{}: no src/lib.rs or src/main.rs", manifest_dir.display()),
                help: "name the crate root with Builder::crate_root(\"path/to/lib.rs\")".into(),
            });
        }
        Ok(roots)
    }
}

/// A type the build step could not find, when `cargo metadata` could not
/// list the dependencies: say why, since the type may live in one of them.
fn unavailable_note(e: Error, info: Option<&PackageInfo>) -> Error {
    match (e, info.and_then(|i| i.deps_unavailable.as_deref())) {
        (Error::Derive(mut d), Some(why)) => {
            d.help = format!(
                "{} (the dependencies' sources could not be listed: `cargo metadata` said: {why})",
                d.help
            );
            Error::Derive(d)
        }
        (e, _) => e,
    }
}

/// `(name, key, JSON text)` triples from `tool_field`/`prompt_field`,
/// checked and parsed: unknown keys and malformed JSON fail the build.
fn parse_fields(
    given: &[(String, String, String)],
    method: &str,
    keys: &[&str],
) -> Result<BTreeMap<String, BTreeMap<String, serde_json::Value>>, Error> {
    let mut out: BTreeMap<String, BTreeMap<String, serde_json::Value>> = BTreeMap::new();
    for (name, key, text) in given {
        if !keys.contains(&key.as_str()) {
            return Err(Error::Setup {
                message: format!(
                    "build.rs: {method}(\"{name}\", \"{key}\", ...): unknown key `{key}`"
                ),
                help: format!("use one of: {}", keys.join(", ")),
            });
        }
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| Error::Setup {
            message: format!("build.rs: {method}(\"{name}\", \"{key}\", ...): not JSON: {e}"),
            help: "give the value as JSON text, e.g. r#\"{\"type\": \"object\"}\"# or r#\"\"A description.\"\"#".into(),
        })?;
        out.entry(name.clone())
            .or_default()
            .insert(key.clone(), value);
    }
    Ok(out)
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

fn dir_name(dir: &Path) -> String {
    dir.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The facts of every walked file: the cached ones where the bytes are the
/// same (same bytes, same parse), computed where they changed.
fn file_facts(
    manifest_dir: &Path,
    files: &[ModuleFile],
    old: Option<&[cache::CachedFile]>,
) -> Vec<(cache::Stamp, cache::FileFacts)> {
    files
        .iter()
        .enumerate()
        .map(|(n, (path, file, _))| {
            let abs = manifest_dir.join(path);
            let before = old.and_then(|o| o.get(n)).filter(|f| &f.path == path);
            if let Some(f) = before.filter(|f| f.stamp.holds(&abs)) {
                return (f.stamp, f.facts.clone());
            }
            let stamp = cache::Stamp::of(&abs).unwrap_or_default();
            let bytes = std::fs::read(&abs).unwrap_or_default();
            let hash = cache::content_hash(&bytes);
            match before {
                Some(f) if f.facts.content == hash => (stamp, f.facts.clone()),
                _ => (stamp, cache::facts(hash, file)),
            }
        })
        .collect()
}

/// The stamp the index records for the lockfile, when it is still the one
/// the cached run left: the cached stamp when that holds, else the file's
/// own when its bytes are the ones rendered; `None` when it is not.
fn held_lockfile_stamp(cached: &cache::BuildCache, path: &Path) -> Option<cache::Stamp> {
    if cached.lockfile_stamp.holds(path) {
        return Some(cached.lockfile_stamp);
    }
    let text = std::fs::read_to_string(path).ok()?;
    cached
        .rendered_lockfile(&text)
        .then(|| cache::Stamp::of(path).unwrap_or_default())
}

/// What a run that wrote its outputs tells the cache about them.
struct Saved<'a> {
    /// [`cache::content_hash`] of the lockfile text rendered.
    lockfile: String,
    outcome: &'a LockOutcome,
    lock_path: &'a Path,
    /// See [`cache::BuildCache::by_tool`].
    by_tool: bool,
    /// See [`cache::BuildCache::prompts`].
    prompts: &'a str,
    /// Whether tools may have been added or removed since the cached run:
    /// then the files of tools no longer there are removed.
    prune: bool,
}

/// Writes the cache index for a run that wrote its outputs: every tool
/// derived again gets its file, and a tool whose file could not be written
/// is not cached. Without a key (the cache is off) nothing is written.
fn save_cache(
    out: &Path,
    key: &Option<String>,
    roots: Vec<cache::RootCache>,
    derived: &Surface,
    saved: Saved,
) {
    if let Some(key) = key {
        save_cache_encoded(out, key, cached_roots(out, roots, derived), saved);
    }
}

/// The first half of [`save_cache`], which needs none of the files the run
/// writes: the files of the tools derived again, and the roots encoded for
/// the index. Only the tools whose files were written are kept.
fn cached_roots(out: &Path, mut roots: Vec<cache::RootCache>, derived: &Surface) -> EncodedRoots {
    for (i, root) in roots.iter_mut().enumerate() {
        let dir = out.join(cache::TOOLS_DIR).join(format!("root{i}"));
        for t in root.tools.iter_mut().filter(|t| t.hash.is_empty()) {
            if let Some(hash) = derived
                .get(&t.name)
                .and_then(|d| cache::write_tool(&dir, d))
            {
                t.hash = hash;
            }
        }
        root.tools.retain(|t| !t.hash.is_empty());
    }
    let text = cache::format::encode_roots(&roots);
    EncodedRoots { roots, text }
}

/// The roots of a cache index and their encoding.
struct EncodedRoots {
    roots: Vec<cache::RootCache>,
    text: Option<String>,
}

/// The second half of [`save_cache`], once every output is written (the
/// index records their stamps).
fn save_cache_encoded(out: &Path, key: &str, roots: EncodedRoots, saved: Saved) {
    let index = cache::BuildCache {
        key: key.to_string(),
        roots: roots.roots,
        outputs: cache::output_stamps(out),
        lockfile: saved.lockfile,
        lockfile_stamp: match saved.outcome {
            LockOutcome::Skipped => cache::Stamp::default(),
            _ => cache::Stamp::of(saved.lock_path).unwrap_or_default(),
        },
        by_tool: saved.by_tool,
        prompts: saved.prompts.to_string(),
    };
    if saved.prune {
        cache::format::prune_tools(out, &index);
    }
    cache::format::save_index_with(out, &index, roots.text);
}

/// Whether every root has the tools, by name and in order, the cached run
/// had, gated on the same features (the manifest lists them: a splice
/// keeps them as they were).
fn same_names(index: &cache::BuildCache, roots: &[cache::RootCache]) -> bool {
    roots.len() == index.roots.len()
        && roots.iter().zip(&index.roots).all(|(new, old)| {
            new.tools.len() == old.tools.len()
                && new
                    .tools
                    .iter()
                    .zip(&old.tools)
                    .all(|(a, b)| a.name == b.name && a.features == b.features)
        })
}

/// Whether every tool derived again in this run (no file hash yet) equals
/// its cached file, and every root has the same tools as before (gated on
/// the same features).
fn same_tools(
    index: &cache::BuildCache,
    roots: &[cache::RootCache],
    out: &Path,
    derived: &Surface,
) -> bool {
    roots.len() == index.roots.len()
        && roots
            .iter()
            .zip(&index.roots)
            .enumerate()
            .all(|(i, (now, old))| {
                let dir = out.join(cache::TOOLS_DIR).join(format!("root{i}"));
                now.tools.len() == old.tools.len()
                    && now.tools.iter().zip(&old.tools).all(|(n, o)| {
                        n.name == o.name
                            && n.features == o.features
                            && (!n.hash.is_empty()
                                || cache::read_tool(&dir, &o.name, &o.hash)
                                    .is_some_and(|cached| derived.get(&n.name) == Some(&cached)))
                    })
            })
}

/// After [`same_tools`]: the tools derived again keep their cached files.
fn fill_tool_hashes(updated: &mut cache::BuildCache, old: &cache::BuildCache) {
    for (now, before) in updated.roots.iter_mut().zip(&old.roots) {
        for (n, o) in now.tools.iter_mut().zip(&before.tools) {
            if n.hash.is_empty() {
                n.hash = o.hash.clone();
            }
        }
    }
}

/// What this run may reuse from the cached root `old`: nothing when the
/// crate is cached as a whole, the file list changed, or a file's structure
/// changed; else every tool whose items are unchanged.
fn reuse_for(
    old: &cache::RootCache,
    files: &[ModuleFile],
    facts: &[(cache::Stamp, cache::FileFacts)],
) -> Option<cache::Reuse> {
    if old.whole || old.walked != files.len() || old.files.len() != old.walked {
        return None;
    }
    let mut reuse = cache::Reuse::default();
    for (n, ((path, _, module), (_, now))) in files.iter().zip(facts).enumerate() {
        let before = &old.files[n];
        if &before.path != path
            || &before.module != module
            || before.facts.structure != now.structure
        {
            return None;
        }
        cache::changed_items(n, &before.facts, now, &mut reuse.changed);
    }
    for t in &old.tools {
        reuse
            .tools
            .insert(t.name.clone(), (t.hash.clone(), t.deps.clone()));
    }
    Some(reuse)
}

/// The cache entry of one root after a full run.
#[allow(clippy::too_many_arguments)]
fn root_cache(
    manifest_dir: &Path,
    root: &Path,
    kind: &str,
    index: &TypeIndex,
    mut facts: Vec<(cache::Stamp, cache::FileFacts)>,
    walked: usize,
    (tools, prompt_deps): (Vec<cache::CachedTool>, Vec<cache::ItemRef>),
    whole: bool,
    included: &[PathBuf],
) -> cache::RootCache {
    let mut files: Vec<cache::CachedFile> = index
        .files()
        .iter()
        .enumerate()
        .map(|(n, (path, file, module))| {
            let abs = manifest_dir.join(path);
            let (stamp, facts) = if n < walked {
                std::mem::take(&mut facts[n])
            } else {
                let stamp = cache::Stamp::of(&abs).unwrap_or_default();
                let bytes = std::fs::read(&abs).unwrap_or_default();
                (stamp, cache::facts(cache::content_hash(&bytes), file))
            };
            let children = if n < walked {
                declared_children(manifest_dir, &abs, module, file).unwrap_or_default()
            } else {
                Vec::new()
            };
            cache::CachedFile {
                path: path.to_path_buf(),
                module: module.to_vec(),
                stamp,
                facts,
                children,
                names: (n < walked && !whole)
                    .then(|| index.names_of(n).and_then(cache::format::encode_names))
                    .flatten(),
            }
        })
        .collect();
    // Files read through `include_str!`: after the index's, checked by
    // content like other crates' files (see `cache::fast::walk`).
    for abs in included {
        let bytes = std::fs::read(abs).unwrap_or_default();
        files.push(cache::CachedFile {
            path: abs.strip_prefix(manifest_dir).unwrap_or(abs).to_path_buf(),
            module: Vec::new(),
            stamp: cache::Stamp::of(abs).unwrap_or_default(),
            facts: cache::FileFacts {
                content: cache::content_hash(&bytes),
                ..Default::default()
            },
            children: Vec::new(),
            names: None,
        });
    }
    cache::RootCache {
        root: root.to_path_buf(),
        kind: kind.to_string(),
        files,
        walked,
        tools,
        prompt_deps,
        whole,
    }
}
