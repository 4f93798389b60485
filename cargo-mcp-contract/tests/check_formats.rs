//! Every failure that sets `check`'s exit status shows in every format, at
//! its place: for each kind of failure (an unacknowledged change, a failing
//! contract fixture, a stale record under `--strict`, a malformed record, a
//! malformed fixture, a deleted lockfile, a lockfile its sources moved past,
//! a rename whose alias narrows the old field, a deprecated path removed
//! without usage evidence), the exit status is the same
//! in human, json, sarif, github, junit and markdown, and each says it
//! failed and names the file.

mod check_support;

use check_support::*;
use serde_json::{json, Value};

const FORMATS: [&str; 6] = ["human", "json", "sarif", "github", "junit", "markdown"];

/// One failure: the repository, the extra arguments, the exit status, and
/// the file every format must name.
struct Case {
    name: &'static str,
    repo: TestRepo,
    args: Vec<&'static str>,
    code: i32,
    place: &'static str,
}

fn searchable() -> TestRepo {
    let r = TestRepo::new();
    r.lock(search(json!({"query": {"type": "string"}})));
    r.commit("publish search");
    r
}

const FIXTURE: &str = "contracts/fixtures/search/legacy.json";

fn cases() -> Vec<Case> {
    let unacknowledged = renamed_on_branch();

    let fixture = searchable();
    fixture.write(
        FIXTURE,
        r#"{"safe": true, "arguments": {"query": 5}, "expect": {"outcome": "success"}}"#,
    );

    let stale = searchable();
    stale.write(
        RECORD,
        "[[acknowledge]]\ntool = \"search\"\nrule = \"tool.removed\"\npointer = \"\"\nreason = \"gone\"\nowner = \"@team\"\ntransition = { kind = \"removal\" }\n",
    );

    let malformed_record = searchable();
    malformed_record.write(
        RECORD,
        "[[acknowledge]]\ntool = \"search\"\nrule = \"tool.removed\"\npointer = \"\"\nreason = \"\"\nowner = \"@team\"\ntransition = { kind = \"removal\" }\n",
    );

    let malformed_fixture = searchable();
    malformed_fixture.write(FIXTURE, r#"{"saf": true}"#);

    let deleted = searchable();
    std::fs::remove_file(deleted.abs(LOCK)).unwrap();

    let moved = tiny_package("Echo the text.");
    moved.write("src/lib.rs", &tiny_lib("Echo the text.", "words"));

    let narrowed = TestRepo::new();
    narrowed.lock(json!([{"name": "get_order", "inputSchema": {
        "type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}}]));
    narrowed.commit("get_order by id");
    narrowed.lock(json!([{"name": "get_order", "inputSchema": {
        "type": "object",
        "properties": {
            "order_id": {"type": "integer"},
            "id": {"type": "integer", "deprecated": true,
                   "description": "Deprecated: renamed to `order_id`; send `order_id` instead."}
        },
        "anyOf": [{"required": ["order_id"]}, {"required": ["id"]}]}}]));
    narrowed.write(RECORD, ORDER_RENAME);

    // The alias `id` a rename kept is removed without usage evidence.
    let alias_removed = TestRepo::new();
    alias_removed.lock(json!([{"name": "get_order", "inputSchema": {
        "type": "object", "properties": {"id": {"type": "string"}}}}]));
    alias_removed.commit("get_order by id");
    alias_removed.lock(json!([{"name": "get_order", "inputSchema": {
    "type": "object",
    "properties": {
        "order_id": {"type": "string"},
        "id": {"type": "string", "deprecated": true,
               "description": "Deprecated: renamed to `order_id`; send `order_id` instead."}
    }}}]));
    alias_removed.write(RECORD, ORDER_RENAME);
    alias_removed.commit("id renamed to order_id, id kept as an alias");
    alias_removed.lock(json!([{"name": "get_order", "inputSchema": {
        "type": "object", "properties": {"order_id": {"type": "string"}}}}]));
    alias_removed.write(
        RECORD,
        &ORDER_RENAME.replace(
            "kind = \"rename\", from = \"id\", to = \"order_id\"",
            "kind = \"removal\", replacement = \"order_id\", removal = { quiet_for = \"30d\" }",
        ),
    );

    vec![
        Case {
            name: "removal of a deprecated path without usage evidence",
            repo: alias_removed,
            args: vec!["--against", "HEAD"],
            code: 1,
            place: RECORD,
        },
        Case {
            name: "unacknowledged change",
            repo: unacknowledged,
            args: vec![],
            code: 1,
            place: LOCK,
        },
        Case {
            name: "failing fixture",
            repo: fixture,
            args: vec!["--against", "HEAD"],
            code: 1,
            place: FIXTURE,
        },
        Case {
            name: "stale record under --strict",
            repo: stale,
            args: vec!["--against", "HEAD", "--strict"],
            code: 1,
            place: RECORD,
        },
        Case {
            name: "malformed record",
            repo: malformed_record,
            args: vec!["--against", "HEAD"],
            code: 2,
            place: RECORD,
        },
        Case {
            name: "malformed fixture",
            repo: malformed_fixture,
            args: vec!["--against", "HEAD"],
            code: 2,
            place: "legacy.json",
        },
        Case {
            name: "deleted lockfile",
            repo: deleted,
            args: vec!["--against", "HEAD"],
            code: 2,
            place: LOCK,
        },
        Case {
            name: "lockfile the sources moved past",
            repo: moved,
            args: vec!["--against", "HEAD"],
            code: 2,
            place: LOCK,
        },
        Case {
            name: "alias narrower than the renamed field",
            repo: narrowed,
            args: vec!["--against", "HEAD"],
            code: 1,
            place: LOCK,
        },
    ]
}

const ORDER_RENAME: &str = r#"[[acknowledge]]
tool = "get_order"
rule = "input.property-removed"
pointer = "/inputSchema/properties/id"
subject = "id"
reason = "id is now order_id"
owner = "@orders"
transition = { kind = "rename", from = "id", to = "order_id" }
"#;

/// Does `text`, in `format`, say the check failed?
fn says_failed(format: &str, code: i32, run: &Run) -> Result<(), String> {
    let out = &run.stdout;
    let ok = match format {
        "human" => {
            out.contains("result: FAILED")
                || (code == 2 && run.stderr.lines().any(|l| l.starts_with("error: ")))
        }
        "json" => {
            let v: Value = serde_json::from_str(out).map_err(|e| format!("not JSON: {e}"))?;
            let want: &[&str] = if code == 1 {
                &["failed"]
            } else {
                &["invalid", "error"]
            };
            want.contains(&v["status"].as_str().unwrap_or(""))
        }
        "sarif" => {
            let v: Value = serde_json::from_str(out).map_err(|e| format!("not JSON: {e}"))?;
            v["runs"][0]["results"]
                .as_array()
                .is_some_and(|r| r.iter().any(|r| r["level"] == "error"))
        }
        "github" => out.lines().any(|l| l.starts_with("::error file=")),
        "junit" => out.contains("<failure") || out.contains("<error"),
        "markdown" => out.contains("❌"),
        _ => unreachable!(),
    };
    if ok {
        Ok(())
    } else {
        Err("does not say it failed".into())
    }
}

#[test]
fn every_failure_shows_in_every_format_with_the_same_exit_status() {
    let mut wrong = vec![];
    for case in cases() {
        for format in FORMATS {
            let mut args = vec!["check", "--format", format, "--no-witness"];
            args.extend(case.args.iter().copied());
            let run = case.repo.run(&args);
            if run.code != case.code {
                wrong.push(format!(
                    "{} / {format}: exit {} (want {}): {run:?}",
                    case.name, run.code, case.code
                ));
                continue;
            }
            if let Err(why) = says_failed(format, case.code, &run) {
                wrong.push(format!("{} / {format}: {why}: {run:?}", case.name));
                continue;
            }
            // The place: machine formats name it in their document; the
            // human report on either stream.
            let shown = if format == "human" {
                format!("{}{}", run.stdout, run.stderr)
            } else {
                run.stdout.clone()
            };
            if !shown.contains(case.place) {
                wrong.push(format!(
                    "{} / {format}: `{}` not named: {run:?}",
                    case.name, case.place
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}
