//! What cargo knows about the package and that source alone does not say:
//! its targets (library, `src/bin/*.rs`, `[[bin]] path = ...`) and where the
//! source of every crate it may name lives (workspace members, path and
//! registry dependencies, its own library for its binaries).
//!
//! Read with `cargo metadata` (the `CARGO` that runs the build script, offline,
//! for the build's target platform) and cached under `OUT_DIR`, keyed on the
//! manifests and `Cargo.lock` that decide it, so a rebuild does not run cargo
//! again. Only what the build step needs is kept: crate names, roots and
//! dependency edges, never the rest of the metadata.

use std::collections::hash_map::DefaultHasher;
use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};

use crate::error::Error;

/// One crate the build step may parse: a library target of some package.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrateSource {
    /// The library target's name (`shared_types`), as other crates name it
    /// unless they rename the dependency.
    pub name: String,
    /// Its root file (`src/lib.rs`, absolute).
    pub root: PathBuf,
    /// The crates it depends on: the name it uses for each (`extern crate`
    /// name, renames applied) to an index into [`PackageInfo::crates`].
    pub deps: BTreeMap<String, usize>,
}

/// One target of the package whose tools are snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// `lib` or `bin` (tests, benches, examples and build scripts are never walked).
    pub kind: String,
    pub name: String,
    /// The root file (absolute).
    pub root: PathBuf,
}

/// The package's targets and the crates their code may name.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PackageInfo {
    pub targets: Vec<Target>,
    /// The crates a target may name directly: the package's normal
    /// dependencies (name → index into `crates`).
    pub deps: BTreeMap<String, usize>,
    /// The package's own library (a binary names it by its crate name).
    pub own_lib: Option<usize>,
    pub crates: Vec<CrateSource>,
    /// Why the dependencies could not be read, when they could not (the
    /// targets then come from `cargo metadata --no-deps`): said in the error
    /// of a type the build step then cannot find.
    pub deps_unavailable: Option<String>,
}

const CACHE_FILE: &str = "mcp-contract-metadata.json";
const CACHE_VERSION: u64 = 1;

impl PackageInfo {
    /// The crates a target of kind `kind` may name (`extern` name → index).
    pub fn deps_of_target(&self, kind: &str) -> BTreeMap<String, usize> {
        let mut deps = self.deps.clone();
        if kind != "lib" {
            if let Some(i) = self.own_lib {
                deps.insert(self.crates[i].name.clone(), i);
            }
        }
        deps
    }

    /// Reads the package at `manifest_dir` (`None` when it has no
    /// `Cargo.toml`: a bare source tree given to the builder by hand). With
    /// `out_dir`, the result is cached there.
    pub fn load(manifest_dir: &Path, out_dir: Option<&Path>) -> Result<Option<Self>, Error> {
        let manifest = manifest_dir.join("Cargo.toml");
        if !manifest.is_file() {
            return Ok(None);
        }
        let key = cache_key(manifest_dir);
        let cache = out_dir.map(|d| d.join(CACHE_FILE));
        if let Some(cached) = cache.as_deref().and_then(|c| read_cache(c, &key)) {
            return Ok(Some(cached));
        }
        let info = match run_metadata(&manifest, false) {
            Ok(meta) => from_metadata(&meta, &manifest, None)?,
            Err(full_error) => {
                let meta = run_metadata(&manifest, true).map_err(|e| Error::Setup {
                    message: format!("{}: `cargo metadata` failed: {e}", manifest.display()),
                    help: "fix the manifest (`cargo metadata` shows the same error)".into(),
                })?;
                from_metadata(&meta, &manifest, Some(full_error))?
            }
        };
        if let Some(cache) = &cache {
            // A cache that cannot be written only costs the next build a `cargo metadata`.
            let _ = std::fs::write(cache, to_cache(&info, &key).to_string());
        }
        Ok(Some(info))
    }
}

fn cargo() -> std::ffi::OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into())
}

/// The platform whose dependencies are resolved: the build's target, else the host.
fn platform() -> Option<String> {
    if let Ok(t) = std::env::var("TARGET") {
        return Some(t);
    }
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = Command::new(rustc).arg("-vV").output().ok()?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(|h| h.trim().to_string()))
}

