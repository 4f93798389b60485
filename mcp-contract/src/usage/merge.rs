//! Merging several evidence files into one, oldest first. The merged range
//! is the union of the files' ranges; a day has data when some file has
//! data for it, and every other day of the merged range is a gap (a day no
//! file covers, or one every file that covers it lists in `no_data`).
//!
//! Two files with data for the same day would count its calls twice, so
//! that is refused, as is a list that is not oldest first (usually a wrong
//! file in the list): the error names both files and the day.

use super::model::{Evidence, MAX_DAYS};
use crate::error::InputError;

/// Merges `files` (`(name, evidence)`, oldest range first).
pub fn merge(files: &[(String, Evidence)]) -> Result<Evidence, InputError> {
    let Some((_, first)) = files.first() else {
        return Err(InputError::new("<arguments>", "no usage evidence given")
            .fix("pass one or more evidence files"));
    };
    let from = first.from;
    let to = files.iter().map(|(_, e)| e.to).max().unwrap_or(first.to);
    if to.to_unix_days() - from.to_unix_days() >= MAX_DAYS {
        return Err(InputError::new(
            &files[files.len() - 1].0,
            format!("the merged range {from}..{to} is longer than {MAX_DAYS} days"),
        )
        .at("/range")
        .fix("merge fewer files"));
    }
    for pair in files.windows(2) {
        let ((a_name, a), (b_name, b)) = (&pair[0], &pair[1]);
        if b.from < a.from {
            return Err(InputError::new(
                b_name,
                format!(
                    "out of order: its range starts {} before {a_name}'s ({})",
                    b.from, a.from
                ),
            )
            .at("/range/from")
            .fix(format!(
                "list {b_name} before {a_name} (oldest range first)"
            )));
        }
    }
    let mut merged = Evidence::empty(from, to);
    for day in merged.days().collect::<Vec<_>>() {
        let with_data: Vec<&String> = files
            .iter()
            .filter(|(_, e)| e.has_data(day))
            .map(|(n, _)| n)
            .collect();
        match with_data.as_slice() {
            [] => {
                merged.no_data.insert(day);
            }
            [_] => {}
            [a, b, ..] => {
                return Err(InputError::new(
                    b.as_str(),
                    format!(
                    "overlaps {a}: both have data for {day}, whose calls would be counted twice"
                ),
                )
                .at("/range")
                .fix(format!(
                    "cut one file's range, or list {day} in one file's `no_data`"
                )))
            }
        }
    }
    for (_, e) in files {
        for (key, days) in &e.hits {
            for (day, n) in days {
                merged.add(key.clone(), *day, *n);
            }
        }
    }
    Ok(merged)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::date::Date;
    use crate::usage::model::{run_text, Key};

    fn d(s: &str) -> Date {
        Date::parse(s).unwrap()
    }

    fn ev(from: &str, to: &str, gaps: &[&str], hits: &[(&str, u64)]) -> Evidence {
        let mut e = Evidence::empty(d(from), d(to));
        e.no_data.extend(gaps.iter().map(|g| d(g)));
        for (day, n) in hits {
            let key = Key {
                tool: "t".into(),
                path: "field:q".into(),
                client: "c".into(),
            };
            e.add(key, d(day), *n);
        }
        e
    }

    #[test]
    fn unions_ranges_and_keeps_gaps_gaps() {
        let a = ev(
            "2026-11-01",
            "2026-11-03",
            &["2026-11-03"],
            &[("2026-11-01", 2)],
        );
        // b starts on a's gap and fills it; it leaves 2026-11-05 uncovered
        let b = ev("2026-11-03", "2026-11-04", &[], &[("2026-11-03", 1)]);
        let c = ev("2026-11-06", "2026-11-07", &["2026-11-07"], &[]);
        let m = merge(&[("a".into(), a), ("b".into(), b), ("c".into(), c)]).unwrap();
        assert_eq!((m.from, m.to), (d("2026-11-01"), d("2026-11-07")));
        let gaps: Vec<String> = m.gaps().into_iter().map(run_text).collect();
        assert_eq!(gaps, ["2026-11-05", "2026-11-07"]);
        assert_eq!(crate::usage::model::rows(&m)[0].total, 3);
    }

    #[test]
    fn refuses_double_counting_and_disorder() {
        let a = ev("2026-11-01", "2026-11-03", &[], &[]);
        let b = ev("2026-11-03", "2026-11-04", &[], &[]);
        let e = merge(&[("a".into(), a.clone()), ("b".into(), b.clone())]).unwrap_err();
        assert_eq!(e.file, "b");
        assert!(e.message.contains("2026-11-03"), "{e}");
        let e = merge(&[("b".into(), b), ("a".into(), a)]).unwrap_err();
        assert!(e.message.starts_with("out of order"), "{e}");
        assert!(e.fix.unwrap().contains("list a before b"));
    }
}
