//! The static half of the contract fixtures (feature `validate`): every
//! fixture in `contracts/fixtures/<tool>/*.json` is run, without a server,
//! through the published schema in the lockfile and through the
//! compatibility plan derived from `contracts/migrations.toml`, and the
//! outcome the server would give is compared with the one the fixture
//! expects. `cargo mcp-contract check` runs this, so deleting a
//! compatibility branch (a rename's alias, a server default) that a legacy
//! fixture relies on fails the check.
//!
//! The predicted outcome of one fixture:
//! - the runtime layer rejects the call → `tool_error` with its `error_code`;
//! - the tool is neither published nor retired → `jsonrpc_error`;
//! - the normalized arguments do not validate against the published input
//!   schema → `tool_error` (the handler's argument parsing refuses them);
//! - otherwise `success`; then the arguments as sent must validate against
//!   the published schema too (else schema and handler disagree), the
//!   normalized arguments must hold no deprecated name, and they must equal
//!   the fixture's `x-normalized` object when it gives one.
//!
//! Result fields (`expect.fields`) need a live server: `cargo mcp-contract
//! replay` checks those.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::compat::{Compat, Prepared};
use super::plan::{self, CompatPlan};
use crate::error::InputError;
use crate::fixtures::{self, ErrorCode as ExpectedCode, Fixture, Outcome};
use crate::lockfile;
use crate::migrations;
use crate::model::Surface;

/// The extension key holding the arguments the handler must receive.
pub const NORMALIZED_KEY: &str = "x-normalized";

/// What the server would answer to one fixture.
#[derive(Debug, Clone, PartialEq)]
pub struct Predicted {
    pub outcome: Outcome,
    pub error_code: Option<String>,
    /// The arguments the handler would receive (for `success`).
    pub normalized: Option<Map<String, Value>>,
    /// Why, in words.
    pub detail: String,
}

/// One fixture that does not hold.
#[derive(Debug, Clone, PartialEq)]
pub struct FixtureFailure {
    pub tool: String,
    pub file: PathBuf,
    pub problem: String,
}

impl std::fmt::Display for FixtureFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: fixture for `{}`: {}",
            self.file.display(),
            self.tool,
            self.problem
        )
    }
}

/// The most memory one compiled `pattern` may take (bytes), so a crafted
/// pattern (`a{1000}{1000}`) cannot exhaust memory while compiling.
const REGEX_SIZE_LIMIT: usize = 4 * 1024 * 1024;

/// The result of checking a fixtures directory.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FixtureReport {
    /// The fixtures directory (absent directories give an empty report).
    pub dir: PathBuf,
    pub checked: usize,
    pub failures: Vec<FixtureFailure>,
}

