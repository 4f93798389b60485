//! Served == gated: what a package's binary really publishes for each
//! locked tool, against the lockfile the gate judged. The binary writes the
//! comparison itself (`mcp_contract::rmcp::probe`, when `check --served`
//! starts it); this module reads that file and words the verdicts as
//! findings every check format renders ([`Finding`]): a tool served
//! differently is an error at its lockfile line, naming the first
//! differing pointer with the locked and the served value.

use serde_json::Value;

use super::usage::findings::{Finding, Level};

pub use crate::runtime::probe::{FORMAT, PROBE_ENV};

/// Every rule id a served finding carries, with what it means.
pub const RULES: &[(&str, &str)] = &[
    (
        "served.differs",
        "a locked tool is served differently from the lockfile the gate judged (rmcp's run-time schema, a description set in code): what clients get was never compared",
    ),
    (
        "served.not-compiled",
        "a locked tool gated on cargo features is not compiled into the probed binary, so its served definition was not compared",
    ),
];

/// How a binary serves one locked tool.
#[derive(Debug, Clone, PartialEq)]
pub enum Served {
    Locked,
    /// Each differing place: pointer, locked value, served value (`None`: absent).
    Differs(Vec<(String, Option<Value>, Option<Value>)>),
    /// The server's `get_tool` does not answer for it.
    NotAnswered {
        features: Vec<String>,
    },
}

/// One binary's probe.
#[derive(Debug, Clone, PartialEq)]
pub struct Probe {
    /// The package whose contract the binary embeds.
    pub package: Option<String>,
    pub tools: Vec<(String, Served)>,
}

/// The probe of one package, as the run keeps it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ServedRun {
    /// Each binary started, with what it did (`probed`, `exited with 1`, ...).
    pub binaries: Vec<(String, String)>,
    /// Tools compared (served locked or differently).
    pub compared: usize,
    pub findings: Vec<Finding>,
    /// Why nothing was compared, when nothing had to be.
    pub nothing_to_compare: Option<String>,
}

impl ServedRun {
    pub fn passed(&self) -> bool {
        self.findings.iter().all(|f| f.level != Level::Error)
    }
}

/// Reads a probe file (`text`, written by `binary`).
pub fn parse(text: &str, binary: &str) -> Result<Probe, String> {
    let bad = |why: &str| {
        format!("the probe file {binary} wrote is not one this check reads: {why}; build it with the mcp-contract this check belongs to")
    };
    let v: Value = serde_json::from_str(text).map_err(|e| bad(&e.to_string()))?;
    if v["format"] != FORMAT {
        return Err(bad(&format!(
            "format {}, expected \"{FORMAT}\"",
            v["format"]
        )));
    }
    let mut tools = vec![];
    for t in v["tools"]
        .as_array()
        .ok_or_else(|| bad("no `tools` list"))?
    {
        let name = t["name"]
            .as_str()
            .ok_or_else(|| bad("a tool without a name"))?;
        let served = match t["served"].as_str() {
            Some("locked") => Served::Locked,
            Some("differs") => Served::Differs(
                t["differences"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|d| {
                        (
                            d["pointer"].as_str().unwrap_or("").to_string(),
                            d.get("locked").cloned(),
                            d.get("served").cloned(),
                        )
                    })
                    .collect(),
            ),
            Some("not-answered") => Served::NotAnswered {
                features: t["features"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|f| f.as_str().map(str::to_string))
                    .collect(),
            },
            other => return Err(bad(&format!("tool `{name}` served {other:?}"))),
        };
        tools.push((name.to_string(), served));
    }
    Ok(Probe {
        package: v["package"].as_str().map(str::to_string),
        tools,
    })
}

/// A value as a finding shows it (cut at 120 characters).
fn shown(v: &Option<Value>) -> String {
    match v {
        None => "(absent)".to_string(),
        Some(v) => {
            let t = v.to_string();
            match t.char_indices().nth(120) {
                Some((i, _)) => format!("{}…", &t[..i]),
                None => t,
            }
        }
    }
}

