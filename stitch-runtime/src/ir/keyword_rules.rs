//! Where each keyword's value lives in the IR: [`Kind::keyword`] reads a keyword's slot and
//! [`Kind::with_keyword`] sets it, the one place that maps the keyword table's keywords to the
//! rules of `value_rules`. Everything else asks by keyword.

use stitch_rules::{Class, Keyword, Limit};

use super::{Bound, KeywordValue, Kind};

const fn bound<'a>(slot: Option<Bound<'a>>) -> Option<KeywordValue<'a>> {
    match slot {
        Some(bound) => Some(KeywordValue::Bound(bound)),
        None => None,
    }
}

const fn count(slot: Option<u64>) -> Option<KeywordValue<'static>> {
    match slot {
        Some(count) => Some(KeywordValue::Count(count)),
        None => None,
    }
}

const fn text<'a>(slot: Option<&'a str>) -> Option<KeywordValue<'a>> {
    match slot {
        Some(text) => Some(KeywordValue::Text(text)),
        None => None,
    }
}

/// Each keyword's limit (which side of a value it bounds), by keyword: the table's, read once
/// when this crate is compiled, so that constant evaluation reads a constant, not a call.
const LIMITS: [Option<Limit>; Keyword::ALL.len()] = {
    let mut limits = [None; Keyword::ALL.len()];
    let mut i = 0;
    while i < Keyword::ALL.len() {
        limits[i] = Keyword::ALL[i].spec().check.limit();
        i += 1;
    }
    limits
};

/// The most keywords one class of values takes (numbers take five).
const MOST_KEYWORDS: usize = 5;

const _: () = assert!(
    Keyword::of_class(Class::Number).len() <= MOST_KEYWORDS
        && Keyword::of_class(Class::String).len() <= MOST_KEYWORDS
        && Keyword::of_class(Class::Array).len() <= MOST_KEYWORDS
        && Keyword::of_class(Class::Map).len() <= MOST_KEYWORDS,
    "a class takes more keywords than a node has slots for"
);

/// Every keyword of a kind's class (in the order a schema writes them), each with its value
/// when set: `values[i]` is the value of `keywords[i]`.
#[derive(Clone, Copy, Debug)]
#[allow(
    clippy::exhaustive_structs,
    reason = "the IR the derive's generated code builds in constants, by struct literal"
)]
pub struct KeywordSlots<'a> {
    /// The class's keywords.
    pub keywords: &'static [Keyword],
    /// Their values, where set.
    pub values: [Option<KeywordValue<'a>>; MOST_KEYWORDS],
}

/// The one list of where each keyword lives, per kind (in table order), written out as the
/// two readers it makes: [`Kind::keyword_slots`], for constant evaluation (one match, one
/// array: a writer pays for every call), and `Kind::each_keyword`, for `parse` (no array
/// built, nothing copied that is not set).
macro_rules! keyword_slots {
    ($($pattern:pat => $class:ident [$($keyword:ident: $read:expr),* $(,)?]),* $(,)?) => {
        impl<'a> Kind<'a> {
            /// Every keyword of this kind's class, each with its value here when set.
            pub const fn keyword_slots(&self) -> KeywordSlots<'a> {
                match self {
                    $($pattern => KeywordSlots {
                        keywords: &[$(Keyword::$keyword),*],
                        values: fill([$($read),*]),
                    },)*
                    _ => KeywordSlots {
                        keywords: &[],
                        values: [None; MOST_KEYWORDS],
                    },
                }
            }

            /// A limit set here on the other side of `keyword` (just set here to `value`)
            /// that leaves no value between the two: the lower one, then the upper one. Each
            /// keyword's side is a constant ([`LIMITS`]) and only the other side's slots are
            /// read: this runs for every attribute of every field in constant evaluation.
            pub(crate) const fn contradiction_with(
                &self,
                keyword: Keyword,
                value: KeywordValue<'a>,
            ) -> Option<((Keyword, KeywordValue<'a>), (Keyword, KeywordValue<'a>))> {
                let Some(new) = LIMITS[keyword as usize] else {
                    return None;
                };
                let integer = matches!(self, Kind::Integer(_));
                match self {
                    $($pattern => {
                        $(if let Some(limit) = LIMITS[Keyword::$keyword as usize]
                            && limit.lower != new.lower
                            && let Some(other) = $read
                        {
                            let (low, high) = if new.lower {
                                ((keyword, value, new.exclusive), (Keyword::$keyword, other, limit.exclusive))
                            } else {
                                ((Keyword::$keyword, other, limit.exclusive), (keyword, value, new.exclusive))
                            };
                            if leaves_nothing(low.1, low.2, high.1, high.2, integer) {
                                return Some(((low.0, low.1), (high.0, high.1)));
                            }
                        })*
                        None
                    })*
                    _ => None,
                }
            }

            /// Shows `visitor` each keyword set here and its value, in table order.
            #[inline(always)]
            pub(crate) fn each_keyword(&self, visitor: &mut impl KeywordVisitor<'a>) {
                match self {
                    $($pattern => {
                        $(if let Some(value) = $read {
                            visitor.visit(Keyword::$keyword, value);
                        })*
                    })*
                    _ => {}
                }
            }
        }

        #[cfg(test)]
        /// The class each pattern's keywords are listed for.
        const LISTED_CLASSES: &[Class] = &[$(Class::$class),*];
    };
}

