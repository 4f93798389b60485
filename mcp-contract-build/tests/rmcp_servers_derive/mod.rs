//! How the build step derives every `#[tool]` and `#[prompt]` of one of
//! the real servers in `../shared/rmcp-servers/` (read in place, never
//! copied): the tests that need their derived tools share this walk instead
//! of each keeping a copy (`rmcp_servers.rs` checks discovery and
//! derivation; `runtime_accepts_published.rs` runs the derived input schemas
//! through the runtime layer).
//!
//! The excerpts are not buildable crates (some modules are missing, most
//! pin an older rmcp), so each source directory is indexed by path
//! convention: a crate root (or each of several bin/test roots) at module
//! `[]`, every other file at the module its path names. Sibling crates are
//! given as `cargo metadata` gives them to the build step: the package's
//! path dependencies (directly or through `[workspace.dependencies]`, read
//! from the excerpts' real manifests), each loaded on demand when a path
//! reaches it (its files by the same convention).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use mcp_contract::Tool;
use mcp_contract_build::derive::{ModuleFile, TypeIndex};
use mcp_contract_build::metadata::CrateSource;
use mcp_contract_build::rmcp::prompts::prompt_for;
use mcp_contract_build::rmcp::surface::tool_for;
use mcp_contract_build::rmcp::{find_rmcp_prompts, find_rmcp_tools, FoundRmcpTool};
use mcp_contract_build::source::Source;
use serde_json::Value;

use crate::rmcp_servers_dir::rs_files;

/// Module path of `file` under `src` by convention.
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap();
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs").to_string();
    if stem != "mod" {
        parts.push(stem);
    }
    parts
}

/// The indexes of one source directory: one per crate root (every other
/// file of the directory included), or one for the whole directory.
fn units(src: &Path, every_top_file_is_a_root: bool) -> Vec<Vec<ModuleFile>> {
    let mut files = Vec::new();
    rs_files(src, &mut files);
    // A test crate (`tests/*.rs`) is compiled with `cfg(test)` on: its
    // `#[cfg(test)]` modules are part of it.
    let test_crate = src.ends_with("tests");
    let parse = |p: &Path| {
        let mut file = Source::parse(std::fs::read_to_string(p).unwrap()).unwrap();
        if test_crate {
            for item in &mut file.syntax_mut().items {
                if let syn::Item::Mod(m) = item {
                    m.attrs.retain(|a| !a.path().is_ident("cfg"));
                }
            }
        }
        file
    };
    let is_top = |p: &Path| p.parent() == Some(src);
    let roots: Vec<PathBuf> = files
        .iter()
        .filter(|p| {
            is_top(p)
                && (every_top_file_is_a_root
                    || p.file_name()
                        .is_some_and(|n| n == "lib.rs" || n == "main.rs"))
        })
        .cloned()
        .collect();
    let rest: Vec<ModuleFile> = files
        .iter()
        .filter(|p| !roots.contains(p))
        .map(|p| (p.clone(), parse(p), module_of(src, p)))
        .collect();
    if roots.is_empty() {
        return vec![rest];
    }
    roots
        .iter()
        .map(|r| {
            let mut unit = vec![(r.clone(), parse(r), vec![])];
            unit.extend(rest.iter().cloned());
            unit
        })
        .collect()
}

fn manifest(dir: &Path) -> Option<toml_edit::DocumentMut> {
    std::fs::read_to_string(dir.join("Cargo.toml"))
        .ok()?
        .parse()
        .ok()
}

/// The path dependencies of the package in `package_dir` (`extern` name,
/// directory), directly or through the workspace root's
/// `[workspace.dependencies]`.
fn path_deps(server: &Path, package_dir: &Path) -> Vec<(String, PathBuf)> {
    let Some(doc) = manifest(package_dir) else {
        return vec![];
    };
    let workspace = manifest(server);
    let mut out = vec![];
    let Some(deps) = doc.get("dependencies").and_then(|d| d.as_table_like()) else {
        return out;
    };
    for (key, item) in deps.iter() {
        let path_of = |item: &toml_edit::Item| {
            item.get("path")
                .and_then(|p| p.as_str())
                .map(str::to_string)
        };
        let dir = if let Some(p) = path_of(item) {
            package_dir.join(p)
        } else if item.get("workspace").and_then(|w| w.as_bool()) == Some(true) {
            let Some(p) = workspace
                .as_ref()
                .and_then(|w| w.get("workspace")?.get("dependencies")?.get(key))
                .and_then(path_of)
            else {
                continue;
            };
            server.join(p)
        } else {
            continue;
        };
        out.push((key.replace('-', "_"), dir));
    }
    out
}

/// The crates `cargo metadata` would list for the package in
/// `package_dir`: its path dependencies and theirs (`deps`: the package's
/// own; `dirs[i]`: the directory of `crates[i]`).
struct Siblings {
    deps: BTreeMap<String, usize>,
    crates: Vec<CrateSource>,
    dirs: Vec<PathBuf>,
}

