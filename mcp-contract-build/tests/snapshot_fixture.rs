//! End-to-end: the fixture crate `tests/fixtures/tiny-server` is copied to
//! temporary directories and built with cargo, as a user's package would be.
//! The first build of a target directory compiles the dependencies (about a
//! minute); later builds reuse `shared_target()`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Mutex, MutexGuard, OnceLock};

use serde_json::Value;

const LOCK: &str = "contracts/mcp-contract.lock";

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiny-server")
}

/// A scratch area for the whole test run, under cargo's temp directory for
/// tests (a `static` temp dir is never dropped, so it leaked ~600 MB a run).
/// Reused across runs: everything but the shared target directory is
/// removed when the run starts, so every copied fixture is fresh.
fn scratch() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("snapshot_fixture");
        if let Ok(entries) = std::fs::read_dir(&dir) {
            for e in entries.flatten() {
                if e.file_name() != "target-shared" {
                    let path = e.path();
                    let _ = std::fs::remove_dir_all(&path).or_else(|_| std::fs::remove_file(&path));
                }
            }
        }
        std::fs::create_dir_all(&dir).expect("scratch dir");
        dir
    })
}

/// Serializes the tests: they share one target directory.
fn serial() -> MutexGuard<'static, ()> {
    static M: Mutex<()> = Mutex::new(());
    M.lock().unwrap_or_else(|e| e.into_inner())
}

fn shared_target() -> PathBuf {
    scratch().join("target-shared")
}

/// Copies the fixture to `dest` (a fresh directory) with a real Cargo.toml.
fn copy_fixture(dest: &Path) {
    fn copy_dir(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            let target = to.join(entry.file_name());
            if entry.file_type().unwrap().is_dir() {
                copy_dir(&entry.path(), &target);
            } else {
                std::fs::copy(entry.path(), &target).unwrap();
            }
        }
    }
    copy_dir(&fixture_dir(), dest);
    let template = std::fs::read_to_string(dest.join("Cargo.toml.in")).unwrap();
    let root = workspace_root().display().to_string();
    std::fs::write(
        dest.join("Cargo.toml"),
        template.replace("@WORKSPACE@", &root),
    )
    .unwrap();
    std::fs::remove_file(dest.join("Cargo.toml.in")).unwrap();
    // Same dependency versions as the workspace, resolved offline.
    let _ = std::fs::copy(workspace_root().join("Cargo.lock"), dest.join("Cargo.lock"));
}

