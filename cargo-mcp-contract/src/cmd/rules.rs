//! `cargo mcp-contract rules` and `cargo mcp-contract explain RULE`.

use mcp_contract::rules::{self, RULES};

use crate::output;

#[derive(clap::Args)]
pub struct ListArgs {
    /// Print the registry as JSON
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
pub struct ExplainArgs {
    /// A rule id, e.g. input.required-added
    rule: String,
}

pub fn list(args: ListArgs) -> u8 {
    if args.json {
        let v: Vec<serde_json::Value> = RULES
            .iter()
            .map(|r| {
                serde_json::json!({"id": r.id, "severity": r.severity.as_str(), "summary": r.summary,
                    "explanation": r.explanation, "example": r.example, "fix": r.fix})
            })
            .collect();
        output::outln!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        return output::OK;
    }
    let width = RULES.iter().map(|r| r.id.len()).max().unwrap_or(0);
    for r in RULES {
        output::outln!("{:width$}  {:10}  {}", r.id, r.severity.as_str(), r.summary);
    }
    output::OK
}

pub fn explain(args: ExplainArgs) -> u8 {
    let Some(r) = rules::rule(&args.rule) else {
        let close = rules::suggest(&args.rule);
        eprintln!("error: unknown rule `{}`", args.rule);
        if close.is_empty() {
            eprintln!("  help: `cargo mcp-contract rules` lists every rule");
        } else {
            eprintln!("  help: did you mean {}?", close.join(", "));
        }
        return output::ERROR;
    };
    output::outln!(
        "{} ({})\n\n{}\n\n{}\n\nExample: {}\nFix: {}",
        r.id,
        r.severity,
        r.summary,
        r.explanation,
        r.example,
        rules::fix_for(
            r,
            &format!("<{}>", mcp_contract::diff::Target::of_rule(r.id).as_str())
        )
    );
    output::OK
}
