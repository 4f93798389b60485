//! Which contract revision `tools/list` publishes. Normally the current one
//! (the routes, i.e. the locked definitions). With `DEMO_SERVER_LOCKFILE`
//! naming a lockfile, the server publishes that lockfile's tools instead:
//! the drift tests use it to show a client the tool list of an older
//! revision (what an agent cached before a deploy). Calls are always served
//! by the current handlers behind the compatibility layer.

use std::path::Path;

use mcp_contract::lockfile;
use rmcp::model::Tool;

/// The environment variable naming the lockfile to publish.
pub const LOCKFILE_ENV: &str = "DEMO_SERVER_LOCKFILE";

/// A lockfile published instead of the current tools.
pub struct Pinned {
    /// Its tools, as `tools/list` publishes them.
    pub tools: Vec<Tool>,
    /// Each tool's revision in it (its lockfile digest).
    pub revisions: Vec<(String, String)>,
}

/// The tools of the lockfile named by `DEMO_SERVER_LOCKFILE`, if set.
/// An unreadable lockfile stops the server with the reason (it is test
/// configuration, not client input).
pub fn pinned_tools() -> Option<Pinned> {
    let path = std::env::var_os(LOCKFILE_ENV).filter(|p| !p.is_empty())?;
    match pinned(Path::new(&path)) {
        Ok(p) => Some(p),
        Err(e) => {
            eprintln!("demo-server: {LOCKFILE_ENV}: {e}");
            std::process::exit(2);
        }
    }
}

/// A lockfile's tools and their revisions.
pub fn pinned(path: &Path) -> Result<Pinned, String> {
    let surface = lockfile::read(path).map_err(|e| e.to_string())?;
    Ok(Pinned {
        tools: tools_of(path)?,
        revisions: surface
            .tools
            .values()
            .map(|t| (t.name.clone(), t.digest()))
            .collect(),
    })
}

/// Every tool of a lockfile, as `tools/list` publishes it.
pub fn tools_of(path: &Path) -> Result<Vec<Tool>, String> {
    let surface = lockfile::read(path).map_err(|e| e.to_string())?;
    surface
        .tools
        .values()
        .map(|t| serde_json::from_value(t.to_published()).map_err(|e| e.to_string()))
        .collect()
}
