//! A real two-server workspace, as a new user has one: built by this test in a
//! temporary directory with its own git repository, then gated.
//!
//! - `shared` holds domain types used by both servers (a `pub use`
//!   re-export, doc comments that must reach the schema);
//! - `weather` has a tool in `src/lib.rs` taking `shared::Geo` and
//!   `rmcp::model::Role` (a registry dependency that derives `JsonSchema`),
//!   and a second tool in `src/bin/admin.rs` taking a type of its own library;
//! - `orders` imports `shared::Geo` with `use`.
//!
//! The servers link `mcp-contract` without its default `gate` feature, as
//! the README tells servers to.
//!
//! The build, `check` from a subdirectory, `--workspace` (one stale package
//! never hides the other), the pre-commit hook on a staged stale lockfile,
//! pasting the printed entries and rebuilding once, and a bad `default`
//! (exit 2 at the entry's line) all run against it.
//!
//! The workspace is compiled into the target directory the workspace's
//! tests share for projects they build (`tests/support/child_build.rs`,
//! under cargo's `CARGO_TARGET_TMPDIR`), so only the first run compiles the
//! dependencies (the versions are the repository's `Cargo.lock`, resolved
//! offline); the whole story is one test so that it is built once.

mod check_support;
#[path = "../../tests/support/child_build.rs"]
mod child_build;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use check_support::{git_in, run_in, Run};
use serde_json::Value;

const LOCK: &str = "contracts/mcp-contract.lock";

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn edit(dir: &Path, rel: &str, from: &str, to: &str) {
    let p = dir.join(rel);
    let text = std::fs::read_to_string(&p).unwrap();
    assert!(text.contains(from), "{rel} has no `{from}`");
    std::fs::write(&p, text.replacen(from, to, 1)).unwrap();
}

fn server_manifest(name: &str, root: &Path) -> String {
    let root = root.display();
    format!(
        r#"[package]
name = "{name}"
version = "0.1.0"
edition = "2021"
publish = false

[dependencies]
mcp-contract = {{ path = "{root}/mcp-contract", default-features = false, features = ["macros"] }}
serde = {{ version = "1", features = ["derive"] }}
shared = {{ path = "../shared" }}
rmcp = {{ version = "3.11", default-features = false, features = ["schemars"] }}

[build-dependencies]
mcp-contract-build = {{ path = "{root}/mcp-contract-build" }}
"#
    )
}

const SHARED_LIB: &str = r#"//! Domain types both servers use.
mod geo;
pub use geo::Geo;

/// Units of measure.
#[derive(serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Units {
    Metric,
    Imperial,
}
"#;

const SHARED_GEO: &str = r#"/// A point on Earth.
#[derive(serde::Deserialize, serde::Serialize)]
pub struct Geo {
    /// Latitude in degrees.
    pub lat: f64,
    /// Longitude in degrees.
    pub lon: f64,
}
"#;

const WEATHER_LIB: &str = r#"/// Where a forecast is made.
#[derive(serde::Deserialize)]
pub struct Region {
    pub name: String,
}

/// Forecast the weather.
#[mcp_contract::tool(name = "forecast", read_only)]
#[derive(serde::Deserialize)]
pub struct ForecastArgs {
    /// Where.
    pub at: shared::Geo,
    /// How many days ahead.
    pub days: u8,
    pub units: Option<shared::Units>,
    /// Who asks.
    pub role: rmcp::model::Role,
}
"#;

const WEATHER_BIN: &str = r#"/// Drop the cached forecasts of a region.
#[mcp_contract::tool(name = "purge_cache", destructive)]
#[derive(serde::Deserialize)]
pub struct PurgeArgs {
    pub region: weather::Region,
}

fn main() {}
"#;

const ORDERS_LIB: &str = r#"use shared::Geo;

/// Ship an order.
#[mcp_contract::tool(name = "ship")]
#[derive(serde::Deserialize)]
pub struct ShipArgs {
    /// Deliver here.
    pub to: Geo,
}
"#;

