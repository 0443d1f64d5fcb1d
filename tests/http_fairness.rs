//! `HttpServer` against one stranger: an attacker on one loopback address (127.0.0.1) and a
//! user on another (127.0.0.2). A connection that sends nothing is closed within the header
//! timeout, counted from accept, and one with nothing in flight once idle (HTTP/2 PINGs
//! answered or not); one address holds at most its share of the connections and sessions, so
//! a user from another address is served while the attacker holds every one it may; a
//! trusted proxy's clients are told apart, and no one else's headers are believed; a hung
//! handler is dropped when its session is deleted or its stateless client goes.
#![cfg(feature = "http")]

mod common;

#[allow(dead_code, reason = "each test file uses what it needs of the helpers")]
mod loopback;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use loopback::{connect_from, open_session, post_from, serve, serve_toolbox};
use serde::Deserialize;
use stitch::Contract;
use stitch::mcp::{HttpServer, Tools};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

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

/// Wait a while, then say hello.
#[derive(Contract, Deserialize)]
struct Slow {
    millis: u64,
}

async fn serve_slow(server: HttpServer) -> SocketAddr {
    let toolbox = Tools::new()
        .tool(|slow: Slow| async move {
            tokio::time::sleep(Duration::from_millis(slow.millis)).await;
            Ok::<_, String>("done".to_owned())
        })
        .toolbox("slow", "0.0.0")
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

/// Reads from `stream` until the server closes it: how long that took, if within `wait`.
async fn closed_within(stream: &mut TcpStream, wait: Duration) -> Option<Duration> {
    let started = tokio::time::Instant::now();
    let mut rest = Vec::new();
    tokio::time::timeout(wait, stream.read_to_end(&mut rest))
        .await
        .ok()
        .map(|_| started.elapsed())
}

#[tokio::test]
async fn an_idle_keep_alive_connection_is_closed() {
    let server = serve(HttpServer::new().connection_idle(Duration::from_millis(300))).await;
    let mut stream = connect_from("127.0.0.2", server).await.unwrap();
    let ping = "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n";
    stream.write_all(ping.as_bytes()).await.unwrap();
    let mut head = [0u8; 16];
    stream.read_exact(&mut head).await.unwrap();
    // Kept alive after its answer, it is closed once idle.
    let closed = closed_within(&mut stream, Duration::from_secs(5)).await;
    assert!(
        closed.is_some(),
        "an idle keep-alive connection was left open"
    );
}

/// The status line of one more request on `stream`: a `GET` naming a session that is not
/// there, answered at once.
async fn status_of_another_request(stream: &mut TcpStream) -> String {
    let request = "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\
                   Mcp-Session-Id: none\r\n\r\n";
    if stream.write_all(request.as_bytes()).await.is_err() {
        return "closed".to_owned();
    }
    let mut answer = [0u8; 512];
    match tokio::time::timeout(Duration::from_secs(2), stream.read(&mut answer)).await {
        Ok(Ok(read)) if read > 0 => String::from_utf8_lossy(&answer[..read])
            .lines()
            .next()
            .unwrap_or_default()
            .to_owned(),
        _ => "closed".to_owned(),
    }
}

#[tokio::test]
async fn keep_alive_lasts_the_idle_limit_after_an_answer_however_late_the_first_head_came() {
    let server = serve(
        HttpServer::new()
            .header_timeout(Duration::from_millis(400))
            .connection_idle(Duration::from_millis(1500)),
    )
    .await;
    let mut stream = connect_from("127.0.0.2", server).await.unwrap();
    // Most of the head's time spent before the first request.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let first = status_of_another_request(&mut stream).await;
    assert!(first.starts_with("HTTP/1.1 4"), "{first}");
    // Past what was left of the head's time, well within the idle limit: still kept alive.
    tokio::time::sleep(Duration::from_millis(600)).await;
    let second = status_of_another_request(&mut stream).await;
    assert!(
        second.starts_with("HTTP/1.1 4"),
        "closed before the idle limit: {second}"
    );
    let closed = closed_within(&mut stream, Duration::from_secs(5)).await;
    assert!(
        closed.is_some_and(|after| after >= Duration::from_millis(1000)),
        "{closed:?}"
    );
}

#[tokio::test]
async fn racing_initialize_requests_never_hold_more_than_the_cap() {
    let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"racer","version":"0"}}}"#;
    let ping = r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#;
    let cap = 4;
    let server = serve(HttpServer::new().max_sessions_per_address(cap)).await;
    // Forty at once from one address: each admitted before any has opened.
    let racing: Vec<_> = (0..40)
        .map(|_| tokio::spawn(async move { post_with(server, "", initialize).await }))
        .collect();
    let mut opened = Vec::new();
    for race in racing {
        let answer = race.await.unwrap();
        if let Some(id) = answer
            .lines()
            .find_map(|line| line.strip_prefix("mcp-session-id: "))
        {
            opened.push(id.to_owned());
        }
    }
    assert!(!opened.is_empty(), "no session opened");
    let mut live = 0;
    for id in &opened {
        let answer = post_with(server, &format!("Mcp-Session-Id: {id}\r\n"), ping).await;
        if answer.starts_with("HTTP/1.1 200") {
            live += 1;
        }
    }
    assert!(
        live <= cap,
        "{live} sessions held from one address, over its cap of {cap}"
    );
}

