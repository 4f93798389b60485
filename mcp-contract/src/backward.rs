//! The backward check before a removal: the old contract's legacy calls,
//! sent to the server built *after* the removal, must each be turned away
//! with the structured refusal an agent can act on — never answered with a
//! success that now means something else.
//!
//! A legacy call of a removal is an old fixture that took a compatibility
//! path under the old contract's plan (a deprecated argument name, a
//! server-applied default, a call to a deprecated old major version) which
//! the new contract's plan no longer serves to the same call. Both plans
//! decide it ([`legacy_calls`]); nothing is guessed from the fixture's text. What counts as a proper refusal ([`judge`]): a tool
//! result with `isError: true` whose `structuredContent` says
//! `error_code` `RESERVED_FIELD` or `STALE_TOOL_SCHEMA`,
//! `side_effect_started: false` and `required_action: "refresh_tools"` —
//! the answer the runtime layer gives before any handler code runs.
//!
//! The old contract is read from git at a revision ([`Contract::at`]): its
//! lockfile, migration record and fixtures, as they were committed; the new
//! one from the working tree ([`Contract::in_dir`]).

use std::path::Path;

use serde_json::Value;

use crate::error::InputError;
use crate::fixtures::{self, CallOutcome, Fixture, Mismatch};
use crate::git::Repo;
use crate::migrations;
use crate::model::Surface;
use crate::runtime::plan::{self, CompatPlan};
use crate::runtime::stale::{ErrorCode, RequiredAction};

/// The refusal codes that tell a caller its cached contract is stale.
pub const REFUSAL_CODES: [ErrorCode; 2] = [ErrorCode::ReservedField, ErrorCode::StaleToolSchema];

/// The most fixture files read from one revision.
const MAX_FIXTURES: usize = 10_000;

/// A contract as the runtime layer serves it: the lockfile's surface, the
/// plan derived from the migration record, and the recorded calls.
#[derive(Debug, Clone)]
pub struct Contract {
    /// Where it was read from: an abbreviated commit, or the directory.
    pub source: String,
    pub surface: Surface,
    pub plan: CompatPlan,
    pub fixtures: Vec<Fixture>,
}

/// One old fixture that took a compatibility path the new contract no
/// longer serves.
#[derive(Debug, Clone, PartialEq)]
pub struct Legacy {
    pub fixture: Fixture,
    /// The usage keys it took under the old plan and not under the new one
    /// (`field:query`, `tool:search_v2`, ...).
    pub removed: Vec<String>,
}

impl Contract {
    /// Reads `<contracts>/mcp-contract.lock`, `<contracts>/migrations.toml`
    /// and `<contracts>/fixtures/<tool>/*.json` as committed at `rev`;
    /// `contracts` is a directory inside `repo`'s work tree.
    pub fn at(repo: &Repo, rev: &str, contracts: &Path) -> Result<Contract, InputError> {
        let commit = repo.resolve_commit(rev)?.ok_or_else(|| {
            InputError::new(rev, "git knows no such revision")
                .fix("name the commit before the removal, e.g. `--backward HEAD~1` or `--backward origin/main`")
        })?;
        let short = repo.short(&commit);
        let dir = repo.relative(contracts)?;
        let join = |name: &str| {
            if dir.is_empty() {
                name.to_string()
            } else {
                format!("{dir}/{name}")
            }
        };
        let shown = |rel: &str| format!("{short}:{rel}");
        let lock_rel = join(LOCKFILE);
        let lock = repo.read_at(&commit, &lock_rel)?.ok_or_else(|| {
            InputError::new(shown(&lock_rel), "no lockfile at this revision").fix(
                "name a revision that has the old contract committed, or pass its directory with --contracts",
            )
        })?;
        let record_rel = join(RECORD);
        let record = repo.read_at(&commit, &record_rel)?;
        let fixtures_rel = join("fixtures");
        let mut fixtures = vec![];
        for path in repo.files_at(&commit, &fixtures_rel)? {
            let Some(tool) = fixture_tool(&path, &fixtures_rel) else {
                continue;
            };
            if fixtures.len() == MAX_FIXTURES {
                return Err(too_many(&shown(&fixtures_rel)));
            }
            let bytes = repo.read_at(&commit, &path)?.unwrap_or_default();
            let mut fixture = fixtures::parse(&bytes, &shown(&path), tool)?;
            fixture.file = shown(&path).into();
            fixtures.push(fixture);
        }
        let (surface, plan) = served(
            &lock,
            &shown(&lock_rel),
            record.as_deref(),
            &shown(&record_rel),
        )?;
        Ok(Contract {
            source: short,
            surface,
            plan,
            fixtures,
        })
    }

