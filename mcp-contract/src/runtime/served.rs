//! Whether a surface serves a transition's compatibility branch. Once the
//! build step applies a rename (the old name kept as a deprecated alias) or
//! a server-applied default (the field optional with its default), the diff
//! no longer reports the break the record's entry acknowledges: the entry is
//! not stale, it is what keeps the published contract compatible. The check
//! asks [`served`] before calling such an entry one that "matches nothing".

use serde_json::Value;

use crate::migrations::{Entry, RenameTarget, Transition};
use crate::model::Surface;
use crate::rules::RuleId;

/// Does `surface` publish the compatibility branch of `entry`'s transition?
pub fn served(entry: &Entry, surface: &Surface) -> bool {
    let tool = entry.selector.tool();
    let input = |name: &str| surface.get(name).map(|t| &t.input_schema);
    let property = |schema: &Value, name: &str| -> Option<Value> {
        schema.get("properties")?.get(name).cloned()
    };
    match &entry.transition {
        Transition::Rename {
            target: RenameTarget::Field,
            from,
            to,
            ..
        } => input(tool).is_some_and(|s| {
            property(s, to).is_some()
                && property(s, from)
                    .is_some_and(|p| p.get("deprecated") == Some(&Value::Bool(true)))
        }),
        Transition::Default { field, value } => input(tool).is_some_and(|s| {
            let required = s
                .get("required")
                .and_then(Value::as_array)
                .is_some_and(|r| r.iter().any(|n| n == field.as_str()));
            !required && property(s, field).is_some_and(|p| p.get("default") == Some(value))
        }),
        Transition::MajorVersion { from, to, .. } => {
            surface.get(from).is_some() && surface.get(to).is_some()
        }
        Transition::Rename {
            target: RenameTarget::Tool,
            to,
            ..
        } => surface.get(to).is_some(),
        _ => false,
    }
}

/// The entries of `record` (indices) whose `default` transition `published`
/// serves: the field optional with that default.
pub fn served_defaults(
    record: &crate::migrations::MigrationRecord,
    published: &Surface,
) -> Vec<usize> {
    record
        .entries
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e.transition, Transition::Default { .. }) && served(e, published))
        .map(|(i, _)| i)
        .collect()
}

/// Rewrites the text of the changes the served `default` transitions
/// answer (`served`: [`served_defaults`] of the candidate as the lockfile
/// holds it, before the check took the record's new transitions out
/// again), so the report says what is published: the field optional with
/// its default, not "now required". The acknowledged
/// `input.required-added` and the `input.property-added` note beside it;
/// their identity (rule, pointer, subject, fingerprint) stays as matched.
pub fn describe_served_defaults(
    changes: &mut [crate::check::Gated],
    record: &crate::migrations::MigrationRecord,
    served: &[usize],
) {
    for g in changes.iter_mut() {
        let c = &mut g.change;
        let Some(subject) = c.subject.as_deref() else {
            continue;
        };
        let found = served.iter().find_map(|&i| {
            let e = record.entries.get(i)?;
            match &e.transition {
                Transition::Default { field, value }
                    if e.selector.tool() == c.tool && field == subject =>
                {
                    Some((i, field.clone(), value.clone()))
                }
                _ => None,
            }
        });
        let Some((i, field, value)) = found else {
            continue;
        };
        let field_pointer = format!(
            "/inputSchema/properties/{}",
            field.replace('~', "~0").replace('/', "~1")
        );
        if c.rule_id() == RuleId::InputRequiredAdded
            && c.pointer == "/inputSchema/required"
            && g.acknowledged_by == Some(i)
        {
            c.message = format!(
                "\"{field}\" is published optional with the default {value}: calls made without it are served with {value} (the record's default transition)"
            );
        } else if c.rule_id() == RuleId::InputPropertyAdded && c.pointer == field_pointer {
            c.message =
                format!("field \"{field}\" was added, published optional with the default {value}");
        }
    }
}
