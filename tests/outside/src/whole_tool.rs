//! A stitch tool as a whole rmcp tool, from a user's crate: a handler that takes rmcp's
//! request context and logs to the client, one that answers with an image, and one that
//! panics, which is answered while the server keeps serving.
#![allow(deprecated)] // logging: deprecated by the protocol's next version, still served

use rmcp::RoleServer;
use rmcp::model::{ContentBlock, LoggingLevel, LoggingMessageNotificationParam};
use rmcp::service::RequestContext;
use serde::Deserialize;
use serde_json::{Value, json};
use stitch::Contract;
use stitch::mcp::Tools;

use crate::{check, talk};

/// Say something to the client's log, then answer.
#[derive(Contract, Deserialize)]
pub struct Announce {
    #[contract(min_length = 1)]
    pub message: String,
}

/// Draw a pixel.
#[derive(Contract, Deserialize)]
pub struct Draw {
    #[contract(values("red", "blue"))]
    pub color: String,
}

/// Fail hard.
#[derive(Contract, Deserialize)]
pub struct Explode {
    pub now: bool,
}

const PIXEL: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

async fn announce(
    announce: Announce,
    context: RequestContext<RoleServer>,
) -> Result<String, String> {
    let log = LoggingMessageNotificationParam::new(LoggingLevel::Info, json!(announce.message));
    context
        .peer
        .notify_logging_message(log)
        .await
        .map_err(|error| error.to_string())?;
    Ok("announced".to_owned())
}

pub async fn context_content_and_panics() {
    let toolbox = Tools::new()
        .tool(announce)
        .tool(|draw: Draw| async move {
            ContentBlock::image(PIXEL, format!("image/png; color={}", draw.color))
        })
        .tool(|explode: Explode| async move {
            assert!(!explode.now, "exploded on request");
            Ok::<_, String>("calm")
        })
        .toolbox("whole", "0.0.0")
        .expect("the guard passes");
    let calls = [
        ("announce", json!({"message": "hello, log"})),
        ("draw", json!({"color": "red"})),
        ("draw", json!({"color": "green"})),
        ("explode", json!({"now": true})),
        ("explode", json!({"now": false})),
    ];
    let lines = talk(toolbox, "outside", &calls).await;
    let messages: Vec<Value> = lines
        .iter()
        .map(|line| serde_json::from_str(line).expect("the server writes JSON"))
        .collect();
    let answer = |id: u64| {
        messages
            .iter()
            .find(|message| message["id"] == id && message.get("method").is_none())
            .map(|message| message["result"].clone())
            .unwrap_or_default()
    };
    let logged = messages.iter().any(|message| {
        message["method"] == "notifications/message" && message["params"]["data"] == "hello, log"
    });
    check(
        "a handler taking rmcp's request context logs to the client",
        logged,
    );
    check(
        "and answers after it",
        answer(3)["content"][0]["text"] == "announced",
    );
    check(
        "a content handler answers with an image",
        answer(4)["content"][0]["type"] == "image" && answer(4)["content"][0]["data"] == PIXEL,
    );
    check(
        "a content tool's bad call is rejected before its handler, at its pointer",
        answer(5)["isError"] == true
            && answer(5)["structuredContent"]["issues"][0]["pointer"] == "/color",
    );
    let exploded = answer(6);
    check(
        "a panic is an isError answer naming nothing of the handler",
        exploded["isError"] == true
            && !exploded.to_string().contains("exploded on request")
            && exploded["content"][0]["text"]
                .as_str()
                .is_some_and(|text| text.contains("failed unexpectedly")),
    );
    check(
        "and the server keeps serving",
        answer(7)["content"][0]["text"] == "calm",
    );
}
