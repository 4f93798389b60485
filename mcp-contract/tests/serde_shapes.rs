//! The shapes serde + schemars publish most, and the classes of change the
//! gate once missed in them (issue: "the gate must never pass a real
//! break"). Each class has a breaking case that must be reported and a
//! harmless neighbour that must stay quiet.

#[path = "support/breaking.rs"]
mod breaking;

use breaking::{breaking_in, breaking_out, tool};
use mcp_contract::diff_surfaces;
use mcp_contract::load::surface_from_value;
use mcp_contract::schema::vocabulary::{handling, Handling};
use serde_json::{json, Value};

fn demo_create_order() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/demo-server/contracts/mcp-contract.lock"
    );
    let lock: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    lock["tools"]["create_order"]["inputSchema"].clone()
}

// ---- 1. references inside alternatives -------------------------------------

#[test]
fn a_changed_def_reached_through_a_one_of_branch_is_compared() {
    // the demo server's `Shipping` (a serde enum with a struct variant) reaches
    // `Address` through a oneOf branch
    let old = demo_create_order();
    let mut new = old.clone();
    new["$defs"]["Address"]["properties"]["region"] = json!({"type": "string"});
    new["$defs"]["Address"]["required"]
        .as_array_mut()
        .unwrap()
        .push(json!("region"));
    new["$defs"]["Address"]["properties"]["street"] = json!({"type": "integer"});
    let got = breaking_in(old.clone(), new);
    let rules: Vec<&str> = got.iter().map(|c| c.0).collect();
    assert!(rules.contains(&"input.required-added"), "{got:?}");
    assert!(rules.contains(&"input.type-narrowed"), "{got:?}");
    // harmless: an optional field behind the branch
    let mut harmless = old.clone();
    harmless["$defs"]["Address"]["properties"]["floor"] = json!({"type": "string"});
    assert_eq!(breaking_in(old, harmless), vec![]);
}

#[test]
fn a_changed_def_is_compared_wherever_it_is_reached() {
    let defs_old = json!({"K": {"type": "string"}});
    let defs_new = json!({"K": {"type": "string", "maxLength": 3}});
    for (kw, place) in [
        (
            "items",
            json!({"type": "array", "items": {"$ref": "#/$defs/K"}}),
        ),
        (
            "additionalProperties",
            json!({"type": "object", "additionalProperties": {"$ref": "#/$defs/K"}}),
        ),
        (
            "prefixItems",
            json!({"type": "array", "prefixItems": [{"$ref": "#/$defs/K"}]}),
        ),
        (
            "anyOf",
            json!({"anyOf": [{"type": "null"}, {"type": "integer"}, {"$ref": "#/$defs/K"}]}),
        ),
        (
            "nested",
            json!({"oneOf": [{"anyOf": [{"$ref": "#/$defs/K"}, {"type": "boolean"}]}, {"type": "null"}]}),
        ),
        (
            "allOf",
            json!({"allOf": [{"$ref": "#/$defs/K"}, {"minLength": 1}]}),
        ),
    ] {
        let old = json!({"type": "object", "properties": {"v": place.clone()}, "$defs": defs_old.clone()});
        let new = json!({"type": "object", "properties": {"v": place}, "$defs": defs_new.clone()});
        let got = breaking_in(old, new);
        assert!(
            got.iter().any(|c| c.0 == "input.length-narrowed"),
            "{kw}: {got:?}"
        );
    }
}

#[test]
fn a_renamed_def_with_the_same_shape_is_no_change() {
    let old = json!({"type": "object", "properties": {"v": {"oneOf": [{"$ref": "#/$defs/A"}, {"type": "null"}]}},
                     "$defs": {"A": {"type": "object", "properties": {"x": {"type": "string"}}}}});
    let new = json!({"type": "object", "properties": {"v": {"oneOf": [{"$ref": "#/$defs/B"}, {"type": "null"}]}},
                     "$defs": {"B": {"type": "object", "properties": {"x": {"type": "string"}}}}});
    let report = diff_surfaces(&tool(old, None), &tool(new, None));
    assert!(report.changes.is_empty(), "{:?}", report.changes);
}

// ---- 2. the pair memo ------------------------------------------------------

#[test]
fn a_second_use_of_the_same_reference_with_other_siblings_is_compared() {
    let defs = json!({"S": {"type": "string"}});
    let old = json!({"type": "object", "$defs": defs, "properties": {
        "a": {"$ref": "#/$defs/S"},
        "b": {"$ref": "#/$defs/S", "maxLength": 10}}});
    let mut new = old.clone();
    new["properties"]["b"]["maxLength"] = json!(3);
    let got = breaking_in(old, new);
    assert_eq!(
        got,
        vec![(
            "input.length-narrowed",
            "/inputSchema/properties/b/maxLength".into()
        )]
    );
}

// ---- 3. integer and number widths -------------------------------------------

fn width(format: &str, min: Option<i64>) -> Value {
    let mut v = json!({"type": "integer", "format": format});
    if let Some(m) = min {
        v["minimum"] = json!(m);
    }
    json!({"type": "object", "properties": {"n": v}})
}

#[test]
fn integer_widths_carried_by_format_are_ranges() {
    // u64 -> u32: values above 4294967295 are rejected now
    let got = breaking_in(width("uint64", Some(0)), width("uint32", Some(0)));
    assert_eq!(
        got,
        vec![(
            "input.range-narrowed",
            "/inputSchema/properties/n/format".into()
        )]
    );
    // u32 -> u64 widens an input ...
    assert_eq!(
        breaking_in(width("uint32", Some(0)), width("uint64", Some(0))),
        vec![]
    );
    // ... and breaks an output
    let got = breaking_out(width("uint32", Some(0)), width("uint64", Some(0)));
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].0, "output.range-widened");
    // i64 -> i32, u8 -> i8 (both ends), f64 -> f32, u128 -> u64
    assert!(!breaking_in(width("int64", None), width("int32", None)).is_empty());
    assert_eq!(
        breaking_in(width("uint8", Some(0)), width("int8", None)).len(),
        1
    );
    let num =
        |f: &str| json!({"type": "object", "properties": {"n": {"type": "number", "format": f}}});
    assert!(!breaking_in(num("double"), num("float")).is_empty());
    assert_eq!(breaking_in(num("float"), num("double")), vec![]);
    assert!(!breaking_in(width("uint128", Some(0)), width("uint64", Some(0))).is_empty());
    // usize and u64 are the same width
    assert_eq!(
        breaking_in(width("uint", Some(0)), width("uint64", Some(0))),
        vec![]
    );
}

#[test]
fn bounds_beyond_two_to_the_53_compare_exactly() {
    let max =
        |m: u64| json!({"type": "object", "properties": {"n": {"type": "integer", "maximum": m}}});
    let got = breaking_in(max(9007199254740993), max(9007199254740992));
    assert_eq!(
        got,
        vec![(
            "input.range-narrowed",
            "/inputSchema/properties/n/maximum".into()
        )]
    );
    assert_eq!(
        breaking_in(max(9007199254740992), max(9007199254740993)),
        vec![]
    );
}

// ---- 4. closed output objects ----------------------------------------------

#[test]
fn a_field_added_to_a_closed_output_object_is_breaking() {
    let old = json!({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false});
    let mut new = old.clone();
    new["properties"]["b"] = json!({"type": "string"});
    assert_eq!(
        breaking_out(old.clone(), new.clone()),
        vec![(
            "output.closed-property-added",
            "/outputSchema/properties/b".into()
        )]
    );
    // on an open object, or on an input, it is additive
    let mut open_old = old.clone();
    open_old
        .as_object_mut()
        .unwrap()
        .remove("additionalProperties");
    let mut open_new = new.clone();
    open_new
        .as_object_mut()
        .unwrap()
        .remove("additionalProperties");
    assert_eq!(breaking_out(open_old, open_new), vec![]);
    assert_eq!(breaking_in(old, new), vec![]);
}

// ---- 5. contains defaults -----------------------------------------------------

