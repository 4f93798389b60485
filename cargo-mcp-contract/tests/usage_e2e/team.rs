//! A team's repository for the removal scenario: a copy of the workspace's
//! demo server (its sources, `build.rs`, `contracts/`) as a crate of its
//! own in a temporary git repository, with the workspace's dependencies
//! written out (absolute paths to this repository's crates, the workspace
//! lockfile), built offline into one target directory under this
//! workspace's target (kept between runs, so dependencies compile once).
//! The crate also builds `examples/agent.rs`, a client on rmcp.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use toml_edit::{DocumentMut, Item, Value};

pub const CLI: &str = env!("CARGO_BIN_EXE_cargo-mcp-contract");

pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap()
}

/// This workspace's target directory (the CLI binary lives in `<target>/debug`).
fn target_dir() -> PathBuf {
    Path::new(CLI)
        .parent()
        .and_then(Path::parent)
        .expect("the CLI binary sits in <target>/<profile>")
        .to_path_buf()
}

pub struct Team {
    pub dir: PathBuf,
    pub target: PathBuf,
}

pub fn run(cmd: &mut Command) -> Output {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    out
}

pub fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn ok(cmd: &mut Command) -> Output {
    let out = run(cmd);
    assert!(out.status.success(), "{cmd:?} failed:\n{}", text(&out));
    out
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let dest = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &dest);
        } else {
            std::fs::copy(entry.path(), dest).unwrap();
        }
    }
}

