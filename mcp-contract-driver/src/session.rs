//! The MCP lifecycle on top of a JSON-RPC link, in either protocol era:
//!
//! - **2026-07-28 (stateless)**: `server/discover` tells the supported
//!   revisions, capabilities and instructions; there is no handshake, and
//!   every request carries the revision and the client's capabilities in
//!   `_meta`.
//! - **2025-11-25 (and earlier)**: `initialize`, then
//!   `notifications/initialized`, then requests.
//!
//! With [`Protocol::Auto`] the session asks `server/discover` first and
//! falls back to `initialize` when the server does not speak 2026-07-28
//! (an error answer, no answer, or a stdio server that exits on the unknown
//! method: it is started again). Over stdio a server that has not answered
//! `server/discover` within [`DISCOVER_PROBE`] (slow to start, or ignoring
//! unknown methods) is sent `initialize` too; the first useful answer
//! decides, within one timeout, instead of a full timeout per attempt. Over HTTP, a first POST refused with 400,
//! 404 or 405 falls back to the legacy HTTP+SSE transport. The revision
//! spoken is recorded in the lockfile's `server` section.
//!
//! The client declares no optional capabilities (no `roots`, `sampling` or
//! `elicitation`: the same as rmcp's `ClientCapabilities::default()`),
//! because a contract tool can neither sample a model nor ask a person;
//! tools that a server publishes only to clients with those capabilities
//! are therefore not part of the capture.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use mcp_contract::fixtures::CallOutcome;
use mcp_contract::load::entries::{server_from_map, ListKind};
use serde_json::{json, Map, Value};

use crate::endpoint::{Endpoint, HttpTransport};
use crate::error::{DriverError, ErrorKind};
use crate::link::Link;
use crate::process::ServerProcess;
use crate::rpc::{Connection, Reply};

/// The handshake revision the client asks for in `initialize`; servers
/// answer with the one they speak.
pub const PROTOCOL_VERSION: &str = PROTOCOL_2025;
/// The last revision with the `initialize` handshake.
pub const PROTOCOL_2025: &str = "2025-11-25";
/// The stateless revision (`server/discover`, `_meta` on every request).
pub const PROTOCOL_2026: &str = "2026-07-28";

/// The default wait for each response.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
/// How long `server/discover` alone is waited for over stdio before
/// `initialize` is sent beside it (see [`Session::start`]).
pub const DISCOVER_PROBE: Duration = Duration::from_secs(1);

/// The default limit on one answer (an HTTP body, an SSE event stream).
pub const DEFAULT_MAX_RESPONSE: u64 = 16 * 1024 * 1024;

/// More pages than this is a cursor that never ends.
const MAX_PAGES: usize = 10_000;

/// Which protocol revision to speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Protocol {
    /// 2026-07-28 when the server supports it, else 2025-11-25.
    #[default]
    Auto,
    /// Only the `initialize` handshake (2025-11-25 and earlier).
    Handshake,
    /// Only 2026-07-28 (`server/discover`).
    Stateless,
}

impl Protocol {
    pub const NAMES: &'static [&'static str] = &["auto", PROTOCOL_2025, PROTOCOL_2026];

    pub fn parse(s: &str) -> Option<Protocol> {
        match s {
            "auto" => Some(Protocol::Auto),
            PROTOCOL_2025 => Some(Protocol::Handshake),
            PROTOCOL_2026 => Some(Protocol::Stateless),
            _ => None,
        }
    }
}

/// The most `tools/list` text (all pages together) a surface may take: with
/// [`crate::process::MAX_LINE_BYTES`] per page, what a capture holds stays
/// bounded however many pages a server sends.
pub const MAX_SURFACE_BYTES: u64 = 32 * 1024 * 1024;

/// How to drive the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// The longest wait for any one response (the first includes start-up).
    pub timeout: Duration,
    /// The largest answer accepted over HTTP (bytes).
    pub max_response: u64,
    pub protocol: Protocol,
}

impl Options {
    /// Default options with another timeout.
    pub fn with_timeout(timeout: Duration) -> Self {
        Options {
            timeout,
            ..Options::default()
        }
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            timeout: DEFAULT_TIMEOUT,
            max_response: DEFAULT_MAX_RESPONSE,
            protocol: Protocol::Auto,
        }
    }
}

/// What the server said about itself.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerInfo {
    /// `serverInfo.name` and `serverInfo.version`, when given.
    pub name: Option<String>,
    pub version: Option<String>,
    /// The protocol revision spoken.
    pub protocol_version: String,
}

