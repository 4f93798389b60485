//! A scripted MCP-over-HTTP stub on 127.0.0.1 for the CLI's tests: a
//! well-behaved Streamable HTTP server (JSON and SSE answers, a session id,
//! a server-to-client ping, paging, `DELETE` on close, a bearer token), and
//! one misbehaviour per mode. Each connection is served by its own thread
//! and answered with `Connection: close`; what the stub saw is recorded.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Value};

/// The token the stub accepts (`Authorization: Bearer TOKEN`).
pub const TOKEN: &str = "s3cr3t-t0ken-value";

/// What the stub saw.
#[derive(Default)]
pub struct Seen {
    /// `METHOD path` and, for POSTs, the JSON-RPC method.
    pub requests: Vec<String>,
    /// Header lines (lowercased names) of every request.
    pub headers: Vec<Vec<(String, String)>>,
    /// Set when an endless stream's client went away.
    pub stream_closed: bool,
}

pub struct Stub {
    pub port: u16,
    pub seen: Arc<Mutex<Seen>>,
    stop: Arc<AtomicBool>,
}

impl Stub {
    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }
}

impl Drop for Stub {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

/// A port nothing listens on.
pub fn refused_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

/// Starts the stub in `mode`.
pub fn start(mode: &'static str) -> Stub {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let seen = Arc::new(Mutex::new(Seen::default()));
    let stop = Arc::new(AtomicBool::new(false));
    let (s, st) = (seen.clone(), stop.clone());
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            if st.load(Ordering::SeqCst) {
                return;
            }
            let Ok(conn) = conn else { continue };
            let s = s.clone();
            std::thread::spawn(move || {
                let _ = serve(conn, mode, port, &s);
            });
        }
    });
    Stub { port, seen, stop }
}

struct Req {
    method: String,
    path: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Req {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

fn read_req(conn: &TcpStream) -> std::io::Result<Req> {
    let mut r = BufReader::new(conn.try_clone()?);
    let mut line = String::new();
    r.read_line(&mut line)?;
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or("").to_string();
    let path = parts.next().unwrap_or("").to_string();
    let mut headers = vec![];
    loop {
        let mut h = String::new();
        r.read_line(&mut h)?;
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
    }
    let len: usize = headers
        .iter()
        .find(|(k, _)| k == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; len];
    r.read_exact(&mut body)?;
    Ok(Req {
        method,
        path,
        headers,
        body,
    })
}

fn respond(
    conn: &mut TcpStream,
    status: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> std::io::Result<()> {
    let mut head = format!(
        "HTTP/1.1 {status}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    let _ = conn.write_all(head.as_bytes());
    let _ = conn.write_all(body);
    Ok(())
}

fn json_reply(conn: &mut TcpStream, v: &Value, extra: &[(&str, &str)]) -> std::io::Result<()> {
    let mut h = vec![("Content-Type", "application/json")];
    h.extend_from_slice(extra);
    respond(conn, "200 OK", &h, v.to_string().as_bytes())
}

fn sse_head(conn: &mut TcpStream) {
    let _ = conn.write_all(
        b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n\r\n",
    );
}

fn result(id: &Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

fn serve(mut conn: TcpStream, mode: &str, port: u16, seen: &Mutex<Seen>) -> std::io::Result<()> {
    let req = read_req(&conn)?;
    let msg: Value = serde_json::from_slice(&req.body).unwrap_or(Value::Null);
    let rpc = msg
        .get("method")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    {
        let mut s = seen.lock().unwrap();
        s.requests.push(
            format!("{} {} {rpc}", req.method, req.path)
                .trim_end()
                .to_string(),
        );
        s.headers.push(req.headers.clone());
    }
    let id = msg.get("id").cloned().unwrap_or(Value::Null);
    match mode {
        "401" => {
            return respond(
                &mut conn,
                "401 Unauthorized",
                &[("WWW-Authenticate", "Bearer realm=\"mcp\"")],
                b"",
            );
        }
        "404" => return respond(&mut conn, "404 Not Found", &[], b"Cannot POST /mcp"),
        "500" => {
            return respond(
                &mut conn,
                "500 Internal Server Error",
                &[],
                b"database down",
            )
        }
        "not-mcp" => return json_reply(&mut conn, &json!({"hello": "world"}), &[]),
        "html" => {
            return respond(
                &mut conn,
                "200 OK",
                &[("Content-Type", "text/html")],
                b"<html>login</html>",
            )
        }
        "slow" => {
            std::thread::sleep(Duration::from_secs(5));
            return json_reply(&mut conn, &result(&id, json!({})), &[]);
        }
        "huge" => {
            // Announces and sends 4 MiB, in chunks, as long as the client reads.
            let size = 4 * 1024 * 1024;
            let _ = conn.write_all(format!("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {size}\r\n\r\n").as_bytes());
            let chunk = vec![b' '; 64 * 1024];
            for _ in 0..size / chunk.len() {
                if conn.write_all(&chunk).is_err() {
                    break;
                }
            }
            return Ok(());
        }
        "endless" => {
            sse_head(&mut conn);
            // Keep-alives forever, never the answer, until the client leaves.
            loop {
                if conn.write_all(b": keep-alive\n\n").is_err() {
                    seen.lock().unwrap().stream_closed = true;
                    return Ok(());
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        "redirect-other" => {
            return respond(
                &mut conn,
                "307 Temporary Redirect",
                &[("Location", "http://127.0.0.2:9/mcp")],
                b"",
            );
        }
        _ => {}
    }
    if mode == "stateless" {
        return serve_stateless(&mut conn, &req, &msg, &rpc, &id);
    }
    if mode == "redirect" && req.path == "/old" {
        return respond(
            &mut conn,
            "308 Permanent Redirect",
            &[("Location", "/mcp")],
            b"",
        );
    }
    // The well-behaved server ("ok", "redirect").
    if req.header("authorization") != Some(&format!("Bearer {TOKEN}")) {
        return respond(
            &mut conn,
            "401 Unauthorized",
            &[("WWW-Authenticate", "Bearer")],
            b"",
        );
    }
    let _ = port;
    if req.method == "DELETE" {
        return respond(&mut conn, "200 OK", &[], b"");
    }
    if rpc == "initialize" {
        return json_reply(
            &mut conn,
            &result(
                &id,
                json!({"protocolVersion": "2025-11-25",
                "capabilities": {"tools": {"listChanged": true}, "prompts": {}, "resources": {"subscribe": true}},
                "serverInfo": {"name": "http-stub", "version": "1.0.0"},
                "instructions": "Use add for sums."}),
            ),
            &[("Mcp-Session-Id", "sess-42")],
        );
    }
    if rpc == "server/discover" {
        // A 2025-11-25 server without a session: the SDKs answer 400.
        return respond(&mut conn, "400 Bad Request", &[("Content-Type", "application/json")],
            json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32000, "message": "Bad Request: No valid session ID provided"}}).to_string().as_bytes());
    }
    if req.header("mcp-session-id") != Some("sess-42")
        || req.header("mcp-protocol-version") != Some("2025-11-25")
    {
        return respond(
            &mut conn,
            "400 Bad Request",
            &[],
            b"missing session or protocol version header",
        );
    }
    if msg.get("id").is_none() || msg.get("method").is_none() {
        // A notification, or our answer to the ping.
        return respond(&mut conn, "202 Accepted", &[], b"");
    }
    let cursor = msg.pointer("/params/cursor").and_then(Value::as_str);
    match rpc.as_str() {
        "tools/list" => {
            // Over SSE, after a ping and a notification.
            sse_head(&mut conn);
            let events = [
                json!({"jsonrpc": "2.0", "id": "srv-1", "method": "ping"}),
                json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "hi"}}),
                result(
                    &id,
                    json!({"tools": [{"name": "add", "inputSchema": {"type": "object", "properties": {"a": {"type": "number", "x-mcp-header": "A"}}}}], "ttlMs": 5}),
                ),
            ];
            for e in events {
                conn.write_all(format!(": comment\nevent: message\ndata: {e}\n\n").as_bytes())?;
            }
            Ok(())
        }
        "prompts/list" => json_reply(
            &mut conn,
            &result(
                &id,
                json!({"prompts": [{"name": "sum", "arguments": [{"name": "numbers", "required": true}]}]}),
            ),
            &[],
        ),
        "resources/list" => {
            let page = match cursor {
                None => {
                    json!({"resources": [{"uri": "mem://a", "name": "a", "mimeType": "text/plain", "size": 10}], "nextCursor": "2"})
                }
                Some(_) => {
                    json!({"resources": [{"uri": "mem://b", "name": "b", "mimeType": "application/json"}]})
                }
            };
            json_reply(&mut conn, &result(&id, page), &[])
        }
        "resources/templates/list" => json_reply(
            &mut conn,
            &result(
                &id,
                json!({"resourceTemplates": [{"uriTemplate": "mem://{key}", "name": "by key"}]}),
            ),
            &[],
        ),
        _ => json_reply(
            &mut conn,
            &json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "Method not found"}}),
            &[],
        ),
    }
}

