//! Schema parity: every fixture type's schema derived from its *source* by
//! `mcp_contract_build::derive` must equal, after canonicalization, what
//! rmcp publishes for the *compiled* type through schemars:
//! - `inputSchema`: `rmcp::handler::server::common::schema_for_input::<Parameters<T>>()`
//! - `outputSchema`: `rmcp::handler::server::tool::schema_for_output::<T>()`
//! - and the plain root schema `SchemaSettings::draft2020_12()` gives for `T`.
//!
//! The fixtures (`tests/parity/fixtures.rs` and the module it declares) are
//! compiled into this test and parsed with syn from the same files.

#[path = "parity/fixtures.rs"]
mod fixtures;
#[macro_use]
#[path = "parity/types.rs"]
mod types;

use std::path::Path;

use mcp_contract::canonical::{canonicalize, to_canonical_string};
use mcp_contract_build::derive::{
    input_schema_for, module_files, output_schema_for, schema_for, TypeIndex,
};
use rmcp::handler::server::wrapper::Parameters;
use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde_json::Value;

type Expected = fn() -> Result<Value, String>;

struct Case {
    name: &'static str,
    raw: Expected,
    input: Expected,
    output: Expected,
}

fn raw<T: JsonSchema>() -> Result<Value, String> {
    let schema = SchemaSettings::draft2020_12()
        .into_generator()
        .into_root_schema_for::<T>();
    Ok(serde_json::to_value(schema).expect("a schema serializes"))
}

fn input<T: JsonSchema + 'static>() -> Result<Value, String> {
    rmcp::handler::server::common::schema_for_input::<Parameters<T>>()
        .map(|o| Value::Object((*o).clone()))
}

fn output<T: JsonSchema + 'static>() -> Result<Value, String> {
    Ok(Value::Object(
        (*rmcp::handler::server::tool::schema_for_output::<T>()).clone(),
    ))
}

macro_rules! cases {
    ($($($seg:ident)::+),* $(,)?) => {
        vec![$(Case {
            name: stringify!($($seg)::+),
            raw: raw::<fixtures::$($seg)::+>,
            input: input::<fixtures::$($seg)::+>,
            output: output::<fixtures::$($seg)::+>,
        }),*]
    };
}

fn all_cases() -> Vec<Case> {
    with_parity_types!(cases)
}

fn index() -> TypeIndex {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let files = module_files(&tests, Path::new("parity/fixtures.rs")).expect("fixture files parse");
    TypeIndex::new(files)
}

#[test]
fn source_derived_schemas_equal_rmcp_published_schemas() {
    let index = index();
    let cases = all_cases();
    let mut compared = 0;
    let mut mismatches = Vec::new();
    for case in &cases {
        let ty: syn::Type = syn::parse_str(case.name).expect("a fixture name is a type");
        let modes: [(&str, Expected, Result<Value, String>); 3] = [
            (
                "schema_for",
                case.raw,
                schema_for(&index, &ty, &[]).map_err(|e| e.to_string()),
            ),
            (
                "inputSchema",
                case.input,
                input_schema_for(&index, &ty, &[]).map_err(|e| e.to_string()),
            ),
            (
                "outputSchema",
                case.output,
                output_schema_for(&index, &ty, &[]).map_err(|e| e.to_string()),
            ),
        ];
        for (mode, expected, derived) in modes {
            compared += 1;
            let expected = expected();
            let same = match (&expected, &derived) {
                (Ok(e), Ok(d)) => canonicalize(e) == canonicalize(d),
                // rmcp refuses a non-object input schema; so must we.
                (Err(_), Err(_)) => true,
                _ => false,
            };
            if !same {
                let show = |r: &Result<Value, String>| match r {
                    Ok(v) => to_canonical_string(&canonicalize(v)),
                    Err(e) => format!("error: {e}\n"),
                };
                mismatches.push(format!(
                    "--- {} ({mode}) schemars/rmcp:\n{}--- derived from source:\n{}",
                    case.name,
                    show(&expected),
                    show(&derived)
                ));
            }
        }
    }
    let failed_types: std::collections::BTreeSet<&str> = mismatches
        .iter()
        .filter_map(|m| m.strip_prefix("--- ").and_then(|s| s.split(' ').next()))
        .collect();
    println!(
        "schema parity: {}/{} fixture types identical in all 3 forms ({} schemas compared, {} differ)",
        cases.len() - failed_types.len(),
        cases.len(),
        compared,
        mismatches.len()
    );
    assert!(
        cases.len() >= 40,
        "the parity fixture set must hold at least 40 types"
    );
    assert!(
        mismatches.is_empty(),
        "schema mismatches:\n{}",
        mismatches.join("\n")
    );
}

