//! Checks, from a user's crate, what the workspace's own tests cannot see. Exits non-zero on
//! the first failure.

mod big_docs {
    include!(concat!(env!("OUT_DIR"), "/big_docs.rs"));
}
#[path = "../../../examples/contracts/broadcast_patch.rs"]
mod broadcast_patch;
#[path = "../../deep/mod.rs"]
mod deep;

use rmcp::ServiceExt;
use serde_json::{Value, json};
use stitch::mcp::{ClientDialects, Toolbox};
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
    let toolbox = Toolbox::builder("outside", "0.0.0")
        .dialects(dialects)
        .tool(|_: broadcast_patch::BroadcastPatch| async { Ok::<_, String>(0) })
        .build()
        .expect("the guard passes");
    let (client, server) = tokio::io::duplex(1 << 20);
    let running = tokio::spawn(async move {
        if let Ok(service) = toolbox.serve(server).await {
            let _ = service.waiting().await;
        }
    });
    let (read, mut write) = tokio::io::split(client);
    let mut lines = BufReader::new(read).lines();
    let requests = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": client_name, "version": "0"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
    ];
    for request in requests {
        write
            .write_all(format!("{request}\n").as_bytes())
            .await
            .unwrap();
    }
    let mut listed = String::new();
    while let Ok(Some(line)) = lines.next_line().await {
        if line.contains("\"id\":2") {
            listed = line;
            break;
        }
    }
    let rendered = broadcast_patch::BroadcastPatch::input_schema_for(dialect);
    check(
        &format!("the {dialect} schema reaches the wire as rendered, its keys in order"),
        listed.contains(&format!("\"inputSchema\":{rendered}")),
    );
    drop(write);
    running.abort();
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
    deep_values();
}
