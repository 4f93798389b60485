//! Witnesses become contract fixtures (`check --write-fixtures`).
//!
//! Each input witness is a call the change put at risk; written as a
//! fixture in `contracts/fixtures/<tool>/`, `replay` and the runtime layer's
//! fixture check test exactly that call from then on. The fixture expects
//! what the migration record promises for the change: success with the
//! normalized arguments for an aliased rename or a server default,
//! `RESERVED_FIELD` for a removed field, success for an old major version
//! still served, otherwise a rejection (a tool error). A call that is only
//! silently ignored and that the record says nothing about gets no fixture
//! (no outcome to promise). Existing files are never overwritten; writes
//! are atomic. The witness's filler values (empty strings and lists) are
//! listed for review under `x-review` ([`super::placeholders`]).

use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

use super::{Witness, WitnessKind};
use crate::check::Gated;
use crate::error::InputError;
use crate::migrations::{MigrationRecord, RenameTarget, Transition};
use crate::rules::RuleId;

/// One fixture the pass produced.
#[derive(Debug, Clone, PartialEq)]
pub struct WrittenFixture {
    pub path: PathBuf,
    /// False when a file of that name already existed (left untouched).
    pub written: bool,
}

/// The fixture (JSON) for one gated change, `None` when it has no input
/// witness or the record promises nothing for it.
pub fn fixture_for(g: &Gated, record: &MigrationRecord) -> Option<Value> {
    let c = &g.change;
    let w: &Witness = c.witness.as_ref()?;
    if !c.rule.starts_with("input.") {
        return None;
    }
    let args = w.value.as_object()?.clone();
    // a witness of a removed field must send that field, or it proves another change
    if c.rule_id() == RuleId::InputPropertyRemoved
        && c.pointer.matches("/properties/").count() == 1
        && !c.subject.as_ref().is_some_and(|f| args.contains_key(f))
    {
        return None;
    }
    let transition = g
        .acknowledged_by
        .and_then(|i| record.entries.get(i))
        .map(|e| &e.transition);
    let mut normalized: Option<Map<String, Value>> = None;
    let expect = match (transition, w.kind) {
        (
            Some(Transition::Rename {
                target: RenameTarget::Field,
                from,
                to,
                ..
            }),
            _,
        ) => {
            let mut n = args.clone();
            if let Some(v) = n.remove(from) {
                n.insert(to.clone(), v);
            }
            normalized = Some(n);
            json!({"outcome": "success"})
        }
        (Some(Transition::Default { field, value }), _) => {
            let mut n = args.clone();
            n.entry(field.clone()).or_insert_with(|| value.clone());
            normalized = Some(n);
            json!({"outcome": "success"})
        }
        (Some(Transition::Removal { .. }), WitnessKind::Rejected | WitnessKind::Ignored)
            if c.rule_id() == RuleId::InputPropertyRemoved =>
        {
            json!({"outcome": "tool_error", "error_code": "RESERVED_FIELD"})
        }
        (Some(Transition::MajorVersion { .. }), _) => json!({"outcome": "success"}),
        (_, WitnessKind::Rejected) => json!({"outcome": "tool_error"}),
        (_, WitnessKind::Reinterpreted) => json!({"outcome": "success"}),
        _ => return None,
    };
    let subject = super::placeholders::argument_path(&c.pointer, c.subject.as_deref());
    let placeholders = super::placeholders::placeholders(&args, subject.as_deref());
    let mut f = json!({
        "description": format!(
            "witness of {} at {}{}: {}",
            c.rule,
            c.pointer,
            c.subject.as_deref().map(|s| format!(" ({s})")).unwrap_or_default(),
            w.sentence()
        ),
        "safe": false,
        "arguments": Value::Object(args),
        "expect": expect,
        "x-witness": {"rule": c.rule, "fingerprint": c.fingerprint(), "kind": w.kind.as_str()},
    });
    if let Some(n) = normalized {
        f[crate::runtime::fixture_check::NORMALIZED_KEY] = Value::Object(n);
    }
    if !placeholders.is_empty() {
        f[crate::fixtures::REVIEW_KEY] = super::placeholders::review_note(&placeholders);
    }
    Some(f)
}

