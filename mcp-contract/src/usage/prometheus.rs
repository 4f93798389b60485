//! Importing usage evidence from Prometheus / OpenMetrics text exposition.
//!
//! The input is what a series of scrapes (or a range query exported as
//! text) holds: one sample per line, each with its timestamp,
//!
//! ```text
//! # TYPE mcp_contract_compat_hits_total counter
//! mcp_contract_compat_hits_total{tool="search",path="field:query",client="claude-desktop/1.2"} 5 1764720000000
//! ```
//!
//! - only [`METRIC`] is read; other metrics, comments (`#`) and blank lines
//!   are skipped. Labels `tool`, `path` and `client` are required; other
//!   labels (`instance`, `job`) tell series apart and are then summed away.
//! - the timestamp is integer milliseconds (Prometheus text) or seconds with
//!   a fraction (OpenMetrics, `1764720000.0`); a sample without one cannot
//!   be placed on a day and is an error.
//! - per series (full label set), samples are taken in time order; the
//!   increase between two samples is the difference, or the later value
//!   when the counter went down (a restart counts from zero again), and is
//!   booked on the later sample's day (UTC). The first sample of a series
//!   present at its target's first scrape is its baseline: what it counted
//!   before is not in the window. A series that appears later (a client's
//!   first call of the path, a restarted process) started from zero inside
//!   the window, so its first value is booked on its first day. The target
//!   is what the labels other than `tool`, `path` and `client` name
//!   (`instance`, `job`; none: one target).
//! - the range runs from the first to the last sample's day; a day without
//!   any sample of the metric is a gap (`no_data`), never a zero.
//!
//! Bounded: lines up to [`MAX_LINE`] bytes, at most [`MAX_SERIES`] series
//! and [`MAX_LABELS`] labels a sample, within the input-size limit.

use std::collections::{BTreeMap, BTreeSet};

use super::model::{Evidence, Key, MAX_DAYS};
use crate::date::Date;
use crate::error::InputError;

/// The counter the runtime layer's hits are exported as.
pub const METRIC: &str = "mcp_contract_compat_hits_total";
/// The longest line read.
pub const MAX_LINE: usize = 64 * 1024;
/// The most series (distinct label sets) read.
pub const MAX_SERIES: usize = 100_000;
/// The most labels on one sample.
pub const MAX_LABELS: usize = 64;

const MS_PER_DAY: i64 = 86_400_000;
/// 2000-01-01 and 2200-01-01 in milliseconds: outside is not a plausible
/// timestamp (seconds written where milliseconds belong, say).
const MS_MIN: i64 = 946_684_800_000;
const MS_MAX: i64 = 7_258_118_400_000;

type Labels = Vec<(String, String)>;

/// One sample: timestamp (ms), value, line.
struct Sample {
    ms: i64,
    value: u64,
    line: usize,
}

