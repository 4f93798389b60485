//! Reading one usage-evidence file (`mcp-contract-usage`, version 1) and
//! validating it before anything is decided from it: a corrupt file, a
//! version written by a newer mcp-contract, a day outside the file's own
//! range, a day listed both with hits and as a gap, or a row given twice is
//! an [`InputError`] naming the file, the JSON pointer of the bad value and
//! the fix. Nothing is guessed: an evidence that cannot be trusted decides
//! nothing.

use std::path::Path;

use serde_json::{Map, Value};

use super::model::{Evidence, Key, FORMAT, MAX_DAYS, VERSION};
use crate::date::Date;
use crate::error::InputError;

const ROOT_KEYS: &[&str] = &["format", "version", "range", "no_data", "hits"];
const RANGE_KEYS: &[&str] = &["from", "to"];
const HIT_KEYS: &[&str] = &["tool", "path", "client", "day", "count"];

/// Reads and validates every file in `paths`, each named as given (the
/// first bad one is the error): what [`merge`](super::merge) takes.
pub fn read_files(paths: &[std::path::PathBuf]) -> Result<Vec<(String, Evidence)>, InputError> {
    paths
        .iter()
        .map(|p| Ok((p.display().to_string(), read(p)?)))
        .collect()
}

/// Reads and validates the evidence file at `path`.
pub fn read(path: &Path) -> Result<Evidence, InputError> {
    let file = path.display().to_string();
    let bytes = crate::limits::read(path).map_err(|e| {
        InputError::new(&file, format!("cannot read usage evidence: {e}")).fix(
            "check the path; `cargo mcp-contract usage --import-prometheus` writes evidence files",
        )
    })?;
    let text = String::from_utf8(bytes).map_err(|_| {
        InputError::new(&file, "file is not valid UTF-8").fix("save the evidence as UTF-8 JSON")
    })?;
    parse(&text, &file)
}

