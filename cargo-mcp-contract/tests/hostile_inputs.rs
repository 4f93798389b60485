//! Hostile inputs stay bounded: each case runs the real binary and checks
//! the outcome (an answer, or exit 2 naming the limit), and the largest peak
//! resident set of each run (`ru_maxrss` from `wait4`) is printed and
//! bounded (64 MiB: less than the 100 MiB input). Cases: a 100 MiB lockfile (in the working tree and
//! in git history), `$ref` fan-out (a definition reachable through 3^40
//! paths), numbers with 10,000 digits, property names
//! of 1 MiB, pattern pairs whose automata would explode, and a
//! catastrophic-backtracking `pattern` in a fixture check.

#![cfg(unix)]

mod check_support;

use std::path::Path;
use std::process::{Command, Output};
use std::time::Instant;

use check_support::{search, TestRepo, LOCK};
use serde_json::json;

const BIN: &str = env!("CARGO_BIN_EXE_cargo-mcp-contract");

/// Runs `cmd` to the end; its output and its peak resident set in KiB
/// (`ru_maxrss` from `wait4`, which also covers what it waited for, such
/// as `git cat-file`).
// The child is reaped by `wait4` (for its rusage), not by `Child::wait`.
#[allow(clippy::zombie_processes)]
fn measured(cmd: &mut Command) -> (Output, i64) {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let o = std::thread::spawn(move || {
        let mut v = vec![];
        out.read_to_end(&mut v).unwrap();
        v
    });
    let e = std::thread::spawn(move || {
        let mut v = vec![];
        err.read_to_end(&mut v).unwrap();
        v
    });
    let mut status = 0;
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    assert_eq!(unsafe { libc::wait4(pid, &mut status, 0, &mut usage) }, pid);
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -1
    };
    let output = Output {
        status: std::os::unix::process::ExitStatusExt::from_raw(if code >= 0 {
            code << 8
        } else {
            status
        }),
        stdout: o.join().unwrap(),
        stderr: e.join().unwrap(),
    };
    (output, usage.ru_maxrss)
}

fn diff(dir: &Path, old: &str, new: &str) -> (Output, i64) {
    let (a, b) = (dir.join("old.json"), dir.join("new.json"));
    std::fs::write(&a, old).unwrap();
    std::fs::write(&b, new).unwrap();
    measured(
        Command::new(BIN)
            .arg("diff")
            .arg(&a)
            .arg(&b)
            .env_remove("CI"),
    )
}