/// Reads exposition text into evidence; `file` names it in errors.
pub fn import(text: &str, file: &str) -> Result<Evidence, InputError> {
    let mut series: BTreeMap<Labels, Vec<Sample>> = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        if line.len() > MAX_LINE {
            return Err(
                at(file, n, 1, format!("line is longer than {MAX_LINE} bytes"))
                    .fix("export one sample a line"),
            );
        }
        let line = line.trim_end_matches('\r');
        let body = line.trim_start();
        if body.is_empty() || body.starts_with('#') {
            continue;
        }
        let Some((labels, sample)) = sample_line(line, n, file)? else {
            continue;
        };
        if !series.contains_key(&labels) && series.len() >= MAX_SERIES {
            return Err(at(file, n, 1, format!("more than {MAX_SERIES} series"))
                .fix("export fewer clients or a shorter window"));
        }
        series.entry(labels).or_default().push(sample);
    }
    let first = series.values().flatten().map(|s| s.ms).min();
    let last = series.values().flatten().map(|s| s.ms).max();
    let (Some(first), Some(last)) = (first, last) else {
        return Err(InputError::new(file, format!("no `{METRIC}` samples"))
            .fix(format!("export the `{METRIC}` counter with its timestamps")));
    };
    let (from, to) = (day_of(first), day_of(last));
    if to.to_unix_days() - from.to_unix_days() >= MAX_DAYS {
        return Err(InputError::new(
            file,
            format!("the samples span {from}..{to}, longer than {MAX_DAYS} days"),
        )
        .fix("export a shorter window"));
    }
    let sampled: BTreeSet<Date> = series.values().flatten().map(|s| day_of(s.ms)).collect();
    let mut e = Evidence::empty(from, to);
    e.no_data = e.days().filter(|d| !sampled.contains(d)).collect();
    let mut first_scrape: BTreeMap<Labels, i64> = BTreeMap::new();
    for (labels, samples) in &series {
        let at = first_scrape.entry(target_of(labels)).or_insert(i64::MAX);
        *at = samples.iter().map(|s| s.ms).fold(*at, i64::min);
    }
    for (labels, samples) in &mut series {
        let key = key_of(labels, samples[0].line, file)?;
        samples.sort_by_key(|s| (s.ms, s.line));
        if samples[0].ms > first_scrape[&target_of(labels)] {
            e.add(key.clone(), day_of(samples[0].ms), samples[0].value);
        }
        for pair in samples.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            if a.ms == b.ms {
                if a.value != b.value {
                    return Err(at(
                        file,
                        b.line,
                        1,
                        format!(
                            "this series has another value at the same timestamp (line {})",
                            a.line
                        ),
                    )
                    .fix("export each scrape once"));
                }
                continue;
            }
            let increase = if b.value >= a.value {
                b.value - a.value
            } else {
                b.value
            };
            e.add(key.clone(), day_of(b.ms), increase);
        }
    }
    Ok(e)
}

fn at(file: &str, line: usize, column: usize, msg: String) -> InputError {
    InputError::new(file, msg).at(format!("line {line}, column {column}"))
}

fn day_of(ms: i64) -> Date {
    Date::from_unix_days(ms.div_euclid(MS_PER_DAY))
}

/// The labels that name the scraped target: all but the key's.
fn target_of(labels: &Labels) -> Labels {
    labels
        .iter()
        .filter(|(k, _)| !matches!(k.as_str(), "tool" | "path" | "client"))
        .cloned()
        .collect()
}

fn key_of(labels: &Labels, line: usize, file: &str) -> Result<Key, InputError> {
    let get = |k: &str| -> Result<String, InputError> {
        match labels.iter().find(|(n, _)| n == k) {
            Some((_, v)) if !v.is_empty() => Ok(v.clone()),
            _ => Err(at(file, line, 1, format!("sample has no `{k}` label"))
                .fix("export the counter with labels tool, path and client (client=\"unknown\" when a client does not name itself)")),
        }
    };
    Ok(Key {
        tool: get("tool")?,
        path: get("path")?,
        client: get("client")?,
    })
}

