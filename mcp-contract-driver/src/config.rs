//! MCP client configuration files: the `mcpServers` object that Claude
//! Code's `.mcp.json`, Claude Desktop, Cursor and others use (VS Code's
//! `servers` too), so a team gates exactly the server its agents start.
//! An entry is either a command (`command`, `args`, `env`, `cwd`) or a URL
//! (`url`, `headers`, `type`: `http`/`streamable-http` or `sse`). `${VAR}`
//! is expanded from the environment in `command`, `args`, `env`, `url` and
//! `headers`, as those clients do; values read from the environment are
//! never printed: the endpoint carries them in its [`Secrets`], which show
//! the command and URL as written and are scrubbed from everything the
//! server says ([`crate::secret`]). Every error names the file, the JSON
//! pointer and the fix.

use std::path::Path;

use mcp_contract::InputError;
use serde_json::{Map, Value};

use crate::command::ServerCommand;
use crate::endpoint::{expand, Endpoint, HttpEndpoint, HttpTransport};
use crate::secret::Secrets;

/// The keys that may hold the servers.
const SERVER_KEYS: &[&str] = &["mcpServers", "servers"];

/// Keys an entry may have.
const ENTRY_KEYS: &[&str] = &[
    "command",
    "args",
    "env",
    "cwd",
    "url",
    "headers",
    "type",
    "transport",
    "disabled",
    "description",
    "timeout",
    "autoApprove",
    "alwaysAllow",
    "envFile",
    "oauth",
];

/// Reads `path` and returns the endpoint of server `name`.
pub fn read(
    path: &Path,
    name: &str,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Endpoint, InputError> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| {
        InputError::new(&file, format!("cannot read the client configuration: {e}"))
            .fix("give the path of an MCP client configuration such as .mcp.json")
    })?;
    let value = mcp_contract::load::parse_json(&bytes, &file)?;
    from_value(&value, &file, name, env, path.parent())
}