fn check(repo: &TestRepo) -> (Output, i64) {
    measured(
        Command::new(BIN)
            .args(["mcp-contract", "check", "--against", "HEAD"])
            .current_dir(repo.path())
            .env_remove("CI"),
    )
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn tool(input: serde_json::Value) -> String {
    json!({"tools": [{"name": "t", "inputSchema": input}]}).to_string()
}

/// 40 levels, each referencing the next from two properties and from
/// `items`: 3^40 paths if expanded naively. (The same fan-out through the
/// branches of an `anyOf` is `mcp-contract/tests/fanout_alternatives.rs`.)
fn fan_out(leaf: &str) -> serde_json::Value {
    let mut defs = serde_json::Map::new();
    for i in 0..40 {
        let next = format!("#/$defs/L{}", i + 1);
        defs.insert(
            format!("L{i}"),
            json!({"type": ["object", "array"],
                   "properties": {"a": {"$ref": next}, "b": {"$ref": next}},
                   "items": {"$ref": next}}),
        );
    }
    defs.insert("L40".into(), json!({"type": leaf}));
    json!({"type": "object", "properties": {"root": {"$ref": "#/$defs/L0"}}, "$defs": defs})
}

#[test]
fn hostile_inputs_are_answered_or_refused_within_bounds() {
    let dir = tempfile::tempdir().unwrap();
    let mut report = vec![];
    let mut peak_overall = 0;
    let mut step =
        |name: &str, run: &(Output, i64), expect: i32, needle: &str, started: Instant| {
            let (out, peak) = run;
            let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
            assert_eq!(
                out.status.code(),
                Some(expect),
                "{name}: {stderr}{}",
                &stdout[..stdout.len().min(2000)]
            );
            assert!(!stderr.contains("panicked"), "{name}: {stderr}");
            assert!(
                stdout.contains(needle) || stderr.contains(needle),
                "{name}: expected {needle:?}\n{stderr}{}",
                &stdout[..stdout.len().min(2000)]
            );
            report.push(format!(
                "{name:<38} exit {expect} in {:>6.2}s, peak RSS {peak:>7} KiB",
                started.elapsed().as_secs_f64(),
            ));
            // The bound: nothing here may hold a 100 MiB input or expand 3^40 paths.
            assert!(*peak < 64 * 1024, "{name}: peak RSS {peak} KiB");
            peak_overall = peak_overall.max(*peak);
        };

    // A 100 MiB lockfile: refused by its size, never read.
    let big = dir.path().join("big.lock");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(100 << 20)
        .unwrap();
    let small = dir.path().join("small.json");
    std::fs::write(&small, tool(json!({"type": "object"}))).unwrap();
    let t = Instant::now();
    let out = measured(Command::new(BIN).arg("diff").arg(&big).arg(&small));
    step("100 MiB lockfile (diff)", &out, 2, "over the 64 MiB", t);

    // The same in a repository: as the candidate, and as the baseline in git.
    let repo = TestRepo::new();
    repo.lock(search(json!({"q": {"type": "string"}})));
    repo.commit("small");
    std::fs::File::create(repo.abs(LOCK))
        .unwrap()
        .set_len(100 << 20)
        .unwrap();
    let t = Instant::now();
    let out = check(&repo);
    step(
        "100 MiB lockfile (check, working tree)",
        &out,
        2,
        "over the 64 MiB",
        t,
    );
    repo.commit("huge");
    repo.lock(search(json!({"q": {"type": "string"}})));
    let t = Instant::now();
    let out = check(&repo);
    step(
        "100 MiB lockfile (check, in git)",
        &out,
        2,
        "over the 64 MiB",
        t,
    );

    // $ref fan-out: polynomial, and the change is found.
    let t = Instant::now();
    let out = diff(
        dir.path(),
        &tool(fan_out("number")),
        &tool(fan_out("integer")),
    );
    step("$ref fan-out 3^40 paths", &out, 1, "input.type-narrowed", t);
    let t = Instant::now();
    let out = diff(
        dir.path(),
        &tool(fan_out("number")),
        &tool(fan_out("number")),
    );
    step("$ref fan-out 3^40 paths, self-diff", &out, 0, "", t);

    // Numbers with 10,000 digits: valid JSON, but past what a 64-bit float
    // holds (the largest number the loader reads): refused at once, naming
    // the file, the place and the fix, never a hang.
    let digits = "9".repeat(10_000);
    let huge = |n: &str| {
        format!(
            r#"{{"tools": [{{"name": "t", "inputSchema": {{"type": "object", "properties": {{"n": {{"type": "integer", "maximum": {n}}}}}}}}}]}}"#
        )
    };
    let t = Instant::now();
    let out = diff(dir.path(), &huge(&digits), &huge(&format!("1{digits}")));
    step(
        "10,000-digit numbers",
        &out,
        2,
        "old.json: line 1, column 10110: number out of range: past what a 64-bit float holds",
        t,
    );
    let stderr = text(&out.0.stderr);
    assert!(!stderr.contains("invalid JSON"), "{stderr}");
    assert!(
        stderr.contains("help: write the number within +/-1.7976931348623157e308"),
        "{stderr}"
    );
    let t = Instant::now();
    let frac = format!("0.{digits}1");
    let out = diff(dir.path(), &huge(&frac), &huge(&frac));
    step("10,000-digit fraction, self-diff", &out, 0, "", t);

    // A property name of 1 MiB.
    let key = "k".repeat(1 << 20);
    let t = Instant::now();
    let out = diff(
        dir.path(),
        &tool(json!({"type": "object", "properties": {key.clone(): {"type": "string"}}})),
        &tool(json!({"type": "object", "properties": {key: {"type": "integer"}}})),
    );
    step("1 MiB property name", &out, 1, "input.type-", t);

    // Patterns the comparator decides inclusion of: an automaton that would
    // explode (`[ab]*a[ab]{30}`: 2^30 DFA states) is bounded and said so, and
    // the verdict stays breaking (the new language is narrower: "" no longer
    // matches); two spellings of `a*b` whose naive automata blow up are
    // decided equal.
    let pat = |p: &str| {
        tool(json!({"type": "object", "properties": {"s": {"type": "string", "pattern": p}}}))
    };
    let t = Instant::now();
    let out = diff(dir.path(), &pat("[ab]*"), &pat("[ab]*a[ab]{30}"));
    step(
        "hostile pattern pair 0",
        &out,
        1,
        "error[input.pattern-changed]",
        t,
    );
    let stdout = text(&out.0.stdout);
    assert!(
        stdout
            .contains("inclusion not decided: the pattern could not be compiled within the limits"),
        "{stdout}"
    );
    assert!(stdout.contains("summary: 1 breaking"), "{stdout}");
    let t = Instant::now();
    let out = diff(dir.path(), &pat("(a|a)*(a|a)*(a|a)*b"), &pat("(a|aa)*b"));
    step(
        "hostile pattern pair 1",
        &out,
        0,
        "summary: 0 breaking, 0 behavioral, 0 additive, 0 cosmetic",
        t,
    );

    // A pattern that backtracks exponentially in a backtracking engine, with a
    // fixture whose argument triggers it: the fixture check uses a linear-time
    // engine, so it either matches quickly or refuses the pattern.
    let repo = TestRepo::new();
    let evil = json!([{"name": "t", "inputSchema": {"type": "object", "properties": {
        "s": {"type": "string", "pattern": "^(a|a)*(a|a)*(a|a)*(a|a)*b$"}}}}]);
    repo.lock(evil);
    repo.commit("evil pattern");
    repo.write(
        "contracts/fixtures/t/slow.json",
        &json!({"safe": true, "arguments": {"s": "a".repeat(5000)}, "expect": {"outcome": "tool_error"}}).to_string(),
    );
    let t = Instant::now();
    let out = check(&repo);
    step(
        "catastrophic pattern in a fixture",
        &out,
        0,
        "fixtures: 1 checked",
        t,
    );
    let repo2 = TestRepo::new();
    repo2.lock(
        json!([{"name": "t", "inputSchema": {"type": "object", "properties": {
        "s": {"type": "string", "pattern": "^(?=(a+)+$)\\1b"}}}}]),
    );
    repo2.commit("look-around");
    repo2.write(
        "contracts/fixtures/t/x.json",
        &json!({"safe": true, "arguments": {"s": "aaaa"}, "expect": {"outcome": "tool_error"}})
            .to_string(),
    );
    let t = Instant::now();
    let out = check(&repo2);
    step(
        "look-around pattern in a fixture",
        &out,
        2,
        "linear-time engine",
        t,
    );

    for line in &report {
        eprintln!("{line}");
    }
    eprintln!("largest peak RSS of any run: {peak_overall} KiB");
}
