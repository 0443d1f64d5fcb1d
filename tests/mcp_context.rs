//! A stitch tool is a whole rmcp tool: its handler takes rmcp's request context (progress,
//! logging, sampling, elicitation, cancellation), answers with any content, and a panic is an
//! answer; each request is shown and parsed in the dialect of the client its `_meta` names.
//! Driven over rmcp's stdio transport by a client written here as JSON lines, so what is
//! checked is what a client reads on the wire.
#![cfg(feature = "rmcp")]
#![allow(deprecated)] // sampling and logging: deprecated by the protocol's next version, still served

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Deserialize;
use serde_json::{Value, json};
use stitch::mcp::rmcp::model::{
    CallToolResult, ContentBlock, CreateMessageRequestParams, ElicitRequestParams, LoggingLevel,
    LoggingMessageNotificationParam, ProgressNotificationParam, ResourceContents,
};
use stitch::mcp::rmcp::service::RequestContext;
use stitch::mcp::rmcp::{RoleServer, ServiceExt};
use stitch::mcp::{ClientDialects, Toolbox, Tools};
use stitch::{Contract, Dialect};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf};

/// A client session over an in-memory pipe: requests written as JSON lines, and everything
/// the server sends until each answer.
struct Session {
    write: tokio::io::WriteHalf<DuplexStream>,
    lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
    next_id: u64,
    /// What the client answers a server's request (sampling, elicitation) with, by method.
    answers: fn(&str, &Value) -> Value,
}

/// What the server sent while one request was answered.
struct Exchange {
    notifications: Vec<Value>,
    requests: Vec<Value>,
    answer: Value,
}

impl Session {
    /// Serves `server` to a client named `client`, initialized with every client capability.
    async fn open<S: stitch::mcp::rmcp::ServerHandler>(
        server: S,
        client: &str,
        answers: fn(&str, &Value) -> Value,
    ) -> Session {
        let (client_end, transport) = tokio::io::duplex(1 << 20);
        tokio::spawn(async move {
            if let Ok(service) = server.serve(transport).await {
                let _ = service.waiting().await;
            }
        });
        let (read, write) = tokio::io::split(client_end);
        let mut session = Session {
            write,
            lines: BufReader::new(read).lines(),
            next_id: 0,
            answers,
        };
        let capabilities = json!({"sampling": {}, "elicitation": {"form": {}}});
        session
            .request(
                "initialize",
                json!({"protocolVersion": "2025-11-25", "capabilities": capabilities,
                       "clientInfo": {"name": client, "version": "0"}}),
            )
            .await;
        session
            .send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        session
    }

    async fn send(&mut self, message: Value) {
        let line = format!("{message}\n");
        self.write.write_all(line.as_bytes()).await.unwrap();
    }

    /// Sends one request; answers the server's requests meanwhile; returns what came.
    async fn request(&mut self, method: &str, params: Value) -> Exchange {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        self.until_answer(id).await
    }

    async fn until_answer(&mut self, id: u64) -> Exchange {
        let mut exchange = Exchange {
            notifications: Vec::new(),
            requests: Vec::new(),
            answer: Value::Null,
        };
        loop {
            let line = tokio::time::timeout(Duration::from_secs(10), self.lines.next_line())
                .await
                .expect("the server answers within 10 s")
                .unwrap()
                .expect("the server keeps the pipe open");
            let message: Value = serde_json::from_str(&line).unwrap();
            match (message.get("method"), message.get("id")) {
                (Some(method), Some(request_id)) => {
                    let result = (self.answers)(method.as_str().unwrap(), &message["params"]);
                    let reply = json!({"jsonrpc": "2.0", "id": request_id, "result": result});
                    exchange.requests.push(message);
                    self.send(reply).await;
                }
                (Some(_), None) => exchange.notifications.push(message),
                (None, _) if message["id"] == id => {
                    exchange.answer = message;
                    return exchange;
                }
                (None, _) => panic!("an answer to no request: {message}"),
            }
        }
    }

    async fn call(&mut self, tool: &str, arguments: Value) -> Exchange {
        self.request("tools/call", json!({"name": tool, "arguments": arguments}))
            .await
    }
}

