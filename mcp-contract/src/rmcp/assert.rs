//! [`assert_locked`]: in a test, what rmcp would publish for a router's
//! tools must be exactly what the build step locked; no process started.

use ::rmcp::handler::server::router::tool::ToolRouter;

use ::rmcp::handler::server::router::prompt::PromptRouter;

use super::contract::{report, report_of, Contract, Published};

/// One line per tool of `router` that is not served as locked (empty: all are).
pub fn locked_differences<S: Send + Sync + 'static>(
    router: &ToolRouter<S>,
    contract: &Contract,
) -> Vec<String> {
    router
        .list_all()
        .iter()
        .filter_map(|tool| match contract.check(tool) {
            Published::Locked => None,
            verdict => report(&tool.name, &verdict),
        })
        .collect()
}

/// Panics, naming every tool and the places where it differs, unless every
/// tool of `router` is exactly what the lockfile holds for it (rmcp's own
/// schemas, generated at run time by schemars, against the build step's):
/// `mcp_contract::rmcp::assert_locked(&Weather::tool_router(), &mcp_contract::rmcp!())`.
#[track_caller]
pub fn assert_locked<S: Send + Sync + 'static>(router: &ToolRouter<S>, contract: &Contract) {
    let problems = locked_differences(router, contract);
    assert!(
        problems.is_empty(),
        "{} of {} tools are not served as locked:\n{}",
        problems.len(),
        router.list_all().len(),
        problems.join("\n")
    );
}

/// Like [`assert_locked`], for a `#[prompt_router]`'s prompts.
#[track_caller]
pub fn assert_prompts_locked<S: Send + Sync + 'static>(
    router: &PromptRouter<S>,
    contract: &Contract,
) {
    let problems: Vec<String> = router
        .list_all()
        .iter()
        .filter_map(|p| report_of("prompt", &p.name, &contract.check_prompt(p)))
        .collect();
    assert!(
        problems.is_empty(),
        "{} prompts are not served as locked:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
