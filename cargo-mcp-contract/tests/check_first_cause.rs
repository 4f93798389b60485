//! A typo or a merge conflict in `contracts/migrations.toml` (or a conflict
//! in the lockfile) is the first cause of everything the check would say
//! after it: the build step's freshness, entries that seem to match nothing,
//! pointers moved by a rename alias the broken entry no longer takes out,
//! the same error from the fixtures. It is reported once, alone, with its
//! place and fix (exit 2), under plain `check`, `check -p`, `--lockfile`
//! and the pre-commit hook's `--staged`.

mod check_support;

use check_support::*;
use serde_json::Value;

/// `echo` with its argument `FIELD` and, unless removed, an optional `lang`.
const LIB: &str = "/// Echo the text.\n#[mcp_contract::tool(name = \"echo\", read_only)]\n#[derive(serde::Deserialize)]\npub struct EchoArgs {\n    /// What to say back.\n    pub FIELD: String,\n    /// The language to say it in.\n    pub lang: Option<String>,\n}\n";

/// A rename of `text` to `message` (its rule id is `RULE`) and the removal
/// of `lang`, both acknowledged.
const RECORD_TEXT: &str = "[[acknowledge]]\ntool = \"echo\"\nrule = \"RULE\"\npointer = \"/inputSchema/properties/text\"\nsubject = \"text\"\nreason = \"clearer\"\nowner = \"@me\"\ntransition = { kind = \"rename\", from = \"text\", to = \"message\" }\n\n[[acknowledge]]\ntool = \"echo\"\nrule = \"input.property-removed\"\npointer = \"/inputSchema/properties/lang\"\nsubject = \"lang\"\nreason = \"always english\"\nowner = \"@me\"\ntransition = { kind = \"removal\" }\n";

/// What the check says about the misspelled rule id, and nothing else.
const TYPO: &str = "contracts/migrations.toml:3:8: unknown rule `input.property-removd`\n  help: did you mean `input.property-removed`?\n";

fn build(r: &TestRepo) {
    mcp_contract_build::Builder::new()
        .manifest_dir(r.path())
        .package("tiny")
        .mode(mcp_contract_build::Mode::Update)
        .quiet()
        .generate()
        .expect("the fixture package snapshots");
}

/// `tiny` committed with `echo {text, lang}`; in the working tree `text`
/// is renamed to `message` and `lang` removed, both acknowledged, and the
/// lockfile rebuilt (the build step publishes `text` as an alias).
fn renamed_package() -> TestRepo {
    let r = TestRepo::new();
    r.write("Cargo.toml", TINY_MANIFEST);
    r.write("build.rs", "fn main() { mcp_contract_build::snapshot() }\n");
    r.write("src/lib.rs", &LIB.replace("FIELD", "text"));
    build(&r);
    r.commit("echo {text, lang}");
    let without_lang = LIB.replace("FIELD", "message").replace(
        "    /// The language to say it in.\n    pub lang: Option<String>,\n",
        "",
    );
    r.write("src/lib.rs", &without_lang);
    r.write(
        RECORD,
        &RECORD_TEXT.replace("RULE", "input.property-removed"),
    );
    build(&r);
    r
}

fn assert_only_error(run: &Run, expected_stderr: &str) {
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(run.stdout, "", "nothing but the first cause: {run:?}");
    assert_eq!(run.stderr, expected_stderr, "{run:?}");
}

