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
    serve_toolbox(server, toolbox).await
}

/// Serves `toolbox` with `server`'s limits on a free loopback port.
async fn serve_toolbox(server: HttpServer, toolbox: Toolbox) -> SocketAddr {
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

/// One POST from `from`, its connection closed after it: the whole answer (head and body) as
/// text, or why there is none.
async fn post_from(from: &str, server: SocketAddr, session: Option<&str>, body: &str) -> String {
    let session = session.map_or(String::new(), |id| format!("Mcp-Session-Id: {id}\r\n"));
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nConnection: close\r\n{session}\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let Ok(mut stream) = connect_from(from, server).await else {
        return "no connection".to_owned();
    };
    if stream.write_all(request.as_bytes()).await.is_err() {
        return "refused".to_owned();
    }
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer)).await;
    String::from_utf8_lossy(&answer).into_owned()
}

/// Opens a session from `from`: its id, or the answer that refused it.
async fn open_session(from: &str, server: SocketAddr) -> Result<String, String> {
    let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"user","version":"0"}}}"#;
    let answer = post_from(from, server, None, initialize).await;
    let id = answer
        .lines()
        .find_map(|line| {
            let (name, value) = line.split_once(':')?;
            name.eq_ignore_ascii_case("mcp-session-id")
                .then(|| value.trim().to_owned())
        })
        .ok_or_else(|| answer.lines().next().unwrap_or_default().to_owned())?;
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    post_from(from, server, Some(&id), initialized).await;
    Ok(id)
}

/// Wait a while, then say hello.
#[derive(Contract, Deserialize)]
struct Slow {
    millis: u64,
}

async fn serve_slow(server: HttpServer) -> SocketAddr {
    let toolbox = Toolbox::builder("slow", "0.0.0")
        .tool(|slow: Slow| async move {
            tokio::time::sleep(Duration::from_millis(slow.millis)).await;
            Ok::<_, String>("done".to_owned())
        })
        .build()
        .unwrap();
    serve_toolbox(server, toolbox).await
}

#[tokio::test]
async fn a_call_longer_than_the_idle_limit_is_answered_and_an_idle_session_ends_in_404() {
    let server = serve_slow(HttpServer::new().session_idle(Duration::from_millis(300))).await;
    let session = open_session("127.0.0.2", server).await.expect("a session");
    let call = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{"millis":1500}}}"#;
    let answer = post_from("127.0.0.2", server, Some(&session), call).await;
    assert!(
        answer.contains("\"result\"") && answer.contains("done"),
        "a call in flight is activity: {answer}"
    );
    // Idle past the limit, the session is closed: its next request is told so (404).
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let ping = r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#;
    let answer = post_from("127.0.0.2", server, Some(&session), ping).await;
    assert!(answer.starts_with("HTTP/1.1 404"), "{answer}");
}

#[tokio::test]
async fn one_address_holding_its_sessions_keeps_no_one_else_out() {
    let server = serve(
        HttpServer::new()
            .max_sessions(8)
            .max_sessions_per_address(4),
    )
    .await;
    // The attacker opens more than its share: its own oldest idle sessions give way, so it
    // never holds more than its share.
    let mut attacker = Vec::new();
    for _ in 0..6 {
        attacker.push(
            open_session("127.0.0.1", server)
                .await
                .expect("its own give way"),
        );
    }
    let ping = r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#;
    let first = post_from("127.0.0.1", server, Some(&attacker[0]), ping).await;
    assert!(
        first.starts_with("HTTP/1.1 404"),
        "its oldest gave way: {first}"
    );
    let last = post_from("127.0.0.1", server, Some(&attacker[5]), ping).await;
    assert!(last.starts_with("HTTP/1.1 200"), "{last}");
    // The user gets a session every time it tries, past the table's size: the least recently
    // active idle session gives way.
    for attempt in 0..10 {
        let opened = open_session("127.0.0.2", server).await;
        assert!(opened.is_ok(), "attempt {attempt}: {opened:?}");
    }
}
