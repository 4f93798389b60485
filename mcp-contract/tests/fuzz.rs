//! Fuzzing on stable Rust, without a fuzzing engine: a seeded PRNG drives
//! (a) a coverage-free byte-mutation loop over real artifacts (the demo
//! server's lockfile, record and fixtures, the captured surfaces in
//! `examples/surfaces/`, and — when present — `../shared/corpus` snapshots)
//! and (b) a structure-aware generator of JSON Schema trees with `$ref` /
//! `$defs`, alternatives and every keyword the comparator reads.
//!
//! Targets and properties:
//! - lockfile reader, migration record parser, surface loader (every
//!   accepted `tools/list` shape), fixture parser: no panic on any bytes;
//! - `diff` on generated schema pairs: no panic, a self-diff reports
//!   nothing, canonicalizing is idempotent, and each comparison finishes
//!   within a generous watchdog (a hang is a failure, not a slow case);
//! - the runtime normalizer on arbitrary arguments under the demo's plan:
//!   no panic.
//!
//! `MCP_CONTRACT_FUZZ_ITERS` (default 300 per target, what CI runs) and
//! `MCP_CONTRACT_FUZZ_SEED` (default fixed, so CI is reproducible) set the
//! run; a longer run uses e.g. `MCP_CONTRACT_FUZZ_ITERS=200000
//! MCP_CONTRACT_FUZZ_SEED=$RANDOM`. A failing case prints its seed and
//! iteration; inputs that once failed are kept in
//! `tests/fuzz-regressions/<target>/` and replayed first on every run.

use std::path::{Path, PathBuf};
use std::time::Instant;

#[path = "../../tests/support/fuzz.rs"]
mod engine;

