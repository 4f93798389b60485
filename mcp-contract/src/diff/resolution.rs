//! Keywords that decide how the rest of a schema is read rather than what
//! it accepts: `$schema` (the dialect) and `$id` (the base against which an
//! embedded resource's references resolve). `$anchor`, `$dynamicAnchor`
//! and `$dynamicRef`/`$recursiveRef` need nothing here: references through
//! them are followed and their targets compared.
//!
//! Each side is read in its own dialect before it is compared
//! ([`crate::schema::dialect`]), so a switch of `$schema` is judged by
//! what its keywords then mean, at their places; the switch itself is
//! reported as behavioral (a client's validator reads the new dialect).
//! A dialect the engine does not know is reported as breaking: the engine
//! cannot read it, so it says so. References written against an embedded
//! resource's `$id` were made pointers when the document was read
//! ([`crate::schema::bases`]), so `$id` itself is an annotation.

use serde_json::Value;

use super::label;
use super::rule::SchemaRule;
use super::schema::{Cx, Direction, Effect};
use super::Change;
use crate::rules;
use crate::schema::dialect::Dialect;
use crate::schema::shape::Shape;

/// The finding for a document whose dialect (`$schema` at its root) changed.
pub(crate) fn dialect_switch(
    old: &Dialect,
    new: &Dialect,
    dir: Direction,
    tool: &str,
    prefix: &str,
) -> Option<Change> {
    if old == new {
        return None;
    }
    let place = label::describe(prefix, dir);
    let unknown = matches!(old, Dialect::Unknown(_)) || matches!(new, Dialect::Unknown(_));
    let (kind, what) = if unknown {
        (SchemaRule::ResolutionChanged, format!(
            "{place} is now read as `{}` instead of `{}` (`$schema`), a dialect this engine does not know: it cannot prove the keywords keep their meaning",
            new.name(),
            old.name()
        ))
    } else {
        (SchemaRule::DialectChanged, format!(
            "{place} is now written in JSON Schema {} instead of {} (`$schema`); each side was compared as its own dialect means it, and every difference in accepted values is reported at its keyword",
            new.name(),
            old.name()
        ))
    };
    let id = kind.in_direction(dir);
    let rule = id.rule();
    let message = match rule.severity {
        rules::Severity::Breaking | rules::Severity::Behavioral => {
            format!("{what}; {}", rules::fix_for(rule, tool))
        }
        _ => what,
    };
    Some(
        Change::new(id, tool, format!("{prefix}/$schema"), message)
            .with_from_to(old.name(), new.name()),
    )
}

/// `$id`: references were resolved to the nodes they reach when the
/// document was read, so a changed `$id` moves no reference; it is an
/// annotation.
pub(crate) fn compare_resolution(
    cx: &mut Cx<'_>,
    so: &Shape<'_>,
    sn: &Shape<'_>,
    ptr: &str,
    flip: bool,
) {
    let (io, inew) = (so.get("$id"), sn.get("$id"));
    if io != inew {
        let show = |v: Option<&Value>| v.map_or("none".to_string(), Value::to_string);
        let place = label::describe(ptr, cx.dir);
        let what = format!("`$id` of {place} changed ({} -> {})", show(io), show(inew));
        cx.emit(
            SchemaRule::AnnotationChanged,
            Effect::Neutral,
            flip,
            ptr,
            Some("$id"),
            what,
        );
    }
}
