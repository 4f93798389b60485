//! `cargo mcp-contract diff`, `snapshot --from`, `rules` and `explain` as a
//! user runs them: exit codes, both invocation styles, output shapes, and a
//! clear exit-2 error (file + position + fix) for every kind of bad input.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_cargo-mcp-contract"))
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("binary runs")
}

fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/surfaces")
}

/// Writes `name` in `dir` (each test's own temporary directory, removed when
/// the test ends).
fn tmp(dir: &tempfile::TempDir, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.path().join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

const GOOD: &str = r#"{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}"#;

#[test]
fn breaking_diff_exits_1_and_identical_exits_0() {
    let (v1, v2) = (
        examples().join("search-v1.json"),
        examples().join("search-v2.json"),
    );
    let out = run(&["diff", p(&v1), p(&v2), "--color", "never"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("error[input.required-added]"), "{stdout}");
    assert!(stdout.contains("\"region\" is now required"), "{stdout}");
    assert!(
        stdout.contains("probably renamed to \"search_text\""),
        "{stdout}"
    );
    let same = run(&["diff", p(&v1), p(&v1)]);
    assert_eq!(same.status.code(), Some(0));
    assert!(text(&same.stdout).contains("summary: 0 breaking"));
}

#[test]
fn works_as_a_cargo_subcommand_too() {
    let v1 = examples().join("search-v1.json");
    let out = run(&["mcp-contract", "diff", p(&v1), p(&v1)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn json_format_has_the_documented_shape() {
    let (v1, v2) = (
        examples().join("search-v1.json"),
        examples().join("search-v2.json"),
    );
    let out = run(&["diff", p(&v1), p(&v2), "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json on stdout");
    assert_eq!(v["format_version"], 2);
    let first = &v["changes"][0];
    for key in [
        "rule",
        "severity",
        "tool",
        "pointer",
        "message",
        "fingerprint",
    ] {
        assert!(first.get(key).is_some(), "change lacks {key}: {first}");
    }
    assert!(v["summary"]["breaking"].as_u64().unwrap() > 0);
    let required = v["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["rule"] == "input.required-added" && c["subject"] == "region")
        .unwrap();
    assert_eq!(required["pointer"], "/inputSchema/required");
    assert_eq!(required["tool"], "search_documents");
    // format_version 2: the witness and its proof
    assert_eq!(required["proof"]["status"], "proven", "{required}");
    assert_eq!(required["witness"]["kind"], "rejected", "{required}");
    assert!(required["witness"]["value"].is_object());
    assert!(required["witness"]["value"].get("region").is_none());
    for c in v["changes"].as_array().unwrap() {
        let backed = c["severity"] != "breaking" || c["proof"]["status"] != "unproven";
        assert!(backed, "unproven breaking change: {c}");
    }
    // --no-witness skips the search; the verdicts stay
    let out = run(&["diff", p(&v1), p(&v2), "--format", "json", "--no-witness"]);
    let nw: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json on stdout");
    assert_eq!(nw["summary"], v["summary"]);
    assert!(nw["changes"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["witness"].is_null() && c["proof"].is_null()));
}

#[test]
fn human_report_shows_the_witness() {
    let (v1, v2) = (
        examples().join("search-v1.json"),
        examples().join("search-v2.json"),
    );
    let out = run(&["diff", p(&v1), p(&v2), "--color", "never"]);
    let s = text(&out.stdout);
    assert!(
        s.contains("= witness: {") && s.contains("was accepted, now rejected:"),
        "{s}"
    );
}

#[test]
fn accepts_every_input_shape() {
    let dir = tempfile::tempdir().unwrap();
    let tool = r#"{"name":"t","inputSchema":{"type":"object"}}"#;
    let shapes = [
        tmp(&dir, "list.json", GOOD.as_bytes()),
        tmp(
            &dir,
            "rpc.json",
            format!(r#"{{"jsonrpc":"2.0","id":1,"result":{GOOD}}}"#).as_bytes(),
        ),
        tmp(&dir, "array.json", format!("[{tool}]").as_bytes()),
        tmp(&dir, "one.json", tool.as_bytes()),
    ];
    let lock = shapes[0].with_file_name("shapes.lock");
    assert_eq!(
        run(&["snapshot", "--from", p(&shapes[0]), "-o", p(&lock)])
            .status
            .code(),
        Some(0)
    );
    for s in shapes.iter().chain([&lock]) {
        let out = run(&["diff", p(&shapes[0]), p(s)]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}: {}",
            s.display(),
            text(&out.stderr)
        );
        assert!(
            text(&out.stdout).contains("summary: 0 breaking, 0 behavioral, 0 additive, 0 cosmetic")
        );
    }
}

#[test]
fn snapshot_is_canonical_and_rewrites_nothing_when_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let from = tmp(&dir, "snap-src.json", br#"{"tools":[{"inputSchema":{"required":["b","a"],"type":"object","properties":{"b":{},"a":{}}},"name":"z"},{"name":"a","inputSchema":{"type":"object"}}]}"#);
    let lock = from.with_file_name("snap.lock");
    let _ = std::fs::remove_file(&lock);
    let out = run(&["snapshot", "--from", p(&from), "-o", p(&lock)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let first = std::fs::read_to_string(&lock).unwrap();
    assert!(first.ends_with("}\n") && !first.contains('\r'));
    assert!(
        first.find("\"a\": {").unwrap() < first.find("\"z\": {").unwrap(),
        "tools sorted by name"
    );
    assert!(
        first.contains("\"required\": [\n          \"a\",\n          \"b\"\n        ]"),
        "{first}"
    );
    let out = run(&["snapshot", "--from", p(&from), "-o", p(&lock)]);
    assert!(
        text(&out.stderr).contains("up to date"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&lock).unwrap(), first);
}

/// Every malformed input: exit 2, the file named, a position, a help line, no panic.
#[test]
fn malformed_inputs_exit_2_with_file_position_and_fix() {
    let dir = tempfile::tempdir().unwrap();
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let cases: Vec<(&str, Vec<u8>, &str, &str)> = vec![
        ("invalid.json", b"{\"tools\": [\n  {\"name\": \"t\",}\n]}".to_vec(), "invalid JSON", "line 2"),
        ("shape.json", br#"{"hello": 1}"#.to_vec(), "not a tool surface", "/"),
        ("noname.json", br#"{"tools": [{"inputSchema": {}}]}"#.to_vec(), "no string `name`", "/tools/0/name"),
        ("badschema.json", br#"{"tools": [{"name": "t", "inputSchema": 5}]}"#.to_vec(), "must be a JSON Schema object", "/tools/0/inputSchema"),
        ("conflict.json", format!("<<<<<<< HEAD\n{GOOD}\n=======\n{GOOD}\n>>>>>>> other\n").into_bytes(), "merge-conflict", "line 1"),
        ("latin1.json", b"{\"tools\": [{\"name\": \"caf\xe9\"}]}".to_vec(), "not valid UTF-8", "line 1, column 25"),
        ("deep.json", deep.into_bytes(), "recursion limit", "line 1"),
        ("dangling.json", br##"{"tools": [{"name": "t", "inputSchema": {"properties": {"a": {"$ref": "#/$defs/Missing"}}}}]}"##.to_vec(), "points to nothing", "/tools/0/inputSchema/properties/a/$ref"),
        ("cycle.json", br##"{"tools": [{"name": "t", "inputSchema": {"$ref": "#/$defs/A", "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}}}]}"##.to_vec(), "cycle", "/tools/0/inputSchema"),
        ("dup.json", br#"{"tools": [{"name": "t", "inputSchema": {}}, {"name": "t", "inputSchema": {}}]}"#.to_vec(), "duplicate tool `t`", "/tools/1"),
        ("dupkey.lock", b"{\"lockfile_version\": 1, \"tools\": {\"t\": {\"inputSchema\": {}},\n \"t\": {\"inputSchema\": {}}}}".to_vec(), "duplicate key `t`", "line 2"),
        ("version.lock", br#"{"lockfile_version": 7, "tools": {}}"#.to_vec(), "unsupported lockfile_version 7", "/lockfile_version"),
    ];
    let good = tmp(&dir, "good.json", GOOD.as_bytes());
    for (name, bytes, message, location) in cases {
        let bad = tmp(&dir, name, &bytes);
        for args in [
            vec!["diff", p(&good), p(&bad)],
            vec!["diff", p(&bad), p(&good)],
        ] {
            let out = run(&args);
            let err = text(&out.stderr);
            assert_eq!(
                out.status.code(),
                Some(2),
                "{name}: expected exit 2, got {:?}\n{err}",
                out.status.code()
            );
            assert!(err.contains(p(&bad)), "{name}: file not named in {err}");
            assert!(
                err.contains(message),
                "{name}: expected {message:?} in {err}"
            );
            assert!(
                err.contains(location),
                "{name}: expected location {location:?} in {err}"
            );
            assert!(err.contains("help:"), "{name}: no fix in {err}");
            assert!(!err.contains("panicked"), "{name}: panicked: {err}");
            assert!(
                out.stdout.is_empty(),
                "{name}: printed a report despite the error"
            );
        }
    }
}

#[test]
fn missing_file_and_bad_usage_exit_2() {
    let out = run(&["diff", "/nonexistent/a.json", "/nonexistent/b.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("/nonexistent/a.json"));
    assert_eq!(run(&["diff"]).status.code(), Some(2));
    assert_eq!(run(&["frobnicate"]).status.code(), Some(2));
}

#[test]
fn rules_and_explain() {
    let out = run(&["rules"]);
    assert_eq!(out.status.code(), Some(0));
    let listing = text(&out.stdout);
    assert_eq!(listing.lines().count(), mcp_contract::RULES.len());
    assert!(listing.contains("input.required-added"));
    let out = run(&["explain", "annotations.read-only-removed"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains("auto-approve"));
    let out = run(&["explain", "required-added"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("did you mean input.required-added, output.required-added?"),
        "{}",
        text(&out.stderr)
    );
}

/// The README's sample under its first example is what that command prints:
/// every line of the ```text block is a line of the real output (the
/// `region` verdict's witness names `region`, not a neighbour).
#[test]
fn readme_sample_is_real_output() {
    let readme =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../README.md"))
            .unwrap();
    let start = readme.find("```text\n").expect("the README's sample block") + 8;
    let sample = &readme[start..start + readme[start..].find("```").unwrap()];
    let out = run(&[
        "diff",
        p(&examples().join("search-v1.json")),
        p(&examples().join("search-v2.json")),
        "--color",
        "never",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    let sample: Vec<&str> = sample.lines().collect();
    assert_eq!(sample.len(), 3, "{sample:?}");
    assert!(
        lines.windows(sample.len()).any(|w| w == sample.as_slice()),
        "README sample\n{}\nis not in the real output\n{stdout}",
        sample.join("\n")
    );
    assert!(sample[2].ends_with("\"region\" is a required property"));
}

/// Every other test of this file, run again with a temporary directory of
/// its own, leaves it as empty as it found it: no scratch file or directory
/// (of a test or of the binary it runs) outlives the run.
#[test]
fn the_tests_leave_nothing_in_the_temporary_directory() {
    let scratch = tempfile::tempdir().unwrap();
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "--skip",
            "the_tests_leave_nothing_in_the_temporary_directory",
            "--test-threads=2",
        ])
        .env("TMPDIR", scratch.path())
        .output()
        .expect("this test binary runs");
    assert!(
        out.status.success(),
        "the inner run failed:\n{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let left: Vec<_> = std::fs::read_dir(scratch.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(
        left.is_empty(),
        "left behind in the temporary directory: {left:?}"
    );
}

/// `readOnlyHint` true -> false: the specification's defaults make the tool
/// destructive and not idempotent too, three findings from one flag. Each
/// witness leads with its own hint, idempotence included; the read-only
/// change names the explicit annotations that keep the other two promises,
/// and stating them leaves only that change.
#[test]
fn a_read_only_flag_turned_off_names_the_annotations_that_keep_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let tool = |annotations: &str| {
        format!(
            r#"[{{"name":"notes","inputSchema":{{"type":"object"}},"annotations":{annotations}}}]"#
        )
    };
    let old = tmp(
        &dir,
        "old.json",
        tool(r#"{"readOnlyHint":true}"#).as_bytes(),
    );
    let new = tmp(
        &dir,
        "new.json",
        tool(r#"{"readOnlyHint":false}"#).as_bytes(),
    );
    let out = run(&["diff", p(&old), p(&new), "--color", "never"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let witness = |hint: &str| {
        format!("  = witness: annotations {{\"new\":{{\"readOnlyHint\":false}},\"old\":{{\"readOnlyHint\":true}}}}: effective {hint}")
    };
    for line in [
        "  = hint: the specification's defaults for a tool that is not read-only also report it as destructive and not idempotent (the findings beside this one); if it still does not destroy data and is still safe to retry, state `destructiveHint: false` and `idempotentHint: true` in its annotations, and only this change remains".to_string(),
        "  = hint: this follows from readOnlyHint turning false: the annotations do not state it, so the specification's default applies; state `destructiveHint: false` if the old promise still holds".to_string(),
        "  = hint: this follows from readOnlyHint turning false: the annotations do not state it, so the specification's default applies; state `idempotentHint: true` if the old promise still holds".to_string(),
        witness("readOnlyHint true -> false, effective destructiveHint false -> true, effective idempotentHint true -> false"),
        witness("destructiveHint false -> true, effective readOnlyHint true -> false, effective idempotentHint true -> false"),
        witness("idempotentHint true -> false, effective readOnlyHint true -> false, effective destructiveHint false -> true"),
    ] {
        assert!(stdout.contains(&format!("{line}\n")), "no {line:?} in\n{stdout}");
    }
    assert!(stdout.contains("summary: 3 breaking"), "{stdout}");

    // The way out, taken: only the read-only change is left, without a hint.
    let kept = tmp(
        &dir,
        "kept.json",
        tool(r#"{"readOnlyHint":false,"destructiveHint":false,"idempotentHint":true}"#).as_bytes(),
    );
    let out = run(&["diff", p(&old), p(&kept), "--color", "never"]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("error[annotations.read-only-removed]"),
        "{stdout}"
    );
    assert!(stdout.contains("summary: 1 breaking"), "{stdout}");
    assert!(!stdout.contains("= hint:"), "{stdout}");
}
