//! A listing is rendered once per dialect for as long as the server lists the same tools: a
//! server wrapped in `InDialects` (a gateway before another server, say) is listed again on
//! every `tools/list`, and each tool's schemas are rebuilt in the caller's dialect only when
//! the tools changed. What is listed again is the very rendering kept (the same `Arc`s), and a
//! changed tool is rendered anew.
#![cfg(feature = "rmcp")]

use std::sync::Arc;

use serde_json::{Value, json};
use stitch::Dialect;
use stitch::mcp::rmcp::model::Tool;
use stitch::mcp::{ClientDialects, Listings};

fn tool(name: &str, description: &str) -> Tool {
    let Value::Object(schema) = json!({
        "type": "object",
        "properties": {"id": {"anyOf": [{"type": "integer"}, {"type": "null"}]}}
    }) else {
        panic!("an object")
    };
    Tool::new(name.to_owned(), description.to_owned(), Arc::new(schema))
}

#[test]
fn the_same_tools_are_listed_from_one_rendering_per_dialect() {
    let listings = Listings::from(ClientDialects::new(Dialect::Mcp));
    let listed = vec![tool("a", "One."), tool("b", "Two.")];
    for &dialect in Dialect::ALL {
        let first = listings.listing(listed.clone(), dialect);
        let again = listings.listing(listed.clone(), dialect);
        for (first, again) in first.iter().zip(&again) {
            assert!(
                Arc::ptr_eq(&first.input_schema, &again.input_schema),
                "{dialect}: `{}` was rendered again for the same listing",
                first.name
            );
        }
        assert_eq!(first, again);
    }
}

#[test]
fn a_changed_tool_is_rendered_anew() {
    let listings = Listings::from(ClientDialects::new(Dialect::Mcp));
    let first = listings.listing(vec![tool("a", "One.")], Dialect::OpenAiStrict);
    let changed = listings.listing(vec![tool("a", "Changed.")], Dialect::OpenAiStrict);
    assert!(!Arc::ptr_eq(
        &first[0].input_schema,
        &changed[0].input_schema
    ));
    assert_eq!(changed[0].description.as_deref(), Some("Changed."));
    assert_ne!(
        first[0].meta, changed[0].meta,
        "the digest follows the tool"
    );
}
