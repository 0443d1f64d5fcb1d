//! A server to attack, and requests from a chosen loopback address (127.0.0.0/8 is all this
//! machine's): an attacker on one, a user on another, for the tests of `HttpServer`'s
//! fairness.

use std::net::SocketAddr;
use std::time::Duration;

use serde::Deserialize;
use stitch::Contract;
use stitch::mcp::{HttpServer, Toolbox, Tools};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

// The servers' one tool, in the schema snapshot (each test file that serves it writes the
// same export).
crate::every_contract_here_is_in_the_snapshot!(Hello);

/// Say hello.
#[derive(Contract, Deserialize)]
struct Hello {
    name: String,
}

/// A one-tool server with `server`'s limits on a free loopback port.
pub async fn serve(server: HttpServer) -> SocketAddr {
    let toolbox = Tools::new()
        .tool(|hello: Hello| async move { Ok::<_, String>(format!("hello {}", hello.name)) })
        .toolbox("fair", "0.0.0")
        .unwrap();
    serve_toolbox(server, toolbox).await
}

/// Serves `toolbox` with `server`'s limits on a free loopback port.
pub async fn serve_toolbox(server: HttpServer, toolbox: Toolbox) -> SocketAddr {
    let listener = server.bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(listener.serve(toolbox));
    address
}

/// A connection to `server` from the loopback address `from`.
pub async fn connect_from(from: &str, server: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(format!("{from}:0").parse().unwrap())?;
    socket.connect(server).await
}

/// One POST from `from`, its connection closed after it: the whole answer (head and body) as
/// text, or why there is none.
pub async fn post_from(
    from: &str,
    server: SocketAddr,
    session: Option<&str>,
    body: &str,
) -> String {
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
pub async fn open_session(from: &str, server: SocketAddr) -> Result<String, String> {
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

/// A stream of server messages opened by session `id` from `from`: the connection, once its
/// answer's head (its status line first) has been read.
pub async fn open_stream(from: &str, server: SocketAddr, id: &str) -> (TcpStream, String) {
    let request = format!(
        "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\
         Mcp-Session-Id: {id}\r\n\r\n"
    );
    let mut stream = connect_from(from, server).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut head = [0u8; 256];
    let read = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut head))
        .await
        .ok()
        .and_then(Result::ok)
        .unwrap_or(0);
    let status = String::from_utf8_lossy(&head[..read])
        .lines()
        .next()
        .unwrap_or_default()
        .to_owned();
    (stream, status)
}
