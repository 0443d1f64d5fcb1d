//! Checks, from a user's crate, what the workspace's own tests cannot see. Exits non-zero on
//! the first failure.

mod big_docs {
    include!(concat!(env!("OUT_DIR"), "/big_docs.rs"));
}
#[path = "../../../examples/contracts/broadcast_patch.rs"]
mod broadcast_patch;
mod budgets;
#[path = "../../deep/mod.rs"]
mod deep;
mod everyday;
mod foreign;
mod port;
#[path = "../../raw_http/mod.rs"]
mod raw_http;
mod serving;
mod whole_tool;

use rmcp::ServiceExt;
use serde_json::{Value, json};
use stitch::mcp::{ClientDialects, Tools};
use stitch::{Contract, Dialect};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

fn check(what: &str, holds: bool) {
    if !holds {
        eprintln!("FAIL {what}");
        std::process::exit(1);
    }
    println!("ok   {what}");
}

fn tag_description(schema: &str) -> String {
    let schema: Value = serde_json::from_str(schema).expect("stitch renders JSON");
    schema["properties"]["op"]["description"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

fn big_docs() {
    let many = tag_description(big_docs::ManyDocumented::INPUT_SCHEMA);
    check(
        "200 documented operations are each named by their first line",
        many.contains("Op0 \u{2014} Operation 0 changes part 0 of the record; Op1")
            && !many.contains("Paragraph")
            && many.len() < 20_000,
    );
    let long = tag_description(big_docs::LongDoc::INPUT_SCHEMA);
    check(
        "a 500 KB single-paragraph doc compiles and names its operation",
        long.len() > 500_000 && long.ends_with("; Other \u{2014} Short."),
    );
}

/// The schema as the wire carries it, read as text from the `tools/list` response to a client
/// named `client_name` (shown `dialect`): in this crate serde_json has only the features stitch
/// asks for, not the workspace's.
async fn schema_on_the_wire(client_name: &str, dialect: Dialect) {
    let dialects = ClientDialects::new(Dialect::Mcp).client("strict-agent", Dialect::OpenAiStrict);
    let toolbox = Tools::new()
        .dialects(dialects)
        .tool(|_: broadcast_patch::BroadcastPatch| async { Ok::<_, String>("0") })
        .toolbox("outside", "0.0.0")
        .expect("the guard passes");
    let lines = talk(toolbox, client_name, &[]).await;
    let listed = lines
        .iter()
        .find(|line| line.contains("\"id\":2"))
        .cloned()
        .unwrap_or_default();
    let rendered = broadcast_patch::BroadcastPatch::input_schema_for(dialect);
    check(
        &format!("the {dialect} schema reaches the wire as rendered, its keys in order"),
        listed.contains(&format!("\"inputSchema\":{rendered}")),
    );
}

/// Sends `requests` to a toolbox serving the everyday contracts, as a client named
/// `client_name`, and returns the responses' lines.
async fn exchange(client_name: &str, calls: &[(&str, Value)]) -> Vec<String> {
    // A client named after each dialect is shown it.
    let dialects = Dialect::ALL
        .iter()
        .fold(ClientDialects::new(Dialect::Mcp), |dialects, &dialect| {
            dialects.client(dialect.name(), dialect)
        });
    let toolbox = Tools::new()
        .dialects(dialects)
        .tool(|call: everyday::Payments| async move { Ok::<_, String>(format!("{call:?}")) })
        .tool(|call: everyday::Ledger| async move { Ok::<_, String>(format!("{call:?}")) })
        .toolbox("outside", "0.0.0")
        .expect("the guard passes");
    talk(toolbox, client_name, calls).await
}

/// Serves `toolbox` to a client named `client_name` that lists the tools and makes `calls`,
/// and returns every line the server sent (notifications included) until each is answered.
async fn talk<S: rmcp::ServerHandler>(
    toolbox: S,
    client_name: &str,
    calls: &[(&str, Value)],
) -> Vec<String> {
    let (client, server) = tokio::io::duplex(1 << 20);
    let running = tokio::spawn(async move {
        if let Ok(service) = toolbox.serve(server).await {
            let _ = service.waiting().await;
        }
    });
    let (read, mut write) = tokio::io::split(client);
    let mut lines = BufReader::new(read).lines();
    let mut requests = vec![
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": client_name, "version": "0"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
    ];
    for (i, (tool, arguments)) in calls.iter().enumerate() {
        requests.push(
            json!({"jsonrpc": "2.0", "id": 3 + i, "method": "tools/call",
            "params": {"name": tool, "arguments": arguments}}),
        );
    }
    // Calls are answered as they finish, not in order: read until every one is.
    let mut awaited: Vec<String> = (2..=2 + calls.len())
        .map(|id| format!("\"id\":{id},"))
        .collect();
    for request in requests {
        write
            .write_all(format!("{request}\n").as_bytes())
            .await
            .unwrap();
    }
    let mut responses = Vec::new();
    while let Ok(Some(line)) = lines.next_line().await {
        awaited.retain(|id| !line.contains(id.as_str()));
        responses.push(line);
        if awaited.is_empty() {
            break;
        }
    }
    drop(write);
    running.abort();
    responses
}

/// The everyday contracts in every dialect: listed as rendered, called as a client of the
/// dialect calls them, handled as typed values.
async fn everyday_types_in_every_dialect() {
    use everyday::{Ledger, Payments};
    let (payment, credit) = everyday::expected();
    for &dialect in Dialect::ALL {
        let client = dialect.name();
        let strict = dialect.rules().omitted == stitch::dialect::Omitted::SentAsNull;
        let calls = [
            ("payments", everyday::schedule_call(strict)),
            ("ledger", everyday::credit_call(strict)),
        ];
        let responses = exchange(client, &calls).await;
        let listed = responses.iter().find(|line| line.contains("\"id\":2,"));
        let listed = listed.map(String::as_str).unwrap_or_default();
        for (name, rendered) in [
            ("payments", Payments::input_schema_for(dialect)),
            ("ledger", Ledger::input_schema_for(dialect)),
        ] {
            check(
                &format!(
                    "{dialect}: `{name}` (uuid, date-time, url, decimal, flatten, adjacent, external) is listed as rendered"
                ),
                listed.contains(&format!("\"inputSchema\":{rendered}")),
            );
            // A flat input holds no composition at any depth: `anyOf` only where the dialect's
            // row says several kinds as branches (Anthropic's SDK refuses `type` arrays).
            let branches = dialect.rules().kinds == stitch::dialect::SeveralKinds::Branches;
            let composed = ["\"oneOf\"", "\"anyOf\"", "\"allOf\""]
                .iter()
                .filter(|keyword| !(branches && **keyword == "\"anyOf\""))
                .filter(|keyword| rendered.contains(**keyword))
                .count();
            check(
                &format!(
                    "{dialect}: `{name}` holds no oneOf or allOf, nor anyOf but as its row says"
                ),
                composed == 0,
            );
        }
        let answered = |id: usize, debug: String| {
            responses.iter().any(|line| {
                line.contains(&format!("\"id\":{id},"))
                    && !line.contains("\"isError\":true")
                    && line.contains(
                        &serde_json::to_string(&debug)
                            .unwrap()
                            .trim_matches('"')
                            .to_owned(),
                    )
            })
        };
        check(
            &format!("{dialect}: a scheduled payment reaches its handler typed"),
            answered(3, format!("{payment:?}")),
        );
        check(
            &format!("{dialect}: an externally tagged credit reaches its handler typed"),
            answered(4, format!("{credit:?}")),
        );
    }
}

/// A decimal price is a string of its digits or a number: `"9.99"` and `9.99` both reach
/// the handler as the same `Decimal`, and the advertised schema says both in one `type` array.
fn decimal_price_either_way() {
    use everyday::Ledger;
    let schema: Value = serde_json::from_str(Ledger::INPUT_SCHEMA).expect("JSON");
    let amount = &schema["properties"]["credit"]["properties"]["amount"];
    check(
        "mcp: a Decimal is {\"type\": [\"string\", \"number\"], \"pattern\": ...}",
        amount["type"] == json!(["string", "number"]) && amount["pattern"].is_string(),
    );
    let read = |amount: Value| {
        Ledger::parse(json!({"credit": {"account": everyday::ID, "amount": amount}}))
    };
    let expected = || Ledger::Credit {
        account: everyday::ID.parse().expect("a uuid"),
        amount: "9.99".parse().expect("a decimal"),
    };
    check(
        "mcp: a Decimal price is read from \"9.99\" and from 9.99 alike",
        read(json!("9.99")).ok() == Some(expected()) && read(json!(9.99)).ok() == Some(expected()),
    );
}

fn deep_values() {
    let wrong = deep::every_position(100_000);
    for position in &wrong {
        eprintln!("     {position}");
    }
    check(
        "parse returns on values 100,000 levels deep, on a 2 MiB stack",
        wrong.is_empty(),
    );
}

#[tokio::main]
async fn main() {
    big_docs();
    schema_on_the_wire("raw", Dialect::Mcp).await;
    schema_on_the_wire("strict-agent", Dialect::OpenAiStrict).await;
    everyday_types_in_every_dialect().await;
    whole_tool::context_content_and_panics().await;
    foreign::foreign_schemas_in_every_dialect().await;
    budgets::budgets_sizes_and_the_catalog().await;
    port::a_ported_server().await;
    serving::the_right_schema_to_the_right_model().await;
    decimal_price_either_way();
    deep_values();
}