/// Finds server `name` in a parsed configuration.
pub fn from_value(
    value: &Value,
    file: &str,
    name: &str,
    env: &dyn Fn(&str) -> Option<String>,
    base: Option<&Path>,
) -> Result<Endpoint, InputError> {
    let Some((key, servers)) = SERVER_KEYS
        .iter()
        .find_map(|k| value.get(*k).map(|v| (*k, v)))
    else {
        return Err(InputError::new(file, "no `mcpServers` object in this file")
            .at("/")
            .fix("an MCP client configuration has {\"mcpServers\": {\"NAME\": {\"command\": ...} or {\"url\": ...}}}"));
    };
    let Some(servers) = servers.as_object() else {
        return Err(InputError::new(
            file,
            format!("`{key}` must be an object keyed by server name"),
        )
        .at(format!("/{key}"))
        .fix("write {\"NAME\": {\"command\": ...}}"));
    };
    let Some(entry) = servers.get(name) else {
        let names: Vec<&str> = servers.keys().map(String::as_str).collect();
        let fix = match mcp_contract::suggest::did_you_mean(name, &names) {
            Some(s) => format!("did you mean `{s}`? (servers here: {})", names.join(", ")),
            None if names.is_empty() => "the file lists no servers".to_string(),
            None => format!("servers here: {}", names.join(", ")),
        };
        return Err(
            InputError::new(file, format!("no server `{name}` in `{key}`"))
                .at(format!("/{key}"))
                .fix(fix),
        );
    };
    let at = format!("/{key}/{}", mcp_contract::lockfile::escape_pointer(name));
    let Some(entry) = entry.as_object() else {
        return Err(
            InputError::new(file, format!("server `{name}` must be an object"))
                .at(&at)
                .fix("give `command` (and `args`) or `url`"),
        );
    };
    if let Some(k) = entry.keys().find(|k| !ENTRY_KEYS.contains(&k.as_str())) {
        return Err(
            InputError::new(file, format!("unknown key `{k}` in server `{name}`"))
                .at(format!(
                    "{at}/{}",
                    mcp_contract::lockfile::escape_pointer(k)
                ))
                .fix(format!("allowed keys: {}", ENTRY_KEYS.join(", "))),
        );
    }
    // every value read from the environment, for the endpoint to hide
    let secrets = std::cell::RefCell::new(Secrets::default());
    let ex = |v: &str, what: &str, ptr: &str| -> Result<String, InputError> {
        expand(v, what, env, &mut secrets.borrow_mut()).map_err(|e| {
            InputError::new(file, e.message.replace("header `", "`"))
                .at(ptr)
                .fix(e.fix)
        })
    };
    let string = |k: &str| -> Result<Option<String>, InputError> {
        match entry.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(InputError::new(
                file,
                format!("`{k}` of server `{name}` must be a string"),
            )
            .at(format!("{at}/{k}"))
            .fix(format!("make `{k}` a string"))),
        }
    };
    let string_map = |k: &str| -> Result<Vec<(String, String)>, InputError> {
        match entry.get(k) {
            None | Some(Value::Null) => Ok(vec![]),
            Some(Value::Object(m)) => m
                .iter()
                .map(|(mk, mv)| match mv {
                    Value::String(s) => {
                        let ptr =
                            format!("{at}/{k}/{}", mcp_contract::lockfile::escape_pointer(mk));
                        Ok((mk.clone(), ex(s, mk, &ptr)?))
                    }
                    _ => Err(InputError::new(
                        file,
                        format!("`{k}.{mk}` of server `{name}` must be a string"),
                    )
                    .at(format!(
                        "{at}/{k}/{}",
                        mcp_contract::lockfile::escape_pointer(mk)
                    ))
                    .fix("give every value as a string")),
                })
                .collect(),
            Some(_) => Err(InputError::new(
                file,
                format!("`{k}` of server `{name}` must be an object of strings"),
            )
            .at(format!("{at}/{k}"))
            .fix(format!("write \"{k}\": {{\"NAME\": \"value\"}}"))),
        }
    };
    let kind = string("type")?.or(string("transport")?);
    match (string("command")?, string("url")?) {
        (Some(_), Some(_)) => Err(InputError::new(
            file,
            format!("server `{name}` has both `command` and `url`"),
        )
        .at(&at)
        .fix("keep `command` for a server started on stdio, `url` for one reached over HTTP")),
        (None, None) => Err(InputError::new(
            file,
            format!("server `{name}` has neither `command` nor `url`"),
        )
        .at(&at)
        .fix("give `command` (and `args`) or `url`")),
        (Some(command), None) => {
            if let Some(k) = kind.as_deref().filter(|k| *k != "stdio") {
                return Err(InputError::new(
                    file,
                    format!("server `{name}` has `command` but type `{k}`"),
                )
                .at(format!("{at}/type"))
                .fix("a server with `command` is `stdio`; use `url` for http or sse"));
            }
            let mut cmd = ServerCommand::new(ex(&command, "command", &format!("{at}/command"))?);
            match entry.get("args") {
                None | Some(Value::Null) => {}
                Some(Value::Array(args)) => {
                    for (i, a) in args.iter().enumerate() {
                        let ptr = format!("{at}/args/{i}");
                        let Some(a) = a.as_str() else {
                            return Err(InputError::new(
                                file,
                                format!("argument {i} of server `{name}` must be a string"),
                            )
                            .at(ptr)
                            .fix("give every argument as a string"));
                        };
                        cmd = cmd.arg(ex(a, "args", &ptr)?);
                    }
                }
                Some(_) => {
                    return Err(InputError::new(
                        file,
                        format!("`args` of server `{name}` must be an array of strings"),
                    )
                    .at(format!("{at}/args"))
                    .fix("write \"args\": [\"-y\", \"package\"]"))
                }
            }
            if let Some(cwd) = string("cwd")? {
                let cwd = std::path::PathBuf::from(ex(&cwd, "cwd", &format!("{at}/cwd"))?);
                cmd.cwd = Some(match base {
                    Some(b) if cwd.is_relative() => b.join(cwd),
                    _ => cwd,
                });
            }
            cmd.env = string_map("env")?;
            cmd.secrets = secrets.take();
            Ok(Endpoint::Command(cmd))
        }
        (None, Some(url)) => {
            let transport = match kind.as_deref() {
                None => HttpTransport::Auto,
                Some("http" | "streamable-http" | "streamableHttp") => HttpTransport::Streamable,
                Some("sse") => HttpTransport::Sse,
                Some(other) => {
                    return Err(InputError::new(
                        file,
                        format!("unknown type `{other}` for server `{name}`"),
                    )
                    .at(format!("{at}/type"))
                    .fix("type is one of stdio, http, streamable-http, sse"))
                }
            };
            let url = ex(&url, "url", &format!("{at}/url"))?;
            let headers = string_map("headers")?;
            let mut h = HttpEndpoint::with_secrets(&url, secrets.take()).map_err(|e| {
                InputError::new(file, e.message)
                    .at(format!("{at}/url"))
                    .fix(e.fix)
            })?;
            h.transport = transport;
            for (k, v) in headers {
                h.raw_header(&k, v);
            }
            Ok(Endpoint::Http(h))
        }
    }
}

/// One server a configuration names, as [`servers`] reads it.
#[derive(Debug, Clone)]
pub struct Configured {
    pub name: String,
    /// `"disabled": true`: the client does not start it.
    pub disabled: bool,
    /// Where it is, or what is wrong with its entry (named, with the fix).
    pub endpoint: Result<Endpoint, InputError>,
}

