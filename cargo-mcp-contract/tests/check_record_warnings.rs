//! Entries of `contracts/migrations.toml` that match nothing, and removal
//! dates that have passed, are warnings (exit 0) unless `--strict`; the
//! human and JSON reports list them every time: when the check passes, when
//! it fails for another reason, and when plain `check` judges a build-step
//! package.

mod check_support;

use check_support::*;
use serde_json::Value;

/// An entry for a change that is not in the diff, its removal date passed.
const STALE: &str = "[[acknowledge]]\ntool = \"search\"\nrule = \"tool.removed\"\npointer = \"\"\nsubject = \"search\"\nreason = \"old\"\nowner = \"@me\"\ntransition = { kind = \"removal\", until = 2001-01-01 }\n";

const UNUSED: &str = "matches no change in the diff";
const EXPIRED: &str = "removal date 2001-01-01 has passed";

/// Both warnings in the human report and in the JSON report's problems.
fn listed(r: &TestRepo, args: &[&str], code: i32) {
    let run = r.check(args);
    assert_eq!(run.code, code, "{run:?}");
    assert!(run.stdout.contains(UNUSED), "{run:?}");
    assert!(run.stdout.contains(EXPIRED), "{run:?}");
    let mut json_args = args.to_vec();
    json_args.extend(["--format", "json"]);
    let json = r.check(&json_args);
    assert_eq!(json.code, code, "{json:?}");
    let v: Value = serde_json::from_str(&json.stdout).expect("json");
    let level = if args.contains(&"--strict") {
        "error"
    } else {
        "warning"
    };
    let problems = v["checks"][0]["problems"].as_array().expect("problems");
    for want in [UNUSED, EXPIRED] {
        assert!(
            problems.iter().any(|p| p["level"] == level
                && p["kind"] == "stale"
                && p["file"] == RECORD
                && p["message"].as_str().is_some_and(|m| m.contains(want))),
            "{want:?} not listed as a {level}: {problems:?}"
        );
    }
}

#[test]
fn listed_when_the_check_passes_and_under_strict() {
    let r = TestRepo::new();
    r.lock(search(serde_json::json!({"query": {"type": "string"}})));
    r.commit("publish search");
    r.write(RECORD, STALE);
    listed(&r, &["--against", "HEAD"], 0);
    listed(&r, &["--against", "HEAD", "--strict"], 1);
}

#[test]
fn listed_when_the_check_fails_for_another_reason() {
    let r = renamed_on_branch();
    r.write(RECORD, STALE);
    listed(&r, &[], 1);
}

#[test]
fn listed_for_a_build_step_package() {
    let r = tiny_package("Echo the text.");
    // A field removal (the build step serves nothing for it) that the diff lacks.
    r.write(
        RECORD,
        &STALE
            .replace("\"search\"", "\"echo\"")
            .replace("tool.removed", "input.property-removed")
            .replace(
                "pointer = \"\"",
                "pointer = \"/inputSchema/properties/old\"",
            )
            .replace("subject = \"echo\"", "subject = \"old\""),
    );
    let run = r.check(&["--against", "HEAD"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout.contains("the lockfile matches its sources"),
        "{run:?}"
    );
    assert!(run.stdout.contains(UNUSED), "{run:?}");
    assert!(run.stdout.contains(EXPIRED), "{run:?}");
}
