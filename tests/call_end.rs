//! Calls end: a handler that never answers is dropped at its tool's deadline and when its
//! call is cancelled, whatever it holds freed then, the client told where it can still be, and
//! the observer told which. Cancellation is sent by rmcp's own client.
#![cfg(feature = "rmcp")]

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{CallToolRequest, CallToolRequestParams, CallToolResult, ClientRequest};
use rmcp::service::{Peer, PeerRequestOptions, RequestHandle, RunningService};
use rmcp::{ErrorData, RoleClient, ServiceExt};
use serde::Deserialize;
use serde_json::json;
use stitch::Contract;
use stitch::mcp::{Outcome, Toolbox, Tools};

/// Wait for what never comes.
#[derive(Contract, Deserialize)]
struct Hang {
    /// Bytes held while waiting.
    bytes: usize,
}

/// Answer at once.
#[derive(Contract, Deserialize)]
struct Quick {}

/// What a hung handler holds; counted when freed.
struct Holding {
    _bytes: Vec<u8>,
    freed: Arc<AtomicUsize>,
}

impl Drop for Holding {
    fn drop(&mut self) {
        self.freed.fetch_add(1, Ordering::SeqCst);
    }
}

/// Handlers started and freed, and the observer's record of each call's end.
#[derive(Clone, Default)]
struct Watch {
    started: Arc<AtomicUsize>,
    freed: Arc<AtomicUsize>,
    ends: Arc<Mutex<Vec<String>>>,
}

impl Watch {
    /// Waits until `count` of `what` have happened (at most 10 s).
    async fn until(&self, what: &AtomicUsize, count: usize) {
        let waited = tokio::time::timeout(Duration::from_secs(10), async {
            while what.load(Ordering::SeqCst) < count {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        })
        .await;
        assert!(waited.is_ok(), "{} of {count}", what.load(Ordering::SeqCst));
    }
}

/// `hang` and `quick`, with `deadline` for every call, and `hang_deadline` for `hang`'s.
fn toolbox(watch: &Watch, deadline: Duration, hang_deadline: Option<Duration>) -> Toolbox {
    let (started, freed, ends) = (
        Arc::clone(&watch.started),
        Arc::clone(&watch.freed),
        Arc::clone(&watch.ends),
    );
    let builder = Tools::new()
        .tool(move |hang: Hang| {
            let holding = Holding {
                _bytes: vec![1; hang.bytes],
                freed: Arc::clone(&freed),
            };
            started.fetch_add(1, Ordering::SeqCst);
            async move {
                std::future::pending::<()>().await;
                drop(holding);
                Ok::<_, String>("never".to_owned())
            }
        })
        .tool(|_: Quick| async { Ok::<_, String>("quick".to_owned()) })
        .call_deadline(deadline)
        .observe(move |call| {
            let end = match &call.outcome {
                Outcome::Cancelled => "cancelled".to_owned(),
                Outcome::TimedOut(deadline) => format!("timed out at {deadline:?}"),
                other => format!("{other:?}"),
            };
            ends.lock().unwrap().push(format!("{} {end}", call.tool));
        });
    let builder = match hang_deadline {
        Some(deadline) => builder.call_deadline_of::<Hang>(deadline),
        None => builder,
    };
    builder.toolbox("ends", "0.0.0").unwrap()
}

/// A call's result, which must come within 10 s.
async fn within_10_s(
    call: impl Future<Output = Result<CallToolResult, ErrorData>>,
) -> CallToolResult {
    tokio::time::timeout(Duration::from_secs(10), call)
        .await
        .expect("the call ends")
        .unwrap()
}

#[tokio::test]
async fn a_hung_handler_is_dropped_at_its_deadline_and_the_client_told() {
    let watch = Watch::default();
    let toolbox = toolbox(&watch, Duration::from_millis(200), None);
    let result = within_10_s(toolbox.call("hang", json!({"bytes": 1 << 20}))).await;
    assert_eq!(result.is_error, Some(true));
    let text = &result.content[0].as_text().unwrap().text;
    assert!(text.contains("did not finish within 0.2 s"), "{text}");
    assert_eq!(
        watch.freed.load(Ordering::SeqCst),
        1,
        "what it held is freed"
    );
    assert_eq!(*watch.ends.lock().unwrap(), ["hang timed out at 200ms"]);
    // A call that answers in time is answered.
    let quick = toolbox.call("quick", json!({})).await.unwrap();
    assert_eq!(quick.is_error, Some(false));
}

#[tokio::test]
async fn a_tools_own_deadline_takes_the_place_of_the_servers() {
    let watch = Watch::default();
    let toolbox = toolbox(
        &watch,
        Duration::from_secs(3600),
        Some(Duration::from_millis(50)),
    );
    let started = tokio::time::Instant::now();
    let result = within_10_s(toolbox.call("hang", json!({"bytes": 0}))).await;
    assert_eq!(result.is_error, Some(true));
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(*watch.ends.lock().unwrap(), ["hang timed out at 50ms"]);
}

/// rmcp's own client of `server`, over an in-memory pipe.
async fn connect(server: Toolbox) -> RunningService<RoleClient, ()> {
    let (client_end, server_end) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        if let Ok(service) = server.serve(server_end).await {
            let _ = service.waiting().await;
        }
    });
    ().serve(client_end).await.unwrap()
}

/// A call of `hang` holding `bytes`, sent so that it can be cancelled.
async fn hang(peer: &Peer<RoleClient>, bytes: usize) -> RequestHandle<RoleClient> {
    let arguments = json!({ "bytes": bytes }).as_object().unwrap().clone();
    let request = ClientRequest::CallToolRequest(CallToolRequest::new(
        CallToolRequestParams::new("hang").with_arguments(arguments),
    ));
    peer.send_cancellable_request(request, PeerRequestOptions::no_options())
        .await
        .unwrap()
}

#[tokio::test]
async fn cancelled_calls_drop_their_handlers_and_free_what_they_held() {
    let watch = Watch::default();
    let server = toolbox(&watch, Duration::from_secs(3600), None);
    let client = connect(server).await;
    // 100 handlers hang, each holding 1 MiB, until the client cancels their calls.
    let mut calls = Vec::new();
    for _ in 0..100 {
        calls.push(hang(client.peer(), 1 << 20).await);
    }
    watch.until(&watch.started, 100).await;
    assert_eq!(watch.freed.load(Ordering::SeqCst), 0);
    for call in calls {
        call.cancel(Some("the user gave up".to_owned()))
            .await
            .unwrap();
    }
    watch.until(&watch.freed, 100).await;
    let ends = watch.ends.lock().unwrap().clone();
    assert_eq!(ends.len(), 100);
    assert!(ends.iter().all(|end| end == "hang cancelled"), "{ends:?}");
    // The session goes on.
    let quick = client
        .call_tool(CallToolRequestParams::new("quick"))
        .await
        .unwrap();
    assert_eq!(quick.is_error, Some(false));
}

#[tokio::test]
async fn a_sessions_end_drops_its_calls() {
    let watch = Watch::default();
    let server = toolbox(&watch, Duration::from_secs(3600), None);
    let client = connect(server).await;
    let peer = client.peer().clone();
    for _ in 0..10 {
        hang(&peer, 1 << 16).await;
    }
    watch.until(&watch.started, 10).await;
    client.cancel().await.unwrap();
    watch.until(&watch.freed, 10).await;
}

every_contract_here!(Hang, Quick);
