//! The guard at run time: every finding for a list of tools, the check of foreign
//! JSON schemas, and its messages.

mod common;

use serde::Deserialize;
use serde_json::json;
use stitch::Tool;
use stitch::{Contract, SchemaProfile, guard::FindingKind, validate_mcp_schemas};

const TYPED: SchemaProfile = SchemaProfile::new().require_typed_properties();

/// Each step of a plan.
#[derive(Contract, Deserialize)]
#[allow(dead_code)]
struct Step {
    /// Where the step goes; any JSON the planner understands.
    #[contract(opaque)]
    index: std::time::Duration,
}

/// A plan.
#[derive(Contract, Deserialize)]
#[contract(allow_formats("cuid2"))]
#[allow(dead_code)]
struct Plan {
    steps: Vec<Step>,
    #[contract(format = "cuid2")]
    id: String,
}

#[derive(Contract, Deserialize)]
#[serde(tag = "op")]
#[allow(dead_code)]
enum Lenient {
    SetA {
        /// The amount.
        #[contract(coerce)]
        amount: i64,
    },
    SetB {
        amount: i64,
    },
    SetC {
        #[contract(catch = 0)]
        amount: i64,
    },
}

/// Where a jump lands.
#[derive(Contract, Deserialize)]
#[allow(dead_code)]
struct Landing {
    #[contract(coerce)]
    index: i64,
    name: String,
}

/// Where a walk ends.
#[derive(Contract, Deserialize)]
#[allow(dead_code)]
struct Stop {
    index: i64,
}

/// Operations declaring `to` as different objects: advertised as their hull, whose `index`
/// has no type (one operation's is lenient, the other's is not).
#[derive(Contract, Deserialize)]
#[serde(tag = "op")]
#[allow(dead_code)]
enum Moves {
    Jump { to: Landing },
    Walk { to: Stop },
}

#[test]
fn the_guard_walks_into_hulls() {
    let finding = validate_mcp_schemas(&[Moves::TOOL], &TYPED).unwrap_err();
    assert_eq!(finding.kind(), FindingKind::Untyped);
    assert_eq!(finding.path(), "to.index");
    let message = finding.to_string();
    assert!(
        message.contains("Jump coerces strings, Walk does not"),
        "{message}"
    );
    let strict = SchemaProfile::new().dialect(stitch::Dialect::OpenAiStrict);
    let findings: Vec<(FindingKind, String)> = stitch::guard::check(&[Moves::TOOL.into()], &strict)
        .iter()
        .map(|f| (f.kind(), f.path().to_owned()))
        .collect();
    assert_eq!(
        findings,
        [(FindingKind::Inexpressible, "to.index".to_owned())]
    );
}

#[test]
fn the_guard_is_off_by_default() {
    assert_eq!(
        validate_mcp_schemas(&[Plan::TOOL], &SchemaProfile::new()),
        Ok(())
    );
}

#[test]
fn an_untyped_nested_property_is_found_with_its_path_and_description() {
    let finding = validate_mcp_schemas(&[Plan::TOOL], &TYPED).unwrap_err();
    assert_eq!(finding.kind(), FindingKind::Untyped);
    assert_eq!(finding.tool(), "plan");
    assert_eq!(finding.path(), "steps.index");
    assert_eq!(
        finding.description(),
        Some("Where the step goes; any JSON the planner understands.")
    );
    let message = finding.to_string();
    for part in [
        "\"plan.steps.index\"",
        "opaque value",
        "any JSON the planner understands",
        "allow_untyped(\"steps.index\")",
        "allow_untyped(&[\"plan.steps.index\"])",
    ] {
        assert!(message.contains(part), "{message:?} lacks {part:?}");
    }
}