    /// Reads the same files from the directory `contracts` on disk.
    pub fn in_dir(contracts: &Path) -> Result<Contract, InputError> {
        let lock_path = contracts.join(LOCKFILE);
        let lock_shown = lock_path.display().to_string();
        let lock = crate::limits::read(&lock_path).map_err(|e| {
            InputError::new(&lock_shown, format!("cannot read the lockfile: {e}"))
                .fix("pass the contracts directory of the server built after the removal with --contracts")
        })?;
        let record_path = contracts.join(RECORD);
        let record = if record_path.exists() {
            Some(crate::limits::read(&record_path).map_err(|e| {
                InputError::new(
                    record_path.display().to_string(),
                    format!("cannot read: {e}"),
                )
            })?)
        } else {
            None
        };
        let fixtures = fixtures::read_dir_if_present(&contracts.join("fixtures"))?;
        let (surface, plan) = served(
            &lock,
            &lock_shown,
            record.as_deref(),
            &record_path.display().to_string(),
        )?;
        Ok(Contract {
            source: contracts.display().to_string(),
            surface,
            plan,
            fixtures,
        })
    }
}

const LOCKFILE: &str = "mcp-contract.lock";
const RECORD: &str = "migrations.toml";

/// `<fixtures_rel>/<tool>/<name>.json` → `tool`; hidden entries and other
/// files are not fixtures (as [`fixtures::read_dir`] reads them).
fn fixture_tool<'a>(path: &'a str, fixtures_rel: &str) -> Option<&'a str> {
    let rest = path.strip_prefix(fixtures_rel)?.strip_prefix('/')?;
    let (tool, name) = rest.split_once('/')?;
    let visible = !tool.starts_with('.') && !name.starts_with('.');
    (visible && !name.contains('/') && name.ends_with(".json")).then_some(tool)
}

fn too_many(dir: &str) -> InputError {
    InputError::new(dir, format!("more than {MAX_FIXTURES} fixture files"))
        .fix("keep the fixtures directory to recorded calls")
}

/// The surface a lockfile publishes and the plan its record derives.
fn served(
    lock: &[u8],
    lock_name: &str,
    record: Option<&[u8]>,
    record_name: &str,
) -> Result<(Surface, CompatPlan), InputError> {
    let surface = crate::lockfile::parse(lock, lock_name)?;
    let text = match record {
        Some(bytes) => std::str::from_utf8(bytes).map_err(|_| {
            InputError::new(record_name, "not valid UTF-8").fix("the record must be UTF-8 TOML")
        })?,
        None => "",
    };
    let (record, problems) = migrations::parse(text, record_name);
    let revision = plan::revision_of(&String::from_utf8_lossy(lock));
    let plan = plan::derive_checked(&record, &problems, &surface, &revision)?;
    Ok((surface, plan))
}

/// The usage keys a call takes under `plan`; `None` when the plan refuses
/// the call or does not serve its tool.
fn paths(plan: &CompatPlan, f: &Fixture) -> Option<Vec<String>> {
    let tool = plan.tools.get(&f.tool)?;
    let n = tool
        .normalize(&f.tool, Some(f.arguments.clone()), &plan.revision)
        .ok()?;
    let mut keys: Vec<String> = n.usages.iter().map(|u| u.key()).collect();
    keys.dedup();
    Some(keys)
}

