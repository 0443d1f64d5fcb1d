//! The upstream server, reached as an MCP client over its standard input and output (its
//! standard error is the gateway's): started, listed, and stopped.

use std::time::Duration;

use rmcp::ServiceExt;
use rmcp::model::Tool;
use rmcp::transport::TokioChildProcess;

/// How long an upstream may take to start and list its tools (`npx -y` may install first).
const LIST_TIMEOUT: Duration = Duration::from_secs(120);

/// Every tool the server `command` (a program and its arguments) lists, every page of it.
pub async fn list_tools(command: &[String]) -> Result<Vec<Tool>, String> {
    let (program, args) = command
        .split_first()
        .ok_or("no upstream command: give it after `--`")?;
    let mut spawn = tokio::process::Command::new(program);
    spawn.args(args);
    let transport = TokioChildProcess::new(spawn)
        .map_err(|error| format!("cannot start `{program}`: {error}"))?;
    let listed = tokio::time::timeout(LIST_TIMEOUT, async {
        let client = ().serve(transport).await.map_err(|error| {
            format!("`{program}` did not answer `initialize` as an MCP server: {error}")
        })?;
        let tools = client
            .list_all_tools()
            .await
            .map_err(|error| format!("`{program}` did not list its tools: {error}"));
        let _ = client.cancel().await;
        tools
    })
    .await;
    listed.unwrap_or_else(|_| {
        Err(format!(
            "`{program}` did not list its tools within {} s",
            LIST_TIMEOUT.as_secs()
        ))
    })
}
