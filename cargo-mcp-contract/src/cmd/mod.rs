//! One module per subcommand.

pub mod accepted;
pub mod build_script;
pub mod changelog;
pub mod check;
pub mod check_usage;
pub mod diff;
pub mod history;
pub mod install_hook;
pub mod live;
pub mod lock;
pub mod replay;
pub mod rules;
pub mod selftest;
pub mod servers;
pub mod snapshot;
pub mod staged;
pub mod usage;
pub mod verify;
