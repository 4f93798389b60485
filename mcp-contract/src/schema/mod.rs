//! JSON Schema plumbing the compatibility engine needs: local `$ref`
//! resolution ([`refs`]), the set of JSON types a schema admits ([`types`]),
//! and a normalized view of one schema node ([`shape`]) in which references,
//! nullable spellings and mergeable `allOf`s no longer differ by form.

#[cfg(feature = "gate")] // the comparator's finite-value check only
pub mod accepts;
pub mod bases;
#[cfg(feature = "gate")] // the containment decision over the compiled graph
pub mod contain;
pub mod dialect;
pub mod equiv;
#[cfg(feature = "gate")] // the compiled graph the containment decision reads
pub mod graph;
pub mod numeric;
#[cfg(feature = "gate")] // `pattern` inclusion: the engine only
pub mod pattern;
pub mod refs;
pub mod shape;
pub mod types;
pub mod values;
pub mod vocabulary;

/// Keywords whose values are instance data, never schemas.
pub const DATA_KEYWORDS: &[&str] = &["default", "const", "enum", "examples", "example"];

/// Keywords whose values map names to schemas: the names are not keywords.
/// (Draft 7's `dependencies` maps a name to a schema *or* a list of names,
/// so it is not among them.)
pub const NAMED_SCHEMA_KEYWORDS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];

/// Keywords that only annotate and never take part in validation.
pub const ANNOTATION_KEYWORDS: &[&str] = &[
    "title",
    "description",
    "default",
    "examples",
    "example",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$comment",
    "$schema",
    "$id",
    "$anchor",
    "$dynamicAnchor",
    "$vocabulary",
    "contentMediaType",
    "contentSchema",
    "contentEncoding",
];
