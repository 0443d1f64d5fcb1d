//! What the upstream asks of its client, passed to the downstream client: requests (sampling,
//! elicitation, roots) and notifications (progress, logging, resources updated, lists
//! changed) go as they came, each to the one downstream client this upstream session serves.
//! Two things are read on the way: a progress notification's token is turned back into the
//! one the downstream client gave its call, and a tool list changed marks the gateway's
//! listing stale, so the next `tools/list` lists the upstream and renders it again.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use rmcp::model::{
    ClientConfig, ClientResult, ErrorCode, ErrorData, GetMeta, ProgressToken, ServerNotification,
    ServerRequest,
};
use rmcp::service::{NotificationContext, Peer, RequestContext, Service};
use rmcp::{RoleClient, RoleServer};

use crate::forward::{answer_error, without_protocol_meta};

/// What an upstream session and the gateway's side of it share.
#[derive(Debug, Default)]
pub struct LinkState {
    /// The upstream said its tools changed since they were last listed.
    pub tools_stale: AtomicBool,
    /// For each call in flight, the progress token the upstream was given, and the one the
    /// downstream client gave.
    progress: Mutex<HashMap<ProgressToken, ProgressToken>>,
}

impl LinkState {
    /// Progress the upstream reports under `upstream` is reported to the downstream client
    /// under `downstream`, until [`forget_progress`](Self::forget_progress).
    pub fn map_progress(&self, upstream: ProgressToken, downstream: ProgressToken) {
        self.lock().insert(upstream, downstream);
    }

    /// The call under `upstream` has ended.
    pub fn forget_progress(&self, upstream: &ProgressToken) {
        self.lock().remove(upstream);
    }

    fn downstream_token(&self, upstream: &ProgressToken) -> Option<ProgressToken> {
        self.lock().get(upstream).cloned()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<ProgressToken, ProgressToken>> {
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
                let Some(token) = self.state.downstream_token(&progress.params.progress_token)
                else {
                    return Ok(());
                };
                progress.params.progress_token = token;
                ServerNotification::ProgressNotification(progress)
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