#[test]
fn min_contains_defaults_to_one() {
    let arr = |extra: Value| {
        let mut a = json!({"type": "array", "contains": {"type": "string"}});
        for (k, v) in extra.as_object().unwrap() {
            a[k] = v.clone();
        }
        json!({"type": "object", "properties": {"v": a}})
    };
    let got = breaking_in(arr(json!({"minContains": 0})), arr(json!({})));
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].0, "input.size-narrowed");
    // adding `contains` with `minContains: 0` constrains nothing
    let plain = json!({"type": "object", "properties": {"v": {"type": "array"}}});
    assert_eq!(breaking_in(plain, arr(json!({"minContains": 0}))), vec![]);
    // removing `contains` only widens an input
    let plain = json!({"type": "object", "properties": {"v": {"type": "array"}}});
    assert_eq!(breaking_in(arr(json!({})), plain), vec![]);
}

// ---- 6. output roots of any type -----------------------------------------

#[test]
fn non_object_output_roots_are_compared() {
    let arr = |t: &str| json!({"type": "array", "items": {"type": t}});
    let got = breaking_out(arr("integer"), arr("number"));
    assert_eq!(
        got,
        vec![("output.type-widened", "/outputSchema/items/type".into())]
    );
    let got = breaking_out(
        json!({"type": "string"}),
        json!({"type": ["string", "null"]}),
    );
    assert_eq!(
        got,
        vec![("output.type-widened", "/outputSchema/type".into())]
    );
    let got = breaking_out(
        json!({"type": "string", "enum": ["a", "b"]}),
        json!({"type": "string", "enum": ["a", "b", "c"]}),
    );
    assert_eq!(
        got,
        vec![("output.enum-widened", "/outputSchema/enum".into())]
    );
    assert_eq!(breaking_out(arr("number"), arr("integer")), vec![]);
}

#[test]
fn an_input_root_that_admits_no_object_is_an_error() {
    for root in [
        json!({"type": "array"}),
        json!({"type": "string"}),
        json!({"$ref": "#/$defs/S", "$defs": {"S": {"type": "integer"}}}),
    ] {
        let err = surface_from_value(&json!([{"name": "t", "inputSchema": root}]), "x.json")
            .expect_err("must not load");
        let text = err.to_string();
        assert!(text.contains("admits no object"), "{text}");
        assert!(text.contains("/inputSchema"), "{text}");
    }
}

// ---- 7. never silent at a limit ----------------------------------------------

fn chain(n: usize, leaf: &str) -> Value {
    let mut defs = serde_json::Map::new();
    for i in 0..n {
        defs.insert(
            format!("d{i}"),
            json!({"type": "object", "properties": {"x": {"$ref": format!("#/$defs/d{}", i + 1)}}}),
        );
    }
    defs.insert(format!("d{n}"), json!({"type": leaf}));
    json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/d0"}}, "$defs": defs})
}

#[test]
fn a_deep_chain_whose_leaf_narrows_fails_the_gate() {
    let got = breaking_in(chain(260, "number"), chain(260, "integer"));
    assert!(!got.is_empty(), "a 260-deep narrowing passed silently");
    assert!(got.iter().any(|c| c.0 == "input.not-compared"), "{got:?}");
    // below the limit it is compared exactly
    let got = breaking_in(chain(50, "number"), chain(50, "integer"));
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].0, "input.type-narrowed");
    // a long chain of bare references stops at the chain limit, loudly
    let mut defs = serde_json::Map::new();
    for i in 0..100 {
        defs.insert(
            format!("r{i}"),
            json!({"$ref": format!("#/$defs/r{}", i + 1)}),
        );
    }
    let mut old_defs = defs.clone();
    old_defs.insert("r100".into(), json!({"type": "string"}));
    defs.insert("r100".into(), json!({"type": "integer"}));
    let wrap = |d: serde_json::Map<String, Value>| json!({"type": "object", "properties": {"v": {"$ref": "#/$defs/r0"}}, "$defs": d});
    let got = breaking_in(wrap(old_defs), wrap(defs));
    assert!(!got.is_empty(), "a long reference chain passed silently");
}

// ---- 8. resolution keywords and the vocabulary --------------------------------

/// JSON Schema 2020-12 (core, applicator, unevaluated, validation,
/// meta-data, format-annotation, content) and draft-07 keywords.
const VOCABULARY: &[&str] = &[
    "$id",
    "$schema",
    "$ref",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$vocabulary",
    "$comment",
    "$defs",
    "prefixItems",
    "items",
    "contains",
    "additionalProperties",
    "properties",
    "patternProperties",
    "dependentSchemas",
    "propertyNames",
    "if",
    "then",
    "else",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "unevaluatedItems",
    "unevaluatedProperties",
    "type",
    "const",
    "enum",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxContains",
    "minContains",
    "maxProperties",
    "minProperties",
    "required",
    "dependentRequired",
    "title",
    "description",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "examples",
    "format",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
    // draft-07 and 2019-09
    "definitions",
    "dependencies",
    "additionalItems",
    "$recursiveRef",
    "$recursiveAnchor",
];

#[test]
fn every_keyword_of_the_vocabularies_has_a_handling() {
    let missing: Vec<&&str> = VOCABULARY
        .iter()
        .filter(|k| handling(k).is_none())
        .collect();
    assert!(missing.is_empty(), "keywords with no handling: {missing:?}");
}

#[test]
fn changing_any_validation_keyword_is_reported() {
    // one value and another for every keyword the engine compares: the
    // change must never be silent
    let samples: &[(&str, Value, Value)] = &[
        ("type", json!("string"), json!("integer")),
        ("enum", json!(["a"]), json!(["b"])),
        ("const", json!("a"), json!("b")),
        ("multipleOf", json!(2), json!(3)),
        ("maximum", json!(5), json!(4)),
        ("exclusiveMaximum", json!(5), json!(4)),
        ("minimum", json!(1), json!(2)),
        ("exclusiveMinimum", json!(1), json!(2)),
        ("maxLength", json!(5), json!(4)),
        ("minLength", json!(1), json!(2)),
        ("pattern", json!("^a"), json!("^b")),
        ("maxItems", json!(5), json!(4)),
        ("minItems", json!(1), json!(2)),
        ("uniqueItems", json!(false), json!(true)),
        (
            "contains",
            json!({"type": "string"}),
            json!({"type": "integer"}),
        ),
        ("maxContains", json!(5), json!(4)),
        ("minContains", json!(1), json!(2)),
        ("maxProperties", json!(5), json!(4)),
        ("minProperties", json!(1), json!(2)),
        ("required", json!(["a"]), json!(["a", "b"])),
        (
            "dependentRequired",
            json!({"a": ["b"]}),
            json!({"a": ["b", "c"]}),
        ),
        (
            "properties",
            json!({"a": {"type": "string"}}),
            json!({"a": {"type": "integer"}}),
        ),
        (
            "patternProperties",
            json!({"^a": {"type": "string"}}),
            json!({"^a": {"type": "integer"}}),
        ),
        (
            "additionalProperties",
            json!({"type": "string"}),
            json!({"type": "integer"}),
        ),
        (
            "propertyNames",
            json!({"maxLength": 5}),
            json!({"maxLength": 4}),
        ),
        (
            "items",
            json!({"type": "string"}),
            json!({"type": "integer"}),
        ),
        (
            "prefixItems",
            json!([{"type": "string"}]),
            json!([{"type": "integer"}]),
        ),
        (
            "allOf",
            json!([{"type": "string"}]),
            json!([{"type": "integer"}]),
        ),
        (
            "anyOf",
            json!([{"type": "string"}]),
            json!([{"type": "integer"}]),
        ),
        (
            "oneOf",
            json!([{"type": "string"}]),
            json!([{"type": "integer"}]),
        ),
        ("not", json!({"type": "string"}), json!({"type": "integer"})),
        ("if", json!({"required": ["a"]}), json!({"required": ["b"]})),
        (
            "dependentSchemas",
            json!({"a": {"required": ["b"]}}),
            json!({"a": {"required": ["c"]}}),
        ),
        (
            "unevaluatedProperties",
            json!({"type": "string"}),
            json!({"type": "integer"}),
        ),
        (
            "unevaluatedItems",
            json!({"type": "string"}),
            json!({"type": "integer"}),
        ),
        ("format", json!("email"), json!("uri")),
        (
            "dependencies",
            json!({"a": ["b"]}),
            json!({"a": ["b", "c"]}),
        ),
        (
            "additionalItems",
            json!({"type": "string"}),
            json!({"type": "integer"}),
        ),
    ];
    for (kw, a, b) in samples {
        assert_eq!(handling(kw), Some(Handling::Compared), "{kw}");
        let mut old = json!({kw.to_string(): a});
        let mut new = json!({kw.to_string(): b});
        if *kw == "if" {
            old["then"] = json!({"required": ["x"]});
            new["then"] = json!({"required": ["x"]});
        }
        if kw.ends_with("Contains") {
            // they count the items `contains` matches; alone they mean nothing
            old["contains"] = json!({"type": "string"});
            new["contains"] = json!({"type": "string"});
        }
        if *kw == "additionalItems" {
            old["items"] = json!([{}]);
            new["items"] = json!([{}]);
        }
        let wrap = |v: Value| json!({"type": "object", "properties": {"v": v}});
        let report = diff_surfaces(&tool(wrap(old), None), &tool(wrap(new), None));
        assert!(
            report.is_breaking(),
            "changing `{kw}` was not reported as breaking: {:?}",
            report.changes
        );
    }
}