#[tokio::test]
async fn a_full_table_makes_room_from_the_client_holding_the_most() {
    let ping = r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#;
    let server = serve(HttpServer::new().max_sessions(8)).await;
    // The user's session, then twelve addresses opening two each: the user's is the least
    // recently active, but the user holds one and every churner two.
    let user = open_session("127.0.0.2", server).await.unwrap();
    for churner in 10..22 {
        for _ in 0..2 {
            let _ = open_session(&format!("127.0.0.{churner}"), server).await;
        }
    }
    let kept = post_from("127.0.0.2", server, Some(&user), ping).await;
    assert!(
        kept.starts_with("HTTP/1.1 200"),
        "the user's session gave way: {kept}"
    );
}

#[tokio::test]
async fn a_client_is_counted_by_its_prefix() {
    let ping = r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#;
    for (prefixes, first_kept) in [((32, 64), true), ((24, 64), false)] {
        let server = HttpServer::new()
            .max_sessions_per_address(1)
            .client_prefixes(prefixes.0, prefixes.1);
        let server = serve(server).await;
        let first = open_session("127.0.0.2", server).await.unwrap();
        let _second = open_session("127.0.0.3", server).await.unwrap();
        let answer = post_from("127.0.0.2", server, Some(&first), ping).await;
        // In one /24, the two addresses are one client of one session.
        assert_eq!(
            answer.starts_with("HTTP/1.1 200"),
            first_kept,
            "{prefixes:?}: {answer}"
        );
    }
}

#[tokio::test]
async fn a_body_that_is_not_json_is_a_json_rpc_parse_error() {
    let server = serve(HttpServer::new()).await;
    let answer = post_with(server, "", "{\"jsonrpc\": \"2.0\", not json").await;
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    assert!(
        answer.contains("content-type: application/json"),
        "{answer}"
    );
    assert!(answer.contains(r#""code":-32700"#), "{answer}");
    assert!(answer.contains(r#""id":null"#), "{answer}");
}

#[tokio::test]
async fn an_idle_http2_connection_answering_pings_is_closed() {
    use http_body_util::{BodyExt, Empty};
    use hyper::body::Bytes;
    let server = serve(
        HttpServer::new()
            .connection_idle(Duration::from_millis(500))
            .header_timeout(Duration::from_millis(100)),
    )
    .await;
    let stream = connect_from("127.0.0.2", server).await.unwrap();
    let (mut sender, connection) = hyper::client::conn::http2::handshake(
        hyper_util::rt::TokioExecutor::new(),
        hyper_util::rt::TokioIo::new(stream),
    )
    .await
    .unwrap();
    let ended = tokio::spawn(connection);
    let request = hyper::Request::get(format!("http://{server}/mcp"))
        .header("host", "127.0.0.1")
        .body(Empty::<Bytes>::new())
        .unwrap();
    let answer = sender.send_request(request).await.unwrap();
    let _ = answer.into_body().collect().await;
    // The server PINGs it every 100 ms and it answers; with nothing in flight, it is closed.
    let closed = tokio::time::timeout(Duration::from_secs(5), ended).await;
    assert!(closed.is_ok(), "an idle HTTP/2 connection was left open");
}

#[tokio::test]
async fn a_trusted_proxys_clients_each_have_their_share_and_no_one_else_is_trusted() {
    let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"user","version":"0"}}}"#;
    let ping = r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#;
    // Two clients behind one proxy open a session each: each is a client of its own.
    let open_as = |server, client: &'static str| async move {
        let answer = post_with(
            server,
            &format!("X-Forwarded-For: {client}\r\n"),
            initialize,
        )
        .await;
        answer
            .lines()
            .find_map(|line| line.strip_prefix("mcp-session-id: "))
            .map(str::to_owned)
            .expect("a session")
    };
    let behind_proxy = HttpServer::new()
        .max_sessions_per_address(1)
        .trusted_proxies(["127.0.0.1".parse().unwrap()]);
    let server = serve(behind_proxy).await;
    let first = open_as(server, "192.0.2.1").await;
    let _second = open_as(server, "192.0.2.2").await;
    let kept = post_from("127.0.0.1", server, Some(&first), ping).await;
    assert!(kept.starts_with("HTTP/1.1 200"), "{kept}");
    // Untrusted, the same headers are the one address's own: its first session gave way.
    let server = serve(HttpServer::new().max_sessions_per_address(1)).await;
    let first = open_as(server, "192.0.2.1").await;
    let _second = open_as(server, "192.0.2.2").await;
    let evicted = post_from("127.0.0.1", server, Some(&first), ping).await;
    assert!(evicted.starts_with("HTTP/1.1 404"), "{evicted}");
}