#[test]
fn allow_untyped_matches_the_exact_path() {
    let allowed = TYPED.allow_untyped(&["plan.steps.index"]);
    assert_eq!(validate_mcp_schemas(&[Plan::TOOL], &allowed), Ok(()));
    let near_miss = TYPED.allow_untyped(&["plan.steps", "plan.steps.index.x", "steps.index"]);
    assert!(validate_mcp_schemas(&[Plan::TOOL], &near_miss).is_err());
}

#[test]
fn a_hazard_mismatch_names_every_operation() {
    let finding = validate_mcp_schemas(&[Lenient::TOOL], &TYPED).unwrap_err();
    assert_eq!(finding.path(), "amount");
    assert_eq!(
        finding.why(),
        "the operations disagree on leniency: SetA coerces strings, SetB does not, SetC \
         replaces invalid values (catch)"
    );
    assert_eq!(finding.description(), Some("The amount."));
}

#[test]
fn formats_must_be_portable_when_asked() {
    let portable = SchemaProfile::new().require_portable_formats();
    let finding = validate_mcp_schemas(&[Plan::TOOL], &portable).unwrap_err();
    assert_eq!(finding.kind(), FindingKind::NonPortableFormat);
    assert_eq!(finding.path(), "id");
    assert!(finding.to_string().contains("\"cuid2\""));
    assert_eq!(
        validate_mcp_schemas(&[Plan::TOOL], &portable.allow_formats(&["cuid2"])),
        Ok(())
    );
}

#[test]
fn names_must_follow_the_rule_and_be_unique() {
    let renamed = |name: &'static str| Tool::new(name, Plan::TOOL.description, Plan::TOOL.input);
    let all = SchemaProfile::new();
    for bad in ["", "has space", "dot.ted", &"x".repeat(65).leak()[..]] {
        let finding = validate_mcp_schemas(&[renamed(bad)], &all).unwrap_err();
        assert_eq!(finding.kind(), FindingKind::InvalidName, "{bad:?}");
    }
    assert_eq!(
        validate_mcp_schemas(&[renamed(&"x".repeat(64).leak()[..])], &all),
        Ok(())
    );
    let twice = validate_mcp_schemas(&[Plan::TOOL, Step::TOOL, Plan::TOOL], &all).unwrap_err();
    assert_eq!(twice.kind(), FindingKind::DuplicateName);
    assert_eq!(twice.tool(), "plan");
}

#[test]
fn the_input_must_be_an_object() {
    let not_object = Tool::new("plan", "", <Vec<u8> as stitch::Shape>::SHAPE);
    let finding = validate_mcp_schemas(&[not_object], &SchemaProfile::new()).unwrap_err();
    assert_eq!(finding.kind(), FindingKind::NotAnObject);
}

#[test]
fn check_lists_every_finding_in_order() {
    let everything = TYPED.require_portable_formats();
    let findings = stitch::guard::check(
        &[Plan::TOOL.into(), Lenient::TOOL.into(), Plan::TOOL.into()],
        &everything,
    );
    let summary: Vec<(FindingKind, &str, &str)> = findings
        .iter()
        .map(|f| (f.kind(), f.tool(), f.path()))
        .collect();
    assert_eq!(
        summary,
        [
            (FindingKind::Untyped, "plan", "steps.index"),
            (FindingKind::NonPortableFormat, "plan", "id"),
            (FindingKind::Untyped, "lenient", "amount"),
            (FindingKind::DuplicateName, "plan", ""),
            (FindingKind::Untyped, "plan", "steps.index"),
            (FindingKind::NonPortableFormat, "plan", "id"),
        ]
    );
    assert_eq!(
        Err(findings[0]),
        validate_mcp_schemas(&[Plan::TOOL], &everything)
    );
}