/// The workspace, committed, in a fresh git repository.
fn create(dir: &Path) {
    let root = repo_root();
    write(
        dir,
        "Cargo.toml",
        &format!(
            "[workspace]\nresolver = \"2\"\nmembers = [\"shared\", \"weather\", \"orders\"]\n{}",
            child_build::PROFILE
        ),
    );
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    write(
        dir,
        "shared/Cargo.toml",
        "[package]\nname = \"shared\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\nserde = { version = \"1\", features = [\"derive\"] }\n",
    );
    write(dir, "shared/src/lib.rs", SHARED_LIB);
    write(dir, "shared/src/geo.rs", SHARED_GEO);
    for (name, lib) in [("weather", WEATHER_LIB), ("orders", ORDERS_LIB)] {
        write(
            dir,
            &format!("{name}/Cargo.toml"),
            &server_manifest(name, &root),
        );
        write(
            dir,
            &format!("{name}/build.rs"),
            "fn main() { mcp_contract_build::snapshot() }\n",
        );
        write(dir, &format!("{name}/src/lib.rs"), lib);
    }
    write(dir, "weather/src/bin/admin.rs", WEATHER_BIN);
    write(dir, ".gitignore", "/target\n");
    git_in(dir, &["init", "-q"]);
}

fn target_dir() -> PathBuf {
    child_build::target_dir()
}

/// `cargo build --workspace` offline, as a developer runs it (no CI, not locked).
fn cargo_build(dir: &Path) -> Output {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    Command::new(cargo)
        .args([
            "build",
            "--workspace",
            "--offline",
            "--quiet",
            "--target-dir",
        ])
        .arg(target_dir())
        .current_dir(dir)
        .env_remove("CI")
        .env_remove("MCP_CONTRACT_LOCKED")
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs")
}

