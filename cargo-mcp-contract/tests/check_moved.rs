//! A lockfile keeps its baseline when it moves. A pull request that `git
//! mv`s a workspace member (same package name) and narrows two inputs in the
//! same commit (`title` `maxLength` 64 → 8, `priority` `maximum` none → 5)
//! is 2 breaking changes, exit 1, however the lockfile is selected:
//! `--workspace`, `-p`, `--lockfile` (git's rename detection) and `--staged`.
//! A moved package with no change passes and the report names the baseline
//! path it used; a moved `contracts/` directory is found by rename
//! detection; reserved names and `history` follow the move, committed or
//! not. In real git repositories; `cargo metadata` finds the packages (no
//! build).

mod check_support;

use check_support::*;
use serde_json::{json, Value};

const OLD: &str = "crates/notes/contracts/mcp-contract.lock";
const NEW: &str = "packages/notes/contracts/mcp-contract.lock";

/// The tools of `notes`: `title`'s `maxLength`, `priority`'s `maximum`,
/// and `archive_note` when given.
fn notes(max_length: u32, maximum: Option<u32>, archive: Option<&str>) -> Value {
    let mut priority = json!({"type": "integer", "description": "1 is the most urgent."});
    if let Some(m) = maximum {
        priority["maximum"] = json!(m);
    }
    let mut tools = json!([
        {
            "name": "save_note",
            "description": "Save a note.",
            "inputSchema": {"type": "object", "properties": {
                "title": {"type": "string", "maxLength": max_length},
                "body": {"type": "string"},
                "priority": priority,
                "tags": {"type": "array", "items": {"type": "string"}}
            }, "required": ["title"]}
        },
        {
            "name": "list_notes",
            "description": "List the notes, newest first.",
            "inputSchema": {"type": "object", "properties": {
                "limit": {"type": "integer", "minimum": 1},
                "tag": {"type": "string"}
            }}
        }
    ]);
    if let Some(id_type) = archive {
        tools.as_array_mut().unwrap().push(json!({
            "name": "archive_note",
            "description": "Archive a note.",
            "inputSchema": {"type": "object", "properties": {"id": {"type": id_type}}, "required": ["id"]}
        }));
    }
    tools
}

fn workspace(member: &str) -> String {
    format!("[workspace]\nmembers = [\"{member}\"]\nresolver = \"2\"\n")
}

const MANIFEST: &str =
    "[package]\nname = \"notes\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n";

/// On the default branch: `notes` in crates/notes published
/// `archive_note`, then removed it (acknowledged); returns that commit.
fn published() -> (TestRepo, String) {
    let r = TestRepo::new();
    r.write("Cargo.toml", &workspace("crates/notes"));
    r.write("crates/notes/Cargo.toml", MANIFEST);
    r.write("crates/notes/src/lib.rs", "");
    r.lock_at(OLD, notes(64, None, Some("string")));
    r.commit("notes with archive_note");
    r.lock_at(OLD, notes(64, None, None));
    r.write(
        "crates/notes/contracts/migrations.toml",
        "[[acknowledge]]\ntool = \"archive_note\"\nrule = \"tool.removed\"\npointer = \"\"\nsubject = \"archive_note\"\nreason = \"unused\"\nowner = \"@notes\"\ntransition = { kind = \"removal\" }\n",
    );
    let main = r.commit("remove archive_note");
    (r, main)
}

/// `git mv crates/notes packages/notes` on a branch, the workspace member
/// path updated, and the lockfile as `tools` (nothing committed).
fn moved(r: &TestRepo, tools: Value) {
    r.git(&["checkout", "-q", "-b", "feature"]);
    std::fs::create_dir_all(r.abs("packages")).unwrap();
    r.git(&["mv", "crates/notes", "packages/notes"]);
    r.write("Cargo.toml", &workspace("packages/notes"));
    r.lock_at(NEW, tools);
    r.git(&["add", "-A"]);
}

fn json_of(run: &Run) -> Value {
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {run:?}"))
}