/// `cargo build` of the package at `dir`, with a controlled environment:
/// CI and MCP_CONTRACT_LOCKED are unset unless given in `env`.
fn cargo_build(dir: &Path, target: &Path, env: &[(&str, &str)]) -> Output {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.args(["build", "--offline", "-v", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(target)
        .env_remove("CI")
        .env_remove("MCP_CONTRACT_LOCKED")
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("RUSTFLAGS")
        .current_dir(dir);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("run cargo")
}

fn build_ok(dir: &Path, target: &Path) -> Output {
    let out = cargo_build(dir, target, &[]);
    assert!(
        out.status.success(),
        "cargo build failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn read_lock(dir: &Path) -> String {
    std::fs::read_to_string(dir.join(LOCK)).expect("lockfile written")
}

fn tool_entry(lock: &str, tool: &str) -> Value {
    let v: Value = serde_json::from_str(lock).unwrap();
    v["tools"][tool].clone()
}

fn edit(dir: &Path, file: &str, from: &str, to: &str) {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "fixture has no `{from}`");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn two_clean_builds_in_different_paths_give_identical_lockfiles() {
    let _guard = serial();
    let a = scratch().join("a/tiny-server");
    let b = scratch().join("b/some/deeper/path/tiny-server");
    copy_fixture(&a);
    copy_fixture(&b);
    build_ok(&a, &shared_target());
    build_ok(&b, &scratch().join("target-clean-b"));
    let (la, lb) = (read_lock(&a), read_lock(&b));
    assert_eq!(la, lb, "lockfiles differ between the two builds");
    let surface = mcp_contract::lockfile::parse(la.as_bytes(), "a.lock").unwrap();
    let names: Vec<&String> = surface.tools.keys().collect();
    assert_eq!(names, ["greet", "lookup"]);
    assert!(
        !la.contains(&scratch().display().to_string()),
        "a path leaked into the lockfile"
    );
}

#[test]
fn changing_one_field_changes_exactly_that_in_the_lockfile() {
    let _guard = serial();
    let dir = scratch().join("field-change/tiny-server");
    copy_fixture(&dir);
    build_ok(&dir, &shared_target());
    let before = read_lock(&dir);
    edit(
        &dir,
        "src/tools.rs",
        "pub limit: Option<u32>,",
        "pub limit: Option<u64>,",
    );
    build_ok(&dir, &shared_target());
    let after = read_lock(&dir);
    assert_ne!(before, after);
    assert_eq!(tool_entry(&before, "greet"), tool_entry(&after, "greet"));
    let (mut old, mut new) = (tool_entry(&before, "lookup"), tool_entry(&after, "lookup"));
    let limit = |v: &mut Value| v["inputSchema"]["properties"]["limit"].take();
    assert_ne!(
        limit(&mut old),
        limit(&mut new),
        "the `limit` schema did not change"
    );
    old["digest"].take();
    new["digest"].take();
    assert_eq!(
        old, new,
        "something besides `limit` (and the digest) changed"
    );
}

#[test]
fn no_op_build_does_not_rerun_the_build_script() {
    let _guard = serial();
    let dir = scratch().join("no-op/tiny-server");
    copy_fixture(&dir);
    build_ok(&dir, &shared_target());
    let second = build_ok(&dir, &shared_target());
    let log = String::from_utf8_lossy(&second.stderr);
    let relevant: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("tiny-server") || l.contains("Dirty") || l.contains("build-script"))
        .collect();
    // Other work in a shared checkout may legitimately rebuild a path
    // dependency; what must not happen is a rerun caused by the package's own
    // files (its sources or the lockfile the first build wrote).
    let dirty: Vec<&&str> = relevant
        .iter()
        .filter(|l| l.contains("Dirty tiny-server"))
        .collect();
    assert!(
        dirty.iter().all(|l| l.contains("the dependency")),
        "the second build did work:\n{}",
        relevant.join("\n")
    );
    if dirty.is_empty() {
        assert!(log.contains("Fresh tiny-server"), "{}", relevant.join("\n"));
    }
}

#[test]
fn removed_tool_disappears_from_the_lockfile() {
    let _guard = serial();
    let dir = scratch().join("removal/tiny-server");
    copy_fixture(&dir);
    build_ok(&dir, &shared_target());
    assert!(read_lock(&dir).contains("\"greet\""));
    edit(
        &dir,
        "src/tools.rs",
        "#[mcp_contract::tool(name = \"greet\")]",
        "",
    );
    build_ok(&dir, &shared_target());
    let lock = read_lock(&dir);
    assert!(
        !lock.contains("\"greet\""),
        "greet is still locked:\n{lock}"
    );
    assert!(lock.contains("\"lookup\""));
}

#[test]
fn ci_mode_refuses_to_write_and_prints_the_fix() {
    let _guard = serial();
    let dir = scratch().join("ci/tiny-server");
    copy_fixture(&dir);
    build_ok(&dir, &shared_target());
    let locked = read_lock(&dir);
    edit(
        &dir,
        "src/tools.rs",
        "/// Say hello.",
        "/// Say hello politely.",
    );

    for env in [[("CI", "true")], [("MCP_CONTRACT_LOCKED", "1")]] {
        let out = cargo_build(&dir, &shared_target(), &env);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{env:?}: a stale lockfile passed");
        assert!(
            stderr.contains("contracts/mcp-contract.lock: out of date"),
            "{stderr}"
        );
        assert!(stderr.contains("changed: greet"), "{stderr}");
        assert!(
            stderr.contains("run `MCP_CONTRACT_LOCKED=0 cargo build -p tiny-server`"),
            "{stderr}"
        );
        assert_eq!(read_lock(&dir), locked, "{env:?}: the lockfile was written");
    }

    // The printed command fixes it, even with CI still set.
    let fixed = cargo_build(
        &dir,
        &shared_target(),
        &[("CI", "true"), ("MCP_CONTRACT_LOCKED", "0")],
    );
    assert!(
        fixed.status.success(),
        "{}",
        String::from_utf8_lossy(&fixed.stderr)
    );
    assert!(read_lock(&dir).contains("Say hello politely."));

    // A missing lockfile is not created in CI either.
    std::fs::remove_file(dir.join(LOCK)).unwrap();
    let out = cargo_build(&dir, &shared_target(), &[("CI", "1")]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("contracts/mcp-contract.lock: missing"),
        "{stderr}"
    );
    assert!(!dir.join(LOCK).exists());
}

/// Whether `needle` occurs anywhere in `v` (as `v` itself or nested).
fn contains_value(v: &Value, needle: &Value) -> bool {
    v == needle
        || match v {
            Value::Object(m) => m.values().any(|x| contains_value(x, needle)),
            Value::Array(a) => a.iter().any(|x| contains_value(x, needle)),
            _ => false,
        }
}

#[test]
fn escape_hatch_the_help_recommends_compiles_and_is_locked() {
    let _guard = serial();
    let dir = scratch().join("escape-hatch/tiny-server");
    copy_fixture(&dir);
    let lib = std::fs::read_to_string(dir.join("src/lib.rs")).unwrap();
    std::fs::write(dir.join("src/lib.rs"), format!("{lib}pub mod hatch;\n")).unwrap();
    let hatch = r##"//! Types the build step cannot derive a schema for.
use std::sync::mpsc::{Receiver, Sender};

/// Redeem a token.
#[mcp_contract::tool(name = "redeem")]
pub struct RedeemArgs {
    pub token: Token,
    pub window: Window,
}

/// An opaque token.
/*TOKEN*/
pub struct Token(Sender<u8>);

/// When to redeem it.
#[mcp_contract::schema]
pub struct Window {
    #[mcp_contract(schema = r#"{"type": "string", "format": "duration"}"#)]
    pub length: Receiver<u64>,
    pub label: String,
}
"##;
    std::fs::write(dir.join("src/hatch.rs"), hatch).unwrap();

    // Without the escape hatch: a build error whose help names the spellings.
    let out = cargo_build(&dir, &shared_target(), &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success(),
        "an opaque type was derived:\n{stderr}"
    );
    assert!(stderr.contains("src/hatch.rs"), "{stderr}");
    assert!(
        stderr.contains("`#[mcp_contract::schema(r#\"{ ... }\"#)]` on the type's definition"),
        "{stderr}"
    );
    assert!(
        stderr.contains("`#[mcp_contract(schema = r#\"{ ... }\"#)]` on the field"),
        "{stderr}"
    );

    // With the type-level spelling the help gives: it compiles and is locked.
    edit(
        &dir,
        "src/hatch.rs",
        "/*TOKEN*/",
        r##"#[mcp_contract::schema(r#"{"type": "string", "pattern": "^tok_[a-z0-9]+$"}"#)]"##,
    );
    build_ok(&dir, &shared_target());
    let input = &tool_entry(&read_lock(&dir), "redeem")["inputSchema"];
    let token = serde_json::json!({"type": "string", "pattern": "^tok_[a-z0-9]+$"});
    let length = serde_json::json!({"type": "string", "format": "duration"});
    assert!(
        contains_value(input, &token),
        "token schema not locked: {input}"
    );
    assert!(
        contains_value(input, &length),
        "field schema not locked: {input}"
    );
    assert!(
        contains_value(input, &serde_json::json!({"type": "string"})),
        "the `label` field is derived as usual: {input}"
    );
}
