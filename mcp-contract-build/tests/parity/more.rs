//! A second fixture file, reached through `mod more;`.

use schemars::JsonSchema;
use serde::Deserialize;

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
