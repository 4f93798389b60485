//! Soundness of the classifier, both directions, measured against a real validator.
//!
//! proptest generates an old schema and a mutated new one, plus instances.
//! As inputs (instances guided by OLD): whenever the `jsonschema` crate
//! accepts an instance under OLD and rejects it under NEW, the classifier
//! must have reported an `input.*` breaking change. As outputs (instances
//! guided by NEW: what a server may now send): whenever NEW allows an
//! instance OLD forbids, it must have reported an `output.*` one. The test
//! also measures precision: how often the classifier says breaking while
//! the validator found no counterexample.
//!
//! Callers are assumed to send only the properties a schema declares (the
//! documented policy for open objects), so object instances only use
//! declared property names.

use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_contract::diff::{diff_schema, Direction};
use mcp_contract::rules::Severity;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::{json, Map, Value};

/// Cases per run; `MCP_CONTRACT_SOUNDNESS_CASES` raises it for longer local runs.
fn cases() -> u32 {
    std::env::var("MCP_CONTRACT_SOUNDNESS_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1500)
}

const INSTANCES_PER_PAIR: usize = 40;
const NAMES: [&str; 3] = ["a", "b", "c"];

fn pool_value(i: u64) -> Value {
    let pool = [
        json!(null),
        json!(true),
        json!(false),
        json!(0),
        json!(1),
        json!(3),
        json!(-2),
        json!(10),
        json!(2.5),
        json!(""),
        json!("a"),
        json!("ab"),
        json!("abc"),
        json!("ba"),
        json!("x"),
    ];
    pool[(i as usize) % pool.len()].clone()
}

fn type_name(i: u64) -> &'static str {
    [
        "null", "boolean", "integer", "number", "string", "object", "array",
    ][(i as usize) % 7]
}

// ---- schema generation ------------------------------------------------------

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!({})),
        (0u64..7).prop_map(|t| json!({"type": type_name(t)})),
        (0u64..7, 0u64..7).prop_map(|(a, b)| json!({"type": [type_name(a), type_name(b)]})),
        (
            prop::option::of(-2i64..5),
            prop::option::of(0i64..12),
            prop::bool::ANY,
            prop::option::of(1u64..4)
        )
            .prop_map(|(min, max, int, mult)| {
                let mut m = Map::new();
                m.insert("type".into(), json!(if int { "integer" } else { "number" }));
                if let Some(v) = min {
                    m.insert("minimum".into(), json!(v));
                }
                if let Some(v) = max {
                    m.insert("maximum".into(), json!(v));
                }
                if let Some(v) = mult {
                    m.insert("multipleOf".into(), json!(v));
                }
                Value::Object(m)
            }),
        (
            prop::option::of(0u64..3),
            prop::option::of(0u64..4),
            prop::option::of(0usize..3)
        )
            .prop_map(|(min, max, pat)| {
                let mut m = Map::new();
                m.insert("type".into(), json!("string"));
                if let Some(v) = min {
                    m.insert("minLength".into(), json!(v));
                }
                if let Some(v) = max {
                    m.insert("maxLength".into(), json!(v));
                }
                if let Some(p) = pat {
                    m.insert("pattern".into(), json!(["^a", "b$", "^[ab]+$"][p]));
                }
                Value::Object(m)
            }),
        prop::collection::vec(0u64..15, 1..4)
            .prop_map(|vals| json!({"enum": vals.into_iter().map(pool_value).collect::<Vec<_>>()})),
        (0u64..15).prop_map(|v| json!({"const": pool_value(v)})),
    ]
}