keyword_slots! {
    Kind::Integer(rules) | Kind::Number(rules) => Number [
        Minimum: bound(rules.minimum),
        Maximum: bound(rules.maximum),
        ExclusiveMinimum: bound(rules.exclusive_minimum),
        ExclusiveMaximum: bound(rules.exclusive_maximum),
        MultipleOf: bound(rules.multiple_of),
    ],
    Kind::String(rules) => String [
        MinLength: count(rules.min_length),
        MaxLength: count(rules.max_length),
        Pattern: text(rules.pattern),
        Format: text(rules.format),
    ],
    Kind::Array(_, rules) => Array [
        MinItems: count(rules.min_items),
        MaxItems: count(rules.max_items),
        UniqueItems: flag(rules.unique_items),
    ],
    Kind::Map(_, rules) => Map [
        MinProperties: count(rules.min_properties),
        MaxProperties: count(rules.max_properties),
    ],
}

/// What [`Kind::each_keyword`] shows each keyword set to: `visit` is inlined at each of its
/// call sites, where the keyword is a constant, so each compiles to its own code.
pub(crate) trait KeywordVisitor<'a> {
    fn visit(&mut self, keyword: Keyword, value: KeywordValue<'a>);
}

impl<'a, F: FnMut(Keyword, KeywordValue<'a>)> KeywordVisitor<'a> for F {
    #[inline(always)]
    fn visit(&mut self, keyword: Keyword, value: KeywordValue<'a>) {
        self(keyword, value)
    }
}

/// Whether no value lies between a lower and an upper limit; an integer's exclusive limits
/// exclude the next integer in (its bounds are integral).
const fn leaves_nothing(
    low: KeywordValue,
    low_excluded: bool,
    high: KeywordValue,
    high_excluded: bool,
    integer: bool,
) -> bool {
    match (low, high) {
        (KeywordValue::Count(low), KeywordValue::Count(high)) => low > high,
        (KeywordValue::Bound(low), KeywordValue::Bound(high)) => {
            let (mut low_value, mut high_value) = (low.value, high.value);
            let (mut low_open, mut high_open) = (low_excluded, high_excluded);
            if integer {
                if low_open {
                    low_value += 1.0;
                    low_open = false;
                }
                if high_open {
                    high_value -= 1.0;
                    high_open = false;
                }
            }
            low_value > high_value || (low_value == high_value && (low_open || high_open))
        }
        _ => false,
    }
}

/// Values padded to a node's slots.
const fn fill<const N: usize>(
    values: [Option<KeywordValue>; N],
) -> [Option<KeywordValue>; MOST_KEYWORDS] {
    let mut slots = [None; MOST_KEYWORDS];
    let mut i = 0;
    while i < N {
        slots[i] = values[i];
        i += 1;
    }
    slots
}

const fn flag(set: bool) -> Option<KeywordValue<'static>> {
    if set { Some(KeywordValue::Flag) } else { None }
}

