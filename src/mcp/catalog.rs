//! What identifies what a client was listed, on the wire. Each listed tool carries its digest,
//! `_meta["stitch/digest"]`: the lowercase hex SHA-256 of the RFC 8785 (JCS) canonical JSON
//! of the whole tool as listed in the client's dialect (name, title, description, both
//! schemas, annotations, `_meta`), so a client can pin a tool and see any change to it, its
//! annotations included. Every listed tool and every result carries the catalog stamp,
//! `_meta["stitch/catalog"]`, derived from the digests of every tool the client was listed
//! ([`stitch::measure::catalog_stamp`](crate::measure::catalog_stamp)). A stateless server
//! cannot tell a client that its tools changed; a client that compares the stamp of an answer
//! with the one it listed learns it.
//!
//! The digests and the stamp are kept per dialect with the listing they were made from, and
//! made anew only when a tool of a new listing is not the same one (its name, description, or
//! the very schemas it holds). A stitch router's result carries the stamp of what it lists now
//! (its own listing is cheap: rmcp's router clones `Arc`s); a server wrapped in `InDialects` is
//! not listed again per call, so its result carries the stamp of the listing last made in the
//! caller's dialect, which a client that re-lists (on `notifications/tools/list_changed`, or
//! after a stamp it does not hold) makes anew.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::Dialect;
use rmcp::model::{CallToolResponse, JsonObject, MetaObject, Tool};
use serde_json::Value;

/// The `_meta` key of the catalog stamp.
pub const CATALOG_META_KEY: &str = "stitch/catalog";

/// The `_meta` key of a listed tool's digest.
pub const DIGEST_META_KEY: &str = "stitch/digest";

/// The catalogs made so far, per dialect, each with the listing it was made from.
#[derive(Debug, Default)]
pub(crate) struct Catalogs {
    stamps: Mutex<HashMap<Dialect, Stamped>>,
}

/// One dialect's catalog: each tool as the dialect lists it (stamped), each tool's digest, in
/// the listing's order, the stamp, and each budget of the dialect's provider the listing
/// crosses.
#[derive(Clone, Debug)]
pub(crate) struct Catalog {
    pub(crate) shown: Arc<[Tool]>,
    pub(crate) digests: Arc<[Arc<str>]>,
    pub(crate) stamp: Arc<str>,
    pub(crate) over_budget: Arc<[String]>,
}

/// What a catalog is made of: each tool as the dialect lists it and its digest (in the
/// listing's order), and each budget crossing, said.
pub(crate) struct Made {
    pub(crate) shown: Vec<Tool>,
    pub(crate) digests: Vec<String>,
    pub(crate) over_budget: Vec<String>,
}

#[derive(Debug)]
struct Stamped {
    listed: Vec<Source>,
    catalog: Catalog,
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
    /// The catalog of `listed` (the server's own listing) in `dialect`: kept when the listing
    /// is the one it was made from, else `make`s (each tool as the dialect lists it and its
    /// digest, in the listing's order, and the budgets crossed), stamps and keeps. So a
    /// listing is rendered once per dialect for as long as the server lists the same tools.
    pub(crate) fn catalog(
        &self,
        dialect: Dialect,
        listed: &[Tool],
        make: impl FnOnce() -> Made,
    ) -> Catalog {
        let same = |stamped: &Stamped| {
            stamped.listed.len() == listed.len()
                && stamped
                    .listed
                    .iter()
                    .zip(listed)
                    .all(|(source, tool)| source.is(tool))
        };
        if let Some(stamped) = self.lock().get(&dialect).filter(|stamped| same(stamped)) {
            return stamped.catalog.clone();
        }
        let Made {
            mut shown,
            digests,
            over_budget,
        } = make();
        let stamp = crate::measure::catalog_stamp(
            listed
                .iter()
                .zip(&digests)
                .map(|(tool, digest)| (tool.name.to_string(), digest.clone())),
        );
        for (tool, digest) in shown.iter_mut().zip(&digests) {
            stamp_tool(tool, &stamp, digest);
        }
        let catalog = Catalog {
            shown: shown.into(),
            digests: digests.into_iter().map(Arc::from).collect(),
            stamp: stamp.into(),
            over_budget: over_budget.into(),
        };
        let stamped = Stamped {
            listed: listed.iter().map(Source::of).collect(),
            catalog: catalog.clone(),
        };
        self.lock().insert(dialect, stamped);
        catalog
    }