/// A stable, readable file name: `witness-<rule>-<hash of the fingerprint>.json`.
fn file_name(g: &Gated) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(g.change.fingerprint().as_bytes());
    let hex: String = digest.iter().take(4).map(|b| format!("{b:02x}")).collect();
    let rule = g.change.rule.replace('.', "-");
    format!("witness-{rule}-{hex}.json")
}

/// Is `name` usable as one directory name (the fixture layout's tool directory)?
fn safe_dir_name(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && name != ".."
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// Writes the fixtures of `changes` under `dir` (`contracts/fixtures`).
/// Every path goes through the confinement reads go through
/// ([`crate::confine::fixture_path`]: no level of the layout may be a
/// symbolic link), all of them before the first write, so a refused link
/// leaves nothing half-written.
pub fn write_fixtures(
    dir: &Path,
    changes: &[Gated],
    record: &MigrationRecord,
) -> Result<Vec<WrittenFixture>, InputError> {
    let mut planned = vec![];
    for g in changes {
        if !(g.fails || g.acknowledged_by.is_some()) {
            continue;
        }
        let Some(f) = fixture_for(g, record) else {
            continue;
        };
        if !safe_dir_name(&g.change.tool) {
            continue;
        }
        let path = crate::confine::fixture_path(dir, &[g.change.tool.as_str(), &file_name(g)])?;
        planned.push((path, f));
    }
    let mut out = vec![];
    for (path, f) in planned {
        if path.exists() {
            out.push(WrittenFixture {
                path,
                written: false,
            });
            continue;
        }
        let mut text = serde_json::to_string_pretty(&f).unwrap_or_default();
        text.push('\n');
        crate::lockfile::write_if_changed(&path, &text).map_err(|e| {
            InputError::new(
                path.display().to_string(),
                format!("cannot write the fixture: {e}"),
            )
            .fix("check the directory's permissions, or run without --write-fixtures")
        })?;
        out.push(WrittenFixture {
            path,
            written: true,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::Change;

    fn gated(
        rule: &'static str,
        pointer: &str,
        subject: &str,
        args: Value,
        kind: WitnessKind,
    ) -> Gated {
        let rule = crate::rules::RuleId::parse(rule).expect("a registered rule");
        let mut change = Change::new(rule, "t", pointer.into(), "m".into()).with_subject(subject);
        change.witness = Some(Witness {
            kind,
            value: args,
            detail: "d".into(),
        });
        Gated {
            change,
            acknowledged_by: Some(0),
            fails: false,
            migration_entry: None,
        }
    }

    fn record(transition: &str, rule: &str, pointer: &str, subject: &str) -> MigrationRecord {
        let text = format!(
            "version = 1\n[[acknowledge]]\ntool = \"t\"\nrule = \"{rule}\"\npointer = \"{pointer}\"\nsubject = \"{subject}\"\nreason = \"r\"\nowner = \"o\"\ntransition = {transition}\n"
        );
        let (r, problems) = crate::migrations::parse(&text, "m.toml");
        assert!(problems.is_empty(), "{problems:?}");
        r
    }

    #[cfg(unix)]
    #[test]
    fn writes_go_through_the_confinement_reads_go_through() {
        let g = gated(
            "input.type-narrowed",
            "/inputSchema/properties/n/type",
            "n",
            json!({"n": 0.5}),
            WitnessKind::Rejected,
        );
        let tmp = tempfile::tempdir().unwrap();
        let outside = tmp.path().join("outside");
        std::fs::create_dir_all(&outside).unwrap();
        let contracts = tmp.path().join("repo/contracts");
        std::fs::create_dir_all(&contracts).unwrap();
        // a committed `contracts/fixtures -> ../../outside`
        std::os::unix::fs::symlink("../../outside", contracts.join("fixtures")).unwrap();
        let e = write_fixtures(
            &contracts.join("fixtures"),
            std::slice::from_ref(&g),
            &MigrationRecord::default(),
        )
        .unwrap_err();
        assert!(e.message.contains("symbolic link"), "{e}");
        assert_eq!(
            std::fs::read_dir(&outside).unwrap().count(),
            0,
            "written through the link"
        );

        // a tool directory linked out: refused before anything is written
        std::fs::remove_file(contracts.join("fixtures")).unwrap();
        std::fs::create_dir_all(contracts.join("fixtures")).unwrap();
        std::os::unix::fs::symlink(&outside, contracts.join("fixtures/t")).unwrap();
        let e = write_fixtures(
            &contracts.join("fixtures"),
            &[g],
            &MigrationRecord::default(),
        )
        .unwrap_err();
        assert!(
            e.message.contains("fixture directory is a symbolic link"),
            "{e}"
        );
        assert_eq!(
            std::fs::read_dir(&outside).unwrap().count(),
            0,
            "written through the link"
        );
    }

    #[test]
    fn a_rename_expects_normalized_success() {
        let g = gated(
            "input.property-removed",
            "/inputSchema/properties/q",
            "q",
            json!({"q": "a"}),
            WitnessKind::Ignored,
        );
        let r = record(
            "{ kind = \"rename\", from = \"q\", to = \"query\" }",
            "input.property-removed",
            "/inputSchema/properties/q",
            "q",
        );
        let f = fixture_for(&g, &r).unwrap();
        assert_eq!(f["expect"]["outcome"], "success");
        assert_eq!(f["x-normalized"], json!({"query": "a"}));
    }

    #[test]
    fn filler_values_are_marked_for_review_but_not_the_one_the_change_is_about() {
        let g = gated(
            "input.property-removed",
            "/inputSchema/properties/note",
            "note",
            json!({"note": "", "lines": [], "address": {"city": "", "zip": "1"}}),
            WitnessKind::Ignored,
        );
        let r = record(
            "{ kind = \"removal\" }",
            "input.property-removed",
            "/inputSchema/properties/note",
            "note",
        );
        let f = fixture_for(&g, &r).unwrap();
        assert_eq!(
            f["x-review"]["placeholders"],
            json!(["/address/city", "/lines"]),
            "{f}"
        );
        assert!(f["x-review"]["fix"]
            .as_str()
            .unwrap()
            .contains("\"safe\": true"));
        // a witness with nothing to fill needs no review
        let g = gated(
            "input.length-narrowed",
            "/inputSchema/properties/q/minLength",
            "q",
            json!({"q": ""}),
            WitnessKind::Rejected,
        );
        let f = fixture_for(&g, &MigrationRecord::default()).unwrap();
        assert!(f.get("x-review").is_none(), "{f}");
    }

    #[test]
    fn a_default_expects_it_applied() {
        let g = gated(
            "input.required-added",
            "/inputSchema/required",
            "currency",
            json!({}),
            WitnessKind::Rejected,
        );
        let r = record(
            "{ kind = \"default\", field = \"currency\", value = \"EUR\" }",
            "input.required-added",
            "/inputSchema/required",
            "currency",
        );
        let f = fixture_for(&g, &r).unwrap();
        assert_eq!(f["expect"]["outcome"], "success");
        assert_eq!(f["x-normalized"], json!({"currency": "EUR"}));
    }

    #[test]
    fn unacknowledged_rejections_expect_a_tool_error_and_ignored_calls_get_none() {
        let mut g = gated(
            "input.type-narrowed",
            "/inputSchema/properties/n/type",
            "n",
            json!({"n": 0.5}),
            WitnessKind::Rejected,
        );
        g.acknowledged_by = None;
        let f = fixture_for(&g, &MigrationRecord::default()).unwrap();
        assert_eq!(f["expect"], json!({"outcome": "tool_error"}));
        let mut g = gated(
            "input.property-removed",
            "/inputSchema/properties/q",
            "q",
            json!({"q": "a"}),
            WitnessKind::Ignored,
        );
        g.acknowledged_by = None;
        assert!(fixture_for(&g, &MigrationRecord::default()).is_none());
    }
}
