//! The guard over a foreign schema in each dialect: what `tool_schema_for` cannot say of it
//! there is a finding, found by the walk that finds it of a contract, at the property's path;
//! and what it does say (a union it flattens) is none.

use serde_json::{Value, json};
use stitch::{Dialect, Finding, SchemaProfile, guard::FindingKind};

fn inexpressible(schema: &Value, dialect: Dialect) -> Vec<Finding> {
    stitch::guard::check(
        &[stitch::guard::Checked::Listed {
            name: "tool",
            description: "",
            input: schema,
        }],
        &SchemaProfile::new().dialect(dialect),
    )
    .into_iter()
    .filter(|finding| finding.kind() == FindingKind::Inexpressible)
    .collect()
}

fn paths(findings: &[Finding]) -> Vec<String> {
    findings
        .iter()
        .map(|finding| finding.path().to_owned())
        .collect()
}

/// GitHub's issue tools: a required key that takes `null`, and an optional one whose `null`
/// means "remove".
fn nulls_with_meaning() -> Value {
    json!({
        "type": "object",
        "properties": {
            "issue_type": {"type": ["string", "null"]},
            "type": {"type": ["string", "null"], "description": "Pass null to remove the current type."},
            "title": {"type": "string"},
        },
        "required": ["issue_type"],
    })
}

#[test]
fn a_null_portable_cannot_show_is_reported_where_it_is() {
    let findings = inexpressible(&nulls_with_meaning(), Dialect::Portable);
    assert_eq!(paths(&findings), ["issue_type", "type"], "{findings:?}");
    assert!(findings[1].to_string().contains("null"), "{}", findings[1]);
    // And OpenAI's strict dialect, which sends every key, cannot leave `type` out.
    let strict = inexpressible(&nulls_with_meaning(), Dialect::OpenAiStrict);
    assert_eq!(paths(&strict), ["type"], "{strict:?}");
    // Anthropic's shows both nulls: nothing lost.
    assert!(inexpressible(&nulls_with_meaning(), Dialect::AnthropicStrict).is_empty());
}

#[test]
fn what_a_strict_dialect_cannot_say_is_reported() {
    // A free value has no type a strict dialect takes, a `not` is kept as written; a map is
    // said as its entries (`tests/strict_maps.rs`), and a string as it is.
    let schema = json!({
        "type": "object",
        "properties": {
            "labels": {"type": "object", "additionalProperties": {"type": "string"}},
            "anything": {},
            "filter": {"not": {"type": "null"}},
            "name": {"type": "string"},
        },
        "required": ["name"],
    });
    for dialect in [Dialect::OpenAiStrict, Dialect::AnthropicStrict] {
        let findings = inexpressible(&schema, dialect);
        assert_eq!(paths(&findings), ["anything", "filter"], "{dialect}");
    }
    assert!(inexpressible(&schema, Dialect::Mcp).is_empty());
}

#[test]
fn a_union_the_dialect_is_shown_flat_is_no_finding() {
    let schema = json!({
        "type": "object",
        "properties": {"action": {"oneOf": [
            {"type": "object", "properties": {"op": {"const": "a"}, "x": {"type": "integer"}}, "required": ["op"]},
            {"type": "object", "properties": {"op": {"const": "b"}}, "required": ["op"]},
        ]}},
        "required": ["action"],
    });
    for &dialect in Dialect::ALL {
        assert!(inexpressible(&schema, dialect).is_empty(), "{dialect}");
    }
}

#[test]
fn what_cannot_be_rebuilt_stays_and_the_guard_reports_it() {
    // A `not` has no words in the IR: it stays as it was written.
    let negated = json!({"type": "object", "properties": {"v": {"not": {"type": "null"}}}});
    let flat = stitch::foreign::flatten_tool_schema(&negated);
    assert_eq!(flat["properties"]["v"], negated["properties"]["v"]);
    // Branches no key tells apart (both say `k` is "a") stay branches.
    let optional = json!({"oneOf": [
        {"type": "object", "properties": {"k": {"const": "a"}, "n": {"type": "integer"}}},
        {"type": "object", "properties": {"k": {"const": "a"}, "s": {"type": "string"}}}
    ]});
    assert_eq!(
        stitch::foreign::flatten_tool_schema(&optional)["anyOf"]
            .as_array()
            .map(Vec::len),
        Some(2)
    );
    // The guard sees what stays: a part kept as written where a portable client is shown it,
    // and a root that is not an object.
    let portable = SchemaProfile::new().dialect(Dialect::Portable);
    let findings = stitch::guard::check(
        &[stitch::guard::Checked::Listed {
            name: "left",
            description: "",
            input: &negated,
        }],
        &portable,
    );
    assert!(
        findings
            .iter()
            .any(|f| f.kind() == FindingKind::Inexpressible && f.path() == "v"),
        "{findings:?}"
    );
    let findings = stitch::guard::check(
        &[stitch::guard::Checked::Listed {
            name: "left",
            description: "",
            input: &stitch::foreign::flatten_tool_schema(&optional),
        }],
        &SchemaProfile::new(),
    );
    assert!(
        findings
            .iter()
            .any(|f| f.kind() == FindingKind::NotAnObject),
        "{findings:?}"
    );
}