/// One line: `None` for another metric, else its labels and sample.
fn sample_line(line: &str, n: usize, file: &str) -> Result<Option<(Labels, Sample)>, InputError> {
    let b = line.as_bytes();
    let mut i = 0;
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    let start = i;
    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b':') {
        i += 1;
    }
    if i == start {
        return Err(at(file, n, i + 1, "expected a metric name".into())
            .fix("write samples as name{label=\"value\",...} VALUE TIMESTAMP"));
    }
    if &line[start..i] != METRIC {
        return Ok(None);
    }
    let mut labels: Labels = vec![];
    if b.get(i) == Some(&b'{') {
        i += 1;
        loop {
            while i < b.len() && (b[i] == b' ' || b[i] == b',') {
                i += 1;
            }
            if b.get(i) == Some(&b'}') {
                i += 1;
                break;
            }
            let name_start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            if i == name_start || b.get(i) != Some(&b'=') || b.get(i + 1) != Some(&b'"') {
                return Err(at(file, n, i + 1, "expected label=\"value\" or `}`".into())
                    .fix("write labels as {tool=\"t\",path=\"field:query\",client=\"c\"}"));
            }
            let name = line[name_start..i].to_string();
            i += 2;
            let mut value = String::new();
            loop {
                match line[i..].chars().next() {
                    None => {
                        return Err(at(file, n, i + 1, "label value is not closed".into())
                            .fix("close the value with `\"`"))
                    }
                    Some('"') => {
                        i += 1;
                        break;
                    }
                    Some('\\') => {
                        let c = match b.get(i + 1) {
                            Some(b'n') => '\n',
                            Some(b'\\') => '\\',
                            Some(b'"') => '"',
                            _ => {
                                return Err(at(
                                    file,
                                    n,
                                    i + 1,
                                    "unknown escape in label value".into(),
                                )
                                .fix("escape only \\\\, \\\" and \\n"))
                            }
                        };
                        value.push(c);
                        i += 2;
                    }
                    Some(c) => {
                        value.push(c);
                        i += c.len_utf8();
                    }
                }
            }
            if labels.iter().any(|(k, _)| *k == name) {
                return Err(at(
                    file,
                    n,
                    name_start + 1,
                    format!("label `{name}` given twice"),
                )
                .fix("give each label once"));
            }
            if labels.len() >= MAX_LABELS {
                return Err(at(
                    file,
                    n,
                    name_start + 1,
                    format!("more than {MAX_LABELS} labels"),
                )
                .fix("drop labels the evidence does not need"));
            }
            labels.push((name, value));
        }
    }
    labels.sort();
    let rest = &line[i..];
    let mut fields = rest.split_ascii_whitespace();
    let column = |s: &str| s.as_ptr() as usize - line.as_ptr() as usize + 1;
    let Some(v) = fields.next() else {
        return Err(at(file, n, i + 1, "sample has no value".into())
            .fix("write the counter value after the labels"));
    };
    let value = match v.parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 && x.fract() == 0.0 && x <= 9_007_199_254_740_992.0 => {
            x as u64
        }
        _ => {
            return Err(
                at(file, n, column(v), format!("`{v}` is not a counter value"))
                    .fix("a hit counter is a whole number of calls, 0 or more"),
            )
        }
    };
    let Some(t) = fields.next() else {
        return Err(at(file, n, i + 1, "sample has no timestamp".into())
            .fix("export samples with their timestamps (milliseconds), e.g. from a range query"));
    };
    let ms = if t.contains('.') {
        t.parse::<f64>()
            .ok()
            .filter(|s| s.is_finite())
            .map(|s| (s * 1000.0).round() as i64)
    } else {
        t.parse::<i64>().ok()
    };
    let ms = match ms {
        Some(ms) if (MS_MIN..MS_MAX).contains(&ms) => ms,
        _ => return Err(at(
            file,
            n,
            column(t),
            format!("`{t}` is not a timestamp between 2000 and 2200"),
        )
        .fix(
            "write integer milliseconds (1764720000000) or seconds with a fraction (1764720000.0)",
        )),
    };
    if let Some(extra) = fields.next() {
        return Err(at(
            file,
            n,
            column(extra),
            format!("unexpected `{extra}` after the timestamp"),
        )
        .fix("one sample a line: name{labels} VALUE TIMESTAMP"));
    }
    Ok(Some((labels, Sample { ms, value, line: n })))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::usage::model::rows;

    const DAY: i64 = MS_PER_DAY;
    // 2025-12-03T00:00:00Z
    const T0: i64 = 1_764_720_000_000;

    fn line(client: &str, v: u64, ms: i64) -> String {
        format!("{METRIC}{{tool=\"search\",path=\"field:query\",client=\"{client}\"}} {v} {ms}\n")
    }

    #[test]
    fn books_increases_per_day_across_resets_and_gaps() {
        let mut text =
            String::from("# TYPE mcp_contract_compat_hits_total counter\nother_metric 3 1\n");
        text += &line("a", 5, T0); // baseline
        text += &line("a", 7, T0 + 3_600_000); // +2 on day 0
        text += &line("a", 1, T0 + DAY); // reset: +1 on day 1
        text += &line("a", 4, T0 + 3 * DAY); // +3 on day 3; day 2 has no sample
        text += &line("b", 9, T0); // present at the first scrape: a baseline
        text += &line("b", 9, T0 + DAY);
        text += &line("b", 9, T0 + 3 * DAY);
        let e = import(&text, "p.txt").unwrap();
        assert_eq!(
            (e.from.to_string(), e.to.to_string()),
            ("2025-12-03".into(), "2025-12-06".into())
        );
        assert_eq!(
            e.no_data.iter().map(|d| d.to_string()).collect::<Vec<_>>(),
            ["2025-12-05"]
        );
        let r = rows(&e);
        assert_eq!(r.len(), 1, "client b took no path in the window");
        assert_eq!(
            (
                r[0].key.client.as_str(),
                r[0].total,
                r[0].last_hit.to_string()
            ),
            ("a", 6, "2025-12-06".to_string())
        );
    }

    #[test]
    fn a_series_that_appears_after_its_targets_first_scrape_starts_from_zero() {
        let text = [
            format!("{METRIC}{{instance=\"x\",tool=\"t\",path=\"p\",client=\"old\"}} 7 {T0}"),
            // instance y's first scrape is later: its series' history is unknown
            format!(
                "{METRIC}{{instance=\"y\",tool=\"t\",path=\"p\",client=\"old\"}} 9 {}",
                T0 + DAY
            ),
            // a client x had not seen at its first scrape: all its calls are new
            format!(
                "{METRIC}{{instance=\"x\",tool=\"t\",path=\"p\",client=\"new\"}} 5 {}",
                T0 + DAY
            ),
            format!(
                "{METRIC}{{instance=\"x\",tool=\"t\",path=\"p\",client=\"new\"}} 6 {}",
                T0 + 2 * DAY
            ),
        ]
        .join("\n");
        let e = import(&text, "p").unwrap();
        let r = rows(&e);
        assert_eq!(r.len(), 1, "{r:?}");
        assert_eq!(r[0].key.client, "new");
        assert_eq!(r[0].total, 6);
        assert_eq!(e.hits[&r[0].key].len(), 2, "5 on day 1, 1 on day 2");
    }

    #[test]
    fn series_with_other_labels_are_summed() {
        let text = [
            format!("{METRIC}{{instance=\"x\",tool=\"t\",path=\"p\",client=\"c\"}} 1 {T0}"),
            format!(
                "{METRIC}{{instance=\"x\",tool=\"t\",path=\"p\",client=\"c\"}} 2 {}",
                T0 + 1000
            ),
            format!(
                "{METRIC}{{instance=\"y\",tool=\"t\",path=\"p\",client=\"c\"}} 10 {}.0",
                T0 / 1000
            ),
            format!(
                "{METRIC}{{instance=\"y\",tool=\"t\",path=\"p\",client=\"c\"}} 13 {}.5",
                T0 / 1000 + 1
            ),
        ]
        .join("\n");
        assert_eq!(rows(&import(&text, "p").unwrap())[0].total, 4);
    }

    #[test]
    fn bad_lines_name_line_column_and_fix() {
        let cases = [
            (
                format!("{METRIC}{{tool=\"t\",path=\"p\",client=\"c\"}} 5"),
                "no timestamp",
            ),
            (
                format!("{METRIC}{{tool=\"t\",path=\"p\",client=\"c\"}} NaN {T0}"),
                "not a counter value",
            ),
            (
                format!("{METRIC}{{tool=\"t\",path=\"p\",client=\"c\"}} 5 1764720000"),
                "not a timestamp",
            ),
            (
                format!("{METRIC}{{tool=\"t\",path=\"p\"}} 5 {T0}"),
                "no `client` label",
            ),
            (
                format!("{METRIC}{{tool=\"t,path=\"p\"}} 5 {T0}"),
                "expected label",
            ),
            (
                format!("{METRIC}{{tool=\"t\",tool=\"p\"}} 5 {T0}"),
                "given twice",
            ),
            (
                "# nothing\n".to_string(),
                "no `mcp_contract_compat_hits_total` samples",
            ),
        ];
        for (text, want) in cases {
            let e = import(&format!("# c\n{text}"), "p.txt").unwrap_err();
            assert!(e.message.contains(want), "{text}: {e}");
            assert!(e.fix.is_some());
            if !want.starts_with("no `mcp") {
                assert!(
                    e.location.as_deref().unwrap().starts_with("line 2, column"),
                    "{e}"
                );
            }
        }
        let long = "x".repeat(MAX_LINE + 1);
        assert!(import(&long, "p")
            .unwrap_err()
            .message
            .contains("longer than"));
    }
}
