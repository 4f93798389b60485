//! One incoming JSON-RPC message, whatever carried it (a stdio line, an HTTP
//! body, an SSE event): the reply to the request we are waiting for, a
//! request from the server that we must answer (`ping` with an empty result,
//! anything else with "method not found", since this client declares no
//! capabilities), or something to skip (notifications, replies to other
//! ids). Anything else is not JSON-RPC.

use serde_json::{json, Value};

use crate::rpc::{Reply, METHOD_NOT_FOUND};

/// What an incoming message is.
#[derive(Debug, Clone, PartialEq)]
pub enum Incoming {
    /// The answer to the request with our id.
    Reply(Reply),
    /// A request from the server; send this answer back.
    Answer(Value),
    /// A notification, or an answer to some other id.
    Skip,
    /// Not a JSON-RPC 2.0 message.
    NotJsonRpc,
    /// A JSON-RPC error object without an integer `code` or string `message`.
    MalformedError(Value),
}

/// Classifies `message` while waiting for the reply to `id`.
pub fn classify(message: &Value, id: i64) -> Incoming {
    let Some(m) = message
        .as_object()
        .filter(|m| m.get("jsonrpc") == Some(&json!("2.0")))
    else {
        return Incoming::NotJsonRpc;
    };
    if let Some(Value::String(request)) = m.get("method") {
        return match m.get("id") {
            Some(req_id) => Incoming::Answer(answer(request, req_id)),
            None => Incoming::Skip,
        };
    }
    let answers_us = m.get("id").and_then(Value::as_i64) == Some(id);
    if let Some(result) = m.get("result") {
        return if answers_us {
            Incoming::Reply(Reply::Result(result.clone()))
        } else {
            Incoming::Skip
        };
    }
    if let Some(error) = m.get("error") {
        if !answers_us {
            return Incoming::Skip;
        }
        let code = error.get("code").and_then(Value::as_i64);
        let message = error.get("message").and_then(Value::as_str);
        return match (code, message) {
            (Some(code), Some(message)) => Incoming::Reply(Reply::Error {
                code,
                message: message.to_string(),
                data: error.get("data").cloned(),
            }),
            _ => Incoming::MalformedError(error.clone()),
        };
    }
    Incoming::NotJsonRpc
}

/// This client's answer to a server request.
pub fn answer(request: &str, req_id: &Value) -> Value {
    if request == "ping" {
        json!({"jsonrpc": "2.0", "id": req_id, "result": {}})
    } else {
        json!({"jsonrpc": "2.0", "id": req_id, "error": {
            "code": METHOD_NOT_FOUND,
            "message": format!("method not found: this client (mcp-contract) declares no client capabilities and cannot answer `{request}`"),
        }})
    }
}

/// Up to 200 characters of `bytes`, quoted, for error messages.
pub fn shown(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut s: String = text.chars().take(200).collect();
    if text.chars().count() > 200 {
        s.push('…');
    }
    format!("{s:?}")
}
