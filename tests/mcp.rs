//! The `rmcp` feature: contracts mounted as MCP tools, bad calls answered as `isError`
//! results with their pointers, handler errors too, the observer seeing every call, and the
//! guard run over every mounted tool when the toolbox is built.
#![cfg(feature = "rmcp")]

use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use serde_json::json;
use stitch::mcp::{Outcome, Toolbox};
use stitch::{Contract, FindingKind, SchemaProfile};

/// Add two numbers.
#[derive(Contract, Deserialize)]
struct Add {
    #[contract(min = 0)]
    a: i64,
    b: i64,
}

/// The sum.
#[derive(Contract, Serialize, Deserialize)]
struct Sum {
    total: i64,
}

/// Store a blob.
#[derive(Contract, Deserialize)]
#[allow(dead_code)]
struct Put {
    #[contract(opaque)]
    blob: std::time::Duration,
}

fn toolbox(log: Arc<Mutex<Vec<String>>>) -> Toolbox {
    Toolbox::builder("test", "0.0.0")
        .tool_with_output(|add: Add| async move {
            if add.b == 13 {
                Err("unlucky".to_owned())
            } else {
                Ok(Sum {
                    total: add.a + add.b,
                })
            }
        })
        .observe(move |call| {
            let outcome = match &call.outcome {
                Outcome::Accepted => "accepted".to_owned(),
                Outcome::Rejected(issues) => format!("rejected {}", issues[0].pointer),
                Outcome::Failed(error) => format!("failed {error}"),
            };
            log.lock().unwrap().push(format!("{} {outcome}", call.tool));
        })
        .build()
        .unwrap()
}

#[tokio::test]
async fn calls_are_parsed_answered_and_observed() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let tools = toolbox(Arc::clone(&log));

    let ok = tools.call("add", json!({"a": 1, "b": 2})).await.unwrap();
    assert_eq!(ok.is_error, Some(false));
    assert_eq!(ok.structured_content, Some(json!({"total": 3})));

    // `add` has an output schema: clients validate `structuredContent` against it even on an
    // error result, so a rejection carries its issues in the text and in `_meta`.
    let bad = tools.call("add", json!({"a": "1", "b": 2})).await.unwrap();
    assert_eq!(bad.is_error, Some(true));
    assert_eq!(bad.structured_content, None);
    let meta = bad.meta.as_ref().unwrap();
    let structured = &meta.0[stitch::REJECTION_META_KEY];
    assert_eq!(structured["code"], "VALIDATION_ERROR");
    assert_eq!(structured["issues"][0]["pointer"], "/a");
    let text = serde_json::to_value(&bad.content).unwrap();
    assert!(
        text[0]["text"]
            .as_str()
            .unwrap()
            .starts_with("/a: expected integer")
    );

    let failed = tools.call("add", json!({"a": 1, "b": 13})).await.unwrap();
    assert_eq!(failed.is_error, Some(true));

    assert!(
        tools.call("nope", json!({})).await.is_err(),
        "an unknown tool is a protocol error"
    );
    assert_eq!(
        *log.lock().unwrap(),
        ["add accepted", "add rejected /a", "add failed unlucky"]
    );
}

#[tokio::test]
async fn a_rejection_without_an_output_schema_is_structured_content() {
    let tools = Toolbox::builder("test", "0.0.0")
        .tool(|add: Add| async move { Ok::<_, String>(add.a + add.b) })
        .build()
        .unwrap();
    let bad = tools.call("add", json!({"a": -1, "b": 2})).await.unwrap();
    assert_eq!(bad.is_error, Some(true));
    assert_eq!(bad.meta, None);
    let structured = bad.structured_content.unwrap();
    assert_eq!(structured["issues"][0]["pointer"], "/a");
    assert_eq!(structured["issues"][0]["code"], "minimum");
}

/// Two ways a sum can come back: a tagged union advertises its flat object.
#[derive(Contract, Serialize, Deserialize)]
#[serde(tag = "kind")]
enum Outcome2 {
    Exact { total: i64 },
    Overflow { message: String },
}

#[test]
fn an_output_schema_is_the_advertised_object_and_must_be_one() {
    let tools = Toolbox::builder("test", "0.0.0")
        .tool_with_output(|add: Add| async move {
            Ok::<_, String>(Outcome2::Exact {
                total: add.a + add.b,
            })
        })
        .build()
        .unwrap()
        .tools();
    let output = serde_json::Value::Object((**tools[0].output_schema.as_ref().unwrap()).clone());
    assert_eq!(output["type"], "object");
    assert_eq!(
        output["properties"]["kind"]["enum"],
        json!(["Exact", "Overflow"])
    );

    let findings = Toolbox::builder("test", "0.0.0")
        .tool_with_output(|_: Add| async { Ok::<_, String>(vec!["a".to_owned()]) })
        .build()
        .err()
        .expect("a list is no output schema");
    assert_eq!(findings.len(), 1);
    assert_eq!(findings[0].kind(), FindingKind::NotAnObject);
    let message = findings[0].to_string();
    assert!(
        message.contains("output schema must be an object")
            && message.contains("alloc::vec::Vec<alloc::string::String>"),
        "{message}"
    );
}

#[test]
fn tools_advertise_the_flat_input_and_the_declared_output() {
    let tools = toolbox(Arc::default()).tools();
    assert_eq!(tools.len(), 1);
    let add = &tools[0];
    assert_eq!(add.name, "add");
    assert_eq!(add.description.as_deref(), Some("Add two numbers."));
    assert_eq!(
        serde_json::Value::Object((*add.input_schema).clone()),
        serde_json::from_str::<serde_json::Value>(Add::INPUT_SCHEMA).unwrap()
    );
    let output = add.output_schema.as_ref().unwrap();
    assert_eq!(output["properties"]["total"], json!({"type": "integer"}));
}

#[test]
fn the_guard_runs_over_every_mounted_tool() {
    let duplicate = Toolbox::builder("test", "0.0.0")
        .tool(|_: Add| async { Ok::<_, String>(0) })
        .tool(|_: Add| async { Ok::<_, String>(0) })
        .build()
        .err()
        .unwrap();
    assert_eq!(duplicate[0].kind(), FindingKind::DuplicateName);

    let untyped = Toolbox::builder("test", "0.0.0")
        .profile(SchemaProfile::new().require_typed_properties())
        .tool(|_: Put| async { Ok::<_, String>(0) })
        .build()
        .err()
        .unwrap();
    assert_eq!(untyped[0].kind(), FindingKind::Untyped);
    assert_eq!(untyped[0].path(), "blob");

    assert!(
        Toolbox::builder("test", "0.0.0")
            .tool(|_: Put| async { Ok::<_, String>(0) })
            .build()
            .is_ok(),
        "the profile is the server author's choice"
    );
}