/// The walk over a foreign schema is stitchkit's (`findUntypedProperties`), so that
/// `allow_untyped` lists carried over from it still match: definitions are walked at the path
/// of the schema holding them, `not` is not walked, and only object schemas are judged.
#[test]
fn foreign_schemas_are_walked_through_every_subschema_keyword() {
    let schema = json!({
        "type": "object",
        "properties": {
            "plain": {"description": "Only words."},
            "typed": {"type": "string", "format": "cuid2"},
            "free": true,
            "never": false,
            "ref": {"$ref": "#/$defs/Thing"},
            "list": {"type": "array", "items": {"type": "object", "properties": {"inItems": {}}}},
            "tuple": {"type": "array", "items": [{"properties": {"inTuple": {}}}],
                      "prefixItems": [{"properties": {"inPrefix": {}}}]},
            "map": {"type": "object", "additionalProperties": {"properties": {"inMap": {}}},
                    "patternProperties": {"^x": {"properties": {"inPattern": {}}}}},
            "combined": {"allOf": [{"properties": {"inAllOf": {"description": "Deep."}}}],
                         "anyOf": [{"properties": {"inAnyOf": {}}}],
                         "oneOf": [{"properties": {"inOneOf": {"type": "integer"}}}]},
            "negated": {"not": {"properties": {"inNot": {}}}}
        },
        "$defs": {"Thing": {"properties": {"inDefs": {}}}},
        "definitions": {"Old": {"properties": {"inDefinitions": {"const": 1}}}}
    });
    let findings = stitch::guard::check(
        &[stitch::guard::Checked::Listed {
            name: "foreign",
            description: "",
            input: &schema,
        }],
        &TYPED.require_portable_formats(),
    );
    let summary: Vec<(FindingKind, &str)> = findings.iter().map(|f| (f.kind(), f.path())).collect();
    assert_eq!(
        summary,
        [
            (FindingKind::Untyped, "plain"),
            (FindingKind::NonPortableFormat, "typed"),
            (FindingKind::Untyped, "list.inItems"),
            (FindingKind::Untyped, "tuple.inTuple"),
            (FindingKind::Untyped, "tuple.inPrefix"),
            (FindingKind::Untyped, "map.inMap"),
            (FindingKind::Untyped, "map.inPattern"),
            (FindingKind::Untyped, "combined.inAllOf"),
            (FindingKind::Untyped, "combined.inAnyOf"),
            (FindingKind::Untyped, "inDefs"),
        ]
    );
    assert_eq!(findings[0].description(), Some("Only words."));
    assert_eq!(findings[7].description(), Some("Deep."));
    let allowed = TYPED.allow_untyped(&["foreign.plain", "foreign.inDefs"]);
    assert_eq!(
        stitch::guard::check(
            &[stitch::guard::Checked::Listed {
                name: "foreign",
                description: "",
                input: &schema
            }],
            &allowed
        )
        .len(),
        7
    );
}

#[test]
fn a_long_description_is_cut_with_a_mark() {
    let long = "word ".repeat(200);
    let schema = json!({"type": "object", "properties": {"free": {"description": long}}});
    let findings = stitch::guard::check(
        &[stitch::guard::Checked::Listed {
            name: "foreign",
            description: "",
            input: &schema,
        }],
        &TYPED,
    );
    let description = findings[0].description().unwrap();
    assert!(description.len() < long.len());
    assert!(description.ends_with('…'), "{description}");
    assert!(findings[0].to_string().contains("word word"));
}

#[test]
fn a_foreign_root_is_never_flagged_but_must_be_an_object() {
    assert!(
        stitch::guard::check(
            &[stitch::guard::Checked::Listed {
                name: "ok",
                description: "",
                input: &json!({"type": "object"})
            }],
            &TYPED
        )
        .is_empty()
    );
    let findings = stitch::guard::check(
        &[stitch::guard::Checked::Listed {
            name: "bad name",
            description: "",
            input: &json!({}),
        }],
        &TYPED,
    );
    let kinds: Vec<FindingKind> = findings.iter().map(|f| f.kind()).collect();
    assert_eq!(kinds, [FindingKind::InvalidName, FindingKind::NotAnObject]);
}

every_contract_here!(Step, Plan, Lenient, Landing, Stop, Moves);
