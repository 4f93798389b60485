//! Where the problems a check of an attribute reports are. The check's
//! `syn::Error` spans carry no position here (no `span-locations`), so each
//! problem is placed by running the check again on the attribute cut short
//! token by token (see [`Source::locate_in_attribute`]): the token whose
//! inclusion brings the problem back is where it is.

use crate::source::{Found, Pos, Source};

/// How many of `err`'s problems read `message`.
pub(crate) fn count(err: Option<syn::Error>, message: &str) -> usize {
    err.map_or(0, |e| {
        e.into_iter().filter(|p| p.to_string() == message).count()
    })
}

/// Where else than in an attribute's arguments a problem may be: the k-th
/// problem with a message, placed or not.
pub(crate) type Elsewhere<'a> = &'a dyn Fn(&str, usize) -> Option<Pos>;

/// Each problem of `err` (reported on `attr`, an attribute of `source`'s
/// tree) with its position. `rerun` checks a variant of the attribute;
/// `before` is asked first (places a problem that also involves the
/// attribute's arguments, such as an alias clashing with a reserved name,
/// at the other end), `after` when the arguments are not the cause; the
/// attribute's `#` is the last resort.
pub(crate) fn locate(
    source: &Source,
    attr: &syn::Attribute,
    err: &syn::Error,
    rerun: &dyn Fn(&syn::Attribute) -> Option<syn::Error>,
    (before, after): (Elsewhere<'_>, Elsewhere<'_>),
) -> Vec<(Pos, String)> {
    let mut out: Vec<(Pos, String)> = Vec::new();
    for problem in err.clone() {
        let message = problem.to_string();
        let k = out.iter().filter(|(_, m)| *m == message).count();
        let pos = before(&message, k).or_else(|| {
            match source.locate_in_attribute(attr, |a| count(rerun(a), &message) > k) {
                Found::At(p) => Some(p),
                Found::Empty | Found::Never => after(&message, k),
            }
        });
        let pos = pos
            .or_else(|| source.attribute_pos(attr))
            .unwrap_or_default();
        out.push((pos, message));
    }
    out
}

/// No other place.
pub(crate) fn nowhere(_: &str, _: usize) -> Option<Pos> {
    None
}
