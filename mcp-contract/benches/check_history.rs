//! Benchmark (a bench binary, run with `cargo bench -p mcp-contract --bench
//! check_history`): a lockfile of 1,000 tools with a 500-commit history.
//! Prints `check` and `history` times next to `git log -p` on the same file
//! and next to "read the baseline blob and parse it".
//! Goals: check within 1.5x of read+parse; history within 2x of `git log -p`;
//! a check introducing a new name within 2x of read+parse on a warm
//! reserved-names cache (`history::cache`). The new-name check is timed
//! cold (no cache: the history is walked and the cache written), warm (the
//! cache's key is the baseline) and one revision behind (the cache is
//! brought forward by `git log key..baseline`).

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use mcp_contract::check::{self, repo::RepoCheck};
use mcp_contract::git::Repo;
use mcp_contract::history::cache::{reserved_history, Source, Wanted};
use mcp_contract::migrations::Date;
use mcp_contract::model::{Surface, Tool};
use mcp_contract::{history, lockfile, Severity};
use serde_json::json;

const TOOLS: usize = 1000;
const COMMITS: usize = 500;

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "b")
        .env("GIT_AUTHOR_EMAIL", "b@example.invalid")
        .env("GIT_COMMITTER_NAME", "b")
        .env("GIT_COMMITTER_EMAIL", "b@example.invalid")
        .args([
            "-c",
            "init.defaultBranch=main",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .output()
        .expect("git");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn tool(i: usize, rev: usize) -> Tool {
    let mut t = Tool::new(format!("tool_{i:04}"));
    t.description = Some(format!(
        "Tool number {i}, revision {rev}: does something useful with its inputs."
    ));
    t.input_schema = json!({
        "type": "object",
        "properties": {
            "query": {"type": "string", "minLength": 1, "description": "What to look for."},
            "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 10},
            "mode": {"enum": ["fast", "full"]},
            "filters": {"type": "object", "properties": {"owner": {"type": "string"}, "since": {"type": "string", "format": "date-time"}}}
        },
        "required": ["query"],
        "additionalProperties": false
    });
    t.output_schema = Some(
        json!({"type": "object", "properties": {"items": {"type": "array", "items": {"type": "string"}}}}),
    );
    t
}

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

fn time<T>(runs: usize, mut f: impl FnMut() -> T) -> Duration {
    let _ = f();
    median(
        (0..runs)
            .map(|_| {
                let t = Instant::now();
                std::hint::black_box(f());
                t.elapsed()
            })
            .collect(),
    )
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return; // `cargo test --benches` lists benches; nothing to list here
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    git(root, &["init", "-q"]);
    let lock = root.join(lockfile::DEFAULT_PATH);
    std::fs::create_dir_all(lock.parent().unwrap()).unwrap();
    let mut surface = Surface::new();
    for i in 0..TOOLS {
        surface.insert(tool(i, 0));
    }
    eprintln!("building a {COMMITS}-commit history of a {TOOLS}-tool lockfile...");
    let setup = Instant::now();
    for c in 0..COMMITS {
        if c > 0 {
            // Each commit changes three tools; every 50th removes one and adds one.
            for k in 0..3 {
                let i = (c * 7 + k * 331) % TOOLS;
                surface.insert(tool(i, c));
            }
            if c % 50 == 0 {
                surface.tools.remove(&format!("tool_{:04}", c % TOOLS));
                surface.insert(tool(TOOLS + c, c));
            }
        }
        std::fs::write(&lock, lockfile::render(&surface)).unwrap();
        git(root, &["add", "-A"]);
        git(root, &["commit", "-q", "-m", &format!("commit {c}")]);
    }
    let size = std::fs::metadata(&lock).unwrap().len();
    eprintln!(
        "setup took {:.1}s; lockfile {} KiB",
        setup.elapsed().as_secs_f64(),
        size / 1024
    );
    git(root, &["checkout", "-q", "-b", "feature"]);

    // Candidate A: changes to existing names only (a removed field, a new enum value).
    let mut a = surface.clone();
    let t = a.tools.get_mut("tool_0003").unwrap();
    t.input_schema["properties"]
        .as_object_mut()
        .unwrap()
        .remove("mode");
    let t = a.tools.get_mut("tool_0500").unwrap();
    t.input_schema["properties"]["mode"] = json!({"enum": ["fast", "full", "auto"]});
    let text_a = lockfile::render(&a);
    // Candidate B: introduces a new field name (so reserved names need the history).
    let mut b = a.clone();
    b.tools.get_mut("tool_0007").unwrap().input_schema["properties"]["page"] =
        json!({"type": "integer"});
    let text_b = lockfile::render(&b);

    let repo = Repo::discover(&lock).unwrap();
    let rel = repo.relative(&lock).unwrap();
    let head = repo.resolve_commit("HEAD").unwrap().unwrap();
    let runs = 15;

    let git_log_p = time(5, || {
        Command::new("git")
            .current_dir(root)
            .args(["log", "-p", "--first-parent", "--no-color", "--", &rel])
            .output()
            .unwrap()
            .stdout
            .len()
    });
    let read_parse = time(runs, || {
        let bytes = repo.read_at(&head, &rel).unwrap().unwrap();
        lockfile::parse(&bytes, "baseline").unwrap().len()
    });
    let check_with = |text: &str| {
        std::fs::write(&lock, text).unwrap();
        time(runs, || {
            let (input, _) = check::repo::prepare(RepoCheck {
                tree: None,
                package: None,
                side: mcp_contract::git::moved::Side::WorkTree,
                lockfile: &lock,
                against: None,
                candidate: None,
                fail_on: Severity::Breaking,
                fail_on_description: None,
                strict: false,
                today: Date::today(),
            })
            .unwrap();
            check::run(input).changes.len()
        })
    };
    let cache_dir = root.join(".git/mcp-contract");
    let check_a = check_with(&text_a);
    let _ = std::fs::remove_dir_all(&cache_dir);
    let check_b = check_with(&text_b);
    // Cold: no cache before each run (walk + write).
    std::fs::write(&lock, &text_b).unwrap();
    let run_check = || {
        let (input, _) = check::repo::prepare(RepoCheck {
            tree: None,
            package: None,
            side: mcp_contract::git::moved::Side::WorkTree,
            lockfile: &lock,
            against: None,
            candidate: None,
            fail_on: Severity::Breaking,
            fail_on_description: None,
            strict: false,
            today: Date::today(),
        })
        .unwrap();
        check::run(input).changes.len()
    };
    let check_b_cold = median(
        (0..5)
            .map(|_| {
                let _ = std::fs::remove_dir_all(&cache_dir);
                let t = Instant::now();
                std::hint::black_box(run_check());
                t.elapsed()
            })
            .collect(),
    );
    // As before the cache: walked, nothing written.
    std::env::set_var(mcp_contract::history::cache::DISABLE_ENV, "1");
    let check_b_walk = time(5, run_check);
    std::env::remove_var(mcp_contract::history::cache::DISABLE_ENV);
    // One revision behind: the cache keyed at the parent of the baseline.
    let parent = repo.resolve_commit("HEAD~1").unwrap().unwrap();
    let wanted = Wanted {
        tools: ["tool_0007".to_string()].into(),
        entries: Default::default(),
    };
    let forward = median(
        (0..5)
            .map(|_| {
                let _ = std::fs::remove_dir_all(&cache_dir);
                let (_, s) = reserved_history(&repo, &parent, &rel, &wanted, true).unwrap();
                assert_eq!(s, Source::Walked);
                let t = Instant::now();
                let (_, s) = reserved_history(&repo, &head, &rel, &wanted, true).unwrap();
                let took = t.elapsed();
                assert_eq!(s, Source::Updated(1));
                took
            })
            .collect(),
    );
    let warm_lookup = time(runs, || {
        let (h, s) = reserved_history(&repo, &head, &rel, &wanted, true).unwrap();
        assert_eq!(s, Source::Cached);
        h.published.len()
    });
    let cache_kib = std::fs::read_dir(&cache_dir)
        .map(|d| {
            d.flatten()
                .filter_map(|e| e.metadata().ok())
                .map(|m| m.len())
                .sum::<u64>()
        })
        .unwrap_or(0)
        / 1024;
    let hist = time(5, || {
        history::from_repo(&repo, &head, &rel)
            .unwrap()
            .timelines
            .len()
    });

    println!(
        "lockfile: {TOOLS} tools, {} KiB, {COMMITS} commits",
        size / 1024
    );
    println!(
        "git log -p -- lockfile                 {:>9.1} ms",
        ms(git_log_p)
    );
    println!(
        "read baseline blob + parse             {:>9.1} ms",
        ms(read_parse)
    );
    println!(
        "check (existing names changed)         {:>9.1} ms  = {:.2}x read+parse (goal <= 1.5x)",
        ms(check_a),
        ms(check_a) / ms(read_parse)
    );
    println!(
        "check (new field name), no cache (walk){:>9.1} ms  = {:.2}x read+parse",
        ms(check_b_walk),
        ms(check_b_walk) / ms(read_parse)
    );
    println!(
        "check (new field name), cold cache     {:>9.1} ms  = {:.2}x read+parse, {:.2}x git log -p",
        ms(check_b_cold),
        ms(check_b_cold) / ms(read_parse),
        ms(check_b_cold) / ms(git_log_p)
    );
    println!(
        "check (new field name), warm cache     {:>9.1} ms  = {:.2}x read+parse (goal <= 2x)",
        ms(check_b),
        ms(check_b) / ms(read_parse)
    );
    println!(
        "  reserved names from the warm cache   {:>9.1} ms  ({cache_kib} KiB cache)",
        ms(warm_lookup)
    );
    println!(
        "  cache brought forward one revision   {:>9.1} ms",
        ms(forward)
    );
    println!(
        "history (all tools)                    {:>9.1} ms  = {:.2}x git log -p (goal <= 2x)",
        ms(hist),
        ms(hist) / ms(git_log_p)
    );
}