#[tokio::test]
async fn a_forwarded_header_the_client_wrote_is_never_read() {
    let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"user","version":"0"}}}"#;
    let ping = r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#;
    // The proxy sets X-Forwarded-For and passes the client's own `Forwarded` through, as
    // nginx does: the client names itself someone new with every session.
    let behind_proxy = HttpServer::new()
        .max_sessions_per_address(1)
        .trusted_proxies(["127.0.0.1".parse().unwrap()]);
    let server = serve(behind_proxy).await;
    let mut opened = Vec::new();
    for forged in 1..=3 {
        let headers =
            format!("X-Forwarded-For: 192.0.2.1\r\nForwarded: for=198.51.100.{forged}\r\n");
        let answer = post_with(server, &headers, initialize).await;
        let id = answer
            .lines()
            .find_map(|line| line.strip_prefix("mcp-session-id: "))
            .expect("a session");
        opened.push(id.to_owned());
    }
    let mut live = 0;
    for id in &opened {
        if post_from("127.0.0.1", server, Some(id), ping)
            .await
            .starts_with("HTTP/1.1 200")
        {
            live += 1;
        }
    }
    assert_eq!(
        live, 1,
        "a forged `Forwarded` raised the client's cap of 1 to {live}"
    );
}

/// One POST from 127.0.0.1 with `headers` added: the whole answer.
async fn post_with(server: SocketAddr, headers: &str, body: &str) -> String {
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nConnection: close\r\n{headers}\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = connect_from("127.0.0.1", server).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer)).await;
    String::from_utf8_lossy(&answer).into_owned()
}

/// Wait for what never comes.
#[derive(Contract, Deserialize)]
struct Hang {}

/// Serves `hang`, whose handlers count themselves into `started` and out of `freed` when
/// dropped.
async fn serve_hang(
    server: HttpServer,
    started: &'static AtomicUsize,
    freed: &'static AtomicUsize,
) -> SocketAddr {
    struct Holding(&'static AtomicUsize);
    impl Drop for Holding {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }
    let toolbox = Tools::new()
        .tool(move |_: Hang| {
            let holding = Holding(freed);
            started.fetch_add(1, Ordering::SeqCst);
            async move {
                std::future::pending::<()>().await;
                drop(holding);
                Ok::<_, String>("never")
            }
        })
        .toolbox("hang", "0.0.0")
        .unwrap();
    serve_toolbox(server, toolbox).await
}

/// Waits until `counter` reaches `count` (at most 10 s).
async fn until(counter: &AtomicUsize, count: usize) -> bool {
    tokio::time::timeout(Duration::from_secs(10), async {
        while counter.load(Ordering::SeqCst) < count {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await
    .is_ok()
}

const HANG: &str =
    r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"hang","arguments":{}}}"#;

#[tokio::test]
async fn delete_drops_the_sessions_hung_handlers() {
    static STARTED: AtomicUsize = AtomicUsize::new(0);
    static FREED: AtomicUsize = AtomicUsize::new(0);
    let server = serve_hang(HttpServer::new(), &STARTED, &FREED).await;
    let session = open_session("127.0.0.2", server).await.expect("a session");
    let id = session.clone();
    let call = tokio::spawn(async move { post_from("127.0.0.2", server, Some(&id), HANG).await });
    assert!(until(&STARTED, 1).await);
    let delete = format!(
        "DELETE /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nMcp-Session-Id: {session}\r\n\
         Connection: close\r\n\r\n"
    );
    let mut stream = connect_from("127.0.0.2", server).await.unwrap();
    stream.write_all(delete.as_bytes()).await.unwrap();
    assert!(until(&FREED, 1).await, "DELETE left the handler hanging");
    call.abort();
}

#[tokio::test]
async fn a_stateless_clients_disconnect_drops_its_hung_handler() {
    static STARTED: AtomicUsize = AtomicUsize::new(0);
    static FREED: AtomicUsize = AtomicUsize::new(0);
    let server = serve_hang(HttpServer::new().stateless(true), &STARTED, &FREED).await;
    let call = tokio::spawn(async move { post_from("127.0.0.2", server, None, HANG).await });
    assert!(until(&STARTED, 1).await);
    call.abort();
    assert!(
        until(&FREED, 1).await,
        "a disconnect left the handler hanging"
    );
}

every_contract_here!(Slow, Hang);