#[test]
fn a_dialect_change_is_judged_by_what_its_keywords_mean() {
    // the switch alone, tuple `items` included: no breaking verdict
    let d7 = json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {"a": {"type": "array", "items": [{"type": "string"}]}}});
    let mut d20 = d7.clone();
    d20["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
    assert_eq!(breaking_in(d7.clone(), d20.clone()), vec![]);
    let report = diff_surfaces(&tool(d7, None), &tool(d20.clone(), None));
    let switch: Vec<_> = report
        .changes
        .iter()
        .map(|c| (c.rule, c.pointer.as_str()))
        .collect();
    assert_eq!(
        switch,
        vec![("input.dialect-changed", "/inputSchema/$schema")]
    );
    let mut none = d20.clone();
    none.as_object_mut().unwrap().remove("$schema");
    assert_eq!(breaking_in(none, d20), vec![]);
    // a keyword beside `$ref` is ignored by draft-07 and applies in 2020-12:
    // the switch narrows there, and is reported at the keyword
    let beside = |schema: &str| {
        json!({"$schema": schema, "type": "object", "properties": {"q": {"$ref": "#/definitions/S", "maxLength": 3}},
            "definitions": {"S": {"type": "string"}}})
    };
    let got = breaking_in(
        beside("http://json-schema.org/draft-07/schema#"),
        beside("https://json-schema.org/draft/2020-12/schema"),
    );
    assert_eq!(
        got,
        vec![(
            "input.length-narrowed",
            "/inputSchema/properties/q/maxLength".into()
        )]
    );
}

#[test]
fn dynamic_references_are_followed_like_references() {
    let doc = |leaf: &str| {
        json!({"type": "object", "properties": {"v": {"$dynamicRef": "#node"}},
        "$defs": {"n": {"$dynamicAnchor": "node", "type": leaf}}})
    };
    let got = breaking_in(doc("number"), doc("integer"));
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].0, "input.type-narrowed");
    assert_eq!(breaking_in(doc("integer"), doc("number")), vec![]);
}

// ---- 9. precision where it is decidable -------------------------------------

#[test]
fn removing_a_whole_constraint_only_widens_an_input() {
    let base =
        json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}});
    for (kw, v) in [
        ("dependentSchemas", json!({"a": {"required": ["b"]}})),
        ("dependentRequired", json!({"a": ["b"]})),
        ("not", json!({"required": ["a", "b"]})),
        ("if", json!({"required": ["a"]})),
        ("unevaluatedProperties", json!(false)),
    ] {
        let mut old = base.clone();
        old[kw] = v;
        if kw == "if" {
            old["then"] = json!({"required": ["b"]});
        }
        assert_eq!(breaking_in(old.clone(), base.clone()), vec![], "{kw}");
        assert!(!breaking_in(base.clone(), old).is_empty(), "adding {kw}");
    }
    let s = |p: Option<&str>, c: bool| {
        let mut v = json!({"type": "string"});
        if let Some(p) = p {
            v["pattern"] = json!(p);
        }
        let mut a = json!({"type": "array", "items": v});
        if c {
            a["contains"] = json!({"const": "x"});
        }
        json!({"type": "object", "properties": {"v": a}})
    };
    assert_eq!(breaking_in(s(Some("^a"), false), s(None, false)), vec![]);
    assert_eq!(breaking_in(s(None, true), s(None, false)), vec![]);
}

#[test]
fn pattern_inclusion_is_decided() {
    let p =
        |p: &str| json!({"type": "object", "properties": {"id": {"type": "string", "pattern": p}}});
    assert_eq!(breaking_in(p("^[a-z]+$"), p("^[a-z0-9]+$")), vec![]);
    assert_eq!(
        breaking_in(p("^[a-z0-9]+$"), p("^[a-z]+$")),
        vec![(
            "input.pattern-narrowed",
            "/inputSchema/properties/id/pattern".into()
        )]
    );
    // the same language spelled differently is no change at all
    let report = diff_surfaces(&tool(p("^\\d+$"), None), &tool(p("^[0-9]+$"), None));
    assert!(report.changes.is_empty(), "{:?}", report.changes);
    // undecidable: conservative, and says why
    let report = diff_surfaces(&tool(p("^(?!x)a"), None), &tool(p("^a"), None));
    let c = report
        .changes
        .iter()
        .find(|c| c.rule == "input.pattern-changed")
        .expect("reported");
    assert!(c.message.contains("not decided"), "{}", c.message);
    // output: a wider pattern breaks clients
    let got = breaking_out(p("^[a-z]+$"), p("^[a-z0-9]+$"));
    assert_eq!(
        got,
        vec![(
            "output.pattern-widened",
            "/outputSchema/properties/id/pattern".into()
        )]
    );
}

// ---- misses the real-shapes harness found ----------------------------------

#[test]
fn any_of_to_one_of_with_overlapping_branches_narrows_an_input() {
    // a value matching both branches was valid under anyOf, rejected by oneOf
    let branches = json!([{"type": "string"}, {"type": "string", "maxLength": 3}]);
    let old = json!({"type": "object", "properties": {"v": {"anyOf": branches}}});
    let new = json!({"type": "object", "properties": {"v": {"oneOf": branches}}});
    assert!(!breaking_in(old.clone(), new.clone()).is_empty());
    // the reverse only widens an input, and narrows an output
    assert_eq!(breaking_in(new.clone(), old.clone()), vec![]);
    assert!(!breaking_out(new, old).is_empty());
}

#[test]
fn a_pattern_added_to_a_closed_object_widens_it() {
    for closing in ["additionalProperties", "unevaluatedProperties"] {
        let mut old = json!({"type": "object", "properties": {"a": {"type": "string"}}});
        old[closing] = json!(false);
        let mut new = old.clone();
        new["patternProperties"] = json!({"^x": {"type": "string"}});
        // outputs: clients told no other field exists may now receive `x1`
        assert!(
            !breaking_out(old.clone(), new.clone()).is_empty(),
            "{closing}"
        );
        assert_eq!(breaking_in(old.clone(), new.clone()), vec![], "{closing}");
        // removed: `x1` was accepted and is now rejected
        assert!(
            !breaking_in(new.clone(), old.clone()).is_empty(),
            "{closing}"
        );
        assert_eq!(breaking_out(new, old), vec![], "{closing}");
    }
}

#[test]
fn an_additional_schema_beside_unevaluated_false_is_compared() {
    let old = json!({"type": "object", "properties": {"a": {"type": "string"}}, "unevaluatedProperties": false});
    let mut new = old.clone();
    new["additionalProperties"] = json!({"type": "string"});
    assert!(!breaking_out(old.clone(), new.clone()).is_empty());
    assert_eq!(breaking_in(old.clone(), new.clone()), vec![]);
    assert!(!breaking_in(new.clone(), old.clone()).is_empty());
    assert_eq!(breaking_out(new, old), vec![]);
    // the same rest spelled by the other keyword is no change
    let ap = json!({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false});
    let up = json!({"type": "object", "properties": {"a": {"type": "string"}}, "unevaluatedProperties": false});
    assert_eq!(breaking_in(ap.clone(), up.clone()), vec![]);
    assert_eq!(breaking_out(ap, up), vec![]);
}

