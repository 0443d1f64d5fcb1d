//! Sessions kept by what they do: a session is active while a request of it is in flight (a
//! call that runs long; an open stream of server messages is not one, see `streams`) and for
//! `idle` after its last one ends, and only then
//! closed, so that its next request is answered 404 and the client opens another, as the
//! specification asks (rmcp's own timer counts only messages, and leaves a dead session in
//! its table, answering 500). The table is fair: one remote address holds at most its share of
//! the sessions (past it, its own least recently active idle session gives way), and when the
//! table is full a new session takes the place of an idle one (nothing in flight) of the
//! client holding the most (between equals, the one that opened a session last), its least
//! recently active; only when no session is idle (every one busy) is a new session refused. Admission reserves: a session is counted against both caps from the
//! moment it is admitted, before its `initialize` is read, and its place is given back if it
//! does not open, so requests racing on many streams cannot pass a cap.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::transport::streamable_http_server::SessionManager;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use tokio::time::Instant;

/// Every session the server holds, with what it does.
pub(super) struct Sessions {
    manager: Arc<LocalSessionManager>,
    table: Mutex<HashMap<String, Activity>>,
    /// The number of the next reservation (its key in the table, until its session opens).
    reservations: std::sync::atomic::AtomicU64,
    idle: Duration,
    max: usize,
    max_per_address: usize,
}

/// What one session does.
struct Activity {
    address: IpAddr,
    /// When the session was admitted.
    opened: Instant,
    last: Instant,
    in_flight: usize,
    /// A place reserved for a session not open yet: counted, never given way.
    reserved: bool,
}

/// The session a full table gives up for a newcomer: one of the client holding the most
/// sessions; between clients holding as many, of the one that opened a session last (a
/// client opening session after session pays for its own, not a quiet one that holds one
/// and calls now and then); of that client's, the least recently active with nothing in
/// flight.
fn of_the_most_holding(table: &HashMap<String, Activity>) -> Option<String> {
    let mut clients: HashMap<IpAddr, (usize, Instant)> = HashMap::new();
    for activity in table.values() {
        let client = clients
            .entry(activity.address)
            .or_insert((0, activity.opened));
        client.0 += 1;
        client.1 = client.1.max(activity.opened);
    }
    table
        .iter()
        .filter(|(_, a)| a.in_flight == 0 && !a.reserved)
        .max_by_key(|(_, a)| {
            let (held, last_opened) = clients[&a.address];
            (held, last_opened, std::cmp::Reverse(a.last))
        })
        .map(|(id, _)| id.clone())
}

/// A place reserved in the table for a session being opened: the session's once it opens
/// ([`open`](Reservation::open)), given back if it does not.
pub(super) struct Reservation {
    sessions: Arc<Sessions>,
    key: String,
    address: IpAddr,
}

impl Reservation {
    /// The session opened, with the id its answer gave: it takes the reserved place.
    pub(super) fn open(self, id: &str) {
        let mut table = self.sessions.lock();
        table.remove(&self.key);
        table.insert(
            id.to_owned(),
            Activity {
                address: self.address,
                opened: Instant::now(),
                last: Instant::now(),
                in_flight: 0,
                reserved: false,
            },
        );
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        self.sessions.lock().remove(&self.key);
    }
}

/// One request of a session in flight; its end is the session's activity.
pub(super) struct InFlight {
    sessions: Arc<Sessions>,
    id: String,
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let mut table = self.sessions.lock();
        if let Some(activity) = table.get_mut(&self.id) {
            activity.in_flight = activity.in_flight.saturating_sub(1);
            activity.last = Instant::now();
        }
    }
}

impl Sessions {
    pub(super) fn new(
        manager: Arc<LocalSessionManager>,
        idle: Duration,
        max: usize,
        max_per_address: usize,
    ) -> Sessions {
        Sessions {
            manager,
            table: Mutex::default(),
            reservations: std::sync::atomic::AtomicU64::new(0),
            idle,
            max,
            max_per_address,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Activity>> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A place for a new session from `address`, reserved at once against both caps. An
    /// address that holds its share already gives up its own least recently active session
    /// with nothing in flight; a full table gives up the least recently active of all such
    /// sessions (taken out of the table before the lock is let go, so that no two newcomers
    /// count on the same place). `Err` with the reason when the session that would give way
    /// does not exist: every one is busy.
    pub(super) async fn admit(self: &Arc<Self>, address: IpAddr) -> Result<Reservation, String> {
        let key = format!(
            "reserved {}",
            self.reservations
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        );
        let evicted = {
            let mut table = self.lock();
            let held = table.values().filter(|a| a.address == address).count();
            let its_idle_oldest = || {
                table
                    .iter()
                    .filter(|(_, a)| a.in_flight == 0 && !a.reserved && a.address == address)
                    .min_by_key(|(_, a)| a.last)
                    .map(|(id, _)| id.clone())
            };
            let evicted = if held >= self.max_per_address {
                let reason = format!(
                    "too many sessions from one address: at most {}, each busy; try again later",
                    self.max_per_address
                );
                Some(its_idle_oldest().ok_or(reason)?)
            } else if table.len() >= self.max {
                let reason = format!(
                    "too many sessions: at most {} at once, each busy; try again later",
                    self.max
                );
                Some(of_the_most_holding(&table).ok_or(reason)?)
            } else {
                None
            };
            if let Some(id) = &evicted {
                table.remove(id);
            }
            table.insert(
                key.clone(),
                Activity {
                    address,
                    opened: Instant::now(),
                    last: Instant::now(),
                    in_flight: 0,
                    reserved: true,
                },
            );
            evicted
        };
        if let Some(id) = evicted {
            self.close(&id).await;
        }
        Ok(Reservation {
            sessions: Arc::clone(self),
            key,
            address,
        })
    }

    /// Session `id` did something that keeps nothing in flight (it opened a stream): it is
    /// active now.
    pub(super) fn touch(&self, id: &str) {
        if let Some(activity) = self.lock().get_mut(id) {
            activity.last = Instant::now();
        }
    }

    /// A request of session `id` starts; it is in flight until the guard is dropped (its
    /// answer sent whole, or its stream closed).
    pub(super) fn begin(self: &Arc<Self>, id: &str) -> InFlight {
        if let Some(activity) = self.lock().get_mut(id) {
            activity.in_flight += 1;
            activity.last = Instant::now();
        }
        InFlight {
            sessions: Arc::clone(self),
            id: id.to_owned(),
        }
    }

    /// Closes every session idle past the limit with nothing in flight, and forgets those
    /// rmcp no longer holds (a client's `DELETE`).
    pub(super) async fn sweep(&self) {
        let held = self.manager.sessions.read().await;
        let expired: Vec<String> = {
            let mut table = self.lock();
            table.retain(|id, activity| activity.reserved || held.contains_key(id.as_str()));
            table
                .iter()
                .filter(|(_, activity)| {
                    !activity.reserved
                        && activity.in_flight == 0
                        && activity.last.elapsed() > self.idle
                })
                .map(|(id, _)| id.clone())
                .collect()
        };
        drop(held);
        for id in expired {
            self.close(&id).await;
        }
    }

    /// How often the sweep runs: a fraction of the idle limit, so a session outlives it by
    /// little.
    pub(super) fn sweep_every(&self) -> Duration {
        (self.idle / 4).clamp(Duration::from_millis(10), Duration::from_secs(5))
    }

    async fn close(&self, id: &str) {
        self.lock().remove(id);
        let _ = self.manager.close_session(&id.to_owned().into()).await;
    }
}
