//! One upstream session and what the gateway keeps of it: its tools, listed once and again
//! only after the upstream says they changed, and the state its relay shares (progress
//! tokens of the calls in flight, the listing gone stale). Dropping the link ends the session
//! (and stops the upstream's process).

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{ClientConfig, ErrorCode, ErrorData, ServerConfig};
use rmcp::service::{Peer, RunningService};
use rmcp::{RoleClient, RoleServer};

use crate::relay::{LinkState, Relay};
use crate::tools::{Listed, SharedListing};
use crate::upstream::{self, Upstream};

/// A session with the upstream.
pub struct Link {
    service: RunningService<RoleClient, Relay>,
    info: ServerConfig,
    state: Arc<LinkState>,
    name: String,
    listed: Mutex<Option<Arc<Listed>>>,
    /// One listing of the upstream at a time: callers that find the listing stale together
    /// wait for one answer.
    listing: tokio::sync::Mutex<()>,
}

impl Link {
    /// A new session with `upstream`, whose requests to its client go to `downstream` (none
    /// where the gateway serves statelessly), and which is told its client is `client`;
    /// opened within `deadline`.
    pub async fn open(
        upstream: &Upstream,
        downstream: Option<Peer<RoleServer>>,
        client: ClientConfig,
        deadline: Duration,
    ) -> Result<Link, String> {
        let state = Arc::new(LinkState::default());
        let relay = Relay {
            downstream,
            client,
            state: Arc::clone(&state),
        };
        let service = upstream.connect(relay, deadline).await?;
        let info = info_of(service.peer());
        Ok(Link {
            service,
            info,
            state,
            name: upstream.name().to_owned(),
            listed: Mutex::new(None),
            listing: tokio::sync::Mutex::new(()),
        })
    }

    pub fn peer(&self) -> &Peer<RoleClient> {
        self.service.peer()
    }

    pub fn state(&self) -> &LinkState {
        &self.state
    }

    /// What the upstream answered `initialize`, as the gateway answers its own clients: the
    /// upstream's capabilities, name, instructions and version (read once, when the session
    /// opened: rmcp asks for it on every request).
    pub fn info(&self) -> ServerConfig {
        self.info.clone()
    }

    /// The upstream's tools as last listed, if they were.
    pub fn held(&self) -> Option<Arc<Listed>> {
        self.lock().clone()
    }

    /// The upstream's tools: as last listed, unless the upstream said they changed since (or
    /// none were listed yet); then listed again, and held in `shared` with every session's.
    pub async fn tools(&self, shared: &SharedListing) -> Result<Arc<Listed>, ErrorData> {
        if let Some(held) = self.fresh() {
            return Ok(held);
        }
        let _one_at_a_time = self.listing.lock().await;
        if let Some(held) = self.fresh() {
            return Ok(held);
        }
        // Cleared before listing: a change said while the listing is under way lists again.
        self.state.tools_stale.store(false, Ordering::Release);
        let tools = upstream::list_tools(self.peer(), &self.name)
            .await
            .map_err(|error| ErrorData::new(ErrorCode::INTERNAL_ERROR, error, None))?;
        let listed = shared.hold(tools);
        *self.lock() = Some(Arc::clone(&listed));
        Ok(listed)
    }

    fn fresh(&self) -> Option<Arc<Listed>> {
        if self.state.tools_stale.load(Ordering::Acquire) {
            return None;
        }
        self.held()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Arc<Listed>>> {
        self.listed
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// What the upstream answered `initialize`, as a server's own answer.
fn info_of(peer: &Peer<RoleClient>) -> ServerConfig {
    let Some(upstream) = peer.peer_info() else {
        return ServerConfig::new(Default::default());
    };
    let mut info = ServerConfig::new(upstream.capabilities.clone())
        .with_protocol_version(upstream.protocol_version.clone());
    if let Some(server) = &upstream.server_info {
        info = info.with_server_info(server.clone());
    }
    if let Some(instructions) = &upstream.instructions {
        info = info.with_instructions(instructions.clone());
    }
    info.meta = upstream.meta.clone();
    info
}
