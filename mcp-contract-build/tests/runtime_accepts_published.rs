//! Published == accepted: for every tool of both examples (their committed
//! lockfiles and migration records) and every tool the build step derives
//! from the real servers in `../shared/rmcp-servers/` (read in place), the
//! runtime layer, given the plan the build step would write, answers calls
//! the way the locked input schema does under the project's format policy.
//! The compiled graph's exact evaluator is the oracle (the `jsonschema`
//! crate where it cannot decide); instances come from `schema_instances` (each alternative branch,
//! each optional field, each enum value).
//!
//! - every instance the schema accepts is passed on unchanged (except for
//!   what the migration record acknowledges: an alias read as its new name,
//!   a server default filled in, `CONFLICTING_ALIASES`, and the names a
//!   `refuse_unknown_fields` tool narrows away, which must be exactly the
//!   undeclared ones);
//! - a name the schema refuses with any value (`zz_undeclared` on a closed
//!   object) is refused with `UNKNOWN_FIELD` naming it;
//! - every other instance the schema rejects (a value of the wrong type, a
//!   required field left out, a field of another alternative, a value past
//!   a bound, outside an enum, an empty or overlong string, a repeated
//!   item) is refused, by argument validation (`INVALID_ARGUMENTS`) or the
//!   names rule; none is passed on (the validator decides every keyword
//!   these schemas use: a keyword it does not decide would pass a call on
//!   unchanged, and the count of those must stay 0 here);
//! - nothing the schema accepts is refused except by the record: argument
//!   validation never refuses a value the oracle accepts.
//!
//! Counts per tool are printed with `--nocapture`. Without `../shared` the
//! examples still run and the real servers are reported skipped (with `CI`
//! set that fails).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use mcp_contract::migrations::{self, MigrationRecord};
use mcp_contract::runtime::plan::{self, CompatPlan, ToolPlan};
use mcp_contract::runtime::{Compat, ErrorCode, Prepared};
use mcp_contract::{lockfile, Surface};
use serde_json::{json, Map, Value};

mod rmcp_servers_derive;
mod rmcp_servers_dir;
mod schema_instances;

use schema_instances::Generator;

/// A name no schema here declares.
const UNDECLARED: &str = "zz_undeclared";

/// One tool: where it comes from, its locked input schema, its plan.
struct Case {
    origin: String,
    tool: String,
    schema: Value,
    plan: CompatPlan,
}

#[derive(Default)]
struct Counts {
    /// Distinct instances generated that the schema accepts.
    generated: usize,
    /// Published fields and alternatives, each in some generated instance.
    fields: usize,
    alternatives: usize,
    valid: usize,
    narrowed: usize,
    name_refused: usize,
    invalid_refused: usize,
    /// Of those refused: by argument validation (`INVALID_ARGUMENTS`).
    invalid_arguments: usize,
    invalid_unchanged: usize,
}

fn examples() -> Vec<Case> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut out = vec![];
    for example in ["demo-server", "weather-server"] {
        let lock = root.join(example).join("contracts/mcp-contract.lock");
        let text = std::fs::read_to_string(&lock).unwrap();
        let surface = lockfile::parse(text.as_bytes(), &lock.display().to_string()).unwrap();
        let (record, problems) = migrations::read(&migrations::path_for(&lock)).unwrap();
        assert!(problems.is_empty(), "{problems:?}");
        let plan = plan::derive(&record, &surface, &plan::revision_of(&text)).unwrap();
        for (name, tool) in &surface.tools {
            out.push(Case {
                origin: example.to_string(),
                tool: name.clone(),
                schema: tool.input_schema.clone(),
                plan: plan.clone(),
            });
        }
    }
    out
}

fn real_servers() -> Option<Vec<Case>> {
    let shared = rmcp_servers_dir::shared()?;
    let mut dirs: Vec<_> = std::fs::read_dir(&shared)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    let mut out = vec![];
    for dir in dirs {
        let server = dir.file_name().unwrap().to_string_lossy().into_owned();
        let (tools, _) = rmcp_servers_derive::run_server(&dir);
        for o in tools {
            let Ok(tool) = o.result else { continue };
            let file = o.found.file.strip_prefix(&dir).unwrap_or(&o.found.file);
            let mut surface = Surface::new();
            surface.insert(tool.clone());
            let plan = plan::derive(&MigrationRecord::default(), &surface, "sha256:0").unwrap();
            out.push(Case {
                origin: format!("{server} {}", file.display()),
                tool: tool.name.clone(),
                schema: tool.input_schema.clone(),
                plan,
            });
        }
    }
    Some(out)
}

