//! [`Contract`]: the build step's output for one package, read once at
//! start-up, and the one decision the wrapper makes per tool: does what rmcp
//! serves for it equal what the build step derived (then the locked
//! definition, transitions applied, is published), or not (then the served
//! tool is kept and the difference reported: publishing a schema the
//! handler does not accept would be worse than publishing an unlocked one).

use std::collections::BTreeMap;

use serde_json::Value;

use super::json_diff::{first_differences, Difference};
use crate::canonical::canonicalize;
use crate::error::InputError;
use crate::runtime::Compat;

/// How many differences a report names per tool.
const MAX_DIFFERENCES: usize = 8;

/// What the build step locked for this package (see [`crate::rmcp!`]).
#[derive(Debug, Clone)]
pub struct Contract {
    /// As published: transitions applied.
    published: BTreeMap<String, ::rmcp::model::Tool>,
    /// As published, in the lockfile's canonical published form.
    published_values: BTreeMap<String, Value>,
    /// As rmcp derives it, for the tools transitions changed (the others:
    /// as published).
    derived: BTreeMap<String, Value>,
    features: BTreeMap<String, Vec<String>>,
    /// Prompts as locked (canonical entry, name included).
    prompts: BTreeMap<String, Value>,
    compat: Compat,
    /// The package whose build step wrote it (`rmcp!()` says which).
    package: Option<String>,
}

/// How a tool the server serves relates to the contract.
#[derive(Debug, Clone, PartialEq)]
pub enum Published {
    /// Served exactly as derived at build time: the locked definition is published.
    Locked,
    /// Not in the lockfile (added by hand, at run time, or after the last build).
    Unlocked,
    /// In the lockfile, but served differently (a rewritten schema, a
    /// description set at run time, a stale build): served as is.
    Differs(Vec<Difference>),
}

impl Contract {
    /// Reads the manifest (`OUT_DIR/mcp-contract-rmcp.json`) and the
    /// compatibility plan (`OUT_DIR/mcp-contract-compat/plan.json`).
    pub fn from_build(manifest: &str, plan: &str) -> Result<Contract, InputError> {
        const FILE: &str = "OUT_DIR/mcp-contract-rmcp.json";
        let value: Value = serde_json::from_str(manifest)
            .map_err(|e| InputError::new(FILE, format!("not JSON: {e}")))?;
        let section = |key: &str| -> Result<serde_json::Map<String, Value>, InputError> {
            match value.get(key) {
                Some(Value::Object(m)) => Ok(m.clone()),
                _ => Err(InputError::new(FILE, format!("no `{key}` object"))
                    .fix("rebuild: the build step writes this file (mcp_contract_build::snapshot() in build.rs)")),
            }
        };
        let mut published = BTreeMap::new();
        let mut published_values = BTreeMap::new();
        for (name, entry) in section("published")? {
            let tool: ::rmcp::model::Tool = serde_json::from_value(entry.clone())
                .map_err(|e| InputError::new(FILE, format!("tool `{name}`: {e}")))?;
            published.insert(name.clone(), tool);
            published_values.insert(name, entry);
        }
        let derived = section("derived")?.into_iter().collect();
        let mut features = BTreeMap::new();
        for (name, list) in section("features")? {
            let list: Vec<String> = serde_json::from_value(list)
                .map_err(|e| InputError::new(FILE, format!("features of `{name}`: {e}")))?;
            features.insert(name, list);
        }
        // Absent in a manifest written before prompts were locked.
        let prompts = match value.get("prompts") {
            Some(Value::Object(m)) => m.clone().into_iter().collect(),
            _ => BTreeMap::new(),
        };
        Ok(Contract {
            published,
            published_values,
            derived,
            features,
            prompts,
            compat: Compat::from_json(plan)?,
            package: None,
        })
    }

    /// The same contract, naming the package whose build step wrote it.
    pub fn in_package(mut self, package: &str) -> Self {
        self.package = Some(package.to_string());
        self
    }

    /// The package whose build step wrote the contract, when known.
    pub fn package(&self) -> Option<&str> {
        self.package.as_deref()
    }

    /// The compatibility layer run before every call.
    pub fn compat(&self) -> &Compat {
        &self.compat
    }

