//! Budgets that bind: a server whose listing a shown dialect's provider would refuse is not
//! built, unless its author allows it; then each crossing is logged. The shape is a ported
//! server's: one merged tool whose operations' keys are optional in the flat object, shown to
//! Anthropic's strict mode, which takes at most 24 optional parameters over a request.
#![cfg(feature = "rmcp")]

mod common;

use serde::Deserialize;
use stitch::mcp::{ClientDialects, Tools};
use stitch::{Contract, Dialect};

/// A ported server's one tool: ten operations of nine optional keys each.
#[derive(Contract, Deserialize, Debug)]
#[serde(tag = "op", rename_all = "snake_case")]
#[contract(name = "ported")]
#[allow(dead_code, reason = "only deserialized and printed")]
enum Ported {
    /// Operation 0.
    Op0 {
        k0_0: Option<u32>,
        k0_1: Option<u32>,
        k0_2: Option<u32>,
        k0_3: Option<u32>,
        k0_4: Option<u32>,
        k0_5: Option<u32>,
        k0_6: Option<u32>,
        k0_7: Option<u32>,
        k0_8: Option<u32>,
    },
    /// Operation 1.
    Op1 {
        k1_0: Option<u32>,
        k1_1: Option<u32>,
        k1_2: Option<u32>,
        k1_3: Option<u32>,
        k1_4: Option<u32>,
        k1_5: Option<u32>,
        k1_6: Option<u32>,
        k1_7: Option<u32>,
        k1_8: Option<u32>,
    },
    /// Operation 2.
    Op2 {
        k2_0: Option<u32>,
        k2_1: Option<u32>,
        k2_2: Option<u32>,
        k2_3: Option<u32>,
        k2_4: Option<u32>,
        k2_5: Option<u32>,
        k2_6: Option<u32>,
        k2_7: Option<u32>,
        k2_8: Option<u32>,
    },
    /// Operation 3.
    Op3 {
        k3_0: Option<u32>,
        k3_1: Option<u32>,
        k3_2: Option<u32>,
        k3_3: Option<u32>,
        k3_4: Option<u32>,
        k3_5: Option<u32>,
        k3_6: Option<u32>,
        k3_7: Option<u32>,
        k3_8: Option<u32>,
    },
    /// Operation 4.
    Op4 {
        k4_0: Option<u32>,
        k4_1: Option<u32>,
        k4_2: Option<u32>,
        k4_3: Option<u32>,
        k4_4: Option<u32>,
        k4_5: Option<u32>,
        k4_6: Option<u32>,
        k4_7: Option<u32>,
        k4_8: Option<u32>,
    },
    /// Operation 5.
    Op5 {
        k5_0: Option<u32>,
        k5_1: Option<u32>,
        k5_2: Option<u32>,
        k5_3: Option<u32>,
        k5_4: Option<u32>,
        k5_5: Option<u32>,
        k5_6: Option<u32>,
        k5_7: Option<u32>,
        k5_8: Option<u32>,
    },
    /// Operation 6.
    Op6 {
        k6_0: Option<u32>,
        k6_1: Option<u32>,
        k6_2: Option<u32>,
        k6_3: Option<u32>,
        k6_4: Option<u32>,
        k6_5: Option<u32>,
        k6_6: Option<u32>,
        k6_7: Option<u32>,
        k6_8: Option<u32>,
    },
    /// Operation 7.
    Op7 {
        k7_0: Option<u32>,
        k7_1: Option<u32>,
        k7_2: Option<u32>,
        k7_3: Option<u32>,
        k7_4: Option<u32>,
        k7_5: Option<u32>,
        k7_6: Option<u32>,
        k7_7: Option<u32>,
        k7_8: Option<u32>,
    },
    /// Operation 8.
    Op8 {
        k8_0: Option<u32>,
        k8_1: Option<u32>,
        k8_2: Option<u32>,
        k8_3: Option<u32>,
        k8_4: Option<u32>,
        k8_5: Option<u32>,
        k8_6: Option<u32>,
        k8_7: Option<u32>,
        k8_8: Option<u32>,
    },
    /// Operation 9.
    Op9 {
        k9_0: Option<u32>,
        k9_1: Option<u32>,
        k9_2: Option<u32>,
        k9_3: Option<u32>,
        k9_4: Option<u32>,
        k9_5: Option<u32>,
        k9_6: Option<u32>,
        k9_7: Option<u32>,
        k9_8: Option<u32>,
    },
}