#[test]
fn a_misspelled_rule_id_is_the_one_error_reported() {
    let r = renamed_package();
    // The record as written acknowledges both changes, with no warning.
    let good = r.check(&["--against", "HEAD", "--lockfile", LOCK]);
    assert_eq!(good.code, 0, "{good:?}");
    assert!(good.stdout.contains("2 acknowledged, 0 not"), "{good:?}");
    assert!(!good.stdout.contains("warning"), "{good:?}");

    r.write(
        RECORD,
        &RECORD_TEXT.replace("RULE", "input.property-removd"),
    );
    // A fixture reads the record too: its error must not come a second time.
    r.write(
        "contracts/fixtures/echo/hello.json",
        "{\"arguments\": {\"message\": \"hi\"}, \"expect\": {\"outcome\": \"success\"}}\n",
    );
    // Judged as written: before, the alias left in place moved `lang`'s
    // removal to /inputSchema/anyOf/1/..., the correct entry for it
    // "matched no change", and the real error came last, twice.
    assert_only_error(
        &r.check(&["--against", "HEAD", "--lockfile", LOCK]),
        &format!("error: {TYPO}"),
    );
    // The package's build step reads the record first as well.
    assert_only_error(
        &r.check(&["--against", "HEAD"]),
        &format!("error: package `tiny`: {TYPO}"),
    );
    assert_only_error(
        &r.check(&["-p", "tiny", "--against", "HEAD"]),
        &format!("error: package `tiny`: {TYPO}"),
    );
    // The pre-commit hook's check names the repository's file, not its
    // scratch copy of the index.
    r.git(&["add", "-A"]);
    assert_only_error(
        &r.check(&["--staged", "--against", "HEAD"]),
        &format!("error: package `tiny`: {TYPO}"),
    );

    // Every format says the same: one error at its line, no change judged.
    let json = r.check(&["--against", "HEAD", "--lockfile", LOCK, "--format", "json"]);
    assert_eq!(json.code, 2, "{json:?}");
    let v: Value = serde_json::from_str(&json.stdout).expect("json");
    let check = &v["checks"][0];
    assert_eq!(check["status"], "error", "{json:?}");
    assert_eq!(check["changes"], serde_json::json!([]), "{json:?}");
    assert_eq!(check["problems"], serde_json::json!([]), "{json:?}");
    let errors = check["errors"].as_array().expect("errors");
    assert_eq!(errors.len(), 1, "{json:?}");
    assert_eq!(
        (&errors[0]["file"], &errors[0]["line"], &errors[0]["column"]),
        (
            &Value::from("contracts/migrations.toml"),
            &Value::from(3),
            &Value::from(8)
        ),
        "{json:?}"
    );
    let github = r.check(&[
        "--against",
        "HEAD",
        "--lockfile",
        LOCK,
        "--format",
        "github",
    ]);
    assert_eq!(github.code, 2, "{github:?}");
    assert_eq!(
        github.stdout.matches("unknown rule").count(),
        1,
        "{github:?}"
    );
    assert!(
        github
            .stdout
            .contains("file=contracts/migrations.toml,line=3,col=8"),
        "{github:?}"
    );
}

/// Merges `branch` into the current branch, which must conflict (git
/// exits 1 then, so it is run here rather than through `TestRepo::git`).
fn merge_with_conflicts(r: &TestRepo, branch: &str) {
    let merged = std::process::Command::new("git")
        .current_dir(r.path())
        .args(["-c", "commit.gpgsign=false", "merge", "-q", branch])
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "Test")
        .env("GIT_AUTHOR_EMAIL", "test@example.invalid")
        .env("GIT_COMMITTER_NAME", "Test")
        .env("GIT_COMMITTER_EMAIL", "test@example.invalid")
        .output()
        .expect("git runs");
    assert_eq!(
        merged.status.code(),
        Some(1),
        "the merge conflicts: {merged:?}"
    );
}

/// The record as two branches that both appended an entry leave it.
fn merge_conflicted_record(r: &TestRepo, base_branch: &str) {
    let entry = |field: &str| {
        format!("\n[[acknowledge]]\ntool = \"search\"\nrule = \"input.property-removed\"\npointer = \"/inputSchema/properties/{field}\"\nsubject = \"{field}\"\nreason = \"unused\"\nowner = \"@me\"\ntransition = {{ kind = \"removal\" }}\n")
    };
    r.write(RECORD, "version = 1\n");
    r.commit("a record");
    r.git(&["checkout", "-q", "-b", "limit"]);
    r.write(RECORD, &format!("version = 1\n{}", entry("limit")));
    r.commit("acknowledge limit");
    r.git(&["checkout", "-q", base_branch]);
    r.write(RECORD, &format!("version = 1\n{}", entry("page")));
    r.commit("acknowledge page");
    merge_with_conflicts(r, "limit");
    let text = r.read(RECORD);
    assert_eq!(
        text.lines().nth(5),
        Some("<<<<<<< HEAD"),
        "the conflict starts at line 6 (the pointers differ): {text}"
    );
}

const RECORD_CONFLICT: &str = "contracts/migrations.toml:6:1: unresolved merge-conflict marker\n  help: resolve the conflict: keep the entries of both sides and delete the `<<<<<<<`, `=======` and `>>>>>>>` lines, then re-run `cargo mcp-contract check`\n";

