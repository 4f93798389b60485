//! Benchmark: a generated crate with 200 tools (one module each, nested
//! struct, enum, `Option`, `Vec`, an output type).
//!
//! Reports (medians):
//! - the build-script work: `Builder::generate` run in-process on the crate
//!   (walk 201 files, parse, derive 400 schemas, render, compare);
//! - incremental `cargo build` after touching one tool, with the snapshot
//!   step (attribute + `build.rs`) and without it (the same crate with no
//!   attribute and no build script).
//!
//! Run: `cargo bench -p mcp-contract-build --bench snapshot_200`
//! (`ITERATIONS=n` to change the number of timed rebuilds; default 5).
//! Not run by `cargo test`: without `--bench` it only prints how to run it.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use mcp_contract_build::{Builder, Mode};

const TOOLS: usize = 200;
const TOUCHED: usize = 17;

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        println!("snapshot_200: run with `cargo bench -p mcp-contract-build --bench snapshot_200`");
        return;
    }
    let iterations: usize = std::env::var("ITERATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    // BENCH_DIR keeps the generated crates and their target directory
    // between runs (skipping the first, dependency-compiling builds).
    let scratch = tempfile::tempdir().expect("temp dir");
    let root = std::env::var_os("BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| scratch.path().to_path_buf());
    let target = root.join("target");
    let with = root.join("bench-tools");
    let without = root.join("bench-plain");
    generate(&with, "bench-tools", true);
    generate(&without, "bench-plain", false);

    eprintln!("initial builds (dependencies compile once)...");
    let t = cargo_build(&with, &target);
    eprintln!("  first build with snapshot:    {t:>8.2?}");
    let t = cargo_build(&without, &target);
    eprintln!("  first build without snapshot: {t:>8.2?}");

    let out_dir = root.join("out");
    let runs = iterations.max(3);
    let in_process = timed(runs, || {
        let snap = Builder::new()
            .manifest_dir(&with)
            .out_dir(&out_dir)
            .package("bench-tools")
            .mode(Mode::Update)
            .quiet()
            .generate()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(snap.surface.len(), TOOLS);
    });
    // The build script cargo compiled (dev profile), run the way cargo runs it.
    let script_bin = find_build_script(&target, "bench-tools");
    let as_cargo_runs_it = timed(runs, || {
        let out = Command::new(&script_bin)
            .current_dir(&with)
            .env("CARGO_MANIFEST_DIR", &with)
            .env("OUT_DIR", &out_dir)
            .env("CARGO_PKG_NAME", "bench-tools")
            .env("CARGO_PKG_VERSION", "0.1.0")
            .env("MCP_CONTRACT_LOCKED", "0")
            .env_remove("CI")
            .output()
            .expect("run the build script");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    });

    let mut inc_with = Vec::new();
    let mut inc_without = Vec::new();
    for i in 0..iterations {
        touch(&with, i);
        inc_with.push(cargo_build(&with, &target));
        touch(&without, i);
        inc_without.push(cargo_build(&without, &target));
    }
    let (w, wo) = (median(inc_with), median(inc_without));
    let overhead = (w.as_secs_f64() - wo.as_secs_f64()) / wo.as_secs_f64() * 100.0;
    println!("snapshot_200: {TOOLS} tools, medians of {iterations} runs");
    println!(
        "  build script, as cargo runs it (dev profile): {:>7.1} ms",
        ms(as_cargo_runs_it)
    );
    println!(
        "  Builder::generate in-process (bench profile): {:>7.1} ms",
        ms(in_process)
    );
    println!(
        "  incremental build after touching one tool, with snapshot:    {:>6.0} ms",
        ms(w)
    );
    println!(
        "  incremental build after touching one tool, without snapshot: {:>6.0} ms",
        ms(wo)
    );
    println!("  snapshot overhead on the incremental build: {overhead:+.1}%");
}

/// Median wall time of `runs` calls of `f`.
fn timed(runs: usize, mut f: impl FnMut()) -> Duration {
    median(
        (0..runs)
            .map(|_| {
                let start = Instant::now();
                f();
                start.elapsed()
            })
            .collect(),
    )
}

/// `<target>/debug/build/<package>-<hash>/build-script-build`.
fn find_build_script(target: &Path, package: &str) -> PathBuf {
    let prefix = format!("{package}-");
    std::fs::read_dir(target.join("debug/build"))
        .expect("target/debug/build")
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .map(|e| e.path().join("build-script-build"))
        .find(|p| p.is_file())
        .expect("the compiled build script")
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn cargo_build(dir: &Path, target: &Path) -> Duration {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let start = Instant::now();
    let out = Command::new(cargo)
        .args(["build", "--offline", "--quiet", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(target)
        .env_remove("CI")
        .env_remove("CARGO_TARGET_DIR")
        .env("MCP_CONTRACT_LOCKED", "0")
        .output()
        .expect("run cargo");
    let elapsed = start.elapsed();
    assert!(
        out.status.success(),
        "cargo build failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    elapsed
}

/// Changes one tool's doc comment (a real contract change: its description).
fn touch(dir: &Path, iteration: usize) {
    let path = dir.join(format!("src/tools/t{TOUCHED}.rs"));
    let text = std::fs::read_to_string(&path).unwrap();
    let first = text.lines().next().unwrap().to_string();
    let text = text.replacen(
        &first,
        &format!("/// Tool {TOUCHED}, revision {iteration}."),
        1,
    );
    std::fs::write(&path, text).unwrap();
}

fn generate(dir: &Path, name: &str, snapshot: bool) {
    std::fs::create_dir_all(dir.join("src/tools")).unwrap();
    let root = workspace_root().display().to_string();
    let mut manifest = format!(
        "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n[workspace]\n\n\
         [dependencies]\nserde = {{ version = \"1\", features = [\"derive\"] }}\n\
         mcp-contract = {{ path = \"{root}/mcp-contract\", features = [\"macros\"] }}\n\n\
         [profile.dev]\ndebug = false\n"
    );
    if snapshot {
        manifest.push_str(&format!(
            "\n[build-dependencies]\nmcp-contract-build = {{ path = \"{root}/mcp-contract-build\" }}\n"
        ));
        std::fs::write(
            dir.join("build.rs"),
            "fn main() {\n    mcp_contract_build::snapshot();\n}\n",
        )
        .unwrap();
    }
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    let _ = std::fs::copy(workspace_root().join("Cargo.lock"), dir.join("Cargo.lock"));
    std::fs::write(dir.join("src/lib.rs"), "pub mod tools;\n").unwrap();
    let mods: String = (0..TOOLS).map(|i| format!("pub mod t{i};\n")).collect();
    std::fs::write(dir.join("src/tools/mod.rs"), mods).unwrap();
    for i in 0..TOOLS {
        let attr = if snapshot {
            format!("#[mcp_contract::tool(name = \"tool_{i}\", version = 1, output = Out{i}, read_only)]\n")
        } else {
            String::new()
        };
        let src = format!(
            "/// Tool {i}: does thing {i}.\n\
             {attr}#[derive(Debug, serde::Deserialize)]\n\
             pub struct Args{i} {{\n\
             \x20   /// What to look for.\n    pub query: String,\n\
             \x20   /// At most this many hits.\n    pub limit: Option<u32>,\n\
             \x20   pub filter: Filter{i},\n    pub tags: Vec<String>,\n\
             \x20   #[serde(default)]\n    pub mode: Mode{i},\n}}\n\n\
             /// A range filter.\n#[derive(Debug, Default, serde::Deserialize)]\n\
             pub struct Filter{i} {{\n    pub min: Option<i64>,\n    pub max: Option<i64>,\n}}\n\n\
             /// How to match.\n#[derive(Debug, Default, serde::Deserialize)]\n#[serde(rename_all = \"snake_case\")]\n\
             pub enum Mode{i} {{\n    #[default]\n    Fast,\n    Exact,\n}}\n\n\
             /// The hits.\n#[derive(Debug, serde::Serialize)]\n\
             pub struct Out{i} {{\n    pub hits: Vec<String>,\n    pub total: u64,\n}}\n"
        );
        std::fs::write(dir.join(format!("src/tools/t{i}.rs")), src).unwrap();
    }
}
