//! The served == gated probe's file: where a server writes it and its
//! format, shared by the writer (`rmcp::probe`, in the server) and the
//! reader (`check::probe`, in `cargo mcp-contract check --served`).

/// The environment variable naming the file the probe writes.
pub const PROBE_ENV: &str = "MCP_CONTRACT_PROBE";
/// The probe file's `format`.
pub const FORMAT: &str = "mcp-contract-probe/1";
