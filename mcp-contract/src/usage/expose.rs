//! The hit counter as Prometheus text exposition (format 0.0.4), for a
//! server's `/metrics`: one [`METRIC`] sample per tool, path and client,
//! counting since the process started. Prometheus stamps each scrape with
//! its time; a range query exported as text is then what
//! [`import`](super::prometheus::import) reads back into evidence.

use std::fmt::Write;

use super::model::Key;
use super::prometheus::METRIC;

/// The `Content-Type` to serve the text with.
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// The exposition of `totals` (hits per key since the process started).
pub fn exposition<'a>(totals: impl IntoIterator<Item = (&'a Key, u64)>) -> String {
    let mut out = format!(
        "# HELP {METRIC} Calls that took an old contract path (mcp-contract runtime layer).\n# TYPE {METRIC} counter\n"
    );
    for (key, n) in totals {
        let _ = writeln!(
            out,
            "{METRIC}{{tool=\"{}\",path=\"{}\",client=\"{}\"}} {n}",
            escape(&key.tool),
            escape(&key.path),
            escape(&key.client)
        );
    }
    out
}

/// A label value escaped as the text format wants: `\\`, `\"`, `\n`.
fn escape(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    for c in v.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_label_values_the_importer_reads_back() {
        let key = Key {
            tool: "t".into(),
            path: "field:q".into(),
            client: "we\"ird\\client\nv/1".into(),
        };
        let text = exposition([(&key, 3)]);
        assert!(text.starts_with("# HELP mcp_contract_compat_hits_total "));
        let stamped: String = text
            .lines()
            .map(|l| {
                if l.starts_with('#') {
                    format!("{l}\n")
                } else {
                    format!(
                        "{l} 1764720000000\n{} 1764806400000\n",
                        l.replace("} 3", "} 5")
                    )
                }
            })
            .collect();
        let e = super::super::prometheus::import(&stamped, "scrape").unwrap();
        assert_eq!(e.hits.keys().collect::<Vec<_>>(), [&key]);
        assert_eq!(super::super::rows(&e)[0].total, 2);
    }
}
