//! What the snippets are checked against: the workspace as `cargo metadata`
//! describes it (packages, their targets, features and dependencies), the
//! repository address, and the examples' sources.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

pub struct Workspace {
    pub root: PathBuf,
    pub repository: String,
    pub packages: Vec<Value>,
}

impl Workspace {
    pub fn load() -> Workspace {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .unwrap()
            .to_path_buf();
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let out = Command::new(cargo)
            .args([
                "metadata",
                "--no-deps",
                "--format-version",
                "1",
                "--offline",
            ])
            .current_dir(&root)
            .output()
            .expect("cargo metadata runs");
        assert!(
            out.status.success(),
            "cargo metadata: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let meta: Value = serde_json::from_slice(&out.stdout).unwrap();
        let packages = meta["packages"].as_array().unwrap().clone();
        let repository = packages
            .iter()
            .find(|p| p["name"] == "cargo-mcp-contract")
            .and_then(|p| p["repository"].as_str())
            .expect("the CLI's repository")
            .to_string();
        Workspace {
            root,
            repository,
            packages,
        }
    }

    pub fn package(&self, name: &str) -> Option<&Value> {
        self.packages.iter().find(|p| p["name"] == name)
    }

    /// The directory of a package's manifest.
    pub fn dir(&self, package: &Value) -> PathBuf {
        Path::new(package["manifest_path"].as_str().unwrap())
            .parent()
            .unwrap()
            .to_path_buf()
    }

    /// `(package, target)` for every target of `kind` (`test`, `bench`,
    /// `example`, `bin`).
    pub fn targets<'a>(&'a self, kind: &'a str) -> impl Iterator<Item = (&'a Value, &'a Value)> {
        self.packages.iter().flat_map(move |p| {
            p["targets"]
                .as_array()
                .unwrap()
                .iter()
                .filter(move |t| t["kind"].as_array().unwrap().iter().any(|k| k == kind))
                .map(move |t| (p, t))
        })
    }

    /// Every line (trimmed) of the examples' manifests, build scripts and
    /// Rust sources: what a Rust snippet may quote.
    pub fn example_lines(&self) -> Vec<String> {
        let mut files = Vec::new();
        for name in ["weather-server", "demo-server"] {
            let dir = self.dir(self.package(name).expect("the example"));
            files.push(dir.join("Cargo.toml"));
            files.push(dir.join("build.rs"));
            collect_rs(&dir.join("src"), &mut files);
        }
        files
            .iter()
            .flat_map(|f| {
                std::fs::read_to_string(f)
                    .unwrap_or_else(|e| panic!("{}: {e}", f.display()))
                    .lines()
                    .map(|l| l.trim().to_string())
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// Does `name` occur in a source file of `dir` (or of `tests/support`)?
    /// An environment variable a snippet sets must be read somewhere.
    pub fn mentions(&self, dir: &Path, name: &str) -> bool {
        let mut files = Vec::new();
        collect_rs(dir, &mut files);
        collect_rs(&self.root.join("tests/support"), &mut files);
        files.iter().any(|f| {
            std::fs::read_to_string(f)
                .map(|t| t.contains(name))
                .unwrap_or(false)
        })
    }
}

fn collect_rs(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "target") {
                collect_rs(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}
