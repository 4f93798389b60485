//! What a renamed field's alias accepts, compared with the old field.
//!
//! A rename entry in the migration record acknowledges that a field's name
//! moved, nothing about its schema. The build step serves the old name as a
//! deprecated alias carrying the *new* field's schema, and the check takes
//! that alias out again before the diff (so the entry matches the change as
//! the check printed it, `input.property-removed`). Taken out, the alias
//! would also hide what it no longer accepts: `id: string` renamed to
//! `order_id: integer` leaves `{"id": "A-1001"}` rejected. So the alias is
//! compared with the old field on its own: the old field's tool at the
//! baseline against the candidate tool with the alias put back, its
//! `description` and `deprecated` as the old field had them (the build's
//! notes, not a change of what it accepts) and `required` as before. Every
//! change that comparison finds beyond the ones the check already reports
//! is a change of its own at the alias, needing its own entry.

use serde_json::Value;

use crate::diff::{diff_surfaces, Change};
use crate::model::Surface;

/// An alias the build step added for a rename entry, taken out of the
/// candidate before the diff.
#[derive(Debug, Clone, PartialEq)]
pub struct TakenAlias {
    pub tool: String,
    /// The old name (the alias).
    pub from: String,
    /// The new name.
    pub to: String,
    /// The alias's schema as published.
    pub schema: Value,
}

/// The changes at the aliases, and the surface they were found on (the
/// candidate's tools with their aliases put back, for the witness search).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AliasFindings {
    pub changes: Vec<Change>,
    pub surface: Surface,
}

/// Compares each alias with the field it renames; `known` holds the
/// changes the check already reports (found again here, they are left out).
pub fn changes(
    baseline: Option<&Surface>,
    candidate: &Surface,
    aliases: &[TakenAlias],
    known: &[Change],
) -> AliasFindings {
    let mut findings = AliasFindings::default();
    let Some(baseline) = baseline else {
        return findings;
    };
    let mut old = Surface::new();
    for alias in aliases {
        let (Some(before), Some(now)) = (baseline.get(&alias.tool), candidate.get(&alias.tool))
        else {
            continue;
        };
        let Some(old_field) = property(&before.input_schema, &alias.from) else {
            continue;
        };
        let tool = findings
            .surface
            .tools
            .entry(alias.tool.clone())
            .or_insert_with(|| now.clone());
        put_back(
            &mut tool.input_schema,
            alias,
            old_field,
            required(&before.input_schema, &alias.from),
        );
        old.insert(before.clone());
    }
    if findings.surface.tools.is_empty() {
        return findings;
    }
    let known: Vec<String> = known.iter().map(Change::fingerprint).collect();
    findings.changes = diff_surfaces(&old, &findings.surface)
        .changes
        .into_iter()
        .filter(|c| !known.contains(&c.fingerprint()))
        .map(|mut c| {
            if let Some(alias) = aliases.iter().find(|a| a.tool == c.tool) {
                let note = format!(
                    "the rename `{}` -> `{}` acknowledges that the name moved, not this change to what `{}` accepts: give the alias the old field's schema, or acknowledge this change with its own entry",
                    alias.from, alias.to, alias.from
                );
                c.hint = Some(match c.hint.take() {
                    Some(h) => format!("{note}; {h}"),
                    None => note,
                });
            }
            c
        })
        .collect();
    findings
}

fn property<'a>(schema: &'a Value, name: &str) -> Option<&'a Value> {
    schema.get("properties")?.get(name)
}

fn required(schema: &Value, name: &str) -> bool {
    schema
        .get("required")
        .and_then(Value::as_array)
        .is_some_and(|r| r.iter().any(|n| n == name))
}

/// The alias back in `schema`, annotated as the old field was, required as it was.
fn put_back(schema: &mut Value, alias: &TakenAlias, old_field: &Value, was_required: bool) {
    let mut field = alias.schema.clone();
    if let Value::Object(m) = &mut field {
        for key in ["description", "deprecated"] {
            match old_field.get(key) {
                Some(v) => m.insert(key.to_string(), v.clone()),
                None => m.remove(key),
            };
        }
    }
    let Some(root) = schema.as_object_mut() else {
        return;
    };
    if let Some(Value::Object(props)) = root.get_mut("properties") {
        props.insert(alias.from.clone(), field);
    }
    if was_required {
        let req = root
            .entry("required")
            .or_insert_with(|| Value::Array(vec![]));
        if let Value::Array(names) = req {
            if !names.iter().any(|n| n == alias.from.as_str()) {
                names.push(Value::String(alias.from.clone()));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::surface_from_value;
    use serde_json::json;

    fn surface(input: Value) -> Surface {
        surface_from_value(&json!([{"name": "get_order", "inputSchema": input}]), "t").unwrap()
    }

    fn order_alias(schema: Value) -> TakenAlias {
        TakenAlias {
            tool: "get_order".into(),
            from: "id".into(),
            to: "order_id".into(),
            schema,
        }
    }

    #[test]
    fn an_alias_narrower_than_the_old_field_is_a_change_at_the_alias() {
        let before = surface(json!({"type": "object",
            "properties": {"id": {"type": "string"}}, "required": ["id"]}));
        // The candidate as the check sees it: the alias taken out.
        let now = surface(json!({"type": "object",
            "properties": {"order_id": {"type": "integer"}}}));
        let alias = order_alias(json!({"type": "integer", "deprecated": true,
            "description": "Deprecated: renamed to `order_id`."}));
        let found = changes(Some(&before), &now, &[alias], &[]);
        let rules: Vec<(&str, &str)> = found
            .changes
            .iter()
            .map(|c| (c.rule, c.pointer.as_str()))
            .collect();
        assert!(
            rules.contains(&("input.type-narrowed", "/inputSchema/properties/id/type")),
            "{rules:?}"
        );
        assert!(found.changes.iter().all(|c| c.hint.is_some()));
    }

    #[test]
    fn an_alias_with_the_old_fields_schema_adds_nothing() {
        let before = surface(json!({"type": "object",
            "properties": {"id": {"type": "string", "description": "The order."}}}));
        let now = surface(json!({"type": "object",
            "properties": {"order_id": {"type": "string"}}}));
        let alias = order_alias(json!({"type": "string", "deprecated": true,
            "description": "Deprecated: renamed to `order_id`."}));
        let known = diff_surfaces(&before, &now).changes;
        let found = changes(Some(&before), &now, &[alias], &known);
        assert!(found.changes.is_empty(), "{:?}", found.changes);
    }
}