/// Every item of every page of one list method, verbatim.
#[derive(Debug, Clone, PartialEq)]
pub struct Pages {
    pub items: Vec<Value>,
    pub pages: usize,
}

/// Every tool of every `tools/list` page, verbatim.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolPages {
    pub tools: Vec<Value>,
    pub pages: usize,
}

/// A session with a server.
pub struct Session {
    link: Box<dyn Link>,
    next_id: i64,
    stateless: bool,
    pub server: ServerInfo,
    /// The lockfile's `server` section: revision, capabilities, instructions.
    pub section: mcp_contract::model::ServerInfo,
    /// How the server was reached (for messages and errors).
    pub endpoint: String,
    /// Per tool, the arguments its `inputSchema` mirrors into `Mcp-Param-*`
    /// headers (`x-mcp-header`, 2026-07-28), from the last `tools/list`.
    param_headers: std::collections::BTreeMap<String, Vec<(String, String)>>,
}

/// Opens a link to `endpoint`, always through the redacting link
/// ([`crate::redact`]): nothing the server says reaches the session with an
/// expanded secret in it.
fn open(endpoint: &Endpoint, options: &Options) -> Result<Box<dyn Link>, DriverError> {
    crate::redact::wrap(endpoint.secrets(), || match endpoint {
        Endpoint::Command(cmd) => {
            let process = ServerProcess::spawn(cmd)?;
            Ok(Box::new(Connection::new(process, options.timeout)) as Box<dyn Link>)
        }
        Endpoint::Http(h) => crate::http::open(h, options.timeout, options.max_response),
    })
}

fn client_info() -> Value {
    json!({"name": "mcp-contract", "version": env!("CARGO_PKG_VERSION")})
}

impl Session {
    /// Connects (or starts the server) and negotiates the protocol.
    pub fn start(endpoint: impl Into<Endpoint>, options: &Options) -> Result<Session, DriverError> {
        let endpoint: Endpoint = endpoint.into();
        let link = open(&endpoint, options)?;
        let mut s = Session {
            link,
            next_id: 1,
            stateless: false,
            server: ServerInfo {
                name: None,
                version: None,
                protocol_version: String::new(),
            },
            section: Default::default(),
            endpoint: endpoint.to_string(),
            param_headers: Default::default(),
        };
        if options.protocol != Protocol::Handshake {
            let negotiated = if options.protocol == Protocol::Auto && s.link.pipelines() {
                s.probe()
            } else {
                s.discover()
            };
            match negotiated {
                Ok(Ok(())) => return Ok(s),
                Ok(Err(kind)) if options.protocol == Protocol::Stateless => {
                    return Err(s.link.fail(kind))
                }
                Ok(Err(_)) => {}
                Err(e) if options.protocol == Protocol::Stateless => return Err(e),
                Err(e) => {
                    let give_up = match e.kind.as_ref() {
                        // Not answering at all, or not speaking JSON-RPC, is
                        // not a matter of revision: report it as it is.
                        ErrorKind::Spawn { .. }
                        | ErrorKind::Connect { .. }
                        | ErrorKind::Garbage { .. }
                        | ErrorKind::Timeout { .. }
                        | ErrorKind::TooLarge { .. } => true,
                        ErrorKind::Http { status, .. } => matches!(status, 401 | 403),
                        _ => false,
                    };
                    if give_up {
                        return Err(e);
                    }
                    if !s.link.usable() {
                        // A stdio server that exits on a method it does not know.
                        let old = std::mem::replace(&mut s.link, open(&endpoint, options)?);
                        old.close();
                        s.next_id = 1;
                    }
                }
            }
        }
        match s.initialize() {
            Ok(()) => Ok(s),
            Err(e) => {
                let legacy = match (&endpoint, e.kind.as_ref()) {
                    (Endpoint::Http(h), ErrorKind::Http { status, .. }) => {
                        h.transport == HttpTransport::Auto && matches!(status, 400 | 404 | 405)
                    }
                    _ => false,
                };
                if !legacy {
                    return Err(e);
                }
                let Endpoint::Http(h) = &endpoint else {
                    return Err(e);
                };
                let link = crate::redact::wrap(&h.secrets, || {
                    crate::http::open_legacy(h, options.timeout, options.max_response)
                })?;
                std::mem::replace(&mut s.link, link).close();
                s.next_id = 1;
                s.initialize()?;
                Ok(s)
            }
        }
    }

