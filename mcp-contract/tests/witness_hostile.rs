//! Hostile schemas: the witness pass ends, says the same thing twice, and
//! every witness it emits holds (re-checked with the `jsonschema` crate's
//! default validator). Patterns that make backtracking engines explode or
//! automata blow up, bounds and numbers too large to build, deep and
//! self-referencing `$ref` chains, exponential `$ref` fan-out. No timing
//! assertions: the speed lives in `benches/witness.rs`; a hang here is a
//! failure of the bound.

use mcp_contract::diff::diff_surfaces;
use mcp_contract::rules::Severity;
use mcp_contract::witness::{self, Proof, Witness, WitnessKind};
use mcp_contract::{Surface, Tool};
use serde_json::{json, Value};

fn surface(input: &Value, output: Option<&Value>) -> Surface {
    let mut t = Tool::new("t");
    t.input_schema = input.clone();
    t.output_schema = output.cloned();
    let mut s = Surface::new();
    s.insert(t);
    s
}

type Proofs = Vec<(String, String, Option<Witness>, Proof)>;

fn proofs(old: &Value, new: &Value) -> Proofs {
    let (o, n) = (surface(old, Some(old)), surface(new, Some(new)));
    let mut r = diff_surfaces(&o, &n);
    witness::attach(&mut r, &o, &n, &witness::Options::default());
    r.changes
        .into_iter()
        .filter(|c| c.severity == Severity::Breaking)
        .map(|c| (c.rule.to_string(), c.pointer, c.witness, c.proof.unwrap()))
        .collect()
}

/// Every witness holds on both sides (the default validator: a different regex engine).
fn holds(old: &Value, new: &Value, p: &Proofs) {
    let compile = |s: &Value| jsonschema::validator_for(s).ok();
    let (vo, vn) = (compile(old), compile(new));
    for (rule, ptr, w, proof) in p {
        let Some(w) = w else {
            assert!(
                !matches!(proof, Proof::Proven),
                "{rule} {ptr}: proven without witness"
            );
            continue;
        };
        let (Some(vo), Some(vn)) = (&vo, &vn) else {
            continue;
        };
        let ok = match w.kind {
            WitnessKind::Rejected => vo.is_valid(&w.value) && !vn.is_valid(&w.value),
            WitnessKind::Unexpected => vn.is_valid(&w.value) && !vo.is_valid(&w.value),
            WitnessKind::Ignored => vo.is_valid(&w.value) && vn.is_valid(&w.value),
            _ => true,
        };
        assert!(ok, "{rule} {ptr}: {} does not hold", w.sentence());
    }
}

fn obj(props: Value) -> Value {
    json!({"type": "object", "properties": props})
}

fn string_with(extra: Value) -> Value {
    let mut s = json!({"type": "string"});
    for (k, v) in extra.as_object().unwrap() {
        s[k] = v.clone();
    }
    obj(json!({"s": s}))
}

/// A chain of `n` definitions, each referring to the next; the last is `leaf`.
fn chain(n: usize, leaf: Value) -> Value {
    let mut defs = serde_json::Map::new();
    for i in 0..n {
        defs.insert(
            format!("d{i}"),
            json!({"$ref": format!("#/$defs/d{}", i + 1)}),
        );
    }
    defs.insert(format!("d{n}"), leaf);
    json!({"type": "object", "properties": {"v": {"$ref": "#/$defs/d0"}}, "$defs": defs})
}

/// Each definition refers twice to the next: 2^n paths through `n` definitions.
fn fan_out(n: usize, leaf: Value) -> Value {
    let mut defs = serde_json::Map::new();
    for i in 0..n {
        let next = format!("#/$defs/d{}", i + 1);
        defs.insert(
            format!("d{i}"),
            json!({"type": "object", "properties": {"l": {"$ref": next}, "r": {"$ref": next}}}),
        );
    }
    defs.insert(format!("d{n}"), leaf);
    json!({"type": "object", "properties": {"v": {"$ref": "#/$defs/d0"}}, "$defs": defs})
}

