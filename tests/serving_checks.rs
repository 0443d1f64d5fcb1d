//! What a server is held to when it is built, past the schemas of its contracts: one contract
//! mounted as several tools, the budgets of every dialect its rules show, what a shown
//! dialect cannot say (logged by default, refused when the profile asks), and a router judged
//! as each client is listed it.
#![cfg(feature = "rmcp")]

mod common;

use serde::Deserialize;
use serde_json::json;
use stitch::guard::FindingKind;
use stitch::mcp::{Toolbox, Tools};
use stitch::{Contract, SchemaProfile};

/// Add two numbers.
#[derive(Contract, Deserialize)]
struct Add {
    a: i64,
    b: i64,
}

#[tokio::test]
async fn one_contract_is_served_as_two_tools_under_two_names() {
    let tools = Tools::new()
        .tool(|add: Add| async move { Ok::<_, String>((add.a + add.b).to_string()) })
        .tool_named("subtract", |add: Add| async move {
            Ok::<_, String>((add.a - add.b).to_string())
        })
        .toolbox("test", "0.0.0")
        .unwrap();
    let names: Vec<String> = tools
        .tools()
        .iter()
        .map(|tool| tool.name.to_string())
        .collect();
    assert_eq!(names, ["add", "subtract"]);
    let listed = tools.tools();
    assert_eq!(listed[0].input_schema, listed[1].input_schema);
    let answer = tools
        .call("subtract", json!({"a": 5, "b": 2}))
        .await
        .unwrap();
    assert_eq!(answer.content[0].as_text().unwrap().text, "3");
    // Mounted twice under one name, the guard says how to serve it as two tools.
    let twice = Tools::new()
        .tool(|_: Add| async { Ok::<_, String>("0") })
        .tool(|_: Add| async { Ok::<_, String>("0") })
        .toolbox("test", "0.0.0")
        .err()
        .unwrap();
    assert!(twice[0].to_string().contains("tool_named"), "{}", twice[0]);
    let badly_named = Tools::new()
        .tool_named("not a name", |_: Add| async { Ok::<_, String>("0") })
        .toolbox("test", "0.0.0")
        .err()
        .unwrap();
    assert_eq!(badly_named[0].kind(), FindingKind::InvalidName);
}

/// Twenty-one strict tools: one past Anthropic's limit on a request's strict tools (built
/// past it where `allowed`).
fn many_tools(profile: SchemaProfile, allowed: bool) -> Result<Toolbox, Vec<stitch::Finding>> {
    const NAMES: [&str; 21] = [
        "t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9", "t10", "t11", "t12", "t13",
        "t14", "t15", "t16", "t17", "t18", "t19", "t20",
    ];
    let dialects = stitch::mcp::ClientDialects::new(stitch::Dialect::Mcp)
        .client("agent", stitch::Dialect::AnthropicStrict);
    let tools = Tools::new().profile(profile).dialects(dialects);
    let tools = if allowed {
        tools.allow_over_budget()
    } else {
        tools
    };
    NAMES
        .iter()
        .fold(tools, |tools, name| {
            tools.tool_named(name, |add: Add| async move {
                Ok::<_, String>((add.a + add.b).to_string())
            })
        })
        .toolbox("many", "0.0.0")
}

#[test]
fn a_shown_dialects_budgets_fail_the_build_unless_allowed() {
    for profile in [
        SchemaProfile::new(),
        SchemaProfile::new().require_within_budgets(),
    ] {
        let findings = many_tools(profile, false)
            .err()
            .expect("21 strict tools are past Anthropic's 20");
        assert!(
            findings
                .iter()
                .any(|finding| finding.kind() == FindingKind::OverBudget),
            "{findings:?}"
        );
    }
    // Allowed explicitly, the server builds (and logs what is over budget), unless the
    // profile itself requires the budgets.
    assert!(many_tools(SchemaProfile::new(), true).is_ok());
    assert!(many_tools(SchemaProfile::new().require_within_budgets(), true).is_err());
}

/// The warnings a server logs while `run` runs.
fn warnings_of(run: impl FnOnce()) -> Vec<String> {
    use std::sync::{Arc, Mutex};
    use tracing::field::{Field, Visit};

    #[derive(Default, Clone)]
    struct Recorder(Arc<Mutex<Vec<String>>>);
    struct Message(String);
    impl Visit for Message {
        fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
            if field.name() == "message" {
                self.0 = format!("{value:?}");
            }
        }
    }
    impl tracing::Subscriber for Recorder {
        fn enabled(&self, metadata: &tracing::Metadata<'_>) -> bool {
            *metadata.level() == tracing::Level::WARN
        }
        fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
            tracing::span::Id::from_u64(1)
        }
        fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
        fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
        fn event(&self, event: &tracing::Event<'_>) {
            let mut message = Message(String::new());
            event.record(&mut message);
            self.0.lock().unwrap().push(message.0);
        }
        fn enter(&self, _: &tracing::span::Id) {}
        fn exit(&self, _: &tracing::span::Id) {}
    }
    let recorder = Recorder::default();
    tracing::subscriber::with_default(recorder.clone(), run);
    recorder.0.lock().unwrap().clone()
}