/// A TOML value as text (the few kinds a manifest here holds).
fn toml(v: &Value) -> String {
    match v {
        Value::String(s) => serde_json::to_string(s.value()).unwrap(),
        Value::Boolean(b) => b.value().to_string(),
        Value::Integer(i) => i.value().to_string(),
        Value::Array(a) => format!("[{}]", a.iter().map(toml).collect::<Vec<_>>().join(", ")),
        Value::InlineTable(t) => format!(
            "{{ {} }}",
            t.iter()
                .map(|(k, v)| format!("{k} = {}", toml(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => panic!("unexpected manifest value {other:?}"),
    }
}

fn item_value(item: &Item) -> Value {
    match item {
        Item::Value(v) => v.clone(),
        Item::Table(t) => Value::InlineTable(t.clone().into_inline_table()),
        other => panic!("unexpected manifest item {other:?}"),
    }
}

/// The demo server's manifest as a crate of its own: `*.workspace = true`
/// replaced by the workspace's values, relative paths made absolute.
fn standalone_manifest(ws: &Path) -> String {
    let root: DocumentMut = std::fs::read_to_string(ws.join("Cargo.toml"))
        .unwrap()
        .parse()
        .unwrap();
    let demo = ws.join("examples/demo-server");
    let doc: DocumentMut = std::fs::read_to_string(demo.join("Cargo.toml"))
        .unwrap()
        .parse()
        .unwrap();
    let mut out = String::from("[package]\n");
    for (key, v) in doc["package"].as_table().unwrap().iter() {
        let v = if v.get("workspace").is_some() {
            &root["workspace"]["package"][key]
        } else {
            v
        };
        out.push_str(&format!("{key} = {}\n", toml(&item_value(v))));
    }
    let shared = root["workspace"]["dependencies"].as_table().unwrap();
    for section in ["dependencies", "build-dependencies", "dev-dependencies"] {
        let Some(deps) = doc.get(section).and_then(Item::as_table_like) else {
            continue;
        };
        out.push_str(&format!("\n[{section}]\n"));
        for (name, item) in deps.iter() {
            let mut table = toml_edit::InlineTable::new();
            let own = item.as_table_like();
            if own.and_then(|t| t.get("workspace")).is_some() {
                match item_value(&shared[name]) {
                    Value::String(v) => {
                        table.insert("version", Value::from(v.value().clone()));
                    }
                    Value::InlineTable(t) => {
                        for (k, v) in t.iter() {
                            table.insert(k, v.clone());
                        }
                    }
                    other => panic!("unexpected workspace dependency {other:?}"),
                }
            } else if let Some(v) = item.as_str() {
                table.insert("version", Value::from(v));
            }
            if let Some(own) = own {
                for (k, v) in own.iter().filter(|(k, _)| *k != "workspace") {
                    let v = item_value(v);
                    if k == "features" {
                        let mut all = table
                            .get("features")
                            .and_then(Value::as_array)
                            .cloned()
                            .unwrap_or_default();
                        all.extend(v.as_array().unwrap().iter().cloned());
                        table.insert("features", Value::Array(all));
                    } else {
                        table.insert(k, v);
                    }
                }
            }
            if let Some(p) = table.get("path").and_then(Value::as_str) {
                let base = if own.and_then(|t| t.get("path")).is_some() {
                    &demo
                } else {
                    ws
                };
                let abs = base.join(p).canonicalize().unwrap();
                table.insert("path", Value::from(abs.display().to_string()));
            }
            out.push_str(&format!("{name} = {}\n", toml(&Value::InlineTable(table))));
        }
    }
    out.push_str("\n[[example]]\nname = \"agent\"\npath = \"examples/agent.rs\"\n\n[workspace]\n");
    out
}

impl Team {
    /// The demo server's crate, committed as the first revision.
    pub fn new(dir: &Path) -> Team {
        let ws = workspace();
        let demo = ws.join("examples/demo-server");
        for sub in ["src", "contracts"] {
            copy_dir(&demo.join(sub), &dir.join(sub));
        }
        std::fs::copy(demo.join("build.rs"), dir.join("build.rs")).unwrap();
        std::fs::copy(ws.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
        std::fs::create_dir_all(dir.join("examples")).unwrap();
        std::fs::copy(
            ws.join("cargo-mcp-contract/tests/usage_e2e/rmcp_agent.rs"),
            dir.join("examples/agent.rs"),
        )
        .unwrap();
        std::fs::write(dir.join("Cargo.toml"), standalone_manifest(&ws)).unwrap();
        std::fs::write(dir.join(".gitignore"), "/target\n/bin\n").unwrap();
        let team = Team {
            dir: dir.to_path_buf(),
            target: target_dir().join("usage-e2e"),
        };
        team.git(&["init", "-q", "-b", "main"]);
        team.commit("the demo server, serving `query` as an alias of `search_text`");
        team
    }

    pub fn git(&self, args: &[&str]) -> Output {
        ok(Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
            .args(args)
            .current_dir(&self.dir))
    }

    pub fn commit(&self, message: &str) {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "-m", message]);
    }

    /// Builds the server and the rmcp agent as the sources are now and
    /// copies both to `bin/<tag>/` (a developer's build: the build step may
    /// rewrite the lockfile, so `CI` is not passed on).
    pub fn build(&self, tag: &str) -> (PathBuf, PathBuf) {
        ok(Command::new(env!("CARGO"))
            .args([
                "build",
                "--offline",
                "--quiet",
                "--bins",
                "--example",
                "agent",
            ])
            .current_dir(&self.dir)
            .env("CARGO_TARGET_DIR", &self.target)
            .env_remove("CI")
            .env_remove("RUSTFLAGS"));
        let bin = self.dir.join("bin").join(tag);
        std::fs::create_dir_all(&bin).unwrap();
        let exe = std::env::consts::EXE_SUFFIX;
        let server = bin.join(format!("demo-server{exe}"));
        let agent = bin.join(format!("agent{exe}"));
        std::fs::copy(self.target.join(format!("debug/demo-server{exe}")), &server).unwrap();
        std::fs::copy(
            self.target.join(format!("debug/examples/agent{exe}")),
            &agent,
        )
        .unwrap();
        (server, agent)
    }

    /// `cargo mcp-contract ARGS` in the team's repository.
    pub fn cli(&self, args: &[&str]) -> Output {
        run(Command::new(CLI)
            .arg("mcp-contract")
            .args(args)
            .current_dir(&self.dir)
            .env_remove("CI"))
    }
}
