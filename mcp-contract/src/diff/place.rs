//! Where in the *value* a schema pointer applies. Keywords such as
//! `properties` or `items` descend into the value; `allOf`, `anyOf`,
//! `oneOf`, `not`, `if`/`then`/`else` and followed references stay at the
//! same place. A reference that comes back to a pair being compared without
//! descending is an unguarded cycle: JSON Schema leaves such schemas
//! undefined, and assuming the pair equal there would prove anything, so
//! the comparator reports it instead of assuming.

/// Keywords whose subschema applies to a part of the value.
pub(super) const DESCENDS: [&str; 10] = [
    "properties",
    "patternProperties",
    "additionalProperties",
    "unevaluatedProperties",
    "propertyNames",
    "items",
    "prefixItems",
    "additionalItems",
    "unevaluatedItems",
    "contains",
];

/// Keywords followed by a name or an index in a pointer.
pub(super) const KEYED: [&str; 10] = [
    "properties",
    "patternProperties",
    "dependentSchemas",
    "dependencies",
    "$defs",
    "definitions",
    "prefixItems",
    "allOf",
    "anyOf",
    "oneOf",
];

/// How many schema steps the pointer (relative to a schema position) takes
/// since it last descended into the value, and whether it descended at all.
pub(crate) fn steps_in_place(rel: &str) -> (usize, bool) {
    let mut run = 0;
    let mut descended = false;
    let mut segs = rel.split('/').filter(|s| !s.is_empty());
    while let Some(kw) = segs.next() {
        if DESCENDS.contains(&kw) {
            run = 0;
            descended = true;
        } else {
            run += 1;
        }
        if KEYED.contains(&kw) {
            segs.next();
        }
    }
    (run, descended)
}

/// Keywords whose subschemas apply to the same value as their node.
pub(super) const IN_PLACE: [&str; 8] = [
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "dependentSchemas",
];

/// How many steps into the value a pointer (from a schema position) goes:
/// `None` where a segment maps to no place in the value (`$defs`, a
/// reference's target, `propertyNames`, whose value is a name). The
/// witness search's (feature `validate`).
#[cfg(any(test, feature = "validate"))]
pub(crate) fn descents<'s>(segments: impl IntoIterator<Item = &'s str>) -> Option<usize> {
    let mut n = 0;
    let mut segs = segments.into_iter();
    while let Some(kw) = segs.next() {
        if kw == "propertyNames" {
            return None;
        } else if DESCENDS.contains(&kw) {
            n += 1;
        } else if !IN_PLACE.contains(&kw) {
            return None;
        }
        if KEYED.contains(&kw) {
            segs.next();
        }
    }
    Some(n)
}

#[cfg(test)]
mod tests {
    use super::{descents, steps_in_place};

    #[test]
    fn descents_count_steps_into_the_value() {
        let d = |p: &str| descents(p.split('/').filter(|s| !s.is_empty()));
        assert_eq!(d("/properties/a/anyOf/1/items/oneOf/0"), Some(2));
        assert_eq!(d("/prefixItems/0/not/additionalProperties"), Some(2));
        assert_eq!(d("/$defs/T/properties/a"), None);
        assert_eq!(d("/propertyNames"), None);
    }

    #[test]
    fn descents_and_same_place_steps() {
        assert_eq!(steps_in_place(""), (0, false));
        assert_eq!(steps_in_place("/anyOf/0/allOf/1"), (2, false));
        assert_eq!(steps_in_place("/anyOf/0/items/anyOf/1"), (1, true));
        // a property named like a keyword is a name, not a step
        assert_eq!(steps_in_place("/properties/anyOf"), (0, true));
        assert_eq!(steps_in_place("/properties/items/not"), (1, true));
    }
}
