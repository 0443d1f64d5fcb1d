//! What the upstream asks of its client, passed to the downstream client: requests (sampling,
//! elicitation, roots) and notifications (progress, logging, resources updated, lists
//! changed) go as they came, each to the one downstream client this upstream session serves.
//! Two things are read on the way: a progress notification's token is turned back into the
//! one the downstream client gave its call (and the call's answer waits for the progress sent
//! before it to be passed), and a tool list changed marks the gateway's
//! listing stale, so the next `tools/list` lists the upstream and renders it again.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    ClientConfig, ClientResult, ErrorCode, ErrorData, GetMeta, ProgressToken, ServerNotification,
    ServerRequest,
};
use rmcp::service::{NotificationContext, Peer, RequestContext, Service};
use rmcp::{RoleClient, RoleServer};
use tokio::sync::Notify;

use crate::forward::{answer_error, without_protocol_meta};

/// What an upstream session and the gateway's side of it share.
#[derive(Debug, Default)]
pub struct LinkState {
    /// The upstream said its tools changed since they were last listed.
    pub tools_stale: AtomicBool,
    /// For each call in flight, under the progress token the upstream was given, the one the
    /// downstream client gave and how many of its progress notifications are being passed.
    progress: Mutex<HashMap<ProgressToken, CallProgress>>,
    /// Told each time a progress notification has been passed downstream.
    passed: Notify,
}

/// A call's progress as the relay passes it: the downstream client's token, how many of its
/// notifications are on their way there now, and how many have started on their way.
#[derive(Debug)]
struct CallProgress {
    downstream: ProgressToken,
    passing: usize,
    started: usize,
}

/// How long a call's progress must stay still (none passing, none starting) before its answer
/// goes: the time a notification's task, already spawned, takes to start on a busy runtime.
const PROGRESS_STILL_FOR: Duration = Duration::from_millis(10);

impl LinkState {
    /// Progress the upstream reports under `upstream` is reported to the downstream client
    /// under `downstream`, until [`forget_progress`](Self::forget_progress).
    pub fn map_progress(&self, upstream: ProgressToken, downstream: ProgressToken) {
        let call = CallProgress {
            downstream,
            passing: 0,
            started: 0,
        };
        self.lock().insert(upstream, call);
    }

    /// Waits, at most `within`, until the progress the upstream sent for the call under
    /// `upstream` before its answer has been passed downstream. rmcp hands each notification
    /// to a task of its own and an answer straight to the task that awaits it, which the
    /// runtime may run first: without this wait, an answer can overtake the progress sent
    /// before it, and a client that reads progress until the answer sees none. Each task
    /// counts itself as passing before it awaits anything, but on a busy runtime a task
    /// already spawned may not have started yet (one run in about a hundred, in CI): so the
    /// progress must also stay still for [`PROGRESS_STILL_FOR`], no notification starting.
    pub async fn progress_passed(&self, upstream: &ProgressToken, within: Duration) {
        let settled = async {
            loop {
                tokio::task::yield_now().await;
                loop {
                    let mut passed = std::pin::pin!(self.passed.notified());
                    passed.as_mut().enable();
                    if self.counts(upstream).0 == 0 {
                        break;
                    }
                    passed.await;
                }
                let (_, started) = self.counts(upstream);
                tokio::time::sleep(PROGRESS_STILL_FOR).await;
                if self.counts(upstream) == (0, started) {
                    return;
                }
            }
        };
        let _ = tokio::time::timeout(within, settled).await;
    }

    /// The call under `upstream` has ended.
    pub fn forget_progress(&self, upstream: &ProgressToken) {
        self.lock().remove(upstream);
    }

    /// The downstream token of the call under `upstream`, counted as passing one more
    /// notification until [`passed_one`](Self::passed_one); none where no call is in flight.
    fn pass_one(&self, upstream: &ProgressToken) -> Option<ProgressToken> {
        let mut calls = self.lock();
        let call = calls.get_mut(upstream)?;
        call.passing += 1;
        call.started += 1;
        Some(call.downstream.clone())
    }

    /// How many notifications of the call under `upstream` are passing now, and how many
    /// have started (none of either where no call is in flight).
    fn counts(&self, upstream: &ProgressToken) -> (usize, usize) {
        self.lock()
            .get(upstream)
            .map_or((0, 0), |call| (call.passing, call.started))
    }

    /// One notification of the call under `upstream` has been passed downstream.
    fn passed_one(&self, upstream: &ProgressToken) {
        if let Some(call) = self.lock().get_mut(upstream) {
            call.passing = call.passing.saturating_sub(1);
        }
        self.passed.notify_waiters();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<ProgressToken, CallProgress>> {
        self.progress
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The gateway as the upstream's client.
pub struct Relay {
    /// The downstream client this upstream session serves; none where the gateway serves
    /// statelessly (one upstream session for every request), and cannot ask a client back.
    pub downstream: Option<Peer<RoleServer>>,
    /// What the upstream is told of its client: the downstream client's own `initialize`.
    pub client: ClientConfig,
    pub state: Arc<LinkState>,
}

impl Service<RoleClient> for Relay {
    async fn handle_request(
        &self,
        mut request: ServerRequest,
        context: RequestContext<RoleClient>,
    ) -> Result<ClientResult, ErrorData> {
        let Some(downstream) = &self.downstream else {
            return Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                "the gateway serves its clients statelessly: it cannot ask one back",
                None,
            ));
        };
        *request.get_meta_mut() = without_protocol_meta(context.meta);
        let asked = downstream.send_request(request);
        tokio::select! {
            answer = asked => answer.map_err(|error| answer_error(error, "the client")),
            () = context.ct.cancelled() => Err(ErrorData::new(
                ErrorCode::INTERNAL_ERROR,
                "the upstream cancelled the request",
                None,
            )),
        }
    }

    async fn handle_notification(
        &self,
        notification: ServerNotification,
        _context: NotificationContext<RoleClient>,
    ) -> Result<(), ErrorData> {
        let notification = match notification {
            ServerNotification::ProgressNotification(mut progress) => {
                // Progress of no call in flight is no downstream client's.
                let upstream = progress.params.progress_token.clone();
                let Some(token) = self.state.pass_one(&upstream) else {
                    return Ok(());
                };
                progress.params.progress_token = token;
                if let Some(downstream) = &self.downstream {
                    let progress = ServerNotification::ProgressNotification(progress);
                    let _ = downstream.send_notification(progress).await;
                }
                self.state.passed_one(&upstream);
                return Ok(());
            }
            ServerNotification::ToolListChangedNotification(changed) => {
                self.state.tools_stale.store(true, Ordering::Release);
                ServerNotification::ToolListChangedNotification(changed)
            }
            other => other,
        };
        if let Some(downstream) = &self.downstream {
            // A client gone is told nothing more; the upstream is not to hear of it.
            let _ = downstream.send_notification(notification).await;
        }
        Ok(())
    }

    fn get_info(&self) -> ClientConfig {
        self.client.clone()
    }
}
