//! How the valid path judges a field's value at a glance, decided in constant evaluation when
//! the field is declared: most fields of a call are integers with bounds and strings with
//! keywords, and for them "does this value pass as it is?" comes down to a comparison or two
//! (an integer in an interval, a length in bytes that settles the count of characters) and
//! the string's pattern and format checks, the format found once here rather than by its
//! name at every call. The answer is computed from the node's keywords by the rules the full
//! check applies (`Relation::integers`, the Rust type's range, the count's bounds by length,
//! the pattern's and the format's checks), so the two cannot disagree; any other node, and
//! any value a glance does not settle, is walked.

use stitch_rules::{Check, Format, Keyword};

use super::{KeywordValue, Kind, Node, checks};

/// What a field's value needs, when it is not `null`, to pass as it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum QuickCheck {
    /// An integer within `low..=high` (its bounds and its Rust type's range, intersected);
    /// any other value is walked.
    Integer { low: i128, high: i128 },
    /// A string whose characters surely number `fewest..=most` by its length in bytes, of
    /// this format and matching this pattern where they are set (a node with no transform);
    /// a string whose bytes leave its count open, and any other value, is walked.
    Text {
        fewest: u64,
        most: u64,
        pattern: Option<&'static str>,
        format: Option<Format>,
    },
    /// A boolean; any other value is walked.
    Boolean,
    /// Nothing at a glance: the value is walked.
    Walk,
}

impl QuickCheck {
    /// The quick check of a field of this node.
    pub(crate) const fn of(node: &Node) -> QuickCheck {
        match &node.kind {
            Kind::Integer(rules) => {
                let (mut low, mut high) = match rules.rust.integer_range() {
                    Some(range) => range,
                    // What serde_json reads an integer into.
                    None => (i64::MIN as i128, u64::MAX as i128),
                };
                let slots = node.kind.keyword_slots();
                let mut i = 0;
                while i < slots.keywords.len() {
                    if let Some(value) = slots.values[i] {
                        let Some((from, to)) = integers(slots.keywords[i], value) else {
                            return QuickCheck::Walk;
                        };
                        low = if from > low { from } else { low };
                        high = if to < high { to } else { high };
                    }
                    i += 1;
                }
                QuickCheck::Integer { low, high }
            }
            Kind::String(_) => {
                if node.checks & checks::TRANSFORMS != 0 {
                    return QuickCheck::Walk;
                }
                let (mut fewest, mut most, mut pattern, mut format) = (0, u64::MAX, None, None);
                let slots = node.kind.keyword_slots();
                let mut i = 0;
                while i < slots.keywords.len() {
                    match (slots.keywords[i].spec().check, slots.values[i]) {
                        (_, None) => {}
                        (Check::Count(true, _), Some(KeywordValue::Count(limit))) => {
                            fewest = limit;
                        }
                        (Check::Count(false, _), Some(KeywordValue::Count(limit))) => {
                            most = limit;
                        }
                        (Check::Pattern, Some(KeywordValue::Text(text))) => pattern = Some(text),
                        // A format outside the table is not checked, here as in the walk.
                        (Check::Format, Some(KeywordValue::Text(name))) => {
                            format = Format::named(name);
                        }
                        _ => return QuickCheck::Walk,
                    }
                    i += 1;
                }
                QuickCheck::Text {
                    fewest,
                    most,
                    pattern,
                    format,
                }
            }
            Kind::Boolean => QuickCheck::Boolean,
            _ => QuickCheck::Walk,
        }
    }
}

/// The integers a bound keyword admits; `None` for any other keyword (a step, a count).
const fn integers(keyword: Keyword, value: KeywordValue) -> Option<(i128, i128)> {
    match (keyword.spec().check, value) {
        (Check::Bound(relation), KeywordValue::Bound(bound)) => {
            Some(relation.integers(bound.value))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use stitch_rules::Format;

    use super::QuickCheck;
    use crate::node::{Bound, Kind, Node, NumberRules, NumberType, StringRules, checks};

    fn integer(rules: NumberRules) -> Node {
        Node::of(Kind::Integer(rules))
    }

    #[test]
    fn an_integer_takes_its_bounds_and_its_type_range() {
        let rules = NumberRules {
            minimum: Some(Bound::new("0.5", 0.5, false)),
            exclusive_maximum: Some(Bound::int("10", 10.0)),
            rust: NumberType::U8,
            ..NumberRules::NONE
        };
        assert_eq!(
            QuickCheck::of(&integer(rules)),
            QuickCheck::Integer { low: 1, high: 9 }
        );
        let wide = NumberRules {
            rust: NumberType::I8,
            maximum: Some(Bound::int("1000", 1000.0)),
            ..NumberRules::NONE
        };
        assert_eq!(
            QuickCheck::of(&integer(wide)),
            QuickCheck::Integer {
                low: -128,
                high: 127
            }
        );
    }

    #[test]
    fn a_string_takes_its_counts_pattern_and_format() {
        let all = StringRules {
            min_length: Some(1),
            max_length: Some(20),
            pattern: Some("^a"),
            format: Some("date-time"),
        };
        assert_eq!(
            QuickCheck::of(&Node::of(Kind::String(all))),
            QuickCheck::Text {
                fewest: 1,
                most: 20,
                pattern: Some("^a"),
                format: Some(Format::DateTime)
            }
        );
        let unknown_format = StringRules {
            format: Some("cuid2"),
            ..StringRules::NONE
        };
        assert_eq!(
            QuickCheck::of(&Node::of(Kind::String(unknown_format))),
            QuickCheck::Text {
                fewest: 0,
                most: u64::MAX,
                pattern: None,
                format: None
            }
        );
    }

    #[test]
    fn a_step_a_transform_or_a_float_is_walked() {
        let stepped = NumberRules {
            multiple_of: Some(Bound::int("2", 2.0)),
            ..NumberRules::NONE
        };
        assert_eq!(QuickCheck::of(&integer(stepped)), QuickCheck::Walk);
        let mut trimmed = Node::of(Kind::String(StringRules::NONE));
        trimmed.checks = checks::TRIM;
        assert_eq!(QuickCheck::of(&trimmed), QuickCheck::Walk);
        assert_eq!(
            QuickCheck::of(&Node::of(Kind::Number(NumberRules::NONE))),
            QuickCheck::Walk
        );
    }
}
