//! The catalog stamp on the wire: `_meta["stitch/catalog"]` on every tool a client is listed
//! and on every result it is answered, the digest of the whole catalog as that client's
//! dialect lists it ([`stitch::measure::catalog_stamp`](crate::measure::catalog_stamp)). A stateless server
//! cannot tell a client that its tools changed; a client that compares the stamp of an answer
//! with the one it listed learns it.
//!
//! The stamp is kept per dialect with the listing it was made from, and made anew only when a
//! tool of a new listing is not the same one (its name, description, or the very schemas it
//! holds). A stitch router's result carries the stamp of what it lists now (its own listing
//! is cheap: rmcp's router clones `Arc`s); a server wrapped in `InDialects` is not listed
//! again per call, so its result carries the stamp of the listing last made in the caller's
//! dialect, which a client that re-lists (on `notifications/tools/list_changed`, or after a
//! stamp it does not hold) makes anew.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use rmcp::model::{CallToolResponse, JsonObject, MetaObject, Tool};
use serde_json::Value;
use stitch_runtime::Dialect;

/// The `_meta` key of the catalog stamp.
pub const CATALOG_META_KEY: &str = "stitch/catalog";

/// The stamps made so far, per dialect, each with the listing it was made from.
#[derive(Debug, Default)]
pub(crate) struct Catalogs {
    stamps: Mutex<HashMap<Dialect, Stamped>>,
}

#[derive(Debug)]
struct Stamped {
    listed: Vec<Source>,
    stamp: Arc<str>,
}

/// A tool as the server listed it, before any dialect: held, so its schemas' addresses
/// cannot be reused while the stamp stands.
#[derive(Debug)]
struct Source {
    name: Cow<'static, str>,
    description: Option<Cow<'static, str>>,
    input: Arc<JsonObject>,
    output: Option<Arc<JsonObject>>,
}

impl Source {
    fn of(tool: &Tool) -> Source {
        Source {
            name: tool.name.clone(),
            description: tool.description.clone(),
            input: Arc::clone(&tool.input_schema),
            output: tool.output_schema.clone(),
        }
    }

    fn is(&self, tool: &Tool) -> bool {
        self.name == tool.name
            && self.description == tool.description
            && Arc::ptr_eq(&self.input, &tool.input_schema)
            && match (&self.output, &tool.output_schema) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                (None, None) => true,
                _ => false,
            }
    }
}

impl Catalogs {
    /// The stamp of `listed` (the server's own listing) in `dialect`: kept when the listing
    /// is the one it was made from, else made by `digest` (the digests of each tool as the
    /// dialect lists it) and kept.
    pub(crate) fn stamp(
        &self,
        dialect: Dialect,
        listed: &[Tool],
        digest: impl FnOnce() -> Vec<(String, u64)>,
    ) -> Arc<str> {
        let same = |stamped: &Stamped| {
            stamped.listed.len() == listed.len()
                && stamped
                    .listed
                    .iter()
                    .zip(listed)
                    .all(|(source, tool)| source.is(tool))
        };
        if let Some(stamped) = self.lock().get(&dialect).filter(|stamped| same(stamped)) {
            return Arc::clone(&stamped.stamp);
        }
        let stamp: Arc<str> = stitch_runtime::catalog_stamp(digest()).into();
        let stamped = Stamped {
            listed: listed.iter().map(Source::of).collect(),
            stamp: Arc::clone(&stamp),
        };
        self.lock().insert(dialect, stamped);
        stamp
    }

    /// The stamp of the listing last made in `dialect`, if one was.
    pub(crate) fn held(&self, dialect: Dialect) -> Option<Arc<str>> {
        self.lock()
            .get(&dialect)
            .map(|stamped| Arc::clone(&stamped.stamp))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Dialect, Stamped>> {
        self.stamps
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// `_meta` with the stamp in it (the rest kept).
fn stamped_meta(meta: &mut Option<MetaObject>, stamp: &str) {
    meta.get_or_insert_with(|| MetaObject(JsonObject::new()))
        .0
        .insert(CATALOG_META_KEY.to_owned(), Value::String(stamp.to_owned()));
}

/// A listed tool, stamped.
pub(crate) fn stamp_tool(tool: &mut Tool, stamp: &str) {
    stamped_meta(&mut tool.meta, stamp);
}

/// A call's answer, stamped (a result; an answer that is not one yet, a task or a request
/// for input, is left as it is).
pub(crate) fn stamp_response(response: &mut CallToolResponse, stamp: &str) {
    if let CallToolResponse::Complete(result) = response {
        stamped_meta(&mut result.meta, stamp);
    }
}

/// The digest of a tool as listed, from the texts of its schemas.
pub(crate) fn digest_of(tool: &Tool, input: &str, output: Option<&str>) -> u64 {
    use stitch_runtime::{text_digest, tool_digest};
    tool_digest(
        text_digest(&tool.name),
        text_digest(tool.description.as_deref().unwrap_or_default()),
        text_digest(input),
        output.map(text_digest),
    )
}
