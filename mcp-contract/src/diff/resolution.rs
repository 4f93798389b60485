//! Keywords that decide how the rest of a schema is read rather than what
//! it accepts: `$schema` (the dialect: draft-07 reads `items`, `$ref`
//! siblings and `dependencies` differently from 2020-12) and `$id` (the base
//! against which an embedded resource's references resolve). `$anchor`,
//! `$dynamicAnchor` and `$dynamicRef`/`$recursiveRef` need nothing here:
//! references through them are followed and their targets compared.
//!
//! A dialect that really changes, or an embedded resource that moves, is
//! reported as breaking: the engine reads both sides with one dialect, so
//! it says so instead of trusting that reading.

use serde_json::Value;

use super::label;
use super::schema::{Cx, Effect};
use crate::schema::shape::Shape;

/// MCP's default dialect for tool schemas.
const DEFAULT_DIALECT: &str = "2020-12";

/// The dialect a `$schema` URI names, by its draft (`http`/`https`,
/// trailing `#` and the like do not matter).
pub(crate) fn dialect(uri: &str) -> String {
    for d in [
        "2020-12", "2019-09", "draft-07", "draft-06", "draft-04", "draft-03",
    ] {
        if uri.contains(d) {
            return d.to_string();
        }
    }
    uri.trim_end_matches('#').to_string()
}

fn dialect_at(s: &Shape<'_>, root: &Value) -> String {
    s.get("$schema")
        .or_else(|| root.get("$schema"))
        .and_then(Value::as_str)
        .map_or_else(|| DEFAULT_DIALECT.to_string(), dialect)
}

pub(crate) fn compare_resolution(
    cx: &mut Cx<'_>,
    so: &Shape<'_>,
    sn: &Shape<'_>,
    ptr: &str,
    flip: bool,
) {
    let place = label::describe(ptr, cx.dir);
    if so.get("$schema") != sn.get("$schema") {
        let (dold, dnew) = (dialect_at(so, cx.old_root), dialect_at(sn, cx.new_root));
        if dold != dnew {
            let what = format!(
                "{place} is now read as JSON Schema {dnew} instead of {dold} (`$schema`): keywords such as `items`, `dependencies` and those beside `$ref` change meaning between dialects"
            );
            if let Some(c) = cx.emit(
                "resolution-changed",
                Effect::Changed,
                flip,
                &format!("{ptr}/$schema"),
                None,
                what,
            ) {
                c.detail.from = Some(dold);
                c.detail.to = Some(dnew);
            }
        } else {
            let what = format!("`$schema` of {place} is spelled differently (same dialect {dnew})");
            cx.emit(
                "annotation-changed",
                Effect::Neutral,
                flip,
                ptr,
                Some("$schema"),
                what,
            );
        }
    }
    let (io, inew) = (so.get("$id"), sn.get("$id"));
    if io != inew {
        let show = |v: Option<&Value>| v.map_or("none".to_string(), Value::to_string);
        if ptr == cx.root_ptr {
            // only local references are followed, and they resolve within the document
            let what = format!("`$id` of {place} changed ({} -> {})", show(io), show(inew));
            cx.emit(
                "annotation-changed",
                Effect::Neutral,
                flip,
                ptr,
                Some("$id"),
                what,
            );
        } else {
            let what = format!(
                "{place} is an embedded schema resource whose `$id` changed ({} -> {}): references inside it resolve against another base",
                show(io),
                show(inew)
            );
            if let Some(c) = cx.emit(
                "resolution-changed",
                Effect::Changed,
                flip,
                &format!("{ptr}/$id"),
                None,
                what,
            ) {
                c.detail.from = Some(show(io));
                c.detail.to = Some(show(inew));
            }
        }
    }
}
