//! Budgets: each provider limit of the guard, at its figure and one past it, through
//! `over_budget` on schema texts; and the two contracts of the issue (objects 12 levels deep,
//! an enum of 1,001 values) through `guard::check` at run time and `check_dialects` at
//! compile time (tests/ui/over-budget-*.rs fail to build; the passing ones build here).

#![allow(
    dead_code,
    reason = "the contracts' fields are read by their schemas, not by the tests"
)]

use serde::Deserialize;
use stitch::{
    Contract, Dialect, SchemaProfile, guard::FindingKind, guard::Limit, guard::over_budget,
};

#[path = "budgets/codes.rs"]
mod codes;
mod common;
#[path = "budgets/deep.rs"]
mod deep;

/// Objects 12 levels deep. It builds: every dialect here says it within budget.
#[derive(Contract, Deserialize)]
#[contract(name = "deep", check_dialects("mcp", "portable", "anthropic-strict"))]
struct Deep12 {
    next: deep::Twelve2,
}

/// Objects 10 levels deep: within OpenAI's budget, and checked so at compile time.
#[derive(Contract, Deserialize)]
#[contract(name = "ten", check_dialects("openai-strict"))]
struct Deep10 {
    next: deep::Ten2,
}

/// A code of 1,001 values.
#[derive(Contract, Deserialize)]
#[contract(name = "pick", check_dialects("mcp"))]
struct PickCode {
    code: codes::Code,
}

fn over(tool: stitch::Tool, dialect: Dialect) -> Vec<(Limit, u64)> {
    stitch::guard::check(&[tool.into()], &SchemaProfile::new().dialect(dialect))
        .iter()
        .filter(|finding| finding.kind() == FindingKind::OverBudget)
        .map(|finding| (finding.limit().unwrap(), finding.figure().unwrap()))
        .collect()
}

#[test]
fn twelve_levels_are_over_openai_strict_and_nothing_else() {
    assert_eq!(
        over(Deep12::TOOL, Dialect::OpenAiStrict),
        [(Limit::Nesting, 12)]
    );
    for dialect in [Dialect::Mcp, Dialect::Portable, Dialect::AnthropicStrict] {
        assert_eq!(over(Deep12::TOOL, dialect), [], "{dialect}");
    }
    assert_eq!(over(Deep10::TOOL, Dialect::OpenAiStrict), []);
    assert_eq!(Deep12::MEASURES[Dialect::OpenAiStrict as usize].nesting, 12);
    assert_eq!(Deep10::measure_in(Dialect::Mcp).nesting, 10);
}

#[test]
fn a_1001_value_enum_is_over_openai_strict_and_not_mcp() {
    assert_eq!(
        over(PickCode::TOOL, Dialect::OpenAiStrict),
        [(Limit::EnumValues, 1001)]
    );
    assert_eq!(over(PickCode::TOOL, Dialect::Mcp), []);
    let finding = &stitch::guard::check(
        &[PickCode::TOOL.into()],
        &SchemaProfile::new().dialect(Dialect::OpenAiStrict),
    )[0];
    let message = finding.to_string();
    assert!(
        message.contains("tool \"pick\" is over budget: 1001 enum values in one schema")
            && message.contains("openai-strict clients take at most 1000")
            && message.contains("structured-outputs"),
        "{message}"
    );
}

#[test]
fn the_measures_made_by_the_compiler_are_the_measures_of_the_text() {
    for &dialect in Dialect::ALL {
        assert_eq!(
            PickCode::MEASURES[dialect as usize],
            stitch::measure::Measure::of(PickCode::input_schema_for(dialect)),
            "{dialect}"
        );
        assert_eq!(
            Deep12::measure_in(dialect),
            Deep12::TOOL.measure_in(dialect),
            "{dialect}"
        );
    }
}

#[path = "../examples/contracts/broadcast_patch.rs"]
mod broadcast_patch;

// Over a budget in some dialect on purpose: in the snapshot, not the harness.
every_contract_here_is_in_the_snapshot!(Deep12, Deep10, PickCode);

#[test]
fn the_token_estimate_is_near_the_o200k_count() {
    // Every dialect of the incident contract and its exact schema, and the schemas above.
    let o200k = tiktoken_rs::o200k_base().expect("the tokenizer loads");
    let mut texts: Vec<&str> = Dialect::ALL
        .iter()
        .map(|dialect| broadcast_patch::BroadcastPatch::input_schema_for(*dialect))
        .collect();
    texts.push(broadcast_patch::BroadcastPatch::EXACT_SCHEMA);
    texts.push(Deep12::INPUT_SCHEMA);
    texts.push(PickCode::INPUT_SCHEMA);
    for text in texts {
        let counted = o200k.encode_ordinary(text).len() as f64;
        let estimated = stitch::measure::estimate_tokens(text) as f64;
        let ratio = estimated / counted;
        assert!((0.85..=1.15).contains(&ratio), "{ratio:.3}: {text}");
    }
}

