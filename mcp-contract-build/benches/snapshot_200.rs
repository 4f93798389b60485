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
    let scratch = tempfile::tempdir().expect("temp dir");
    let root = scratch.path();
    let target = root.join("target");
    let with = root.join("bench-tools");
    let without = root.join("bench-plain");
    generate(&with, "bench-tools", true);
    generate(&without, "bench-plain", false);

    eprintln!("initial builds (dependencies compile once)...");
    let t = cargo_build(&with, &target);
    eprintln!("  first build with snapshot:    {:>8.2?}", t);
    let t = cargo_build(&without, &target);
    eprintln!("  first build without snapshot: {:>8.2?}", t);

    let out_dir = root.join("out");
    let mut script = Vec::new();
    for _ in 0..iterations.max(3) {
        let start = Instant::now();
        let snap = Builder::new()
            .manifest_dir(&with)
            .out_dir(&out_dir)
            .package("bench-tools")
            .mode(Mode::Update)
            .quiet()
            .generate()
            .unwrap_or_else(|e| panic!("{e}"));
        script.push(start.elapsed());
        assert_eq!(snap.surface.len(), TOOLS);
    }

    let mut inc_with = Vec::new();
    let mut inc_without = Vec::new();
    for i in 0..iterations {
        touch(&with, i);
        inc_with.push(cargo_build(&with, &target));
        touch(&without, i);
        inc_without.push(cargo_build(&without, &target));
    }
    let (s, w, wo) = (median(script), median(inc_with), median(inc_without));
    let overhead = (w.as_secs_f64() - wo.as_secs_f64()) / wo.as_secs_f64() * 100.0;
    println!("snapshot_200: {TOOLS} tools, {iterations} iterations, medians");
    println!(
        "  build-script work (Builder::generate, in-process): {:.1} ms",
        ms(s)
    );
    println!(
        "  incremental cargo build after touching one tool, with snapshot:    {:.0} ms",
        ms(w)
    );
    println!(
        "  incremental cargo build after touching one tool, without snapshot: {:.0} ms",
        ms(wo)
    );
    println!("  snapshot overhead on the incremental build: {overhead:+.1}%");
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