/// The client's answers to sampling and elicitation.
fn client_answers(method: &str, params: &Value) -> Value {
    match method {
        "sampling/createMessage" => json!({
            "role": "assistant", "model": "test-model",
            "content": {"type": "text",
                        "text": format!("sampled: {}", params["messages"][0]["content"]["text"])}
        }),
        "elicitation/create" => json!({"action": "accept", "content": {"username": "ada"}}),
        other => panic!("the client was asked {other}"),
    }
}

/// Ask the user something, reporting as it goes.
#[derive(Contract, Deserialize)]
struct Ask {
    #[contract(min_length = 1)]
    question: String,
}

/// A handler that uses all of rmcp's context: progress, logging, sampling, elicitation.
async fn ask(ask: Ask, context: RequestContext<RoleServer>) -> Result<String, String> {
    let peer = &context.peer;
    let token = context.meta.get_progress_token();
    if let Some(token) = token.clone() {
        let progress = ProgressNotificationParam::new(token, 0.0).with_total(2.0);
        peer.notify_progress(progress)
            .await
            .map_err(|e| e.to_string())?;
    }
    let log = LoggingMessageNotificationParam::new(LoggingLevel::Info, json!("asking"));
    peer.notify_logging_message(log)
        .await
        .map_err(|e| e.to_string())?;
    let sampling: CreateMessageRequestParams = serde_json::from_value(json!({
        "messages": [{"role": "user", "content": {"type": "text", "text": ask.question}}],
        "maxTokens": 50
    }))
    .unwrap();
    let sampled = peer
        .create_message(sampling)
        .await
        .map_err(|e| e.to_string())?;
    let elicitation: ElicitRequestParams = serde_json::from_value(json!({
        "mode": "form", "message": "Who are you?",
        "requestedSchema": {"type": "object",
                            "properties": {"username": {"type": "string"}},
                            "required": ["username"]}
    }))
    .unwrap();
    let elicited = peer
        .create_elicitation(elicitation)
        .await
        .map_err(|e| e.to_string())?;
    if let Some(token) = token {
        let progress = ProgressNotificationParam::new(token, 2.0).with_total(2.0);
        peer.notify_progress(progress)
            .await
            .map_err(|e| e.to_string())?;
    }
    let sampled = serde_json::to_value(sampled).unwrap();
    let elicited = serde_json::to_value(elicited).unwrap();
    Ok(format!(
        "{} / {}",
        sampled["content"]["text"].as_str().unwrap_or_default(),
        elicited["content"]["username"].as_str().unwrap_or_default()
    ))
}

/// Show a media item.
#[allow(dead_code, reason = "its fields are deserialized, never read")]
#[derive(Contract, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
enum Show {
    /// Text, captioned.
    Caption {
        text: String,
    },
    Image,
    Audio {
        volume: Option<u8>,
    },
    Resource,
    /// Every kind at once.
    Mixed,
    Fail,
}

/// A 1×1 PNG, base64.
const PIXEL: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

async fn show(show: Show) -> Result<CallToolResult, String> {
    let resource =
        || ContentBlock::resource(ResourceContents::text("Embedded text.", "test://embedded"));
    Ok(CallToolResult::success(match show {
        Show::Caption { text } => vec![ContentBlock::text(text)],
        Show::Image => vec![ContentBlock::image(PIXEL, "image/png")],
        Show::Audio { .. } => vec![ContentBlock::audio("UklGRg==", "audio/wav")],
        Show::Resource => vec![resource()],
        Show::Mixed => vec![
            ContentBlock::text("Every kind:"),
            ContentBlock::image(PIXEL, "image/png"),
            resource(),
        ],
        Show::Fail => return Err("no such media".to_owned()),
    }))
}

/// Crash on purpose.
#[derive(Contract, Deserialize)]
struct Crash {
    panic: bool,
}

fn refuse_loudly(word: &str) -> Result<(), &'static str> {
    assert_ne!(word, "boom", "a refine check that panics");
    Ok(())
}

/// A contract whose own check panics.
#[derive(Contract, Deserialize)]
struct Checked {
    #[contract(refine = refuse_loudly)]
    word: String,
}

fn toolbox(log: Arc<Mutex<Vec<String>>>) -> Toolbox {
    Tools::new()
        .tool(ask)
        .tool(show)
        .tool(|crash: Crash| async move {
            if crash.panic {
                let empty: Vec<u8> = Vec::new();
                #[allow(clippy::indexing_slicing)]
                let _ = empty[usize::from(crash.panic)];
            }
            Ok::<_, String>("still here")
        })
        .tool(|checked: Checked| async move { Ok::<_, String>(checked.word) })
        .observe(common::record_into(log))
        .dialects(ClientDialects::new(Dialect::Mcp).client("strict-agent", Dialect::OpenAiStrict))
        .toolbox("whole", "0.0.0")
        .unwrap()
}