    /// Replaces the compatibility layer (e.g. one with a deprecation hook:
    /// `contract.compat().clone().with_hook(...)`).
    pub fn with_compat(mut self, compat: Compat) -> Self {
        self.compat = compat;
        self
    }

    /// The locked definition of `name`, as published.
    pub fn locked(&self, name: &str) -> Option<&::rmcp::model::Tool> {
        self.published.get(name)
    }

    /// Every locked tool name.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.published.keys().map(String::as_str)
    }

    /// The cargo features the tool's router is gated on (empty: always compiled).
    pub fn features_of(&self, name: &str) -> &[String] {
        self.features.get(name).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Compares what rmcp serves for a tool with what the build step derived.
    pub fn check(&self, served: &::rmcp::model::Tool) -> Published {
        let name = served.name.as_ref();
        let Some(derived) = self
            .derived
            .get(name)
            .or_else(|| self.published_values.get(name))
        else {
            return Published::Unlocked;
        };
        let served = published_form(served);
        if &served == derived {
            Published::Locked
        } else {
            Published::Differs(first_differences(derived, &served, MAX_DIFFERENCES))
        }
    }

    /// The tool to publish for `served`, with the verdict: the locked
    /// definition when it is [`Published::Locked`], else `served` unchanged.
    pub fn publish(&self, served: ::rmcp::model::Tool) -> (::rmcp::model::Tool, Published) {
        let verdict = self.check(&served);
        match (&verdict, self.published.get(served.name.as_ref())) {
            (Published::Locked, Some(locked)) => (locked.clone(), verdict),
            _ => (served, verdict),
        }
    }
}

impl Contract {
    /// Every locked prompt name.
    pub fn prompt_names(&self) -> impl Iterator<Item = &str> {
        self.prompts.keys().map(String::as_str)
    }

    /// Compares what rmcp serves for a prompt with what the build step locked.
    pub fn check_prompt(&self, served: &::rmcp::model::Prompt) -> Published {
        let Some(locked) = self.prompts.get(&served.name) else {
            return Published::Unlocked;
        };
        let served = prompt_form(served);
        if &served == locked {
            Published::Locked
        } else {
            Published::Differs(first_differences(locked, &served, MAX_DIFFERENCES))
        }
    }

    /// The prompt to publish for `served`: the locked one when they agree.
    pub fn publish_prompt(
        &self,
        served: ::rmcp::model::Prompt,
    ) -> (::rmcp::model::Prompt, Published) {
        let verdict = self.check_prompt(&served);
        if verdict == Published::Locked {
            if let Some(locked) = self
                .prompts
                .get(&served.name)
                .and_then(|v| serde_json::from_value(v.clone()).ok())
            {
                return (locked, verdict);
            }
        }
        (served, verdict)
    }
}

/// An rmcp prompt in the lockfile's form (name included).
fn prompt_form(prompt: &::rmcp::model::Prompt) -> Value {
    let value = serde_json::to_value(prompt).unwrap_or(Value::Null);
    let Value::Object(mut m) = value else {
        return Value::Null;
    };
    m.remove("name");
    match crate::load::entries::prompt_from_map(
        prompt.name.clone(),
        m.clone(),
        "<served prompt>",
        "",
    ) {
        Ok(p) => {
            let mut entry = p.to_entry();
            if let Value::Object(e) = &mut entry {
                e.insert("name".into(), Value::String(prompt.name.clone()));
            }
            canonicalize(&entry)
        }
        Err(_) => canonicalize(&Value::Object(m)),
    }
}

/// An rmcp tool in the lockfile's published form (the same model and
/// canonicalization the build step used).
fn published_form(tool: &::rmcp::model::Tool) -> Value {
    let value = serde_json::to_value(tool).unwrap_or(Value::Null);
    match crate::load::tool_from_value(&value, "<served tool>", "") {
        Ok(t) => canonicalize(&t.to_published()),
        Err(_) => canonicalize(&value),
    }
}

