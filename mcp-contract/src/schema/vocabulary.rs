//! Every keyword the engine knows, and how it handles each: compared for
//! what it accepts, an annotation (reported, never breaking), or a keyword
//! that decides how the rest is read (references followed; dialect and
//! embedded resource ids reported). A keyword in none of these lists is
//! reported as unknown (`*.keyword-changed`); the vocabulary test fails on
//! any keyword of JSON Schema 2020-12 or draft-07 that has no handling.

use super::ANNOTATION_KEYWORDS;

/// How the comparator treats a keyword.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Handling {
    /// Its effect on the accepted values is compared.
    Compared,
    /// It annotates: changes are reported as annotations (descriptions and
    /// defaults have rules of their own).
    Annotation,
    /// It decides how other keywords are read: references are followed,
    /// `$schema` and embedded `$id` changes are reported as breaking.
    Resolution,
}

/// Keywords whose changes the comparator decides (or reports conservatively).
pub const COMPARED: &[&str] = &[
    "type",
    "enum",
    "const",
    "properties",
    "required",
    "additionalProperties",
    "patternProperties",
    "propertyNames",
    "items",
    "prefixItems",
    "additionalItems",
    "contains",
    "minContains",
    "maxContains",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "anyOf",
    "oneOf",
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "minProperties",
    "maxProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "$ref",
    "$dynamicRef",
    "$recursiveRef",
];

/// Keywords that decide how the schema is read.
pub const RESOLUTION: &[&str] = &[
    "$schema",
    "$id",
    "$anchor",
    "$dynamicAnchor",
    "$recursiveAnchor",
    "$vocabulary",
    "$defs",
    "definitions",
];

/// How `keyword` is handled, `None` when JSON Schema does not define it
/// (or it is an `x-*` extension).
pub fn handling(keyword: &str) -> Option<Handling> {
    if COMPARED.contains(&keyword) {
        Some(Handling::Compared)
    } else if RESOLUTION.contains(&keyword) {
        Some(Handling::Resolution)
    } else if ANNOTATION_KEYWORDS.contains(&keyword) {
        Some(Handling::Annotation)
    } else {
        None
    }
}

/// The string `format`s the project's policy asserts (`schema::graph`'s
/// format policy: a string that is not one is rejected, as servers built
/// on zod, pydantic or `validator` do).
pub const ASSERTED_FORMATS: &[&str] = &[
    "date",
    "date-time",
    "duration",
    "email",
    "hostname",
    "idn-email",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "iri",
    "iri-reference",
    "json-pointer",
    "regex",
    "relative-json-pointer",
    "time",
    "uri",
    "uri-reference",
    "uri-template",
    "uuid",
];