fn schema() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(3, 24, 3, |inner| {
        prop_oneof![
            (
                prop::collection::vec(prop::option::of(inner.clone()), 3),
                prop::collection::vec(prop::bool::ANY, 3),
                0u8..3,
                inner.clone()
            )
                .prop_map(|(props, req, ap, ap_schema)| {
                    let mut properties = Map::new();
                    let mut required = vec![];
                    for (i, p) in props.into_iter().enumerate() {
                        if let Some(p) = p {
                            properties.insert(NAMES[i].into(), p);
                            if req[i] {
                                required.push(json!(NAMES[i]));
                            }
                        }
                    }
                    let mut m = Map::new();
                    m.insert("type".into(), json!("object"));
                    m.insert("properties".into(), Value::Object(properties));
                    if !required.is_empty() {
                        m.insert("required".into(), Value::Array(required));
                    }
                    match ap {
                        1 => {
                            m.insert("additionalProperties".into(), json!(false));
                        }
                        2 => {
                            m.insert("additionalProperties".into(), ap_schema);
                        }
                        _ => {}
                    }
                    Value::Object(m)
                }),
            (
                inner.clone(),
                prop::option::of(0u64..3),
                prop::option::of(0u64..4),
                prop::bool::ANY
            )
                .prop_map(|(items, min, max, unique)| {
                    let mut m = Map::new();
                    m.insert("type".into(), json!("array"));
                    m.insert("items".into(), items);
                    if let Some(v) = min {
                        m.insert("minItems".into(), json!(v));
                    }
                    if let Some(v) = max {
                        m.insert("maxItems".into(), json!(v));
                    }
                    if unique {
                        m.insert("uniqueItems".into(), json!(true));
                    }
                    Value::Object(m)
                }),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| json!({"anyOf": [a, b]})),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| json!({"oneOf": [a, b]})),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| json!({"allOf": [a, b]})),
            inner.clone().prop_map(|a| json!({"not": a})),
            inner.prop_map(|a| json!({"anyOf": [a, {"type": "null"}]})),
        ]
    })
}

// ---- mutation -----------------------------------------------------------------