/// The one line a server prints at start-up when locked tools are served
/// differently from the lockfile (`diverging`: each tool with its
/// verdict), in every build: such a tool is published as served while its
/// calls are still checked against the locked plan, and a release build
/// would otherwise say nothing.
pub(crate) fn startup_report(diverging: &[(String, Published)]) -> Option<String> {
    let named: Vec<String> = diverging
        .iter()
        .filter_map(|(name, verdict)| match verdict {
            Published::Differs(d) => Some(match d.first() {
                Some(first) => format!("`{name}` (at {})", first.pointer),
                None => format!("`{name}`"),
            }),
            _ => None,
        })
        .collect();
    if named.is_empty() {
        return None;
    }
    let (count, them) = match named.len() {
        1 => ("1 tool is".to_string(), "it"),
        n => (format!("{n} tools are"), "them"),
    };
    Some(format!(
        "mcp-contract: {count} served differently from the lockfile: {}; published as served (not as locked), while calls to {them} are still checked against the locked contract. Rebuild the server, or find what rewrites {them} at run time",
        named.join(", ")
    ))
}

/// A one-line report for a tool that is not published as locked.
pub(crate) fn report(name: &str, verdict: &Published) -> Option<String> {
    report_of("tool", name, verdict)
}

/// [`report`] for a tool or a prompt (`kind`).
pub(crate) fn report_of(kind: &str, name: &str, verdict: &Published) -> Option<String> {
    match verdict {
        Published::Locked => None,
        Published::Unlocked => Some(format!(
            "mcp-contract: {kind} `{name}` is served but not in the lockfile: it is published unlocked (rebuild to lock it, or check the server's hand-written list method)"
        )),
        Published::Differs(diffs) => {
            let list: Vec<String> = diffs.iter().map(|d| d.to_string()).collect();
            Some(format!(
                "mcp-contract: {kind} `{name}` is served differently from the lockfile, so it is published as served (transitions not advertised): {}",
                list.join("; ")
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn contract() -> Contract {
        let manifest = json!({
            "derived": {"a": {"name": "a", "inputSchema": {"type": "object", "properties": {"to": {"type": "string"}}}}},
            "published": {"a": {"name": "a", "inputSchema": {"type": "object", "properties": {
                "to": {"type": "string"}, "from": {"type": "string", "deprecated": true}}}}},
            "features": {"a": ["extra"]},
            "prompts": {"p": {"name": "p", "description": "P."}}
        });
        Contract::from_build(&manifest.to_string(), r#"{"revision": "r", "tools": {}}"#).unwrap()
    }

    fn served(v: Value) -> ::rmcp::model::Tool {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn locked_when_served_as_derived_else_served_and_named() {
        let c = contract();
        let same = served(
            json!({"name": "a", "inputSchema": {"properties": {"to": {"type": "string"}}, "type": "object"}}),
        );
        let (published, verdict) = c.publish(same);
        assert_eq!(verdict, Published::Locked);
        assert!(
            published.input_schema["properties"].get("from").is_some(),
            "transitions published"
        );
        let rewritten = served(
            json!({"name": "a", "inputSchema": {"type": "object", "properties": {"to": {"type": "integer"}}}}),
        );
        let (published, verdict) = c.publish(rewritten);
        let Published::Differs(d) = &verdict else {
            panic!("{verdict:?}")
        };
        assert_eq!(d[0].pointer, "/inputSchema/properties/to/type");
        assert!(
            published.input_schema["properties"].get("from").is_none(),
            "served as is"
        );
        let line = report("a", &verdict).unwrap();
        assert!(
            line.contains("tool `a`") && line.contains("/inputSchema/properties/to/type"),
            "{line}"
        );
        let (_, verdict) = c.publish(served(
            json!({"name": "b", "inputSchema": {"type": "object"}}),
        ));
        assert_eq!(verdict, Published::Unlocked);
        assert!(report("b", &verdict)
            .unwrap()
            .contains("not in the lockfile"));
        assert_eq!(c.features_of("a"), ["extra"]);
    }

    #[test]
    fn prompts_compare_through_the_lockfile_model() {
        let c = contract();
        let p: ::rmcp::model::Prompt =
            serde_json::from_value(json!({"name": "p", "description": "P."})).unwrap();
        assert_eq!(c.check_prompt(&p), Published::Locked);
        let q: ::rmcp::model::Prompt =
            serde_json::from_value(json!({"name": "p", "description": "Q."})).unwrap();
        assert!(matches!(c.check_prompt(&q), Published::Differs(_)));
    }

    #[test]
    fn an_unreadable_manifest_is_an_error() {
        let e = Contract::from_build("{}", r#"{"revision": "r", "tools": {}}"#).unwrap_err();
        assert!(e.to_string().contains("no `published` object"), "{e}");
    }
}