/// Parses and validates evidence text; `file` names it in errors.
pub fn parse(text: &str, file: &str) -> Result<Evidence, InputError> {
    let value = crate::json::from_str(text).map_err(|e| {
        InputError::from_json(file, &e)
            .fix("make the file valid JSON, or write it again with `cargo mcp-contract usage --import-prometheus`")
    })?;
    let err = |at: &str, msg: String, fix: &str| InputError::new(file, msg).at(at).fix(fix);
    let root = value.as_object().ok_or_else(|| {
        err(
            "",
            "usage evidence must be a JSON object".into(),
            "start the file with {\"format\": \"mcp-contract-usage\", \"version\": 1, ...}",
        )
    })?;
    unknown_keys(root, ROOT_KEYS, "", file)?;
    match root.get("format").and_then(Value::as_str) {
        Some(FORMAT) => {}
        _ => {
            return Err(err(
                "/format",
                format!("not a usage evidence file: `format` must be \"{FORMAT}\""),
                "add \"format\": \"mcp-contract-usage\" (or pass the right file)",
            ))
        }
    }
    match root.get("version").and_then(Value::as_u64) {
        Some(VERSION) => {}
        Some(v) if v > VERSION => {
            return Err(err(
                "/version",
                format!("evidence version {v} was written by a newer mcp-contract; this one reads version {VERSION}"),
                "upgrade cargo-mcp-contract, or export the evidence again with this release",
            ))
        }
        _ => {
            return Err(err(
                "/version",
                format!("`version` must be the integer {VERSION}"),
                "write \"version\": 1",
            ))
        }
    }
    let range = root
        .get("range")
        .and_then(Value::as_object)
        .ok_or_else(|| {
            err(
                "/range",
                "`range` must be an object {\"from\": \"YYYY-MM-DD\", \"to\": \"YYYY-MM-DD\"}"
                    .into(),
                "give the first and last day the evidence covers",
            )
        })?;
    unknown_keys(range, RANGE_KEYS, "/range", file)?;
    let from = date(range.get("from"), "/range/from", file)?;
    let to = date(range.get("to"), "/range/to", file)?;
    if from > to {
        return Err(err(
            "/range",
            format!("`range` runs backwards: from {from} is after to {to}"),
            "swap `from` and `to`",
        ));
    }
    if to.to_unix_days() - from.to_unix_days() >= MAX_DAYS {
        return Err(err(
            "/range",
            format!("`range` {from}..{to} is longer than {MAX_DAYS} days"),
            "split the evidence into shorter files",
        ));
    }
    let mut e = Evidence::empty(from, to);
    let inside = |d: Date, at: &str| -> Result<(), InputError> {
        if d < from || d > to {
            return Err(err(
                at,
                format!("day {d} is outside the file's range {from}..{to}"),
                "widen `range`, or move the day to the file that covers it",
            ));
        }
        Ok(())
    };
    if let Some(v) = root.get("no_data") {
        let arr = v.as_array().ok_or_else(|| {
            err(
                "/no_data",
                "`no_data` must be an array of days".into(),
                "write e.g. \"no_data\": [\"2026-11-04\"]",
            )
        })?;
        for (i, d) in arr.iter().enumerate() {
            let at = format!("/no_data/{i}");
            let day = date(Some(d), &at, file)?;
            inside(day, &at)?;
            if !e.no_data.insert(day) {
                return Err(err(
                    &at,
                    format!("day {day} is listed twice in `no_data`"),
                    "list each day once",
                ));
            }
        }
    }
    let hits = match root.get("hits") {
        None => &[][..],
        Some(v) => v.as_array().map(Vec::as_slice).ok_or_else(|| {
            err(
                "/hits",
                "`hits` must be an array of rows".into(),
                "write each row as {\"tool\", \"path\", \"client\", \"day\", \"count\"}",
            )
        })?,
    };
    for (i, row) in hits.iter().enumerate() {
        let at = format!("/hits/{i}");
        let obj = row.as_object().ok_or_else(|| {
            err(
                &at,
                "a `hits` row must be an object".into(),
                "write {\"tool\": ..., \"path\": ..., \"client\": ..., \"day\": ..., \"count\": N}",
            )
        })?;
        unknown_keys(obj, HIT_KEYS, &at, file)?;
        let text = |k: &str| -> Result<String, InputError> {
            match obj.get(k).and_then(Value::as_str) {
                Some(s) if !s.trim().is_empty() => Ok(s.to_string()),
                _ => Err(err(
                    &format!("{at}/{k}"),
                    format!("`{k}` must be a non-empty string"),
                    "use `unknown` for a client that does not name itself",
                )),
            }
        };
        let key = Key {
            tool: text("tool")?,
            path: text("path")?,
            client: text("client")?,
        };
        let day_at = format!("{at}/day");
        let day = date(obj.get("day"), &day_at, file)?;
        inside(day, &day_at)?;
        if e.no_data.contains(&day) {
            return Err(err(
                &day_at,
                format!("day {day} has hits but is listed in `no_data`"),
                "remove the day from `no_data` (it has data) or drop its rows",
            ));
        }
        let count = obj.get("count").and_then(Value::as_u64).ok_or_else(|| {
            err(
                &format!("{at}/count"),
                "`count` must be a non-negative integer".into(),
                "write the number of calls that took the path that day",
            )
        })?;
        if e.hits.get(&key).is_some_and(|d| d.contains_key(&day)) {
            return Err(err(
                &at,
                format!(
                    "a second row for `{}` {} client `{}` on {day}",
                    key.tool, key.path, key.client
                ),
                "give one row per tool, path, client and day (add the counts)",
            ));
        }
        if count == 0 {
            continue;
        }
        e.add(key, day, count);
    }
    Ok(e)
}

