//! The inverse of [`crate::compat::apply`] for the entries a change adds to
//! the migration record: the candidate as it was before the build applied
//! their transitions.
//!
//! `check` prints an entry for each unacknowledged change; pasted and
//! rebuilt, the build applies its transition (a renamed field's old name
//! comes back as a deprecated alias, `required` becomes an `anyOf`, a new
//! required field gets a published default), which moves the very changes
//! the entries name. Matching the record against the candidate with the
//! new entries' transitions taken out again keeps every printed entry valid
//! after the rebuild that applies it (a required field's rename leaves the
//! new name optional in that view: the rename entry covers the change, see
//! [`remove_alias`]). Transitions already in the baseline's
//! record were applied on both sides and are left alone; a schema that does
//! not carry exactly what the build would have added is left alone too.
//!
//! The aliases taken out are handed back: a rename acknowledges that the
//! name moved, not what the alias accepts, and the check compares each
//! alias with the old field ([`mcp_contract::check::alias`]).

use mcp_contract::check::alias::TakenAlias;
use mcp_contract::migrations::{Entry, MigrationRecord, RenameTarget, Transition};
use mcp_contract::Surface;
use serde_json::{json, Value};

/// The entries of `record` that `baseline` (the record at the baseline)
/// lacks: an entry only edited since (its removal condition, reason or
/// owner) was applied on both sides ([`Entry::same_acknowledgement`]).
pub fn new_entries<'r>(
    record: &'r MigrationRecord,
    baseline: Option<&MigrationRecord>,
) -> Vec<&'r Entry> {
    record
        .entries
        .iter()
        .filter(|e| !baseline.is_some_and(|b| b.entries.iter().any(|o| o.same_acknowledgement(e))))
        .collect()
}

/// Takes the transitions of `entries` out of `surface` (see the module
/// docs); returns the aliases it took out.
pub fn unapply(surface: &mut Surface, entries: &[&Entry]) -> Vec<TakenAlias> {
    let mut taken = vec![];
    for entry in entries {
        let Some(tool) = surface.tools.get_mut(entry.selector.tool()) else {
            continue;
        };
        match &entry.transition {
            Transition::Rename {
                target: RenameTarget::Field,
                from,
                to,
                ..
            } => {
                if let Some(schema) = remove_alias(&mut tool.input_schema, from, to) {
                    taken.push(TakenAlias {
                        tool: tool.name.clone(),
                        from: from.clone(),
                        to: to.clone(),
                        schema,
                    });
                }
            }
            Transition::Default { field, value } => {
                remove_default(&mut tool.input_schema, field, value)
            }
            _ => {}
        }
    }
    taken
}

/// Takes the alias `from` of `to` out of `schema`; returns its schema.
fn remove_alias(schema: &mut Value, from: &str, to: &str) -> Option<Value> {
    let is_alias = schema
        .pointer(&format!("/properties/{}", escape(from)))
        .is_some_and(|p| p.get("deprecated") == Some(&Value::Bool(true)));
    if !is_alias {
        return None;
    }
    let alias = schema
        .get_mut("properties")
        .and_then(Value::as_object_mut)
        .and_then(|props| props.remove(from));
    // The `anyOf` of `required` goes; the new name stays optional: with the
    // alias a call may send either name, so the rename entry (its
    // `input.property-removed`) is all the change needs, and a required
    // field added under the new name is not a break of its own.
    let either = json!([{ "required": [to] }, { "required": [from] }]);
    let Some(m) = schema.as_object_mut() else {
        return alias;
    };
    if m.get("anyOf") == Some(&either) {
        m.remove("anyOf");
    } else if let Some(Value::Array(all)) = m.get_mut("allOf") {
        let wrapped = json!({ "anyOf": either });
        if let Some(i) = all.iter().position(|v| *v == wrapped) {
            all.remove(i);
        }
        if all.is_empty() {
            m.remove("allOf");
        }
    }
    alias
}

fn remove_default(schema: &mut Value, field: &str, value: &Value) {
    let Some(m) = schema.as_object_mut() else {
        return;
    };
    let Some(prop) = m
        .get_mut("properties")
        .and_then(|p| p.get_mut(field))
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    if prop.get("default") != Some(value) {
        return;
    }
    prop.remove("default");
    add_required(m, field);
}

fn add_required(m: &mut serde_json::Map<String, Value>, field: &str) {
    let req = m.entry("required").or_insert_with(|| json!([]));
    if let Some(r) = req.as_array_mut() {
        if !r.iter().any(|n| n == field) {
            r.push(Value::String(field.to_string()));
            r.sort_by(|a, b| a.as_str().cmp(&b.as_str()));
        }
    }
}

fn escape(s: &str) -> String {
    s.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compat::{add_alias, add_default};

    #[test]
    fn takes_out_exactly_what_the_build_added() {
        let derived = json!({
            "type": "object",
            "properties": {"num_days": {"type": "integer"}, "region": {"type": "string"}},
            "required": ["num_days", "region"]
        });
        let mut published = derived.clone();
        add_default(&mut published, "region", &json!("eu")).unwrap();
        assert_ne!(published, derived);
        remove_default(&mut published, "region", &json!("eu"));
        assert_eq!(published, derived);
        // A required field renamed: the old name and the `anyOf` go, the
        // new name stays optional (a call may still send the old one).
        add_alias(&mut published, "days", "num_days", None, None).unwrap();
        remove_alias(&mut published, "days", "num_days");
        assert_eq!(
            published,
            json!({
                "type": "object",
                "properties": {"num_days": {"type": "integer"}, "region": {"type": "string"}},
                "required": ["region"]
            })
        );
    }

    #[test]
    fn an_entry_only_edited_since_the_baseline_is_not_new() {
        let entry = |transition: &str, reason: &str| {
            format!("[[acknowledge]]\ntool = \"t\"\nrule = \"input.property-removed\"\npointer = \"/inputSchema/properties/a\"\nsubject = \"a\"\nreason = \"{reason}\"\nowner = \"@o\"\ntransition = {transition}\n")
        };
        let parse = |text: &str| {
            let (r, problems) = mcp_contract::migrations::parse(text, "m.toml");
            assert!(problems.is_empty(), "{problems:?}");
            r
        };
        let base = parse(&entry(r#"{ kind = "rename", from = "a", to = "b" }"#, "r"));
        let new = |transition: &str, reason: &str| {
            let record = parse(&entry(transition, reason));
            new_entries(&record, Some(&base)).len()
        };
        // a removal condition, an `until`, a reason: the same decision
        let edited = r#"{ kind = "rename", from = "a", to = "b", until = 2027-01-01, removal = { quiet_for = "30d" } }"#;
        assert_eq!(new(edited, "another reason"), 0);
        // another target, or another kind: a new decision
        assert_eq!(new(r#"{ kind = "rename", from = "a", to = "c" }"#, "r"), 1);
        assert_eq!(new(r#"{ kind = "removal" }"#, "r"), 1);
    }

    #[test]
    fn a_schema_the_build_did_not_shape_is_left_alone() {
        let schema = json!({
            "type": "object",
            "properties": {"days": {"type": "integer"}, "region": {"type": "string", "default": "us"}}
        });
        let mut same = schema.clone();
        remove_alias(&mut same, "days", "num_days");
        remove_default(&mut same, "region", &json!("eu"));
        assert_eq!(same, schema);
    }
}
