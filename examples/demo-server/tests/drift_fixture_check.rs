//! The contract fixtures in `contracts/fixtures/` hold the compatibility
//! branches in place: run through the published schema and the normalizer
//! generated from `contracts/migrations.toml` (what `cargo mcp-contract
//! check` does), they pass as committed, and they fail as soon as a branch
//! that legacy callers rely on (the `query` alias, the `currency` default)
//! is deleted from the record, whether or not the lockfile was rebuilt.

use std::path::{Path, PathBuf};

use mcp_contract::runtime::fixture_check::{check_contracts, FixtureReport};
use mcp_contract::runtime::CompatPlan;
use mcp_contract_build::{Builder, Mode};

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
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

/// A copy of the demo package (sources and contracts) to edit.
fn copy_package() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for dir in ["src", "contracts"] {
        copy_dir(&manifest_dir().join(dir), &tmp.path().join(dir));
    }
    std::fs::copy(manifest_dir().join("build.rs"), tmp.path().join("build.rs")).unwrap();
    tmp
}

/// Deletes the `[[acknowledge]]` entry whose text contains `marker`.
fn delete_entry(record: &Path, marker: &str) {
    let text = std::fs::read_to_string(record).unwrap();
    let mut parts: Vec<&str> = text.split("[[acknowledge]]").collect();
    let before = parts.len();
    parts.retain(|p| !p.contains(marker));
    assert_eq!(
        parts.len(),
        before - 1,
        "exactly one entry holds {marker:?}"
    );
    std::fs::write(record, parts.join("[[acknowledge]]")).unwrap();
}

/// Regenerates the copy's lockfile and plan from its sources and record,
/// as `cargo build` would.
fn rebuild(pkg: &Path) -> CompatPlan {
    let out = pkg.join("out");
    Builder::new()
        .manifest_dir(pkg)
        .package("demo-server")
        .out_dir(&out)
        .mode(Mode::Update)
        .quiet()
        .generate()
        .unwrap_or_else(|e| panic!("{e}"));
    let text =
        std::fs::read_to_string(out.join(mcp_contract::runtime::PLAN_PATH)).expect("plan written");
    CompatPlan::from_json(&text).unwrap()
}

fn lockfile(pkg: &Path) -> PathBuf {
    pkg.join("contracts/mcp-contract.lock")
}

fn failing_files(report: &FixtureReport) -> Vec<String> {
    let mut v: Vec<String> = report
        .failures
        .iter()
        .map(|f| {
            format!(
                "{}/{}",
                f.tool,
                f.file.file_name().unwrap().to_string_lossy()
            )
        })
        .collect();
    v.sort();
    v.dedup();
    v
}

#[test]
fn the_committed_fixtures_pass() {
    let report = check_contracts(&lockfile(manifest_dir())).unwrap_or_else(|e| panic!("{e}"));
    assert!(report.passed(), "{:#?}", report.failures);
    let files = std::fs::read_dir(manifest_dir().join("contracts/fixtures"))
        .unwrap()
        .map(|d| std::fs::read_dir(d.unwrap().path()).unwrap().count())
        .sum::<usize>();
    assert_eq!(report.checked, files);
    assert!(report.checked >= 10);
}

#[test]
fn rebuilding_the_unchanged_package_reproduces_the_committed_lockfile() {
    let pkg = copy_package();
    let plan = rebuild(pkg.path());
    let committed = std::fs::read(lockfile(manifest_dir())).unwrap();
    assert_eq!(std::fs::read(lockfile(pkg.path())).unwrap(), committed);
    assert_eq!(
        plan.revision,
        mcp_contract::runtime::plan::revision_of(std::str::from_utf8(&committed).unwrap())
    );
    assert_eq!(plan.tools["search_catalog"].aliases[0].from, "query");
    assert!(check_contracts(&lockfile(pkg.path())).unwrap().passed());
}

#[test]
fn deleting_the_alias_fails_the_check_before_and_after_a_rebuild() {
    let pkg = copy_package();
    let record = pkg.path().join("contracts/migrations.toml");
    delete_entry(&record, "kind = \"rename\"");

    // The lockfile not rebuilt yet: the normalizer no longer maps `query`.
    let report = check_contracts(&lockfile(pkg.path())).unwrap();
    let failing = failing_files(&report);
    assert!(
        failing.contains(&"search_catalog/legacy_query.json".to_string()),
        "{failing:?}"
    );

    // Rebuilt: `query` is gone from the published schema and the plan.
    let plan = rebuild(pkg.path());
    assert!(plan.tools["search_catalog"].aliases.is_empty());
    let report = check_contracts(&lockfile(pkg.path())).unwrap();
    let failing = failing_files(&report);
    for f in [
        "search_catalog/legacy_query.json",
        "search_catalog/both_names_same_value.json",
        "search_catalog/conflicting_aliases.json",
    ] {
        assert!(
            failing.contains(&f.to_string()),
            "{f} must fail: {failing:?}"
        );
    }
    assert!(
        !failing.iter().any(|f| f.starts_with("create_order/")),
        "only the alias's fixtures fail: {failing:?}"
    );
}

#[test]
fn deleting_the_server_default_fails_the_check() {
    let pkg = copy_package();
    delete_entry(
        &pkg.path().join("contracts/migrations.toml"),
        "kind = \"default\"",
    );
    rebuild(pkg.path());
    let report = check_contracts(&lockfile(pkg.path())).unwrap();
    let failing = failing_files(&report);
    assert!(
        failing.contains(&"create_order/legacy_without_currency.json".to_string()),
        "{failing:?}"
    );
    let why = &report
        .failures
        .iter()
        .find(|f| f.file.ends_with("legacy_without_currency.json"))
        .unwrap()
        .problem;
    assert!(why.contains("currency"), "{why}");
}
