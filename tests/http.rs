//! `HttpServer`: streamable HTTP with limits by default, driven over raw TCP so that what is
//! checked is what a client (or an attacker) meets on the wire: a trickled request head is
//! closed, a slow body refused, connections and sessions capped with a clear status, another
//! host refused, and an address other machines reach refused without an allow-list.
#![cfg(feature = "http")]

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use serde::Deserialize;
use stitch::Contract;
use stitch::mcp::{HttpServer, Toolbox, Tools};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Say hello.
#[derive(Contract, Deserialize)]
struct Hello {
    name: String,
}

fn toolbox() -> Toolbox {
    Tools::new()
        .tool(|hello: Hello| async move { Ok::<_, String>(format!("hello {}", hello.name)) })
        .toolbox("http", "0.0.0")
        .unwrap()
}

/// Serves the toolbox with `server`'s limits on a free loopback port.
async fn serve(server: HttpServer) -> SocketAddr {
    let listener = server.bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(listener.serve(toolbox()));
    address
}

/// Sends `request` whole and reads the answer until the server closes or `wait` passes.
async fn exchange(address: SocketAddr, request: &str, wait: Duration) -> String {
    let mut stream = TcpStream::connect(address).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    read_for(&mut stream, wait).await
}

async fn read_for(stream: &mut TcpStream, wait: Duration) -> String {
    let mut answer = Vec::new();
    let mut buffer = [0u8; 4096];
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        match tokio::time::timeout_at(deadline, stream.read(&mut buffer)).await {
            Ok(Ok(0)) | Ok(Err(_)) | Err(_) => break,
            Ok(Ok(read)) => {
                answer.extend_from_slice(&buffer[..read]);
                // Enough to judge by: the status line and headers.
                if answer.windows(4).any(|w| w == b"\r\n\r\n") {
                    break;
                }
            }
        }
    }
    String::from_utf8_lossy(&answer).into_owned()
}

fn initialize(host: &str) -> String {
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;
    format!(
        "POST /mcp HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

#[tokio::test]
async fn a_session_opens_and_a_call_on_another_host_is_refused() {
    let address = serve(HttpServer::new()).await;
    let opened = exchange(address, &initialize("127.0.0.1"), Duration::from_secs(5)).await;
    assert!(opened.starts_with("HTTP/1.1 200"), "{opened}");
    assert!(
        opened.to_ascii_lowercase().contains("mcp-session-id"),
        "{opened}"
    );
    let rebound = exchange(address, &initialize("evil.example"), Duration::from_secs(5)).await;
    assert!(rebound.starts_with("HTTP/1.1 403"), "{rebound}");
}

#[tokio::test]
async fn an_address_other_machines_reach_needs_its_hosts_named() {
    let refused = HttpServer::new().bind("0.0.0.0:0").await;
    let error = refused.err().expect("no allow-list, no listener");
    assert!(error.to_string().contains("allow_hosts"), "{error}");
    let named = HttpServer::new()
        .allow_hosts(["mcp.example.com"])
        .bind("0.0.0.0:0")
        .await;
    assert!(named.is_ok());
}

#[tokio::test]
async fn a_trickled_request_head_is_closed() {
    let address = serve(HttpServer::new().header_timeout(Duration::from_millis(300))).await;
    let mut stream = TcpStream::connect(address).await.unwrap();
    stream
        .write_all(b"POST /mcp HTTP/1.1\r\nHost: 127")
        .await
        .unwrap();
    // The server closes it (after a 408, or without a word) long before ten seconds pass.
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer));
    assert!(
        read.await.is_ok(),
        "the connection was left open: {}",
        String::from_utf8_lossy(&answer)
    );
}

#[tokio::test]
async fn a_slow_body_is_refused() {
    let address = serve(HttpServer::new().body_timeout(Duration::from_millis(300))).await;
    let head = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
                Accept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{\"js";
    let answer = exchange(address, head, Duration::from_secs(10)).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
}

#[tokio::test]
async fn a_full_connection_table_makes_room_and_refuses_only_when_every_one_is_busy() {
    let address = serve(HttpServer::new().max_connections(1)).await;
    // A silent connection holds the one place: it gives way to a newcomer.
    let mut silent = TcpStream::connect(address).await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let served = exchange(address, &initialize("127.0.0.1"), Duration::from_secs(5)).await;
    assert!(served.starts_with("HTTP/1.1 200"), "{served}");
    let mut rest = Vec::new();
    let closed = tokio::time::timeout(Duration::from_secs(2), silent.read_to_end(&mut rest)).await;
    assert!(
        closed.is_ok(),
        "the silent connection was not closed to make room"
    );
    // A connection with a request in flight (its body still arriving) does not.
    let arriving = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
                    Content-Length: 100\r\n\r\n{";
    let mut busy = TcpStream::connect(address).await.unwrap();
    busy.write_all(arriving.as_bytes()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let refused = exchange(address, &initialize("127.0.0.1"), Duration::from_secs(5)).await;
    assert!(refused.starts_with("HTTP/1.1 503"), "{refused}");
}

#[tokio::test]
async fn a_new_session_is_refused_with_a_reason_only_when_every_one_is_busy() {
    // A full table gives way to a newcomer (`tests/http_fairness.rs`): two sessions, both
    // with a request in flight (a call whose body is still arriving), leave no room. An open
    // stream alone keeps no session busy (`tests/http_streams.rs`).
    let address = serve(HttpServer::new().max_sessions(2)).await;
    let mut streams = Vec::new();
    for _ in 0..2 {
        let opened = exchange(address, &initialize("localhost"), Duration::from_secs(5)).await;
        assert!(opened.starts_with("HTTP/1.1 200"), "{opened}");
        let id = opened
            .lines()
            .find_map(|line| line.strip_prefix("mcp-session-id: "))
            .expect("a session id")
            .trim()
            .to_owned();
        let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
        let notify = format!(
            "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nMcp-Session-Id: {id}\r\n\
             Content-Length: {}\r\n\r\n{initialized}",
            initialized.len()
        );
        exchange(address, &notify, Duration::from_secs(2)).await;
        let arriving = format!(
            "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nMcp-Session-Id: {id}\r\n\
             Content-Length: 100\r\n\r\n{{\"jsonrpc\""
        );
        let mut stream = TcpStream::connect(address).await.unwrap();
        stream.write_all(arriving.as_bytes()).await.unwrap();
        read_for(&mut stream, Duration::from_millis(500)).await;
        streams.push(stream);
    }
    let refused = exchange(address, &initialize("localhost"), Duration::from_secs(5)).await;
    assert!(refused.starts_with("HTTP/1.1 503"), "{refused}");
    let head = refused.to_ascii_lowercase();
    assert!(head.contains("retry-after: 5"), "{refused}");
    assert!(
        head.contains("connection: close"),
        "its body unread, the connection is not reused: {refused}"
    );
}

every_contract_here!(Hello);