impl<'a> Kind<'a> {
    /// Two limits set here that leave no value between them (`minimum: 10` and `maximum: 1`,
    /// `exclusiveMinimum: 1` and `exclusiveMaximum: 2` on an integer, `minLength: 5` and
    /// `maxLength: 2`): the lower one, then the upper one.
    #[cfg(test)]
    pub(crate) const fn contradiction(
        &self,
    ) -> Option<((Keyword, KeywordValue<'a>), (Keyword, KeywordValue<'a>))> {
        let slots = self.keyword_slots();
        let integer = matches!(self, Kind::Integer(_));
        let mut i = 0;
        while i < slots.keywords.len() {
            let (lower, low) = (slots.keywords[i], slots.values[i]);
            if let (
                Some(Limit {
                    lower: true,
                    exclusive: low_excluded,
                }),
                Some(low),
            ) = (lower.spec().check.limit(), low)
            {
                let mut j = 0;
                while j < slots.keywords.len() {
                    let (upper, high) = (slots.keywords[j], slots.values[j]);
                    if let (
                        Some(Limit {
                            lower: false,
                            exclusive: high_excluded,
                        }),
                        Some(high),
                    ) = (upper.spec().check.limit(), high)
                        && leaves_nothing(low, low_excluded, high, high_excluded, integer)
                    {
                        return Some(((lower, low), (upper, high)));
                    }
                    j += 1;
                }
            }
            i += 1;
        }
        None
    }

    /// Whether two kinds set the same keywords to the same values (bounds compared by the
    /// text they are written in).
    pub(crate) const fn same_keywords(&self, other: &Kind) -> bool {
        let (mine, theirs) = (self.keyword_slots(), other.keyword_slots());
        if mine.keywords.len() != theirs.keywords.len() {
            return false;
        }
        let mut i = 0;
        while i < mine.keywords.len() {
            let same = match (mine.values[i], theirs.values[i]) {
                (None, None) => true,
                (Some(x), Some(y)) => x.same(y),
                _ => false,
            };
            if !same {
                return false;
            }
            i += 1;
        }
        true
    }

