//! Rendering a [`DiffReport`](crate::DiffReport) for people ([`human`]) and
//! for machines ([`json`]). Other front ends (CI annotations, SARIF, ...)
//! build on the same [`Change`](crate::Change) records.

pub mod changelog;
pub mod check_human;
pub mod check_json;
pub mod gate;
pub mod github;
pub mod history;
pub mod human;
pub mod json;
pub mod junit;
pub mod markdown;
pub mod sarif;

pub use human::render_human;
pub use json::{render_json, JSON_FORMAT_VERSION};
