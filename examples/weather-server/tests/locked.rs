//! In process, no server started: what rmcp serves for every tool of the
//! router (schemars at run time) is exactly what `build.rs` locked.

use weather_server::Weather;

#[test]
fn every_tool_is_served_as_locked() {
    let contract = mcp_contract::rmcp!();
    mcp_contract::rmcp::assert_locked(&Weather::tool_router(), &contract);
    let names: Vec<&str> = contract.names().collect();
    assert_eq!(names, ["get_forecast", "list_cities"]);
}

#[test]
fn a_different_schema_is_reported_by_tool_and_place() {
    let contract = mcp_contract::rmcp!();
    let mut router = Weather::tool_router();
    let mut tool = router.get("list_cities").cloned().unwrap();
    tool.description = Some("Changed at run time.".into());
    router.map.get_mut("list_cities").unwrap().attr = tool;
    let problems = mcp_contract::rmcp::locked_differences(&router, &contract);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].contains("tool `list_cities`"),
        "{}",
        problems[0]
    );
    assert!(problems[0].contains("/description: locked \"Every city with a forecast.\" / served \"Changed at run time.\""), "{}", problems[0]);
}

#[test]
fn every_prompt_is_served_as_locked() {
    let contract = mcp_contract::rmcp!();
    mcp_contract::rmcp::assert_prompts_locked(&Weather::prompt_router(), &contract);
    assert_eq!(contract.prompt_names().collect::<Vec<_>>(), ["trip_advice"]);
}