fn siblings(server: &Path, package_dir: &Path) -> Siblings {
    let mut s = Siblings {
        deps: BTreeMap::new(),
        crates: vec![],
        dirs: vec![],
    };
    let mut pending = vec![(None, package_dir.to_path_buf())];
    while let Some((from, dir)) = pending.pop() {
        for (name, dep) in path_deps(server, &dir) {
            let i = match s.dirs.iter().position(|d| d == &dep) {
                Some(i) => i,
                None => {
                    let lib = manifest(&dep)
                        .and_then(|m| m.get("package")?.get("name")?.as_str().map(str::to_string))
                        .unwrap_or_else(|| name.clone())
                        .replace('-', "_");
                    s.crates.push(CrateSource {
                        name: lib,
                        root: dep.join("src/lib.rs"),
                        deps: BTreeMap::new(),
                    });
                    s.dirs.push(dep.clone());
                    pending.push((Some(s.dirs.len() - 1), dep.clone()));
                    s.dirs.len() - 1
                }
            };
            match from {
                None => s.deps.insert(name, i),
                Some(f) => s.crates[f].deps.insert(name, i),
            };
        }
    }
    s
}

/// A sibling crate's files by path convention (`lib.rs` at `[]`), with an
/// empty module for each directory the excerpt has no `mod.rs` for.
fn crate_files(src: &Path) -> Vec<ModuleFile> {
    let mut paths = Vec::new();
    if src.is_dir() {
        rs_files(src, &mut paths);
    }
    let mut files: Vec<ModuleFile> = paths
        .iter()
        .filter(|p| !p.ends_with("main.rs") && !p.components().any(|c| c.as_os_str() == "bin"))
        .map(|p| {
            let file = Source::parse(std::fs::read_to_string(p).unwrap()).unwrap();
            let module = if p == &src.join("lib.rs") {
                vec![]
            } else {
                module_of(src, p)
            };
            (p.clone(), file, module)
        })
        .collect();
    let have: BTreeSet<Vec<String>> = files.iter().map(|f| f.2.clone()).collect();
    let mut missing = BTreeSet::new();
    for m in &have {
        for n in 0..m.len() {
            if !have.contains(&m[..n]) {
                missing.insert(m[..n].to_vec());
            }
        }
    }
    for m in missing {
        let path = m
            .iter()
            .fold(src.to_path_buf(), |p, s| p.join(s))
            .join("mod.rs");
        files.push((path, Source::parse("").unwrap(), m));
    }
    files
}

pub struct Outcome {
    pub found: FoundRmcpTool,
    pub result: Result<Tool, String>,
}

/// One `#[prompt]`: its name and its lockfile entry, or the build error.
#[allow(dead_code)] // read by rmcp_servers.rs, not by every test that derives
pub struct PromptOutcome {
    pub name: String,
    pub result: Result<Value, String>,
}

/// Discovery and derivation on every source directory of one server.
pub fn run_server(server: &Path) -> (Vec<Outcome>, Vec<PromptOutcome>) {
    let mut srcs = Vec::new();
    let mut all = Vec::new();
    rs_files(server, &mut all);
    let dirs: BTreeSet<PathBuf> = all
        .iter()
        .map(|p| p.parent().unwrap().to_path_buf())
        .collect();
    for d in &dirs {
        let is_src = d.file_name().is_some_and(|n| n == "src" || n == "tests")
            && !dirs
                .iter()
                .any(|o| o != d && d.starts_with(o) && o.file_name().is_some_and(|n| n == "src"));
        if is_src {
            let many_roots = d.ends_with("tests") || d.ends_with("examples/servers/src");
            srcs.push((d.clone(), many_roots));
        }
    }
    // Source directories without a `src`/`tests` parent in the excerpt.
    for d in &dirs {
        if !srcs.iter().any(|(s, _)| d.starts_with(s)) {
            let root = d
                .ancestors()
                .find(|a| a.file_name().is_some_and(|n| n == "src"));
            if let Some(r) = root {
                if !srcs.iter().any(|(s, _)| s == r) {
                    srcs.push((r.to_path_buf(), false));
                }
            }
        }
    }
    let mut seen = BTreeSet::new();
    let mut seen_prompts = BTreeSet::new();
    let mut out = Vec::new();
    let mut prompts = Vec::new();
    for (src, many) in srcs {
        let sib = siblings(server, src.parent().unwrap());
        for files in units(&src, many) {
            let found = find_rmcp_tools(&files).expect("discovery");
            let found_prompts = find_rmcp_prompts(&files).expect("prompt discovery");
            let mut index = TypeIndex::new(files).with_crates(sib.deps.clone(), sib.crates.clone());
            // As the build step does: derive, load the crates a path
            // reached, derive again (bounded: each round loads a crate).
            let (tool_results, prompt_results) = loop {
                let prompt_results: Vec<_> = found_prompts
                    .iter()
                    .map(|p| {
                        prompt_for(&index, Path::new("/"), p, &BTreeMap::new())
                            .map(|p| p.to_entry())
                            .map_err(|e| e.to_string())
                    })
                    .collect();
                let tool_results: Vec<_> = found
                    .iter()
                    .map(|f| {
                        tool_for(&index, Path::new("/"), f, &BTreeMap::new())
                            .map_err(|e| e.to_string())
                    })
                    .collect();
                let wanted = index.take_wanted();
                if wanted.is_empty() {
                    break (tool_results, prompt_results);
                }
                for i in wanted {
                    index.add_crate_files(i, crate_files(&sib.dirs[i].join("src")));
                }
            };
            for (p, result) in found_prompts.into_iter().zip(prompt_results) {
                if seen_prompts.insert((p.file.clone(), p.line)) {
                    prompts.push(PromptOutcome {
                        name: p.name.clone(),
                        result,
                    });
                }
            }
            for (f, result) in found.into_iter().zip(tool_results) {
                if seen.insert((f.file.clone(), f.line)) {
                    out.push(Outcome { found: f, result });
                }
            }
        }
    }
    (out, prompts)
}
