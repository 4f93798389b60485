//! Contract fixtures: recorded tool calls with the outcome a client relies on.
//!
//! A lockfile says what a server publishes; a fixture says what one call does.
//! `cargo mcp-contract replay --server` sends them to a live server, and the
//! runtime compatibility layer checks its legacy calls against them, so both
//! read the same files through this module.
//!
//! # Layout
//!
//! `contracts/fixtures/<tool>/<name>.json`: one directory per tool (the
//! directory name is the tool name), one JSON file per call. Files that do not
//! end in `.json` (a README, say) and hidden entries are ignored.
//!
//! # Format
//!
//! ```json
//! {
//!   "description": "legacy call that still uses the old field name",
//!   "safe": true,
//!   "arguments": {"query": "rust"},
//!   "expect": {
//!     "outcome": "success",
//!     "fields": {"items": "array", "total": "integer", "/page/next": "string|null"}
//!   }
//! }
//! ```
//!
//! - `description` (string, optional): why the fixture exists.
//! - `safe` (boolean, optional, default `false`): only fixtures marked
//!   `"safe": true` are sent to a live server. Mark a call safe only when it
//!   has no effect outside an isolated test instance.
//! - `arguments` (object, optional, default `{}`): the `arguments` of the
//!   `tools/call` request.
//! - `expect` (object, required):
//!   - `outcome` (required): `"success"` (a result without `isError: true`),
//!     `"tool_error"` (a result with `isError: true`) or `"jsonrpc_error"`
//!     (a JSON-RPC error response).
//!   - `fields` (object, optional, not with `jsonrpc_error`): result fields that
//!     must be present with the given JSON type. A key is a top-level property
//!     name, or a JSON pointer starting with `/` for a nested one. A type is one
//!     of `string`, `number`, `integer`, `boolean`, `array`, `object`, `null`,
//!     or several joined by `|`. `number` accepts integers. The fields are
//!     read from `structuredContent`, or else from the first text content item
//!     when that text is a JSON object.
//!   - `error_code` (optional, not with `success`): for `tool_error`, a string
//!     that must equal `structuredContent.error_code`; for `jsonrpc_error`, an
//!     integer that must equal `error.code`.
//! - Keys starting with `x-` are extensions, kept verbatim in
//!   [`Fixture::extensions`] for tools that need more (for example an expected
//!   normalized call); any other unknown key is an error, so a typo such as
//!   `"saf": true` cannot silently turn a fixture off.
//! - `x-review` ([`REVIEW_KEY`]): written by `check --write-fixtures` when
//!   the witness filled `arguments` with placeholder values (`""`, `[]`,
//!   `{}`) a real handler usually rejects; `placeholders` lists their JSON
//!   pointers. A fixture that still carries it is never sent
//!   ([`Fixture::needs_review`]): replace the values, then delete the key.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::error::InputError;
use crate::load;
use crate::lockfile::escape_pointer;

/// Where fixtures live, relative to the package root.
pub const DEFAULT_DIR: &str = "contracts/fixtures";

/// The extension listing placeholder values still to be replaced.
pub const REVIEW_KEY: &str = "x-review";

const TOP_KEYS: &[&str] = &["description", "safe", "arguments", "expect"];
const EXPECT_KEYS: &[&str] = &["outcome", "fields", "error_code"];

/// One recorded call and the outcome it must have.
#[derive(Debug, Clone, PartialEq)]
pub struct Fixture {
    /// The tool to call (the fixture's directory name).
    pub tool: String,
    /// The file the fixture was read from.
    pub file: PathBuf,
    pub description: Option<String>,
    /// Only safe fixtures are sent to a live server.
    pub safe: bool,
    pub arguments: Map<String, Value>,
    pub expect: Expectation,
    /// `x-*` keys, verbatim.
    pub extensions: BTreeMap<String, Value>,
}

impl Fixture {
    /// `Some` (the JSON pointers it lists, possibly none) while the fixture
    /// carries [`REVIEW_KEY`]: its arguments still hold placeholders.
    pub fn needs_review(&self) -> Option<Vec<String>> {
        let note = self.extensions.get(REVIEW_KEY)?;
        Some(
            note.get("placeholders")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|p| p.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default(),
        )
    }
}

