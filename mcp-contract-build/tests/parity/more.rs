//! A second fixture file, reached through `mod more;`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Same name as `nested::Config`: schemars numbers the second one.
#[derive(Deserialize, JsonSchema)]
pub struct Config {
    pub more_flag: bool,
}

#[derive(Deserialize, JsonSchema)]
pub struct Settings {
    pub priority: Priority,
    pub inner: super::Inner,
}

#[derive(Deserialize, JsonSchema)]
pub enum Priority {
    Low,
    High,
    /// Needs attention now.
    Urgent,
}

/// Types from a registry dependency (rmcp derives `JsonSchema` for them),
/// reached by full path, through rmcp's `pub use model::*` re-exports.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct FromRegistry {
    /// Who speaks.
    pub role: rmcp::model::Role,
    pub audience: Vec<rmcp::model::Role>,
    pub annotations: Option<rmcp::model::Annotations>,
    pub hints: rmcp::model::ToolAnnotations,
}

/// A type without `JsonSchema`, described by a `#[serde(remote)]` mirror.
pub struct Geo {
    pub lat: f64,
    pub lon: f64,
}

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(remote = "Geo")]
pub struct GeoDef {
    /// Latitude in degrees.
    pub lat: f64,
    pub lon: f64,
}

#[derive(Deserialize, Serialize, JsonSchema)]
pub struct Place {
    pub name: String,
    #[serde(with = "GeoDef")]
    pub at: Geo,
    #[schemars(with = "GeoDef")]
    #[serde(with = "GeoDef")]
    pub also: Geo,
}
