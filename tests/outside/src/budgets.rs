//! Budgets, sizes and the catalog from a user's crate: a contract checked in the dialects it
//! is served in at compile time, its measures read in a constant, and the stamp a client sees.

use serde_json::Value;
use stitch::mcp::{ClientDialects, Tools};
use stitch::{Contract, Dialect, guard::Limit};

use crate::{check, everyday, talk};

/// Look up an order. This crate does not build unless every dialect here says it whole and
/// within its provider's budgets.
#[allow(dead_code, reason = "its lines are deserialized, never read")]
#[derive(stitch::Contract, serde::Deserialize, Debug)]
#[contract(
    name = "order",
    check_dialects("mcp", "portable", "openai-strict", "anthropic-strict")
)]
pub struct Order {
    pub id: uuid::Uuid,
    pub lines: Option<Vec<String>>,
}

/// The strict schema's size, known to the compiler.
const STRICT: stitch::measure::Measure = Order::MEASURES[Dialect::OpenAiStrict as usize];
const STRICT_BYTES: usize = STRICT.bytes;

pub async fn budgets_sizes_and_the_catalog() {
    check(
        "a contract's measures are constants, and are the measures of the text served",
        STRICT_BYTES == Order::input_schema_for(Dialect::OpenAiStrict).len()
            && STRICT
                == stitch::measure::Measure::of(Order::input_schema_for(Dialect::OpenAiStrict))
            && STRICT.tokens > 0,
    );
    let deep = (0..11).fold(r#"{"type":"string"}"#.to_owned(), |inner, _| {
        format!(r#"{{"type":"object","properties":{{"x":{inner}}},"required":["x"]}}"#)
    });
    let findings = stitch::guard::over_budget(Dialect::OpenAiStrict, [("deep", "", deep.as_str())]);
    check(
        "a schema past OpenAI's nesting is over budget for openai-strict, not for mcp",
        findings.len() == 1
            && findings[0].limit() == Some(Limit::Nesting)
            && stitch::guard::over_budget(Dialect::Mcp, [("deep", "", deep.as_str())]).is_empty(),
    );

    let toolbox = || {
        Tools::new()
            .dialects(
                ClientDialects::new(Dialect::Mcp).client("strict-agent", Dialect::OpenAiStrict),
            )
            .tool(|order: Order| async move { Ok::<_, String>(format!("{order:?}")) })
            .tool(|call: everyday::Ledger| async move { Ok::<_, String>(format!("{call:?}")) })
            .toolbox("outside", "0.0.0")
            .expect("the guard passes")
    };
    let manifest = toolbox().manifest();
    check(
        "the manifest lists every tool in every dialect, the same twice",
        manifest == toolbox().manifest()
            && Dialect::ALL.iter().all(|dialect| {
                manifest.contains(&format!("\n{dialect} catalog "))
                    && manifest.contains(&format!("\n{dialect} order "))
            }),
    );
    let call = (
        "order",
        serde_json::json!({"id": "67e55044-10b1-426f-9247-bb680e5fe0c8"}),
    );
    for client in ["raw", "strict-agent"] {
        let lines = talk(toolbox(), client, std::slice::from_ref(&call)).await;
        let answer = |id: &str| -> Value {
            let line = lines
                .iter()
                .find(|line| line.contains(id))
                .cloned()
                .unwrap_or_default();
            serde_json::from_str(&line).unwrap_or_default()
        };
        let listed = answer("\"id\":2,");
        let tools = listed["result"]["tools"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let stamp = tools
            .first()
            .map(|tool| tool["_meta"]["stitch/catalog"].clone());
        let result = answer("\"id\":3,");
        check(
            &format!("{client}: every listed tool and the result carry one catalog stamp"),
            tools.len() == 2
                && stamp.as_ref().is_some_and(Value::is_string)
                && tools
                    .iter()
                    .all(|tool| Some(&tool["_meta"]["stitch/catalog"]) == stamp.as_ref())
                && Some(&result["result"]["_meta"]["stitch/catalog"]) == stamp.as_ref(),
        );
        let dialect = if client == "raw" {
            Dialect::Mcp
        } else {
            Dialect::OpenAiStrict
        };
        let stamp = stamp
            .and_then(|stamp| stamp.as_str().map(str::to_owned))
            .unwrap_or_default();
        check(
            &format!("{client}: the stamp is the manifest's for {dialect}"),
            manifest.contains(&format!("\n{dialect} catalog {stamp}\n")),
        );
    }
}
