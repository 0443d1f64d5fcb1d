//! `HttpServer` against one stranger: an attacker on one loopback address (127.0.0.1) and a
//! user on another (127.0.0.2). A connection that sends nothing is closed within the header
//! timeout, counted from accept; one address holds at most its share of the connections, so a
//! user from another address is served while the attacker holds every connection it may.
#![cfg(feature = "http")]

use std::net::SocketAddr;
use std::time::Duration;

use serde::Deserialize;
use stitch::Contract;
use stitch::mcp::{HttpServer, Toolbox};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// Say hello.
#[derive(Contract, Deserialize)]
struct Hello {
    name: String,
}

async fn serve(server: HttpServer) -> SocketAddr {
    let toolbox = Toolbox::builder("fair", "0.0.0")
        .tool(|hello: Hello| async move { Ok::<_, String>(format!("hello {}", hello.name)) })
        .build()
        .unwrap();
    let listener = server.bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(listener.serve(toolbox));
    address
}

/// A connection to `server` from the loopback address `from`.
async fn connect_from(from: &str, server: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(format!("{from}:0").parse().unwrap())?;
    socket.connect(server).await
}

/// `initialize` from `from`: the status line the server answers, or why there is none.
async fn initialize_from(from: &str, server: SocketAddr) -> String {
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"user","version":"0"}}}"#;
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let Ok(mut stream) = connect_from(from, server).await else {
        return "no connection".to_owned();
    };
    if stream.write_all(request.as_bytes()).await.is_err() {
        return "refused".to_owned();
    }
    let mut buffer = [0u8; 64];
    match tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buffer)).await {
        Ok(Ok(read)) => String::from_utf8_lossy(&buffer[..read])
            .lines()
            .next()
            .unwrap_or_default()
            .to_owned(),
        _ => "no answer".to_owned(),
    }
}

#[tokio::test]
async fn a_connection_that_sends_nothing_is_closed_counting_from_accept() {
    let server = serve(HttpServer::new().header_timeout(Duration::from_millis(300))).await;
    let mut silent = connect_from("127.0.0.1", server).await.unwrap();
    let started = tokio::time::Instant::now();
    let mut rest = Vec::new();
    let closed = tokio::time::timeout(Duration::from_secs(5), silent.read_to_end(&mut rest)).await;
    assert!(closed.is_ok(), "a silent connection was left open");
    assert!(started.elapsed() < Duration::from_secs(3));
}

#[tokio::test]
async fn one_address_cannot_take_every_connection() {
    let server = serve(
        HttpServer::new()
            .max_connections(48)
            .max_connections_per_address(16)
            .header_timeout(Duration::from_secs(30)),
    )
    .await;
    // The attacker opens three times its share of silent connections and keeps them.
    let mut held = Vec::new();
    for _ in 0..48 {
        if let Ok(stream) = connect_from("127.0.0.1", server).await {
            held.push(stream);
        }
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    // Past its share, the attacker is refused.
    assert!(
        initialize_from("127.0.0.1", server)
            .await
            .starts_with("HTTP/1.1 503"),
        "the attacker's own address is past its share"
    );
    // The user, from another address, is served every time.
    for attempt in 0..10 {
        let answer = initialize_from("127.0.0.2", server).await;
        assert!(
            answer.starts_with("HTTP/1.1 200"),
            "attempt {attempt}: {answer}"
        );
    }
    drop(held);
}
