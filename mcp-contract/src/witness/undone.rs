//! The other side with only this change undone: an instance it accepts is
//! rejected because of this change and nothing else.

use jsonschema::Validator;
use serde_json::{json, Map, Value};

use super::embed::{pointer_mut, to_pointer};
use super::search::Search;
use super::validators::compile;

impl Search<'_> {
    /// The other side's schema with the keyword at the change's pointer put
    /// back as the source side has it (or removed where the source has
    /// none), compiled; `None` when neither side has the pointer, the
    /// pointer runs through something else, or it does not compile.
    pub(super) fn undone(&self) -> Option<&Validator> {
        self.undone
            .get_or_init(|| {
                let (src_root, _) = self.src();
                let (other_root, _) = self.other();
                let tail = &self.pointer_tail;
                let (last, parent) = tail.split_last()?;
                let ptr = |t: &[String]| to_pointer(t);
                let src = src_root.pointer(&ptr(tail));
                let there = other_root.pointer(&ptr(tail));
                if src.is_none() && there.is_none() {
                    return None;
                }
                if src == there {
                    return None;
                }
                let mut patched = other_root.clone();
                // (a `required` list holds one change per name: only this name is put back)
                if let Some(name) = self.required_name() {
                    let listed = |v: Option<&Value>| {
                        v.and_then(Value::as_array)
                            .is_some_and(|a| a.iter().any(|n| n.as_str() == Some(name)))
                    };
                    let (want, has) = (listed(src), listed(there));
                    if want == has {
                        return None;
                    }
                    let Value::Object(m) = pointer_mut(&mut patched, parent)? else {
                        return None;
                    };
                    let list = m.entry(last.clone()).or_insert_with(|| json!([]));
                    let Value::Array(a) = list else { return None };
                    if want {
                        a.push(json!(name));
                    } else {
                        a.retain(|n| n.as_str() != Some(name));
                    }
                    return compile(&patched).ok();
                }
                match (pointer_mut(&mut patched, parent)?, src) {
                    (Value::Object(m), Some(v)) => {
                        m.insert(last.clone(), v.clone());
                    }
                    (Value::Object(m), None) => {
                        m.remove(last);
                    }
                    (Value::Array(a), Some(v)) => {
                        let i: usize = last.parse().ok()?;
                        *a.get_mut(i)? = v.clone();
                    }
                    _ => return None,
                }
                // (the keyword put back may name definitions only the source side has)
                for defs in ["$defs", "definitions"] {
                    if let (Some(Value::Object(theirs)), Value::Object(p)) =
                        (src_root.get(defs), &mut patched)
                    {
                        if let Value::Object(ours) = p
                            .entry(defs.to_string())
                            .or_insert_with(|| Value::Object(Map::new()))
                        {
                            for (k, v) in theirs {
                                ours.entry(k.clone()).or_insert_with(|| v.clone());
                            }
                        }
                    }
                }
                compile(&patched).ok()
            })
            .as_ref()
    }
}
