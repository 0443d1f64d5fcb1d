//! Streams of server messages (a session's `GET`) as resources: a stream keeps its session
//! neither busy nor alive (a session whose only activity is an open stream expires, and gives
//! way to a newcomer of its client), a stream nobody writes to ends, and one client holds at
//! most its share of open streams.
#![cfg(feature = "http")]

mod common;
#[allow(dead_code, reason = "each test file uses what it needs of the helpers")]
mod loopback;

use std::time::Duration;

use loopback::{open_session, open_stream, post_from, serve};
use stitch::mcp::HttpServer;
use tokio::io::AsyncReadExt;

const PING: &str = r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#;

#[tokio::test]
async fn a_session_whose_only_activity_is_an_open_stream_expires() {
    let server = serve(HttpServer::new().session_idle(Duration::from_millis(300))).await;
    let id = open_session("127.0.0.2", server).await.unwrap();
    let (_stream, status) = open_stream("127.0.0.2", server, &id).await;
    assert!(status.starts_with("HTTP/1.1 200"), "{status}");
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let answer = post_from("127.0.0.2", server, Some(&id), PING).await;
    assert!(
        answer.starts_with("HTTP/1.1 404"),
        "kept alive by its stream: {answer}"
    );
}

#[tokio::test]
async fn a_session_holding_only_a_stream_gives_way_to_its_clients_newcomer() {
    let server = serve(HttpServer::new().max_sessions_per_address(1)).await;
    let first = open_session("127.0.0.1", server).await.unwrap();
    let (_stream, status) = open_stream("127.0.0.1", server, &first).await;
    assert!(status.starts_with("HTTP/1.1 200"), "{status}");
    let second = open_session("127.0.0.1", server).await;
    assert!(
        second.is_ok(),
        "refused while the first only held a stream: {second:?}"
    );
    let answer = post_from("127.0.0.1", server, Some(&first), PING).await;
    assert!(answer.starts_with("HTTP/1.1 404"), "{answer}");
}

#[tokio::test]
async fn a_stream_nobody_writes_to_ends() {
    let server = serve(HttpServer::new().stream_idle(Duration::from_millis(300))).await;
    let id = open_session("127.0.0.2", server).await.unwrap();
    let (mut stream, status) = open_stream("127.0.0.2", server, &id).await;
    assert!(status.starts_with("HTTP/1.1 200"), "{status}");
    let mut rest = Vec::new();
    let ended = tokio::time::timeout(Duration::from_secs(3), async {
        // The answer's chunked body ends (its last chunk), or the connection closes.
        loop {
            let mut chunk = [0u8; 256];
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => break,
                Ok(read) => rest.extend_from_slice(&chunk[..read]),
            }
            if rest.ends_with(b"0\r\n\r\n") {
                break;
            }
        }
    })
    .await;
    assert!(ended.is_ok(), "an idle stream was kept open");
    // The session itself is still there.
    let answer = post_from("127.0.0.2", server, Some(&id), PING).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

#[tokio::test]
async fn one_client_holds_at_most_its_share_of_streams() {
    let server = serve(HttpServer::new().max_streams_per_client(1)).await;
    let first = open_session("127.0.0.1", server).await.unwrap();
    let second = open_session("127.0.0.1", server).await.unwrap();
    let (_held, status) = open_stream("127.0.0.1", server, &first).await;
    assert!(status.starts_with("HTTP/1.1 200"), "{status}");
    let (_refused, status) = open_stream("127.0.0.1", server, &second).await;
    assert!(status.starts_with("HTTP/1.1 503"), "{status}");
    // Another client is not held to this one's share.
    let user = open_session("127.0.0.2", server).await.unwrap();
    let (_users, status) = open_stream("127.0.0.2", server, &user).await;
    assert!(status.starts_with("HTTP/1.1 200"), "{status}");
}
