//! Arbitrary bytes → JSON → `flatten_tool_schema`, `tool_schema_for` in every dialect, and the
//! guard over what they give: none may panic, and each gives JSON whose text reads back as
//! JSON. (Not as *itself*: serde_json without `float_roundtrip` may read a float's text back
//! one unit in the last place off, which the first run of this target found.)
//!
//! A document's IR lives for one call and is dropped with it, so a long run holds no more
//! memory than its largest input needs: the default `-rss_limit_mb` is room enough.
//!
//! Seeds: the hostile shapes `tests/foreign_bounds.rs`, `foreign_meaning.rs` and
//! `foreign_open.rs` prove, small (a `$ref` chain, definitions referring to the next twice
//! over, many operations, an open operation, older drafts, nulls with a meaning, type arrays,
//! records, a union without a discriminator):
//! `cargo fuzz run foreign_schema fuzz/corpus/foreign_schema fuzz/seeds/foreign_schema`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use stitch::{Dialect, SchemaProfile};

fuzz_target!(|data: &[u8]| {
    let Ok(document) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    for &dialect in Dialect::ALL {
        let shown = stitch::foreign::tool_schema_for(&document, dialect);
        let text = shown.to_string();
        let again = serde_json::from_str::<Value>(&text);
        assert!(again.is_ok(), "the rebuilt schema's text is JSON: {text}");
        let profile = SchemaProfile::new().require_typed_properties().dialect(dialect);
        let _ = stitch::guard::check(&[stitch::guard::Checked::Listed { name: "fuzzed", description: "", input: &shown }], &profile);
    }
    let _ = stitch::foreign::flatten_tool_schema(&document);
});
