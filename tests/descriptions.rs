//! A description per mount: one input type mounted twice is two tools, each listed with its
//! own description and title; a tool listed with none is a finding of its own, refused under a
//! profile that requires descriptions, for stitch tools and plain rmcp tools alike.
#![cfg(feature = "rmcp")]

mod common;

mod exchange;

use std::sync::Arc;

use serde::Deserialize;
use serde_json::{Value, json};
use stitch::SchemaProfile;
use stitch::guard::FindingKind;
use stitch::mcp::rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use stitch::mcp::rmcp::handler::server::tool::ToolCallContext;
use stitch::mcp::rmcp::model::CallToolResult;
use stitch::mcp::{Toolbox, Tools, check_router};

#[derive(stitch::Contract, Deserialize)]
struct ReminderId {
    id: u32,
}

fn reminders() -> Tools<Toolbox> {
    Tools::new()
        .tool_named("get_reminder", |r: ReminderId| async move {
            Ok::<_, String>(format!("reminder {}", r.id))
        })
        .described("Read one reminder.")
        .tool_named("complete_reminder", |r: ReminderId| async move {
            Ok::<_, String>(format!("done {}", r.id))
        })
        .described("Mark one reminder done.")
        .titled("Complete a reminder")
}

#[tokio::test]
async fn two_mounts_of_one_input_type_list_their_own_descriptions() {
    let toolbox = reminders()
        .profile(SchemaProfile::new().require_descriptions())
        .toolbox("reminders", "1.0")
        .expect("every mount is described");
    let answers = exchange::exchange_as(
        toolbox,
        "client",
        vec![json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})],
    )
    .await;
    let tools = answers[0]["result"]["tools"].as_array().unwrap();
    let of = |name: &str| tools.iter().find(|tool| tool["name"] == name).unwrap();
    assert_eq!(of("get_reminder")["description"], "Read one reminder.");
    assert_eq!(
        of("complete_reminder")["description"],
        "Mark one reminder done."
    );
    assert_eq!(of("complete_reminder")["title"], "Complete a reminder");
    assert!(of("get_reminder").get("title").is_none());
}

#[test]
fn a_tool_without_a_description_is_a_finding_refused_when_required() {
    let undescribed = || {
        Tools::<Toolbox>::new()
            .tool(|r: ReminderId| async move { Ok::<_, String>(r.id.to_string()) })
    };
    let findings = undescribed()
        .profile(SchemaProfile::new().require_descriptions())
        .toolbox("reminders", "1.0")
        .err()
        .expect("refused");
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert_eq!(findings[0].kind(), FindingKind::NoDescription);
    let said = findings[0].to_string();
    assert!(
        said.contains("reminder_id") && said.contains("described"),
        "{said}"
    );
    // Not required, the server builds.
    assert!(undescribed().toolbox("reminders", "1.0").is_ok());
}

fn plain(description: &'static str) -> ToolRoute<()> {
    let Value::Object(schema) = json!({"type": "object"}) else {
        panic!("an object")
    };
    let tool = stitch::mcp::rmcp::model::Tool::new("plain", description, Arc::new(schema));
    ToolRoute::new_dyn(tool, |_: ToolCallContext<'_, ()>| {
        Box::pin(async { Ok(CallToolResult::success(Vec::new()).into()) })
    })
}

#[test]
fn check_router_reports_a_plain_tool_without_a_description() {
    let required = SchemaProfile::new().require_descriptions();
    let router = ToolRouter::new().with_route(plain(""));
    let findings = check_router(&router, &required);
    assert!(
        findings
            .iter()
            .any(|finding| finding.kind() == FindingKind::NoDescription
                && finding.to_string().contains("plain")),
        "{findings:?}"
    );
    let described = ToolRouter::new().with_route(plain("Does nothing, plainly."));
    assert!(check_router(&described, &required).is_empty());
}

every_contract_here!(ReminderId);
