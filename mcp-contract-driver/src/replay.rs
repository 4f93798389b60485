//! Replaying contract fixtures against a live server: each fixture marked
//! `"safe": true` is sent as a `tools/call`, and its outcome class, error code
//! and result fields are compared with what the fixture expects
//! ([`mcp_contract::fixtures::compare`]). Fixtures not marked safe, and
//! fixtures whose `x-review` still lists placeholder arguments, are skipped,
//! and the report says why. Point this at an isolated test instance: even a
//! "safe" call runs the tool.
//!
//! The same loop runs the backward check ([`Expect::Refusal`]): the old
//! contract's legacy calls must each get the structured refusal
//! ([`mcp_contract::backward::judge`]) from the server built after a
//! removal, whether or not it still publishes the tool.

use std::path::PathBuf;

use mcp_contract::fixtures::{self, CallOutcome, Fixture, Mismatch};
use mcp_contract::Surface;

use crate::capture::surface_from_tools;
use crate::error::{DriverError, ErrorKind};
use crate::session::{Options, Session};

/// What happened to one fixture.
#[derive(Debug, Clone, PartialEq)]
pub enum Status {
    /// Not sent, with the reason.
    Skipped(String),
    Passed,
    Failed(Vec<Mismatch>),
}

/// One fixture's result.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub tool: String,
    pub file: PathBuf,
    pub status: Status,
    /// What the server answered, when the fixture was sent.
    pub outcome: Option<CallOutcome>,
}

/// Every fixture's result, in fixture order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ReplayReport {
    pub entries: Vec<Entry>,
}

impl ReplayReport {
    fn count(&self, f: impl Fn(&Status) -> bool) -> usize {
        self.entries.iter().filter(|e| f(&e.status)).count()
    }
    pub fn passed(&self) -> usize {
        self.count(|s| *s == Status::Passed)
    }
    pub fn failed(&self) -> usize {
        self.count(|s| matches!(s, Status::Failed(_)))
    }
    pub fn skipped(&self) -> usize {
        self.count(|s| matches!(s, Status::Skipped(_)))
    }
}

/// What each answer is held to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    /// The outcome the fixture records; its tool must be published.
    Recorded,
    /// The structured refusal a stale call gets (the backward check).
    Refusal,
}

/// What `tools/list` says about a fixture's tool it does not list: the
/// listed tool the fixture's directory most likely means.
fn unpublished(tool: &str, published: &Surface) -> String {
    let names: Vec<&str> = published.tools.keys().map(String::as_str).collect();
    match mcp_contract::suggest::did_you_mean(tool, &names) {
        Some(s) => format!("no such tool in tools/list (did you mean `{s}`? the fixture's directory name is the tool name)"),
        None => "no such tool in tools/list".into(),
    }
}

/// Sends the safe fixtures through an initialized session.
pub fn replay(
    session: &mut Session,
    published: &Surface,
    fixtures: &[Fixture],
    expect: Expect,
) -> Result<ReplayReport, DriverError> {
    let mut entries = vec![];
    for f in fixtures {
        let review = f.needs_review().map(|at| {
            let places = if at.is_empty() {
                String::new()
            } else {
                format!(" at {}", at.join(", "))
            };
            format!("`x-review` lists placeholder arguments{places}: replace them with values the test instance accepts, then delete `x-review`")
        });
        let (status, outcome) = if let (false, Some(why)) = (f.safe, &review) {
            (
                Status::Skipped(format!("not marked \"safe\": true, and {why}")),
                None,
            )
        } else if !f.safe {
            (Status::Skipped("not marked \"safe\": true".into()), None)
        } else if let Some(why) = review {
            (Status::Skipped(format!("marked safe, but {why}")), None)
        } else if expect == Expect::Recorded && published.get(&f.tool).is_none() {
            let missing = Mismatch {
                field: "tool".into(),
                expected: format!("`{}` to be published", f.tool),
                actual: unpublished(&f.tool, published),
            };
            (Status::Failed(vec![missing]), None)
        } else {
            let outcome = session.call_tool(&f.tool, &f.arguments)?;
            let mismatches = match expect {
                Expect::Recorded => fixtures::compare(&f.expect, &outcome),
                Expect::Refusal => mcp_contract::backward::judge(&outcome),
            };
            let status = if mismatches.is_empty() {
                Status::Passed
            } else {
                Status::Failed(mismatches)
            };
            (status, Some(outcome))
        };
        entries.push(Entry {
            tool: f.tool.clone(),
            file: f.file.clone(),
            status,
            outcome,
        });
    }
    Ok(ReplayReport { entries })
}

/// Reaches the server, lists its tools, replays `fixtures` and ends the session.
pub fn replay_server(
    endpoint: impl Into<crate::endpoint::Endpoint>,
    options: &Options,
    fixtures: &[Fixture],
    expect: Expect,
) -> Result<ReplayReport, DriverError> {
    let endpoint: crate::endpoint::Endpoint = endpoint.into();
    let mut session = Session::start(&endpoint, options)?;
    let listed = session.list_tools()?;
    let published = match surface_from_tools(&listed.tools, &endpoint.to_string()) {
        Ok(s) => s,
        Err(e) => {
            let err = session.fail(ErrorKind::Surface(e));
            session.close();
            return Err(err);
        }
    };
    let report = replay(&mut session, &published, fixtures, expect)?;
    session.close();
    Ok(report)
}