    /// The catalog of the listing last made in `dialect`, if one was.
    pub(crate) fn held(&self, dialect: Dialect) -> Option<Catalog> {
        self.lock()
            .get(&dialect)
            .map(|stamped| stamped.catalog.clone())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Dialect, Stamped>> {
        self.stamps
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// `_meta` with `key` set to `value` (the rest kept).
fn with_meta(meta: &mut Option<MetaObject>, key: &str, value: &str) {
    meta.get_or_insert_with(|| MetaObject(JsonObject::new()))
        .0
        .insert(key.to_owned(), Value::String(value.to_owned()));
}

/// A listed tool, with its digest and the catalog's stamp.
fn stamp_tool(tool: &mut Tool, stamp: &str, digest: &str) {
    with_meta(&mut tool.meta, DIGEST_META_KEY, digest);
    with_meta(&mut tool.meta, CATALOG_META_KEY, stamp);
}

/// The `_meta` key under which a listing's result says each budget of the caller's dialect's
/// provider that the listing crosses (the provider would refuse the request).
pub const OVER_BUDGET_META_KEY: &str = "stitch/over_budget";

/// A listing's result, saying each budget the listing crosses (nothing when it crosses none).
pub(crate) fn report_over_budget(listed: &mut rmcp::model::ListToolsResult, catalog: &Catalog) {
    if catalog.over_budget.is_empty() {
        return;
    }
    let said = catalog
        .over_budget
        .iter()
        .map(|finding| Value::String(finding.clone()))
        .collect();
    listed
        .meta
        .get_or_insert_with(|| MetaObject(JsonObject::new()))
        .0
        .insert(OVER_BUDGET_META_KEY.to_owned(), Value::Array(said));
}

/// A call's answer, stamped (a result; an answer that is not one yet, a task or a request
/// for input, is left as it is).
pub(crate) fn stamp_response(response: &mut CallToolResponse, stamp: &str) {
    if let CallToolResponse::Complete(result) = response {
        with_meta(&mut result.meta, CATALOG_META_KEY, stamp);
    }
}

/// The digest of a tool as listed: the lowercase hex SHA-256 of the RFC 8785 (JCS) canonical
/// JSON of the whole tool (name, title, description, input and output schemas, annotations,
/// `_meta`), its `_meta` without stitch's own keys (the digest itself, and the catalog stamp,
/// which is derived from the digests) and left out when nothing else is in it.
///
/// ```
/// use std::sync::Arc;
/// use stitch::mcp::{listed_tool_digest, rmcp::model::Tool};
///
/// let schema = serde_json::json!({"type": "object"});
/// let tool = Tool::new("t", "A tool.", Arc::new(schema.as_object().unwrap().clone()));
/// let digest = listed_tool_digest(&tool);
/// assert_eq!(digest.len(), 64);
/// let mut annotated = tool.clone();
/// annotated.annotations = Some(Default::default());
/// assert_ne!(listed_tool_digest(&annotated), digest);
/// ```
pub fn listed_tool_digest(tool: &Tool) -> String {
    use sha2::{Digest, Sha256};

    let mut value = serde_json::to_value(tool).unwrap_or(Value::Null);
    if let Value::Object(fields) = &mut value
        && let Some(Value::Object(meta)) = fields.get_mut("_meta")
    {
        meta.remove(DIGEST_META_KEY);
        meta.remove(CATALOG_META_KEY);
        if meta.is_empty() {
            fields.remove("_meta");
        }
    }
    // A tool serialized by serde_json is JSON that JCS takes; an error is no digest to pin.
    let canonical = serde_jcs::to_vec(&value).unwrap_or_default();
    Sha256::digest(&canonical)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}
