//! The `gemini` dialect, the fifth row of the dialect table: what Gemini's function
//! declarations take is what it is shown, and what they refuse is a guard finding. (Google's
//! own converter judges every contract's `gemini` schema in CI: `tests/e2e/dialects.py`.)
#![cfg(feature = "rust_decimal1")]

mod common;

use serde_json::{Value, json};
use stitch::guard::{Checked, FindingKind};
use stitch::{Contract, Dialect, SchemaProfile};

fn findings(name: &str, schema: &Value, dialect: Dialect) -> Vec<(FindingKind, String)> {
    stitch::guard::check(
        &[Checked::Listed {
            name,
            description: "A tool.",
            input: schema,
        }],
        &SchemaProfile::new().dialect(dialect),
    )
    .into_iter()
    .map(|finding| (finding.kind(), finding.path().to_owned()))
    .collect()
}

/// Notion's page parent: a described value of an object or a string.
fn move_page() -> Value {
    json!({
        "type": "object",
        "properties": {
            "parent": {
                "description": "Where the page goes.",
                "anyOf": [
                    {"type": "object", "properties": {"page_id": {"type": "string", "format": "uuid"}}, "required": ["page_id"]},
                    {"type": "string"}
                ]
            }
        },
        "required": ["parent"]
    })
}

#[test]
fn a_foreign_any_of_stands_alone_on_its_node_and_the_description_left_out_is_a_finding() {
    let shown = stitch::foreign::tool_schema_for(&move_page(), Dialect::Gemini);
    let parent = &shown["properties"]["parent"];
    assert_eq!(
        parent.as_object().map(|o| o.keys().collect::<Vec<_>>()),
        Some(vec![&"anyOf".to_owned()]),
        "{parent}"
    );
    assert_eq!(
        parent["anyOf"][0]["properties"]["page_id"]["type"],
        "string"
    );
    assert_eq!(
        findings("move_page", &move_page(), Dialect::Gemini),
        [(FindingKind::Inexpressible, "parent".to_owned())]
    );
    // `mcp` keeps the description beside it, and loses nothing.
    let mcp = stitch::foreign::tool_schema_for(&move_page(), Dialect::Mcp);
    assert_eq!(
        mcp["properties"]["parent"]["description"],
        "Where the page goes."
    );
    assert_eq!(findings("move_page", &move_page(), Dialect::Mcp), []);
}

#[test]
fn a_name_gemini_refuses_is_a_finding_in_gemini_only() {
    let schema = json!({"type": "object", "properties": {}});
    // MCP takes a name starting with a digit; Gemini wants a letter or `_` first.
    let name = "2fa_reset";
    assert_eq!(findings(name, &schema, Dialect::Mcp), []);
    assert_eq!(findings(name, &schema, Dialect::Portable), []);
    assert_eq!(
        findings(name, &schema, Dialect::Gemini),
        [(FindingKind::InvalidName, String::new())]
    );
    assert_eq!(findings("reset_2fa", &schema, Dialect::Gemini), []);
}

/// A price, `"9.99"` or `9.99`.
#[derive(Contract, serde::Deserialize, Debug, PartialEq)]
struct Priced {
    price: rust_decimal::Decimal,
    /// Who owns it.
    #[contract(format = "email")]
    owner: String,
}

#[test]
fn a_contract_in_gemini_is_flat_typed_and_says_what_gemini_does_not_take_in_words() {
    let schema: Value = serde_json::from_str(Priced::input_schema_for(Dialect::Gemini)).unwrap();
    let text = schema.to_string();
    for banned in [
        "anyOf",
        "oneOf",
        "allOf",
        "prefixItems",
        "\"format\":\"email\"",
    ] {
        assert!(!text.contains(banned), "{banned} in {schema:#}");
    }
    // Gemini takes `date-time` only: the format is said in words.
    let owner = schema["properties"]["owner"]["description"]
        .as_str()
        .unwrap();
    assert!(owner.contains("format: email"), "{owner}");
    // No `type` array: the price's kinds are named, and the guard says so.
    let price = &schema["properties"]["price"];
    assert!(price.get("type").is_none(), "{price}");
    let inexpressible: Vec<_> = stitch::guard::check(
        &[Priced::TOOL.into()],
        &SchemaProfile::new().dialect(Dialect::Gemini),
    )
    .into_iter()
    .filter(|finding| finding.kind() == FindingKind::Inexpressible)
    .map(|finding| finding.path().to_owned())
    .collect();
    assert_eq!(inexpressible, ["price"]);
    // And a call reads as in every other dialect.
    let parsed = Priced::parse_for(
        json!({"price": 9.99, "owner": "a@b.example"}),
        Dialect::Gemini,
    )
    .unwrap();
    assert_eq!(parsed.price, "9.99".parse().unwrap());
}

every_contract_here!(Priced);