/// The crates the fixture files may name (rmcp, from `cargo metadata`), and
/// the fixture files themselves as a crate of their own named `fixtures`.
fn crates() -> (
    std::collections::BTreeMap<String, usize>,
    Vec<mcp_contract_build::metadata::CrateSource>,
) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let info = mcp_contract_build::metadata::PackageInfo::load(dir, None)
        .expect("cargo metadata")
        .expect("a package");
    let mut crates = info.crates.clone();
    let rmcp = crates
        .iter()
        .position(|c| c.name == "rmcp")
        .expect("rmcp is a dependency");
    let mut deps = std::collections::BTreeMap::new();
    deps.insert("rmcp".to_string(), rmcp);
    crates.push(mcp_contract_build::metadata::CrateSource {
        name: "fixtures".into(),
        root: dir.join("tests/parity/fixtures.rs"),
        deps: deps.clone(),
    });
    let mut tool_deps = deps;
    tool_deps.insert("fixtures".into(), crates.len() - 1);
    (tool_deps, crates)
}

/// Derives `ty` against `index`, loading the crates it reaches (as the build step does).
fn derive_across(index: &mut TypeIndex, ty: &syn::Type, mode: &str) -> Result<Value, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for _ in 0..8 {
        let derived = match mode {
            "schema_for" => schema_for(index, ty, &[]),
            "inputSchema" => input_schema_for(index, ty, &[]),
            _ => output_schema_for(index, ty, &[]),
        };
        let wanted = index.take_wanted();
        match derived {
            Err(_) if !wanted.is_empty() => {
                for i in wanted {
                    index.load_crate(i, root).map_err(|e| e.to_string())?;
                }
            }
            other => return other.map_err(|e| e.to_string()),
        }
    }
    Err("too many crates".into())
}

/// Every fixture type, written in a tool crate as `fixtures::Type` where
/// `fixtures` is another crate (the fixture files), plus types of a registry
/// crate (rmcp's model, which derives `JsonSchema`) and `#[serde(remote)]`:
/// derived across the crate boundary, they equal what schemars/rmcp publish.
#[test]
fn types_from_other_crates_equal_rmcp_published_schemas() {
    let (deps, crates) = crates();
    let tool_crate =
        mcp_contract_build::source::Source::parse("pub struct Unused;").expect("parses");
    let mut index = TypeIndex::new(vec![(
        std::path::PathBuf::from("src/lib.rs"),
        tool_crate,
        vec![],
    )])
    .with_crates(deps, crates);
    let mut cases = all_cases();
    cases.extend(cases![more::FromRegistry, more::Place]);
    let mut mismatches = Vec::new();
    let mut compared = 0;
    for case in &cases {
        let written = format!("fixtures::{}", case.name);
        let ty: syn::Type = syn::parse_str(&written).expect("a fixture name is a type");
        for (mode, expected) in [
            ("schema_for", case.raw),
            ("inputSchema", case.input),
            ("outputSchema", case.output),
        ] {
            compared += 1;
            let derived = derive_across(&mut index, &ty, mode);
            let expected = expected();
            let same = match (&expected, &derived) {
                (Ok(e), Ok(d)) => canonicalize(e) == canonicalize(d),
                (Err(_), Err(_)) => true,
                _ => false,
            };
            if !same {
                mismatches.push(format!(
                    "--- {written} ({mode}) schemars/rmcp:\n{:?}\n--- derived from source:\n{:?}",
                    expected.map(|v| to_canonical_string(&canonicalize(&v))),
                    derived.map(|v| to_canonical_string(&canonicalize(&v)))
                ));
            }
        }
    }
    println!(
        "cross-crate schema parity: {} types, {compared} schemas compared, {} differ",
        cases.len(),
        mismatches.len()
    );
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}
