//! Benchmark: a generated crate with 200 tools (one module each, nested
//! struct, enum, `Option`, `Vec`, an output type).
//!
//! Reports (medians):
//! - the build-script work: `Builder::generate` run in-process on the crate
//!   (walk 201 files, parse, derive 400 schemas, render, compare; with the
//!   build cache warm, so render and writes are skipped);
//! - the compiled build script run the way cargo runs it: with nothing
//!   changed (the cache's no-op path), and after each kind of edit (a new
//!   revision per run);
//! - incremental `cargo build` after editing one tool, with the snapshot
//!   step (attribute + `build.rs`) and without it. "Without" is the same
//!   sources with no attribute, no `build.rs` and no build-dependency (the
//!   attribute cannot be kept without the step: it embeds what the step
//!   writes). Both depend on `mcp-contract` the way a server does
//!   (`default-features = false`, the `macros` feature), so both compile
//!   the same dependency graph. Three edits, each a separate
//!   measurement (`TOUCH=doc|field|body` to run one). Beside wall and
//!   CPU time it prints the median of the paired wall-time differences
//!   with a 95% confidence interval (on a noisy machine a 5% goal can sit
//!   inside it at 61 runs: then the run shows neither side), and the minor
//!   page faults the step adds (cargo and everything it ran): unlike time,
//!   they barely move between runs, so they show the memory the step
//!   costs even where time is noise:
//!   - `body`: a handler's body (no contract change; the everyday edit);
//!   - `field`: a field renamed in the argument struct (a schema change);
//!   - `doc`: the struct's doc comment (the tool's description), made a
//!     little longer or shorter each time, as real doc edits are. Without
//!     the snapshot a doc comment is compiled into nothing and left out of
//!     rustc's incremental hashes; an edit that also moved no byte of the
//!     file (same length: no span changed) lets rustc reuse the crate's
//!     metadata from its last session instead of encoding it (about 14% of
//!     the compilation here; the reused metadata keeps the old doc). An
//!     edit of another length moves the spans after it, and the metadata
//!     is encoded. With the snapshot the doc comment is the published
//!     description, compiled into the crate, so the metadata is encoded
//!     either way. (Until 2026-12-01 this edit kept the length, and the
//!     crate without the snapshot mostly took the shortcut.) The bench
//!     also prints the doc edit with the snapshot against the body edit
//!     without it: a compiled change either way.
//!
//! `FORM=rmcp` measures the same tools written the way rmcp servers are
//! (`examples/weather-server`): argument and output types deriving
//! `JsonSchema`, one `#[tool]` fn per tool in a `#[tool_router]` impl
//! whose doc comment is the description, and `mcp_contract::rmcp!()`; the
//! crate without the step is the same server without `build.rs` and that
//! line. There rmcp's own macro compiles the description either way, so a
//! doc edit is a compiled change on both sides.
//!
//! `INSTRUCTIONS=1` measures rustc's instruction counts (callgrind) after
//! each edit instead of wall time: deterministic where wall time is noisy
//! (see `snapshot_200/instructions.rs`; needs valgrind).
//!
//! Run: `cargo bench -p mcp-contract-build --bench snapshot_200`
//! (`ITERATIONS=n` to change the number of timed rebuilds, default 5;
//! `TOOLS=n` for another number of tools;
//! `BENCH_OPT_BUILD=1` to build both variants with
//! `[profile.dev.build-override] opt-level = 3`; `BENCH_DIR=path` to keep
//! the generated crates and their target directory between runs).
//! Not run by `cargo test`: without `--bench` it only prints how to run it.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use mcp_contract_build::{Builder, Mode};

#[path = "snapshot_200/instructions.rs"]
mod instructions;

