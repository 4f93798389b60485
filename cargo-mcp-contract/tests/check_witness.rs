//! Witnesses in the gate: `check` shows the call behind each breaking
//! verdict, and `check --write-fixtures` turns the input witnesses into
//! contract fixtures that expect what the migration record promises (the
//! demo server's record: a field rename with an alias, a server default, a
//! removed field), which the same check then runs and passes.

mod check_support;

use std::path::Path;

use check_support::{TestRepo, LOCK, RECORD};

fn demo() -> &'static Path {
    Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/demo-server"
    ))
}

fn repo_at_current_revision() -> TestRepo {
    let repo = TestRepo::new();
    let read = |rel: &str| std::fs::read_to_string(demo().join(rel)).unwrap();
    repo.write(LOCK, &read("tests/data/revision-1.lock"));
    repo.commit("revision 1");
    repo.write(LOCK, &read("contracts/mcp-contract.lock"));
    repo.write(RECORD, &read("contracts/migrations.toml"));
    repo
}

fn witness_fixtures(repo: &TestRepo) -> Vec<(String, serde_json::Value)> {
    let mut out = vec![];
    let dir = repo.abs("contracts/fixtures");
    for tool in std::fs::read_dir(&dir).into_iter().flatten() {
        let tool = tool.unwrap().path();
        for f in std::fs::read_dir(&tool).unwrap() {
            let f = f.unwrap().path();
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            if name.starts_with("witness-") {
                let v = serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
                out.push((
                    format!("{}/{name}", tool.file_name().unwrap().to_string_lossy()),
                    v,
                ));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

#[test]
fn check_shows_witnesses_and_json_carries_them() {
    let repo = repo_at_current_revision();
    let run = repo.check(&["--against", "HEAD", "--color", "never"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.contains("= witness: {"), "{run:?}");
    let json = repo.check(&["--against", "HEAD", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(v["format_version"], 2);
    let changes = v["checks"][0]["changes"].as_array().unwrap();
    let breaking: Vec<&serde_json::Value> = changes
        .iter()
        .filter(|c| c["severity"] == "breaking")
        .collect();
    assert!(!breaking.is_empty());
    for c in breaking {
        assert_ne!(c["proof"]["status"], "unproven", "{c}");
        assert!(c["proof"]["status"].is_string(), "{c}");
    }
    let sarif = repo.check(&["--against", "HEAD", "--format", "sarif"]);
    assert!(sarif.stdout.contains("\"proof\""), "{sarif:?}");
    let github = repo.check(&["--against", "HEAD", "--format", "github"]);
    assert!(github.stdout.contains("Witness: "), "{github:?}");
}

#[test]
fn write_fixtures_expects_what_the_record_promises() {
    let repo = repo_at_current_revision();
    let run = repo.check(&["--against", "HEAD", "--write-fixtures"]);
    // the written fixtures are checked in the same run, and hold
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stderr.contains("wrote fixture"), "{run:?}");
    let written = witness_fixtures(&repo);
    let find = |tool: &str, rule: &str| {
        written
            .iter()
            .find(|(p, v)| p.starts_with(&format!("{tool}/")) && v["x-witness"]["rule"] == rule)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| panic!("no witness fixture for {tool} {rule}: {written:?}"))
    };
    // (the rename's alias and the currency default are served by the build
    // step, so they no longer show in the diff: the witness module's unit
    // tests cover their expectations)
    // removed field: the witness sends `note` itself (not the instance of the
    // currency change beside it), and the record's removal promises RESERVED_FIELD
    let removed = find("create_order", "input.property-removed");
    assert_eq!(
        removed["expect"]["error_code"], "RESERVED_FIELD",
        "{removed}"
    );
    assert!(
        removed["arguments"].get("note").is_some(),
        "the removal's witness must send the removed field: {removed}"
    );
    // a second run keeps what is there
    let again = repo.check(&["--against", "HEAD", "--write-fixtures"]);
    assert_eq!(again.code, 0, "{again:?}");
    assert!(again.stderr.contains("kept existing fixture"), "{again:?}");
    assert_eq!(witness_fixtures(&repo), written);
}
