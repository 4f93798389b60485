//! `Mcp-Param-*` headers (MCP 2026-07-28, Streamable HTTP): a tool argument
//! whose property carries `x-mcp-header: NAME` is mirrored into the header
//! `Mcp-Param-NAME` of each `tools/call`, so intermediaries can route on it
//! without reading the body. Values are strings, numbers or booleans;
//! anything that is not plain visible ASCII without surrounding spaces is
//! sent as `=?base64?...?=`. Absent arguments send no header.

use serde_json::{Map, Value};

/// (argument pointer into the arguments object, header name) per mirrored
/// property of `input_schema` (through `properties` chains only).
pub fn bindings(input_schema: &Value) -> Vec<(String, String)> {
    mcp_contract::diff::headers::headers(input_schema)
        .into_iter()
        .map(|(schema_ptr, name)| (schema_ptr.replace("/properties/", "/"), name))
        .collect()
}

/// The headers for a call with `arguments`.
pub fn headers(
    bindings: &[(String, String)],
    arguments: &Map<String, Value>,
) -> Vec<(String, String)> {
    let args = Value::Object(arguments.clone());
    bindings
        .iter()
        .filter_map(|(ptr, name)| {
            let text = match args.pointer(ptr)? {
                Value::String(s) => s.clone(),
                Value::Number(n) => n.to_string(),
                Value::Bool(b) => b.to_string(),
                _ => return None,
            };
            Some((
                format!("mcp-param-{}", name.to_ascii_lowercase()),
                encode(&text),
            ))
        })
        .collect()
}

/// The header value for `text`.
pub fn encode(text: &str) -> String {
    let plain = text
        .bytes()
        .all(|b| b == b'\t' || (0x20..0x7f).contains(&b))
        && text.trim() == text
        && !(text.starts_with("=?base64?") && text.ends_with("?="));
    if plain {
        text.to_string()
    } else {
        format!("=?base64?{}?=", base64(text.as_bytes()))
    }
}

fn base64(bytes: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, b)| acc | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(T[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn mirrors_marked_arguments_and_encodes_what_headers_cannot_carry() {
        let schema = json!({"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "opts": {"type": "object", "properties": {"tier": {"type": "integer", "x-mcp-header": "Tier"}}},
            "query": {"type": "string"}}});
        let b = bindings(&schema);
        let args = json!({"region": "us-west1", "opts": {"tier": 3}, "query": "x"});
        let h = headers(&b, args.as_object().unwrap());
        assert_eq!(
            h,
            [
                ("mcp-param-tier".to_string(), "3".to_string()),
                ("mcp-param-region".to_string(), "us-west1".to_string())
            ]
        );
        assert_eq!(encode("Zürich"), "=?base64?WsO8cmljaA==?=");
        assert_eq!(encode(" padded"), "=?base64?IHBhZGRlZA==?=");
        assert_eq!(base64(b"ab"), "YWI=");
        assert!(headers(&b, json!({}).as_object().unwrap()).is_empty());
    }
}
