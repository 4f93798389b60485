//! `cargo mcp-contract usage`: reads usage evidence (merged, oldest first)
//! and prints who still takes each old path, or, with `--import-prometheus`,
//! turns the runtime layer's hit counter exported as Prometheus text into an
//! evidence file (written atomically: the old file or the new, never half).

use std::path::PathBuf;

use mcp_contract::usage::{self, Evidence};
use serde_json::json;

use crate::output::{self, Format};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Usage evidence files (mcp-contract-usage JSON), oldest range first
    #[arg(
        required_unless_present = "import_prometheus",
        conflicts_with = "import_prometheus"
    )]
    files: Vec<PathBuf>,
    /// Read the hit counter (mcp_contract_compat_hits_total) from Prometheus/OpenMetrics text with timestamps
    #[arg(long, value_name = "FILE", requires = "out")]
    import_prometheus: Option<PathBuf>,
    /// Where --import-prometheus writes the evidence
    #[arg(long, value_name = "EVIDENCE.json", requires = "import_prometheus")]
    out: Option<PathBuf>,
    #[arg(long, value_enum, default_value = "human")]
    format: Format,
}

pub fn run(args: Args) -> u8 {
    match (&args.import_prometheus, &args.out) {
        (Some(input), Some(out)) => import(input, out),
        _ => show(&args),
    }
}

fn import(input: &std::path::Path, out: &std::path::Path) -> u8 {
    let file = input.display().to_string();
    let text = match mcp_contract::limits::read(input) {
        Ok(b) => match String::from_utf8(b) {
            Ok(t) => t,
            Err(_) => {
                return output::input_error(
                    &mcp_contract::InputError::new(&file, "file is not valid UTF-8")
                        .fix("export the metrics as UTF-8 text"),
                )
            }
        },
        Err(e) => {
            return output::input_error(
                &mcp_contract::InputError::new(&file, format!("cannot read: {e}"))
                    .fix("check the path"),
            )
        }
    };
    let evidence = match usage::prometheus::import(&text, &file) {
        Ok(e) => e,
        Err(e) => return output::input_error(&e),
    };
    let mut bytes = serde_json::to_vec_pretty(&evidence.to_json()).unwrap_or_default();
    bytes.push(b'\n');
    if let Err(e) = mcp_contract::atomic::write(out, &bytes) {
        eprintln!(
            "error: {}: cannot write the evidence: {e}\n  help: check that the directory is writable",
            out.display()
        );
        return output::ERROR;
    }
    eprintln!(
        "wrote {}: {}..{}, {} days with data, {} path(s) taken",
        out.display(),
        evidence.from,
        evidence.to,
        evidence.covered_days(),
        usage::rows(&evidence).len()
    );
    output::OK
}

fn show(args: &Args) -> u8 {
    let files = match usage::read_files(&args.files) {
        Ok(f) => f,
        Err(e) => return output::input_error(&e),
    };
    let merged = match usage::merge(&files) {
        Ok(m) => m,
        Err(e) => return output::input_error(&e),
    };
    match args.format {
        Format::Json => output::outln!(
            "{}",
            serde_json::to_string_pretty(&json_report(&merged)).unwrap_or_default()
        ),
        Format::Human => output::out!("{}", human(&merged)),
    }
    output::OK
}

fn gaps(e: &Evidence) -> Vec<String> {
    e.gaps().into_iter().map(usage::run_text).collect()
}

fn json_report(e: &Evidence) -> serde_json::Value {
    let rows: Vec<_> = usage::rows(e)
        .into_iter()
        .map(|r| {
            json!({"tool": r.key.tool, "path": r.key.path, "client": r.key.client,
                   "last_hit": r.last_hit.to_string(), "total": r.total})
        })
        .collect();
    json!({
        "range": {"from": e.from.to_string(), "to": e.to.to_string()},
        "days_covered": e.covered_days(),
        "gaps": gaps(e),
        "paths": rows,
    })
}

fn human(e: &Evidence) -> String {
    let g = gaps(e);
    let mut out = format!(
        "usage {}..{}: {} of {} days with data; gaps: {}\n",
        e.from,
        e.to,
        e.covered_days(),
        e.days().count(),
        if g.is_empty() {
            "none".to_string()
        } else {
            g.join(", ")
        }
    );
    let rows = usage::rows(e);
    if rows.is_empty() {
        out.push_str("no old path was taken on the days with data\n");
        return out;
    }
    let head = ["tool", "path", "client", "last hit", "hits"];
    let cells: Vec<[String; 5]> = rows
        .iter()
        .map(|r| {
            [
                r.key.tool.clone(),
                r.key.path.clone(),
                r.key.client.clone(),
                r.last_hit.to_string(),
                r.total.to_string(),
            ]
        })
        .collect();
    let mut width = head.map(str::len);
    for c in &cells {
        for (w, s) in width.iter_mut().zip(c) {
            *w = (*w).max(s.chars().count());
        }
    }
    let line = |c: [&str; 5]| {
        let mut s = String::new();
        for (i, (w, v)) in width.iter().zip(c).enumerate() {
            if i == 4 {
                s.push_str(&format!("{v:>w$}"));
            } else {
                s.push_str(&format!("{v:<w$}  "));
            }
        }
        s.trim_end().to_string() + "\n"
    };
    out.push_str(&line(head));
    for c in &cells {
        out.push_str(&line([&c[0], &c[1], &c[2], &c[3], &c[4]]));
    }
    out
}