#[tokio::test]
async fn a_handler_reports_progress_logs_and_asks_the_client_for_sampling_and_elicitation() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut client = Session::open(toolbox(log.clone()), "tester", client_answers).await;
    let exchange = client
        .request(
            "tools/call",
            json!({"name": "ask", "arguments": {"question": "Why?"},
                   "_meta": {"progressToken": "p1"}}),
        )
        .await;
    let result = &exchange.answer["result"];
    assert_eq!(result["isError"], false, "{result}");
    assert_eq!(
        result["content"][0]["text"], "sampled: \"Why?\" / ada",
        "a String is answered as text"
    );
    let methods: Vec<&str> = exchange
        .notifications
        .iter()
        .map(|n| n["method"].as_str().unwrap())
        .collect();
    assert_eq!(
        methods,
        [
            "notifications/progress",
            "notifications/message",
            "notifications/progress"
        ]
    );
    assert_eq!(exchange.notifications[0]["params"]["progressToken"], "p1");
    assert_eq!(exchange.notifications[2]["params"]["progress"], 2.0);
    assert_eq!(exchange.notifications[1]["params"]["data"], "asking");
    let asked: Vec<&str> = exchange
        .requests
        .iter()
        .map(|r| r["method"].as_str().unwrap())
        .collect();
    assert_eq!(asked, ["sampling/createMessage", "elicitation/create"]);
    // The contract still holds before the handler runs: it never asked anything.
    let rejected = client.call("ask", json!({"question": ""})).await;
    assert_eq!(rejected.answer["result"]["isError"], true);
    assert!(rejected.requests.is_empty() && rejected.notifications.is_empty());
    assert_eq!(
        log.lock().unwrap().as_slice(),
        ["ask accepted", "ask rejected /question"]
    );
}

#[tokio::test]
async fn a_handler_answers_with_content_of_every_kind() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut client = Session::open(toolbox(log.clone()), "tester", client_answers).await;
    let content = |exchange: &Exchange| exchange.answer["result"]["content"].clone();
    let image = client.call("show", json!({"kind": "image"})).await;
    assert_eq!(
        content(&image),
        json!([{"type": "image", "data": PIXEL, "mimeType": "image/png"}])
    );
    let audio = client.call("show", json!({"kind": "audio"})).await;
    assert_eq!(content(&audio)[0]["type"], "audio");
    assert_eq!(content(&audio)[0]["mimeType"], "audio/wav");
    let resource = client.call("show", json!({"kind": "resource"})).await;
    assert_eq!(
        content(&resource)[0]["resource"],
        json!({"uri": "test://embedded", "mimeType": "text/plain", "text": "Embedded text."})
    );
    let mixed = client.call("show", json!({"kind": "mixed"})).await;
    let kinds: Vec<&str> = mixed.answer["result"]["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|block| block["type"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["text", "image", "resource"]);
    assert!(
        mixed.answer["result"]
            .get("isError")
            .is_none_or(|e| e == false)
    );
    let failed = client.call("show", json!({"kind": "fail"})).await;
    assert_eq!(failed.answer["result"]["isError"], true);
    assert_eq!(content(&failed)[0]["text"], "no such media");
    // A rejection of a content tool is structured, as every stitch tool's is.
    let rejected = client.call("show", json!({"kind": "video"})).await;
    assert_eq!(rejected.answer["result"]["isError"], true);
    assert_eq!(
        rejected.answer["result"]["structuredContent"]["issues"][0]["pointer"],
        "/kind"
    );
    assert_eq!(
        log.lock().unwrap().as_slice(),
        [
            "show accepted",
            "show accepted",
            "show accepted",
            "show accepted",
            "show failed no such media",
            "show rejected /kind"
        ]
    );
}