fn cases() -> Vec<(&'static str, Value, Value)> {
    let plain = string_with(json!({}));
    let deep = (0..300).fold(
        json!({"type": "string"}),
        |acc, _| json!({"type": "object", "properties": {"a": acc}, "required": ["a"]}),
    );
    let mut deeper = deep.clone();
    if let Some(p) = deeper.pointer_mut(&format!("{}/type", "/properties/a".repeat(300))) {
        *p = json!("integer");
    }
    // 10,000 digits: a decimal with a 9,998-digit fraction, and a 309-digit integer (near f64::MAX)
    let long_fraction: Value = serde_json::from_str(&format!("1.{}", "3".repeat(9_998))).unwrap();
    let tiny: Value = serde_json::from_str(&format!("0.{}1", "0".repeat(9_997))).unwrap();
    let big: Value = serde_json::from_str(&format!("1{}", "7".repeat(308))).unwrap();
    vec![
        (
            "backtracking pattern",
            plain.clone(),
            string_with(json!({"pattern": "^(a+)+$"})),
        ),
        (
            "nested counted repetition",
            plain.clone(),
            string_with(json!({"pattern": "^(a{100}){100}$"})),
        ),
        (
            "pattern too big to build",
            plain.clone(),
            string_with(json!({"pattern": "a{100000}{100000}"})),
        ),
        (
            "huge classes",
            string_with(json!({"pattern": "^[\\u0000-\\uffff]{50}$"})),
            string_with(json!({"pattern": "^[^a]{50}$"})),
        ),
        (
            "automaton blow-up",
            string_with(json!({"pattern": "(a|b)*a(a|b){20}"})),
            string_with(json!({"pattern": "(a|b)*a(a|b){21}"})),
        ),
        (
            "long pattern",
            plain.clone(),
            string_with(json!({"pattern": "a".repeat(100_000)})),
        ),
        (
            "huge bounds",
            obj(
                json!({"s": {"type": "string", "minLength": 1_000_000_000u64}, "l": {"type": "array", "minItems": 1_000_000_000u64}, "o": {"type": "object", "minProperties": 1_000_000_000u64}}),
            ),
            obj(
                json!({"s": {"type": "string", "minLength": 1_000_000_001u64}, "l": {"type": "array", "minItems": 1_000_000_001u64}, "o": {"type": "object", "minProperties": 1_000_000_001u64}}),
            ),
        ),
        (
            "10,000-digit numbers",
            obj(
                json!({"n": {"type": "number", "maximum": big}, "m": {"type": "number", "multipleOf": tiny}, "f": {"type": "number", "minimum": long_fraction}}),
            ),
            obj(
                json!({"n": {"type": "number", "maximum": 1e300}, "m": {"type": "number", "multipleOf": 7e-300}, "f": {"type": "number", "minimum": 1.5}}),
            ),
        ),
        (
            "self-reference",
            obj(json!({"next": {"$ref": "#"}, "v": {"type": "string"}})),
            obj(json!({"next": {"$ref": "#"}, "v": {"type": "integer"}})),
        ),
        ("deep nesting", deep, deeper),
        (
            "deep $ref chain",
            chain(500, json!({"type": "string"})),
            chain(500, json!({"type": "integer"})),
        ),
        (
            "$ref cycle",
            chain(50, json!({"$ref": "#/$defs/d0"})),
            chain(50, json!({"type": "integer"})),
        ),
        (
            "exponential $ref fan-out",
            fan_out(40, json!({"type": "string"})),
            fan_out(40, json!({"type": "integer"})),
        ),
    ]
}

/// The cases run on a thread with the stack the CLI's main thread has
/// (8 MiB): since the engine changes of main's 113d22d..73ff8ad, diffing the
/// 300-deep schema overflows a 2 MiB test thread in debug builds (reported).
#[test]
fn hostile_schemas_end_deterministically_with_holding_witnesses() {
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(run_cases)
        .unwrap()
        .join()
        .unwrap();
}

fn run_cases() {
    for (name, old, new) in cases() {
        eprintln!("case: {name}");
        let a = proofs(&old, &new);
        let b = proofs(&old, &new);
        assert_eq!(a, b, "{name}: the same input gave another answer");
        holds(&old, &new, &a);
        eprintln!(
            "  {} breaking: {:?}",
            a.len(),
            a.iter()
                .map(|(r, _, w, p)| (r.as_str(), p.as_str(), w.as_ref().map(|w| w.sentence())))
                .collect::<Vec<_>>()
        );
    }
}
