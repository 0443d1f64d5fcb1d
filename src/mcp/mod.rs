//! Serving contracts as tools of the official Rust MCP SDK (`rmcp`), behind the `rmcp` feature.
//!
//! One builder, [`Tools`], one [`Handler`] trait, one `tool` method, and one call path (the
//! private module `call`), for two forms:
//!
//! - [`build`](Tools::build) makes a [`StitchRouter`], which adds to the rmcp
//!   [`ToolRouter`](rmcp::handler::server::router::tool::ToolRouter) of a server written with
//!   rmcp's own macros (`#[tool_router]`, `#[tool_handler]`, prompts and resources beside): a
//!   handler is a method of the server, `async fn(&self, Contract) -> R`, taking after its
//!   contract any of rmcp's request extractors, as rmcp's tools are; the routers add with `+`.
//! - [`toolbox`](Tools::toolbox) makes a [`Toolbox`], the short form: a whole
//!   [`rmcp::ServerHandler`] made of stitch tools whose handlers are closures.
//!
//! What a handler answers ([`Reply`]) decides what the client gets, as in rmcp: text, structured
//! output with an output schema ([`Json<T>`]), or any rmcp content.
//!
//! What either adds to rmcp alone: each tool advertises its flat, typed schema; every call
//! goes through [`Contract::parse`](crate::Contract::parse), so a bad call is
//! answered as an `isError` tool result naming each issue's JSON Pointer (in
//! `structuredContent`, or in `_meta` for a tool with an output schema: a result the model can
//! read and correct, not a bare `-32602` nor rmcp's text-only fallback); a handler's error is
//! an `isError` result too, and so is a panic (naming nothing of the handler's internals);
//! one observer sees every call, accepted or rejected, for audit;
//! and the guard runs over every stitch tool when the router or the toolbox is built
//! ([`check_router`] checks a whole router, plain rmcp tools included).
//!
//! Clients disagree on JSON Schema: [`ClientDialects`] shows each client the
//! [`Dialect`](crate::Dialect) it takes, decided from the name it gives, and parses
//! its calls in that dialect; [`InDialects`] wraps a whole server (with the router's
//! [`Listings`]) so that every tool, stitch's and plain rmcp tools alike, is listed to each
//! client in its dialect, inputs and outputs.
//!
//! Every tool a [`Toolbox`] or an [`InDialects`] lists carries its digest,
//! `_meta["stitch/digest"]` ([`DIGEST_META_KEY`], [`listed_tool_digest`]: SHA-256 of the whole
//! tool's canonical JSON), and every tool listed and every result answered carries the
//! catalog's stamp, `_meta["stitch/catalog"]` ([`CATALOG_META_KEY`]), derived from the
//! digests: a client whose listing's stamp differs from an answer's holds a stale catalog,
//! which a stateless server cannot tell it otherwise.
//! [`Listings::manifest`] lists every tool in every dialect with its digest, for a snapshot
//! test.
//!
//! [`HttpServer`] (feature `http`) serves any rmcp server over streamable HTTP with the limits
//! a server on a network needs.
//!
//! The modules go one way down: `schema` (a stitch tool as rmcp lists it) → `handler` (what
//! a handler takes and answers) → `call` (one call)
//! → `catalog` (the stamp on the wire) → `dialects` (which client sees which dialect) →
//! `route` (the router) → `toolbox`;
//! `in_dialects` (a whole server in each client's dialect), `legacy_output` (an output older
//! clients cannot take), `list_cache` (how long a listing is fresh) and `http` sit beside
//! them.

/// The official Rust MCP SDK, with its server and its stdio transport: what a server built
/// on stitch needs beside it, so a server depends on stitch (and an async runtime) alone.
pub use rmcp;

mod call;
mod catalog;
mod dialects;
mod handler;
#[cfg(feature = "http")]
mod http;
mod in_dialects;
mod legacy_output;
mod list_cache;
mod route;
mod schema;
mod toolbox;

pub use call::{CallRecord, Outcome};
pub use catalog::{CATALOG_META_KEY, DIGEST_META_KEY, OVER_BUDGET_META_KEY, listed_tool_digest};
pub use dialects::{ClientDialects, Listings, listing_budget_use};
/// rmcp's structured answer, as a stitch handler gives it: a handler answering `Json<T>` (or
/// a `Result` of one) sends the value as `structuredContent` and advertises `T`'s schema as
/// the tool's `outputSchema`, so `T` derives [`Shape`](crate::Shape) as well as
/// `serde::Serialize` (it is a [`ToolOutput`]); in a closure, name the error type of its
/// `Result` (`Ok::<_, String>(Json(total))`), which nothing else in the closure says.
#[doc(inline)]
pub use handler::Json;
pub use handler::{Closure, Handler, Method, Reply, RequestParts, ToolOutput};
#[cfg(feature = "http")]
pub use http::{ForwardedHeader, HttpListener, HttpServer};
pub use in_dialects::InDialects;
pub use legacy_output::LegacyOutput;
pub use list_cache::DEFAULT_LIST_TTL;
pub use route::{StitchRouter, Tools, check_router, check_tools};
pub use toolbox::Toolbox;