#[tokio::test]
async fn a_panic_is_an_answer_and_every_client_is_still_served() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let server = toolbox(log.clone());
    let mut first = Session::open(server.clone(), "first", client_answers).await;
    let mut second = Session::open(server, "second", client_answers).await;
    let crashed = first.call("crash", json!({"panic": true})).await;
    let result = &crashed.answer["result"];
    assert_eq!(result["isError"], true, "{result}");
    let text = result["content"][0]["text"].as_str().unwrap();
    assert_eq!(
        text,
        "The tool failed unexpectedly; whether the call took effect is unknown."
    );
    assert!(
        !text.contains("index out of bounds"),
        "no internals reach the client"
    );
    for session in [&mut second, &mut first] {
        let fine = session.call("crash", json!({"panic": false})).await;
        assert_eq!(fine.answer["result"]["content"][0]["text"], "still here");
    }
    // A contract's own `refine` check panicking while the call is parsed: the same answer.
    let checked = second.call("checked", json!({"word": "boom"})).await;
    assert_eq!(checked.answer["result"]["isError"], true);
    let fine = second.call("checked", json!({"word": "calm"})).await;
    assert_eq!(fine.answer["result"]["content"][0]["text"], "calm");
    let log = log.lock().unwrap();
    assert!(
        log[0].starts_with("crash failed panicked: index out of bounds"),
        "{log:?}"
    );
    assert_eq!(log[1..3], ["crash accepted", "crash accepted"]);
    assert!(
        log[3].starts_with("checked failed panicked: ") && log[3].contains("a refine check"),
        "{log:?}"
    );
    assert_eq!(log[4], "checked accepted");
}

#[tokio::test]
async fn a_cancelled_call_cancels_the_token_its_handler_holds() {
    let (cancelled, mut heard) = tokio::sync::mpsc::unbounded_channel();
    let server = Tools::new()
        .tool(move |_: Crash, context: RequestContext<RoleServer>| {
            let cancelled = cancelled.clone();
            async move {
                context.ct.cancelled().await;
                let _ = cancelled.send(());
                Ok::<_, String>("cancelled")
            }
        })
        .toolbox("cancel", "0.0.0")
        .unwrap();
    let mut client = Session::open(server, "tester", client_answers).await;
    client
        .send(json!({"jsonrpc": "2.0", "id": 77, "method": "tools/call",
                     "params": {"name": "crash", "arguments": {"panic": false}}}))
        .await;
    client
        .send(
            json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                     "params": {"requestId": 77, "reason": "the user gave up"}}),
        )
        .await;
    let heard = tokio::time::timeout(Duration::from_secs(10), heard.recv()).await;
    assert_eq!(heard, Ok(Some(())), "the handler's token was cancelled");
}

/// Each request is shown and parsed in the dialect of the client its `_meta` names (protocol
/// 2026-07-28), else the one its session's `initialize` named.
#[tokio::test]
async fn each_request_is_shown_the_dialect_of_the_client_its_meta_names() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut client = Session::open(toolbox(log), "inspector", client_answers).await;
    let strict_meta = json!({"io.modelcontextprotocol/clientInfo":
                             {"name": "strict-agent", "version": "1"}});
    let listed = |exchange: &Exchange| {
        exchange.answer["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|tool| tool["name"] == "ask")
            .unwrap()["inputSchema"]
            .clone()
    };
    let plain = client.request("tools/list", json!({})).await;
    let strict = client
        .request("tools/list", json!({"_meta": strict_meta}))
        .await;
    assert_eq!(
        listed(&plain),
        serde_json::from_str::<Value>(Ask::INPUT_SCHEMA).unwrap()
    );
    assert_eq!(
        listed(&strict),
        serde_json::from_str::<Value>(Ask::input_schema_for(Dialect::OpenAiStrict)).unwrap()
    );
    // A call whose `_meta` names the strict client is parsed as that client sends it: every
    // key of every operation present, `null` where its operation has none.
    let filled = json!({"kind": "caption", "text": "hi", "volume": null});
    let strict_call = client
        .request(
            "tools/call",
            json!({"name": "show", "arguments": filled, "_meta": strict_meta}),
        )
        .await;
    assert_eq!(strict_call.answer["result"]["content"][0]["text"], "hi");
    let plain_call = client.call("show", filled).await;
    assert_eq!(plain_call.answer["result"]["isError"], true);
    assert_eq!(
        plain_call.answer["result"]["structuredContent"]["issues"][0]["code"],
        "unknown_key"
    );
}

#[path = "mcp_context/methods.rs"]
mod methods;

#[path = "mcp_context/protocol_2026_07_28.rs"]
mod protocol_2026_07_28;

every_contract_here!(Ask, Show, Crash, Checked);
