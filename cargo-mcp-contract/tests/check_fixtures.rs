//! `cargo mcp-contract check` runs the contract fixtures beside the lockfile
//! through the published schema and the compatibility plan of the migration
//! record: in a real git repository holding the demo server's contracts
//! (revision 1 committed, the current revision in the working tree), the
//! check passes, and fails with the fixture named once the rename's alias is
//! deleted from `contracts/migrations.toml`.

mod check_support;

use std::path::Path;

use check_support::{TestRepo, LOCK, RECORD};

fn demo() -> &'static Path {
    Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/demo-server"
    ))
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

fn repo_at_current_revision() -> TestRepo {
    let repo = TestRepo::new();
    let read = |rel: &str| std::fs::read_to_string(demo().join(rel)).unwrap();
    repo.write(LOCK, &read("tests/data/revision-1.lock"));
    repo.commit("revision 1");
    repo.write(LOCK, &read("contracts/mcp-contract.lock"));
    repo.write(RECORD, &read("contracts/migrations.toml"));
    copy_dir(
        &demo().join("contracts/fixtures"),
        &repo.abs("contracts/fixtures"),
    );
    repo
}

#[test]
fn fixtures_pass_with_the_record_as_committed() {
    let repo = repo_at_current_revision();
    let run = repo.check(&["--against", "HEAD"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.contains("fixtures: 14 checked"), "{run:?}");
    assert!(run.stdout.contains(", 0 failing"), "{run:?}");
}

#[test]
fn deleting_the_alias_from_the_record_fails_the_check() {
    let repo = repo_at_current_revision();
    let record = repo.read(RECORD);
    let kept: Vec<&str> = record
        .split("[[acknowledge]]")
        .filter(|e| !e.contains("kind = \"rename\""))
        .collect();
    repo.write(RECORD, &kept.join("[[acknowledge]]"));
    let run = repo.check(&["--against", "HEAD"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout
            .contains("error[fixture]: contracts/fixtures/search_catalog/legacy_query.json"),
        "{run:?}"
    );
    assert!(run.stdout.contains("compatibility branch"), "{run:?}");
}

#[test]
fn machine_formats_keep_the_fixture_report_off_stdout() {
    let repo = repo_at_current_revision();
    let run = repo.check(&["--against", "HEAD", "--format", "json"]);
    assert_eq!(run.code, 0, "{run:?}");
    serde_json::from_str::<serde_json::Value>(&run.stdout).expect("stdout is only the JSON report");
    assert!(run.stderr.contains("fixtures: 14 checked"), "{run:?}");
}

#[test]
fn a_malformed_fixture_is_an_error_with_the_file() {
    let repo = repo_at_current_revision();
    repo.write(
        "contracts/fixtures/search_catalog/broken.json",
        "{\"saf\": true}",
    );
    let run = repo.check(&["--against", "HEAD"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("broken.json"), "{run:?}");
}
