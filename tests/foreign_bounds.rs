//! Foreign schemas that would exhaust a server reading them: a `$ref` chain far deeper than
//! nesting may go, definitions that refer to each other twice over (exponentially many paths),
//! and a union of thousands of operations. Each is read on a 2 MiB stack (a tokio worker's)
//! and gives a document bounded by a multiple of its source, in every dialect. Times are the
//! benchmark's (`benches/foreign.rs`); here the sizes, which bound them.

use serde_json::{Map, Value, json};
use stitch::{Dialect, SchemaProfile};

/// Runs `work` on a thread with a 2 MiB stack, the size tokio gives its workers.
fn on_a_2_mib_stack<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(work)
        .expect("a thread starts")
        .join()
        .expect("no stack overflow, no panic")
}

/// `{"$ref": "#/$defs/d0"}`, each definition referring to the next, `links` of them, the last
/// a string.
fn ref_chain(links: usize) -> Value {
    let mut definitions = Map::new();
    for link in 0..links {
        definitions.insert(
            format!("d{link}"),
            json!({"$ref": format!("#/$defs/d{}", link + 1)}),
        );
    }
    definitions.insert(format!("d{links}"), json!({"type": "string"}));
    json!({
        "type": "object",
        "properties": {"value": {"$ref": "#/$defs/d0"}},
        "required": ["value"],
        "$defs": definitions,
    })
}

/// Definitions `levels` deep, each an object whose two keys both refer to the next: `2^levels`
/// paths to the last, as pydantic and schemars write shared types.
fn shared_definitions(levels: usize) -> Value {
    let mut definitions = Map::new();
    for level in 0..levels {
        let next = json!({"$ref": format!("#/$defs/l{}", level + 1)});
        definitions.insert(
            format!("l{level}"),
            json!({
                "type": "object",
                "properties": {"left": next.clone(), "right": next},
                "required": ["left", "right"],
            }),
        );
    }
    definitions.insert(
        format!("l{levels}"),
        json!({"type": "integer", "minimum": 0}),
    );
    json!({
        "type": "object",
        "properties": {"tree": {"$ref": "#/$defs/l0"}},
        "required": ["tree"],
        "$defs": definitions,
    })
}

/// A discriminated `oneOf` of `operations` operations, each with a key of its own.
fn many_operations(operations: usize) -> Value {
    let branches: Vec<Value> = (0..operations)
        .map(|i| {
            json!({
                "type": "object",
                "properties": {"op": {"const": format!("op{i}")}, format!("k{i}"): {"type": "integer"}},
                "required": ["op", format!("k{i}")],
            })
        })
        .collect();
    json!({"oneOf": branches})
}

fn text_len(value: &Value) -> usize {
    value.to_string().len()
}

#[test]
fn a_100_000_link_ref_chain_returns_on_a_2_mib_stack() {
    let document = std::sync::Arc::new(ref_chain(100_000));
    let shared = std::sync::Arc::clone(&document);
    let shown = on_a_2_mib_stack(move || {
        Dialect::ALL
            .iter()
            .map(|dialect| stitch::foreign::tool_schema_for(&shared, *dialect))
            .collect::<Vec<_>>()
    });
    let mcp = &shown[0];
    // Read through as deep as nesting may go, then kept as a `$ref` with what it names.
    let mut at = &mcp["properties"]["value"];
    let mut read_through = 0;
    while at.get("$ref").is_none() && at.get("type").is_none() {
        at = &at["allOf"][0];
        read_through += 1;
    }
    assert_eq!(read_through, 0, "a read-through `$ref` leaves no wrapper");
    let kept = at["$ref"].as_str().expect("the chain is kept as a `$ref`");
    let name = kept.trim_start_matches("#/$defs/");
    assert!(mcp["$defs"][name].is_object(), "{kept} is kept in $defs");
    assert!(
        mcp["$defs"]["d100000"] == json!({"type": "string"}),
        "the chain's end is kept"
    );
    for shown in &shown {
        assert!(text_len(shown) <= 2 * text_len(&document));
    }
    // The strict call path reads the same document on the same stack.
    let shared = std::sync::Arc::clone(&document);
    on_a_2_mib_stack(move || {
        let mut call = json!({"value": "x"});
        stitch::foreign::strict_arguments_for(&shared, &mut call);
        assert_eq!(call, json!({"value": "x"}));
        stitch::guard::check(
            &[stitch::guard::Checked::Listed {
                name: "chain",
                description: "",
                input: &shared,
            }],
            &SchemaProfile::new(),
        );
    });
}

#[test]
fn shared_definitions_25_levels_deep_expand_to_a_multiple_of_their_source() {
    for levels in [8, 18, 25] {
        let document = shared_definitions(levels);
        let source = text_len(&document);
        let shown = on_a_2_mib_stack(move || {
            Dialect::ALL
                .iter()
                .map(|dialect| stitch::foreign::tool_schema_for(&document, *dialect))
                .collect::<Vec<_>>()
        });
        for (dialect, shown) in Dialect::ALL.iter().zip(&shown) {
            let size = text_len(shown);
            assert!(
                size <= 64 * source,
                "{levels} levels in {dialect}: {size} bytes from a source of {source}"
            );
        }
        // What is not inlined stays a `$ref` to a definition the document keeps.
        let mcp = &shown[0];
        let text = mcp.to_string();
        if let Some(at) = text.find("\"$ref\":\"#/$defs/") {
            let name: String = text[at + 16..].chars().take_while(|c| *c != '"').collect();
            assert!(mcp["$defs"][&name].is_object(), "{name} is kept");
        }
    }
    // A small document of shared definitions is still inlined whole.
    let small = stitch::foreign::flatten_tool_schema(&shared_definitions(4));
    assert!(!small.to_string().contains("$ref"), "{small}");
    assert_eq!(
        small["properties"]["tree"]["properties"]["left"]["properties"]["right"]["properties"]["left"]
            ["properties"]["left"],
        json!({"type": "integer", "minimum": 0})
    );
}

#[test]
fn ten_thousand_operations_flatten_into_one_object() {
    let document = many_operations(10_000);
    let shown = on_a_2_mib_stack(move || stitch::foreign::flatten_tool_schema(&document));
    let properties = shown["properties"].as_object().expect("one flat object");
    assert_eq!(properties.len(), 10_001);
    assert_eq!(
        properties["op"]["enum"].as_array().map(Vec::len),
        Some(10_000)
    );
    assert_eq!(properties["k9999"]["type"], "integer");
    assert_eq!(shown["required"], json!(["op"]));
}
