//! How the valid path judges a field's value at a glance, decided in constant evaluation when
//! the field is declared: most fields of a call are integers with bounds and strings with
//! keywords, and for them "does this value pass as it is?" comes down to a comparison or two
//! (an integer in an interval, a length in bytes that settles the count of characters) and
//! the string's pattern and format checks, the format found once here rather than by its
//! name at every call. The answer is computed from the node's keywords by the rules the full
//! check applies (`Relation::integers`, the Rust type's range, the count's bounds by length,
//! the pattern's and the format's checks), so the two cannot disagree; any other node, and
//! any value a glance does not settle, is walked.

use stitch_rules::{Check, Format, Keyword, Relation};

use super::{Bound, Kind, Node, checks};

/// The relation each bound keyword sets, in the order of `NumberRules`' slots (minimum,
/// maximum, exclusive minimum, exclusive maximum), as the table has it: read once when this
/// crate is compiled, so that constant evaluation (which computes a quick check for every
/// field it declares) reads constants, not the table.
const BOUND_RELATIONS: [Relation; 4] = {
    let keywords = [
        Keyword::Minimum,
        Keyword::Maximum,
        Keyword::ExclusiveMinimum,
        Keyword::ExclusiveMaximum,
    ];
    let mut relations = [Relation::AtLeast; 4];
    let mut i = 0;
    while i < keywords.len() {
        let Check::Bound(relation) = keywords[i].spec().check else {
            panic!("a bound keyword sets a relation");
        };
        relations[i] = relation;
        i += 1;
    }
    relations
};

/// What a field's value needs, when it is not `null`, to pass as it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[doc(hidden)]
#[allow(
    clippy::exhaustive_enums,
    reason = "named by generated code only, through the hidden `__private` module"
)]
pub enum QuickCheck {
    /// An integer within `low..=high` (its bounds and its Rust type's range, intersected);
    /// any other value is walked.
    Integer { low: i128, high: i128 },
    /// A string whose characters surely number `fewest..=most` by its length in bytes, of
    /// this format where it is set and matching the node's pattern when it has one (a node
    /// with no transform); a string whose bytes leave its count open, and any other value,
    /// is walked. The pattern is read from the node when it is needed: a reference kept in
    /// every field would cost constant evaluation more than the load costs `parse`.
    Text {
        fewest: u64,
        most: u64,
        patterned: bool,
        format: Option<Format>,
    },
    /// A boolean; any other value is walked.
    Boolean,
    /// Nothing at a glance: the value is walked.
    Walk,
}

impl QuickCheck {
    /// The quick check of a field of this node. It runs in constant evaluation for every
    /// field a contract declares, so it reads the rules' slots directly rather than
    /// gathering them (each slot's keyword is named, and its check is the table's).
    pub(crate) const fn of(node: &Node) -> QuickCheck {
        match &node.kind {
            Kind::Integer(rules) => {
                if rules.multiple_of.is_some() {
                    return QuickCheck::Walk;
                }
                let range = match rules.rust.integer_range() {
                    Some(range) => range,
                    // What serde_json reads an integer into.
                    None => (i64::MIN as i128, u64::MAX as i128),
                };
                let [minimum, maximum, above, below] = BOUND_RELATIONS;
                let range = narrowed(range, minimum, rules.minimum);
                let range = narrowed(range, maximum, rules.maximum);
                let range = narrowed(range, above, rules.exclusive_minimum);
                let (low, high) = narrowed(range, below, rules.exclusive_maximum);
                QuickCheck::Integer { low, high }
            }
            Kind::String(rules) if node.checks & checks::TRANSFORMS == 0 => QuickCheck::Text {
                fewest: match rules.min_length {
                    Some(limit) => limit,
                    None => 0,
                },
                most: match rules.max_length {
                    Some(limit) => limit,
                    None => u64::MAX,
                },
                patterned: rules.pattern.is_some(),
                // A format outside the table is not checked, here as in the walk.
                format: match rules.format {
                    Some(name) => Format::named(name),
                    None => None,
                },
            },
            Kind::Boolean => QuickCheck::Boolean,
            _ => QuickCheck::Walk,
        }
    }
}

/// An interval of integers narrowed to those a bound admits, when it is set.
const fn narrowed(
    (low, high): (i128, i128),
    relation: Relation,
    bound: Option<Bound>,
) -> (i128, i128) {
    let Some(bound) = bound else {
        return (low, high);
    };
    let (from, to) = relation.integers(bound.value);
    (
        if from > low { from } else { low },
        if to < high { to } else { high },
    )
}

#[cfg(test)]
mod tests {
    use stitch_rules::Format;

    use super::QuickCheck;
    use crate::ir::{Bound, Kind, Node, NumberRules, NumberType, StringRules, checks};

    fn integer(rules: NumberRules) -> Node {
        Node::of(Kind::Integer(rules))
    }

    /// The slots read directly are the keywords' as the table has them: a string's lengths
    /// are counts of characters at least and at most, its pattern and format their checks.
    #[test]
    fn the_slots_read_are_the_tables_keywords() {
        use stitch_rules::{Check, Counted, Keyword};
        let check = |keyword: Keyword| keyword.spec().check;
        assert_eq!(
            check(Keyword::MinLength),
            Check::Count(true, Counted::Characters)
        );
        assert_eq!(
            check(Keyword::MaxLength),
            Check::Count(false, Counted::Characters)
        );
        assert_eq!(check(Keyword::Pattern), Check::Pattern);
        assert_eq!(check(Keyword::Format), Check::Format);
        let strings = Kind::String(StringRules::NONE).keyword_slots().keywords;
        assert_eq!(
            strings,
            [
                Keyword::MinLength,
                Keyword::MaxLength,
                Keyword::Pattern,
                Keyword::Format
            ]
        );
        let numbers = Kind::Integer(NumberRules::NONE).keyword_slots().keywords;
        assert_eq!(
            numbers,
            [
                Keyword::Minimum,
                Keyword::Maximum,
                Keyword::ExclusiveMinimum,
                Keyword::ExclusiveMaximum,
                Keyword::MultipleOf
            ]
        );
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
                patterned: true,
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
                patterned: false,
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
