//! List caching (SEP-2549, protocol 2026-07-28): how long a client may treat a `tools/list`
//! answer as fresh (`ttlMs`), and who may cache it (`cacheScope`). rmcp answers the most
//! cautious hints (`0`, `"private"`) for a server that gives none. A catalog of stitch tools
//! is fixed when the server is built (every schema is rendered at compile time, or once per
//! dialect), which is where a long TTL is safe: a listing made through
//! [`Listings`](super::Listings) says so, with the TTL its author sets
//! ([`Tools::list_ttl`](super::Tools::list_ttl), [`DEFAULT_LIST_TTL`] otherwise).
//!
//! Who may cache it is another matter. A `"public"` answer may be served by any client, shared
//! gateway or caching proxy to any user, keyed by the method and its parameters: the client's
//! name is not in the key. So a listing is `"public"` only where it is the same for every
//! caller of its endpoint: the rules show everyone one dialect, or the endpoint fixes the
//! dialect (an [`HttpServer`](super::HttpServer) path per dialect); and, for a wrapped server,
//! only where that server itself said `"public"`. Everywhere else it is `"private"`.
//!
//! A client holding a stale catalog past a redeploy still learns of it from the first result
//! it gets: every result carries the catalog stamp (`_meta["stitch/catalog"]`), the value a
//! future `ETag` would carry.

use std::time::Duration;

use rmcp::model::{CacheScope, ListToolsResult};

/// How long a client may treat a listing of stitch tools as fresh, unless the author says
/// otherwise: an hour. The catalog changes only when the server is rebuilt, and a client
/// told a result of another catalog lists again.
pub const DEFAULT_LIST_TTL: Duration = Duration::from_secs(60 * 60);

/// A listing's hints: fresh for `ttl`; cacheable by anyone where it is the same for every
/// caller of its endpoint (`shared`), by the caller alone otherwise.
pub(crate) fn hint(listed: &mut ListToolsResult, ttl: Duration, shared: bool) {
    listed.ttl_ms = Some(millis(ttl));
    listed.cache_scope = Some(scope(shared));
}

/// A wrapped server's listing, relisted in each client's dialect: its own TTL where it gives
/// one, made no longer than `ttl`; `"public"` only where the server said so and the relisting
/// is the same for every caller of the endpoint (`shared`).
/// rmcp's `#[tool_handler]` answers a TTL of 0 for a server that says nothing, so 0 reads as
/// nothing said: a server whose tools change while it runs says so to the listings
/// (`Tools::list_ttl(Duration::ZERO)`).
pub(crate) fn more_cautious(listed: &mut ListToolsResult, ttl: Duration, shared: bool) {
    let ours = millis(ttl);
    let theirs = listed.ttl_ms.filter(|theirs| *theirs > 0);
    listed.ttl_ms = Some(theirs.map_or(ours, |theirs| theirs.min(ours)));
    let public = listed.cache_scope == Some(CacheScope::Public);
    listed.cache_scope = Some(scope(shared && public));
}

fn scope(public: bool) -> CacheScope {
    if public {
        CacheScope::Public
    } else {
        CacheScope::Private
    }
}

fn millis(ttl: Duration) -> u64 {
    u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a wrapped server's listing hints once ours (an hour) are applied to them, the
    /// relisting the same for every caller (`shared`) or not.
    fn kept(
        ttl_ms: Option<u64>,
        scope: Option<CacheScope>,
        ours: Duration,
        shared: bool,
    ) -> (Option<u64>, Option<CacheScope>) {
        let mut listed = ListToolsResult::with_all_items(Vec::new());
        listed.ttl_ms = ttl_ms;
        listed.cache_scope = scope;
        more_cautious(&mut listed, ours, shared);
        (listed.ttl_ms, listed.cache_scope)
    }

    #[test]
    fn a_wrapped_servers_hints_are_kept_no_bolder_than_ours() {
        let hour = Duration::from_secs(3600);
        let public = Some(CacheScope::Public);
        let private = Some(CacheScope::Private);
        assert_eq!(kept(None, None, hour, true), (Some(3_600_000), private));
        assert_eq!(
            kept(Some(5_000), private, hour, true),
            (Some(5_000), private)
        );
        assert_eq!(kept(Some(86_400_000), None, hour, true).0, Some(3_600_000));
        // What `#[tool_handler]` answers for a server that says nothing.
        assert_eq!(kept(Some(0), public, hour, true), (Some(3_600_000), public));
        assert_eq!(
            kept(None, None, Duration::ZERO, true).0,
            Some(0),
            "a server whose tools change says 0"
        );
    }

    #[test]
    fn a_listing_that_differs_by_caller_is_private_whatever_the_server_says() {
        let hour = Duration::from_secs(3600);
        let public = Some(CacheScope::Public);
        assert_eq!(
            kept(Some(0), public, hour, false).1,
            Some(CacheScope::Private)
        );
        let mut own = ListToolsResult::with_all_items(Vec::new());
        hint(&mut own, hour, false);
        assert_eq!(own.cache_scope, Some(CacheScope::Private));
        hint(&mut own, hour, true);
        assert_eq!(own.cache_scope, public);
    }
}