/// The number of tools: 200, or `TOOLS=n` (above 17, the tool edited; a
/// separate `BENCH_DIR` per count). Another count shows which part of the step's
/// cost grows with the crate and which is a step in rustc's own tables.
/// 200 is such a step: rustc's late name resolution there grows by 56 MB
/// with the step and by 39 MB without it; the crate without the step takes
/// the same 56 MB from 203 tools on (203 measured, 201 not; `-Z
/// time-passes`, 2026-12-02). At 200 the step's items are what tips the
/// tables to their next size, a cost a few more tools would bring anyway.
fn tools() -> usize {
    static TOOLS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *TOOLS.get_or_init(|| match std::env::var("TOOLS") {
        Err(_) => 200,
        Ok(v) => v
            .parse()
            .ok()
            .filter(|n| *n > TOUCHED)
            .unwrap_or_else(|| panic!("TOOLS={v}: expected a count above {TOUCHED}")),
    })
}
const TOUCHED: usize = 17;

/// How the generated server declares its tools.
#[derive(Clone, Copy, PartialEq)]
enum Form {
    /// `#[mcp_contract::tool]` on each argument struct.
    Attribute,
    /// rmcp's `#[tool_router]` / `#[tool]`, locked by `build.rs` alone.
    Rmcp,
}

/// An edit of tool [`TOUCHED`]'s file.
#[derive(Clone, Copy, PartialEq)]
enum Edit {
    Body,
    Field,
    Doc,
}

impl Edit {
    fn name(self) -> &'static str {
        match self {
            Edit::Body => "body",
            Edit::Field => "field",
            Edit::Doc => "doc",
        }
    }

    /// What the edit changes, for the report.
    fn what(self) -> &'static str {
        match self {
            Edit::Body => "a handler's body (no contract change)",
            Edit::Field => "a field renamed (schema change)",
            Edit::Doc => "the doc comment (description change)",
        }
    }
}