/// The outcome a fixture expects.
#[derive(Debug, Clone, PartialEq)]
pub struct Expectation {
    pub outcome: Outcome,
    /// Field (property name or JSON pointer) -> accepted JSON types.
    pub fields: BTreeMap<String, Vec<JsonType>>,
    pub error_code: Option<ErrorCode>,
}

/// The class of a call's outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// A result without `isError: true`.
    Success,
    /// A result with `isError: true`: the tool ran (or refused) and said why.
    ToolError,
    /// A JSON-RPC error response: the call was not accepted as a tool call.
    JsonRpcError,
}

impl Outcome {
    pub const ALL: [Outcome; 3] = [Outcome::Success, Outcome::ToolError, Outcome::JsonRpcError];

    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Success => "success",
            Outcome::ToolError => "tool_error",
            Outcome::JsonRpcError => "jsonrpc_error",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The expected error code: a tool error's `structuredContent.error_code`, or
/// a JSON-RPC error's `code`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorCode {
    Text(String),
    Number(i64),
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorCode::Text(s) => write!(f, "\"{s}\""),
            ErrorCode::Number(n) => write!(f, "{n}"),
        }
    }
}

/// A JSON type name as used in `expect.fields`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum JsonType {
    String,
    Number,
    Integer,
    Boolean,
    Array,
    Object,
    Null,
}

impl JsonType {
    pub const ALL: [JsonType; 7] = [
        JsonType::String,
        JsonType::Number,
        JsonType::Integer,
        JsonType::Boolean,
        JsonType::Array,
        JsonType::Object,
        JsonType::Null,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            JsonType::String => "string",
            JsonType::Number => "number",
            JsonType::Integer => "integer",
            JsonType::Boolean => "boolean",
            JsonType::Array => "array",
            JsonType::Object => "object",
            JsonType::Null => "null",
        }
    }

    fn parse(s: &str) -> Option<JsonType> {
        JsonType::ALL.into_iter().find(|t| t.as_str() == s)
    }

    /// Does `value` have this type? (`number` accepts integers.)
    pub fn matches(self, value: &Value) -> bool {
        match self {
            JsonType::String => value.is_string(),
            JsonType::Number => value.is_number(),
            JsonType::Integer => value.is_i64() || value.is_u64() || is_integral(value),
            JsonType::Boolean => value.is_boolean(),
            JsonType::Array => value.is_array(),
            JsonType::Object => value.is_object(),
            JsonType::Null => value.is_null(),
        }
    }

    /// The type of a value, naming integers `integer`.
    pub fn of(value: &Value) -> JsonType {
        match value {
            Value::String(_) => JsonType::String,
            Value::Number(_) if JsonType::Integer.matches(value) => JsonType::Integer,
            Value::Number(_) => JsonType::Number,
            Value::Bool(_) => JsonType::Boolean,
            Value::Array(_) => JsonType::Array,
            Value::Object(_) => JsonType::Object,
            Value::Null => JsonType::Null,
        }
    }
}

fn is_integral(value: &Value) -> bool {
    value.as_f64().is_some_and(|f| f.fract() == 0.0)
}

/// What a server answered to one `tools/call`.
#[derive(Debug, Clone, PartialEq)]
pub enum CallOutcome {
    /// The `result` of the response (a `CallToolResult`).
    Result(Value),
    /// The `error` of the response.
    JsonRpcError {
        code: i64,
        message: String,
        data: Option<Value>,
    },
}

impl CallOutcome {
    /// The outcome class: `isError: true` makes a result a tool error.
    pub fn class(&self) -> Outcome {
        match self {
            CallOutcome::Result(r) if r.get("isError") == Some(&Value::Bool(true)) => {
                Outcome::ToolError
            }
            CallOutcome::Result(_) => Outcome::Success,
            CallOutcome::JsonRpcError { .. } => Outcome::JsonRpcError,
        }
    }

