//! Does a validator's complaint come from this change? Same node and the
//! same kind of keyword, a combinator above it, or anything below a
//! keyword that holds sub-schemas; for one name of a `required` list, that
//! name's complaint only.

use super::path::Site;
use super::search::Search;

/// Keywords whose failure may come from anything below them.
fn combinator(k: &str) -> bool {
    matches!(
        k,
        "anyOf"
            | "oneOf"
            | "allOf"
            | "not"
            | "if"
            | "then"
            | "else"
            | "dependentSchemas"
            | "$ref"
            | "false"
            | "unevaluatedProperties"
            | "unevaluatedItems"
            | "contentSchema"
    )
}

/// Keywords that fail for the same reason.
fn family(k: &str) -> &str {
    match k {
        "type" | "enum" | "const" => "values",
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => "range",
        "minLength" | "maxLength" => "length",
        "minItems" | "maxItems" | "uniqueItems" | "minContains" | "maxContains" | "contains" => {
            "items-size"
        }
        "minProperties" | "maxProperties" => "members-size",
        "additionalProperties"
        | "properties"
        | "patternProperties"
        | "propertyNames"
        | "property-removed" => "members",
        "dependentRequired" | "dependencies" => "dependent",
        other => other,
    }
}

/// Schema path segments with `$ref` hops and alternative branches removed
/// (the engine's pointers follow references and merge branches).
fn normalize(segs: &[String]) -> Vec<String> {
    let mut out: Vec<String> = vec![];
    let mut i = 0;
    while i < segs.len() {
        let s = segs[i].as_str();
        if s == "$ref" {
            i += 1;
            continue;
        }
        if matches!(s, "anyOf" | "oneOf" | "allOf")
            && segs.get(i + 1).is_some_and(|n| n.parse::<usize>().is_ok())
        {
            i += 2;
            continue;
        }
        out.push(segs[i].clone());
        i += 1;
    }
    out
}

/// Does a validation error at schema evaluation path `eval` come from the
/// change at `pointer` (its segments after the schema name)? Same node and
/// same kind of keyword, a combinator above the change, or (for keywords
/// that hold sub-schemas) anything below it.
pub(super) fn attributable(site: &Site, pointer: &[String], eval: &str) -> bool {
    let eval: Vec<String> = eval.split('/').skip(1).map(String::from).collect();
    let (Some((ek, enode)), Some(ck)) = (eval.split_last(), site.keyword.as_deref()) else {
        return true;
    };
    let enode = normalize(enode);
    // the change's node: the pointer without the keyword (and its key)
    let cut = pointer
        .iter()
        .rposition(|t| t == ck)
        .unwrap_or(pointer.len());
    let mut cnode = normalize(&pointer[..cut]);
    if ck == "property-removed" {
        // the pointer names the removed property; its object is the node
        cnode = normalize(&pointer[..pointer.len().saturating_sub(2)]);
    }
    let (ek, ck) = (ek.as_str(), ck);
    if enode == cnode {
        return combinator(ek)
            || combinator(ck)
            || family(ek) == family(ck)
            || (family(ck) == "members" && ek == "required");
    }
    if enode.len() < cnode.len() && cnode.starts_with(&enode) {
        return combinator(ek);
    }
    if enode.len() > cnode.len() && enode.starts_with(&cnode) {
        return combinator(ck)
            || matches!(
                ck,
                "items"
                    | "prefixItems"
                    | "additionalItems"
                    | "additionalProperties"
                    | "patternProperties"
                    | "contains"
                    | "propertyNames"
            );
    }
    false
}

impl Search<'_> {
    /// The name, when the change is one name of a `required` list: the list
    /// holds one change per name, so the keyword at its place does not
    /// single this one out.
    pub(super) fn required_name(&self) -> Option<&str> {
        let at_list = self.site.keyword.as_deref() == Some("required")
            && self.pointer_tail.last().map(String::as_str) == Some("required");
        self.subject.filter(|_| at_list)
    }

    /// Is the validator's complaint about this change's own name? (For a
    /// name of a `required` list, a missing neighbour is another change's.)
    pub(super) fn about_subject(&self, e: &jsonschema::ValidationError<'_>) -> bool {
        match (self.required_name(), e.kind()) {
            (Some(name), jsonschema::error::ValidationErrorKind::Required { property }) => {
                property.as_str() == Some(name)
            }
            _ => true,
        }
    }
}