/// MCP 2026-07-28: no session; every POST names its revision and method in
/// headers, `tools/call` its tool, and mirrored arguments in `Mcp-Param-*`.
fn serve_stateless(
    conn: &mut TcpStream,
    req: &Req,
    msg: &Value,
    rpc: &str,
    id: &Value,
) -> std::io::Result<()> {
    let meta_ok = msg.pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion")
        == Some(&json!("2026-07-28"));
    if req.header("mcp-protocol-version") != Some("2026-07-28")
        || req.header("mcp-method") != Some(rpc)
        || !meta_ok
    {
        return respond(
            conn,
            "400 Bad Request",
            &[],
            b"missing 2026-07-28 headers or _meta",
        );
    }
    match rpc {
        "server/discover" => json_reply(
            conn,
            &result(
                id,
                json!({"resultType": "complete",
            "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}},
            "serverInfo": {"name": "stateless-stub", "version": "3.0.0"}, "instructions": "Stateless.", "ttlMs": 1000, "cacheScope": "public"}),
            ),
            &[],
        ),
        "tools/list" => json_reply(
            conn,
            &result(
                id,
                json!({"resultType": "complete", "ttlMs": 5, "tools": [{"name": "add",
            "inputSchema": {"type": "object", "properties": {"a": {"type": "integer", "x-mcp-header": "A"}}}}]}),
            ),
            &[],
        ),
        "tools/call" => {
            let a = msg.pointer("/params/arguments/a").map(|v| v.to_string());
            if req.header("mcp-name") != Some("add") || req.header("mcp-param-a") != a.as_deref() {
                return json_reply(
                    conn,
                    &json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32602, "message": "Mcp-Name or Mcp-Param-A does not match the body"}}),
                    &[],
                );
            }
            json_reply(
                conn,
                &result(
                    id,
                    json!({"resultType": "complete", "content": [{"type": "text", "text": "ok"}], "structuredContent": {"sum": 2}}),
                ),
                &[],
            )
        }
        _ => json_reply(
            conn,
            &json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "Method not found"}}),
            &[],
        ),
    }
}
