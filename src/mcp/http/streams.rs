//! Open GET streams (a session's stream of server messages) as resources: counted per client
//! and in all against caps, and each ended once no event has crossed it for the idle limit
//! (the keep-alive comments rmcp writes are not events), so that a stream nobody writes to
//! frees its connection. A stream keeps neither its session nor its connection from being
//! idle: a session whose only activity is an open stream gives way and expires as any idle
//! one does, its stream closed with it.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Body;
use futures::StreamExt;
use tokio::time::Instant;

/// Every open stream, by client.
pub(super) struct Streams {
    held: Mutex<HashMap<IpAddr, usize>>,
    max: usize,
    max_per_client: usize,
    idle: Duration,
}

/// One open stream of a client, given back when dropped.
pub(super) struct Stream {
    streams: Arc<Streams>,
    client: IpAddr,
}

impl Drop for Stream {
    fn drop(&mut self) {
        let mut held = self.streams.lock();
        if let Some(count) = held.get_mut(&self.client) {
            *count -= 1;
            if *count == 0 {
                held.remove(&self.client);
            }
        }
    }
}

impl Streams {
    pub(super) fn new(max: usize, max_per_client: usize, idle: Duration) -> Streams {
        Streams {
            held: Mutex::default(),
            max,
            max_per_client,
            idle,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<IpAddr, usize>> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// One more open stream for `client`, or why not: the client, or the server, holds its
    /// cap already.
    pub(super) fn open(self: &Arc<Self>, client: IpAddr) -> Result<Stream, String> {
        let mut held = self.lock();
        let total: usize = held.values().sum();
        let of_client = held.get(&client).copied().unwrap_or(0);
        if of_client >= self.max_per_client {
            return Err(format!(
                "too many open streams from one client: at most {}; close one, or try again later",
                self.max_per_client
            ));
        }
        if total >= self.max {
            return Err(format!(
                "too many open streams: at most {} at once; try again later",
                self.max
            ));
        }
        *held.entry(client).or_insert(0) += 1;
        Ok(Stream {
            streams: Arc::clone(self),
            client,
        })
    }

    /// `body` (a stream's events), ended once no event has crossed it for the idle limit;
    /// `held` (the stream's place, its connection's activity) is let go when it ends.
    pub(super) fn ending_when_idle(&self, body: Body, held: impl Send + Sync + 'static) -> Body {
        let idle = self.idle;
        let chunks = body.into_data_stream();
        let events = futures::stream::unfold(
            (chunks, Instant::now() + idle, held),
            move |(mut chunks, deadline, held)| async move {
                match tokio::time::timeout_at(deadline, chunks.next()).await {
                    Ok(Some(Ok(chunk))) => {
                        // An event has a data line; a keep-alive comment does not.
                        let event = chunk.windows(5).any(|bytes| bytes == b"data:");
                        let deadline = if event {
                            Instant::now() + idle
                        } else {
                            deadline
                        };
                        Some((Ok(chunk), (chunks, deadline, held)))
                    }
                    Ok(Some(Err(error))) => Some((Err(error), (chunks, deadline, held))),
                    Ok(None) | Err(_) => None,
                }
            },
        );
        Body::from_stream(events)
    }
}