fn main() {
    instructions::wrap_if_asked();
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
    let form = match std::env::var("FORM").as_deref() {
        Ok("rmcp") => Form::Rmcp,
        Ok("attribute") | Err(_) => Form::Attribute,
        Ok(other) => panic!("FORM={other}: expected `attribute` (the default) or `rmcp`"),
    };
    let (with_name, without_name) = match form {
        Form::Attribute => ("bench-tools", "bench-plain"),
        Form::Rmcp => ("bench-rmcp", "bench-rmcp-plain"),
    };
    let with = root.join(with_name);
    let without = root.join(without_name);
    generate(&with, with_name, true, form);
    generate(&without, without_name, false, form);

    eprintln!("initial builds (dependencies compile once)...");
    let (t, ..) = cargo_build(&with, &target);
    eprintln!("  first build with snapshot:    {t:>8.2?}");
    let (t, ..) = cargo_build(&without, &target);
    eprintln!("  first build without snapshot: {t:>8.2?}");
    if std::env::var_os("INSTRUCTIONS").is_some_and(|v| v == "1") {
        count_instructions(&root, [&with, &without], &target, form);
        return;
    }

    let out_dir = root.join("out");
    let runs = iterations.max(3);
    let in_process = timed(runs, || {
        let snap = Builder::new()
            .manifest_dir(&with)
            .out_dir(&out_dir)
            .package(with_name)
            .mode(Mode::Update)
            .quiet()
            .generate()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(snap.surface.len(), tools());
    });
    // The build script cargo compiled (dev profile), run the way cargo runs it.
    let script_bin = find_build_script(&target, with_name);
    // The build script, run the way cargo runs it.
    let run_script = || {
        let out = Command::new(&script_bin)
            .current_dir(&with)
            .env("CARGO_MANIFEST_DIR", &with)
            .env("OUT_DIR", &out_dir)
            .env("CARGO_PKG_NAME", with_name)
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
    };
    let as_cargo_runs_it = timed(runs, run_script);

    // The build script alone after each kind of edit (a new revision per
    // run, so every run sees a changed file).
    let mut script_revision = 1_000_000;
    let script_after: Vec<(Edit, Duration)> = [Edit::Body, Edit::Field, Edit::Doc]
        .into_iter()
        .map(|edit| {
            let d = timed(runs, || {
                script_revision += 1;
                touch(&with, edit, script_revision, form);
                run_script();
            });
            (edit, d)
        })
        .collect();

    let edits = edits_to_run();
    let mut results = Vec::new();
    let mut revision = 0;
    for &edit in &edits {
        let (mut with_wall, mut with_cpu) = (Vec::new(), Vec::new());
        let (mut plain_wall, mut plain_cpu) = (Vec::new(), Vec::new());
        let (mut with_faults, mut plain_faults) = (Vec::new(), Vec::new());
        // Alternating order (with first, then without first): a fixed order
        // lets whatever the first build leaves behind (page cache, CPU
        // frequency) favour one side every time.
        for i in 0..iterations {
            revision += 1;
            let mut build_with = || {
                touch(&with, edit, revision, form);
                let (w, c, f) = cargo_build(&with, &target);
                with_wall.push(w);
                with_cpu.push(c);
                with_faults.push(f);
            };
            let mut build_without = || {
                touch(&without, edit, revision, form);
                let (w, c, f) = cargo_build(&without, &target);
                plain_wall.push(w);
                plain_cpu.push(c);
                plain_faults.push(f);
            };
            if i % 2 == 0 {
                build_with();
                build_without();
            } else {
                build_without();
                build_with();
            }
        }
        // Each iteration builds both variants back to back, so the median
        // of the per-pair differences cancels what drifts over the run
        // (the machine's speed), which the two separate medians do not.
        let wall_differences = sorted(
            with_wall
                .iter()
                .zip(&plain_wall)
                .map(|(w, p)| ms(*w) - ms(*p)),
        );
        let paired = quartiles(&wall_differences);
        let paired_ci = median_ci95(&wall_differences);
        let faults = quartiles(&sorted(
            with_faults
                .iter()
                .zip(&plain_faults)
                .map(|(w, p)| *w as f64 - *p as f64),
        ));
        let faults_without = median(plain_faults) as f64;
        results.push((
            edit,
            [median(with_wall), median(plain_wall)],
            [median(with_cpu), median(plain_cpu)],
            paired,
            paired_ci,
            [faults[0], faults[1], faults[2], faults_without],
        ));
    }
    let pct =
        |a: Duration, b: Duration| (a.as_secs_f64() - b.as_secs_f64()) / b.as_secs_f64() * 100.0;
    let form_name = match form {
        Form::Attribute => "#[mcp_contract::tool]",
        Form::Rmcp => "rmcp #[tool_router]",
    };
    println!(
        "snapshot_200: {} tools ({form_name}), medians of {iterations} runs",
        tools()
    );
    println!(
        "  build script, as cargo runs it:               {:>7.1} ms",
        ms(as_cargo_runs_it)
    );
    println!(
        "  Builder::generate in-process (bench profile): {:>7.1} ms",
        ms(in_process)
    );
    for (edit, d) in &script_after {
        println!(
            "  build script after one edit ({:>5}):          {:>7.1} ms (includes the edit's file write)",
            edit.name(),
            ms(*d)
        );
    }
    // A description compiled into the crate changes it like a body edit does;
    // the plain crate compiles no description (its doc edit only moves
    // spans). So the doc edit's cost is also shown against the plain crate's
    // body edit: what the description change itself requires. (In the rmcp
    // form the plain crate compiles the description too: no such comparison.)
    let wall_of = |e: Edit| results.iter().find(|r| r.0 == e).map(|r| (r.1, r.2));
    let compiled_change = match (wall_of(Edit::Doc), wall_of(Edit::Body)) {
        _ if form == Form::Rmcp => None,
        (Some(([dw, _], [dc, _])), Some(([_, bw], [_, bc]))) => Some((dw, bw, dc, bc)),
        _ => None,
    };
    for (edit, [ww, pw], [wc, pc], paired, paired_ci, faults) in results {
        println!(
            "  incremental build after editing one tool: {} (wall / CPU):",
            edit.what()
        );
        println!(
            "    with snapshot:    {:>6.0} ms / {:>6.0} ms",
            ms(ww),
            ms(wc)
        );
        println!(
            "    without snapshot: {:>6.0} ms / {:>6.0} ms",
            ms(pw),
            ms(pc)
        );
        println!(
            "    snapshot overhead ({}): {:+.1}% wall, {:+.1}% CPU",
            edit.name(),
            pct(ww, pw),
            pct(wc, pc)
        );
        println!(
            "    median of the paired differences: {:+.0} ms wall = {:+.1}% of the median without (quartiles {:+.1}% .. {:+.1}%)",
            paired[1],
            paired[1] / ms(pw) * 100.0,
            paired[0] / ms(pw) * 100.0,
            paired[2] / ms(pw) * 100.0
        );
        match paired_ci {
            Some([low, high]) => println!(
                "      95% confidence interval of that median: {:+.1}% .. {:+.1}%",
                low / ms(pw) * 100.0,
                high / ms(pw) * 100.0
            ),
            None => println!("      (no 95% confidence interval below 6 runs: raise ITERATIONS)"),
        }
        let [low, added, high, without] = faults;
        println!(
            "    minor page faults (cargo and all it ran), median of the paired differences: {added:+.0} = {:+.1}% of the median without (quartiles {:+.1}% .. {:+.1}%)",
            added / without * 100.0,
            low / without * 100.0,
            high / without * 100.0
        );
    }
    if let Some((dw, bw, dc, bc)) = compiled_change {
        println!(
            "  doc edit with snapshot vs body edit without (a compiled change either way): {:+.1}% wall, {:+.1}% CPU",
            pct(dw, bw),
            pct(dc, bc)
        );
    }
}