/// Anything at all.
#[derive(Contract, Deserialize)]
#[allow(dead_code)]
struct Loose {
    payload: serde_json::Value,
}

#[test]
fn what_a_shown_dialect_cannot_say_or_is_past_a_budget_is_said_by_default() {
    let dialects = || {
        stitch::mcp::ClientDialects::new(stitch::Dialect::Mcp)
            .client("agent", stitch::Dialect::OpenAiStrict)
    };
    let said = warnings_of(|| {
        let built = Tools::new()
            .dialects(dialects())
            .tool(|_: Loose| async { Ok::<_, String>("ok") })
            .toolbox("loose", "0.0.0");
        assert!(built.is_ok(), "not required: the server starts");
    });
    assert!(
        said.iter()
            .any(|line| line.contains("payload") && line.contains("openai-strict")),
        "{said:?}"
    );
    // Past a budget and allowed, said too (21 strict tools for Anthropic's 20).
    let said = warnings_of(|| assert!(many_tools(SchemaProfile::new(), true).is_ok()));
    assert!(said.iter().any(|line| line.contains("budget")), "{said:?}");
    // Required, refused.
    let refused = Tools::new()
        .profile(SchemaProfile::new().require_expressible())
        .dialects(dialects())
        .tool(|_: Loose| async { Ok::<_, String>("ok") })
        .toolbox("loose", "0.0.0");
    assert!(refused.is_err());
}

every_contract_here!(Add, Loose);

#[test]
fn a_router_is_judged_as_each_client_is_listed_it() {
    use std::sync::Arc;
    use stitch::Dialect;
    use stitch::mcp::rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
    use stitch::mcp::rmcp::handler::server::tool::ToolCallContext;
    use stitch::mcp::rmcp::model::{CallToolResult, ContentBlock, Tool};
    use stitch::mcp::{ClientDialects, check_router};

    // A plain rmcp tool as schemars writes one: a property typed through `$ref`, and an
    // enum of operations as a `oneOf`.
    let serde_json::Value::Object(schema) = json!({"type": "object",
        "properties": {"shade": {"$ref": "#/$defs/Shade"}},
        "oneOf": [
            {"type": "object", "properties": {"kind": {"const": "a"}, "n": {"type": "integer"}},
             "required": ["kind"]},
            {"type": "object", "properties": {"kind": {"const": "b"}, "s": {"type": "string"}},
             "required": ["kind", "s"]}
        ],
        "$defs": {"Shade": {"type": "string", "enum": ["gray", "black"]}}
    }) else {
        unreachable!()
    };
    let plain = ToolRoute::new_dyn(
        Tool::new("plain", "Echo.", Arc::new(schema)),
        |_context: ToolCallContext<'_, ()>| {
            Box::pin(async { Ok(CallToolResult::success(vec![ContentBlock::text("ok")]).into()) })
        },
    );
    let router = ToolRouter::<()>::new().with_route(plain);
    let listings = Tools::<()>::new()
        .dialects(ClientDialects::new(Dialect::Portable))
        .build()
        .expect("no tools, no findings")
        .listings();
    for dialect in [
        Dialect::Portable,
        Dialect::AnthropicStrict,
        Dialect::OpenAiStrict,
    ] {
        let profile = SchemaProfile::new()
            .dialect(dialect)
            .require_typed_properties()
            .require_expressible();
        // The guard reads a plain tool's schema as the listing flattens it: `$ref` resolved,
        // the `oneOf` merged. What it says of the router is what it says of each listing.
        let as_written = check_router(&router, &profile);
        let listed = listings.tools_in(&router, dialect);
        let as_listed: Vec<stitch::Finding> = listed
            .iter()
            .flat_map(|tool| {
                let input = serde_json::Value::Object((*tool.input_schema).clone());
                let checked = [stitch::guard::Checked::Listed {
                    name: &tool.name,
                    description: tool.description.as_deref().unwrap_or_default(),
                    input: &input,
                }];
                stitch::guard::check(&checked, &profile)
            })
            .collect();
        assert_eq!(as_written, [], "{dialect}");
        assert_eq!(as_listed, [], "{dialect}");
    }
}