use engine::{guarded, iterations, mutate, seed, Rng};
use mcp_contract::diff::{diff_schema, Direction};
use mcp_contract::runtime::{plan, Compat};
use mcp_contract::{canonical, fixtures, load, lockfile, migrations};
use serde_json::{json, Map, Value};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(rel: &str) -> Vec<u8> {
    std::fs::read(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Files that once failed `target`, replayed before the random cases.
fn regressions(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = root().join("tests/fuzz-regressions").join(target);
    let mut out = vec![];
    if let Ok(entries) = std::fs::read_dir(&dir) {
        for e in entries.flatten() {
            out.push((
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            ));
        }
    }
    out.sort();
    out
}

/// The byte-mutation loop for one parser target.
fn fuzz_bytes(target: &str, seeds: Vec<Vec<u8>>, parse: fn(&[u8])) {
    let started = Instant::now();
    for (name, bytes) in regressions(target) {
        guarded(format!("{target}: regression {name}"), move || {
            parse(&bytes)
        });
    }
    let mut rng = Rng(seed(target));
    let n = iterations();
    for i in 0..n {
        let base = &seeds[rng.below(seeds.len())];
        // Mutations stack: sometimes mutate a mutant.
        let mut input = mutate(&mut rng, base);
        if rng.chance(3) {
            input = mutate(&mut rng, &input);
        }
        let what = format!(
            "{target}: seed {} iteration {i} (input {} bytes: {:?})",
            seed(target),
            input.len(),
            String::from_utf8_lossy(&input[..input.len().min(300)])
        );
        guarded(what, move || parse(&input));
    }
    eprintln!(
        "fuzz {target}: {n} cases in {:.2}s",
        started.elapsed().as_secs_f64()
    );
}

fn surface_seeds() -> Vec<Vec<u8>> {
    let mut seeds = vec![
        read("examples/demo-server/contracts/mcp-contract.lock"),
        read("examples/surfaces/search-v1.json"),
        read("examples/surfaces/search-v2.json"),
        br#"[{"name": "t", "inputSchema": {"type": "object"}}]"#.to_vec(),
        br##"{"name": "t", "inputSchema": {"$ref": "#/$defs/A", "$defs": {"A": {"type": "string"}}}}"##.to_vec(),
        br#"{"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "t", "inputSchema": {}}], "nextCursor": "x"}}"#.to_vec(),
    ];
    // Real history, read in place, when it is there.
    let corpus = root().join("../shared/corpus/github-mcp-server/pairs");
    if let Ok(dirs) = std::fs::read_dir(&corpus) {
        let mut dirs: Vec<PathBuf> = dirs.flatten().map(|e| e.path()).collect();
        dirs.sort();
        for d in dirs.iter().step_by(40) {
            if let Ok(b) = std::fs::read(d.join("after.json")) {
                seeds.push(b);
            }
        }
    }
    seeds
}

#[test]
fn fuzz_lockfile_reader() {
    fuzz_bytes("lockfile", surface_seeds(), |b| {
        let _ = lockfile::parse(b, "fuzz.lock");
    });
}

#[test]
fn fuzz_surface_loader() {
    fuzz_bytes("surface", surface_seeds(), |b| {
        if let Ok(s) = load::parse_surface(b, "fuzz.json") {
            // Whatever loads renders, and reads back as the same surface.
            let text = lockfile::render(&s);
            let back = lockfile::parse(text.as_bytes(), "rendered.lock")
                .unwrap_or_else(|e| panic!("a rendered lockfile does not read back: {e}"));
            assert_eq!(lockfile::render(&back), text);
        }
    });
}

#[test]
fn fuzz_migration_record_parser() {
    fuzz_bytes(
        "record",
        vec![
            read("examples/demo-server/contracts/migrations.toml"),
            b"version = 1\n[[acknowledge]]\nfingerprint = \"input.required-added t /inputSchema/required r\"\nreason = \"r\"\nowner = \"o\"\ntransition = { kind = \"default\", field = \"r\", value = 1 }\n".to_vec(),
        ],
        |b| {
            let text = String::from_utf8_lossy(b);
            let _ = migrations::parse(&text, "fuzz.toml");
        },
    );
}

#[test]
fn fuzz_fixture_parser() {
    let dir = root().join("examples/demo-server/contracts/fixtures/search_catalog");
    let mut seeds = vec![];
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        seeds.push(std::fs::read(e.path()).unwrap());
    }
    seeds.sort();
    fuzz_bytes("fixture", seeds, |b| {
        let _ = fixtures::parse(b, "fuzz.json", "search_catalog");
    });
}

/// A random JSON Schema: every keyword family the comparator reads, with
/// `$ref`s into a shared `$defs` (including cycles and fan-out).
fn schema(rng: &mut Rng, depth: usize) -> Value {
    if depth == 0 || rng.chance(4) {
        return match rng.below(6) {
            0 => json!(true),
            1 => json!({}),
            2 => json!({"$ref": format!("#/$defs/D{}", rng.below(4))}),
            3 => {
                let t = ["string", "number", "integer", "boolean", "null"][rng.below(5)];
                json!({ "type": t })
            }
            4 => json!({"enum": [rng.below(3), "a", null]}),
            _ => json!({"const": rng.below(3)}),
        };
    }
    let mut m = Map::new();
    let types = [
        "object", "array", "string", "number", "integer", "boolean", "null",
    ];
    if rng.chance(2) {
        m.insert("type".into(), json!(types[rng.below(types.len())]));
    } else if rng.chance(3) {
        m.insert(
            "type".into(),
            json!([types[rng.below(7)], types[rng.below(7)]]),
        );
    }
    for _ in 0..rng.below(5) {
        let d = depth - 1;
        match rng.below(22) {
            0 => {
                let mut props = Map::new();
                for i in 0..1 + rng.below(3) {
                    props.insert(["a", "b", "c", "d"][i].into(), schema(rng, d));
                }
                m.insert("properties".into(), Value::Object(props));
            }
            1 => {
                m.insert(
                    "required".into(),
                    json!(["a", "b", "c"][..1 + rng.below(3)]),
                );
            }
            2 => {
                let v = if rng.chance(2) {
                    json!(rng.chance(2))
                } else {
                    schema(rng, d)
                };
                m.insert("additionalProperties".into(), v);
            }
            3 => {
                m.insert("items".into(), schema(rng, d));
            }
            4 => {
                m.insert(
                    "prefixItems".into(),
                    json!([schema(rng, d), schema(rng, d)]),
                );
            }
            5 => {
                let k = ["anyOf", "oneOf", "allOf"][rng.below(3)];
                let n = 1 + rng.below(3);
                m.insert(
                    k.into(),
                    Value::Array((0..n).map(|_| schema(rng, d)).collect()),
                );
            }
            6 => {
                m.insert("not".into(), schema(rng, d));
            }
            7 => {
                m.insert("if".into(), schema(rng, d));
                m.insert("then".into(), schema(rng, d));
                if rng.chance(2) {
                    m.insert("else".into(), schema(rng, d));
                }
            }
            8 => {
                let k = [
                    "minimum",
                    "maximum",
                    "exclusiveMinimum",
                    "exclusiveMaximum",
                    "multipleOf",
                ][rng.below(5)];
                let v = [json!(0), json!(1), json!(-1.5), json!(1e300), json!(0.1)][rng.below(5)]
                    .clone();
                m.insert(k.into(), v);
            }
            9 => {
                let k = [
                    "minLength",
                    "maxLength",
                    "minItems",
                    "maxItems",
                    "minProperties",
                    "maxProperties",
                ][rng.below(6)];
                m.insert(k.into(), json!(rng.below(4)));
            }
            10 => {
                let p = ["^a", "a+", "^[0-9]{3}$", "(a|b)*c", ".*", "["][rng.below(6)];
                m.insert("pattern".into(), json!(p));
            }
            11 => {
                m.insert(
                    "format".into(),
                    json!(["date-time", "email", "uuid", "int32"][rng.below(4)]),
                );
            }
            12 => {
                m.insert("patternProperties".into(), json!({"^x-": schema(rng, d)}));
            }
            13 => {
                m.insert("propertyNames".into(), schema(rng, d));
            }
            14 => {
                m.insert("dependentRequired".into(), json!({"a": ["b"]}));
            }
            15 => {
                m.insert("dependentSchemas".into(), json!({"a": schema(rng, d)}));
            }
            16 => {
                m.insert("contains".into(), schema(rng, d));
                if rng.chance(2) {
                    m.insert("minContains".into(), json!(rng.below(3)));
                }
            }
            17 => {
                m.insert("uniqueItems".into(), json!(rng.chance(2)));
            }
            18 => {
                m.insert("default".into(), json!(rng.below(3)));
            }
            19 => {
                m.insert("description".into(), json!("d"));
                m.insert("deprecated".into(), json!(rng.chance(2)));
            }
            20 => {
                m.insert("$ref".into(), json!(format!("#/$defs/D{}", rng.below(4))));
            }
            _ => {
                m.insert(
                    ["unevaluatedProperties", "unevaluatedItems", "x-custom"][rng.below(3)].into(),
                    json!(false),
                );
            }
        }
    }
    Value::Object(m)
}

fn document(rng: &mut Rng) -> Value {
    let mut root = schema(rng, 4);
    if !root.is_object() {
        root = json!({});
    }
    if let Value::Object(m) = &mut root {
        // MCP roots are objects: the loader refuses a root that admits none.
        m.remove("type");
        if rng.chance(4) {
            m.insert("type".into(), json!("object"));
        }
        m.remove("const");
        m.remove("enum");
        let mut defs = Map::new();
        for i in 0..4 {
            defs.insert(format!("D{i}"), schema(rng, 3));
        }
        m.insert("$defs".into(), Value::Object(defs));
    }
    root
}

/// A small random edit of a schema tree (a change to compare against).
fn edit(rng: &mut Rng, v: &mut Value) {
    match v {
        Value::Object(m) if !m.is_empty() && rng.chance(2) => {
            let keys: Vec<String> = m.keys().cloned().collect();
            let k = &keys[rng.below(keys.len())];
            if rng.chance(3) {
                m.remove(k);
            } else {
                edit(rng, m.get_mut(k).unwrap());
            }
        }
        Value::Array(a) if !a.is_empty() => {
            let i = rng.below(a.len());
            edit(rng, &mut a[i]);
        }
        _ => *v = schema(rng, 2),
    }
}

#[test]
fn fuzz_diff_on_generated_schemas() {
    let started = Instant::now();
    let mut rng = Rng(seed("diff"));
    let n = iterations();
    let (mut changed, mut refused) = (0usize, 0usize);
    for (name, bytes) in regressions("diff") {
        let pair: Value = serde_json::from_slice(&bytes).unwrap();
        check_pair(
            format!("diff: regression {name}"),
            pair[0].clone(),
            pair[1].clone(),
        );
    }
    for i in 0..n {
        let old = document(&mut rng);
        let mut new = old.clone();
        edit(&mut rng, &mut new);
        let what = format!(
            "diff: seed {} iteration {i}\nold = {old}\nnew = {new}",
            seed("diff")
        );
        refused += usize::from(!accepted(&old) || !accepted(&new));
        changed += usize::from(check_pair(what, old, new));
    }
    eprintln!(
        "fuzz diff: {n} generated pairs in {:.2}s ({refused} refused by the loader, {changed} with changes reported)",
        started.elapsed().as_secs_f64()
    );
}

/// Does the loader accept `schema` as a tool's input and output schema?
/// (It refuses, for one, references that point to nothing; the comparator
/// only ever sees what it accepts.)
fn accepted(schema: &Value) -> bool {
    let tool = json!([{"name": "t", "inputSchema": schema, "outputSchema": schema}]);
    load::surface_from_value(&tool, "fuzz").is_ok()
}

/// The properties of one pair; returns whether old -> new reported anything.
fn check_pair(what: String, old: Value, new: Value) -> bool {
    guarded(what.clone(), move || {
        // No panic on anything; the other properties on what the tool accepts.
        if !accepted(&old) || !accepted(&new) {
            let _ = diff_schema(&old, &new, Direction::Input, "t");
            let _ = diff_schema(&old, &new, Direction::Output, "t");
            return false;
        }
        for dir in [Direction::Input, Direction::Output] {
            for s in [&old, &new] {
                let self_diff = diff_schema(s, s, dir, "t");
                assert!(
                    self_diff.is_empty(),
                    "{what}\nself-diff of {s} ({dir:?}) reported {self_diff:?}"
                );
                let once = canonical::canonicalize(s);
                assert_eq!(
                    canonical::canonicalize(&once),
                    once,
                    "{what}\ncanonicalize is not idempotent on {s}"
                );
                // A canonical spelling is the same schema: no change.
                let spelled = diff_schema(s, &once, dir, "t");
                assert!(
                    spelled.is_empty(),
                    "{what}\ncanonical spelling of {s} ({dir:?}) reported {spelled:?}"
                );
            }
        }
        !diff_schema(&old, &new, Direction::Input, "t").is_empty()
            | !diff_schema(&old, &new, Direction::Output, "t").is_empty()
    })
}

#[test]
fn fuzz_runtime_normalizer() {
    let started = Instant::now();
    let contracts = root().join("examples/demo-server/contracts");
    let lock = contracts.join("mcp-contract.lock");
    let text = std::fs::read_to_string(&lock).unwrap();
    let surface = lockfile::parse(text.as_bytes(), "demo.lock").unwrap();
    let (record, _) = migrations::read(&migrations::path_for(&lock)).unwrap();
    let compat = Compat::new(plan::derive(&record, &surface, &plan::revision_of(&text)).unwrap());
    let tools: Vec<String> = surface
        .tools
        .keys()
        .cloned()
        .chain(["unknown".to_string(), String::new()])
        .collect();
    let names = [
        "query",
        "search_text",
        "currency",
        "note",
        "delivery_instructions",
        "limit",
        "",
        "é",
        "__proto__",
    ];
    let mut rng = Rng(seed("normalize"));
    let n = iterations() * 10;
    for i in 0..n {
        let tool = tools[rng.below(tools.len())].clone();
        let mut args = Map::new();
        for _ in 0..rng.below(5) {
            let v = match rng.below(6) {
                0 => json!(null),
                1 => json!(rng.below(100)),
                2 => json!("rust"),
                3 => json!([1, "x"]),
                4 => json!({"nested": {"query": "x"}}),
                _ => json!(1e308),
            };
            args.insert(names[rng.below(names.len())].to_string(), v);
        }
        let arguments = if rng.chance(10) { None } else { Some(args) };
        let c = compat.clone();
        guarded(
            format!("normalize: iteration {i}: {tool} {arguments:?}"),
            move || {
                let _ = c.prepare(&tool, arguments);
            },
        );
    }
    eprintln!(
        "fuzz normalize: {n} calls in {:.2}s",
        started.elapsed().as_secs_f64()
    );
}
