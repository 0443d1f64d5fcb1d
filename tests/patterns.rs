//! `pattern` means in `parse` what it means in the advertised schema: ECMA-262, read in
//! Unicode mode. Two independent oracles judge a table of patterns and tricky strings: a
//! real ECMA-262 engine (`regress`) and the `jsonschema` validator over the advertised schema.
//!
//! The validator is itself not exact in one place: it reads `\b` as a Unicode word boundary,
//! where ECMA-262 (without the `i` flag) has an ASCII one. Those cases are listed, and there
//! `parse` follows ECMA-262.

mod common;

use common::{json, validator};
use serde::Deserialize;
use serde_json::json;
use stitch::Contract;

macro_rules! pattern_contracts {
    ($($name:ident = $pattern:literal;)*) => {
        $(
            #[derive(Contract, Deserialize)]
            #[allow(dead_code)]
            struct $name {
                #[contract(pattern = $pattern)]
                value: String,
            }
        )*
        /// Each contract's pattern, and whether its `parse` accepts a string.
        const CONTRACTS: &[(&str, fn(&str) -> bool, &str)] = &[
            $((
                $pattern,
                |text| $name::parse(json!({ "value": text })).is_ok(),
                $name::INPUT_SCHEMA,
            ),)*
        ];
    };
}

pattern_contracts! {
    Digits = r"^\d+$";
    NotDigits = r"^\D+$";
    Word = r"^\w+$";
    NotWord = r"^\W+$";
    Space = r"^\s+$";
    NotSpace = r"^\S+$";
    AnyButLineEnds = r"^.+$";
    OneCharacter = r"^.$";
    Between = r"a.c";
    WholeWord = r"\bcat\b";
    InsideWord = r"\Bat";
    ClassOfClasses = r"^[\d\w-]+$";
    NegatedClass = r"^[^\d\s]+$";
    DotInClass = r"^[.]+$";
    MediaId = r"^med_[a-z0-9]{8,}$";
}

const STRINGS: &[&str] = &[
    "",
    "123",
    "\u{661}\u{662}\u{663}",
    "abc",
    "é",
    "x-1_y",
    "a\rb",
    "a\nb",
    "a\u{2028}b",
    "a\u{2029}b",
    "abc\n",
    " ",
    "\t",
    "\u{a0}",
    "\u{85}",
    "\u{feff}",
    "\u{2003}",
    "\u{180e}",
    "cat",
    "bobcat",
    "écat",
    "caté",
    "a cat!",
    "😀",
    "ab😀",
    "a😀c",
    "...",
    "med_abc12345",
    "med_ABC12345",
    "k\u{212a}",
];

/// Where the `jsonschema` validator departs from ECMA-262 (its `\b` is Unicode-aware).
const VALIDATOR_DEPARTS: &[(&str, &str)] = &[(r"\bcat\b", "écat"), (r"\bcat\b", "caté")];

#[test]
fn parse_reads_patterns_as_ecma_262_does() {
    let mut disagreements = Vec::new();
    for &(pattern, accepts, schema) in CONTRACTS {
        let ecma = regress::Regex::with_flags(pattern, "u").expect("an ECMA-262 pattern");
        let oracle = validator(&json(schema));
        for &text in STRINGS {
            let by_parse = accepts(text);
            let by_ecma = ecma.find(text).is_some();
            let by_the_schema = oracle.is_valid(&json!({ "value": text }));
            let validator_departs = VALIDATOR_DEPARTS.contains(&(pattern, text));
            assert_eq!(
                by_ecma != by_the_schema,
                validator_departs,
                "the validator's departures are the listed ones: {pattern} on {text:?}"
            );
            if by_parse != by_ecma || (by_parse != by_the_schema && !validator_departs) {
                disagreements.push(format!(
                    "{pattern} on {text:?}: parse {by_parse}, ECMA-262 {by_ecma}, \
                     jsonschema {by_the_schema}"
                ));
            }
        }
    }
    assert!(disagreements.is_empty(), "{disagreements:#?}");
}

every_contract_here!(
    Digits,
    NotDigits,
    Word,
    NotWord,
    Space,
    NotSpace,
    AnyButLineEnds,
    OneCharacter,
    Between,
    WholeWord,
    InsideWord,
    ClassOfClasses,
    NegatedClass,
    DotInClass,
    MediaId
);