/// What the record's transitions make of `args` (names aside): a reserved
/// name or two different values under an alias and its new name are
/// refused, an alias is read as its new name, a default fills in.
fn transitions(
    plan: &ToolPlan,
    args: &Map<String, Value>,
) -> Result<Map<String, Value>, ErrorCode> {
    if plan.reserved.iter().any(|r| args.contains_key(&r.name)) {
        return Err(ErrorCode::ReservedField);
    }
    let mut a = args.clone();
    for alias in &plan.aliases {
        if let Some(old) = a.remove(&alias.from) {
            match a.get(&alias.to) {
                Some(new) if *new != old => return Err(ErrorCode::ConflictingAliases),
                Some(_) => {}
                None => {
                    a.insert(alias.to.clone(), old);
                }
            }
        }
    }
    for d in &plan.defaults {
        a.entry(d.field.clone()).or_insert_with(|| d.value.clone());
    }
    Ok(a)
}

/// The runtime layer's answer: the arguments passed on, or the error code.
fn runtime(
    compat: &Compat,
    tool: &str,
    args: &Map<String, Value>,
) -> Result<Map<String, Value>, (ErrorCode, Vec<String>)> {
    match compat.prepare(tool, Some(args.clone())) {
        Prepared::Call(a) => Ok(a),
        Prepared::Reject(e) => Err((e.code, e.fields)),
    }
}

/// Valid under the project's format policy: the compiled graph's exact
/// evaluator decides (the integer widths schemars writes are the ranges
/// serde enforces: a `u32` field takes no 2^40); where it cannot decide,
/// the `jsonschema` crate does.
struct Oracle<'a> {
    js: jsonschema::Validator,
    graph: mcp_contract::schema::graph::Graph<'a>,
    root: mcp_contract::schema::graph::NodeId,
}

impl<'a> Oracle<'a> {
    fn new(schema: &'a Value, at: &str) -> Self {
        let js = jsonschema::validator_for(schema)
            .unwrap_or_else(|e| panic!("{at}: the oracle cannot read the schema: {e}"));
        let mut graph = mcp_contract::schema::graph::Graph::new();
        let root = graph.add(schema, mcp_contract::schema::graph::Draft::D2020);
        Oracle { js, graph, root }
    }

    fn is_valid(&self, v: &Value) -> bool {
        match mcp_contract::schema::graph::eval::accepts(&self.graph, self.root, v).known() {
            Some(b) => b,
            None => self.js.is_valid(v),
        }
    }
}

