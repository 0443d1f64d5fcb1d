//! The connection table: a place for each open connection, and room for a newcomer when it is
//! full. Then a connection with nothing in flight (a silent socket, an idle keep-alive, a
//! head still trickling in) is closed to make room, one of the client holding the most
//! connections; only when every connection has a request in flight is the newcomer refused.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};

use super::connection::Busy;

/// How long a newcomer waits for the connection closed to make room for it.
const SHED_WAIT: Duration = Duration::from_secs(1);

/// Every open connection, against the cap.
pub(super) struct Table {
    places: Arc<Semaphore>,
    open: Mutex<HashMap<u64, Open>>,
    next: AtomicU64,
}

/// What the table knows of one open connection.
struct Open {
    client: IpAddr,
    busy: Arc<Busy>,
    /// Told when the connection is to close to make room.
    shed: Arc<Notify>,
    /// It was told already: no second newcomer counts on it.
    shedding: bool,
}

/// One connection's place in the table, given back when dropped.
pub(super) struct Place {
    table: Arc<Table>,
    id: u64,
    _permit: OwnedSemaphorePermit,
}

impl Drop for Place {
    fn drop(&mut self) {
        self.table.lock().remove(&self.id);
    }
}

impl Table {
    pub(super) fn new(max: usize) -> Arc<Table> {
        Arc::new(Table {
            places: Arc::new(Semaphore::new(max)),
            open: Mutex::default(),
            next: AtomicU64::new(0),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Open>> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A place for a connection of `client` (what it has in flight is `busy`; `shed` is told
    /// when it must close to make room): at once while the table has room, else once an idle
    /// connection closed to make room has gone; `None` when every connection is busy.
    pub(super) async fn admit(
        self: &Arc<Self>,
        client: IpAddr,
        busy: Arc<Busy>,
        shed: Arc<Notify>,
    ) -> Option<Place> {
        let permit = match Arc::clone(&self.places).try_acquire_owned() {
            Ok(permit) => permit,
            Err(_) => {
                if !self.shed_one() {
                    return None;
                }
                let waited =
                    tokio::time::timeout(SHED_WAIT, Arc::clone(&self.places).acquire_owned());
                waited.await.ok()?.ok()?
            }
        };
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let open = Open {
            client,
            busy,
            shed,
            shedding: false,
        };
        self.lock().insert(id, open);
        Some(Place {
            table: Arc::clone(self),
            id,
            _permit: permit,
        })
    }

    /// Tells one idle connection, of the client holding the most, to close; `false` when
    /// none is idle.
    fn shed_one(&self) -> bool {
        let mut open = self.lock();
        let mut held: HashMap<IpAddr, usize> = HashMap::new();
        for connection in open.values() {
            *held.entry(connection.client).or_default() += 1;
        }
        let victim = open
            .iter()
            .filter(|(_, connection)| !connection.shedding && connection.busy.is_idle())
            .max_by_key(|(id, connection)| (held[&connection.client], std::cmp::Reverse(**id)))
            .map(|(id, _)| *id);
        let Some(connection) = victim.and_then(|id| open.get_mut(&id)) else {
            return false;
        };
        connection.shedding = true;
        connection.shed.notify_one();
        true
    }
}