#[test]
fn a_recursive_root_reference_in_an_output_terminates() {
    let old = json!({"type": "array", "items": {"oneOf": [{"$ref": "#"}, {"type": "integer"}]}});
    let new = json!({"type": "array", "items": {"$ref": "#"}});
    // new accepts only nested empty arrays, old also integers: narrowed output,
    // and the input direction widens nothing the caller relies on
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send((
            breaking_out(old.clone(), new.clone()),
            breaking_out(new, old),
        ));
    });
    let (narrowed, widened) = rx
        .recv_timeout(std::time::Duration::from_secs(120))
        .expect("the comparison terminates");
    assert_eq!(narrowed, vec![]);
    assert!(!widened.is_empty());
}

#[test]
fn a_const_beside_an_enum_in_a_nullable_branch_keeps_its_meaning() {
    // `allOf[const 3, enum [-2]]` admits nothing: made nullable it admits only null
    let old = json!({"type": "object", "properties": {"v": {"anyOf": [
        {"allOf": [{"const": 3}, {"type": ["null", "integer"]}]}, {"type": "null"}]}}});
    let new = json!({"type": "object", "properties": {"v": {"anyOf": [
        {"allOf": [{"const": 3}, {"enum": [-2], "type": ["null", "integer"]}]}, {"type": "null"}]}}});
    assert!(!breaking_in(old.clone(), new.clone()).is_empty());
    assert_eq!(breaking_in(new, old), vec![]);
}

#[test]
fn one_of_branches_changed_only_in_annotations_or_defs_stay_quiet() {
    let old = json!({"type": "object", "$defs": {"S": {"type": "string", "maxLength": 3}},
        "properties": {"v": {"oneOf": [{"type": "string", "description": "a"}, {"$ref": "#/$defs/S"}]}}});
    let new = json!({"type": "object", "$defs": {"Short": {"type": "string", "maxLength": 3}},
        "properties": {"v": {"oneOf": [{"type": "string", "description": "b"}, {"$ref": "#/$defs/Short", "title": "x"}]}}});
    assert_eq!(breaking_in(old.clone(), new.clone()), vec![]);
    assert_eq!(breaking_out(old.clone(), new.clone()), vec![]);
    // a branch that really changed and overlaps is still reported
    let mut changed = new.clone();
    changed["$defs"]["Short"]["maxLength"] = json!(5);
    assert!(!breaking_in(old, changed).is_empty());
}

#[test]
fn a_node_reaching_the_root_through_all_of_and_any_of_is_compared_once() {
    // `n` merges the root through allOf and offers it again through anyOf:
    // without recognising `n` when it comes back, every level re-pairs it
    let schema = |x: Value| {
        json!({"type": "object", "properties": {"x": x,
            "n": {"allOf": [{"$ref": "#"}], "anyOf": [{"$ref": "#"}, {"type": "integer"}]}}})
    };
    let old = schema(json!({"type": "string"}));
    let new = schema(json!({"type": "string", "maxLength": 3}));
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send((breaking_in(old.clone(), new.clone()), breaking_in(new, old)));
    });
    let (narrowed, widened) = rx
        .recv_timeout(std::time::Duration::from_secs(120))
        .expect("the comparison terminates");
    assert!(
        narrowed.iter().all(|c| c.0 == "input.length-narrowed"),
        "{narrowed:?}"
    );
    assert!(!narrowed.is_empty());
    assert_eq!(widened, vec![]);
}

#[test]
fn a_branch_no_value_takes_is_not_compared() {
    let with_else =
        |e: Value| json!({"type": "object", "if": {}, "then": {"required": ["a"]}, "else": e});
    let old = with_else(json!({"required": ["b"]}));
    let new = with_else(json!({"required": ["b", "c"]}));
    assert_eq!(breaking_in(old, new), vec![]);
    // `then` is taken by every value: narrowing it is breaking
    let old = json!({"type": "object", "if": {}, "then": {"required": ["a"]}});
    let new = json!({"type": "object", "if": {}, "then": {"required": ["a", "b"]}});
    assert!(!breaking_in(old, new).is_empty());
}

#[test]
fn an_integer_width_on_a_number_admits_no_fraction() {
    // hand-written schemas pair `type: number` with an integer `format`:
    // serde then rejects 2.25 even though the range still holds it
    let per_page = |f: Option<&str>| {
        let mut p = json!({"type": "number", "minimum": 1, "maximum": 100});
        if let Some(f) = f {
            p["format"] = json!(f);
        }
        json!({"type": "object", "properties": {"perPage": p}})
    };
    let got = breaking_in(per_page(None), per_page(Some("int64")));
    assert!(got.iter().any(|c| c.0 == "input.type-narrowed"), "{got:?}");
    assert_eq!(breaking_in(per_page(Some("int64")), per_page(None)), vec![]);
    // a float width keeps fractions
    assert_eq!(
        breaking_in(per_page(None), per_page(Some("double"))),
        vec![]
    );
}

#[test]
fn an_unguarded_self_reference_is_reported_not_assumed() {
    // `allOf[anyOf[{$ref: #}, ...]]` at the root applies the root to the same
    // value again: undefined in JSON Schema, so never assumed equal
    let root = |items: Value| {
        json!({"type": ["array", "integer"], "items": items,
            "allOf": [{"anyOf": [{"$ref": "#"}, {"type": "integer"}]}]})
    };
    let old = root(json!({"$ref": "#"}));
    let new = root(json!({"type": ["string", "null"]}));
    assert!(!breaking_out(old.clone(), new).is_empty());
    assert_eq!(breaking_out(old.clone(), old), vec![]);
}

#[test]
fn a_schema_nested_300_deep_is_compared_on_a_test_thread() {
    // test threads have 2 MiB of stack; the comparator moves deep schemas
    // onto a stack of their own instead of overflowing
    let nested = |leaf: Value| {
        (0..300).fold(
            leaf,
            |inner, _| json!({"type": "object", "properties": {"a": inner}}),
        )
    };
    let old = nested(json!({"type": "string"}));
    let new = nested(json!({"type": "integer"}));
    let got = breaking_in(old.clone(), new);
    assert!(got.iter().any(|c| c.0 == "input.not-compared"), "{got:?}");
    assert_eq!(breaking_in(old.clone(), old), vec![]);
}

#[test]
fn a_property_a_conditional_branch_adds_constrains_the_declared_one() {
    let with_then = |then: Value| json!({"type": "object", "properties": {"labels": {}, "tags": {}}, "if": {}, "then": then});
    let old = with_then(json!({"required": ["tags"]}));
    let new = with_then(json!({"properties": {"labels": {"type": "boolean"}}}));
    // `labels` took anything; under `then` it must now be a boolean
    assert!(!breaking_in(old, new).is_empty());
}

#[test]
fn additional_false_beside_unevaluated_false_rejects_what_alternatives_declare() {
    // schemars' flattened strict enum: the names live only in oneOf branches
    let old = json!({"type": "object", "oneOf": [{"required": ["Circle"]}, {"properties": {"Rect": {}}}],
        "unevaluatedProperties": false});
    let mut new = old.clone();
    new["additionalProperties"] = json!(false);
    assert!(!breaking_in(old.clone(), new.clone()).is_empty());
    assert_eq!(breaking_in(new, old), vec![]);
}

#[test]
fn a_property_added_to_a_json_value_field_constrains_it() {
    // `serde_json::Value` publishes `{}`: callers send any object there
    let old = json!({"type": "object", "properties": {"object": {}}});
    let new = json!({"type": "object", "properties": {"object": {
        "properties": {"x-trace": {"type": "integer", "format": "int8"}}}}});
    assert!(!breaking_in(old, new).is_empty());
    // an object described as one declares its keys: a new optional one is additive
    let old = json!({"type": "object", "properties": {"object": {"type": "object"}}});
    let new = json!({"type": "object", "properties": {"object": {"type": "object",
        "properties": {"x-trace": {"type": "integer"}}}}});
    assert_eq!(breaking_in(old, new), vec![]);
}

#[test]
fn a_map_variant_takes_every_name_its_siblings_add() {
    // an internally tagged enum with a map variant: callers of any variant
    // may send keys the map takes
    let variants = |create: Value| {
        json!({"type": "object", "oneOf": [
            create,
            {"properties": {"kind": {"const": "wrap_map"}}, "required": ["kind"], "additionalProperties": {}}]})
    };
    let old = variants(json!({"properties": {"kind": {"const": "create"}}, "required": ["kind"]}));
    let new = variants(
        json!({"properties": {"kind": {"const": "create"}, "Kind": {"type": "string"}}, "required": ["kind"]}),
    );
    assert!(!breaking_in(old, new).is_empty());
}

