//! Whether a surface serves a transition's compatibility branch. Once the
//! build step applies a rename (the old name kept as a deprecated alias) or
//! a server-applied default (the field optional with its default), the diff
//! no longer reports the break the record's entry acknowledges: the entry is
//! not stale, it is what keeps the published contract compatible. The check
//! asks [`served`] before calling such an entry one that "matches nothing".

use serde_json::Value;

use crate::migrations::{Entry, RenameTarget, Transition};
use crate::model::Surface;

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