fn tools(shown: Dialect) -> Tools<stitch::mcp::Toolbox> {
    Tools::new()
        .dialects(ClientDialects::new(Dialect::Mcp).client("claude-strict", shown))
        .tool(|ported: Ported| async move { Ok::<_, String>(format!("{ported:?}")) })
}

#[test]
fn a_listing_a_shown_provider_refuses_is_not_built() {
    let findings = tools(Dialect::AnthropicStrict)
        .toolbox("ported", "0.0.0")
        .err()
        .expect("over Anthropic's budget, refused");
    let said: Vec<String> = findings.iter().map(ToString::to_string).collect();
    let over = said
        .iter()
        .find(|text| text.contains("optional parameters"))
        .unwrap_or_else(|| panic!("{said:#?}"));
    println!("{over}");
    for named in ["\"ported\"", "anthropic-strict", "24", "90"] {
        assert!(over.contains(named), "{named} in {over}");
    }
    assert!(
        findings
            .iter()
            .all(|finding| finding.kind() == stitch::guard::FindingKind::OverBudget),
        "{said:#?}"
    );
}

#[test]
fn allowed_explicitly_it_is_built() {
    let built = tools(Dialect::AnthropicStrict)
        .allow_over_budget()
        .toolbox("ported", "0.0.0");
    assert!(built.is_ok());
}

#[test]
fn a_dialect_within_its_budgets_is_built() {
    assert!(tools(Dialect::Portable).toolbox("ported", "0.0.0").is_ok());
    assert!(
        tools(Dialect::OpenAiStrict)
            .toolbox("ported", "0.0.0")
            .is_ok()
    );
}

mod exchange;

/// A wrapped server's plain tools, which the build cannot see: a crossing is met when the
/// server is listed, and said in the listing's result as it is logged.
mod at_run_time {
    use std::sync::Arc;

    use serde_json::{Value, json};
    use stitch::Dialect;
    use stitch::mcp::rmcp::ServerHandler;
    use stitch::mcp::rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
    use stitch::mcp::rmcp::handler::server::tool::ToolCallContext;
    use stitch::mcp::rmcp::model::{CallToolResult, ServerCapabilities, ServerConfig};
    use stitch::mcp::{ClientDialects, InDialects, OVER_BUDGET_META_KEY, Tools};

    #[derive(Clone)]
    struct Server {
        tool_router: ToolRouter<Self>,
    }

    #[rmcp::tool_handler(router = self.tool_router)]
    impl ServerHandler for Server {
        fn get_info(&self) -> ServerConfig {
            ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
        }
    }

    fn plain(name: String) -> ToolRoute<Server> {
        let Value::Object(schema) =
            json!({"type": "object", "properties": {"n": {"type": "integer"}}})
        else {
            panic!("an object")
        };
        let tool = stitch::mcp::rmcp::model::Tool::new(name, "Count.", Arc::new(schema));
        ToolRoute::new_dyn(tool, |_: ToolCallContext<'_, Server>| {
            Box::pin(async { Ok(CallToolResult::success(Vec::new()).into()) })
        })
    }

    #[tokio::test]
    async fn a_listing_past_a_budget_says_so_in_its_result() {
        let rules =
            ClientDialects::new(Dialect::Mcp).client("claude-strict", Dialect::AnthropicStrict);
        let listings = Tools::<Server>::new()
            .dialects(rules)
            .build()
            .unwrap()
            .listings();
        let tool_router = (0..21).fold(ToolRouter::new(), |router, i| {
            router.with_route(plain(format!("t{i}")))
        });
        let server = InDialects::new(Server { tool_router }, listings);
        let request = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
        let strict =
            crate::exchange::exchange_as(server.clone(), "claude-strict", vec![request.clone()])
                .await;
        let said = strict[0]["result"]["_meta"][OVER_BUDGET_META_KEY].to_string();
        assert!(
            said.contains("21") && said.contains("20") && said.contains("anthropic-strict"),
            "{}",
            strict[0]
        );
        let plain = crate::exchange::exchange_as(server, "inspector", vec![request]).await;
        assert!(
            plain[0]["result"]["_meta"]
                .get(OVER_BUDGET_META_KEY)
                .is_none(),
            "{}",
            plain[0]
        );
    }
}

every_contract_here!(Ported);
