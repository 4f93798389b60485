//! [`Builder`]: the build step's configuration and its one operation,
//! [`Builder::generate`]. Defaults come from the variables cargo sets for
//! build scripts (`CARGO_MANIFEST_DIR`, `OUT_DIR`, `CARGO_PKG_NAME`,
//! `CARGO_PKG_VERSION`, `CI`, `MCP_CONTRACT_LOCKED`), so `build.rs` is one line.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use mcp_contract::{lockfile, Surface};

use crate::compat;
use crate::derive::{module_files, TypeIndex};
use crate::discover::find_tools;
use crate::error::Error;
use crate::metadata::PackageInfo;
use crate::mode::{decide, Decision, Mode};
use crate::outputs::{self, LockOutcome};
use crate::surface::add_tools;

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

    /// Runs the snapshot from `build.rs`: on failure prints the error (file,
    /// line, fix) and exits with status 1, which fails the build.
    pub fn run(&self) {
        if let Err(e) = self.generate() {
            eprintln!("error: mcp-contract: {e}");
            std::process::exit(1);
        }
    }

    /// Finds every tool, derives its schemas, writes the `OUT_DIR` entries and
    /// (per the mode) writes or verifies the lockfile, then prints the
    /// `cargo:` directives unless [`quiet`](Self::quiet).
    pub fn generate(&self) -> Result<Snapshot, Error> {
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

        let mut surface = Surface::new();
        let mut seen = BTreeMap::new();
        let mut sources: Vec<PathBuf> = Vec::new();
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
        for (root, kind) in &roots {
            let files = module_files(&manifest_dir, root)?;
            let tools = find_tools(&files)?;
            let rmcp_found = crate::rmcp::find_rmcp_tools(&files)?;
            let prompts_found = crate::rmcp::find_rmcp_prompts(&files)?;
            let mut index = TypeIndex::new(files);
            if let Some(info) = &info {
                index = index.with_crates(info.deps_of_target(kind), info.crates.clone());
            }
            // A type from another crate loads that crate and derives again;
            // each round loads at least one crate, so this ends.
            loop {
                let (mut trial, mut trial_seen, mut trial_prompts) =
                    (surface.clone(), seen.clone(), seen_prompts.clone());
                let attempt = add_tools(&mut trial, &mut trial_seen, &index, &tools)
                    .and_then(|()| {
                        crate::rmcp::add_rmcp_tools(
                            &mut trial,
                            &mut trial_seen,
                            &index,
                            &manifest_dir,
                            &rmcp_found,
                            &fields,
                        )
                    })
                    .and_then(|()| {
                        crate::rmcp::add_rmcp_prompts(
                            &mut trial,
                            &mut trial_prompts,
                            &index,
                            &manifest_dir,
                            &prompts_found,
                            &prompt_fields,
                        )
                    });
                match attempt {
                    Ok(()) => {
                        (surface, seen, seen_prompts) = (trial, trial_seen, trial_prompts);
                        break;
                    }
                    Err(e) => {
                        let wanted = index.take_wanted();
                        if wanted.is_empty() {
                            return Err(unavailable_note(e, info.as_ref()));
                        }
                        for i in wanted {
                            index.load_crate(i, &manifest_dir)?;
                        }
                    }
                }
            }
            for (path, _, _) in index.files() {
                let abs = manifest_dir.join(path);
                if !sources.contains(&abs) {
                    sources.push(abs);
                }
            }
            found_tools.extend(tools);
            rmcp_tools.extend(rmcp_found);
        }
        crate::rmcp::check_tool_fields(&fields, &surface)?;
        crate::rmcp::link::check_prompt_fields(&prompt_fields, &surface)?;
        let derived = surface.clone();
        // The migration record's transitions shape what is published and locked.
        let record_path = mcp_contract::migrations::path_for(&lock_path);
        let record = compat::read_record(&record_path)?;
        compat::apply(
            &mut surface,
            &record,
            &found_tools.iter().collect::<Vec<_>>(),
        )?;
        let rendered = outputs::render(&surface);
        let plan = compat::plan(&surface, &record, &rendered.text)?;

        if !self.quiet {
            for line in outputs::rerun_directives(&sources, &lock_path) {
                println!("{line}");
            }
        }
        if let Some(out_dir) = &out_dir {
            outputs::write_entries(&rendered, out_dir)?;
            compat::write_plan(&plan, out_dir)?;
            crate::rmcp::write_manifest(out_dir, &derived, &surface, &rendered.value, &rmcp_tools)?;
        }
        if !self.quiet {
            if let Some(warning) = crate::rmcp::unapplied_transitions_warning(&record, &sources) {
                println!("cargo:warning={warning}");
            }
        }
        let outcome = outputs::sync_lockfile(&rendered, &lock_path, &shown, &decision, &package)?;
        if let LockOutcome::Written(_) = outcome {
            outputs::settle_mtime(&lock_path, out_dir.as_deref());
        }
        if !self.quiet {
            // After the lockfile is written: its directory may be new.
            println!(
                "cargo:rerun-if-changed={}",
                compat::record_watch_path(&record_path, out_dir.as_deref()).display()
            );
        }
        if let (LockOutcome::Written(changes), false) = (&outcome, self.quiet) {
            println!(
                "cargo:warning=mcp-contract: updated {} ({}); review and commit it",
                shown.display(),
                changes.join(", ")
            );
        }
        Ok(Snapshot {
            surface,
            lockfile: lock_path,
            outcome,
            mode: decision.mode,
            sources,
            rmcp_tools,
            derived,
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