    /// `server/discover` (2026-07-28). `Ok(Err(kind))` when the server
    /// answered but does not speak 2026-07-28 (the link stays usable, for
    /// the fallback); `Err` when the link itself failed.
    fn discover(&mut self) -> Result<Result<(), ErrorKind>, DriverError> {
        let (id, msg) = self.discover_message();
        let reply = self.link.exchange(id, "server/discover", &msg)?;
        self.discover_answer(reply)
    }

    /// Over stdio, without a forced revision: `server/discover`, and when
    /// it is not answered within [`DISCOVER_PROBE`] (a slow start, or a
    /// server that ignores methods it does not know), `initialize` too, on
    /// the same connection; the first useful answer decides, and the whole
    /// wait stays within one timeout. A `server/discover` answer that says
    /// 2026-07-28 wins (it is waited for up to [`DISCOVER_PROBE`] after an
    /// `initialize` answer), so a server speaking both is always recorded
    /// the same way. `Ok(Ok(()))`: the session is ready (either way);
    /// `Ok(Err(kind))`: discover answered "not 2026" before the probe
    /// ended, `initialize` has not been sent.
    fn probe(&mut self) -> Result<Result<(), ErrorKind>, DriverError> {
        let started = Instant::now();
        let timeout = self.link.timeout();
        let deadline = started + timeout;
        let (discover_id, msg) = self.discover_message();
        let conn = &mut self.link;
        conn.send_request(&msg, "server/discover")?;
        let probe_end = started + DISCOVER_PROBE.min(timeout);
        if let Some((_, reply)) = conn.wait_reply(&[discover_id], "server/discover", probe_end)? {
            return self.discover_answer(reply);
        }
        let (init_id, init) = self.initialize_message();
        let conn = &mut self.link;
        conn.send_request(&init, "initialize")?;
        let Some((id, reply)) =
            conn.wait_reply(&[discover_id, init_id], "server/discover", deadline)?
        else {
            return Err(self.timed_out("server/discover", timeout));
        };
        let init_reply = if id == discover_id {
            if self.discover_answer(reply)?.is_ok() {
                // 2026-07-28; the `initialize` answer, if any, is skipped
                return Ok(Ok(()));
            }
            let conn = &mut self.link;
            match conn.wait_reply(&[init_id], "initialize", deadline)? {
                Some((_, reply)) => reply,
                None => return Err(self.timed_out("initialize", timeout)),
            }
        } else {
            let grace = (Instant::now() + DISCOVER_PROBE).min(deadline);
            let conn = &mut self.link;
            if let Some((_, discovered)) =
                conn.wait_reply(&[discover_id], "server/discover", grace)?
            {
                if self.discover_answer(discovered)?.is_ok() {
                    return Ok(Ok(()));
                }
            }
            reply
        };
        self.initialized(init_reply)?;
        Ok(Ok(()))
    }

    fn timed_out(&mut self, waiting_for: &str, timeout: Duration) -> DriverError {
        self.link.fail(ErrorKind::Timeout {
            waiting_for: waiting_for.to_string(),
            secs: timeout.as_secs_f64(),
        })
    }

    /// The `server/discover` request, with the 2026-07-28 `_meta`.
    fn discover_message(&mut self) -> (i64, Value) {
        self.stateless = true;
        self.link.set_protocol_version(PROTOCOL_2026);
        let message = self.message("server/discover", json!({}));
        self.stateless = false;
        message
    }

    /// Reads the `server/discover` answer (see [`Session::discover`]).
    fn discover_answer(&mut self, reply: Reply) -> Result<Result<(), ErrorKind>, DriverError> {
        let result = match reply {
            Reply::Result(r) => r,
            Reply::Error { code, message, .. } => {
                return Ok(Err(ErrorKind::JsonRpc {
                    method: "server/discover".into(),
                    code,
                    message,
                }))
            }
        };
        let not_2026 = |message: String| {
            Ok(Err(ErrorKind::Protocol {
                during: "server/discover".into(),
                message,
            }))
        };
        let supported = result
            .get("supportedVersions")
            .and_then(Value::as_array)
            .is_some_and(|v| v.iter().any(|x| x == PROTOCOL_2026));
        let Value::Object(mut m) = result else {
            return not_2026("the result is not an object".into());
        };
        if !supported {
            return not_2026(format!("`supportedVersions` does not list {PROTOCOL_2026}"));
        }
        self.stateless = true;
        self.set_server_info(&m, PROTOCOL_2026);
        for key in ["resultType", "ttlMs", "cacheScope", "_meta"] {
            m.remove(key);
        }
        m.insert("protocolVersion".into(), Value::from(PROTOCOL_2026));
        self.section = self.section_from(m, "server/discover")?;
        Ok(Ok(()))
    }

