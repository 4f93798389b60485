//! Rendering a [`DiffReport`](crate::DiffReport) for people ([`human`]) and
//! for machines ([`json`]). Other front ends (CI annotations, SARIF, ...)
//! build on the same [`Change`](crate::Change) records.

pub mod human;
pub mod json;

pub use human::render_human;
pub use json::{render_json, JSON_FORMAT_VERSION};
