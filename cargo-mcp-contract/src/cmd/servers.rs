//! Capturing every server a client configuration names, for `lock` and
//! `check --config`: each server in its own thread (a slow one does not
//! hold up the others), each failure that server's own, named, with the
//! server's stderr tail (secrets scrubbed by the driver).

use std::path::Path;

use mcp_contract::consumer::Release;
use mcp_contract::{InputError, Surface};
use mcp_contract_driver::config::{self, Configured};
use mcp_contract_driver::Options;

/// One configured server and what capturing it gave.
pub struct Captured {
    pub name: String,
    pub disabled: bool,
    /// The surface and `serverInfo`, or the whole diagnostic of why not.
    pub result: Result<(Surface, Release), String>,
}

/// Every server of `config` (only those in `only`, when given), captured;
/// a disabled server is not started. An unreadable configuration, or a name
/// in `only` that it does not have, is the error.
pub fn capture_all(
    config: &Path,
    options: &Options,
    only: &[String],
) -> Result<Vec<Captured>, InputError> {
    let env = |name: &str| std::env::var(name).ok();
    let servers = config::servers(config, &env)?;
    let names: Vec<&str> = servers.iter().map(|s| s.name.as_str()).collect();
    if let Some(missing) = only.iter().find(|n| !names.contains(&n.as_str())) {
        let fix = match mcp_contract::suggest::did_you_mean(missing, &names) {
            Some(s) => format!("did you mean `{s}`? (servers here: {})", names.join(", ")),
            None => format!("servers here: {}", names.join(", ")),
        };
        return Err(InputError::new(
            config.display().to_string(),
            format!("no server `{missing}` in this configuration"),
        )
        .fix(fix));
    }
    let chosen: Vec<Configured> = servers
        .into_iter()
        .filter(|s| only.is_empty() || only.contains(&s.name))
        .collect();
    Ok(std::thread::scope(|scope| {
        let handles: Vec<_> = chosen
            .into_iter()
            .map(|s| scope.spawn(move || capture_one(s, options)))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| Captured {
                    name: String::new(),
                    disabled: false,
                    result: Err("the capture stopped unexpectedly".into()),
                })
            })
            .collect()
    }))
}

fn capture_one(s: Configured, options: &Options) -> Captured {
    let result = if s.disabled {
        Err("disabled in the configuration".to_string())
    } else {
        match &s.endpoint {
            Err(e) => Err(e.to_string()),
            Ok(endpoint) => mcp_contract_driver::capture(endpoint, options)
                .map(|c| {
                    let release = Release {
                        name: c.server.name.clone(),
                        version: c.server.version.clone(),
                    };
                    (c.surface, release)
                })
                .map_err(|e| e.to_string()),
        }
    };
    Captured {
        name: s.name,
        disabled: s.disabled,
        result,
    }
}