#[test]
fn a_merge_conflict_in_the_record_is_one_error_under_check_and_check_p() {
    let r = TestRepo::new();
    r.lock(search(serde_json::json!({"query": {"type": "string"}})));
    r.commit("publish search");
    merge_conflicted_record(&r, "main");
    assert_only_error(
        &r.check(&["--against", "HEAD"]),
        &format!("error: {RECORD_CONFLICT}"),
    );

    let p = tiny_package("Echo the text.");
    merge_conflicted_record(&p, "main");
    for args in [
        &["--against", "HEAD"][..],
        &["-p", "tiny", "--against", "HEAD"],
    ] {
        assert_only_error(
            &p.check(args),
            &format!("error: package `tiny`: {RECORD_CONFLICT}"),
        );
    }
}

#[test]
fn a_merge_conflict_in_the_lockfile_is_named_not_parsed() {
    let r = tiny_package("Echo the text.");
    r.git(&["checkout", "-q", "-b", "loud"]);
    r.write("src/lib.rs", &tiny_lib("Echo the text, loudly.", "text"));
    build(&r);
    r.commit("loud");
    r.git(&["checkout", "-q", "main"]);
    r.write("src/lib.rs", &tiny_lib("Echo the text, quietly.", "text"));
    build(&r);
    r.commit("quiet");
    merge_with_conflicts(&r, "loud");
    // The source is resolved by hand; the lockfile is not.
    r.write("src/lib.rs", &tiny_lib("Echo the text, quietly.", "text"));
    let lock = r.read(LOCK);
    let lines: Vec<&str> = lock.lines().collect();
    assert_eq!(
        (lines[8], lines[9]),
        (
            "<<<<<<< HEAD",
            "      \"description\": \"Echo the text, quietly.\","
        ),
        "the conflict starts at line 9:\n{lock}"
    );
    let expected = "error: package `tiny`: contracts/mcp-contract.lock: line 9, column 1: unresolved merge-conflict marker\n  help: resolve the conflict: take either side, then regenerate with `cargo build` or `cargo mcp-contract snapshot`\n";
    for args in [
        &["--against", "HEAD"][..],
        &["-p", "tiny", "--against", "HEAD"],
    ] {
        assert_only_error(&r.check(args), expected);
    }
    // Judged as written, the same error.
    assert_only_error(
        &r.check(&["--against", "HEAD", "--lockfile", LOCK]),
        &expected.replace("package `tiny`: ", ""),
    );
}

/// An entry naming a tool no change concerns gets the changed tool it most
/// likely means; a fixture directory naming an unpublished tool too.
#[test]
fn a_misspelled_tool_name_gets_a_did_you_mean() {
    let r = TestRepo::new();
    r.lock(search(serde_json::json!({
        "query": {"type": "string"},
        "limit": {"type": "integer"}
    })));
    r.commit("publish search");
    r.lock(search(serde_json::json!({"query": {"type": "string"}})));
    r.write(
        RECORD,
        "[[acknowledge]]\ntool = \"serch\"\nrule = \"input.property-removed\"\npointer = \"/inputSchema/properties/limit\"\nsubject = \"limit\"\nreason = \"unused\"\nowner = \"@me\"\ntransition = { kind = \"removal\" }\n",
    );
    let run = r.check(&["--against", "HEAD"]);
    assert_eq!(run.code, 1, "the removal is not acknowledged: {run:?}");
    assert!(
        run.stdout.contains("warning: contracts/migrations.toml:1:1: this entry (input.property-removed on `serch`) matches no change in the diff\n  help: did you mean `search`? (no change in the diff concerns `serch`)\n"),
        "{run:?}"
    );

    r.write(RECORD, "");
    r.write(
        "contracts/fixtures/serch/hello.json",
        "{\"arguments\": {\"query\": \"rust\"}, \"expect\": {\"outcome\": \"success\"}}\n",
    );
    let run = r.check(&["--against", "HEAD", "--format", "json"]);
    let v: Value = serde_json::from_str(&run.stdout).expect("json");
    let failures = &v["checks"][0]["fixtures"]["failures"];
    assert_eq!(
        failures[0]["problem"].as_str().map(|p| p.contains(
            "tool `serch` is not published (did you mean `search`? the fixture's directory name is the tool name)"
        )),
        Some(true),
        "{run:?}"
    );
}