fn check(case: &Case) -> Counts {
    let at = format!("{} `{}`", case.origin, case.tool);
    let plan = &case.plan.tools[&case.tool];
    let compat = Compat::new(case.plan.clone());
    let oracle = Oracle::new(&case.schema, &at);
    let mut generator = Generator::new(&case.schema);
    let mut seen = BTreeSet::new();
    let mut valid: Vec<(Map<String, Value>, BTreeSet<String>)> = vec![];
    for inst in generator.instances() {
        if let Value::Object(m) = &inst.value {
            if oracle.is_valid(&inst.value) && seen.insert(inst.value.to_string()) {
                valid.push((m.clone(), inst.took));
            }
        }
    }
    assert!(!valid.is_empty(), "{at}: no instance the schema accepts");

    // coverage: each published field and each alternative in a valid call
    let mut fields: BTreeSet<&str> = plan.properties.iter().map(String::as_str).collect();
    fields.extend(plan.aliases.iter().map(|a| a.from.as_str()));
    for f in &fields {
        assert!(
            valid.iter().any(|(m, _)| m.contains_key(*f)),
            "{at}: no valid instance sends `{f}`"
        );
    }
    let taken: BTreeSet<&String> = valid.iter().flat_map(|(_, t)| t).collect();
    let missed: Vec<&String> = generator
        .alternatives
        .iter()
        .filter(|a| !taken.contains(a))
        .collect();
    assert!(
        missed.is_empty(),
        "{at}: no valid instance takes {missed:?}"
    );

    let declared = |n: &str| fields.contains(n);
    // a value for each declared name, from some valid instance
    let mut sample: BTreeMap<String, Value> = BTreeMap::new();
    for (m, _) in &valid {
        for (k, v) in m {
            sample.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
    let required: Vec<String> = case.schema["required"]
        .as_array()
        .map(|r| {
            r.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();

    let mut counts = Counts {
        generated: valid.len(),
        fields: fields.len(),
        alternatives: generator.alternatives.len(),
        ..Counts::default()
    };
    let accepted = |args: &Map<String, Value>, counts: &mut Counts| {
        let got = runtime(&compat, &case.tool, args);
        let undeclared: Vec<String> = args.keys().filter(|k| !declared(k)).cloned().collect();
        match transitions(plan, args) {
            Err(code) => assert_eq!(got.map_err(|e| e.0), Err(code), "{at}: {args:?}"),
            Ok(_) if plan.refuse_unknown_fields && !plan.open && !undeclared.is_empty() => {
                assert_eq!(
                    got,
                    Err((ErrorCode::UnknownField, undeclared)),
                    "{at}: the record narrows exactly the undeclared names: {args:?}"
                );
                counts.narrowed += 1;
            }
            Ok(want) => {
                assert_eq!(got, Ok(want), "{at}: a call the schema accepts: {args:?}");
                counts.valid += 1;
            }
        }
    };
    let rejected = |args: &Map<String, Value>, counts: &mut Counts| match (
        runtime(&compat, &case.tool, args),
        transitions(plan, args),
    ) {
        (Ok(got), Ok(want)) => {
            assert_eq!(
                got, want,
                "{at}: a rejected call passed on altered: {args:?}"
            );
            counts.invalid_unchanged += 1;
        }
        (Err((ErrorCode::InvalidArguments, fields)), Ok(_)) => {
            // refused before the handler: each field named is one the call sent
            // or the schema requires
            assert!(
                fields.iter().all(|f| args.contains_key(f)
                    || required.contains(f)
                    || plan.properties.contains(f)),
                "{at}: {fields:?} for {args:?}"
            );
            counts.invalid_arguments += 1;
            counts.invalid_refused += 1;
        }
        (Err((ErrorCode::UnknownField, fields)), _) => {
            assert!(
                fields.iter().all(|f| args.contains_key(f)),
                "{at}: {fields:?} for {args:?}"
            );
            counts.invalid_refused += 1;
        }
        (got, want) => {
            assert_eq!(
                got.map_err(|e| e.0),
                want.map(|_| Map::new()),
                "{at}: {args:?}"
            );
            counts.invalid_refused += 1;
        }
    };

    for (v, _) in &valid {
        accepted(v, &mut counts);
        // an undeclared name: refused if no value gets it through
        let with: Vec<Map<String, Value>> =
            [json!(null), json!("x"), json!(1), json!({}), json!([])]
                .into_iter()
                .map(|x| {
                    let mut w = v.clone();
                    w.insert(UNDECLARED.into(), x);
                    w
                })
                .collect();
        let admitted = with
            .iter()
            .any(|w| oracle.is_valid(&Value::Object(w.clone())));
        for w in &with {
            if oracle.is_valid(&Value::Object(w.clone())) {
                accepted(w, &mut counts);
            } else if admitted {
                rejected(w, &mut counts);
            } else {
                match transitions(plan, w) {
                    Err(code) => assert_eq!(
                        runtime(&compat, &case.tool, w).map_err(|e| e.0),
                        Err(code),
                        "{at}: {w:?}"
                    ),
                    Ok(_) => {
                        assert_eq!(
                            runtime(&compat, &case.tool, w).map_err(|e| e.0),
                            Err(ErrorCode::UnknownField),
                            "{at}: a name the schema refuses with any value passed: {w:?}"
                        );
                        counts.name_refused += 1;
                    }
                }
            }
        }
        let mut others: Vec<Map<String, Value>> = vec![];
        // a declared name this call leaves out (another alternative's too)
        for (k, x) in &sample {
            if !v.contains_key(k) {
                let mut w = v.clone();
                w.insert(k.clone(), x.clone());
                others.push(w);
            }
        }
        // a value of the wrong kind
        for k in v.keys() {
            for bad in [
                json!(null),
                json!(true),
                json!(12345),
                json!("zz"),
                json!([]),
                json!({}),
            ] {
                let mut w = v.clone();
                w.insert(k.clone(), bad);
                others.push(w);
            }
        }
        // values near what the schema bounds: past a limit, outside an
        // enum, an empty or long string, a repeated item (the oracle says
        // which are valid; each lands on the matching side)
        for (k, x) in v {
            let near: Vec<Value> = match x {
                Value::Number(n) => {
                    let f = n.as_f64().unwrap_or(0.0);
                    let mut out = vec![json!(0), json!(-1), json!(1.5), json!(f * 10.0 + 1.0)];
                    if let Some(i) = n.as_i64() {
                        out.extend([json!(i + 1), json!(i - 1), json!(i64::MAX), json!(u64::MAX)]);
                    }
                    out
                }
                Value::String(t) => vec![
                    json!(""),
                    json!(format!("{t}-not-a-listed-value")),
                    json!("x".repeat(300)),
                ],
                Value::Array(items) => {
                    let mut doubled = items.clone();
                    doubled.extend(items.iter().cloned());
                    vec![json!([]), Value::Array(doubled)]
                }
                Value::Object(_) => vec![json!({}), json!({"zz_inner": 1})],
                _ => vec![],
            };
            for bad in near {
                let mut w = v.clone();
                w.insert(k.clone(), bad);
                others.push(w);
            }
        }
        // a required field left out
        for r in &required {
            let mut w = v.clone();
            if w.remove(r).is_some() {
                others.push(w);
            }
        }
        for w in &others {
            if oracle.is_valid(&Value::Object(w.clone())) {
                accepted(w, &mut counts);
            } else {
                rejected(w, &mut counts);
            }
        }
    }
    counts
}

#[test]
fn the_runtime_layer_accepts_what_each_locked_input_schema_accepts() {
    let mut cases = examples();
    let examples_count = cases.len();
    match real_servers() {
        Some(real) => cases.extend(real),
        None => eprintln!("(the real servers were not read: ../shared is missing)"),
    }
    let mut total = Counts::default();
    let mut per_origin: BTreeMap<&str, usize> = BTreeMap::new();
    for case in &cases {
        let c = check(case);
        eprintln!(
            "{} `{}`: {} valid instances generated ({} fields, {} alternatives, each in one); {} accepted calls passed on ({} narrowed by the record), {} refused for a name no value gets through, {} other rejected calls: {} refused ({} as INVALID_ARGUMENTS), {} passed on unchanged",
            case.origin,
            case.tool,
            c.generated,
            c.fields,
            c.alternatives,
            c.valid,
            c.narrowed,
            c.name_refused,
            c.invalid_refused + c.invalid_unchanged,
            c.invalid_refused,
            c.invalid_arguments,
            c.invalid_unchanged
        );
        let server = case.origin.split(' ').next().unwrap_or_default();
        *per_origin.entry(server).or_default() += 1;
        total.generated += c.generated;
        total.alternatives += c.alternatives;
        total.valid += c.valid;
        total.narrowed += c.narrowed;
        total.name_refused += c.name_refused;
        total.invalid_refused += c.invalid_refused;
        total.invalid_arguments += c.invalid_arguments;
        total.invalid_unchanged += c.invalid_unchanged;
    }
    eprintln!("tools per origin: {per_origin:?}");
    eprintln!(
        "{} tools ({examples_count} from the examples): {} valid instances generated, {} alternatives each taken; {} accepted calls passed on, {} narrowed by the record, {} refused for an undeclared name, {} other rejected calls ({} refused, {} of them as INVALID_ARGUMENTS; {} passed on unchanged)",
        cases.len(),
        total.generated,
        total.alternatives,
        total.valid,
        total.narrowed,
        total.name_refused,
        total.invalid_refused + total.invalid_unchanged,
        total.invalid_refused,
        total.invalid_arguments,
        total.invalid_unchanged
    );
    assert!(examples_count >= 8, "both examples' tools");
    assert_eq!(
        total.invalid_unchanged, 0,
        "every call the schema rejects is refused before the handler"
    );
}
