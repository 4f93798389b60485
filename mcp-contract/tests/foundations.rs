//! What the comparator stands on: each schema read once in its own dialect,
//! numbers compared exactly, a name `required` lists counted as declared, a
//! shared definition reported where it is used live, regex classes read as
//! ECMA reads them. Each class has a break that must be reported and a
//! neighbour (the same values spelled another way) that must stay quiet;
//! every expected verdict was checked with a validator (python-jsonschema).

#[path = "support/breaking.rs"]
mod breaking;

use breaking::{breaking_in, breaking_out};
use serde_json::{json, Value};

fn field(v: Value) -> Value {
    json!({"type": "object", "properties": {"v": v}})
}

#[test]
fn a_schema_switch_alone_breaks_nobody() {
    let plain =
        json!({"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]});
    for uri in [
        "http://json-schema.org/draft-07/schema#",
        "http://json-schema.org/draft-04/schema#",
        "https://json-schema.org/draft/2019-09/schema",
    ] {
        let mut declared = plain.clone();
        declared["$schema"] = json!(uri);
        assert_eq!(
            breaking_in(plain.clone(), declared.clone()),
            vec![],
            "{uri}"
        );
        assert_eq!(breaking_out(declared, plain.clone()), vec![], "{uri}");
    }
}

#[test]
fn draft07_keywords_beside_ref_are_ignored() {
    let d7 = |max: u64| {
        json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
            "properties": {"q": {"$ref": "#/definitions/S", "maxLength": max}},
            "definitions": {"S": {"type": "string"}}})
    };
    assert_eq!(breaking_in(d7(64), d7(8)), vec![]);
    // the same edit in 2020-12 narrows
    let d20 = |max: u64| {
        json!({"type": "object", "properties": {"q": {"$ref": "#/$defs/S", "maxLength": max}},
            "$defs": {"S": {"type": "string"}}})
    };
    assert_eq!(
        breaking_in(d20(64), d20(8)),
        vec![(
            "input.length-narrowed",
            "/inputSchema/properties/q/maxLength".to_string()
        )]
    );
}

#[test]
fn draft04_boolean_exclusive_bounds_are_bounds() {
    let d4 = |bound: Value| {
        let mut v = json!({"type": "integer", "minimum": 0});
        if let Value::Object(m) = bound {
            v.as_object_mut().unwrap().extend(m);
        }
        json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "object", "properties": {"v": v}})
    };
    // minimum 0 exclusive is minimum 1 on integers: the same values
    let plain = field(json!({"type": "integer", "minimum": 1}));
    assert_eq!(
        breaking_in(d4(json!({"exclusiveMinimum": true})), plain.clone()),
        vec![]
    );
    // dropping the exclusive flag admits 0: an output widening
    assert_eq!(
        breaking_out(d4(json!({"exclusiveMinimum": true})), d4(json!({})))
            .iter()
            .map(|(r, _)| *r)
            .collect::<Vec<_>>(),
        vec!["output.range-widened"]
    );
}

