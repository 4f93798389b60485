//! Where two JSON values differ, as JSON pointers: what the reports of
//! [`super::Contracted`] and [`super::assert_locked`] name.

use serde_json::Value;

/// One place where the values differ (`None`: absent on that side).
#[derive(Debug, Clone, PartialEq)]
pub struct Difference {
    /// JSON pointer into the tool object (`/inputSchema/properties/city`).
    pub pointer: String,
    pub locked: Option<Value>,
    pub served: Option<Value>,
}

impl std::fmt::Display for Difference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let show = |v: &Option<Value>| match v {
            Some(v) => {
                let t = v.to_string();
                if t.len() > 200 {
                    format!("{}…", &t[..t.floor_char_boundary_compat(200)])
                } else {
                    t
                }
            }
            None => "(absent)".into(),
        };
        write!(
            f,
            "{}: locked {} / served {}",
            if self.pointer.is_empty() {
                "/"
            } else {
                &self.pointer
            },
            show(&self.locked),
            show(&self.served)
        )
    }
}

trait FloorBoundary {
    fn floor_char_boundary_compat(&self, i: usize) -> usize;
}

impl FloorBoundary for str {
    fn floor_char_boundary_compat(&self, mut i: usize) -> usize {
        while i > 0 && !self.is_char_boundary(i) {
            i -= 1;
        }
        i
    }
}

/// The first `limit` differences between `locked` and `served`, depth first.
pub fn first_differences(locked: &Value, served: &Value, limit: usize) -> Vec<Difference> {
    let mut out = Vec::new();
    walk(locked, served, &mut String::new(), &mut out, limit);
    out
}

fn walk(a: &Value, b: &Value, path: &mut String, out: &mut Vec<Difference>, limit: usize) {
    if out.len() >= limit || a == b {
        return;
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                let len = path.len();
                path.push('/');
                path.push_str(&k.replace('~', "~0").replace('/', "~1"));
                match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) => walk(p, q, path, out, limit),
                    (p, q) => {
                        if out.len() < limit {
                            out.push(Difference {
                                pointer: path.clone(),
                                locked: p.cloned(),
                                served: q.cloned(),
                            })
                        }
                    }
                }
                path.truncate(len);
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                let len = path.len();
                path.push_str(&format!("/{i}"));
                walk(p, q, path, out, limit);
                path.truncate(len);
            }
        }
        _ => out.push(Difference {
            pointer: path.clone(),
            locked: Some(a.clone()),
            served: Some(b.clone()),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_each_place() {
        let d = first_differences(
            &json!({"a": {"b": 1, "c/d": [1, 2]}, "x": 1}),
            &json!({"a": {"b": 2, "c/d": [1, 3]}, "y": 1}),
            10,
        );
        let p: Vec<&str> = d.iter().map(|d| d.pointer.as_str()).collect();
        assert_eq!(p, ["/a/b", "/a/c~1d/1", "/x", "/y"]);
        assert_eq!(d[2].to_string(), "/x: locked 1 / served (absent)");
        assert!(first_differences(&json!({"a": 1}), &json!({"a": 1}), 10).is_empty());
    }
}
