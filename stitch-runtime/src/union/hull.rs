//! The hull of a set of nodes of one kind: the node whose keywords every member's values
//! meet. A lower or upper limit is kept at the loosest member's (an exclusive limit is looser
//! than none only where no member lacks one: a member without a limit means none); any other
//! keyword (`format`, `pattern`, `multipleOf`, `uniqueItems`) only where every member sets it
//! alike. What the members hold inside (items, values, fields) is not here: rendering steps
//! into the set for it, and the collision rules decide it again.

use stitch_rules::{Keyword, Limit};

use super::set::NodeSet;
use crate::ir::{ArrayRules, KeywordValue, Kind, MapRules, Node, NumberRules, StringRules, kinds};

/// The hull of a set whose members share one kind (`kind_bits`, with `null` when some member
/// accepts it), as `decide` found it.
pub const fn hull_node<'a>(set: NodeSet<'a>, kind_bits: u8) -> Node<'a> {
    let first = match set.first() {
        Some(member) => member.node,
        None => &Node::OPAQUE,
    };
    let mut kind = match kind_bits & !kinds::NULL {
        kinds::INTEGER => Kind::Integer(NumberRules::NONE),
        kinds::NUMBER => Kind::Number(NumberRules::NONE),
        kinds::STRING => Kind::String(StringRules::NONE),
        kinds::BOOLEAN => Kind::Boolean,
        _ => match first.kind {
            Kind::Array(item, _) => Kind::Array(item, ArrayRules::NONE),
            Kind::Map(value, _) => Kind::Map(value, MapRules::NONE),
            other => other,
        },
    };
    let keywords = kind.keyword_slots().keywords;
    let mut i = 0;
    while i < keywords.len() {
        let keyword = keywords[i];
        let kept = match keyword.spec().check.limit() {
            Some(Limit { lower, .. }) => loosest_limit(set, keyword, lower),
            None => agreed_value(set, keyword),
        };
        if let Some(value) = kept
            && let Some(with) = kind.with_keyword(keyword, value)
        {
            kind = with;
        }
        i += 1;
    }
    let mut node = Node::of(kind);
    node.nullable = kind_bits & kinds::NULL != 0;
    node.omittable = node.nullable;
    node
}

/// The value of `keyword` if it is the loosest limit on its side (`lower` or upper) over the
/// set: every member limits that side, and the loosest member's limit is this keyword's.
const fn loosest_limit<'a>(
    set: NodeSet<'a>,
    keyword: Keyword,
    lower: bool,
) -> Option<KeywordValue<'a>> {
    let mut loosest: Option<(Keyword, KeywordValue)> = None;
    let mut members = set.members();
    while let Some(member) = members.next() {
        let Some(limit) = tightest_limit(&member.node.kind, lower) else {
            return None;
        };
        loosest = match loosest {
            Some(held) if !looser(limit, held, lower) => Some(held),
            _ => Some(limit),
        };
    }
    match loosest {
        Some((held, value)) if held as usize == keyword as usize => Some(value),
        _ => None,
    }
}

/// A node's own tightest limit on one side, among the keywords that limit it.
const fn tightest_limit<'a>(
    kind: &'a Kind<'a>,
    lower: bool,
) -> Option<(Keyword, KeywordValue<'a>)> {
    let slots = kind.keyword_slots();
    let mut tightest: Option<(Keyword, KeywordValue)> = None;
    let mut i = 0;
    while i < slots.keywords.len() {
        let keyword = slots.keywords[i];
        if let (Some(Limit { lower: side, .. }), Some(value)) =
            (keyword.spec().check.limit(), slots.values[i])
            && side == lower
        {
            tightest = match tightest {
                Some(held) if looser((keyword, value), held, lower) => Some(held),
                _ => Some((keyword, value)),
            };
        }
        i += 1;
    }
    tightest
}