#[test]
fn integer_bounds_compare_as_the_integers_they_allow() {
    let old = field(json!({"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 1000000}));
    let new = field(json!({"type": "integer", "minimum": 1, "maximum": 999999}));
    assert_eq!(breaking_in(old.clone(), new.clone()), vec![]);
    assert_eq!(breaking_out(old, new.clone()), vec![]);
    let tighter = field(json!({"type": "integer", "minimum": 2, "maximum": 999999}));
    assert_eq!(breaking_in(new, tighter).len(), 1);
}

#[test]
fn one_and_one_point_zero_are_the_same_value() {
    // {"enum": [1,2,3], "const": 1.0} accepts 1 only
    let old = field(json!({"enum": [1, 2, 3], "const": 1.0}));
    assert_eq!(
        breaking_in(old.clone(), field(json!({"enum": [1, 2, 3]}))),
        vec![]
    );
    assert_eq!(breaking_in(old, field(json!({"const": 1}))), vec![]);
    // a oneOf branch {"const": 1.0} beside {"const": 1}: 1 now matches two
    let got = breaking_in(
        field(json!({"oneOf": [{"const": 1}]})),
        field(json!({"oneOf": [{"const": 1}, {"const": 1.0}]})),
    );
    assert!(!got.is_empty(), "{{\"v\":1}} is rejected now");
}

#[test]
fn integers_past_two_to_the_53_are_exact() {
    // the old range holds exactly 9007199254740993, the new one nothing
    let old = field(
        json!({"type": "integer", "exclusiveMinimum": 9007199254740992u64, "maximum": 9007199254740993u64}),
    );
    let new = field(
        json!({"type": "integer", "exclusiveMinimum": 9007199254740992u64, "maximum": 9007199254740992u64}),
    );
    assert_eq!(breaking_in(old.clone(), new).len(), 1);
    let same = field(
        json!({"type": "integer", "minimum": 9007199254740993u64, "maximum": 9007199254740993u64}),
    );
    assert_eq!(breaking_in(old, same), vec![]);
    // a number range holding one value past 2^53 is not empty: what
    // beneath it narrows is reported
    let one = |extra: Value| {
        let mut v = json!({"type": "number", "exclusiveMinimum": 9007199254740992u64, "maximum": 9007199254740993u64});
        if let Value::Object(m) = extra {
            v.as_object_mut().unwrap().extend(m);
        }
        field(v)
    };
    assert!(!breaking_in(
        one(json!({})),
        one(json!({"not": {"const": 9007199254740993u64}}))
    )
    .is_empty());
}

#[test]
fn multiple_of_is_an_exact_decimal() {
    // 1.0000000001 is a multiple of 1.0000000001 and not of 1
    let got = breaking_in(
        field(json!({"type": "number", "multipleOf": 1.0000000001})),
        field(json!({"type": "number", "multipleOf": 1})),
    );
    assert!(!got.is_empty());
    assert_eq!(
        breaking_in(
            field(json!({"type": "number", "multipleOf": 0.3})),
            field(json!({"type": "number", "multipleOf": 0.1})),
        ),
        vec![]
    );
}

#[test]
fn additional_properties_true_is_absent() {
    let old = json!({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": true});
    let new = json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "additionalProperties": true});
    let absent = |mut v: Value| {
        v.as_object_mut().unwrap().remove("additionalProperties");
        v
    };
    assert_eq!(
        breaking_in(old.clone(), new.clone()),
        breaking_in(absent(old.clone()), absent(new.clone()))
    );
    assert_eq!(breaking_in(old, new), vec![]);
}

#[test]
fn a_name_in_required_alone_is_declared() {
    let either = json!([{"required": ["id"]}, {"required": ["name"]}]);
    let old = json!({"type": "object", "anyOf": either});
    let new = json!({"type": "object", "anyOf": either,
        "properties": {"name": {"type": "string", "maxLength": 3}}});
    let got = breaking_in(old.clone(), new);
    assert!(
        got.iter()
            .any(|(r, p)| *r == "input.length-narrowed"
                && p == "/inputSchema/properties/name/maxLength"),
        "{got:?}"
    );
    // declaring it as any value changes nothing
    let any = json!({"type": "object", "anyOf": either, "properties": {"name": {}}});
    assert_eq!(breaking_in(old, any), vec![]);
    // a branch that requires it now also constrains it (soundness_real's
    // `required-only.constrain` on a corpus schema)
    let items = |decl: Option<Value>| {
        let mut branch = json!({"required": ["value"]});
        if let Some(d) = decl {
            branch["properties"] = json!({"value": d});
        }
        json!({"type": "object", "properties": {"fields": {"items": {"oneOf": [branch, {"not": {}}]}}}})
    };
    assert_eq!(
        breaking_in(items(None), items(Some(json!({"type": "boolean"}))))
            .into_iter()
            .map(|(r, _)| r)
            .collect::<Vec<_>>(),
        vec!["input.type-narrowed"]
    );
    assert_eq!(breaking_in(items(None), items(Some(json!({})))), vec![]);
}

/// A shared definition first reached beneath a node that accepts nothing
/// (an array that must be empty, a closed object that requires an
/// undeclared member) and then used live: reported at the live place.
#[test]
fn a_shared_definition_is_reported_where_it_is_used_live() {
    let dead_array = |n: u64| {
        json!({"type": "object", "properties": {
            "dead": {"type": "array", "maxItems": 0, "items": {"$ref": "#/$defs/Tag"}},
            "tag": {"$ref": "#/$defs/Tag"}},
            "$defs": {"Tag": {"type": "string", "maxLength": n}}})
    };
    let dead_object = |n: u64| {
        json!({"type": "object", "properties": {
            "dead": {"type": "object", "additionalProperties": false, "required": ["zz"],
                "properties": {"t": {"$ref": "#/$defs/Tag"}}},
            "tag": {"$ref": "#/$defs/Tag"}},
            "$defs": {"Tag": {"type": "string", "maxLength": n}}})
    };
    for doc in [dead_array, dead_object] {
        assert_eq!(
            breaking_in(doc(64), doc(8)),
            vec![(
                "input.length-narrowed",
                "/inputSchema/properties/tag/maxLength".to_string()
            )]
        );
        assert_eq!(
            breaking_out(doc(8), doc(64)),
            vec![(
                "output.length-widened",
                "/outputSchema/properties/tag/maxLength".to_string()
            )]
        );
    }
}

#[test]
fn dashes_in_pattern_classes_are_read_as_ecma_reads_them() {
    let p = |pat: &str| field(json!({"type": "string", "pattern": pat}));
    // [+--] is + through - ("," among them)
    assert!(!breaking_in(p("^[+--]$"), p("^[+]$")).is_empty());
    // [a-z--x] adds - through x, digits among them: not a widening of [a-z]
    assert!(!breaking_in(p("^[a-z--x]+$"), p("^[a-z]+$")).is_empty());
    assert_eq!(breaking_in(p("^[a-z]+$"), p("^[a-z--x]+$")), vec![]);
}

#[test]
fn a_wider_format_is_a_widening() {
    let f = |fmt: &str| field(json!({"type": "string", "format": fmt}));
    assert_eq!(breaking_in(f("ipv4"), f("ip")), vec![]);
    assert_eq!(breaking_in(f("ipv6"), f("ip")), vec![]);
    assert_eq!(breaking_in(f("ip"), f("ipv4")).len(), 1);
    assert_eq!(breaking_out(f("ipv4"), f("ip")).len(), 1);
    assert_eq!(breaking_in(f("ipv4"), f("email")).len(), 1);
}

#[test]
fn an_optional_field_leaving_a_closed_output_breaks_no_client() {
    let obj = |extra: bool, closed: bool| {
        let mut v =
            json!({"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]});
        if extra {
            v["properties"]["note"] = json!({"type": "string"});
        }
        if closed {
            v["additionalProperties"] = json!(false);
        }
        v
    };
    assert_eq!(breaking_out(obj(true, true), obj(false, true)), vec![]);
    // an open object takes any `note` now: clients can receive a number
    assert_eq!(
        breaking_out(obj(true, false), obj(false, false)),
        vec![(
            "output.property-removed",
            "/outputSchema/properties/note".to_string()
        )]
    );
}

/// schemars' `enum Expr { Lit(Literal), Not(Box<Expr>), All(Vec<Expr>) }`:
/// a change inside the recursion is compared in full (it once exhausted
/// the node-pair budget and was reported as not compared).
fn expr(lit_max: Option<u64>, any: bool) -> Value {
    let mut string = json!({"type": "string"});
    if let Some(m) = lit_max {
        string["maxLength"] = json!(m);
    }
    let variant = |name: &str, schema: Value| json!({"type": "object", "properties": {name: schema}, "required": [name], "additionalProperties": false});
    let mut variants = vec![
        variant("Lit", json!({"$ref": "#/$defs/Literal"})),
        variant("Not", json!({"$ref": "#/$defs/Expr"})),
        variant(
            "All",
            json!({"type": "array", "items": {"$ref": "#/$defs/Expr"}}),
        ),
    ];
    if any {
        variants.push(variant(
            "Any",
            json!({"type": "array", "items": {"$ref": "#/$defs/Expr"}}),
        ));
    }
    json!({"type": "object", "properties": {"filter": {"$ref": "#/$defs/Expr"}}, "required": ["filter"],
        "$defs": {"Expr": {"oneOf": variants},
            "Literal": {"oneOf": [string, {"type": "integer", "format": "int64"}, {"type": "boolean"}]}}})
}

#[test]
fn recursive_enums_are_compared_in_full() {
    let got = breaking_in(expr(None, false), expr(Some(10), false));
    assert!(!got.is_empty());
    assert!(
        got.iter().all(|(r, _)| !r.ends_with("not-compared")),
        "{got:?}"
    );
    // a new variant only widens
    assert_eq!(breaking_in(expr(None, false), expr(None, true)), vec![]);
    let got = breaking_in(expr(None, true), expr(None, false));
    assert!(
        !got.is_empty() && got.iter().all(|(r, _)| !r.ends_with("not-compared")),
        "{got:?}"
    );
    // as a result, the same recursion
    let got = breaking_out(expr(Some(10), false), expr(None, false));
    assert!(
        !got.is_empty() && got.iter().all(|(r, _)| !r.ends_with("not-compared")),
        "{got:?}"
    );
}

/// A JSON-value-like recursive type (`serde_json::Value` spelled out).
#[test]
fn json_value_like_recursion_is_compared_in_full() {
    let value = |max: Option<u64>| {
        let mut string = json!({"type": "string"});
        if let Some(m) = max {
            string["maxLength"] = json!(m);
        }
        json!({"type": "object", "properties": {"v": {"$ref": "#/$defs/V"}},
            "$defs": {"V": {"anyOf": [{"type": "null"}, {"type": "boolean"}, {"type": "number"}, string,
                {"type": "array", "items": {"$ref": "#/$defs/V"}},
                {"type": "object", "additionalProperties": {"$ref": "#/$defs/V"}}]}}})
    };
    assert_eq!(
        breaking_in(value(None), value(Some(5)))
            .into_iter()
            .map(|(r, _)| r)
            .collect::<Vec<_>>(),
        vec!["input.length-narrowed"]
    );
    assert_eq!(breaking_in(value(Some(5)), value(None)), vec![]);
}

/// Thirty object alternatives, every one changed: each change is reported
/// at its branch, nothing is left uncompared.
#[test]
fn thirty_wide_alternatives_are_compared_in_full() {
    let wide = |delta: i64| {
        let branches: Vec<Value> = (0..30)
            .map(|i| {
                json!({"type": "object", "properties": {
                    "kind": {"type": "string"},
                    format!("f{i}"): {"type": "string", "maxLength": 100 + delta},
                    "g": {"type": "array", "items": {"type": "object", "properties": {"h": {"type": "integer", "maximum": i + delta}}}}}})
            })
            .collect();
        json!({"type": "object", "properties": {"x": {"anyOf": branches}}})
    };
    let got = breaking_in(wide(0), wide(-5));
    assert_eq!(got.len(), 60, "{got:?}");
    assert!(got.iter().all(|(r, _)| !r.ends_with("not-compared")));
}

/// Where the side a break needs lists its values, each is checked against
/// the other side: exact where keywords alone say "narrowed".
#[test]
fn finite_values_are_checked_against_the_other_side() {
    for (old, new) in [
        (json!({"const": [1]}), json!({"maxItems": 2})),
        (json!({"const": "f"}), json!({"maxLength": 2})),
        (json!({"const": []}), json!({"items": false})),
        (
            json!({"enum": [3]}),
            json!({"oneOf": [{"enum": [1, 2, 3]}, {"enum": [1, 2]}]}),
        ),
        (
            json!({"type": "string", "enum": ["asc", "desc"]}),
            json!({"type": "string", "pattern": "^[a-z]+$", "maxLength": 4}),
        ),
    ] {
        assert_eq!(
            breaking_in(field(old.clone()), field(new.clone())),
            vec![],
            "{old} -> {new}"
        );
        assert_eq!(breaking_out(field(new), field(old)).len(), 0);
    }
    // one value the other side rejects is a break
    assert!(!breaking_in(
        field(json!({"type": "string", "enum": ["asc", "descending"]})),
        field(json!({"type": "string", "maxLength": 4})),
    )
    .is_empty());
    assert!(!breaking_in(
        field(json!({"enum": [1]})),
        field(json!({"oneOf": [{"enum": [1, 2, 3]}, {"enum": [1, 2]}]})),
    )
    .is_empty());
    // an output whose new side admits only a value the old one promised
    assert_eq!(
        breaking_out(
            field(json!({"enum": [1], "type": "number"})),
            field(json!({"enum": [0, 1], "minimum": 1})),
        ),
        vec![]
    );
}

/// A node whose types leave few values (an array that must be empty) is
/// judged by those values: `oneOf` exclusivity is decided on what the old
/// side can send, not on every value.
#[test]
fn exclusivity_is_judged_on_the_values_the_old_side_accepts() {
    let old = field(json!({"type": "array", "maxItems": 0}));
    let new = field(json!({"oneOf": [{"type": "array"},
        {"anyOf": [{"type": "array", "minItems": 1}, {"type": "string"}]}]}));
    assert_eq!(breaking_in(old.clone(), new.clone()), vec![]);
    // `[1]` matches both branches: a caller that sends it is rejected now
    let any_array = field(json!({"type": "array"}));
    assert!(!breaking_in(any_array, new).is_empty());
}

/// A schema beside its own negation: `anyOf [X, not X]` takes every value,
/// `allOf [X, not X]` none.
#[test]
fn complements_are_read_as_what_they_accept() {
    let x = json!({"type": "string", "maxLength": 3});
    let every = field(json!({"anyOf": [x, {"not": x}]}));
    assert_eq!(breaking_in(field(json!(true)), every.clone()), vec![]);
    assert_eq!(breaking_out(every, field(json!(true))), vec![]);
    let none = field(json!({"allOf": [x, {"not": x}]}));
    assert_eq!(breaking_in(none.clone(), field(json!(false))), vec![]);
    assert_eq!(breaking_out(field(json!(false)), none), vec![]);
}

/// In a closed object whose `patternProperties` overlap, a name matching
/// both answered to both schemas: removing one changes what it may hold.
#[test]
fn overlapping_pattern_properties_are_judged_together() {
    let obj = |both: bool| {
        let mut pp = json!({"^x": {"type": "string"}});
        if both {
            pp["x$"] = json!({"type": "integer"});
        }
        json!({"type": "object", "properties": {"v": {"type": "object", "additionalProperties": false, "patternProperties": pp}}})
    };
    // {"x": ""} was no valid result (a string and an integer), now it is
    assert!(!breaking_out(obj(true), obj(false)).is_empty());
    // (as an input the edit breaks too: "ax" with an integer is rejected now)
    assert!(!breaking_in(obj(true), obj(false)).is_empty());
    // a new overlapping pattern constrains names the old one took
    let constrained = |extra: bool| {
        let mut pp = json!({"^x": {"type": "string"}});
        if extra {
            pp["x$"] = json!({"maxLength": 1});
        }
        json!({"type": "object", "properties": {"v": {"type": "object", "additionalProperties": false, "patternProperties": pp}}})
    };
    assert!(!breaking_in(constrained(false), constrained(true)).is_empty());
}

/// Bounds at the ends of `i128` (schemars' `i128` width) beside a
/// `multipleOf`: compared without overflowing.
#[test]
fn bounds_at_the_ends_of_i128_are_compared_without_overflow() {
    let f = |format: &str| field(json!({"type": "integer", "format": format, "multipleOf": 3}));
    assert!(!breaking_in(f("int128"), f("int64")).is_empty());
    assert_eq!(breaking_in(f("int64"), f("int128")), vec![]);
}

/// A name a closed object declares, which one of its `oneOf` branches also
/// requires, renamed: calls that still send the old name are rejected (the
/// branch's requirement declares nothing past the object's
/// `additionalProperties: false`). soundness_real, corpus 0136 `issue_write`.
#[test]
fn a_rename_in_a_closed_object_is_not_hidden_by_a_branch_that_requires_the_name() {
    let obj = |name: &str| {
        json!({"type": "object", "properties": {"fields": {"items": {
            "additionalProperties": false,
            "oneOf": [{"required": ["value"]}, {"required": ["option"]}],
            "properties": {name: {"type": "string"}}}}}})
    };
    assert!(breaking_in(obj("option"), obj("option_v2"))
        .iter()
        .any(|(r, _)| *r == "input.property-removed"));
}

/// draft-04's `integer` is a number written without a fraction: `2.0`,
/// an integer since draft-06, is refused there. Going to draft-04 refuses
/// it (input), coming from it lets clients receive it (output); staying
/// in either dialect changes nothing.
#[test]
fn draft04_integers_are_written_without_a_fraction() {
    let d4 = "http://json-schema.org/draft-04/schema#";
    let d7 = "http://json-schema.org/draft-07/schema#";
    let doc = |schema: &str| {
        json!({"$schema": schema, "type": "object",
            "properties": {"n": {"type": "integer"}, "x": {"type": ["integer", "null"]}}})
    };
    let at = |k: &str| {
        (
            "input.type-narrowed",
            format!("/inputSchema/properties/{k}/type"),
        )
    };
    assert_eq!(breaking_in(doc(d7), doc(d4)), vec![at("n"), at("x")]);
    assert_eq!(breaking_in(doc(d4), doc(d7)), vec![]);
    assert_eq!(breaking_in(doc(d4), doc(d4)), vec![]);
    let out = breaking_out(doc(d4), doc(d7));
    assert_eq!(out.len(), 2, "{out:?}");
    assert!(
        out.iter().all(|(r, _)| *r == "output.type-widened"),
        "{out:?}"
    );
    assert_eq!(breaking_out(doc(d7), doc(d4)), vec![]);
    // a draft-04 `number` holds 2.0 as any dialect's does
    let num = |schema: &str| {
        json!({"$schema": schema, "type": "object",
        "properties": {"n": {"type": "number"}}})
    };
    assert_eq!(breaking_in(num(d7), num(d4)), vec![]);
}

/// A type gaining an alternative beside itself (`T` -> `anyOf [T, string]`,
/// `T` a `oneOf` of objects) is a superset: its branches are all still
/// there, none is "removed" (each judged alone, without its siblings'
/// exclusivity, used to look lost).
#[test]
fn a_type_gaining_an_alternative_beside_itself_loses_none() {
    let node = json!({"oneOf": [
        {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
        {"type": "object", "properties": {"b": {"type": "integer"}}, "required": ["b"]},
        {"type": "null"}]});
    let doc = |parent: Value| json!({"type": "object", "properties": {"parent": parent}, "$defs": {"Node": node}});
    let alone = doc(json!({"$ref": "#/$defs/Node"}));
    let wider = doc(json!({"anyOf": [{"$ref": "#/$defs/Node"}, {"type": "string"}]}));
    assert_eq!(breaking_in(alone.clone(), wider.clone()), vec![]);
    assert_eq!(breaking_out(wider.clone(), alone.clone()), vec![]);
    // the other way each direction breaks, at the alternative gained or lost
    let at = |rule: &'static str| (rule, "/properties/parent/anyOf/1".to_string());
    let strip = |v: Vec<(&'static str, String)>| {
        v.into_iter()
            .map(|(r, p)| {
                (
                    r,
                    p.replace("/inputSchema", "").replace("/outputSchema", ""),
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(
        strip(breaking_in(wider.clone(), alone.clone())),
        vec![at("input.variant-removed")]
    );
    assert_eq!(
        strip(breaking_out(alone, wider)),
        vec![at("output.variant-added")]
    );
}

/// A name one `oneOf` branch declares and another (open, silent about it)
/// takes with any value, now declared at the node: clients received any
/// value under it before (through the silent branch), so a declaration
/// there only narrows what they receive; as the input, it narrows calls.
#[test]
fn a_name_an_open_branch_took_with_any_value_declared_at_the_node() {
    let doc = |alpha: Option<Value>| {
        let mut d = json!({"type": "object", "properties": {"id": {"type": "string"}},
            "required": ["id"], "oneOf": [
                {"type": "object", "properties": {"Alpha": {"type": "integer"}}, "required": ["Alpha"]},
                {"type": "object", "properties": {"Beta": {"type": "string"}}, "required": ["Beta"]}]});
        if let Some(a) = alpha {
            d["properties"]["Alpha"] = a;
        }
        d
    };
    let declared = doc(Some(json!({"type": "boolean"})));
    assert_eq!(breaking_out(doc(None), declared.clone()), vec![]);
    // (calls through the Beta branch could send any Alpha before)
    assert!(!breaking_in(doc(None), declared.clone()).is_empty());
    // with no silent branch, the declaration is what clients got before
    let closed = |alpha: Option<Value>| {
        let mut d = doc(alpha);
        d["oneOf"][1]["properties"]["Alpha"] = json!({"type": "integer"});
        d
    };
    // with no silent branch, every branch still types `Alpha` as an
    // integer: a boolean declaration beside them leaves no value of `Alpha`
    // at all, so clients can receive nothing new (decided: new ⊆ old; the
    // walker alone once called it `output.type-widened`)
    assert_eq!(
        breaking_out(closed(None), closed(Some(json!({"type": "boolean"})))),
        vec![]
    );
}

/// Property names are strings: `propertyNames: {"type": "string"}` added
/// restricts nothing (a real release of a published server did this).
#[test]
fn property_names_typed_as_strings_restrict_nothing() {
    let doc = |names: Option<Value>| {
        let mut d = json!({"type": "object", "properties": {"schema": {"type": "object"}}});
        if let Some(n) = names {
            d["properties"]["schema"]["propertyNames"] = n;
        }
        d
    };
    assert_eq!(
        breaking_in(doc(None), doc(Some(json!({"type": "string"})))),
        vec![]
    );
    assert_eq!(
        breaking_in(
            doc(None),
            doc(Some(json!({"type": ["string", "null"], "maxLength": 3})))
        )
        .len(),
        1
    );
}
