//! Benchmark (a bench binary, run with `cargo bench -p mcp-contract --bench
//! check_history`): a lockfile of 1,000 tools with a 500-commit history.
//! Prints `check` and `history` times next to `git log -p` on the same file
//! and next to "read the baseline blob and parse it".
//! Goals: check within 1.5x of read+parse; history within 2x of `git log -p`.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use mcp_contract::check::{self, repo::RepoCheck};
use mcp_contract::git::Repo;
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
                lockfile: &lock,
                against: None,
                candidate: None,
                fail_on: Severity::Breaking,
                strict: false,
                today: Date::today(),
            })
            .unwrap();
            check::run(input).changes.len()
        })
    };
    let check_a = check_with(&text_a);
    let check_b = check_with(&text_b);
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
        "check (new field name: history walked) {:>9.1} ms  = {:.2}x read+parse, {:.2}x git log -p",
        ms(check_b),
        ms(check_b) / ms(read_parse),
        ms(check_b) / ms(git_log_p)
    );
    println!(
        "history (all tools)                    {:>9.1} ms  = {:.2}x git log -p (goal <= 2x)",
        ms(hist),
        ms(hist) / ms(git_log_p)
    );
}