/// The findings of `probe` against the lockfile (`lockfile` as the report
/// names it, `text` its content for the lines); the tools no answer could
/// be had for, apart (the caller reports them as not checked).
pub fn findings(probe: &Probe, lockfile: &str, text: &str) -> (ServedRun, Vec<String>) {
    let mut run = ServedRun::default();
    let mut unanswered = vec![];
    for (tool, served) in &probe.tools {
        match served {
            Served::Locked => run.compared += 1,
            Served::Differs(diffs) => {
                run.compared += 1;
                let first = diffs.first().map_or("", |d| d.0.as_str());
                let at = if first.is_empty() { "/" } else { first };
                run.findings.push(Finding {
                    rule: "served.differs",
                    level: Level::Error,
                    file: lockfile.to_string(),
                    line: super::lines::line_of(text, tool, first),
                    message: format!(
                        "tool `{tool}` is served differently from the lockfile, first at {at}: the gate judged the lockfile, clients get the served definition"
                    ),
                    details: diffs
                        .iter()
                        .map(|(p, l, s)| {
                            format!(
                                "{}: locked {} / served {}",
                                if p.is_empty() { "/" } else { p },
                                shown(l),
                                shown(s)
                            )
                        })
                        .collect(),
                    help: Some(format!(
                        "make the server publish what the build step derives (a schemars attribute or a hand-written JsonSchema impl the build step does not follow, a description or schema changed in code), or tell the build step with Builder::tool_field; then rebuild so the lockfile is what `{tool}` serves"
                    )),
                });
            }
            Served::NotAnswered { features } if !features.is_empty() => {
                run.findings.push(Finding {
                    rule: "served.not-compiled",
                    level: Level::Note,
                    file: lockfile.to_string(),
                    line: super::lines::line_of(text, tool, ""),
                    message: format!(
                        "tool `{tool}` is not compiled into the probed binary (features: {}): its served definition was not compared",
                        features.join(", ")
                    ),
                    details: vec![],
                    help: None,
                });
            }
            Served::NotAnswered { .. } => unanswered.push(tool.clone()),
        }
    }
    (run, unanswered)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_differing_tool_is_an_error_at_its_line_naming_the_first_pointer() {
        let text = json!({"format": FORMAT, "package": "tiny", "tools": [
            {"name": "a", "served": "differs", "differences": [
                {"pointer": "/description", "locked": "Old.", "served": "New."}]},
            {"name": "b", "served": "locked"},
            {"name": "c", "served": "not-answered", "features": ["x"]},
            {"name": "d", "served": "not-answered"}]})
        .to_string();
        let probe = parse(&text, "target/debug/tiny").unwrap();
        let lock = "{\n  \"tools\": {\n    \"a\": {\n      \"description\": \"Old.\",\n      \"digest\": \"x\"\n    }\n  }\n}\n";
        let (run, unanswered) = findings(&probe, "contracts/mcp-contract.lock", lock);
        assert_eq!(run.compared, 2);
        assert!(!run.passed());
        let f = &run.findings[0];
        assert_eq!((f.rule, f.line), ("served.differs", Some(4)));
        assert!(f.message.contains("first at /description"), "{}", f.message);
        assert_eq!(
            f.details,
            ["/description: locked \"Old.\" / served \"New.\""]
        );
        assert_eq!(run.findings[1].rule, "served.not-compiled");
        assert_eq!(unanswered, ["d"]);
    }

    #[test]
    fn a_file_of_another_format_is_an_error() {
        let e = parse(r#"{"format": "x"}"#, "bin").unwrap_err();
        assert!(e.contains("expected \"mcp-contract-probe/1\""), "{e}");
        assert!(parse("not json", "bin").is_err());
    }
}
