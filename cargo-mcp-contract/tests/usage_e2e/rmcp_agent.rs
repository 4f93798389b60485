//! A client on rmcp: speaks MCP on its own stdin/stdout (the test wires
//! them to a server's stdout/stdin), introduces itself with the given
//! clientInfo, calls one tool and writes the result as one JSON object to
//! OUT_FILE.
//!
//! usage: usage-e2e-agent NAME VERSION TOOL ARGS_JSON OUT_FILE

use rmcp::model::{CallToolRequestParams, ClientCapabilities, ClientInfo, Implementation};
use rmcp::ServiceExt;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let argv: Vec<String> = std::env::args().collect();
    assert!(
        argv.len() == 6,
        "usage: usage-e2e-agent NAME VERSION TOOL ARGS_JSON OUT_FILE"
    );
    let args: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(&argv[4]).expect("ARGS_JSON is a JSON object");
    let info = ClientInfo::new(
        ClientCapabilities::default(),
        Implementation::new(argv[1].clone(), argv[2].clone()),
    );
    let client = info
        .serve(rmcp::transport::stdio())
        .await
        .expect("initialize");
    let result = client
        .call_tool(CallToolRequestParams::new(argv[3].clone()).with_arguments(args))
        .await
        .expect("a tool result");
    let text = serde_json::to_string(&result).expect("serializable");
    std::fs::write(&argv[5], text).expect("write OUT_FILE");
    // Ending the process closes stdout, the server's stdin: the session is
    // over for both. (`cancel` would wait for stdin to end first, and the
    // server keeps its stdout open until its stdin ends.)
    drop(client);
    std::process::exit(0);
}
