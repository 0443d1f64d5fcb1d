//! `#[serde(flatten)]`: a flattened struct's keys join the object's at the field's place (in a
//! struct, and in an operation, where they merge with the other operations' keys by the
//! collision rules); a flattened map's values are what every other key holds.

mod common;

use std::collections::BTreeMap;

use common::{holds_in_every_dialect, inexpressible, json, property, property_names, validator};
use serde::Deserialize;
use serde_json::json;
use stitch::{Contract, Dialect, IssueCode};

/// Paging of a listing.
#[derive(Contract, Deserialize, Debug, PartialEq)]
struct Paging {
    /// Results per page.
    #[contract(min = 1, max = 100)]
    per_page: u32,
    page: Option<u32>,
}

/// List a repository's issues.
#[derive(Contract, Deserialize, Debug, PartialEq)]
struct ListIssues {
    repo: String,
    #[serde(flatten)]
    paging: Paging,
    state: Option<String>,
}

/// A label with what else its author noted, as small counts.
#[derive(Contract, Deserialize, Debug, PartialEq)]
struct Noted {
    name: String,
    #[serde(flatten)]
    counts: BTreeMap<String, u8>,
}

/// Search paging.
#[derive(Contract, Deserialize, Debug, PartialEq)]
struct SearchPaging {
    #[contract(min = 1, max = 50)]
    per_page: u32,
}

/// Work with issues.
#[derive(Contract, Deserialize, Debug, PartialEq)]
#[serde(tag = "op", rename_all = "snake_case")]
enum Issues {
    List {
        #[serde(flatten)]
        paging: Paging,
        labels: Option<Vec<String>>,
    },
    Search {
        query: String,
        #[serde(flatten)]
        paging: SearchPaging,
    },
    Close {
        number: u64,
    },
}

#[test]
fn a_flattened_struct_s_keys_join_the_object_in_place() {
    let schema = json(ListIssues::INPUT_SCHEMA);
    let keys = property_names(&schema);
    assert_eq!(keys, ["repo", "per_page", "page", "state"]);
    assert_eq!(schema["required"], json!(["repo", "per_page"]));
    assert_eq!(
        property(&schema, "per_page"),
        json!({"type": "integer", "minimum": 1, "maximum": 100})
    );
    assert_eq!(
        schema["properties"]["per_page"]["description"],
        "Results per page."
    );
    let call = json!({"repo": "a/b", "per_page": 10, "state": "open"});
    assert!(validator(&schema).is_valid(&call));
    assert_eq!(
        ListIssues::parse(call).unwrap(),
        ListIssues {
            repo: "a/b".to_owned(),
            paging: Paging {
                per_page: 10,
                page: None
            },
            state: Some("open".to_owned()),
        }
    );
    let rejection = ListIssues::parse(json!({"repo": "a/b", "per_page": 0})).unwrap_err();
    assert_eq!(rejection.issues[0].pointer, "/per_page");
    assert_eq!(rejection.issues[0].code, IssueCode::Minimum);
    let rejection = ListIssues::parse(json!({"repo": "a/b"})).unwrap_err();
    assert_eq!(rejection.issues[0].code, IssueCode::MissingRequired);
}

#[test]
fn a_flattened_map_s_values_are_every_other_key_s() {
    let schema = json(Noted::INPUT_SCHEMA);
    assert_eq!(
        schema["additionalProperties"],
        json!({"type": "integer", "minimum": 0, "maximum": 255})
    );
    let parsed = Noted::parse(json!({"name": "bug", "votes": 3, "dupes": 1})).unwrap();
    assert_eq!(parsed.counts.get("votes"), Some(&3));
    let rejection = Noted::parse(json!({"name": "bug", "votes": 300})).unwrap_err();
    assert_eq!(rejection.issues[0].pointer, "/votes");
    assert_eq!(rejection.issues[0].code, IssueCode::Maximum);
    // A strict mode closes every object: the map's keys are what it cannot say.
    assert_eq!(inexpressible::<Noted>(Dialect::OpenAiStrict), [""]);
    assert!(inexpressible::<Noted>(Dialect::Portable).is_empty());
}

#[test]
fn flattened_operations_merge_by_the_collision_rules() {
    let schema = json(Issues::INPUT_SCHEMA);
    // `per_page` is `1..=100` in `list` and `1..=50` in `search`: their hull.
    assert_eq!(
        property(&schema, "per_page"),
        json!({"type": "integer", "minimum": 1, "maximum": 100})
    );
    assert_eq!(
        schema["properties"]["per_page"]["description"],
        "Results per page. Required if op = list | search"
    );
    let call = json!({"op": "search", "query": "crash", "per_page": 20});
    assert!(validator(&schema).is_valid(&call));
    assert_eq!(
        Issues::parse(call).unwrap(),
        Issues::Search {
            query: "crash".to_owned(),
            paging: SearchPaging { per_page: 20 }
        }
    );
    let rejection = Issues::parse(json!({"op": "search", "query": "a", "per_page": 60}));
    assert_eq!(rejection.unwrap_err().issues[0].pointer, "/per_page");
}

#[test]
fn they_hold_in_every_dialect() {
    assert_eq!(holds_in_every_dialect::<ListIssues>(128), Dialect::ALL);
    assert_eq!(holds_in_every_dialect::<Issues>(128), Dialect::ALL);
    assert_eq!(
        holds_in_every_dialect::<Noted>(64),
        [Dialect::Mcp, Dialect::Portable, Dialect::Gemini]
    );
}

every_contract_here!(Paging, ListIssues, Noted, SearchPaging, Issues);