    /// The object the expected fields are read from: `structuredContent`, or
    /// the first text content item parsed as a JSON object.
    pub fn fields_object(&self) -> Option<Value> {
        let CallOutcome::Result(r) = self else {
            return None;
        };
        if let Some(sc) = r.get("structuredContent").filter(|v| !v.is_null()) {
            return Some(sc.clone());
        }
        r.get("content")?
            .as_array()?
            .iter()
            .find(|c| c.get("type").and_then(Value::as_str) == Some("text"))
            .and_then(|c| c.get("text")?.as_str())
            .and_then(|t| serde_json::from_str::<Value>(t).ok())
            .filter(Value::is_object)
    }

    /// A short description of what came back, for failure messages.
    pub fn summary(&self) -> String {
        match self {
            CallOutcome::JsonRpcError { code, message, .. } => {
                format!("JSON-RPC error {code}: {}", clip(message))
            }
            CallOutcome::Result(r) => {
                let text = r
                    .get("content")
                    .and_then(Value::as_array)
                    .and_then(|items| {
                        items
                            .iter()
                            .find_map(|c| c.get("text").and_then(Value::as_str))
                    })
                    .map(clip);
                match (self.class(), text) {
                    (class, Some(t)) => format!("{class}: {t}"),
                    (class, None) => class.to_string(),
                }
            }
        }
    }
}

fn clip(s: &str) -> String {
    let one_line = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() > 160 {
        format!("{}…", one_line.chars().take(160).collect::<String>())
    } else {
        one_line
    }
}