/// The old fixtures that took a compatibility path under `old` which `new`
/// no longer serves to the same call. Calls that took no old path, and
/// calls whose paths `new` still serves, are not legacy calls of a removal.
pub fn legacy_calls(old: &CompatPlan, new: &CompatPlan, fixtures: &[Fixture]) -> Vec<Legacy> {
    fixtures
        .iter()
        .filter_map(|f| {
            let before = paths(old, f)?;
            let after = paths(new, f).unwrap_or_default();
            let removed: Vec<String> = before.into_iter().filter(|p| !after.contains(p)).collect();
            (!removed.is_empty()).then(|| Legacy {
                fixture: f.clone(),
                removed,
            })
        })
        .collect()
}

/// Why an answer to a legacy call is not the structured refusal; empty when
/// it is.
pub fn judge(outcome: &CallOutcome) -> Vec<Mismatch> {
    let mismatch = |field: &str, expected: &str, actual: String| Mismatch {
        field: field.into(),
        expected: expected.into(),
        actual,
    };
    let CallOutcome::Result(result) = outcome else {
        return vec![mismatch(
            "outcome",
            "a tool error with the structured refusal",
            outcome.summary(),
        )];
    };
    if result.get("isError") != Some(&Value::Bool(true)) {
        return vec![mismatch(
            "outcome",
            "a tool error with the structured refusal, never a success",
            format!(
                "{} (the legacy call now means something else)",
                outcome.summary()
            ),
        )];
    }
    let Some(sc) = result.get("structuredContent").filter(|v| v.is_object()) else {
        return vec![mismatch(
            "structuredContent",
            "the structured refusal (error_code, side_effect_started, required_action)",
            format!("an unstructured error: {}", outcome.summary()),
        )];
    };
    let codes: Vec<&str> = REFUSAL_CODES.iter().map(|c| c.as_str()).collect();
    let mut out = vec![];
    let code = sc.get("error_code").and_then(Value::as_str);
    if !code.is_some_and(|c| codes.contains(&c)) {
        out.push(mismatch(
            "error_code",
            &codes.join(" or "),
            shown(sc.get("error_code")),
        ));
    }
    if sc.get("side_effect_started") != Some(&Value::Bool(false)) {
        out.push(mismatch(
            "side_effect_started",
            "false",
            shown(sc.get("side_effect_started")),
        ));
    }
    let refresh = RequiredAction::RefreshTools.as_str();
    if sc.get("required_action").and_then(Value::as_str) != Some(refresh) {
        out.push(mismatch(
            "required_action",
            &format!("\"{refresh}\""),
            shown(sc.get("required_action")),
        ));
    }
    out
}

fn shown(v: Option<&Value>) -> String {
    v.map_or_else(|| "nothing".to_string(), Value::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn refusal(code: &str, side_effect: Value, action: &str) -> CallOutcome {
        CallOutcome::Result(json!({
            "isError": true,
            "content": [{"type": "text", "text": "refused"}],
            "structuredContent": {"error_code": code, "side_effect_started": side_effect,
                                   "required_action": action}
        }))
    }

    #[test]
    fn the_structured_refusal_passes() {
        assert_eq!(
            judge(&refusal("RESERVED_FIELD", json!(false), "refresh_tools")),
            []
        );
        assert_eq!(
            judge(&refusal("STALE_TOOL_SCHEMA", json!(false), "refresh_tools")),
            []
        );
    }

    #[test]
    fn anything_else_fails_naming_what_differs() {
        let ok = CallOutcome::Result(json!({"content": [{"type": "text", "text": "3 results"}]}));
        let got = judge(&ok);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].field, "outcome");
        assert!(got[0].actual.contains("means something else"), "{got:?}");

        let plain = CallOutcome::Result(json!({"isError": true,
            "content": [{"type": "text", "text": "missing field `currency`"}]}));
        assert_eq!(judge(&plain)[0].field, "structuredContent");

        let got = judge(&refusal(
            "CONFLICTING_ALIASES",
            json!(true),
            "fix_arguments",
        ));
        let fields: Vec<&str> = got.iter().map(|m| m.field.as_str()).collect();
        assert_eq!(
            fields,
            ["error_code", "side_effect_started", "required_action"]
        );

        let rpc = CallOutcome::JsonRpcError {
            code: -32602,
            message: "unknown tool".into(),
            data: None,
        };
        assert_eq!(judge(&rpc)[0].field, "outcome");
    }
}