/// An object schema of `count` string properties named by `name`, nested once per `levels`.
fn object(count: usize, name: impl Fn(usize) -> String) -> String {
    let properties: Vec<String> = (0..count)
        .map(|i| format!(r#""{}":{{"type":"string"}}"#, name(i)))
        .collect();
    format!(
        r#"{{"type":"object","properties":{{{}}},"additionalProperties":false}}"#,
        properties.join(",")
    )
}

fn nested(levels: usize) -> String {
    (1..levels).fold(object(1, |_| "leaf".into()), |inner, _| {
        format!(r#"{{"type":"object","properties":{{"x":{inner}}},"required":["x"]}}"#)
    })
}

fn enum_of(values: usize, width: usize) -> String {
    let values: Vec<String> = (0..values).map(|i| format!(r#""{i:0width$}""#)).collect();
    format!(
        r#"{{"type":"object","properties":{{"e":{{"type":"string","enum":[{}]}}}},"required":["e"]}}"#,
        values.join(",")
    )
}

/// The findings of one tool's schema in a dialect, as (limit, figure).
fn limits(dialect: Dialect, schema: &str) -> Vec<(Limit, u64)> {
    limits_of(dialect, &[("tool", schema)])
}

fn limits_of(dialect: Dialect, tools: &[(&str, &str)]) -> Vec<(Limit, u64)> {
    over_budget(
        dialect,
        tools.iter().map(|(name, schema)| (*name, "", *schema)),
    )
    .iter()
    .map(|finding| (finding.limit().unwrap(), finding.figure().unwrap()))
    .collect()
}

/// Asserts that `at` passes in every dialect the limit binds (one at least), that `past` is
/// reported there with `figure`, and that the dialects it does not bind report neither.
fn at_and_past(limit: Limit, at: &str, past: &str, figure: u64) {
    let mut bound = 0;
    for &dialect in Dialect::ALL {
        if limit.binds_dialect(dialect) {
            bound += 1;
            assert_eq!(
                limits(dialect, at),
                [],
                "{limit:?} at its figure in {dialect}"
            );
            assert_eq!(
                limits(dialect, past),
                [(limit, figure)],
                "{limit:?} in {dialect}"
            );
        } else {
            let past = limits(dialect, past);
            assert!(
                !past.iter().any(|(l, _)| *l == limit),
                "{limit:?} in {dialect}"
            );
        }
    }
    assert!(bound > 0, "{limit:?} binds no dialect");
    assert_eq!(limits(Dialect::Mcp, past), [], "{limit:?} in mcp");
}

#[test]
fn openai_strict_object_properties() {
    let at = object(5_000, |i| format!("p{i}"));
    let past = object(5_001, |i| format!("p{i}"));
    at_and_past(Limit::ObjectProperties, &at, &past, 5_001);
}

#[test]
fn openai_strict_nesting() {
    at_and_past(Limit::Nesting, &nested(10), &nested(11), 11);
}

#[test]
fn openai_strict_characters_of_names_and_values() {
    // 1,000 names of 120 characters are 120,000; one more character is over.
    let at = object(1_000, |i| format!("{i:0120}"));
    let past = object(1_000, |i| {
        if i == 0 {
            format!("{i:0121}")
        } else {
            format!("{i:0120}")
        }
    });
    at_and_past(Limit::NameAndValueChars, &at, &past, 120_001);
}

#[test]
fn openai_strict_enum_values() {
    at_and_past(
        Limit::EnumValues,
        &enum_of(1_000, 3),
        &enum_of(1_001, 4),
        1_001,
    );
}

#[test]
fn openai_strict_characters_of_a_long_enum() {
    // 300 values of 50 characters are 15,000; of 51, 15,300. 250 values of 61 are not a long
    // enum, however many characters they hold.
    let (at, past) = (enum_of(300, 50), enum_of(300, 51));
    at_and_past(Limit::LongEnumChars, &at, &past, 15_300);
    assert_eq!(limits(Dialect::OpenAiStrict, &enum_of(250, 61)), []);
}

/// The names of `count` tools, `t0` on, and the one small schema they share.
fn many_tools(count: usize) -> (Vec<String>, String) {
    let names = (0..count).map(|i| format!("t{i}")).collect();
    (names, object(1, |_| "a".into()))
}

#[test]
fn gemini_declarations_in_one_request() {
    let (names, schema) = many_tools(513);
    let tools: Vec<(&str, &str)> = names
        .iter()
        .map(|n| (n.as_str(), schema.as_str()))
        .collect();
    assert_eq!(limits_of(Dialect::Portable, &tools[..512]), []);
    let findings = over_budget(
        Dialect::Portable,
        tools.iter().map(|(name, schema)| (*name, "", *schema)),
    );
    assert_eq!(findings.len(), 1);
    assert_eq!(findings[0].limit(), Some(Limit::Declarations));
    assert_eq!(findings[0].figure(), Some(513));
    assert_eq!(
        findings[0].tool(),
        "t512",
        "the tool that crosses the limit"
    );
    assert_eq!(limits_of(Dialect::Mcp, &tools), []);
}

#[test]
fn openai_tools_in_one_request() {
    let (names, schema) = many_tools(129);
    let tools: Vec<(&str, &str)> = names
        .iter()
        .map(|n| (n.as_str(), schema.as_str()))
        .collect();
    assert_eq!(limits_of(Dialect::OpenAiStrict, &tools[..128]), []);
    assert_eq!(
        limits_of(Dialect::OpenAiStrict, &tools),
        [(Limit::Tools, 129)]
    );
    assert_eq!(limits_of(Dialect::Mcp, &tools), []);
}

#[test]
fn gemini_max_items_over_one_tool() {
    let schema = |a: u64, b: u64| {
        format!(
            r#"{{"type":"object","properties":{{"a":{{"type":"array","items":{{"type":"string"}},"maxItems":{a}}},"b":{{"type":"array","items":{{"type":"string"}},"maxItems":{b}}}}}}}"#
        )
    };
    at_and_past(
        Limit::MaxItemsSum,
        &schema(480, 480),
        &schema(480, 481),
        961,
    );
}

#[test]
fn gemini_bytes_of_declarations_in_one_request() {
    // Two tools whose names and schemas come to 77,000 bytes, then one byte more.
    let filler = |len: usize| {
        format!(
            r#"{{"type":"object","description":"{}"}}"#,
            "x".repeat(len - 34)
        )
    };
    let (a, b) = (filler(38_499), filler(38_499));
    assert_eq!(a.len() + "a".len(), 38_500);
    assert_eq!(limits_of(Dialect::Portable, &[("a", &a), ("b", &b)]), []);
    let c = filler(38_500);
    assert_eq!(
        limits_of(Dialect::Portable, &[("a", &a), ("b", &c)]),
        [(Limit::DeclarationBytes, 77_001)]
    );
}

#[test]
fn gemini_name_length() {
    let at = object(1, |_| "n".repeat(64));
    let past = object(1, |_| "n".repeat(65));
    at_and_past(Limit::NameLength, &at, &past, 65);
    let long_name = "t".repeat(65);
    let schema = object(1, |_| "a".into());
    assert_eq!(
        limits_of(Dialect::Portable, &[(&long_name, &schema)]),
        [(Limit::NameLength, 65)]
    );
}

#[test]
fn anthropic_strict_tools_in_one_request() {
    let (names, schema) = many_tools(21);
    let tools: Vec<(&str, &str)> = names
        .iter()
        .map(|n| (n.as_str(), schema.as_str()))
        .collect();
    assert_eq!(limits_of(Dialect::AnthropicStrict, &tools[..20]), []);
    assert_eq!(
        limits_of(Dialect::AnthropicStrict, &tools),
        [(Limit::StrictTools, 21)]
    );
}

#[test]
fn anthropic_strict_optional_parameters_over_a_request() {
    // `object` requires nothing: each property is optional. 12 and 12 are 24; 12 and 13, 25.
    let twelve = object(12, |i| format!("p{i}"));
    let thirteen = object(13, |i| format!("p{i}"));
    let dialect = Dialect::AnthropicStrict;
    assert_eq!(limits_of(dialect, &[("a", &twelve), ("b", &twelve)]), []);
    assert_eq!(
        limits_of(dialect, &[("a", &twelve), ("b", &thirteen)]),
        [(Limit::OptionalParameters, 25)]
    );
}

#[test]
fn anthropic_strict_union_parameters_over_a_request() {
    let unions = |count: usize| {
        let properties: Vec<String> = (0..count)
            .map(|i| format!(r#""u{i}":{{"anyOf":[{{"type":"string"}},{{"type":"integer"}}]}}"#))
            .collect();
        let required: Vec<String> = (0..count).map(|i| format!(r#""u{i}""#)).collect();
        format!(
            r#"{{"type":"object","properties":{{{}}},"required":[{}]}}"#,
            properties.join(","),
            required.join(",")
        )
    };
    at_and_past(Limit::UnionParameters, &unions(16), &unions(17), 17);
}

#[test]
fn every_limit_has_its_test_above() {
    // The tests above cover `Limit::ALL`, one each: a new limit fails here until it has one.
    assert_eq!(Limit::ALL.len(), 13);
}