/// One way an outcome differs from its fixture's expectation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// The field that differs (`outcome`, `error_code`, or a result field).
    pub field: String,
    pub expected: String,
    pub actual: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}`: expected {}, got {}",
            self.field, self.expected, self.actual
        )
    }
}

/// Compares an outcome with a fixture's expectation; empty when it matches.
pub fn compare(expect: &Expectation, outcome: &CallOutcome) -> Vec<Mismatch> {
    let class = outcome.class();
    if class != expect.outcome {
        return vec![Mismatch {
            field: "outcome".into(),
            expected: format!("`{}`", expect.outcome),
            actual: format!("`{class}` ({})", outcome.summary()),
        }];
    }
    let mut out = vec![];
    if let Some(code) = &expect.error_code {
        let actual = match outcome {
            CallOutcome::JsonRpcError { code, .. } => Some(Value::from(*code)),
            CallOutcome::Result(_) => outcome
                .fields_object()
                .and_then(|o| o.get("error_code").cloned()),
        };
        let same = match (code, &actual) {
            (ErrorCode::Text(want), Some(Value::String(got))) => want == got,
            (ErrorCode::Number(want), Some(got)) => got.as_i64() == Some(*want),
            _ => false,
        };
        if !same {
            out.push(Mismatch {
                field: "error_code".into(),
                expected: code.to_string(),
                actual: actual.map_or_else(|| "no error_code".into(), |v| v.to_string()),
            });
        }
    }
    if expect.fields.is_empty() {
        return out;
    }
    let Some(object) = outcome.fields_object() else {
        out.push(Mismatch {
            field: "structuredContent".into(),
            expected: "an object holding the expected fields".into(),
            actual: "no structuredContent and no JSON object in the text content".into(),
        });
        return out;
    };
    for (field, types) in &expect.fields {
        let pointer = if field.starts_with('/') {
            field.clone()
        } else {
            format!("/{}", escape_pointer(field))
        };
        let expected = types
            .iter()
            .map(|t| t.as_str())
            .collect::<Vec<_>>()
            .join("|");
        match object.pointer(&pointer) {
            None => out.push(Mismatch {
                field: field.clone(),
                expected: format!("a present {expected}"),
                actual: "no such field".into(),
            }),
            Some(v) if !types.iter().any(|t| t.matches(v)) => out.push(Mismatch {
                field: field.clone(),
                expected: expected.clone(),
                actual: format!("{} {}", JsonType::of(v).as_str(), clip(&v.to_string())),
            }),
            Some(_) => {}
        }
    }
    out
}

/// Reads every fixture under `dir` (`<dir>/<tool>/*.json`), sorted by tool and
/// file name. A missing directory is an error; see [`read_dir_if_present`].
pub fn read_dir(dir: &Path) -> Result<Vec<Fixture>, InputError> {
    let name = dir.display().to_string();
    crate::confine::fixture_path::<&str>(dir, &[])?;
    let tools = std::fs::read_dir(dir).map_err(|e| {
        InputError::new(&name, format!("cannot read the fixtures directory: {e}")).fix(format!(
            "create `{DEFAULT_DIR}/<tool>/<name>.json` files, or pass the directory with --fixtures"
        ))
    })?;
    let mut tool_dirs = vec![];
    for entry in tools {
        let entry = entry.map_err(|e| InputError::new(&name, format!("cannot list: {e}")))?;
        let path = entry.path();
        let file_name = entry.file_name().to_string_lossy().into_owned();
        if file_name.starts_with('.') {
            continue;
        }
        crate::confine::fixture_path(dir, &[entry.file_name()])?;
        if path.is_dir() {
            tool_dirs.push((file_name, path));
        } else if file_name.ends_with(".json") {
            return Err(InputError::new(
                path.display().to_string(),
                "a fixture directly in the fixtures directory has no tool",
            )
            .fix(format!(
                "move it to {}/<tool>/{file_name}, where <tool> is the tool it calls",
                name
            )));
        }
    }
    tool_dirs.sort();
    let mut out = vec![];
    for (tool, path) in tool_dirs {
        let mut files = vec![];
        let entries = std::fs::read_dir(&path).map_err(|e| {
            InputError::new(path.display().to_string(), format!("cannot list: {e}"))
        })?;
        for entry in entries {
            let entry = entry.map_err(|e| {
                InputError::new(path.display().to_string(), format!("cannot list: {e}"))
            })?;
            let file_name = entry.file_name().to_string_lossy().into_owned();
            if !file_name.starts_with('.') && file_name.ends_with(".json") {
                let tool_dir = path.file_name().unwrap_or_default();
                crate::confine::fixture_path(dir, &[tool_dir, &entry.file_name()])?;
                files.push(entry.path());
            }
        }
        files.sort();
        for file in files {
            out.push(read_file(&file, &tool)?);
        }
    }
    Ok(out)
}

/// Like [`read_dir`], but a directory that does not exist holds no fixtures.
pub fn read_dir_if_present(dir: &Path) -> Result<Vec<Fixture>, InputError> {
    if dir.exists() {
        read_dir(dir)
    } else {
        Ok(vec![])
    }
}

/// Reads one fixture file for `tool`.
pub fn read_file(path: &Path, tool: &str) -> Result<Fixture, InputError> {
    let name = path.display().to_string();
    let bytes = crate::limits::read(path).map_err(|e| {
        InputError::new(&name, format!("cannot read fixture: {e}"))
            .fix("check the path and that the file is readable")
    })?;
    let mut fixture = parse(&bytes, &name, tool)?;
    fixture.file = path.to_path_buf();
    Ok(fixture)
}

/// Parses fixture bytes; `file` names the source in errors.
pub fn parse(bytes: &[u8], file: &str, tool: &str) -> Result<Fixture, InputError> {
    let value = load::parse_json(bytes, file)?;
    from_value(&value, file, tool)
}

/// Interprets a parsed JSON document as a fixture for `tool`.
pub fn from_value(value: &Value, file: &str, tool: &str) -> Result<Fixture, InputError> {
    let err = |at: &str, msg: String, fix: &str| InputError::new(file, msg).at(at).fix(fix);
    let root = value.as_object().ok_or_else(|| {
        err(
            "/",
            "a fixture must be a JSON object".into(),
            "write {\"safe\": true, \"arguments\": {...}, \"expect\": {\"outcome\": \"success\"}}",
        )
    })?;
    let mut extensions = BTreeMap::new();
    for (k, v) in root {
        if k.starts_with("x-") {
            extensions.insert(k.clone(), v.clone());
        } else if !TOP_KEYS.contains(&k.as_str()) {
            return Err(unknown_key(file, "", k, TOP_KEYS));
        }
    }
    let description = match root.get("description") {
        None => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => {
            return Err(err(
                "/description",
                "`description` must be a string".into(),
                "describe why the fixture exists in a string",
            ))
        }
    };
    let safe = match root.get("safe") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => {
            return Err(err(
                "/safe",
                "`safe` must be true or false".into(),
                "write \"safe\": true only for calls without effects outside a test instance",
            ))
        }
    };
    let arguments = match root.get("arguments") {
        None => Map::new(),
        Some(Value::Object(m)) => m.clone(),
        Some(_) => {
            return Err(err(
                "/arguments",
                "`arguments` must be an object".into(),
                "write the tool call's arguments as an object, e.g. {\"query\": \"rust\"}",
            ))
        }
    };
    let expect =
        match root.get("expect") {
            Some(e) => expectation(e, file)?,
            None => return Err(err(
                "/expect",
                "the fixture has no `expect`".into(),
                "add \"expect\": {\"outcome\": \"success\"} (or \"tool_error\", \"jsonrpc_error\")",
            )),
        };
    Ok(Fixture {
        tool: tool.to_string(),
        file: PathBuf::from(file),
        description,
        safe,
        arguments,
        expect,
        extensions,
    })
}

fn expectation(value: &Value, file: &str) -> Result<Expectation, InputError> {
    let err = |at: &str, msg: String, fix: String| InputError::new(file, msg).at(at).fix(fix);
    let m = value.as_object().ok_or_else(|| {
        err(
            "/expect",
            "`expect` must be an object".into(),
            "write \"expect\": {\"outcome\": \"success\"}".into(),
        )
    })?;
    for k in m.keys() {
        if !EXPECT_KEYS.contains(&k.as_str()) {
            return Err(unknown_key(file, "/expect", k, EXPECT_KEYS));
        }
    }
    let names = || {
        Outcome::ALL
            .iter()
            .map(|o| format!("\"{o}\""))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let outcome = match m.get("outcome") {
        Some(Value::String(s)) => Outcome::ALL
            .into_iter()
            .find(|o| o.as_str() == s)
            .ok_or_else(|| {
                err(
                    "/expect/outcome",
                    format!("unknown outcome `{s}`"),
                    format!("use one of {}", names()),
                )
            })?,
        _ => {
            return Err(err(
                "/expect/outcome",
                "`expect.outcome` must be given as a string".into(),
                format!("use one of {}", names()),
            ))
        }
    };
    let mut fields = BTreeMap::new();
    match m.get("fields") {
        None => {}
        Some(_) if outcome == Outcome::JsonRpcError => {
            return Err(err(
                "/expect/fields",
                "a JSON-RPC error has no result fields".into(),
                "remove `fields`, or expect \"success\" or \"tool_error\"".into(),
            ))
        }
        Some(Value::Object(f)) => {
            for (name, ty) in f {
                let at = format!("/expect/fields/{}", escape_pointer(name));
                fields.insert(name.clone(), field_types(ty, file, &at)?);
            }
        }
        Some(_) => {
            return Err(err(
                "/expect/fields",
                "`expect.fields` must be an object of field -> type".into(),
                "write e.g. {\"items\": \"array\", \"total\": \"integer\"}".into(),
            ))
        }
    }
    let error_code = match (m.get("error_code"), outcome) {
        (None, _) => None,
        (Some(_), Outcome::Success) => {
            return Err(err(
                "/expect/error_code",
                "a successful call has no error code".into(),
                "remove `error_code`, or expect \"tool_error\" or \"jsonrpc_error\"".into(),
            ))
        }
        (Some(Value::String(s)), Outcome::ToolError) => Some(ErrorCode::Text(s.clone())),
        (Some(_), Outcome::ToolError) => {
            return Err(err(
                "/expect/error_code",
                "a tool error's `error_code` must be a string".into(),
                "write the expected structuredContent.error_code, e.g. \"STALE_TOOL_SCHEMA\""
                    .into(),
            ))
        }
        (Some(v), Outcome::JsonRpcError) => match v.as_i64() {
            Some(n) => Some(ErrorCode::Number(n)),
            None => {
                return Err(err(
                    "/expect/error_code",
                    "a JSON-RPC error's `error_code` must be an integer".into(),
                    "write the expected error.code, e.g. -32602".into(),
                ))
            }
        },
    };
    Ok(Expectation {
        outcome,
        fields,
        error_code,
    })
}

fn field_types(value: &Value, file: &str, at: &str) -> Result<Vec<JsonType>, InputError> {
    let all = || {
        JsonType::ALL
            .iter()
            .map(|t| t.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let Value::String(s) = value else {
        return Err(InputError::new(file, "a field's type must be a string")
            .at(at)
            .fix(format!("use one of {}, or several joined by `|`", all())));
    };
    let mut types = vec![];
    for part in s.split('|') {
        let t = JsonType::parse(part.trim()).ok_or_else(|| {
            InputError::new(file, format!("unknown JSON type `{}`", part.trim()))
                .at(at)
                .fix(format!("use one of {}, or several joined by `|`", all()))
        })?;
        types.push(t);
    }
    Ok(types)
}

fn unknown_key(file: &str, at: &str, key: &str, known: &[&str]) -> InputError {
    let close = crate::suggest::did_you_mean(key, known).or_else(|| {
        known
            .iter()
            .copied()
            .find(|k| k.starts_with(key) || key.starts_with(*k))
    });
    let fix = match close {
        Some(k) => format!("did you mean `{k}`? (extensions must start with `x-`)"),
        None => format!(
            "known keys here: {}; extensions must start with `x-`",
            known.join(", ")
        ),
    };
    InputError::new(file, format!("unknown key `{key}`"))
        .at(format!("{at}/{}", escape_pointer(key)))
        .fix(fix)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fixture(v: Value) -> Result<Fixture, InputError> {
        from_value(&v, "f.json", "search")
    }

    #[test]
    fn parses_the_documented_example() {
        let f = fixture(json!({
            "description": "legacy", "safe": true, "arguments": {"query": "rust"},
            "expect": {"outcome": "success", "fields": {"items": "array", "/page/next": "string|null"}},
            "x-normalized": {"search_text": "rust"}
        }))
        .unwrap();
        assert!(f.safe);
        assert_eq!(f.tool, "search");
        assert_eq!(f.arguments["query"], "rust");
        assert_eq!(
            f.expect.fields["/page/next"],
            vec![JsonType::String, JsonType::Null]
        );
        assert_eq!(f.extensions["x-normalized"]["search_text"], "rust");
    }

    #[test]
    fn safe_defaults_to_false_and_arguments_to_empty() {
        let f = fixture(json!({"expect": {"outcome": "tool_error"}})).unwrap();
        assert!(!f.safe);
        assert!(f.arguments.is_empty());
    }

    #[test]
    fn typo_gets_a_pointer_and_a_did_you_mean() {
        let e = fixture(json!({"saf": true, "expect": {"outcome": "success"}})).unwrap_err();
        assert_eq!(e.location.as_deref(), Some("/saf"));
        assert!(e.fix.unwrap().contains("`safe`"));
        let e = fixture(json!({"expect": {"outcome": "success", "feilds": {}}})).unwrap_err();
        assert_eq!(e.location.as_deref(), Some("/expect/feilds"));
    }

    #[test]
    fn rejects_bad_values_with_pointers() {
        let cases = [
            (json!({}), "/expect"),
            (json!({"expect": {"outcome": "ok"}}), "/expect/outcome"),
            (
                json!({"expect": {"outcome": "success", "fields": {"a/b": "text"}}}),
                "/expect/fields/a~1b",
            ),
            (
                json!({"expect": {"outcome": "success", "error_code": "X"}}),
                "/expect/error_code",
            ),
            (
                json!({"expect": {"outcome": "jsonrpc_error", "error_code": "X"}}),
                "/expect/error_code",
            ),
            (
                json!({"expect": {"outcome": "jsonrpc_error", "fields": {}}}),
                "/expect/fields",
            ),
            (
                json!({"arguments": [], "expect": {"outcome": "success"}}),
                "/arguments",
            ),
            (
                json!({"safe": "yes", "expect": {"outcome": "success"}}),
                "/safe",
            ),
        ];
        for (v, at) in cases {
            let e = fixture(v.clone()).unwrap_err();
            assert_eq!(e.location.as_deref(), Some(at), "{v}: {e}");
            assert!(e.fix.is_some(), "{e}");
        }
    }

    fn expect(v: Value) -> Expectation {
        fixture(json!({ "expect": v })).unwrap().expect
    }

    #[test]
    fn success_fields_are_checked_for_presence_and_type() {
        let e = expect(
            json!({"outcome": "success", "fields": {"n": "integer", "s": "string", "/o/x": "number"}}),
        );
        let ok = CallOutcome::Result(
            json!({"content": [], "structuredContent": {"n": 3, "s": "a", "o": {"x": 1.5}}}),
        );
        assert_eq!(compare(&e, &ok), vec![]);
        let bad = CallOutcome::Result(json!({"structuredContent": {"n": 3.5, "o": {}}}));
        let m = compare(&e, &bad);
        let fields: Vec<&str> = m.iter().map(|m| m.field.as_str()).collect();
        assert_eq!(fields, vec!["/o/x", "n", "s"]);
        assert!(m[1].actual.starts_with("number"), "{}", m[1]);
    }

    #[test]
    fn fields_fall_back_to_json_text_content() {
        let e = expect(json!({"outcome": "success", "fields": {"total": "integer"}}));
        let text =
            CallOutcome::Result(json!({"content": [{"type": "text", "text": "{\"total\": 2}"}]}));
        assert_eq!(compare(&e, &text), vec![]);
        let plain = CallOutcome::Result(json!({"content": [{"type": "text", "text": "hello"}]}));
        assert_eq!(compare(&e, &plain)[0].field, "structuredContent");
    }

    #[test]
    fn outcome_class_and_error_codes() {
        let e = expect(json!({"outcome": "tool_error", "error_code": "STALE_TOOL_SCHEMA"}));
        let stale = CallOutcome::Result(
            json!({"isError": true, "structuredContent": {"error_code": "STALE_TOOL_SCHEMA"}}),
        );
        assert_eq!(compare(&e, &stale), vec![]);
        let other = CallOutcome::Result(
            json!({"isError": true, "structuredContent": {"error_code": "RESERVED_FIELD"}}),
        );
        assert_eq!(compare(&e, &other)[0].field, "error_code");
        let success = CallOutcome::Result(json!({"content": []}));
        let m = compare(&e, &success);
        assert_eq!(m[0].field, "outcome");
        assert!(m[0].actual.contains("success"));

        let e = expect(json!({"outcome": "jsonrpc_error", "error_code": -32602}));
        let rpc = CallOutcome::JsonRpcError {
            code: -32602,
            message: "bad".into(),
            data: None,
        };
        assert_eq!(compare(&e, &rpc), vec![]);
        let rpc = CallOutcome::JsonRpcError {
            code: -32601,
            message: "bad".into(),
            data: None,
        };
        assert_eq!(compare(&e, &rpc)[0].actual, "-32601");
    }

    #[test]
    fn reads_a_directory_tree_sorted() {
        let dir = std::env::temp_dir().join(format!("mcp-fixtures-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("b_tool")).unwrap();
        std::fs::create_dir_all(dir.join("a_tool")).unwrap();
        let body = r#"{"safe": true, "expect": {"outcome": "success"}}"#;
        std::fs::write(dir.join("b_tool/2.json"), body).unwrap();
        std::fs::write(dir.join("b_tool/1.json"), body).unwrap();
        std::fs::write(dir.join("a_tool/x.json"), body).unwrap();
        std::fs::write(dir.join("a_tool/README.md"), "notes").unwrap();
        let all = read_dir(&dir).unwrap();
        let names: Vec<String> = all
            .iter()
            .map(|f| {
                format!(
                    "{}/{}",
                    f.tool,
                    f.file.file_name().unwrap().to_string_lossy()
                )
            })
            .collect();
        assert_eq!(
            names,
            vec!["a_tool/x.json", "b_tool/1.json", "b_tool/2.json"]
        );
        std::fs::write(dir.join("b_tool/3.json"), r#"{"expect": 1}"#).unwrap();
        let e = read_dir(&dir).unwrap_err();
        assert!(e.file.ends_with("3.json"), "{e}");
        assert_eq!(e.location.as_deref(), Some("/expect"));
        std::fs::write(dir.join("loose.json"), body).unwrap();
        assert!(read_dir(&dir).unwrap_err().message.contains("has no tool"));
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(read_dir_if_present(&dir).unwrap().is_empty());
    }
}