/// The edits `TOUCH` names (all three by default).
fn edits_to_run() -> Vec<Edit> {
    match std::env::var("TOUCH").as_deref() {
        Ok("body") => vec![Edit::Body],
        Ok("field") => vec![Edit::Field],
        Ok("doc") => vec![Edit::Doc],
        _ => vec![Edit::Body, Edit::Field, Edit::Doc],
    }
}

/// `INSTRUCTIONS=1`: rustc's instructions on the crate with the step and
/// on the crate without it (`crates`), after each edit.
fn count_instructions(root: &Path, crates: [&Path; 2], target: &Path, form: Form) {
    instructions::check_valgrind();
    // A first build through the wrapper, nothing under valgrind: were the
    // wrapper part of cargo's fingerprint, this is the build that pays.
    for dir in crates {
        run_cargo(instructions::wrapped(cargo_command(dir, target), None));
    }
    let mut revision = 2_000_000;
    let mut counts: Vec<(Edit, [u64; 2])> = Vec::new();
    for edit in edits_to_run() {
        let mut pair = [0; 2];
        for (n, (dir, side)) in crates.into_iter().zip(["with", "without"]).enumerate() {
            revision += 1;
            touch(dir, edit, revision, form);
            let out = instructions::out_file(root, side, edit.name());
            let _ = std::fs::remove_file(&out);
            run_cargo(instructions::wrapped(
                cargo_command(dir, target),
                Some(&out),
            ));
            pair[n] = instructions::total(&out);
        }
        counts.push((edit, pair));
    }
    let pct = |a: u64, b: u64| (a as f64 - b as f64) / b as f64 * 100.0;
    let form_name = match form {
        Form::Attribute => "#[mcp_contract::tool]",
        Form::Rmcp => "rmcp #[tool_router]",
    };
    println!(
        "snapshot_200: {} tools ({form_name}), rustc instructions (callgrind) after one edit",
        tools()
    );
    for (edit, [with, without]) in &counts {
        println!(
            "  {:<5} with snapshot {:>6.3} G, without {:>6.3} G: {:+.2}% ({:+.0} M)",
            edit.name(),
            *with as f64 / 1e9,
            *without as f64 / 1e9,
            pct(*with, *without),
            (*with as f64 - *without as f64) / 1e6
        );
    }
    let of = |e: Edit| counts.iter().find(|c| c.0 == e).map(|c| c.1);
    // (In the rmcp form the description is compiled on both sides.)
    let attribute = form == Form::Attribute;
    if let (true, Some([doc, _]), Some([_, body])) = (attribute, of(Edit::Doc), of(Edit::Body)) {
        println!(
            "  doc edit with snapshot vs body edit without (a compiled change either way): {:+.2}%",
            pct(doc, body)
        );
    }
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

/// `<target>/debug/build/<package>-<hash>/build-script-build`, the newest
/// (a kept `BENCH_DIR` holds the build scripts of earlier commits too).
fn find_build_script(target: &Path, package: &str) -> PathBuf {
    let prefix = format!("{package}-");
    std::fs::read_dir(target.join("debug/build"))
        .expect("target/debug/build")
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .map(|e| e.path().join("build-script-build"))
        .filter_map(|p| Some((p.metadata().ok()?.modified().ok()?, p)))
        .max()
        .map(|(_, p)| p)
        .expect("the compiled build script")
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The paired differences (`with[i] - without[i]`), sorted: the quartiles
/// and the confidence interval below are read off them.
fn sorted(values: impl Iterator<Item = f64>) -> Vec<f64> {
    let mut d: Vec<f64> = values.collect();
    d.sort_by(f64::total_cmp);
    d
}

/// The lower quartile, median and upper quartile of sorted differences:
/// the quartiles show how far the machine's noise reaches, which a median
/// alone hides.
fn quartiles(d: &[f64]) -> [f64; 3] {
    let n = d.len();
    [d[n / 4], d[n / 2], d[(3 * n) / 4]]
}

/// A 95% confidence interval for the median of sorted differences, from
/// their order statistics (distribution-free: the count of differences
/// below the true median is Binomial(n, 1/2)). It says whether a run
/// resolved the overhead: a goal inside the interval is not shown either
/// way. `None` below 6 pairs, where no interval reaches 95%.
fn median_ci95(d: &[f64]) -> Option<[f64; 2]> {
    let k = median_ci_rank(d.len())?;
    Some([d[k], d[d.len() - 1 - k]])
}

/// The 0-based rank `k` of the lower bound: the largest `k` with
/// P(Binomial(n, 1/2) <= k) <= 2.5%, so that `[d[k], d[n-1-k]]` covers
/// the median with at least 95% (for 41 pairs, `k` = 13: the 14th and
/// 28th differences). Exact up to 1,000 pairs (the binomial's terms stay
/// within `f64`), the normal approximation above (one rank wider).
fn median_ci_rank(n: usize) -> Option<usize> {
    if n > 1000 {
        let half_width = 1.96 * (n as f64).sqrt() / 2.0;
        return Some(((n as f64 / 2.0 - half_width).floor() as usize).saturating_sub(1));
    }
    let mut term = 0.5f64.powi(n as i32); // P(B = 0)
    let mut below = 0.0; // P(B <= j - 1)
    let mut rank = None;
    for j in 0..n {
        below += term; // now P(B <= j)
        if below > 0.025 {
            break;
        }
        rank = Some(j);
        term *= (n - j) as f64 / (j + 1) as f64;
    }
    rank
}

fn median<T: Ord + Copy>(mut v: Vec<T>) -> T {
    v.sort();
    v[v.len() / 2]
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Builds the package; returns (wall time, CPU time, minor page faults of
/// cargo and everything it ran). CPU time is what to compare on a busy
/// machine. The page faults barely move from run to run: they show the
/// memory the step adds (each fault is a fresh page the kernel zeroes;
/// system time follows them), where wall and CPU time are too noisy to.
fn cargo_build(dir: &Path, target: &Path) -> (Duration, Duration, u64) {
    let before = children_usage();
    let start = Instant::now();
    run_cargo(cargo_command(dir, target));
    let elapsed = start.elapsed();
    let after = children_usage();
    (
        elapsed,
        after.0.saturating_sub(before.0),
        after.1.saturating_sub(before.1),
    )
}

/// `cargo build` of the package in `dir`, as the bench runs it.
fn cargo_command(dir: &Path, target: &Path) -> Command {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .args(["build", "--offline", "--quiet", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(target)
        .env_remove("CI")
        .env_remove("CARGO_TARGET_DIR")
        .env("MCP_CONTRACT_LOCKED", "0");
    command
}

/// Runs `command` (a cargo build) to success.
fn run_cargo(mut command: Command) {
    let out = command.output().expect("run cargo");
    assert!(
        out.status.success(),
        "cargo build failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// User + system CPU time and minor page faults of this process's
/// waited-for children (Linux: `/proc/self/stat` fields 16 and 17, in clock
/// ticks of 10 ms, and field 11); zeros elsewhere.
fn children_usage() -> (Duration, u64) {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return (Duration::ZERO, 0);
    };
    // Fields after the parenthesized command name (which may contain spaces).
    let rest = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let fields: Vec<u64> = rest
        .split_whitespace()
        .map(|f| f.parse().unwrap_or(0))
        .collect();
    // `rest` starts at field 3 (state); cminflt is field 11, cutime/cstime
    // are fields 16/17.
    let field = |n: usize| fields.get(n - 3).copied().unwrap_or(0);
    (
        Duration::from_millis((field(16) + field(17)) * 10),
        field(11),
    )
}

/// Applies `edit` to tool [`TOUCHED`]; `revision` makes every edit a new
/// text. Each edit rewrites one line the generator marks: in the tool's
/// file, except the rmcp form's description (the `#[tool]` fn's doc
/// comment, in `src/server.rs`).
fn touch(dir: &Path, edit: Edit, revision: usize, form: Form) {
    let path = match (edit, form) {
        (Edit::Doc, Form::Rmcp) => dir.join("src/server.rs"),
        _ => dir.join(format!("src/tools/t{TOUCHED}.rs")),
    };
    let text = std::fs::read_to_string(&path).unwrap();
    // A doc edit changes the comment's length, as real ones do: every
    // other revision says a little more (see the module docs for why an
    // edit that moves no byte would measure something else).
    let more = if revision % 2 == 1 {
        " Now longer."
    } else {
        ""
    };
    let (marker, line) = match (edit, form) {
        (Edit::Doc, Form::Attribute) => (
            format!("/// Tool {TOUCHED}:"),
            format!("/// Tool {TOUCHED}: revision {revision}.{more}"),
        ),
        (Edit::Doc, Form::Rmcp) => (
            format!("    /// Tool {TOUCHED}:"),
            format!("    /// Tool {TOUCHED}: revision {revision}.{more}"),
        ),
        (Edit::Field, _) => (
            "    pub flag".to_string(),
            format!("    pub flag{revision}: Option<bool>,"),
        ),
        (Edit::Body, _) => (
            "        .take(".to_string(),
            format!("        .take({revision})"),
        ),
    };
    let lines: Vec<String> = text
        .lines()
        .map(|l| {
            if l.starts_with(&marker) {
                line.clone()
            } else {
                l.to_string()
            }
        })
        .collect();
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
}

fn generate(dir: &Path, name: &str, snapshot: bool, form: Form) {
    std::fs::create_dir_all(dir.join("src/tools")).unwrap();
    let root = workspace_root().display().to_string();
    let deps = match form {
        Form::Attribute => format!(
            "mcp-contract = {{ path = \"{root}/mcp-contract\", default-features = false, features = [\"macros\"] }}\n"
        ),
        Form::Rmcp => format!(
            "mcp-contract = {{ path = \"{root}/mcp-contract\", default-features = false, features = [\"rmcp\"] }}\n\
             rmcp = {{ version = \"*\", default-features = false, features = [\"server\", \"macros\"] }}\n\
             schemars = \"1\"\n"
        ),
    };
    let mut manifest = format!(
        "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n[workspace]\n\n\
         [dependencies]\nserde = {{ version = \"1\", features = [\"derive\"] }}\n{deps}\n\
         [profile.dev]\ndebug = false\n"
    );
    if std::env::var_os("BENCH_OPT_BUILD").is_some() {
        // Optimized build scripts and proc macros, for both variants.
        manifest.push_str("\n[profile.dev.build-override]\nopt-level = 3\n");
    }
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
    let lib = match (form, snapshot) {
        (Form::Attribute, _) => "pub mod tools;\n",
        (Form::Rmcp, false) => "pub mod server;\npub mod tools;\n",
        (Form::Rmcp, true) => {
            "pub mod server;\npub mod tools;\n\n\
             pub fn contract() -> mcp_contract::rmcp::Contract {\n    mcp_contract::rmcp!()\n}\n"
        }
    };
    std::fs::write(dir.join("src/lib.rs"), lib).unwrap();
    let mods: String = (0..tools()).map(|i| format!("pub mod t{i};\n")).collect();
    std::fs::write(dir.join("src/tools/mod.rs"), mods).unwrap();
    for i in 0..tools() {
        let (doc, attr, schema) = match form {
            Form::Attribute if snapshot => (
                format!("Tool {i}: does thing {i}."),
                format!("#[mcp_contract::tool(name = \"tool_{i}\", version = 1, output = Out{i}, read_only)]\n"),
                "",
            ),
            Form::Attribute => (format!("Tool {i}: does thing {i}."), String::new(), ""),
            Form::Rmcp => (format!("Arguments of tool {i}."), String::new(), ", schemars::JsonSchema"),
        };
        let src = format!(
            "/// {doc}\n\
             {attr}#[derive(Debug, serde::Deserialize{schema})]\n\
             pub struct Args{i} {{\n\
             \x20   /// What to look for.\n    pub query: String,\n\
             \x20   /// At most this many hits.\n    pub limit: Option<u32>,\n\
             \x20   pub filter: Filter{i},\n    pub tags: Vec<String>,\n\
             \x20   #[serde(default)]\n    pub mode: Mode{i},\n\
             \x20   pub flag: Option<bool>,\n}}\n\n\
             /// A range filter.\n#[derive(Debug, Default, serde::Deserialize{schema})]\n\
             pub struct Filter{i} {{\n    pub min: Option<i64>,\n    pub max: Option<i64>,\n}}\n\n\
             /// How to match.\n#[derive(Debug, Default, serde::Deserialize{schema})]\n#[serde(rename_all = \"snake_case\")]\n\
             pub enum Mode{i} {{\n    #[default]\n    Fast,\n    Exact,\n}}\n\n\
             /// The hits.\n#[derive(Debug, serde::Serialize{schema})]\n\
             pub struct Out{i} {{\n    pub hits: Vec<String>,\n    pub total: u64,\n}}\n\n\
             /// The handler.\n\
             pub fn handle{i}(args: &Args{i}) -> Out{i} {{\n\
             \x20   let hits: Vec<String> = args\n\
             \x20       .tags\n\
             \x20       .iter()\n\
             \x20       .filter(|t| t.contains(args.query.as_str()))\n\
             \x20       .take(10)\n\
             \x20       .cloned()\n\
             \x20       .collect();\n\
             \x20   let total = hits.len() as u64;\n\
             \x20   Out{i} {{ hits, total }}\n\
             }}\n"
        );
        std::fs::write(dir.join(format!("src/tools/t{i}.rs")), src).unwrap();
    }
    if form == Form::Rmcp {
        let mut server = String::from(
            "use rmcp::handler::server::wrapper::{Json, Parameters};\n\
             use rmcp::{tool, tool_router};\n\n\
             use crate::tools::*;\n\n\
             #[derive(Clone, Default)]\npub struct Server;\n\n\
             #[tool_router(vis = \"pub\")]\nimpl Server {\n",
        );
        for i in 0..tools() {
            server.push_str(&format!(
                "    /// Tool {i}: does thing {i}.\n\
                 \x20   #[tool(annotations(read_only_hint = true))]\n\
                 \x20   async fn tool_{i}(&self, Parameters(args): Parameters<t{i}::Args{i}>) -> Json<t{i}::Out{i}> {{\n\
                 \x20       Json(t{i}::handle{i}(&args))\n\
                 \x20   }}\n\n"
            ));
        }
        server.push_str("}\n");
        std::fs::write(dir.join("src/server.rs"), server).unwrap();
    }
}