fn build_ok(dir: &Path) {
    let out = cargo_build(dir);
    assert!(
        out.status.success(),
        "cargo build failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn lock(dir: &Path, package: &str) -> Value {
    let text = std::fs::read_to_string(dir.join(package).join(LOCK)).expect("a lockfile");
    serde_json::from_str(&text).unwrap()
}

fn commit(dir: &Path, msg: &str) {
    git_in(dir, &["add", "-A"]);
    git_in(dir, &["commit", "-q", "-m", msg]);
}

/// The `[[acknowledge]]` blocks a failing check printed, with reason and owner filled in.
fn printed_entries(run: &Run) -> String {
    let mut out = String::new();
    let mut inside = false;
    for line in run.stdout.lines() {
        let line = line.trim_start();
        if line == "[[acknowledge]]" {
            inside = true;
            out.push('\n');
        } else if line.is_empty() || !(line.contains(" = ") || line.starts_with('#')) {
            inside = false;
        }
        if inside {
            let filled = match line {
                "reason = \"\"" => "reason = \"clearer name\"",
                "owner = \"\"" => "owner = \"@weather\"",
                other => other,
            };
            out.push_str(filled);
            out.push('\n');
        }
    }
    out
}

#[test]
fn a_two_server_workspace_builds_and_is_gated() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    create(dir);

    // 1. Build: every target of each server is locked; types from the shared
    //    crate and from rmcp carry their doc comments and variants.
    build_ok(dir);
    let weather = lock(dir, "weather");
    let tools: Vec<&String> = weather["tools"].as_object().unwrap().keys().collect();
    assert_eq!(tools, ["forecast", "purge_cache"], "{weather}");
    let forecast = weather["tools"]["forecast"]["inputSchema"].to_string();
    for needle in [
        "Latitude in degrees.",
        "A point on Earth.",
        "\"metric\"",
        "\"assistant\"",
        "Who asks.",
    ] {
        assert!(forecast.contains(needle), "{needle} missing: {forecast}");
    }
    let purge = weather["tools"]["purge_cache"]["inputSchema"].to_string();
    assert!(purge.contains("Where a forecast is made."), "{purge}");
    let orders = lock(dir, "orders");
    let ship = orders["tools"]["ship"]["inputSchema"].to_string();
    assert!(ship.contains("Longitude in degrees."), "{ship}");
    commit(dir, "two servers");

    // 2. Check from a subdirectory, and the workspace from another crate's.
    let r = run_in(
        &dir.join("weather/src/bin"),
        &["check", "--against", "HEAD"],
    );
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.contains("weather/contracts/mcp-contract.lock"),
        "{r:?}"
    );
    let r = run_in(
        &dir.join("shared/src"),
        &["check", "--workspace", "--against", "HEAD"],
    );
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.contains("orders/contracts/mcp-contract.lock"),
        "{r:?}"
    );

    // 3. One package stale: it is reported, the other is still checked.
    edit(
        dir,
        "weather/src/lib.rs",
        "/// How many days ahead.",
        "/// Days ahead.",
    );
    let r = run_in(dir, &["check", "--workspace", "--against", "HEAD"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("package `weather`"), "{r:?}");
    assert!(
        r.stdout.contains("orders/contracts/mcp-contract.lock"),
        "{r:?}"
    );
    git_in(dir, &["checkout", "--", "weather/src/lib.rs"]);

    // 4. The pre-commit hook: a shared type changed and staged without the
    //    rebuilt lockfiles must not be committed.
    let r = run_in(dir, &["install-hook"]);
    assert_eq!(r.code, 0, "{r:?}");
    edit(
        dir,
        "shared/src/geo.rs",
        "/// Latitude in degrees.",
        "/// Latitude, degrees north.",
    );
    git_in(dir, &["add", "shared/src/geo.rs"]);
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_cargo-mcp-contract"))
        .parent()
        .unwrap()
        .to_path_buf();
    let path = std::env::join_paths(
        std::iter::once(bin_dir).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    let head = git_in(dir, &["rev-parse", "HEAD"]);
    let out = Command::new("git")
        .args(["-c", "commit.gpgsign=false", "commit", "-q", "-m", "stale"])
        .current_dir(dir)
        .env("PATH", &path)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "T")
        .env("GIT_AUTHOR_EMAIL", "t@example.invalid")
        .env("GIT_COMMITTER_NAME", "T")
        .env("GIT_COMMITTER_EMAIL", "t@example.invalid")
        .env_remove("CI")
        .output()
        .unwrap();
    let hook_err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success(),
        "the hook let a stale lockfile through: {hook_err}"
    );
    assert!(
        hook_err.contains("out of date with the sources"),
        "{hook_err}"
    );
    assert_eq!(
        git_in(dir, &["rev-parse", "HEAD"]),
        head,
        "nothing committed"
    );
    // Rebuilt and staged: the commit goes through the same hook.
    build_ok(dir);
    git_in(dir, &["add", "-A"]);
    let out = Command::new("git")
        .args([
            "-c",
            "commit.gpgsign=false",
            "commit",
            "-q",
            "-m",
            "latitude wording",
        ])
        .current_dir(dir)
        .env("PATH", &path)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "T")
        .env("GIT_AUTHOR_EMAIL", "t@example.invalid")
        .env("GIT_COMMITTER_NAME", "T")
        .env("GIT_COMMITTER_EMAIL", "t@example.invalid")
        .env_remove("CI")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "the hook refused a fresh commit: {}",
        String::from_utf8_lossy(&out.stderr)
    );

    // 5. Rename a required field: the check prints the entries; pasted as
    //    printed (reason and owner filled in), the first rebuild passes.
    edit(
        dir,
        "weather/src/lib.rs",
        "pub days: u8,",
        "pub num_days: u8,",
    );
    build_ok(dir);
    let r = run_in(&dir.join("weather"), &["check", "--against", "HEAD"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        !r.stdout.contains("value = \"\""),
        "no placeholder default: {r:?}"
    );
    let entries = printed_entries(&r);
    assert!(entries.contains("kind = \"rename\""), "{entries}\n{r:?}");
    write(
        dir,
        "weather/contracts/migrations.toml",
        &format!("version = 1\n{entries}"),
    );
    build_ok(dir);
    let r = run_in(&dir.join("weather"), &["check", "--against", "HEAD"]);
    assert_eq!(
        r.code, 0,
        "pasted entries must match after one rebuild:\n{entries}\n{r:?}"
    );
    println!(
        "pasted:\n{entries}\nthe check after one rebuild:\n{}",
        r.stdout
    );

    // 6. A default the field's schema rejects: exit 2 at the entry's line.
    let bad = format!(
        "{}\n[[acknowledge]]\ntool = \"forecast\"\nrule = \"input.required-added\"\npointer = \"/inputSchema/required\"\nsubject = \"role\"\nreason = \"x\"\nowner = \"@w\"\ntransition = {{ kind = \"default\", field = \"num_days\", value = \"\" }}\n",
        std::fs::read_to_string(dir.join("weather/contracts/migrations.toml")).unwrap()
    );
    write(dir, "weather/contracts/migrations.toml", &bad);
    let line = bad.lines().count() - 7;
    let out = cargo_build(dir);
    assert!(!out.status.success(), "the build accepted a bad default");
    let r = run_in(dir, &["check", "-p", "weather", "--against", "HEAD"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr.contains(&format!("migrations.toml:{line}:1")),
        "line {line}: {r:?}"
    );
    assert!(
        r.stderr.contains("does not fit the field's schema"),
        "{r:?}"
    );
}