/// Whether limit `a` lets through more than limit `b` on one side; of two alike, the one
/// whose text sorts first counts as looser, so the choice never depends on member order.
const fn looser(a: (Keyword, KeywordValue), b: (Keyword, KeywordValue), lower: bool) -> bool {
    let (a_excluded, b_excluded) = (excludes(a.0), excludes(b.0));
    let (x, y) = match (a.1, b.1) {
        (KeywordValue::Bound(x), KeywordValue::Bound(y)) => {
            if x.value != y.value {
                return (x.value < y.value) == lower;
            }
            if a_excluded != b_excluded {
                return !a_excluded;
            }
            (x.text, y.text)
        }
        (KeywordValue::Count(x), KeywordValue::Count(y)) => {
            if x != y {
                return (x < y) == lower;
            }
            return !a_excluded && b_excluded;
        }
        _ => return false,
    };
    text_before(x, y)
}

/// Whether a limiting keyword excludes its own value (`exclusiveMinimum`).
const fn excludes(keyword: Keyword) -> bool {
    match keyword.spec().check.limit() {
        Some(limit) => limit.exclusive,
        None => false,
    }
}

/// Whether `a` sorts before `b`, byte by byte.
const fn text_before(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut i = 0;
    while i < a.len() && i < b.len() {
        if a[i] != b[i] {
            return a[i] < b[i];
        }
        i += 1;
    }
    a.len() < b.len()
}

/// The value every member sets `keyword` to, if they all set it alike.
const fn agreed_value<'a>(set: NodeSet<'a>, keyword: Keyword) -> Option<KeywordValue<'a>> {
    let mut agreed: Option<KeywordValue> = None;
    let mut members = set.members();
    while let Some(member) = members.next() {
        let value = member.node.kind.keyword(keyword);
        match (agreed, value) {
            (_, None) => return None,
            (None, Some(value)) => agreed = Some(value),
            (Some(held), Some(value)) => {
                if !held.same(value) {
                    return None;
                }
            }
        }
    }
    agreed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Bound;

    fn limit(keyword: Keyword, n: f64, text: &'static str) -> (Keyword, KeywordValue<'static>) {
        (keyword, KeywordValue::Bound(Bound::new(text, n, true)))
    }

    #[test]
    fn a_limit_is_looser_when_it_lets_more_through_on_its_side() {
        use Keyword::*;
        let cases = [
            // Lower limits: the smaller, or the inclusive one at the same value.
            (
                limit(Minimum, 0.0, "0"),
                limit(Minimum, 1.0, "1"),
                true,
                true,
            ),
            (
                limit(Minimum, 1.0, "1"),
                limit(Minimum, 0.0, "0"),
                true,
                false,
            ),
            (
                limit(Minimum, 0.0, "0"),
                limit(ExclusiveMinimum, 0.0, "0"),
                true,
                true,
            ),
            (
                limit(ExclusiveMinimum, 0.0, "0"),
                limit(Minimum, 0.0, "0"),
                true,
                false,
            ),
            // Upper limits: the larger, or the inclusive one at the same value.
            (
                limit(Maximum, 9.0, "9"),
                limit(Maximum, 5.0, "5"),
                false,
                true,
            ),
            (
                limit(Maximum, 5.0, "5"),
                limit(ExclusiveMaximum, 5.0, "5"),
                false,
                true,
            ),
            (
                limit(ExclusiveMaximum, 5.0, "5"),
                limit(Maximum, 5.0, "5"),
                false,
                false,
            ),
            // The same value written two ways: the text that sorts first, whatever the order.
            (
                limit(Minimum, 100.0, "100"),
                limit(Minimum, 100.0, "1e2"),
                true,
                true,
            ),
            (
                limit(Minimum, 100.0, "1e2"),
                limit(Minimum, 100.0, "100"),
                true,
                false,
            ),
        ];
        for (a, b, lower, expected) in cases {
            assert_eq!(looser(a, b, lower), expected, "{a:?} than {b:?}");
        }
        let count = |keyword, n| (keyword, KeywordValue::Count(n));
        assert!(looser(count(MinItems, 1), count(MinItems, 2), true));
        assert!(!looser(count(MaxItems, 1), count(MaxItems, 2), false));
        assert!(!looser(count(MaxItems, 2), count(MaxItems, 2), false));
    }
}
