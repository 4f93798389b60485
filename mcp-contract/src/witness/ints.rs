//! serde integer widths (`format: int32`, ...; see
//! [`crate::schema::numeric::format_range`]) at the changed node: the
//! boundary values serde rejects on one side and accepts on the other,
//! which the plain validator does not see.

use serde_json::{json, Value};

use super::candidates;
use super::sample::flatten;
use super::search::Search;
use crate::schema::numeric::{self, Bound, Num};

/// The serde integer widths (`format: int32`, ...; see
/// [`crate::schema::numeric::format_range`]) of the node on the source and
/// the other side, with the format names (`none` where there is none).
pub(super) struct IntWidths {
    pub(super) src: Option<(Bound, Bound)>,
    pub(super) other: Option<(Bound, Bound)>,
    pub(super) src_name: String,
    pub(super) other_name: String,
}

/// The range of an integer `format` (`None` for any other format).
pub(super) fn int_width(format: &str) -> Option<(Bound, Bound)> {
    if numeric::is_integer_format(format) {
        numeric::format_range(format)
    } else {
        None
    }
}

/// Does serde deserialize `n` into the integer type of `width`? An integer
/// within the range; never a fraction (nor `2.0`: serde_json reads it as a float).
pub(super) fn serde_admits(width: Option<&(Bound, Bound)>, n: &serde_json::Number) -> bool {
    let Some((lo, hi)) = width else { return true };
    let v = Num::from_number(n);
    if !matches!(v, Num::Int(_)) {
        return false;
    }
    let above = |b: &Bound| match v.total_cmp(&b.value) {
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Equal => !b.exclusive,
        std::cmp::Ordering::Less => false,
    };
    let below = |b: &Bound| match v.total_cmp(&b.value) {
        std::cmp::Ordering::Less => true,
        std::cmp::Ordering::Equal => !b.exclusive,
        std::cmp::Ordering::Greater => false,
    };
    above(lo) && below(hi)
}

/// An integer bound as a JSON number, when it is one.
/// Just past the `past` width (its upper bound + 1, its lower bound - 1),
/// then on the edges of the `within` width.
pub(super) fn width_probes(
    past: &Option<(Bound, Bound)>,
    within: &Option<(Bound, Bound)>,
) -> Vec<Value> {
    let mut out = Vec::new();
    if let Some((lo, hi)) = past {
        out.extend(bound_value(hi, 1));
        out.extend(bound_value(lo, -1));
    }
    if let Some((lo, hi)) = within {
        out.extend(bound_value(lo, 0));
        out.extend(bound_value(hi, 0));
    }
    out
}

fn bound_value(b: &Bound, step: i128) -> Option<Value> {
    let Num::Int(i) = b.value else { return None };
    let i = i.checked_add(step)?;
    i64::try_from(i)
        .map(|i| json!(i))
        .or_else(|_| u64::try_from(i).map(|u| json!(u)))
        .ok()
}

impl Search<'_> {
    /// Integer widths of the node on the source and the other side, when either has one.
    pub(super) fn int_formats(&self) -> &Option<IntWidths> {
        self.ints.get_or_init(|| self.find_int_formats())
    }

    fn find_int_formats(&self) -> Option<IntWidths> {
        let fmt = |root: &Value| -> Option<String> {
            candidates::nodes_at(root, &self.site.steps)
                .into_iter()
                .find_map(|n| {
                    flatten(root, n, 0)
                        .get("format")
                        .and_then(Value::as_str)
                        .map(String::from)
                })
        };
        let (fs, fo) = (fmt(self.src().0), fmt(self.other().0));
        let src = fs.as_deref().and_then(int_width);
        let other = fo.as_deref().and_then(int_width);
        if src.is_none() && other.is_none() {
            return None;
        }
        Some(IntWidths {
            src,
            other,
            src_name: fs.unwrap_or_else(|| "none".into()),
            other_name: fo.unwrap_or_else(|| "none".into()),
        })
    }
}