/// The one check of a JSON run: exit 1, the two narrowings failing, the
/// baseline at the old path.
fn two_breaking(run: &Run, how: &str) {
    assert_eq!(run.code, 1, "{how}: {run:?}");
    let v = json_of(run);
    let c = &v["checks"][0];
    assert_eq!(c["new_surface"], false, "{how}: {v}");
    assert_eq!(c["baseline"]["lockfile"], OLD, "{how}: {v}");
    assert_eq!(
        (
            c["summary"]["breaking"].as_u64(),
            c["summary"]["failing"].as_u64()
        ),
        (Some(2), Some(2)),
        "{how}: {v}"
    );
    let mut at: Vec<&str> = c["changes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["severity"] == "breaking")
        .map(|x| x["pointer"].as_str().unwrap())
        .collect();
    at.sort_unstable();
    assert_eq!(
        at,
        [
            "/inputSchema/properties/priority/maximum",
            "/inputSchema/properties/title/maxLength"
        ],
        "{how}: {v}"
    );
}

#[test]
fn a_moved_package_keeps_its_baseline_in_every_selection() {
    let (r, main) = published();
    moved(&r, notes(8, Some(5), None));
    // --staged: the move and the narrowings only staged
    two_breaking(
        &r.check(&["--staged", "--against", &main, "--format", "json"]),
        "--staged",
    );
    r.commit("move notes to packages/, narrow title and priority");
    for selection in [
        vec!["--workspace"],
        vec!["-p", "notes"],
        vec!["--lockfile", NEW],
    ] {
        let mut args = selection.clone();
        args.extend(["--against", main.as_str(), "--format", "json"]);
        two_breaking(&r.check(&args), &selection.join(" "));
    }
    // the human report says where the baseline was, and how it was found
    let run = r.check(&["--workspace", "--against", &main]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout.contains(&format!("--against {main}; the lockfile was at {OLD} there (package `notes` moved from crates/notes))")),
        "{run:?}"
    );
    assert!(!run.stdout.contains("new surface"), "{run:?}");
    let run = r.check(&["--lockfile", NEW, "--against", &main]);
    assert!(
        run.stdout.contains(&format!(
            "; the lockfile was at {OLD} there (git: renamed, "
        )),
        "{run:?}"
    );
}

#[test]
fn a_moved_package_with_no_change_passes_and_names_its_baseline_path() {
    let (r, main) = published();
    moved(&r, notes(64, None, None));
    r.commit("move notes to packages/");
    let run = r.check(&["--workspace", "--against", &main]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout.contains(&format!(
            "checking {NEW} against {} (--against {main}; the lockfile was at {OLD} there (package `notes` moved from crates/notes))",
            &main[..7]
        )),
        "{run:?}"
    );
    assert!(!run.stdout.contains("new surface"), "{run:?}");
    // unchanged, git sees an exact rename
    let run = r.check(&["--lockfile", NEW, "--against", &main, "--format", "json"]);
    assert_eq!(run.code, 0, "{run:?}");
    let v = json_of(&run);
    assert_eq!(v["checks"][0]["baseline"]["lockfile"], OLD, "{v}");
    assert!(
        v["checks"][0]["baseline"]["description"]
            .as_str()
            .unwrap()
            .ends_with(&format!(
                "the lockfile was at {OLD} there (git: renamed, 100% similar)"
            )),
        "{v}"
    );
    // the old path is gone: naming it is the deleted-lockfile error
    let old = r.check(&["--lockfile", OLD, "--against", &main]);
    assert_eq!(old.code, 2, "{old:?}");
    assert!(old.stderr.contains("the lockfile was deleted"), "{old:?}");
}

/// A lockfile outside any cargo package whose `contracts/` directory
/// moved: found by git's rename detection, its record with it.
#[test]
fn a_moved_contracts_directory_keeps_its_baseline() {
    let r = TestRepo::new();
    r.lock(notes(64, None, None));
    let main = r.commit("publish notes");
    r.git(&["mv", "contracts", "api"]);
    r.lock_at("api/mcp-contract.lock", notes(8, Some(5), None));
    r.commit("contracts/ is api/ now, narrowed");
    let run = r.check(&[
        "--lockfile",
        "api/mcp-contract.lock",
        "--against",
        &main,
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 1, "{run:?}");
    let v = json_of(&run);
    assert_eq!(v["checks"][0]["baseline"]["lockfile"], LOCK, "{v}");
    assert_eq!(v["checks"][0]["summary"]["failing"], 2, "{v}");
    // acknowledged in the moved record, it passes
    r.write(
        "api/migrations.toml",
        "[[acknowledge]]\ntool = \"save_note\"\nrule = \"input.length-narrowed\"\npointer = \"/inputSchema/properties/title/maxLength\"\nreason = \"short titles\"\nowner = \"@notes\"\ntransition = { kind = \"other\" }\n",
    );
    let run = r.check(&[
        "--lockfile",
        "api/mcp-contract.lock",
        "--against",
        &main,
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 1, "{run:?}");
    let v = json_of(&run);
    assert_eq!(
        (
            v["checks"][0]["summary"]["acknowledged"].as_u64(),
            v["checks"][0]["summary"]["failing"].as_u64()
        ),
        (Some(1), Some(1)),
        "{v}"
    );
}

/// The names the package published before the move stay reserved after
/// it: in the pull request that moves it, and once the move is the
/// baseline (the history walk follows the commit that moved it), and
/// `history` shows the revisions from before the move.
#[test]
fn reserved_names_and_history_follow_the_move() {
    let (r, main) = published();
    moved(&r, notes(64, None, Some("integer")));
    let run = r.check(&["--workspace", "--against", &main]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout.contains("error[tool.reserved-name-reused]"),
        "{run:?}"
    );
    // `history` of the moved lockfile, the move not committed yet
    let history = r.run(&["history", "--lockfile", NEW, "--format", "json"]);
    assert_eq!(history.code, 0, "{history:?}");
    let h = json_of(&history);
    assert!(h.to_string().contains("archive_note"), "{h}");

    // The move lands; a later change re-adds archive_note with another type.
    r.lock_at(NEW, notes(64, None, None));
    let moved_at = r.commit("move notes to packages/");
    r.git(&["checkout", "-q", "-b", "again"]);
    r.lock_at(NEW, notes(64, None, Some("integer")));
    let run = r.check(&["--workspace", "--against", &moved_at]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout.contains("error[tool.reserved-name-reused]"),
        "{run:?}"
    );
    assert!(
        run.stdout
            .contains("tool `archive_note` was published before"),
        "{run:?}"
    );
    let history = r.run(&["history", "--lockfile", NEW, "--format", "json"]);
    assert_eq!(history.code, 0, "{history:?}");
    let h = json_of(&history);
    assert!(h.to_string().contains("archive_note"), "{h}");
}
