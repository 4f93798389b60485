//! The MCP registry's `server.json`: the version it publishes, and the
//! registry's rules for it, checked where a repository has the file. The
//! registry takes any version string of at most 255 characters, but one
//! specific version: `latest` is reserved, and a range (`^1.2.3`, `~1.2`,
//! `>=1.0.0`, `1.2.3 - 2.0.0`, `1.2 || 1.3`) or a wildcard (`1.x`,
//! `1.2.*`) is refused, for the server and for each of its `packages`.
//! Each version is unique per server name and immutable once published:
//! a `server.json` whose content changed since the baseline while its
//! version did not would publish a version twice ([`super::judge`]).

use serde_json::Value;

use super::Declaration;
use crate::check::usage::findings::{Finding, Level};
use crate::error::InputError;

/// The file's name, where `mcp-publisher` looks for it.
pub const FILE: &str = "server.json";

/// The longest version the registry's schema takes.
const MAX_VERSION: usize = 255;

/// What a `server.json` says about versions.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerJson {
    /// The top-level `version`, when it is a string.
    pub version: Option<Declaration>,
    /// The document without its `version`: what else a publication
    /// carries (a change there needs a new version too).
    pub content: Value,
    /// The registry's rules it breaks.
    pub problems: Vec<Finding>,
}

/// Reads `text` (named `file`).
pub fn parse(text: &str, file: &str) -> Result<ServerJson, InputError> {
    let mut value: Value = serde_json::from_str(text).map_err(|e| {
        InputError::new(file, format!("not valid JSON: {e}"))
            .at(format!("line {}, column {}", e.line(), e.column()))
            .fix("fix the JSON syntax (the MCP registry would refuse it too)")
    })?;
    let Value::Object(root) = &mut value else {
        return Err(InputError::new(file, "server.json must be a JSON object")
            .fix("see https://modelcontextprotocol.io/registry for its format"));
    };
    let mut problems = vec![];
    let top = root.remove("version");
    let version = match &top {
        Some(Value::String(s)) => {
            let lines = version_lines(text, s);
            let least = lines.iter().map(|(_, indent)| *indent).min();
            let line = lines
                .iter()
                .find(|(_, indent)| Some(*indent) == least)
                .map(|(l, _)| *l);
            problems.extend(rules(s, "version", file, line));
            Some(Declaration {
                version: s.clone(),
                file: file.to_string(),
                line,
            })
        }
        other => {
            problems.push(problem(
                "server-json.version-invalid",
                file,
                None,
                match other {
                    None => {
                        "server.json has no `version`: the MCP registry requires one".to_string()
                    }
                    Some(v) => format!("server.json's `version` is {v}, not a string"),
                },
                "add `\"version\": \"1.0.0\"` (the release this file publishes)",
            ));
            None
        }
    };
    if let Some(Value::Array(packages)) = root.get("packages") {
        // the packages' lines: indented deeper than the top-level key
        let top = text
            .lines()
            .filter(|l| l.trim_start().starts_with("\"version\""))
            .map(|l| l.len() - l.trim_start().len())
            .min()
            .unwrap_or(0);
        let mut seen = std::collections::BTreeMap::<&str, usize>::new();
        for (i, p) in packages.iter().enumerate() {
            if let Some(Value::String(s)) = p.get("version") {
                let nth = seen.entry(s.as_str()).or_default();
                let line = version_lines(text, s)
                    .into_iter()
                    .filter(|(_, indent)| *indent > top)
                    .nth(*nth)
                    .map(|(l, _)| l);
                *nth += 1;
                problems.extend(rules(s, &format!("packages[{i}].version"), file, line));
            }
        }
    }
    Ok(ServerJson {
        version,
        content: value,
        problems,
    })
}

/// The registry's rules on one version string at `field`.
fn rules(version: &str, field: &str, file: &str, line: Option<usize>) -> Option<Finding> {
    let shown = if version.chars().count() > 60 {
        format!("{}…", version.chars().take(60).collect::<String>())
    } else {
        version.to_string()
    };
    if version.trim().is_empty() || version.chars().count() > MAX_VERSION {
        return Some(problem(
            "server-json.version-invalid",
            file,
            line,
            format!(
                "server.json's `{field}` must be 1 to {MAX_VERSION} characters (it is `{shown}`)"
            ),
            "give the specific version this file publishes, e.g. `1.2.3`",
        ));
    }
    if version == "latest" {
        return Some(problem(
            "server-json.version-reserved",
            file,
            line,
            format!("server.json's `{field}` is `latest`, which the MCP registry reserves"),
            "give the specific version this file publishes, e.g. `1.2.3`",
        ));
    }
    if looks_like_range(version) {
        return Some(problem(
            "server-json.version-range",
            file,
            line,
            format!("server.json's `{field}` is `{shown}`, a range: the MCP registry takes one specific version"),
            "give the exact version, e.g. `1.2.3` for `^1.2.3` (ranges and wildcards are refused at publication)",
        ));
    }
    None
}

