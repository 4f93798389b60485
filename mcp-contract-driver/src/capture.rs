//! Capturing a live surface: reach the server, read every page of every
//! list, end the session, and build the surface from the raw objects.
//!
//! What is normalized, and why only that: the lockfile keeps every field a
//! client can read. Request ids, the page boundaries (`nextCursor`) and the
//! result-level `_meta`, `ttlMs` and `cacheScope` caching hints belong to one
//! response, not to the tools, so only the `tools` arrays are taken from each
//! page. Each tool object is kept verbatim, its own `_meta`, `icons`,
//! `execution` and `x-*` keys included; key order and whitespace disappear in
//! the canonical lockfile.

use mcp_contract::load::entries::{add_published, ListKind};
use mcp_contract::{load, InputError, Surface};
use serde_json::{json, Value};

use crate::endpoint::Endpoint;
use crate::error::{DriverError, ErrorKind};
use crate::session::{Options, ServerInfo, Session};

/// A live surface and how it was read.
#[derive(Debug, Clone)]
pub struct Capture {
    pub surface: Surface,
    pub server: ServerInfo,
    /// How many `tools/list` pages the server returned.
    pub pages: usize,
    /// The tool objects exactly as published, in order.
    pub tools: Vec<Value>,
    /// Per other list method read: (method, items, pages).
    pub lists: Vec<(&'static str, usize, usize)>,
}

/// Reaches the server (starting it, or over HTTP), reads its whole surface
/// (tools, and the prompts, resources and templates it declares) and ends
/// the session.
pub fn capture(endpoint: impl Into<Endpoint>, options: &Options) -> Result<Capture, DriverError> {
    let endpoint: Endpoint = endpoint.into();
    let mut session = Session::start(&endpoint, options)?;
    let listed = session.list_tools()?;
    let mut surface = match surface_from_tools(&listed.tools, &endpoint.to_string()) {
        Ok(s) => s,
        Err(e) => {
            let err = session.fail(ErrorKind::Surface(e));
            session.close();
            return Err(err);
        }
    };
    let mut lists = vec![];
    for kind in [
        ListKind::Prompts,
        ListKind::Resources,
        ListKind::ResourceTemplates,
    ] {
        let Some(pages) = session.list_declared(kind)? else {
            continue;
        };
        lists.push((kind.method(), pages.items.len(), pages.pages));
        let file = format!("{} of `{endpoint}`", kind.method());
        if let Err(e) = add_published(
            &mut surface,
            kind,
            pages.items,
            &file,
            &format!("/{}", kind.key()),
        ) {
            let err = session.fail(ErrorKind::Surface(e));
            session.close();
            return Err(err);
        }
    }
    surface.server = Some(session.section.clone());
    let server = session.server.clone();
    session.close();
    Ok(Capture {
        surface,
        server,
        pages: listed.pages,
        tools: listed.tools,
        lists,
    })
}

/// Fills in each live tool's contract major `version` from the lockfile.
///
/// The version is a build-time declaration: [`mcp_contract::Tool::to_published`]
/// leaves it out, so servers do not publish it and a live capture cannot
/// contradict it. Keeping the recorded one makes `snapshot --server` over an
/// existing lockfile lose nothing, and `verify` compare what is published.
/// A version the server does publish is kept as published.
pub fn with_locked_versions(mut live: Surface, locked: &Surface) -> Surface {
    for (name, tool) in live.tools.iter_mut() {
        if tool.version.is_none() {
            tool.version = locked.get(name).and_then(|t| t.version);
        }
    }
    live
}

/// Builds a surface from published tool objects; errors point into the
/// concatenated `tools` array of all pages.
pub fn surface_from_tools(tools: &[Value], command: &str) -> Result<Surface, InputError> {
    let doc = json!({ "tools": tools });
    load::surface_from_value(&doc, &format!("tools/list of `{command}`"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_fields_the_model_does_not_name() {
        let tools = vec![json!({
            "name": "echo", "inputSchema": {"type": "object"},
            "execution": {"taskSupport": "forbidden"}, "x-owner": "team-a",
            "_meta": {"ui/resourceUri": "ui://echo"}
        })];
        let s = surface_from_tools(&tools, "srv").unwrap();
        let echo = s.get("echo").unwrap();
        assert_eq!(echo.extra["execution"]["taskSupport"], "forbidden");
        assert_eq!(echo.extra["x-owner"], "team-a");
        assert_eq!(echo.extra["_meta"]["ui/resourceUri"], "ui://echo");
    }

    #[test]
    fn versions_come_from_the_lockfile_unless_published() {
        let mut locked = Surface::new();
        let mut t = mcp_contract::Tool::new("a");
        t.version = Some(2);
        locked.insert(t.clone());
        let mut b = mcp_contract::Tool::new("b");
        b.version = Some(1);
        locked.insert(b);
        let mut live = Surface::new();
        live.insert(mcp_contract::Tool::new("a"));
        let mut b = mcp_contract::Tool::new("b");
        b.version = Some(3);
        live.insert(b);
        live.insert(mcp_contract::Tool::new("c"));
        let merged = with_locked_versions(live, &locked);
        let versions: Vec<Option<u64>> = merged.tools.values().map(|t| t.version).collect();
        assert_eq!(versions, vec![Some(2), Some(3), None]);
    }

    #[test]
    fn duplicate_across_pages_is_an_input_error() {
        let t = json!({"name": "echo", "inputSchema": {"type": "object"}});
        let e = surface_from_tools(&[t.clone(), t], "srv").unwrap_err();
        assert_eq!(e.location.as_deref(), Some("/tools/1"));
        assert!(e.file.contains("srv"), "{e}");
    }
}
