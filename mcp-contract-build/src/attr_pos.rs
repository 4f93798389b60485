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

/// Each problem of `err` (reported on `attr`, an attribute of `source`'s
/// tree) with its position. `rerun` checks a variant of the attribute;
/// `elsewhere(message, k)` places the k-th problem with that message when
/// it does not come from the attribute's arguments (by default, the
/// attribute's `#`).
pub(crate) fn locate(
    source: &Source,
    attr: &syn::Attribute,
    err: &syn::Error,
    rerun: &dyn Fn(&syn::Attribute) -> Option<syn::Error>,
    elsewhere: &dyn Fn(&str, usize) -> Option<Pos>,
) -> Vec<(Pos, String)> {
    let mut out: Vec<(Pos, String)> = Vec::new();
    for problem in err.clone() {
        let message = problem.to_string();
        let k = out.iter().filter(|(_, m)| *m == message).count();
        let pos = match source.locate_in_attribute(attr, |a| count(rerun(a), &message) > k) {
            Found::At(p) => Some(p),
            Found::Empty | Found::Never => elsewhere(&message, k),
        };
        let pos = pos
            .or_else(|| source.attribute_pos(attr))
            .unwrap_or_default();
        out.push((pos, message));
    }
    out
}
