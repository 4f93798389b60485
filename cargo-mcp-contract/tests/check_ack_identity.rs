//! An acknowledgement acknowledges exactly one change: what changed is part
//! of its identity, and an entry already in the baseline's record (a change
//! that has landed) acknowledges nothing in a later diff.

mod check_support;

use check_support::*;
use serde_json::json;

fn modes(values: &[&str]) -> serde_json::Value {
    search(json!({"mode": {"type": "string", "enum": values}}))
}

const FAST_RETIRED: &str = r#"[[acknowledge]]
tool = "search"
rule = "input.enum-narrowed"
pointer = "/inputSchema/properties/mode/enum"
values = ["fast"]
reason = "fast mode retired"
owner = "@search-team"
transition = { kind = "other" }
"#;

#[test]
fn the_printed_entry_names_the_values_and_acknowledges_only_them() {
    let r = TestRepo::new();
    r.lock(modes(&["fast", "slow", "exact"]));
    r.commit("v1");
    r.lock(modes(&["slow", "exact"]));
    let run = r.check(&["--against", "HEAD"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stdout.contains("values = [\"fast\"]"), "{run:?}");
    r.write(RECORD, FAST_RETIRED);
    let run = r.check(&["--against", "HEAD"]);
    assert_eq!(run.code, 0, "{run:?}");
    // the same entry does not accept removing another value instead
    r.lock(modes(&["fast", "exact"]));
    let run = r.check(&["--against", "HEAD"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stdout.contains("values = [\"slow\"]"), "{run:?}");
}

#[test]
fn an_old_acknowledgement_does_not_pass_a_later_break_at_the_same_place() {
    let r = TestRepo::new();
    r.lock(modes(&["fast", "slow", "exact"]));
    r.commit("v1");
    r.lock(modes(&["slow", "exact"]));
    // written the old way: where, not what
    r.write(RECORD, &FAST_RETIRED.replace("values = [\"fast\"]\n", ""));
    r.commit("retire fast");
    r.lock(modes(&["exact"]));
    let run = r.check(&["--against", "HEAD"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stdout.contains("error[input.enum-narrowed]"), "{run:?}");
    assert!(run.stdout.contains("values = [\"slow\"]"), "{run:?}");
}

#[test]
fn an_entry_that_only_says_where_still_parses_and_is_told_how_to_pin_it() {
    let r = TestRepo::new();
    r.lock(modes(&["fast", "slow"]));
    r.commit("v1");
    r.lock(modes(&["slow"]));
    r.write(RECORD, &FAST_RETIRED.replace("values = [\"fast\"]\n", ""));
    let run = r.check(&["--against", "HEAD"]);
    assert_eq!(run.code, 0, "{run:?}");
    let all = format!("{}{}", run.stdout, run.stderr);
    assert!(
        all.contains("says where the change is but not what it is"),
        "{run:?}"
    );
    assert!(all.contains("pin it: add values = [\"fast\"]"), "{run:?}");
    let strict = r.check(&["--against", "HEAD", "--strict"]);
    assert_eq!(strict.code, 1, "{strict:?}");
}

#[test]
fn a_type_change_entry_names_both_types() {
    let r = TestRepo::new();
    r.lock(search(json!({"limit": {"type": "number"}})));
    r.commit("v1");
    r.lock(search(json!({"limit": {"type": "integer"}})));
    let run = r.check(&["--against", "HEAD"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stdout.contains("from = \"number\""), "{run:?}");
    assert!(run.stdout.contains("to = \"integer\""), "{run:?}");
}
