//! serde's other enum shapes, as one flat object without `oneOf`: an adjacently tagged enum
//! is the tag and the content key holding every operation's fields merged by the collision
//! rules; an externally tagged one is one optional key per operation, exactly one of which is
//! sent. `parse` reports at the pointers of each shape.

mod common;

use common::{holds_in_every_dialect, json, property, property_names, validator};
use serde::Deserialize;
use serde_json::json;
use stitch::{Contract, Dialect, IssueCode};

/// What a replacement takes.
#[derive(Contract, Deserialize, Debug, PartialEq)]
struct Replacement {
    at: u32,
    text: String,
}

/// Edits of a text.
#[derive(Contract, Deserialize, Debug, PartialEq)]
#[serde(tag = "op", content = "args", rename_all = "snake_case")]
enum Edit {
    /// Insert text.
    Insert { at: u32, text: String },
    /// Delete a range.
    Delete {
        at: u32,
        #[contract(min = 1)]
        len: u32,
    },
    /// Replace a range.
    Replace(Replacement),
    /// Undo the last edit.
    Undo,
}

/// Where to move.
#[derive(Contract, Deserialize, Debug, PartialEq)]
struct Target {
    #[contract(min_length = 1)]
    path: String,
}

/// Commands of a file tree.
#[derive(Contract, Deserialize, Debug, PartialEq)]
#[serde(rename_all = "snake_case")]
enum Command {
    /// Insert a line.
    Insert { at: u32, text: Option<String> },
    /// Remove the line at an index.
    Remove(u32),
    /// Move the file.
    Move(Target),
    /// Clear everything.
    Clear,
}

fn problem<T: Contract + std::fmt::Debug>(call: serde_json::Value) -> (String, IssueCode) {
    let rejection = T::parse(call).expect_err("refused");
    let issue = &rejection.issues[0];
    (issue.pointer.clone(), issue.code)
}

#[test]
fn an_adjacently_tagged_enum_is_the_tag_and_its_content_merged() {
    let schema = json(Edit::INPUT_SCHEMA);
    assert!(!Edit::INPUT_SCHEMA.contains("oneOf"));
    assert_eq!(schema["required"], json!(["op"]));
    let op = property(&schema, "op");
    assert_eq!(op["enum"], json!(["insert", "delete", "replace", "undo"]));
    let args = property(&schema, "args");
    assert_eq!(args["type"], "object");
    let keys = property_names(&args);
    assert_eq!(keys, ["at", "text", "len"]);
    // `at` is required by every operation that has content, but `undo` has none.
    assert_eq!(
        args["properties"]["len"]["description"],
        "Required if op = delete"
    );
    assert_eq!(args["properties"]["len"]["minimum"], 1);
    let calls = [
        json!({"op": "insert", "args": {"at": 1, "text": "a"}}),
        json!({"op": "delete", "args": {"at": 1, "len": 2}}),
        json!({"op": "replace", "args": {"at": 0, "text": "b"}}),
        json!({"op": "undo"}),
    ];
    let advertised = validator(&schema);
    for call in calls {
        assert!(advertised.is_valid(&call), "{call}");
        assert!(Edit::parse(call.clone()).is_ok(), "{call}");
    }
    assert_eq!(
        Edit::parse(json!({"op": "delete", "args": {"at": 1, "len": 0}}))
            .unwrap_err()
            .issues[0]
            .pointer,
        "/args/len"
    );
    assert_eq!(
        problem::<Edit>(json!({"op": "insert"})),
        ("/args".to_owned(), IssueCode::MissingRequired)
    );
    assert_eq!(
        problem::<Edit>(json!({"op": "undo", "args": 5})),
        ("/args".to_owned(), IssueCode::InvalidType)
    );
    // A unit operation holds nothing: serde reads a `null` content, and refuses an empty
    // object as it refuses any other value.
    assert_eq!(
        Edit::parse(json!({"op": "undo", "args": null})).unwrap(),
        Edit::Undo
    );
    assert_eq!(
        problem::<Edit>(json!({"op": "undo", "args": {}})),
        ("/args".to_owned(), IssueCode::InvalidType)
    );
}

#[test]
fn an_externally_tagged_enum_is_one_key_per_operation() {
    let schema = json(Command::INPUT_SCHEMA);
    assert!(!Command::INPUT_SCHEMA.contains("oneOf"));
    assert_eq!(schema["minProperties"], 1);
    assert_eq!(schema["maxProperties"], 1);
    assert_eq!(schema["additionalProperties"], false);
    let description = schema["description"].as_str().unwrap();
    assert!(
        description.ends_with(
            "Exactly one key, the operation: insert \u{2014} Insert a line; remove \u{2014} \
             Remove the line at an index; move \u{2014} Move the file; clear \u{2014} Clear \
             everything."
        ),
        "{description}"
    );
    assert_eq!(property(&schema, "remove")["type"], "integer");
    assert_eq!(
        property(&schema, "move")["properties"]["path"]["minLength"],
        1
    );
    let advertised = validator(&schema);
    for (call, expected) in [
        (
            json!({"insert": {"at": 2}}),
            Command::Insert { at: 2, text: None },
        ),
        (json!({"remove": 5}), Command::Remove(5)),
        (
            json!({"move": {"path": "/b"}}),
            Command::Move(Target {
                path: "/b".to_owned(),
            }),
        ),
        (json!({"clear": {}}), Command::Clear),
        (json!({"clear": null}), Command::Clear),
    ] {
        assert!(advertised.is_valid(&call), "{call}");
        assert_eq!(Command::parse(call).unwrap(), expected);
    }
    // serde reads a unit operation from its name alone.
    assert_eq!(Command::parse(json!("clear")).unwrap(), Command::Clear);
    assert_eq!(
        problem::<Command>(json!({"insert": {"at": "x"}})),
        ("/insert/at".to_owned(), IssueCode::InvalidType)
    );
    assert_eq!(
        problem::<Command>(json!({"move": {"path": ""}})),
        ("/move/path".to_owned(), IssueCode::MinLength)
    );
    assert_eq!(
        problem::<Command>(json!({"remove": 1, "clear": null})),
        (String::new(), IssueCode::MaxProperties)
    );
    assert_eq!(
        problem::<Command>(json!({})),
        (String::new(), IssueCode::MissingOperation)
    );
    assert_eq!(
        problem::<Command>(json!({"paste": 1})),
        ("/paste".to_owned(), IssueCode::UnknownOperation)
    );
    // A strict client sends every key: `null` for the operations it does not mean.
    let strict = json!({"insert": null, "remove": 7, "move": null, "clear": null});
    assert_eq!(
        Command::parse_for(strict, Dialect::OpenAiStrict).unwrap(),
        Command::Remove(7)
    );
}

#[test]
fn both_hold_in_every_dialect() {
    assert_eq!(holds_in_every_dialect::<Edit>(128), Dialect::ALL);
    assert_eq!(holds_in_every_dialect::<Command>(128), Dialect::ALL);
}

#[test]
fn the_exact_schemas_say_each_shape() {
    let edit = validator(&json(Edit::exact_schema()));
    assert!(edit.is_valid(&json!({"op": "delete", "args": {"at": 1, "len": 2}})));
    assert!(!edit.is_valid(&json!({"op": "delete", "at": 1, "len": 2})));
    let command = validator(&json(Command::exact_schema()));
    assert!(command.is_valid(&json!({"remove": 1})));
    assert!(command.is_valid(&json!({"clear": null})));
    assert!(!command.is_valid(&json!({"remove": 1, "clear": null})));
}

every_contract_here!(Replacement, Edit, Target, Command);