fn run_metadata(manifest: &Path, no_deps: bool) -> Result<Value, String> {
    let mut cmd = Command::new(cargo());
    cmd.args(["metadata", "--format-version", "1", "--offline"])
        .arg("--manifest-path")
        .arg(manifest);
    if no_deps {
        cmd.arg("--no-deps");
    } else {
        // `--locked`: never write a `Cargo.lock` (a build has one already).
        cmd.arg("--locked");
        if let Some(p) = platform() {
            cmd.args(["--filter-platform", &p]);
        }
    }
    let out = cmd.output().map_err(|e| format!("cannot run cargo: {e}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let first = err
            .lines()
            .find(|l| l.trim_start().starts_with("error"))
            .or_else(|| err.lines().find(|l| !l.trim().is_empty()))
            .unwrap_or("")
            .trim()
            .to_string();
        return Err(first);
    }
    serde_json::from_slice(&out.stdout).map_err(|e| format!("unreadable output: {e}"))
}

fn same_file(a: &Path, b: &Path) -> bool {
    a == b
        || match (a.canonicalize(), b.canonicalize()) {
            (Ok(x), Ok(y)) => x == y,
            _ => false,
        }
}

fn from_metadata(
    meta: &Value,
    manifest: &Path,
    deps_unavailable: Option<String>,
) -> Result<PackageInfo, Error> {
    let packages: Vec<&Value> = meta["packages"].as_array().into_iter().flatten().collect();
    let Some(me) = packages.iter().find(|p| {
        p["manifest_path"]
            .as_str()
            .is_some_and(|m| same_file(Path::new(m), manifest))
    }) else {
        return Err(Error::Setup {
            message: format!(
                "{}: `cargo metadata` does not list this package",
                manifest.display()
            ),
            help: "run the build step from the package's own build script".into(),
        });
    };
    let lib_of = |p: &Value| -> Option<(String, PathBuf)> {
        p["targets"].as_array()?.iter().find_map(|t| {
            let kinds = t["kind"].as_array()?;
            kinds
                .iter()
                .any(|k| matches!(k.as_str(), Some("lib" | "rlib" | "proc-macro")))
                .then(|| {
                    Some((
                        t["name"].as_str()?.replace('-', "_"),
                        PathBuf::from(t["src_path"].as_str()?),
                    ))
                })
                .flatten()
        })
    };
    let mut info = PackageInfo {
        deps_unavailable,
        ..PackageInfo::default()
    };
    for t in me["targets"].as_array().into_iter().flatten() {
        let kinds: Vec<&str> = t["kind"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let kind = if kinds.contains(&"bin") {
            "bin"
        } else if kinds
            .iter()
            .any(|k| matches!(*k, "lib" | "rlib" | "dylib" | "cdylib" | "staticlib"))
        {
            "lib"
        } else {
            continue;
        };
        if let (Some(name), Some(root)) = (t["name"].as_str(), t["src_path"].as_str()) {
            info.targets.push(Target {
                kind: kind.into(),
                name: name.into(),
                root: root.into(),
            });
        }
    }
    // Libraries first, then binaries, each in manifest order (as cargo lists them).
    info.targets.sort_by_key(|t| t.kind != "lib");

    // Every package with a library becomes a crate the build step may parse.
    let mut index_of: BTreeMap<String, usize> = BTreeMap::new();
    for p in &packages {
        let (Some(id), Some((name, root))) = (p["id"].as_str(), lib_of(p)) else {
            continue;
        };
        index_of.insert(id.to_string(), info.crates.len());
        info.crates.push(CrateSource {
            name,
            root,
            deps: BTreeMap::new(),
        });
    }
    let my_id = me["id"].as_str().unwrap_or_default();
    info.own_lib = index_of.get(my_id).copied();
    for node in meta["resolve"]["nodes"].as_array().into_iter().flatten() {
        let Some(id) = node["id"].as_str() else {
            continue;
        };
        let mut deps = BTreeMap::new();
        for d in node["deps"].as_array().into_iter().flatten() {
            let normal = d["dep_kinds"]
                .as_array()
                .is_none_or(|ks| ks.iter().any(|k| k["kind"].is_null()));
            let (Some(name), Some(pkg)) = (d["name"].as_str(), d["pkg"].as_str()) else {
                continue;
            };
            if let (true, Some(&i)) = (normal, index_of.get(pkg)) {
                deps.insert(name.to_string(), i);
            }
        }
        if id == my_id {
            info.deps = deps.clone();
        }
        if let Some(&i) = index_of.get(id) {
            info.crates[i].deps = deps;
        }
    }
    Ok(info)
}

/// The manifests from the package up to the filesystem root (a workspace's
/// manifest decides members and inherited dependencies) and the nearest
/// `Cargo.lock`, plus the platform and cargo in use.
fn cache_key(manifest_dir: &Path) -> String {
    let mut h = DefaultHasher::new();
    CACHE_VERSION.hash(&mut h);
    let mut lock_seen = false;
    for dir in manifest_dir.ancestors() {
        if let Ok(text) = std::fs::read(dir.join("Cargo.toml")) {
            dir.hash(&mut h);
            text.hash(&mut h);
        }
        if !lock_seen {
            if let Ok(text) = std::fs::read(dir.join("Cargo.lock")) {
                text.hash(&mut h);
                lock_seen = true;
            }
        }
    }
    std::env::var("TARGET").ok().hash(&mut h);
    cargo().hash(&mut h);
    format!("{:016x}", h.finish())
}

fn to_cache(info: &PackageInfo, key: &str) -> Value {
    let deps = |d: &BTreeMap<String, usize>| -> Value {
        d.iter().map(|(k, v)| (k.clone(), json!(v))).collect()
    };
    json!({
        "key": key,
        "targets": info.targets.iter().map(|t| json!({"kind": t.kind, "name": t.name, "root": t.root})).collect::<Vec<_>>(),
        "deps": deps(&info.deps),
        "own_lib": info.own_lib,
        "crates": info.crates.iter().map(|c| json!({"name": c.name, "root": c.root, "deps": deps(&c.deps)})).collect::<Vec<_>>(),
        "deps_unavailable": info.deps_unavailable,
    })
}

fn read_cache(path: &Path, key: &str) -> Option<PackageInfo> {
    let v: Value = serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
    if v["key"] != key {
        return None;
    }
    let deps = |d: &Value| -> Option<BTreeMap<String, usize>> {
        d.as_object()?
            .iter()
            .map(|(k, v)| Some((k.clone(), v.as_u64()? as usize)))
            .collect()
    };
    let crates: Option<Vec<CrateSource>> = v["crates"]
        .as_array()?
        .iter()
        .map(|c| {
            Some(CrateSource {
                name: c["name"].as_str()?.into(),
                root: c["root"].as_str()?.into(),
                deps: deps(&c["deps"])?,
            })
        })
        .collect();
    let crates = crates?;
    let in_range = |i: &usize| *i < crates.len();
    let info = PackageInfo {
        targets: v["targets"]
            .as_array()?
            .iter()
            .map(|t| {
                Some(Target {
                    kind: t["kind"].as_str()?.into(),
                    name: t["name"].as_str()?.into(),
                    root: t["root"].as_str()?.into(),
                })
            })
            .collect::<Option<_>>()?,
        deps: deps(&v["deps"])?,
        own_lib: v["own_lib"].as_u64().map(|i| i as usize),
        deps_unavailable: v["deps_unavailable"].as_str().map(str::to_string),
        crates: crates.clone(),
    };
    let valid = info.deps.values().all(in_range)
        && info.own_lib.as_ref().is_none_or(in_range)
        && crates.iter().all(|c| c.deps.values().all(in_range));
    valid.then_some(info)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_bins_and_dependency_sources_of_this_package() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
        let out = tempfile::tempdir().unwrap();
        let info = PackageInfo::load(dir, Some(out.path())).unwrap().unwrap();
        assert_eq!(info.targets.len(), 1, "{:?}", info.targets);
        assert_eq!(info.targets[0].kind, "lib");
        let syn_dep = &info.crates[info.deps["syn"]];
        assert!(syn_dep.root.ends_with("src/lib.rs"), "{syn_dep:?}");
        assert!(info.deps.contains_key("mcp_contract"));
        // The second load comes from the cache, with the same content.
        assert!(out.path().join(CACHE_FILE).is_file());
        let again = PackageInfo::load(dir, Some(out.path())).unwrap().unwrap();
        assert_eq!(again, info);
    }

    #[test]
    fn a_stale_cache_is_not_used() {
        let out = tempfile::tempdir().unwrap();
        let info = PackageInfo {
            targets: vec![],
            ..PackageInfo::default()
        };
        let path = out.path().join(CACHE_FILE);
        std::fs::write(&path, to_cache(&info, "old").to_string()).unwrap();
        assert!(read_cache(&path, "new").is_none());
        assert_eq!(read_cache(&path, "old"), Some(info));
    }
}
