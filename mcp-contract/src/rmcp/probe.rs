//! The served == gated probe. The gate judges the lockfile, which the
//! build step derives from the sources; what a server publishes for a tool
//! is what rmcp generates at run time (schemars, a description set in
//! code). When the two differ, the wrapper serves rmcp's version and says
//! so on stderr, and a pull request could pass the gate while the server
//! publishes a schema nobody compared. So `cargo mcp-contract check
//! --served` (the GitHub Action runs it) builds the package's binaries and
//! starts each with [`PROBE_ENV`] naming a file: the first
//! [`Contracted::new`](super::Contracted::new) of that process writes its
//! verdict for every locked tool there ([`report`]) and ends the process,
//! before anything is served. The check fails on every tool served
//! differently, naming the first differing pointer.

use serde_json::{json, Map, Value};

use super::contract::{Contract, Published};

pub use crate::runtime::probe::{FORMAT, PROBE_ENV};

/// What `inner` serves for each locked tool of `contract` (its
/// `get_tool` answer, which `#[tool_handler]` writes), against what the
/// build step derived: `locked`, `differs` (with each differing pointer,
/// the locked and the served value) or `not-answered` (with the features
/// that gate it, when any).
pub fn report<S: ::rmcp::ServerHandler>(inner: &S, contract: &Contract) -> Value {
    let tools: Vec<Value> = contract
        .names()
        .map(|name| {
            let mut t = Map::new();
            t.insert("name".into(), json!(name));
            match inner.get_tool(name).map(|served| contract.check(&served)) {
                Some(Published::Locked) => {
                    t.insert("served".into(), json!("locked"));
                }
                Some(Published::Differs(diffs)) => {
                    t.insert("served".into(), json!("differs"));
                    let diffs: Vec<Value> = diffs
                        .iter()
                        .map(|d| {
                            let mut m = Map::new();
                            m.insert("pointer".into(), json!(d.pointer));
                            if let Some(v) = &d.locked {
                                m.insert("locked".into(), v.clone());
                            }
                            if let Some(v) = &d.served {
                                m.insert("served".into(), v.clone());
                            }
                            Value::Object(m)
                        })
                        .collect();
                    t.insert("differences".into(), Value::Array(diffs));
                }
                Some(Published::Unlocked) | None => {
                    t.insert("served".into(), json!("not-answered"));
                }
            }
            let features = contract.features_of(name);
            if !features.is_empty() {
                t.insert("features".into(), json!(features));
            }
            Value::Object(t)
        })
        .collect();
    json!({"format": FORMAT, "package": contract.package(), "tools": tools})
}

/// With [`PROBE_ENV`] set, writes [`report`] to the file it names and
/// ends the process (status 0; 2 when the file cannot be written).
pub(crate) fn run_if_asked<S: ::rmcp::ServerHandler>(inner: &S, contract: &Contract) {
    let Some(path) = std::env::var_os(PROBE_ENV).filter(|p| !p.is_empty()) else {
        return;
    };
    let path = std::path::PathBuf::from(path);
    let text = report(inner, contract).to_string();
    // written whole, then renamed: the check never reads half a report
    let partial = path.with_extension("partial");
    let written = std::fs::write(&partial, text).and_then(|()| std::fs::rename(&partial, &path));
    match written {
        Ok(()) => std::process::exit(0),
        Err(e) => {
            eprintln!(
                "mcp-contract: {PROBE_ENV}: cannot write {}: {e}",
                path.display()
            );
            std::process::exit(2);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ::rmcp::model::{ServerCapabilities, ServerConfig, Tool};

    struct Serves(Vec<Value>);

    impl ::rmcp::ServerHandler for Serves {
        fn get_info(&self) -> ServerConfig {
            ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
        }
        fn get_tool(&self, name: &str) -> Option<Tool> {
            self.0
                .iter()
                .find(|t| t["name"] == name)
                .map(|t| serde_json::from_value(t.clone()).unwrap())
        }
    }

    #[test]
    fn each_locked_tool_is_locked_differs_or_not_answered() {
        let a = json!({"name": "a", "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}});
        let b = json!({"name": "b", "inputSchema": {"type": "object"}});
        let c = json!({"name": "c", "inputSchema": {"type": "object"}});
        let manifest = json!({"derived": {}, "published": {"a": a, "b": b, "c": c},
            "features": {"c": ["extra"]}});
        let contract =
            Contract::from_build(&manifest.to_string(), r#"{"revision": "r", "tools": {}}"#)
                .unwrap()
                .in_package("tiny");
        let rewritten = json!({"name": "a", "inputSchema": {"type": "object", "properties": {"n": {"type": "string"}}}});
        let r = report(&Serves(vec![rewritten, b]), &contract);
        assert_eq!(r["format"], FORMAT);
        assert_eq!(r["package"], "tiny");
        assert_eq!(
            r["tools"],
            json!([
                {"name": "a", "served": "differs", "differences": [
                    {"pointer": "/inputSchema/properties/n/type", "locked": "integer", "served": "string"}]},
                {"name": "b", "served": "locked"},
                {"name": "c", "served": "not-answered", "features": ["extra"]},
            ])
        );
    }
}