    /// The value of `keyword` here, if it is set (`None` too for a keyword that does not
    /// apply to this kind).
    pub const fn keyword(&self, keyword: Keyword) -> Option<KeywordValue<'a>> {
        let slots = self.keyword_slots();
        let mut i = 0;
        while i < slots.keywords.len() {
            if slots.keywords[i] as usize == keyword as usize {
                return slots.values[i];
            }
            i += 1;
        }
        None
    }

    /// This kind with `keyword` set to `value`; `None` when the kind has no slot for it or
    /// the value is of another kind than the keyword's.
    pub const fn with_keyword(self, keyword: Keyword, value: KeywordValue<'a>) -> Option<Kind<'a>> {
        use KeywordValue::{Bound as B, Count as C, Flag as F, Text as T};
        Some(match (self, keyword, value) {
            (Kind::Integer(mut rules) | Kind::Number(mut rules), _, B(bound)) => {
                match keyword {
                    Keyword::Minimum => rules.minimum = Some(bound),
                    Keyword::Maximum => rules.maximum = Some(bound),
                    Keyword::ExclusiveMinimum => rules.exclusive_minimum = Some(bound),
                    Keyword::ExclusiveMaximum => rules.exclusive_maximum = Some(bound),
                    Keyword::MultipleOf => rules.multiple_of = Some(bound),
                    _ => return None,
                }
                match self {
                    Kind::Integer(_) => Kind::Integer(rules),
                    _ => Kind::Number(rules),
                }
            }
            (Kind::String(mut rules), _, C(count)) => {
                match keyword {
                    Keyword::MinLength => rules.min_length = Some(count),
                    Keyword::MaxLength => rules.max_length = Some(count),
                    _ => return None,
                }
                Kind::String(rules)
            }
            (Kind::String(mut rules), _, T(text)) => {
                match keyword {
                    Keyword::Pattern => rules.pattern = Some(text),
                    Keyword::Format => rules.format = Some(text),
                    _ => return None,
                }
                Kind::String(rules)
            }
            (Kind::Array(item, mut rules), _, C(count)) => {
                match keyword {
                    Keyword::MinItems => rules.min_items = Some(count),
                    Keyword::MaxItems => rules.max_items = Some(count),
                    _ => return None,
                }
                Kind::Array(item, rules)
            }
            (Kind::Array(item, mut rules), Keyword::UniqueItems, F) => {
                rules.unique_items = true;
                Kind::Array(item, rules)
            }
            (Kind::Map(value, mut rules), _, C(count)) => {
                match keyword {
                    Keyword::MinProperties => rules.min_properties = Some(count),
                    Keyword::MaxProperties => rules.max_properties = Some(count),
                    _ => return None,
                }
                Kind::Map(value, rules)
            }
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Node;
    use crate::ir::{ArrayRules, MapRules, NumberRules, StringRules};
    use stitch_rules::Given;

    /// A value of the kind each keyword's attribute takes.
    fn value_for(keyword: Keyword) -> KeywordValue<'static> {
        match keyword.spec().given {
            Given::Bound => KeywordValue::Bound(Bound::int("3", 3.0)),
            Given::Count => KeywordValue::Count(3),
            Given::Text => KeywordValue::Text("date"),
            Given::Flag => KeywordValue::Flag,
        }
    }

    fn kind_of(class: Class) -> Kind<'static> {
        const ITEM: &Node<'static> = &Node::of(Kind::Boolean);
        let item = ITEM;
        match class {
            Class::Integer => Kind::Integer(NumberRules::NONE),
            Class::Number => Kind::Number(NumberRules::NONE),
            Class::String => Kind::String(StringRules::NONE),
            Class::Array => Kind::Array(item, ArrayRules::NONE),
            Class::Map => Kind::Map(item, MapRules::NONE),
            _ => Kind::Boolean,
        }
    }

    #[test]
    fn every_keyword_has_a_slot_in_each_kind_it_applies_to_and_none_elsewhere() {
        let classes = [
            Class::Boolean,
            Class::Integer,
            Class::Number,
            Class::String,
            Class::Array,
            Class::Map,
        ];
        for &keyword in Keyword::ALL {
            for class in classes {
                let kind = kind_of(class);
                let value = value_for(keyword);
                let set = kind.with_keyword(keyword, value);
                if keyword.spec().fits.admits(class) {
                    let set = set.unwrap_or_else(|| panic!("{keyword:?} on {class:?}"));
                    assert_eq!(
                        set.keyword(keyword),
                        Some(value),
                        "{keyword:?} on {class:?}"
                    );
                    for &other in Keyword::ALL.iter().filter(|k| **k != keyword) {
                        assert_eq!(set.keyword(other), None, "{keyword:?} set {other:?}");
                    }
                } else {
                    assert!(set.is_none(), "{keyword:?} on {class:?}");
                }
            }
        }
    }

    #[test]
    fn each_kind_lists_its_class_keywords_in_table_order_and_both_readers_agree() {
        for class in LISTED_CLASSES {
            let kind = kind_of(*class);
            assert_eq!(
                kind.keyword_slots().keywords,
                Keyword::of_class(*class),
                "{class:?}"
            );
            let mut set = kind;
            for keyword in Keyword::of_class(*class) {
                set = set.with_keyword(*keyword, value_for(*keyword)).unwrap();
            }
            let mut visited = Vec::new();
            set.each_keyword(&mut |keyword, value| visited.push((keyword, value)));
            let slots = set.keyword_slots();
            let listed: Vec<_> = slots
                .keywords
                .iter()
                .copied()
                .zip(slots.values.iter().flatten().copied())
                .collect();
            assert_eq!(visited, listed, "{class:?}");
            let mut none = Vec::new();
            kind.each_keyword(&mut |keyword, value| none.push((keyword, value)));
            assert!(none.is_empty());
        }
    }

    #[test]
    fn limits_that_leave_no_value_contradict_each_other() {
        let set = |kind: Kind<'static>, pairs: &[(Keyword, KeywordValue<'static>)]| {
            pairs.iter().fold(kind, |kind, (keyword, value)| {
                kind.with_keyword(*keyword, *value).unwrap()
            })
        };
        let int = |n: f64| KeywordValue::Bound(Bound::int("n", n));
        let integer = Kind::Integer(NumberRules::NONE);
        let number = Kind::Number(NumberRules::NONE);
        use Keyword::*;
        for (kind, pairs, contradicts) in [
            (
                integer,
                vec![(Minimum, int(10.0)), (Maximum, int(1.0))],
                true,
            ),
            (
                integer,
                vec![(Minimum, int(1.0)), (Maximum, int(1.0))],
                false,
            ),
            (
                integer,
                vec![(ExclusiveMinimum, int(1.0)), (ExclusiveMaximum, int(2.0))],
                true,
            ),
            (
                number,
                vec![(ExclusiveMinimum, int(1.0)), (ExclusiveMaximum, int(2.0))],
                false,
            ),
            (
                number,
                vec![(Minimum, int(1.0)), (ExclusiveMaximum, int(1.0))],
                true,
            ),
            (
                integer,
                vec![(ExclusiveMinimum, int(0.0)), (Maximum, int(1.0))],
                false,
            ),
        ] {
            assert_eq!(
                set(kind, &pairs).contradiction().is_some(),
                contradicts,
                "{pairs:?}"
            );
        }
        let string = Kind::String(StringRules::NONE);
        let lengths = [
            (MinLength, KeywordValue::Count(5)),
            (MaxLength, KeywordValue::Count(2)),
        ];
        assert!(set(string, &lengths).contradiction().is_some());
        assert!(set(string, &lengths[..1]).contradiction().is_none());
    }

    /// What an attribute's check finds, comparing only the pairs with the limit just set, is
    /// what comparing every pair finds, for any limits set one after another.
    #[test]
    fn the_check_of_a_new_limit_finds_what_every_pair_finds() {
        use Keyword::*;
        let bound = |n: i64| KeywordValue::Bound(Bound::int("n", n as f64));
        for kind in [
            Kind::Integer(NumberRules::NONE),
            Kind::Number(NumberRules::NONE),
        ] {
            let limits = [Minimum, Maximum, ExclusiveMinimum, ExclusiveMaximum];
            for first in limits {
                for second in limits {
                    for (a, b) in [(0, 0), (1, 0), (0, 1), (2, 1), (1, 2), (3, 3)] {
                        let once = kind.with_keyword(first, bound(a)).unwrap();
                        if once.contradiction().is_some() {
                            continue;
                        }
                        let twice = once.with_keyword(second, bound(b)).unwrap();
                        assert_eq!(
                            twice.contradiction_with(second, bound(b)).is_some(),
                            twice.contradiction().is_some(),
                            "{first:?} = {a}, then {second:?} = {b} on {kind:?}"
                        );
                    }
                }
            }
        }
        let count = KeywordValue::Count;
        for (kind, low, high) in [
            (Kind::String(StringRules::NONE), MinLength, MaxLength),
            (kind_of(Class::Array), MinItems, MaxItems),
            (kind_of(Class::Map), MinProperties, MaxProperties),
        ] {
            for (a, b) in [(1, 2), (2, 1), (2, 2)] {
                let both = kind
                    .with_keyword(low, count(a))
                    .and_then(|k| k.with_keyword(high, count(b)))
                    .unwrap();
                assert_eq!(
                    both.contradiction_with(high, count(b)).is_some(),
                    a > b,
                    "{low:?} = {a}, {high:?} = {b}"
                );
            }
        }
    }

    #[test]
    fn kinds_set_the_same_keywords_exactly_when_every_keyword_reads_the_same() {
        let other = |keyword: Keyword| match keyword.spec().given {
            Given::Bound => KeywordValue::Bound(Bound::int("4", 4.0)),
            Given::Count => KeywordValue::Count(4),
            Given::Text => KeywordValue::Text("time"),
            Given::Flag => KeywordValue::Flag,
        };
        for &keyword in Keyword::ALL {
            for class in [Class::Integer, Class::String, Class::Array, Class::Map] {
                if !keyword.spec().fits.admits(class) {
                    continue;
                }
                let bare = kind_of(class);
                let set = bare.with_keyword(keyword, value_for(keyword)).unwrap();
                assert!(set.same_keywords(&set), "{keyword:?}");
                assert!(!set.same_keywords(&bare), "{keyword:?}");
                assert!(!bare.same_keywords(&set), "{keyword:?}");
                if keyword.spec().given != Given::Flag {
                    let changed = bare.with_keyword(keyword, other(keyword)).unwrap();
                    assert!(!set.same_keywords(&changed), "{keyword:?}");
                }
            }
        }
    }
}