    /// The `initialize` handshake (2025-11-25 and earlier).
    fn initialize(&mut self) -> Result<(), DriverError> {
        let (id, msg) = self.initialize_message();
        let reply = self.link.exchange(id, "initialize", &msg)?;
        self.initialized(reply)
    }

    fn initialize_message(&mut self) -> (i64, Value) {
        self.stateless = false;
        self.message(
            "initialize",
            json!({
                "protocolVersion": PROTOCOL_2025,
                "capabilities": {},
                "clientInfo": client_info(),
            }),
        )
    }

    /// Completes the handshake from the `initialize` answer.
    fn initialized(&mut self, reply: Reply) -> Result<(), DriverError> {
        self.stateless = false;
        let init = match reply {
            Reply::Result(v) => v,
            Reply::Error { code, message, .. } => {
                return Err(self.link.fail(ErrorKind::JsonRpc {
                    method: "initialize".into(),
                    code,
                    message,
                }))
            }
        };
        let Some(version) = init
            .get("protocolVersion")
            .and_then(Value::as_str)
            .map(str::to_string)
        else {
            return Err(self.protocol("initialize", "the result has no string `protocolVersion`"));
        };
        let Value::Object(mut m) = init else {
            return Err(self.protocol("initialize", "the result is not an object"));
        };
        self.set_server_info(&m, &version);
        m.remove("_meta");
        self.section = self.section_from(m, "initialize")?;
        self.link.set_protocol_version(&version);
        let msg = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        self.link.notify("notifications/initialized", &msg)?;
        Ok(())
    }

    fn set_server_info(&mut self, m: &Map<String, Value>, version: &str) {
        let info = m.get("serverInfo");
        let text = |key: &str| {
            info.and_then(|i| i.get(key))
                .and_then(Value::as_str)
                .map(str::to_string)
        };
        self.server = ServerInfo {
            name: text("name"),
            version: text("version"),
            protocol_version: version.to_string(),
        };
    }

    fn section_from(
        &mut self,
        m: Map<String, Value>,
        during: &str,
    ) -> Result<mcp_contract::model::ServerInfo, DriverError> {
        let file = format!("{during} result of `{}`", self.endpoint);
        server_from_map(m, &file, "").map_err(|e| self.link.fail(ErrorKind::Surface(e)))
    }

    /// The revision spoken.
    pub fn protocol_version(&self) -> &str {
        &self.server.protocol_version
    }

    /// Sends a request (with the 2026-07-28 `_meta` when stateless) and
    /// waits for its reply, error replies included.
    pub fn request(&mut self, method: &str, params: Value) -> Result<Reply, DriverError> {
        let (id, msg) = self.message(method, params);
        self.link.exchange(id, method, &msg)
    }

    /// The next request (its id and message), with the 2026-07-28 `_meta`
    /// when stateless.
    fn message(&mut self, method: &str, mut params: Value) -> (i64, Value) {
        let id = self.next_id;
        self.next_id += 1;
        if self.stateless {
            if let Value::Object(p) = &mut params {
                let meta = p.entry("_meta").or_insert_with(|| json!({}));
                if let Value::Object(meta) = meta {
                    meta.insert(
                        "io.modelcontextprotocol/protocolVersion".into(),
                        Value::from(PROTOCOL_2026),
                    );
                    meta.insert(
                        "io.modelcontextprotocol/clientCapabilities".into(),
                        json!({}),
                    );
                    meta.insert("io.modelcontextprotocol/clientInfo".into(), client_info());
                }
            }
        }
        let msg = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        (id, msg)
    }

    /// Like [`Session::request`]; a JSON-RPC error is an [`ErrorKind::JsonRpc`] error.
    pub fn call(&mut self, method: &str, params: Value) -> Result<Value, DriverError> {
        match self.request(method, params)? {
            Reply::Result(v) => Ok(v),
            Reply::Error { code, message, .. } => Err(self.link.fail(ErrorKind::JsonRpc {
                method: method.to_string(),
                code,
                message,
            })),
        }
    }