fn unknown_keys(
    obj: &Map<String, Value>,
    allowed: &[&str],
    at: &str,
    file: &str,
) -> Result<(), InputError> {
    match obj.keys().find(|k| !allowed.contains(&k.as_str())) {
        None => Ok(()),
        Some(k) => {
            let fix = match crate::suggest::did_you_mean(k, allowed) {
                Some(s) => format!("did you mean `{s}`? allowed keys: {}", allowed.join(", ")),
                None => format!("allowed keys: {}", allowed.join(", ")),
            };
            Err(InputError::new(file, format!("unknown key `{k}`"))
                .at(format!("{at}/{k}"))
                .fix(fix))
        }
    }
}

fn date(v: Option<&Value>, at: &str, file: &str) -> Result<Date, InputError> {
    v.and_then(Value::as_str)
        .and_then(Date::parse)
        .ok_or_else(|| {
            let shown = v.map_or("nothing".to_string(), Value::to_string);
            InputError::new(file, format!("expected a day (YYYY-MM-DD), found {shown}"))
                .at(at)
                .fix("write a calendar day in UTC such as \"2026-11-04\"")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"{"format": "mcp-contract-usage", "version": 1,
      "range": {"from": "2026-11-01", "to": "2026-11-07"},
      "no_data": ["2026-11-04"],
      "hits": [{"tool": "search", "path": "field:query", "client": "a/1", "day": "2026-11-02", "count": 3}]}"#;

    fn bad(text: &str) -> InputError {
        parse(text, "u.json").unwrap_err()
    }

    #[test]
    fn reads_a_good_file() {
        let e = parse(GOOD, "u.json").unwrap();
        assert_eq!(e.covered_days(), 6);
        assert_eq!(super::super::model::rows(&e)[0].total, 3);
        assert_eq!(parse(&e.to_json().to_string(), "again").unwrap(), e);
    }

    #[test]
    fn every_bad_file_names_its_place_and_fix() {
        let corrupt = bad("{\"format\": ");
        assert!(corrupt.message.starts_with("invalid JSON"), "{corrupt}");
        assert!(corrupt.location.is_some() && corrupt.fix.is_some());

        let future = bad(&GOOD.replace("\"version\": 1", "\"version\": 2"));
        assert!(future.message.contains("newer mcp-contract"), "{future}");
        assert_eq!(future.location.as_deref(), Some("/version"));

        let outside = bad(&GOOD.replace("\"day\": \"2026-11-02\"", "\"day\": \"2026-11-09\""));
        assert_eq!(
            outside.location.as_deref(),
            Some("/hits/0/day"),
            "{outside}"
        );
        assert!(outside.message.contains("outside the file's range"));

        let gap_with_hits = bad(&GOOD.replace("2026-11-04", "2026-11-02"));
        assert!(
            gap_with_hits.message.contains("listed in `no_data`"),
            "{gap_with_hits}"
        );

        let backwards = bad(&GOOD.replace("\"to\": \"2026-11-07\"", "\"to\": \"2026-10-07\""));
        assert!(backwards.message.contains("runs backwards"), "{backwards}");

        let unknown = bad(&GOOD.replace("\"count\"", "\"cuont\""));
        assert!(
            unknown
                .fix
                .as_deref()
                .unwrap()
                .contains("did you mean `count`"),
            "{unknown}"
        );

        let other = bad(&GOOD.replace("mcp-contract-usage", "something-else"));
        assert_eq!(other.location.as_deref(), Some("/format"));

        let twice = GOOD.replace(
            "\"count\": 3}]",
            "\"count\": 3}, {\"tool\": \"search\", \"path\": \"field:query\", \"client\": \"a/1\", \"day\": \"2026-11-02\", \"count\": 1}]",
        );
        assert_eq!(bad(&twice).location.as_deref(), Some("/hits/1"));

        let negative = bad(&GOOD.replace("\"count\": 3", "\"count\": -3"));
        assert_eq!(negative.location.as_deref(), Some("/hits/0/count"));
    }
}
