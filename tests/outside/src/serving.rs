//! Which schema reaches which model, from a user's crate: a path per dialect over HTTP and
//! its cache hint, budgets that refuse a build, a description per mount, and each listed
//! tool's digest.

use serde_json::Value;
use stitch::mcp::{ClientDialects, HttpServer, Toolbox, Tools, listed_tool_digest};
use stitch::{Contract, Dialect, SchemaProfile, guard::FindingKind};

use crate::check;
use crate::raw_http::listed_at;

/// A reminder, by its id.
#[derive(stitch::Contract, serde::Deserialize)]
pub struct ReminderId {
    pub id: u32,
}

/// Flag one record.
#[allow(dead_code, reason = "the note is deserialized, never read")]
#[derive(stitch::Contract, serde::Deserialize)]
pub struct Flag {
    pub id: u32,
    pub note: Option<String>,
}

fn reminders(rules: ClientDialects) -> Tools<Toolbox> {
    Tools::new()
        .dialects(rules)
        .tool_named("get_reminder", |r: ReminderId| async move {
            Ok::<_, String>(r.id.to_string())
        })
        .described("Read one reminder.")
        .tool_named("complete_reminder", |r: ReminderId| async move {
            Ok::<_, String>(r.id.to_string())
        })
        .described("Mark one reminder done.")
        .titled("Complete a reminder")
}

pub async fn the_right_schema_to_the_right_model() {
    // A path per dialect, whatever the client's name; public only where it is one dialect.
    let rules = ClientDialects::new(Dialect::Mcp).client("strict-agent", Dialect::OpenAiStrict);
    let toolbox = Tools::new()
        .dialects(rules)
        .tool(|flag: Flag| async move { Ok::<_, String>(flag.id.to_string()) })
        .toolbox("flags", "0.0.0")
        .expect("the guard passes");
    let listener = HttpServer::new().bind("127.0.0.1:0").await.expect("bound");
    let address = listener.local_addr().expect("an address");
    tokio::spawn(listener.serve(toolbox));
    let strict: Value =
        serde_json::from_str(Flag::input_schema_for(Dialect::AnthropicStrict)).expect("JSON");
    let fixed = listed_at(address, "/mcp/anthropic-strict", "raw").await;
    check(
        "a client at /mcp/anthropic-strict is listed anthropic-strict whatever its name, publicly",
        fixed["tools"][0]["inputSchema"] == strict && fixed["cacheScope"] == "public",
    );
    let named = listed_at(address, "/mcp", "raw").await;
    check(
        "at /mcp, where the name decides, the listing is private",
        named["cacheScope"] == "private"
            && named["tools"][0]["inputSchema"]
                == serde_json::from_str::<Value>(Flag::INPUT_SCHEMA).expect("JSON"),
    );

    // Budgets that bind: 21 tools past Anthropic's 20 strict tools, refused unless allowed.
    let many = |allowed: bool| {
        let rules = ClientDialects::new(Dialect::Mcp).client("claude", Dialect::AnthropicStrict);
        const NAMES: [&str; 21] = [
            "t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9", "t10", "t11", "t12", "t13",
            "t14", "t15", "t16", "t17", "t18", "t19", "t20",
        ];
        let tools = NAMES
            .iter()
            .fold(Tools::<Toolbox>::new().dialects(rules), |tools, name| {
                tools.tool_named(name, |flag: Flag| async move {
                    Ok::<_, String>(flag.id.to_string())
                })
            });
        let tools = if allowed {
            tools.allow_over_budget()
        } else {
            tools
        };
        tools.toolbox("many", "0.0.0")
    };
    let refused = many(false).err().unwrap_or_default();
    check(
        "a listing past a shown provider's budget is refused, naming the dialect and the limit",
        refused.iter().any(|finding| {
            let said = finding.to_string();
            finding.kind() == FindingKind::OverBudget
                && said.contains("anthropic-strict")
                && said.contains("20")
        }) && many(true).is_ok(),
    );

    // A description per mount; none is a finding where descriptions are required.
    let required = SchemaProfile::new().require_descriptions();
    let described = reminders(ClientDialects::new(Dialect::Mcp))
        .profile(required)
        .toolbox("reminders", "1.0");
    let undescribed = Tools::<Toolbox>::new()
        .tool(|r: ReminderId| async move { Ok::<_, String>(r.id.to_string()) })
        .described("")
        .profile(required)
        .toolbox("reminders", "1.0");
    check(
        "two mounts of one input type are described each; an empty description is refused",
        described.is_ok()
            && undescribed.is_err_and(|findings| {
                findings
                    .iter()
                    .any(|finding| finding.kind() == FindingKind::NoDescription)
            }),
    );

    // Each listed tool's digest pins it: the same as computed here, and it moves with a title.
    let tools = reminders(ClientDialects::new(Dialect::Mcp))
        .toolbox("reminders", "1.0")
        .expect("built")
        .tools();
    check(
        "every listed tool carries its digest, the SHA-256 of its canonical JSON",
        tools.len() == 2
            && tools.iter().all(|tool| {
                let said = tool
                    .meta
                    .as_ref()
                    .and_then(|meta| meta.0.get("stitch/digest"));
                said.and_then(Value::as_str) == Some(listed_tool_digest(tool).as_str())
            }),
    );
    let mut retitled = tools[0].clone();
    retitled.title = Some("Another title".to_owned());
    check(
        "a tool's digest changes when only its title does",
        listed_tool_digest(&retitled) != listed_tool_digest(&tools[0]),
    );
}