    /// Reads every page of `method`, collecting the `key` arrays and
    /// following `nextCursor`.
    pub fn list_all(&mut self, method: &str, key: &str) -> Result<Pages, DriverError> {
        let mut items = vec![];
        let mut seen = BTreeSet::new();
        let mut cursor: Option<String> = None;
        let mut received: u64 = 0;
        for pages in 1..=MAX_PAGES {
            let params = match &cursor {
                Some(c) => json!({ "cursor": c }),
                None => json!({}),
            };
            let result = self.call(method, params)?;
            let Some(page) = result.get(key).and_then(Value::as_array) else {
                return Err(self.protocol(method, &format!("the result has no `{key}` array")));
            };
            items.extend(page.iter().cloned());
            received += result.to_string().len() as u64;
            if received > MAX_SURFACE_BYTES {
                return Err(self.protocol(
                    method,
                    &format!(
                        "the {method} pages add up to more than {} MiB after {pages} pages; this client holds at most that much of a surface",
                        MAX_SURFACE_BYTES >> 20
                    ),
                ));
            }
            match result.get("nextCursor") {
                None | Some(Value::Null) => return Ok(Pages { items, pages }),
                Some(Value::String(next)) => {
                    if !seen.insert(next.clone()) {
                        return Err(self.protocol(
                            method,
                            &format!("`nextCursor` {next:?} was already returned (a paging loop)"),
                        ));
                    }
                    cursor = Some(next.clone());
                }
                Some(other) => {
                    return Err(self.protocol(
                        method,
                        &format!("`nextCursor` must be a string, not {other}"),
                    ))
                }
            }
        }
        Err(self.protocol(
            method,
            &format!("more than {MAX_PAGES} pages: `nextCursor` never ends"),
        ))
    }

    /// Reads every page of `tools/list`.
    pub fn list_tools(&mut self) -> Result<ToolPages, DriverError> {
        let p = self.list_all("tools/list", "tools")?;
        self.param_headers = p
            .items
            .iter()
            .filter_map(|t| {
                let name = t.get("name")?.as_str()?.to_string();
                let bindings = crate::params::bindings(t.get("inputSchema")?);
                (!bindings.is_empty()).then_some((name, bindings))
            })
            .collect();
        Ok(ToolPages {
            tools: p.items,
            pages: p.pages,
        })
    }

    /// Reads every page of a prompts or resources list, when the server
    /// declares the capability (`prompts`, `resources`); `None` when it
    /// does not, since the method may then not exist.
    pub fn list_declared(&mut self, kind: ListKind) -> Result<Option<Pages>, DriverError> {
        let capability = match kind {
            ListKind::Prompts => "prompts",
            ListKind::Resources | ListKind::ResourceTemplates => "resources",
        };
        if !self.section.has_capability(&[capability]) {
            return Ok(None);
        }
        match self.list_all(kind.method(), kind.key()) {
            Ok(p) => Ok(Some(p)),
            // Templates are optional even for servers with resources.
            Err(e)
                if kind == ListKind::ResourceTemplates
                    && matches!(e.kind.as_ref(), ErrorKind::JsonRpc { code: -32601, .. }) =>
            {
                Ok(Some(Pages {
                    items: vec![],
                    pages: 0,
                }))
            }
            Err(e) => Err(e),
        }
    }

    /// Calls a tool. A JSON-RPC error is an outcome, not a failure.
    pub fn call_tool(
        &mut self,
        name: &str,
        arguments: &Map<String, Value>,
    ) -> Result<CallOutcome, DriverError> {
        let params = json!({"name": name, "arguments": arguments});
        if self.stateless {
            if let Some(bindings) = self.param_headers.get(name) {
                let headers = crate::params::headers(bindings, arguments);
                self.link.next_request_headers(headers);
            }
        }
        match self.request("tools/call", params)? {
            Reply::Result(v) if v.is_object() => Ok(CallOutcome::Result(v)),
            Reply::Result(v) => Err(self.protocol(
                "tools/call",
                &format!("the result must be an object, not {v}"),
            )),
            Reply::Error {
                code,
                message,
                data,
            } => Ok(CallOutcome::JsonRpcError {
                code,
                message,
                data,
            }),
        }
    }

    /// The server's process id (0 for a server reached over HTTP).
    pub fn server_pid(&mut self) -> u32 {
        self.link.pid().unwrap_or(0)
    }

    /// What the server wrote to stderr so far (stdio only).
    pub fn stderr_tail(&mut self) -> String {
        self.link.stderr_tail()
    }

    /// An error of `kind` with what the link knows.
    pub fn fail(&mut self, kind: ErrorKind) -> DriverError {
        self.link.fail(kind)
    }

    /// Ends the session: stops the server and reaps it (stdio), or ends the
    /// HTTP session (`DELETE`).
    pub fn close(self) {
        self.link.close();
    }

    fn protocol(&mut self, during: &str, message: &str) -> DriverError {
        self.link.fail(ErrorKind::Protocol {
            during: during.into(),
            message: message.into(),
        })
    }
}