/// A tiny deterministic generator for mutations and instances.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// All object nodes (by pointer) of a schema, for picking a mutation site.
fn nodes(v: &Value, ptr: String, out: &mut Vec<String>) {
    if let Value::Object(m) = v {
        out.push(ptr.clone());
        for (k, child) in m {
            match k.as_str() {
                "properties" => {
                    if let Value::Object(ps) = child {
                        for (n, p) in ps {
                            nodes(p, format!("{ptr}/properties/{n}"), out);
                        }
                    }
                }
                "items" | "not" | "additionalProperties" => nodes(child, format!("{ptr}/{k}"), out),
                "anyOf" | "oneOf" | "allOf" => {
                    if let Value::Array(a) = child {
                        for (i, b) in a.iter().enumerate() {
                            nodes(b, format!("{ptr}/{k}/{i}"), out);
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

fn mutate_node(m: &mut Map<String, Value>, rng: &mut Rng, defs: &mut Map<String, Value>) {
    match rng.below(16) {
        0 => {
            m.insert("type".into(), json!(type_name(rng.next())));
        }
        1 => {
            m.remove("type");
        }
        2 => {
            let t = m.get("type").cloned();
            let extra = json!(type_name(rng.next()));
            m.insert(
                "type".into(),
                match t {
                    Some(Value::String(s)) => json!([s, extra]),
                    _ => extra,
                },
            );
        }
        3 => {
            let vals: Vec<Value> = (0..rng.below(3) + 1)
                .map(|_| pool_value(rng.next()))
                .collect();
            m.insert("enum".into(), Value::Array(vals));
        }
        4 => {
            if let Some(Value::Array(a)) = m.get_mut("enum") {
                if rng.chance(50) && a.len() > 1 {
                    a.pop();
                } else {
                    a.push(pool_value(rng.next()));
                }
            } else {
                m.remove("const");
            }
        }
        5 => {
            let kw = [
                "minimum",
                "maximum",
                "exclusiveMinimum",
                "exclusiveMaximum",
                "multipleOf",
            ][rng.below(5) as usize];
            if rng.chance(30) {
                m.remove(kw);
            } else {
                let v = if kw == "multipleOf" {
                    rng.below(3) as i64 + 1
                } else {
                    rng.below(8) as i64 - 2
                };
                m.insert(kw.into(), json!(v));
            }
        }
        6 => {
            let kw = [
                "minLength",
                "maxLength",
                "minItems",
                "maxItems",
                "minProperties",
                "maxProperties",
            ][rng.below(6) as usize];
            if rng.chance(30) {
                m.remove(kw);
            } else {
                m.insert(kw.into(), json!(rng.below(4)));
            }
        }
        7 => {
            if rng.chance(40) {
                m.remove("pattern");
            } else {
                m.insert(
                    "pattern".into(),
                    json!(["^a", "b$", "^[ab]+$", "a"][rng.below(4) as usize]),
                );
            }
        }
        8 => {
            let name = NAMES[rng.below(3) as usize];
            let mut req: Vec<Value> = m
                .get("required")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            if let Some(i) = req.iter().position(|v| v == name) {
                req.remove(i);
            } else {
                req.push(json!(name));
            }
            m.insert("required".into(), Value::Array(req));
        }
        9 => {
            let name = NAMES[rng.below(3) as usize];
            let props = m.entry("properties").or_insert_with(|| json!({}));
            if let Value::Object(ps) = props {
                if ps.remove(name).is_none() {
                    ps.insert(name.into(), json!({"type": type_name(rng.next())}));
                }
            }
        }
        10 => {
            match m.get("additionalProperties") {
                None => m.insert("additionalProperties".into(), json!(false)),
                Some(_) if rng.chance(50) => m.remove("additionalProperties"),
                Some(_) => m.insert(
                    "additionalProperties".into(),
                    json!({"type": type_name(rng.next())}),
                ),
            };
        }
        11 => {
            let inner = Value::Object(m.clone());
            m.clear();
            let kw = ["anyOf", "oneOf", "allOf"][rng.below(3) as usize];
            m.insert(kw.into(), json!([inner, {"type": type_name(rng.next())}]));
        }
        12 => {
            for kw in ["anyOf", "oneOf", "allOf"] {
                if let Some(Value::Array(a)) = m.get_mut(kw) {
                    if a.len() > 1 {
                        let i = rng.below(a.len() as u64) as usize;
                        a.remove(i);
                    }
                }
            }
        }
        13 => {
            // move the node into $defs behind a reference (must be no change)
            let name = format!("D{}", defs.len());
            defs.insert(name.clone(), Value::Object(m.clone()));
            m.clear();
            m.insert("$ref".into(), json!(format!("#/$defs/{name}")));
        }
        14 => {
            m.insert("uniqueItems".into(), json!(rng.chance(50)));
        }
        _ => {
            if m.remove("not").is_none() {
                m.insert("not".into(), json!({"type": type_name(rng.next())}));
            }
        }
    }
}

fn pointer_mut<'v>(v: &'v mut Value, ptr: &str) -> Option<&'v mut Value> {
    if ptr.is_empty() {
        Some(v)
    } else {
        v.pointer_mut(ptr)
    }
}

fn mutate(old: &Value, seed: u64) -> Value {
    let mut rng = Rng(seed | 1);
    let mut new = old.clone();
    let mut defs = Map::new();
    for _ in 0..(1 + rng.below(3)) {
        let mut sites = vec![];
        nodes(&new, String::new(), &mut sites);
        let site = sites[rng.below(sites.len() as u64) as usize].clone();
        if let Some(Value::Object(m)) = pointer_mut(&mut new, &site) {
            mutate_node(m, &mut rng, &mut defs);
        }
    }
    if !defs.is_empty() {
        if let Value::Object(root) = &mut new {
            if root.contains_key("$ref") {
                // keep the root a real schema: wrap it
                let r = Value::Object(std::mem::take(root));
                root.insert("allOf".into(), json!([r]));
            }
            root.insert("$defs".into(), Value::Object(defs));
        }
    }
    new
}

// ---- instances ----------------------------------------------------------------

fn instance(schema: &Value, root: &Value, rng: &mut Rng, depth: usize) -> Value {
    if depth > 6 || rng.chance(8) {
        return pool_value(rng.next());
    }
    let Some(m) = schema.as_object() else {
        return pool_value(rng.next());
    };
    if let Some(r) = m.get("$ref").and_then(Value::as_str) {
        if let Some(t) = r.strip_prefix('#').and_then(|p| root.pointer(p)) {
            return instance(t, root, rng, depth + 1);
        }
    }
    if let Some(c) = m.get("const") {
        return c.clone();
    }
    if let Some(Value::Array(e)) = m.get("enum") {
        if !e.is_empty() && rng.chance(85) {
            return e[rng.below(e.len() as u64) as usize].clone();
        }
    }
    for kw in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(bs)) = m.get(kw) {
            if !bs.is_empty() && rng.chance(70) {
                return instance(
                    &bs[rng.below(bs.len() as u64) as usize],
                    root,
                    rng,
                    depth + 1,
                );
            }
        }
    }
    let ty = match m.get("type") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(a)) if !a.is_empty() => a[rng.below(a.len() as u64) as usize]
            .as_str()
            .unwrap_or("null")
            .to_string(),
        _ => {
            if m.contains_key("properties") {
                "object".into()
            } else if m.contains_key("items") {
                "array".into()
            } else {
                type_name(rng.next()).into()
            }
        }
    };
    match ty.as_str() {
        "object" => {
            let mut out = Map::new();
            let required: Vec<String> = m
                .get("required")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|v| v.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default();
            if let Some(Value::Object(ps)) = m.get("properties") {
                for (k, p) in ps {
                    if required.contains(k) || rng.chance(60) {
                        out.insert(k.clone(), instance(p, root, rng, depth + 1));
                    }
                }
            }
            for k in required {
                if !out.contains_key(&k) {
                    out.insert(k, pool_value(rng.next()));
                }
            }
            if let Some(ap @ Value::Object(_)) = m.get("additionalProperties") {
                if rng.chance(40) {
                    out.insert("z".into(), instance(ap, root, rng, depth + 1));
                }
            }
            Value::Object(out)
        }
        "array" => {
            let items = m.get("items").cloned().unwrap_or(json!({}));
            Value::Array(
                (0..rng.below(4))
                    .map(|_| instance(&items, root, rng, depth + 1))
                    .collect(),
            )
        }
        "integer" => json!(rng.below(14) as i64 - 3),
        "number" => {
            if rng.chance(50) {
                json!(rng.below(14) as i64 - 3)
            } else {
                json!((rng.below(20) as f64) / 2.0 - 3.25)
            }
        }
        "string" => json!(["", "a", "b", "ab", "ba", "abc", "bb", "aab"][rng.below(8) as usize]),
        "boolean" => json!(rng.chance(50)),
        _ => Value::Null,
    }
}

// ---- the property ---------------------------------------------------------------

/// What one direction's run saw.
struct Counts {
    pairs: AtomicUsize,
    instances: AtomicUsize,
    counterexample_pairs: AtomicUsize,
    said_breaking: AtomicUsize,
    said_breaking_confirmed: AtomicUsize,
}

impl Counts {
    const fn new() -> Self {
        Counts {
            pairs: AtomicUsize::new(0),
            instances: AtomicUsize::new(0),
            counterexample_pairs: AtomicUsize::new(0),
            said_breaking: AtomicUsize::new(0),
            said_breaking_confirmed: AtomicUsize::new(0),
        }
    }
}

static INPUT: Counts = Counts::new();
static OUTPUT: Counts = Counts::new();

/// MCP arguments are always an object: the generated schema becomes the
/// property `v` of an object root (its `$defs` move up with it). Output
/// schemas get the same root, so both directions judge the same shapes.
fn as_arguments(schema: &Value) -> Value {
    let mut inner = schema.clone();
    let defs = inner.as_object_mut().and_then(|m| m.remove("$defs"));
    let mut root = json!({"type": "object", "properties": {"v": inner}, "required": ["v"]});
    if let Some(defs) = defs {
        root["$defs"] = defs;
    }
    root
}

/// Inputs: an instance the OLD schema accepts and the NEW rejects (drawn
/// from OLD) must have produced an `input.*` breaking change. Outputs: an
/// instance the NEW schema allows and the OLD forbids (drawn from NEW: what
/// a server may now send) must have produced an `output.*` one.
fn check_pair(old: &Value, new: &Value, seed: u64, dir: Direction) -> Result<(), TestCaseError> {
    let (old, new) = (&as_arguments(old), &as_arguments(new));
    let (Ok(vo), Ok(vn)) = (
        jsonschema::validator_for(old),
        jsonschema::validator_for(new),
    ) else {
        return Ok(()); // not a schema the validator compiles (e.g. conflicting keywords): nothing to measure
    };
    let (counts, prefix, (before, after), drawn_from) = match dir {
        Direction::Input => (&INPUT, "input.", (&vo, &vn), old),
        Direction::Output => (&OUTPUT, "output.", (&vn, &vo), new),
    };
    counts.pairs.fetch_add(1, Ordering::Relaxed);
    let changes = diff_schema(old, new, dir, "t");
    let breaking = changes
        .iter()
        .any(|c| c.severity == Severity::Breaking && c.rule.starts_with(prefix));
    let mut rng = Rng(seed ^ 0x9e37_79b9_7f4a_7c15);
    let mut counterexample = None;
    for _ in 0..INSTANCES_PER_PAIR {
        let inst = json!({"v": instance(&drawn_from["properties"]["v"], drawn_from, &mut rng, 0)});
        counts.instances.fetch_add(1, Ordering::Relaxed);
        if before.is_valid(&inst) && !after.is_valid(&inst) {
            counterexample = Some(inst);
            break;
        }
    }
    if breaking {
        counts.said_breaking.fetch_add(1, Ordering::Relaxed);
        if counterexample.is_none() {
            dump_unconfirmed(old, new, &changes);
        }
    }
    if let Some(inst) = counterexample {
        counts.counterexample_pairs.fetch_add(1, Ordering::Relaxed);
        if breaking {
            counts
                .said_breaking_confirmed
                .fetch_add(1, Ordering::Relaxed);
        }
        let (accepted, rejected) = match dir {
            Direction::Input => ("valid under old", "rejected under new"),
            Direction::Output => ("allowed under new", "forbidden under old"),
        };
        prop_assert!(
            breaking,
            "missed a breaking change ({prefix}*):\nold = {old}\nnew = {new}\ninstance {inst} is {accepted}, {rejected}\nreported: {:?}",
            changes.iter().map(|c| (c.rule, c.pointer.as_str())).collect::<Vec<_>>()
        );
    }
    Ok(())
}

/// `MCP_CONTRACT_SOUNDNESS_DUMP=FILE` appends every pair the classifier
/// called breaking without a validator counterexample, for precision work.
fn dump_unconfirmed(old: &Value, new: &Value, changes: &[mcp_contract::Change]) {
    let Some(path) = std::env::var_os("MCP_CONTRACT_SOUNDNESS_DUMP") else {
        return;
    };
    let rules: Vec<&str> = changes
        .iter()
        .filter(|c| c.severity == Severity::Breaking)
        .map(|c| c.rule)
        .collect();
    let line = json!({"old": old, "new": new, "rules": rules}).to_string() + "\n";
    use std::io::Write;
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
    {
        let _ = f.write_all(line.as_bytes());
    }
}

fn run(dir: Direction, counts: &Counts) {
    // Deterministic in CI; MCP_CONTRACT_SOUNDNESS_SEED explores other runs locally.
    let seed: u64 = std::env::var("MCP_CONTRACT_SOUNDNESS_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20261129);
    let mut seed_bytes = [0u8; 32];
    seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let config = Config {
        cases: cases(),
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner = TestRunner::new_with_rng(
        config,
        TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes),
    );
    let strategy = (schema(), any::<u64>()).prop_map(|(old, seed)| {
        let new = mutate(&old, seed);
        (old, new, seed)
    });
    let result = runner.run(&strategy, |(old, new, seed)| {
        check_pair(&old, &new, seed, dir)
    });
    let pairs = counts.pairs.load(Ordering::Relaxed);
    let said = counts.said_breaking.load(Ordering::Relaxed);
    let confirmed = counts.said_breaking_confirmed.load(Ordering::Relaxed);
    let found = counts.counterexample_pairs.load(Ordering::Relaxed);
    println!(
        "soundness {dir:?} (seed {seed}): {pairs} schema pairs, {} instances, {found} pairs with a validator counterexample; classifier said breaking for {said} pairs, {confirmed} confirmed by a counterexample (precision {:.1}%)",
        counts.instances.load(Ordering::Relaxed),
        if said == 0 { 100.0 } else { 100.0 * confirmed as f64 / said as f64 }
    );
    if let Err(e) = result {
        panic!("{e}");
    }
    assert!(
        pairs > 100,
        "too few schema pairs compiled ({pairs}): the generator is broken"
    );
    assert!(
        found > 10,
        "the instance generator finds no counterexamples: it is broken"
    );
}

#[test]
fn input_classifier_never_misses_a_validator_counterexample() {
    run(Direction::Input, &INPUT);
}

#[test]
fn output_classifier_never_misses_a_validator_counterexample() {
    run(Direction::Output, &OUTPUT);
}