/// Every server `path` names, in the file's order of names (sorted), each
/// read on its own: a bad entry is that server's error, not the file's.
pub fn servers(
    path: &Path,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Vec<Configured>, InputError> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| {
        InputError::new(&file, format!("cannot read the client configuration: {e}"))
            .fix("give the path of an MCP client configuration such as .mcp.json")
    })?;
    let value = mcp_contract::load::parse_json(&bytes, &file)?;
    let names = names(&value);
    if names.is_empty() {
        // the same first cause as for one server: no `mcpServers`, or empty
        from_value(&value, &file, "", env, path.parent())?;
    }
    Ok(names
        .into_iter()
        .map(|name| Configured {
            disabled: SERVER_KEYS
                .iter()
                .find_map(|k| value.get(*k))
                .and_then(|m| m.get(&name))
                .and_then(|e| e.get("disabled"))
                == Some(&Value::Bool(true)),
            endpoint: from_value(&value, &file, &name, env, path.parent()),
            name,
        })
        .collect())
}

/// The servers a configuration lists (for help messages).
pub fn names(value: &Value) -> Vec<String> {
    SERVER_KEYS
        .iter()
        .find_map(|k| value.get(*k).and_then(Value::as_object))
        .map(|m: &Map<String, Value>| m.keys().cloned().collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn env(n: &str) -> Option<String> {
        (n == "GH_TOKEN").then(|| "ghp_secret".into())
    }

    #[test]
    fn reads_commands_and_urls_with_expansion() {
        let cfg = json!({"mcpServers": {
            "files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."], "env": {"TOKEN": "${GH_TOKEN}"}},
            "github": {"type": "http", "url": "https://api.example.com/mcp", "headers": {"Authorization": "Bearer ${GH_TOKEN}"}}
        }});
        let Endpoint::Command(c) = from_value(&cfg, "x.json", "files", &env, None).unwrap() else {
            panic!()
        };
        assert_eq!(
            c.to_string(),
            "npx -y @modelcontextprotocol/server-filesystem ."
        );
        assert_eq!(c.env, vec![("TOKEN".to_string(), "ghp_secret".to_string())]);
        let Endpoint::Http(h) = from_value(&cfg, "x.json", "github", &env, None).unwrap() else {
            panic!()
        };
        assert_eq!(h.transport, HttpTransport::Streamable);
        assert_eq!(h.header_names(), ["Authorization"]);
        assert!(!format!("{h:?}").contains("ghp_secret"));
    }

    #[test]
    fn expanded_values_are_shown_as_written_and_debug_hides_env_values() {
        let cfg = json!({"mcpServers": {
            "files": {"command": "srv", "args": ["--api-key=${GH_TOKEN}", "plain"], "env": {"TOKEN": "${GH_TOKEN}"}},
            "sse": {"type": "sse", "url": "http://127.0.0.1:1/mcp/${GH_TOKEN}/sse"}
        }});
        let cmd = from_value(&cfg, "x.json", "files", &env, None).unwrap();
        let Endpoint::Command(c) = &cmd else { panic!() };
        assert_eq!(c.args[0], "--api-key=ghp_secret");
        let shown = format!("{cmd} {cmd:?}");
        assert!(!shown.contains("ghp_secret"), "{shown}");
        assert!(shown.contains("'--api-key=${GH_TOKEN}' plain"), "{shown}");
        let sse = from_value(&cfg, "x.json", "sse", &env, None).unwrap();
        let Endpoint::Http(h) = &sse else { panic!() };
        assert!(h.url.contains("ghp_secret"));
        let shown = format!("{sse} {sse:?}");
        assert!(!shown.contains("ghp_secret"), "{shown}");
        assert!(
            shown.contains("http://127.0.0.1:1/mcp/${GH_TOKEN}/sse"),
            "{shown}"
        );
        assert_eq!(
            sse.secrets().scrub("Cannot GET /mcp/ghp_secret/sse"),
            "Cannot GET /mcp/${GH_TOKEN}/sse"
        );
    }

    #[test]
    fn errors_name_the_place_and_the_fix() {
        let cfg = json!({"mcpServers": {"github": {"url": "https://x/mcp", "headers": {"A": "${NOPE}"}}, "files": {"comand": "x"}}});
        let e = from_value(&cfg, "x.json", "githb", &env, None).unwrap_err();
        assert!(
            e.fix.as_deref().unwrap().contains("did you mean `github`"),
            "{e}"
        );
        let e = from_value(&cfg, "x.json", "github", &env, None).unwrap_err();
        assert_eq!(e.location.as_deref(), Some("/mcpServers/github/headers/A"));
        assert!(
            e.message.contains("${NOPE}") && !e.to_string().contains("ghp_secret"),
            "{e}"
        );
        let e = from_value(&cfg, "x.json", "files", &env, None).unwrap_err();
        assert!(e.message.contains("unknown key `comand`"), "{e}");
        assert!(from_value(&json!({}), "x.json", "a", &env, None).is_err());
    }
}