impl FixtureReport {
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

/// Checks `contracts/fixtures/` beside `lockfile` against the lockfile and
/// the migration record beside it. No fixtures directory: nothing to check.
pub fn check_contracts(lockfile_path: &Path) -> Result<FixtureReport, InputError> {
    let contracts = lockfile_path.parent().unwrap_or(Path::new("."));
    let dir = contracts.join("fixtures");
    crate::confine::not_a_link(&dir, "fixtures directory")?;
    let found = fixtures::read_dir_if_present(&dir)?;
    if found.is_empty() {
        return Ok(FixtureReport {
            dir,
            ..FixtureReport::default()
        });
    }
    let shown = lockfile_path.display().to_string();
    let bytes = crate::limits::read(lockfile_path).map_err(|e| {
        InputError::new(&shown, format!("cannot read the lockfile: {e}")).fix(
            "generate it with `cargo build` (mcp-contract-build) or `cargo mcp-contract snapshot`",
        )
    })?;
    let surface = lockfile::parse(&bytes, &shown)?;
    let text = String::from_utf8_lossy(&bytes);
    let (record, problems) = migrations::read(&migrations::path_for(lockfile_path))?;
    let plan = plan::derive_checked(&record, &problems, &surface, &plan::revision_of(&text))?;
    let mut report = check(&found, &surface, &plan)?;
    report.dir = dir;
    Ok(report)
}

/// Checks `fixtures` against `surface` (published) and `plan`.
pub fn check(
    fixtures: &[Fixture],
    surface: &Surface,
    plan: &CompatPlan,
) -> Result<FixtureReport, InputError> {
    let compat = Compat::new(plan.clone());
    let mut report = FixtureReport {
        checked: fixtures.len(),
        ..FixtureReport::default()
    };
    for fixture in fixtures {
        let predicted = predict(fixture, surface, &compat)?;
        let mut fail = |problem: String| {
            report.failures.push(FixtureFailure {
                tool: fixture.tool.clone(),
                file: fixture.file.clone(),
                problem,
            })
        };
        if predicted.outcome != fixture.expect.outcome {
            fail(format!(
                "expected `{}`, the server would answer `{}`: {}",
                fixture.expect.outcome, predicted.outcome, predicted.detail
            ));
            continue;
        }
        if let Some(ExpectedCode::Text(want)) = &fixture.expect.error_code {
            if predicted.error_code.as_deref() != Some(want.as_str()) {
                fail(format!(
                    "expected error_code \"{want}\", the server would answer {}: {}",
                    predicted
                        .error_code
                        .as_ref()
                        .map_or_else(|| "no error_code".to_string(), |c| format!("\"{c}\"")),
                    predicted.detail
                ));
                continue;
            }
        }
        if let (Some(want), Some(got)) = (
            fixture.extensions.get(NORMALIZED_KEY),
            &predicted.normalized,
        ) {
            let got = Value::Object(got.clone());
            if *want != got {
                fail(format!(
                    "the handler would receive {got}, the fixture's `{NORMALIZED_KEY}` says {want}"
                ));
            }
        }
    }
    Ok(report)
}

/// What the server would answer to `fixture`.
pub fn predict(
    fixture: &Fixture,
    surface: &Surface,
    compat: &Compat,
) -> Result<Predicted, InputError> {
    let tool = fixture.tool.as_str();
    let published = surface.get(tool);
    if published.is_none() && !compat.plan().retired.contains_key(tool) {
        // (the fixture's directory names the tool: a typo is likelier than
        // a call meant to fail)
        let names: Vec<&str> = surface.tools.keys().map(String::as_str).collect();
        let hint = crate::suggest::did_you_mean(tool, &names)
            .map(|s| {
                format!(" (did you mean `{s}`? the fixture's directory name is the tool name)")
            })
            .unwrap_or_default();
        return Ok(Predicted {
            outcome: Outcome::JsonRpcError,
            error_code: None,
            normalized: None,
            detail: format!("tool `{tool}` is not published{hint}"),
        });
    }
    let normalized = match compat.prepare(tool, Some(fixture.arguments.clone())) {
        Prepared::Reject(stale) => {
            return Ok(Predicted {
                outcome: Outcome::ToolError,
                error_code: Some(stale.code.as_str().to_string()),
                normalized: None,
                detail: stale.message,
            })
        }
        Prepared::Call(args) => args,
    };
    let Some(published) = published else {
        return Ok(Predicted {
            outcome: Outcome::JsonRpcError,
            error_code: None,
            normalized: None,
            detail: format!("tool `{tool}` is not published"),
        });
    };
    // `pattern` and `patternProperties` come from the pull request: only a
    // linear-time engine evaluates them (the default backtracking engine
    // can take exponential time on a crafted pattern).
    let validator = jsonschema::options()
        .with_pattern_options(
            jsonschema::PatternOptions::regex()
                .size_limit(REGEX_SIZE_LIMIT)
                .dfa_size_limit(REGEX_SIZE_LIMIT),
        )
        .build(&published.input_schema)
        .map_err(|e| {
            InputError::new(
                fixture.file.display().to_string(),
                format!("the published input schema of `{tool}` cannot be compiled for checking fixtures: {e}"),
            )
            .fix("patterns are evaluated only with a linear-time engine: rewrite any look-around or backreference in `pattern`/`patternProperties`; otherwise regenerate the lockfile")
        })?;
    let first_error = |v: &Value| {
        validator.iter_errors(v).next().map(|e| {
            let at = e.instance_path().to_string();
            if at.is_empty() {
                e.to_string()
            } else {
                format!("{at}: {e}")
            }
        })
    };
    if let Some(e) = first_error(&Value::Object(normalized.clone())) {
        return Ok(Predicted {
            outcome: Outcome::ToolError,
            error_code: None,
            normalized: None,
            detail: format!("the arguments do not match the published schema: {e}"),
        });
    }
    if let Some(e) = first_error(&Value::Object(fixture.arguments.clone())) {
        return Ok(Predicted {
            outcome: Outcome::ToolError,
            error_code: None,
            normalized: None,
            detail: format!("the server would accept the call, but the published schema rejects it ({e}): schema and handler disagree; rebuild so the lockfile matches the migration record"),
        });
    }
    let plan = compat.plan().tools.get(tool);
    if let Some(alias) = plan
        .into_iter()
        .flat_map(|p| &p.aliases)
        .find(|a| normalized.contains_key(&a.from))
    {
        return Ok(Predicted {
            outcome: Outcome::ToolError,
            error_code: None,
            normalized: None,
            detail: format!("the handler would receive deprecated name `{}`", alias.from),
        });
    }
    Ok(Predicted {
        outcome: Outcome::Success,
        error_code: None,
        normalized: Some(normalized),
        detail: "the call is accepted".into(),
    })
}