fn problem(
    rule: &'static str,
    file: &str,
    line: Option<usize>,
    message: String,
    help: &str,
) -> Finding {
    Finding {
        rule,
        level: Level::Error,
        file: file.to_string(),
        line,
        message,
        details: vec![],
        help: Some(help.to_string()),
    }
}

/// The lines (1-based) where `"version": "<version>"` is written, with
/// their indentation (JSON keeps no positions: the top-level key is the
/// least indented one, the packages' the others, in order).
fn version_lines(text: &str, version: &str) -> Vec<(usize, usize)> {
    let Ok(quoted) = serde_json::to_string(version) else {
        return vec![];
    };
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            l.split_once("\"version\"").is_some_and(|(_, rest)| {
                rest.trim_start()
                    .strip_prefix(':')
                    .is_some_and(|r| r.trim_start().starts_with(&quoted))
            })
        })
        .map(|(i, l)| (i + 1, l.len() - l.trim_start().len()))
        .collect()
}

/// `v`? then 1 to 4 dot-separated numbers, then an optional `-pre` label
/// (what the registry reads as a version inside a range).
fn version_like(s: &str) -> bool {
    let s = s.strip_prefix('v').unwrap_or(s);
    let (core, pre) = match s.split_once('-') {
        Some((c, p)) => (c, Some(p)),
        None => (s, None),
    };
    let parts: Vec<&str> = core.split('.').collect();
    (1..=4).contains(&parts.len())
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        && pre.is_none_or(|p| {
            !p.is_empty()
                && p.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-')
        })
}

/// Does `version` read as a range or a wildcard rather than one version
/// (the registry's four shapes: a comparator, a hyphen range, an `||`
/// list, a dotted version with `x`, `X` or `*`)?
pub fn looks_like_range(version: &str) -> bool {
    let t = version.trim();
    if t.is_empty() {
        return false;
    }
    for op in [">=", "<=", "^", "~", ">", "<", "="] {
        if let Some(rest) = t.strip_prefix(op) {
            return version_like(rest.trim());
        }
    }
    if let Some((a, b)) = t.split_once(" - ") {
        return version_like(a.trim()) && version_like(b.trim());
    }
    if t.contains("||") {
        return t.split("||").all(|p| version_like(p.trim()));
    }
    let core = t.split_once('-').map_or(t, |(c, _)| c);
    let core = core.strip_prefix('v').unwrap_or(core);
    let parts: Vec<&str> = core.split('.').collect();
    (2..=3).contains(&parts.len())
        && parts.iter().any(|p| matches!(*p, "x" | "X" | "*"))
        && parts.iter().all(|p| {
            matches!(*p, "x" | "X" | "*")
                || (!p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_and_wildcards_are_told_from_versions() {
        for r in [
            "^1.2.3",
            "~1.2.3",
            ">=1.0.0",
            "<=1.0.0",
            ">1.0.0",
            "<1.0.0",
            "=1.0.0",
            "1.2.3 - 2.0.0",
            "1.2 || 1.3",
            "1.x",
            "1.2.*",
            "1.2.X",
            "*.1",
            " ^1.2 ",
        ] {
            assert!(looks_like_range(r), "{r}");
        }
        for v in [
            "1.2.3",
            "1.2.3-1",
            "2025.12.18",
            "v1.0.0",
            "1.0.0-rc.1+build",
            "1",
            "x",
            "*",
            "release-7",
            "1.2.3.4",
        ] {
            assert!(!looks_like_range(v), "{v}");
        }
    }

    #[test]
    fn the_registry_rules_are_findings_at_their_lines() {
        let text = "{\n  \"name\": \"io.github.x/y\",\n  \"version\": \"^1.2.0\",\n  \"packages\": [\n    {\"registryType\": \"npm\", \"identifier\": \"y\",\n     \"version\": \"latest\"}\n  ]\n}\n";
        let s = parse(text, "server.json").unwrap();
        let got: Vec<(&str, Option<usize>)> = s.problems.iter().map(|p| (p.rule, p.line)).collect();
        assert_eq!(
            got,
            [
                ("server-json.version-range", Some(3)),
                ("server-json.version-reserved", Some(6))
            ]
        );
        assert_eq!(s.version.unwrap().version, "^1.2.0");
        assert!(s.content.get("version").is_none());
    }

    #[test]
    fn a_missing_or_overlong_version_is_refused() {
        let s = parse("{\"name\": \"a/b\"}", "server.json").unwrap();
        assert_eq!(s.problems[0].rule, "server-json.version-invalid");
        assert!(s.version.is_none());
        let long = format!("{{\"version\": \"{}\"}}", "1".repeat(256));
        assert_eq!(
            parse(&long, "server.json").unwrap().problems[0].rule,
            "server-json.version-invalid"
        );
        assert!(parse("{\"version\": \"1.0.0\"}", "server.json")
            .unwrap()
            .problems
            .is_empty());
        let e = parse("{", "server.json").unwrap_err();
        assert!(e.location.is_some(), "{e}");
    }
}