// ---- precision behind witnesses (issue 13) ---------------------------------
// Each fix lets the engine prove a compatibility it used to report as a
// guess; the breaking neighbour shows the same place still fires.

fn prop(v: Value) -> Value {
    json!({"type": "object", "properties": {"v": v}, "required": ["v"]})
}

#[test]
fn a_branch_is_covered_type_by_type() {
    // `Option<f64>` as a nullable type array against two branches whose
    // extra keywords apply to no value they hold: each type has a partner
    let old = prop(json!({"anyOf": [{"type": "number"}, {"type": "null"}]}));
    let quiet = prop(json!({"anyOf": [
        {"type": "number", "not": {"type": "boolean"}},
        {"type": "null", "exclusiveMinimum": 3}
    ]}));
    assert_eq!(breaking_in(old.clone(), quiet), vec![]);
    // null lost: no partner holds it
    let fires = prop(json!({"anyOf": [
        {"type": "number", "not": {"type": "boolean"}},
        {"type": "string"}
    ]}));
    assert!(!breaking_in(old, fires).is_empty());
}

#[test]
fn a_type_split_keeps_the_policy_for_objects_that_take_any_key() {
    // `{"not": ...}` says nothing of objects: it takes any key, so a
    // property declared there constrains what callers could send (the
    // negated branch is not the other one's complement, which would make
    // the `anyOf` say nothing at all)
    let old =
        prop(json!({"anyOf": [{"type": "string"}, {"not": {"type": "string", "maxLength": 3}}]}));
    let new = prop(json!({"anyOf": [
        {"type": "string"},
        {"not": {"type": "string", "maxLength": 3}, "properties": {"b": {"type": "number"}}}
    ]}));
    assert!(breaking_in(old, new)
        .iter()
        .any(|(r, p)| *r == "input.type-narrowed" && p.ends_with("/properties/b/type")));
    // likewise beside an `anyOf` with an any-value alternative
    let old = prop(json!({"anyOf": [{}, {"type": ["null", "object"]}]}));
    let new = prop(
        json!({"anyOf": [{}, {"type": ["null", "object"]}], "properties": {"b": {"type": "array"}}}),
    );
    assert_eq!(
        breaking_in(old, new),
        vec![(
            "input.type-narrowed",
            "/inputSchema/properties/v/properties/b/type".to_string()
        )]
    );
}

