//! One module per subcommand.

pub mod diff;
pub mod rules;
pub mod snapshot;
