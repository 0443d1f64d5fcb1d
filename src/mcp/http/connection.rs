//! One accepted connection, served until it ends or has nothing to do: its first request's
//! head timed from accept (a connection that sends nothing is closed as one that trickles),
//! and the connection closed once no request has been in flight on it for the idle limit,
//! HTTP/1 keep-alive and HTTP/2 alike (an HTTP/2 client answering PINGs is not doing anything). And
//! the count of connections each remote address holds, against its cap.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::service::TowerToHyperService;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use tokio::time::Instant;

/// How long a connection may take over its head, and sit with nothing in flight.
#[derive(Clone, Copy)]
pub(super) struct Timers {
    pub(super) header: Duration,
    pub(super) idle: Duration,
}

/// Serves one accepted connection. Its first request's head is timed from accept (a
/// connection that sends nothing or trickles its head is closed when the head's time is
/// spent); from then on the connection is kept while a request is in flight and for the idle
/// limit after its last answer, HTTP/1 keep-alive included. hyper's own head timer starts
/// again each time the connection waits for its next request, so it is given the idle limit:
/// given the head's time, it would close a kept-alive connection then, not at the idle limit.
pub(super) async fn serve(
    stream: TcpStream,
    service: TowerToHyperService<axum::Router>,
    (busy, shed): (Arc<Busy>, Arc<tokio::sync::Notify>),
    timers: Timers,
) {
    let first_head_by = Instant::now() + timers.header;
    let mut first = [0u8; 1];
    tokio::select! {
        peeked = tokio::time::timeout(timers.header, stream.peek(&mut first)) => match peeked {
            Ok(Ok(read)) if read > 0 => {}
            _ => return,
        },
        // Closed to make room for a newcomer before it said anything.
        () = shed.notified() => return,
    }
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(timers.idle.max(timers.header));
    builder
        .http2()
        .timer(TokioTimer::new())
        .keep_alive_interval(Some(timers.header));
    let connection = builder.serve_connection_with_upgrades(TokioIo::new(stream), service);
    let mut connection = std::pin::pin!(connection);
    loop {
        let waiting_for_head = !busy.has_begun();
        let wait = if waiting_for_head {
            first_head_by.saturating_duration_since(Instant::now())
        } else {
            busy.idle_left(timers.idle)
        };
        tokio::select! {
            _ = connection.as_mut() => return,
            // Closed to make room for a newcomer: it had nothing in flight.
            () = shed.notified() => return,
            // The first head arrived: from now on, the idle limit.
            () = busy.first_begun.notified(), if waiting_for_head => {}
            () = tokio::time::sleep(wait) => {
                // The first head took its whole time: closed without a word, as hyper would.
                if waiting_for_head && !busy.has_begun() {
                    return;
                }
                if !waiting_for_head && busy.idle_left(timers.idle).is_zero() {
                    break;
                }
            }
        }
    }
    // Nothing in flight: HTTP/1 closes at once, HTTP/2 says GOAWAY first; a head being read
    // meanwhile gets the head's time.
    connection.as_mut().graceful_shutdown();
    let _ = tokio::time::timeout(timers.header, connection).await;
}

/// What a connection has in flight, and since when it has had nothing; whether any request
/// has begun on it.
pub(super) struct Busy {
    state: Mutex<(usize, Instant)>,
    begun: std::sync::atomic::AtomicBool,
    /// Told once, when the first request begins.
    first_begun: tokio::sync::Notify,
}

/// One request in flight on a connection, until its answer is sent whole.
pub(super) struct Request(Arc<Busy>);

impl Busy {
    pub(super) fn new() -> Arc<Busy> {
        Arc::new(Busy {
            state: Mutex::new((0, Instant::now())),
            begun: std::sync::atomic::AtomicBool::new(false),
            first_begun: tokio::sync::Notify::new(),
        })
    }

    /// A request begins on the connection.
    pub(super) fn begin(self: &Arc<Self>) -> Request {
        if !self.begun.swap(true, std::sync::atomic::Ordering::Relaxed) {
            self.first_begun.notify_one();
        }
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.0 += 1;
        Request(Arc::clone(self))
    }

    /// Whether nothing is in flight on the connection.
    pub(super) fn is_idle(&self) -> bool {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).0 == 0
    }

    /// Whether a request has begun on the connection: its first head arrived whole.
    fn has_begun(&self) -> bool {
        self.begun.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// How long until the connection has been idle for `idle` (zero: it has): `idle` itself
    /// while a request is in flight.
    fn idle_left(&self, idle: Duration) -> Duration {
        let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        match *state {
            (0, since) => idle.saturating_sub(since.elapsed()),
            _ => idle,
        }
    }
}

impl Drop for Request {
    fn drop(&mut self) {
        let mut state = self.0.state.lock().unwrap_or_else(|e| e.into_inner());
        state.0 -= 1;
        state.1 = Instant::now();
    }
}

/// How many connections each remote address holds, against a cap: one address cannot take
/// every connection the server has.
#[derive(Clone)]
pub(super) struct PerAddress {
    held: Arc<Mutex<HashMap<IpAddr, usize>>>,
    cap: usize,
}

/// One connection held by an address, given back when dropped.
pub(super) struct Held {
    of: PerAddress,
    address: IpAddr,
}

impl PerAddress {
    pub(super) fn new(cap: usize) -> PerAddress {
        PerAddress {
            held: Arc::default(),
            cap,
        }
    }

    /// One more connection for `address`, unless it holds its cap already.
    pub(super) fn take(&self, address: IpAddr) -> Option<Held> {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        let count = held.entry(address).or_insert(0);
        if *count >= self.cap {
            return None;
        }
        *count += 1;
        Some(Held {
            of: self.clone(),
            address,
        })
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut held = self.of.held.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(count) = held.get_mut(&self.address) {
            *count -= 1;
            if *count == 0 {
                held.remove(&self.address);
            }
        }
    }
}

/// Answers a connection past a cap with 503 and closes it.
pub(super) async fn refuse(mut stream: TcpStream) {
    let answer = "HTTP/1.1 503 Service Unavailable\r\nretry-after: 1\r\nconnection: close\r\n\
                  content-length: 0\r\n\r\n";
    let _ = stream.write_all(answer.as_bytes()).await;
    let _ = stream.shutdown().await;
}