#[test]
fn an_all_of_branch_of_another_type_constrains_nothing() {
    // `additionalProperties` distributed into integer branches
    let old = prop(json!({"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}]}));
    let quiet = prop(json!({"additionalProperties": false, "anyOf": [
        {"type": "integer", "minimum": 1, "properties": {"c": {"type": "object"}}},
        {"type": "null"}
    ]}));
    assert_eq!(breaking_in(old.clone(), quiet), vec![]);
    let fires = prop(json!({"maximum": 5, "anyOf": [
        {"type": "integer", "minimum": 1, "properties": {"c": {"type": "object"}}},
        {"type": "null"}
    ]}));
    assert!(!breaking_in(old, fires).is_empty());
}

#[test]
fn one_of_branches_changed_only_where_no_value_reaches_them_do_not_overlap_anew() {
    // equal meaning, checked inclusion by inclusion (the same two branches overlapped before)
    let old = prop(json!({"oneOf": [
        {"type": "integer", "maximum": 9},
        {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}]}
    ]}));
    let quiet = prop(json!({"oneOf": [
        {"type": "integer", "maximum": 9},
        {"additionalProperties": false, "anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}]}
    ]}));
    assert_eq!(breaking_in(old.clone(), quiet.clone()), vec![]);
    assert_eq!(breaking_out(old.clone(), quiet), vec![]);
    let fires = prop(json!({"oneOf": [
        {"type": "integer", "maximum": 9},
        {"anyOf": [{"type": "integer", "minimum": 0}, {"type": "null"}]}
    ]}));
    // 0 was accepted and now matches both branches (as an output, every
    // integer both took before both take now: see
    // a_one_of_overlap_each_branch_keeps_on_its_common_types_is_nothing_new)
    assert!(breaking_in(old, fires)
        .iter()
        .any(|(r, _)| *r == "input.variant-overlap"));
    // the node's own type: arrays never meet a string/integer branch
    let old = prop(json!({"type": "array", "oneOf": [{}, {"type": ["integer", "string"]}]}));
    let quiet = prop(
        json!({"type": "array", "oneOf": [{}, {"type": ["integer", "string"], "pattern": "a"}]}),
    );
    assert_eq!(breaking_in(old.clone(), quiet.clone()), vec![]);
    assert_eq!(breaking_out(old.clone(), quiet), vec![]);
    let fires = prop(json!({"type": "array", "oneOf": [{}, {"type": ["integer", "array"]}]}));
    assert!(!breaking_in(old, fires).is_empty());
}

#[test]
fn a_not_of_types_excludes_those_types() {
    // old `v` is never a number or null: `multipleOf` constrains nothing it took
    let old = prop(json!({"not": {"anyOf": [{"type": "number"}, {"type": "null"}]}}));
    let quiet =
        prop(json!({"not": {"anyOf": [{"type": "number"}, {"type": "null"}]}, "multipleOf": 2}));
    assert_eq!(breaking_in(old.clone(), quiet), vec![]);
    let fires =
        prop(json!({"not": {"anyOf": [{"type": "number"}, {"type": "null"}]}, "maxLength": 2}));
    assert!(!breaking_in(old, fires).is_empty());
}

#[test]
fn a_whole_multiple_of_admits_integers_only() {
    let old = prop(json!({"type": "integer", "minimum": 2, "multipleOf": 1}));
    let quiet = prop(json!({"type": ["integer", "number"], "minimum": 2, "multipleOf": 1}));
    assert_eq!(breaking_out(old.clone(), quiet), vec![]);
    // a multipleOf of a half admits fractions: the output widened
    let fires = prop(json!({"type": ["integer", "number"], "minimum": 2, "multipleOf": 0.5}));
    assert!(!breaking_out(old, fires).is_empty());
}

#[test]
fn a_type_a_side_never_accepts_is_not_lost() {
    // numbers were excluded by `not` before: dropping them from `type` loses none
    let old = prop(json!({"type": ["string", "number"], "not": {"type": "number"}}));
    let quiet = prop(json!({"type": "string"}));
    assert_eq!(breaking_in(old.clone(), quiet), vec![]);
    // strings were accepted: a `type` without them loses them
    let fires = prop(json!({"type": "number"}));
    assert!(breaking_in(old, fires)
        .iter()
        .any(|(r, _)| *r == "input.type-narrowed"));
}

#[test]
fn an_enum_listing_every_value_of_the_type_restricts_nothing() {
    let old = prop(json!({"type": "boolean"}));
    let quiet = prop(json!({"type": "boolean", "enum": [true, false, "x"]}));
    assert_eq!(breaking_in(old.clone(), quiet), vec![]);
    let fires = prop(json!({"type": "boolean", "enum": [true]}));
    assert_eq!(
        breaking_in(old, fires),
        vec![(
            "input.enum-narrowed",
            "/inputSchema/properties/v/enum".to_string()
        )]
    );
}

#[test]
fn a_changed_not_of_types_the_node_never_holds_excludes_nothing() {
    let old = prop(json!({"type": "array", "not": {"type": "integer", "maximum": 8}}));
    let quiet = prop(
        json!({"type": "array", "not": {"anyOf": [{"type": "integer", "maximum": 8}, {"type": "boolean"}]}}),
    );
    assert_eq!(breaking_in(old.clone(), quiet), vec![]);
    // arrays with two items are excluded now
    let fires =
        prop(json!({"type": "array", "not": {"anyOf": [{"type": "integer"}, {"minItems": 2}]}}));
    assert!(!breaking_in(old, fires).is_empty());
}

#[test]
fn one_of_beside_an_any_value_branch_is_a_negation() {
    // `oneOf: [{}, X]` accepts what X rejects: narrowing X widens it
    let old = prop(
        json!({"oneOf": [{}, {"type": "object", "properties": {"c": {"type": "object"}}, "required": ["c"]}]}),
    );
    let quiet = prop(
        json!({"oneOf": [{}, {"type": "object", "properties": {"c": {"type": "object", "enum": [null]}}, "required": ["c"]}]}),
    );
    assert_eq!(breaking_in(old.clone(), quiet), vec![]);
    // widening X narrows it: {"c": null} was accepted, now matches both branches
    let fires = prop(
        json!({"oneOf": [{}, {"type": "object", "properties": {"c": {"type": ["object", "null"]}}, "required": ["c"]}]}),
    );
    assert!(!breaking_in(old, fires).is_empty());
}

#[test]
fn a_change_in_an_any_of_branch_a_sibling_covers_breaks_no_one() {
    // every object the first branch took, the second takes too
    let old = prop(json!({"anyOf": [
        {"type": "object", "properties": {"b": {"type": ["object", "integer"]}}},
        {"not": {"anyOf": [{"type": "integer", "minimum": 2}, {"type": "null"}]}}
    ]}));
    let quiet = prop(json!({"anyOf": [
        {"type": "object", "properties": {"b": {"type": "object"}}},
        {"not": {"anyOf": [{"type": "integer", "minimum": 2}, {"type": "null"}]}}
    ]}));
    assert_eq!(breaking_in(old.clone(), quiet), vec![]);
    // the sibling now rejects objects: {"b": 1} is rejected
    let fires = prop(json!({"anyOf": [
        {"type": "object", "properties": {"b": {"type": "object"}}},
        {"not": {"anyOf": [{"type": "integer", "minimum": 2}, {"type": ["null", "object"]}]}}
    ]}));
    assert!(!breaking_in(old, fires).is_empty());
    // a member the covered branch no longer declares is still silently ignored
    let old =
        prop(json!({"anyOf": [{"type": "object", "properties": {"b": {}}}, {"type": "object"}]}));
    let new = prop(json!({"anyOf": [{"type": "object", "properties": {}}, {"type": "object"}]}));
    let got = breaking_in(old, new);
    assert!(
        !got.is_empty() && got.iter().all(|(r, _)| *r == "input.property-removed"),
        "{got:?}"
    );
}

#[test]
fn a_closed_object_requiring_an_undeclared_member_holds_nothing() {
    // the new branch requires `a` and forbids it: no value it allows is new
    let old = prop(json!({"anyOf": [
        {"type": "object", "additionalProperties": false, "properties": {"a": {"const": "x"}, "b": {}}, "required": ["a"]},
        {"type": "null"}
    ]}));
    let quiet = prop(json!({"anyOf": [
        {"type": "object", "additionalProperties": false, "properties": {"b": {}}, "required": ["a"]},
        {"type": "null"}
    ]}));
    assert_eq!(breaking_out(old.clone(), quiet), vec![]);
    // `a` declared again, without its const: {"a": 1} is new
    let fires = prop(json!({"anyOf": [
        {"type": "object", "additionalProperties": false, "properties": {"a": {}, "b": {}}, "required": ["a"]},
        {"type": "null"}
    ]}));
    assert!(!breaking_out(old, fires).is_empty());
}

#[test]
fn a_one_of_overlap_each_branch_keeps_on_its_common_types_is_nothing_new() {
    // integers match both branches before and after, so they stay rejected;
    // the first branch lost only long strings, which the second never took
    let old =
        prop(json!({"oneOf": [{"type": ["integer", "string"]}, {"type": ["integer", "boolean"]}]}));
    let quiet = prop(json!({"oneOf": [
        {"type": ["integer", "string"], "maxLength": 3},
        {"type": ["integer", "boolean"]}
    ]}));
    assert_eq!(breaking_out(old.clone(), quiet), vec![]);
    // the first branch lets integers below 5 go: they match the second alone and are new
    let fires = prop(json!({"oneOf": [
        {"type": ["integer", "string"], "minimum": 5},
        {"type": ["integer", "boolean"]}
    ]}));
    assert!(!breaking_out(old, fires).is_empty());
}

#[test]
fn listed_values_no_value_can_pass_hold_nothing() {
    // "x" and "ab" never meet: the old node accepted nothing
    let old = prop(json!({"allOf": [{"const": "x"}, {"const": "ab"}]}));
    let quiet = prop(json!({"allOf": [{"const": "x"}, {"const": "ab", "type": "integer"}]}));
    assert_eq!(breaking_in(old, quiet), vec![]);
    let old = prop(json!({"allOf": [{"enum": ["x", "ab"]}, {"const": "ab"}]}));
    let fires = prop(json!({"allOf": [{"enum": ["x", "ab"]}, {"const": "ab", "type": "integer"}]}));
    assert!(!breaking_in(old, fires).is_empty());
    // the only listed string is longer than the node allows
    let old = prop(json!({"type": "array", "items": {"enum": ["ba", null], "maxLength": 1}}));
    let quiet = prop(
        json!({"type": "array", "items": {"enum": ["ba", null], "maxLength": 1, "type": "null"}}),
    );
    assert_eq!(breaking_in(old.clone(), quiet), vec![]);
    let fires = prop(
        json!({"type": "array", "items": {"enum": ["ba", null], "maxLength": 2, "type": "null"}}),
    );
    let old = prop(json!({"type": "array", "items": {"enum": ["ba", null], "maxLength": 2}}));
    assert!(!breaking_in(old, fires).is_empty());
}

#[test]
fn a_range_of_one_whole_number_holds_no_fraction() {
    let old = prop(json!({"type": "number", "minimum": 1, "maximum": 1}));
    let quiet = prop(json!({"type": "integer", "minimum": 1, "maximum": 1}));
    assert_eq!(breaking_in(old, quiet), vec![]);
    // 1.5 was accepted
    let old = prop(json!({"type": "number", "minimum": 1, "maximum": 2}));
    let fires = prop(json!({"type": "integer", "minimum": 1, "maximum": 2}));
    assert!(!breaking_in(old, fires).is_empty());
}

#[test]
fn an_all_of_branch_the_other_side_lies_within_requires_nothing() {
    let with_defs = |v: Value| {
        let mut root = prop(v);
        root["$defs"] = json!({"D0": {"type": "integer", "minimum": 1, "maximum": 6}});
        root
    };
    let plain = with_defs(json!({"type": "integer", "minimum": 1, "maximum": 6}));
    // every old integer from 1 to 6 is a number: the new branch asks nothing more
    let quiet = with_defs(json!({"allOf": [{"$ref": "#/$defs/D0", "type": "number"}]}));
    assert_eq!(breaking_in(plain.clone(), quiet.clone()), vec![]);
    // as an output, the branch dropped let through nothing new
    assert_eq!(breaking_out(quiet, plain.clone()), vec![]);
    // the branch's own bound leaves 5 and 6 out
    let fires = with_defs(json!({"allOf": [{"$ref": "#/$defs/D0", "maximum": 4}]}));
    assert!(!breaking_in(plain.clone(), fires.clone()).is_empty());
    assert!(!breaking_out(fires, plain).is_empty());
}

#[test]
fn all_of_branches_one_closed_without_a_member_another_requires_hold_no_object() {
    let inner = |second: Value, ty: Option<&str>| {
        let mut n = json!({"allOf": [
            {"type": "object", "additionalProperties": false,
             "properties": {"a": {}, "c": {}}, "required": ["a", "c"]},
            second
        ]});
        if let Some(t) = ty {
            n["type"] = json!(t);
        }
        prop(json!({"not": n}))
    };
    // the second branch is closed without `c`, which the first requires: no
    // object passes both, so the `not` excluded nothing before either
    let closed = json!({"type": "object", "additionalProperties": false, "properties": {"a": {}}});
    let old = inner(closed.clone(), None);
    let quiet = inner(closed, Some("boolean"));
    assert_eq!(breaking_out(old, quiet), vec![]);
    // declaring `c` there lets {"a": 0, "c": 0} through both: it was excluded, now returned
    let open =
        json!({"type": "object", "additionalProperties": false, "properties": {"a": {}, "c": {}}});
    let old = inner(open.clone(), None);
    let fires = inner(open, Some("boolean"));
    assert!(!breaking_out(old, fires).is_empty());
}

#[test]
fn a_null_branch_with_keywords_of_other_types_is_still_null() {
    let node = |string: Value, nil: Value| {
        prop(json!({"allOf": [
            {"oneOf": [{}, {"type": "object"}]},
            {"anyOf": [string, nil]}
        ]}))
    };
    let s = json!({"type": "string", "minLength": 1, "maxLength": 2});
    let old = node(s.clone(), json!({"type": "null"}));
    // `uniqueItems` constrains arrays only: null passes it as before
    let quiet = node(s, json!({"type": "null", "uniqueItems": false}));
    assert_eq!(breaking_out(old.clone(), quiet), vec![]);
    // a longer string now comes back
    let longer = json!({"type": "string", "minLength": 1, "maxLength": 3});
    let fires = node(longer, json!({"type": "null", "uniqueItems": false}));
    assert!(!breaking_out(old, fires).is_empty());
}

#[test]
fn a_one_of_overlap_judged_on_the_values_both_branches_take() {
    // no string ending in "b" is "a": the old branches share no value, so a
    // changed second branch lets nothing through that matched both
    let old = prop(json!({"oneOf": [{"type": "string", "pattern": "b$"}, {"const": "a"}]}));
    let quiet = prop(json!({"oneOf": [
        {"type": "string", "pattern": "b$"},
        {"const": "a", "enum": [1]}
    ]}));
    assert_eq!(breaking_out(old, quiet), vec![]);
    // "ab" matched both before (rejected) and matches only the first now
    let old = prop(json!({"oneOf": [{"type": "string", "pattern": "b$"}, {"const": "ab"}]}));
    let fires = prop(json!({"oneOf": [
        {"type": "string", "pattern": "b$"},
        {"const": "ab", "enum": [1]}
    ]}));
    assert!(!breaking_out(old, fires).is_empty());
}

#[test]
fn a_pattern_every_listed_value_matches_loses_nothing() {
    // "abc" starts with "a": the pattern rejects no value the node takes
    let old = prop(json!({"const": "abc"}));
    let quiet = prop(json!({"const": "abc", "pattern": "^a"}));
    assert_eq!(breaking_in(old.clone(), quiet), vec![]);
    let fires = prop(json!({"const": "abc", "pattern": "^b"}));
    assert!(!breaking_in(old, fires).is_empty());
    // as an output: the new listed strings all match the pattern dropped
    let old = prop(json!({"type": "string", "pattern": "b$"}));
    let quiet = prop(json!({"enum": ["ab", "b"]}));
    assert_eq!(breaking_out(old.clone(), quiet), vec![]);
    let fires = prop(json!({"enum": ["ab", "ba"]}));
    assert!(!breaking_out(old, fires).is_empty());
}

#[test]
fn a_range_every_listed_number_keeps_loses_nothing() {
    // 0 is below 5 and false is no number: the bound rejects no listed value
    let old = prop(json!({"enum": [0, false]}));
    let quiet = prop(json!({"enum": [0, false], "exclusiveMaximum": 5}));
    assert_eq!(breaking_in(old.clone(), quiet), vec![]);
    let fires = prop(json!({"enum": [0, false], "exclusiveMaximum": 0}));
    assert!(!breaking_in(old, fires).is_empty());
    // 10 is even
    let old = prop(json!({"const": 10}));
    let quiet = prop(json!({"const": 10, "multipleOf": 2}));
    assert_eq!(breaking_in(old.clone(), quiet), vec![]);
    let fires = prop(json!({"const": 10, "multipleOf": 3}));
    assert!(!breaking_in(old, fires).is_empty());
    // as an output: the new listed numbers all lie in the range dropped
    let old = prop(json!({"type": "integer", "minimum": 1}));
    let quiet = prop(json!({"enum": [1, 2]}));
    assert_eq!(breaking_out(old.clone(), quiet), vec![]);
    let fires = prop(json!({"enum": [0, 2]}));
    assert!(!breaking_out(old, fires).is_empty());
}

#[test]
fn unique_items_on_at_most_one_item_rejects_nothing() {
    let old = prop(json!({"type": "array", "items": {"enum": ["a", "ab"]}, "maxItems": 1}));
    let quiet = prop(
        json!({"type": "array", "items": {"enum": ["a", "ab"]}, "maxItems": 1, "uniqueItems": true}),
    );
    assert_eq!(breaking_in(old, quiet), vec![]);
    // ["a", "a"] was accepted
    let old = prop(json!({"type": "array", "items": {"enum": ["a", "ab"]}, "maxItems": 2}));
    let fires = prop(
        json!({"type": "array", "items": {"enum": ["a", "ab"]}, "maxItems": 2, "uniqueItems": true}),
    );
    assert!(!breaking_in(old, fires).is_empty());
}

#[test]
fn one_of_branches_listing_no_common_value_never_overlap() {
    let old = prop(json!({"oneOf": [
        {"const": ""},
        {"allOf": [{"const": "ab"}, {"type": "string", "maxLength": 2}]}
    ]}));
    // the old alternatives nested one level down beside a number branch:
    // "" and "ab" still match one branch each
    let quiet = prop(json!({"oneOf": [
        {"oneOf": [{"const": ""}, {"allOf": [{"const": "ab"}, {"maxLength": 2}]}]},
        {"type": "number", "exclusiveMinimum": 1}
    ]}));
    assert_eq!(breaking_in(old.clone(), quiet), vec![]);
    // "" now matches both inner branches: rejected
    let fires = prop(json!({"oneOf": [
        {"oneOf": [{"const": ""}, {"allOf": [{"enum": ["ab", ""]}, {"maxLength": 2}]}]},
        {"type": "number", "exclusiveMinimum": 1}
    ]}));
    assert!(!breaking_in(old, fires).is_empty());
}

#[test]
fn a_bound_moved_across_no_multiple_changes_nothing() {
    // no even number lies above -2 and below 0
    let old = prop(json!({"type": "integer", "minimum": 0, "multipleOf": 2}));
    let quiet = prop(json!({"type": "integer", "exclusiveMinimum": -2, "multipleOf": 2}));
    assert_eq!(breaking_out(old.clone(), quiet), vec![]);
    // -2 is now returned
    let fires = prop(json!({"type": "integer", "minimum": -2, "multipleOf": 2}));
    assert!(!breaking_out(old, fires).is_empty());
}

#[test]
fn a_one_of_branch_another_wholly_covers_never_validates() {
    let node = |b: Value, other: Value| {
        prop(json!({"oneOf": [
            {"type": "object", "additionalProperties": false,
             "properties": {"b": b}, "required": ["b"]},
            other
        ]}))
    };
    let number = json!({"type": "number"});
    let number_or_bool = json!({"anyOf": [{"type": "number"}, {"type": "boolean"}]});
    // every object also matches the second branch: the first one never
    // validates, widening it returns nothing new
    let covers = json!({"not": {"type": "string", "minLength": 1}});
    let old = node(number.clone(), covers.clone());
    assert_eq!(
        breaking_out(old, node(number_or_bool.clone(), covers)),
        vec![]
    );
    // objects left to the first branch alone: {"b": true} is now returned
    let apart = json!({"not": {"type": ["string", "object"]}});
    let old = node(number, apart.clone());
    assert!(!breaking_out(old, node(number_or_bool, apart)).is_empty());
}

#[test]
fn alternatives_none_of_which_meets_a_branch_never_overlap_it() {
    let node = |c: Value, b: Value| {
        prop(json!({"oneOf": [
            {"anyOf": [{"type": "string"},
                       {"type": "object", "properties": {"c": c}, "required": ["c"]}]},
            {"type": "object", "properties": {"b": b, "c": {"type": "array"}}, "required": ["b"]}
        ]}))
    };
    // the first branch's objects carry a string `c`, the second's an array:
    // they never overlapped, narrowing the second lets nothing through
    let string = json!({"type": "string"});
    let old = node(string.clone(), json!({}));
    assert_eq!(breaking_out(old, node(string, json!({"const": 1}))), vec![]);
    // {"b": 2, "c": []} matched both before, only the first now
    let old = node(json!({}), json!({}));
    assert!(!breaking_out(old, node(json!({}), json!({"const": 1}))).is_empty());
}

#[test]
fn all_of_branches_declaring_a_required_member_apart_hold_no_object() {
    let node = |a1: Value, a2: Value| {
        prop(json!({"allOf": [
            {"type": "object", "additionalProperties": false,
             "properties": {"a": a1, "b": {}}},
            {"type": "object", "additionalProperties": {"type": "null"},
             "properties": {"a": a2}, "required": ["a"]}
        ]}))
    };
    // `a` a number in one branch and an object (or boolean) in the other: no object passes both
    let old = node(json!({"type": "number"}), json!({"type": "object"}));
    let quiet = node(
        json!({"type": "number"}),
        json!({"type": ["object", "boolean"]}),
    );
    assert_eq!(breaking_out(old.clone(), quiet), vec![]);
    // {"a": true} passes both now
    let fires = node(
        json!({"type": ["number", "boolean"]}),
        json!({"type": ["object", "boolean"]}),
    );
    assert!(!breaking_out(old, fires).is_empty());
}

#[test]
fn keywords_beneath_alternatives_of_types_the_node_never_holds_are_idle() {
    let node = |ty: Option<&str>, a: Value| {
        let mut n = json!({"anyOf": [
            {"type": "string", "minLength": 1},
            {"properties": {"a": a}}
        ]});
        if let Some(t) = ty {
            n["type"] = json!(t);
        }
        prop(n)
    };
    // only strings reach the alternatives: their `properties` constrain nothing
    let old = node(Some("string"), json!({"type": "string"}));
    let quiet = node(Some("string"), json!({"type": "number"}));
    assert_eq!(breaking_in(old, quiet), vec![]);
    // {"a": "x"} was accepted through the second branch
    let old = node(None, json!({"type": "string"}));
    assert!(!breaking_in(old, node(None, json!({"type": "number"}))).is_empty());
}

/// soundness.rs, seeds 1, 2 and 3 (6000 cases): `additionalProperties`
/// sees only its own object's `properties`, not those its alternatives or
/// a sibling `$ref` declare, so closing beside them rejects their fields.
#[test]
fn additional_properties_false_beside_alternatives_or_a_reference_rejects_their_fields() {
    let alternatives = |closed: bool| {
        let mut v = json!({"anyOf": [
            {"properties": {"b": {}}, "required": ["b"], "type": "object"},
            {"type": "null"}
        ]});
        if closed {
            v["additionalProperties"] = json!(false);
        }
        prop(v)
    };
    // {"v": {"b": 0}} is rejected now
    assert!(!breaking_in(alternatives(false), alternatives(true)).is_empty());
    let object = json!({"properties": {"a": {}, "c": {"items": {}, "type": "array"}}, "required": ["c"], "type": "object"});
    let mut new = prop(json!({"allOf": [{"$ref": "#/$defs/D0", "additionalProperties": false}]}));
    new["$defs"] = json!({"D0": object.clone()});
    // {"v": {"c": []}} is rejected now
    assert!(!breaking_in(prop(object.clone()), new.clone()).is_empty());
    // the same closed reference under another name: nothing changed
    let mut renamed =
        prop(json!({"allOf": [{"$ref": "#/$defs/D1", "additionalProperties": false}]}));
    renamed["$defs"] = json!({"D1": object});
    assert_eq!(breaking_in(new, renamed), vec![]);
}

/// soundness.rs, seed 1: an output that could hold no value (`not: {}` in
/// an `allOf`) widens when it can hold one (null here).
#[test]
fn an_output_that_held_no_value_widens_when_it_holds_one() {
    let old = prop(json!({"allOf": [{"not": {"type": "number"}}, {"not": {}}]}));
    let new = prop(json!({"allOf": [
        {"not": {"type": "number"}},
        {"anyOf": [{"not": {}}, {"type": "null"}], "not": {"type": "object"}}
    ]}));
    assert!(!breaking_out(old.clone(), new).is_empty());
    // still nothing it can hold
    let quiet = prop(json!({"allOf": [{"not": {"type": "string"}}, {"not": {}}]}));
    assert_eq!(breaking_out(old, quiet), vec![]);
}

/// soundness.rs, seeds 3 and 20261201: narrowing a `oneOf` branch another
/// branch overlaps widens the `oneOf` (fewer values match two branches).
#[test]
fn narrowing_a_one_of_branch_another_overlaps_widens_an_output() {
    let node = |first: Value, b: Value| {
        prop(
            json!({"oneOf": [first, {"properties": {"b": b}, "required": ["b"], "type": "object"}]}),
        )
    };
    let b_old = json!({"type": ["null", "object"]});
    let b_new = json!({"maxLength": 0, "properties": {"a": {"type": "boolean"}}, "type": ["null", "object"]});
    // {"v": {"b": {"a": "a"}}} matched both branches before, only `{}` now
    let fires = breaking_out(
        node(json!({}), b_old.clone()),
        node(json!({}), b_new.clone()),
    );
    assert!(!fires.is_empty());
    // the first branch holds no object: nothing matched both
    let quiet = breaking_out(
        node(json!({"type": "string"}), b_old),
        node(json!({"type": "string"}), b_new),
    );
    assert_eq!(quiet, vec![]);
    let old =
        prop(json!({"oneOf": [{"not": {"type": "string"}}, {"anyOf": [{}, {"type": "null"}]}]}));
    let mut new = prop(json!({"oneOf": [
        {"not": {"type": "string"}},
        {"anyOf": [{"properties": {"b": {"$ref": "#/$defs/D0"}}}, {"type": "null"}]}
    ]}));
    new["$defs"] = json!({"D0": {"type": "object"}});
    // {"v": {"b": 10}} matched both branches before
    assert!(!breaking_out(old, new).is_empty());
}

/// soundness.rs, seed 6: a field a closed output alternative gains is new
/// there even when a sibling alternative declares it ({"a": .., "b": ..}
/// matched neither closed branch before).
#[test]
fn a_field_a_closed_output_alternative_gains_is_new_there() {
    let closed = |names: &[&str]| {
        let props: serde_json::Map<String, Value> =
            names.iter().map(|n| (n.to_string(), json!({}))).collect();
        json!({"additionalProperties": false, "properties": props, "type": "object"})
    };
    let old = prop(json!({"oneOf": [closed(&["b"]), closed(&["a"])]}));
    let new = prop(json!({"oneOf": [closed(&["a", "b"]), closed(&["a"])]}));
    assert!(!breaking_out(old.clone(), new).is_empty());
    // the same fields, the alternatives listed the other way round
    let quiet = prop(json!({"oneOf": [closed(&["a"]), closed(&["b"])]}));
    assert_eq!(breaking_out(old, quiet), vec![]);
}

/// soundness.rs, seed 15: an open input alternative took a field a sibling
/// alternative declares with any value; the partner it finds now must too.
#[test]
fn an_open_input_alternative_took_a_sibling_declared_field_with_any_value() {
    let node = |other: Value| {
        prop(json!({"oneOf": [
            {"properties": {"a": {"type": "string"}}, "type": "object"},
            other
        ]}))
    };
    let old = node(json!({"allOf": [{"type": "object"}, {}]}));
    // {"v": {"a": false}} matched the second branch alone; now neither
    let new = node(json!({"allOf": [
        {"type": "object"},
        {"additionalProperties": false, "properties": {"a": {"type": "object"}}}
    ]}));
    assert!(!breaking_in(old.clone(), new).is_empty());
    // the open branch stays as open, spelled without the allOf
    assert_eq!(breaking_in(old, node(json!({"type": "object"}))), vec![]);
}

/// soundness.rs, seed 23: a field a closed `allOf` branch gains is new in
/// the output even when the other branch declares the same names otherwise.
#[test]
fn a_field_a_closed_all_of_branch_gains_widens_an_output() {
    let node = |extra: Option<Value>| {
        let mut closed = json!({"additionalProperties": false, "type": "object",
            "properties": {"b": {}, "c": {"properties": {"b": {}}, "type": "object"}}});
        if let Some(x) = extra {
            closed["properties"]["a"] = x;
        }
        prop(json!({"allOf": [{"properties": {"c": {}}, "type": "object"}, closed]}))
    };
    // {"v": {"a": [], "c": {}}} is allowed now
    assert!(!breaking_out(node(None), node(Some(json!({"type": "array"})))).is_empty());
    // the closed branch listed first: nothing changed
    let closed_first = prop(json!({"allOf": [
        {"additionalProperties": false, "type": "object",
         "properties": {"b": {}, "c": {"properties": {"b": {}}, "type": "object"}}},
        {"properties": {"c": {}}, "type": "object"}
    ]}));
    assert_eq!(breaking_out(node(None), closed_first), vec![]);
}
