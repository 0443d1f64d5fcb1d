//! The keyword table: every JSON Schema keyword a field attribute writes, declared once — its
//! JSON name, its attribute, the values it applies to, and how `parse` enforces it (which
//! dialects take it as a keyword is each dialect's row, in `dialect`). The derive reads attribute names and value kinds from it; the
//! runtime's attribute application, renderer, dialect rules, collision rules and `check` read
//! the rest. A new keyword is a row here, its slot in the runtime's IR, and its check.

use crate::class::{Class, Fit};
use crate::dialect::{Dialect, KEYWORD_COUNT};
use crate::issue::IssueCode;

/// A keyword a field attribute writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
#[non_exhaustive]
pub enum Keyword {
    Minimum,
    Maximum,
    ExclusiveMinimum,
    ExclusiveMaximum,
    MultipleOf,
    MinLength,
    MaxLength,
    Pattern,
    Format,
    MinItems,
    MaxItems,
    UniqueItems,
    MinProperties,
    MaxProperties,
}

/// The kind of value a keyword's attribute takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(
    clippy::exhaustive_enums,
    reason = "the rules stitch-derive and stitch-runtime read and build, released with them at one version: a new variant is a rule each must implement"
)]
pub enum Given {
    /// A number, possibly negative or fractional (`min = -1.5`).
    Bound,
    /// A count (`min_length = 3`).
    Count,
    /// A string (`pattern = "^a"`).
    Text,
    /// Nothing: the attribute alone (`unique_items`).
    Flag,
}

/// How a number must stand to a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(
    clippy::exhaustive_enums,
    reason = "the rules stitch-derive and stitch-runtime read and build, released with them at one version: a new variant is a rule each must implement"
)]
pub enum Relation {
    /// `≥`.
    AtLeast,
    /// `≤`.
    AtMost,
    /// `>`.
    Above,
    /// `<`.
    Below,
}

impl Relation {
    /// Whether `value` stands so to `bound`.
    pub const fn holds(self, value: f64, bound: f64) -> bool {
        match self {
            Relation::AtLeast => value >= bound,
            Relation::AtMost => value <= bound,
            Relation::Above => value > bound,
            Relation::Below => value < bound,
        }
    }

    /// The integers that stand so to `bound`, as an interval (`low..=high`, empty when
    /// `low > high`): an integer is compared with a bound exactly, at any magnitude, not
    /// through a float. A bound past what `i128` holds saturates, which changes no answer
    /// for an integer JSON carries.
    pub const fn integers(self, bound: f64) -> (i128, i128) {
        match self {
            Relation::AtLeast => (bound.ceil() as i128, i128::MAX),
            Relation::Above => ((bound.floor() as i128).saturating_add(1), i128::MAX),
            Relation::AtMost => (i128::MIN, bound.floor() as i128),
            Relation::Below => (i128::MIN, (bound.ceil() as i128).saturating_sub(1)),
        }
    }

    /// Whether the integer `value` stands so to `bound`, exactly: as the float comparison
    /// where every integer is a float exactly (that needs no rounding, so no call), through
    /// [`Relation::integers`] past it.
    pub const fn holds_for_integer(self, value: i128, bound: f64) -> bool {
        const EXACT: i128 = 1 << f64::MANTISSA_DIGITS;
        if -EXACT <= value && value <= EXACT {
            return self.holds(value as i64 as f64, bound);
        }
        let (low, high) = self.integers(bound);
        low <= value && value <= high
    }

    /// The relation's symbol, for messages.
    pub const fn symbol(self) -> &'static str {
        match self {
            Relation::AtLeast => "≥",
            Relation::AtMost => "≤",
            Relation::Above => ">",
            Relation::Below => "<",
        }
    }
}

/// What a count keyword counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(
    clippy::exhaustive_enums,
    reason = "the rules stitch-derive and stitch-runtime read and build, released with them at one version: a new variant is a rule each must implement"
)]
pub enum Counted {
    /// A string's characters.
    Characters,
    /// An array's items.
    Items,
    /// A map's entries.
    Properties,
}

impl Counted {
    /// How a message says the limit: `must be at least 3 characters long`, `must have at most
    /// 1 item`.
    pub fn says(self, at_least: bool, count: u64) -> String {
        let side = if at_least { "at least" } else { "at most" };
        let one = count == 1;
        match self {
            Counted::Characters => {
                let noun = if one { "character" } else { "characters" };
                format!("must be {side} {count} {noun} long")
            }
            Counted::Items => {
                let noun = if one { "item" } else { "items" };
                format!("must have {side} {count} {noun}")
            }
            Counted::Properties => {
                let noun = if one { "property" } else { "properties" };
                format!("must have {side} {count} {noun}")
            }
        }
    }
}

/// Which side of a value a limiting keyword bounds, and whether it excludes its own value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(
    clippy::exhaustive_structs,
    reason = "the rules stitch-derive and stitch-runtime read and build, released with them at one version: a new variant is a rule each must implement"
)]
pub struct Limit {
    /// A lower limit (`minimum`, `minLength`), or an upper one.
    pub lower: bool,
    /// Whether the limit itself is excluded (`exclusiveMinimum`).
    pub exclusive: bool,
}

/// How `parse` enforces a keyword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(
    clippy::exhaustive_enums,
    reason = "the rules stitch-derive and stitch-runtime read and build, released with them at one version: a new variant is a rule each must implement"
)]
pub enum Check {
    /// The number stands so to the bound.
    Bound(Relation),
    /// The number is a multiple of the step (exactly, in decimal).
    MultipleOf,
    /// A count: at least (`true`) or at most (`false`) so many of these.
    Count(bool, Counted),
    /// The string matches the pattern, read as ECMA-262 reads it.
    Pattern,
    /// The string is of the format, when `parse` knows how to tell.
    Format,
    /// No item repeats another.
    Unique,
}

impl Check {
    /// The limit the keyword sets, if it is a lower or upper bound: what makes two keywords
    /// contradict each other, and what a collision's hull takes the loosest of.
    pub const fn limit(self) -> Option<Limit> {
        let (lower, exclusive) = match self {
            Check::Bound(Relation::AtLeast) => (true, false),
            Check::Bound(Relation::Above) => (true, true),
            Check::Bound(Relation::AtMost) => (false, false),
            Check::Bound(Relation::Below) => (false, true),
            Check::Count(at_least, _) => (at_least, false),
            Check::MultipleOf | Check::Pattern | Check::Format | Check::Unique => return None,
        };
        Some(Limit { lower, exclusive })
    }
}

/// One keyword: everything each part of stitch needs to know of it.
#[derive(Clone, Copy, Debug)]
#[allow(
    clippy::exhaustive_structs,
    reason = "the rules stitch-derive and stitch-runtime read and build, released with them at one version: a new variant is a rule each must implement"
)]
pub struct KeywordSpec {
    /// The keyword.
    pub keyword: Keyword,
    /// Its JSON name (`minLength`).
    pub json: &'static str,
    /// Its JSON name as the renderer writes it after another keyword (`,"minLength":`),
    /// copied whole.
    pub key: &'static str,
    /// The field attribute that writes it (`min_length`).
    pub attribute: &'static str,
    /// What the attribute takes.
    pub given: Given,
    /// The values it applies to.
    pub fits: Fit,
    /// How `parse` enforces it.
    pub check: Check,
    /// The code of the issue `parse` reports when a value breaks it.
    pub code: IssueCode,
}

/// Every keyword, in the order of [`Keyword`]'s variants, which is the order a schema writes
/// them in.
pub const KEYWORDS: [KeywordSpec; KEYWORD_COUNT] = [
    KeywordSpec {
        keyword: Keyword::Minimum,
        json: "minimum",
        key: ",\"minimum\":",
        attribute: "min",
        given: Given::Bound,
        fits: Fit::NUMBERS,
        check: Check::Bound(Relation::AtLeast),
        code: IssueCode::Minimum,
    },
    KeywordSpec {
        keyword: Keyword::Maximum,
        json: "maximum",
        key: ",\"maximum\":",
        attribute: "max",
        given: Given::Bound,
        fits: Fit::NUMBERS,
        check: Check::Bound(Relation::AtMost),
        code: IssueCode::Maximum,
    },
    KeywordSpec {
        keyword: Keyword::ExclusiveMinimum,
        json: "exclusiveMinimum",
        key: ",\"exclusiveMinimum\":",
        attribute: "exclusive_min",
        given: Given::Bound,
        fits: Fit::NUMBERS,
        check: Check::Bound(Relation::Above),
        code: IssueCode::ExclusiveMinimum,
    },
    KeywordSpec {
        keyword: Keyword::ExclusiveMaximum,
        json: "exclusiveMaximum",
        key: ",\"exclusiveMaximum\":",
        attribute: "exclusive_max",
        given: Given::Bound,
        fits: Fit::NUMBERS,
        check: Check::Bound(Relation::Below),
        code: IssueCode::ExclusiveMaximum,
    },
    KeywordSpec {
        keyword: Keyword::MultipleOf,
        json: "multipleOf",
        key: ",\"multipleOf\":",
        attribute: "multiple_of",
        given: Given::Bound,
        fits: Fit::NUMBERS,
        check: Check::MultipleOf,
        code: IssueCode::MultipleOf,
    },
    KeywordSpec {
        keyword: Keyword::MinLength,
        json: "minLength",
        key: ",\"minLength\":",
        attribute: "min_length",
        given: Given::Count,
        fits: Fit::STRINGS,
        check: Check::Count(true, Counted::Characters),
        code: IssueCode::MinLength,
    },
    KeywordSpec {
        keyword: Keyword::MaxLength,
        json: "maxLength",
        key: ",\"maxLength\":",
        attribute: "max_length",
        given: Given::Count,
        fits: Fit::STRINGS,
        check: Check::Count(false, Counted::Characters),
        code: IssueCode::MaxLength,
    },
    KeywordSpec {
        keyword: Keyword::Pattern,
        json: "pattern",
        key: ",\"pattern\":",
        attribute: "pattern",
        given: Given::Text,
        fits: Fit::STRINGS,
        check: Check::Pattern,
        code: IssueCode::Pattern,
    },
    KeywordSpec {
        keyword: Keyword::Format,
        json: "format",
        key: ",\"format\":",
        attribute: "format",
        given: Given::Text,
        fits: Fit::STRINGS,
        check: Check::Format,
        code: IssueCode::Format,
    },
    KeywordSpec {
        keyword: Keyword::MinItems,
        json: "minItems",
        key: ",\"minItems\":",
        attribute: "min_items",
        given: Given::Count,
        fits: Fit::ARRAYS,
        check: Check::Count(true, Counted::Items),
        code: IssueCode::MinItems,
    },
    KeywordSpec {
        keyword: Keyword::MaxItems,
        json: "maxItems",
        key: ",\"maxItems\":",
        attribute: "max_items",
        given: Given::Count,
        fits: Fit::ARRAYS,
        check: Check::Count(false, Counted::Items),
        code: IssueCode::MaxItems,
    },
    KeywordSpec {
        keyword: Keyword::UniqueItems,
        json: "uniqueItems",
        key: ",\"uniqueItems\":",
        attribute: "unique_items",
        given: Given::Flag,
        fits: Fit::ARRAYS,
        check: Check::Unique,
        code: IssueCode::UniqueItems,
    },
    KeywordSpec {
        keyword: Keyword::MinProperties,
        json: "minProperties",
        key: ",\"minProperties\":",
        attribute: "min_properties",
        given: Given::Count,
        fits: Fit::MAPS,
        check: Check::Count(true, Counted::Properties),
        code: IssueCode::MinProperties,
        // Strict modes send a map as an array of its entries: the bound is said in words.
    },
    KeywordSpec {
        keyword: Keyword::MaxProperties,
        json: "maxProperties",
        key: ",\"maxProperties\":",
        attribute: "max_properties",
        given: Given::Count,
        fits: Fit::MAPS,
        check: Check::Count(false, Counted::Properties),
        code: IssueCode::MaxProperties,
    },
];

impl Keyword {
    /// Every keyword, in the order a schema writes them.
    pub const ALL: &'static [Keyword] = &{
        let mut all = [Keyword::Minimum; KEYWORD_COUNT];
        let mut i = 0;
        while i < KEYWORDS.len() {
            all[i] = KEYWORDS[i].keyword;
            i += 1;
        }
        all
    };

    /// Everything the table says of the keyword.
    pub const fn spec(self) -> &'static KeywordSpec {
        &KEYWORDS[self as usize]
    }

    /// The keyword whose attribute is `attribute`.
    pub const fn of_attribute(attribute: &str) -> Option<Keyword> {
        let mut i = 0;
        while i < KEYWORDS.len() {
            if crate::strings::str_eq(KEYWORDS[i].attribute, attribute) {
                return Some(KEYWORDS[i].keyword);
            }
            i += 1;
        }
        None
    }

    /// The keywords that apply to values of `class`, in the order a schema writes them.
    pub const fn of_class(class: Class) -> &'static [Keyword] {
        match class {
            Class::Integer | Class::Number => NUMBERS.as_slice(),
            Class::String => STRINGS.as_slice(),
            Class::Array => ARRAYS.as_slice(),
            Class::Map => MAPS.as_slice(),
            _ => &[],
        }
    }

    /// Whether `dialect` takes the keyword as a keyword for this value: `format` names the
    /// format of a `format` keyword, `count` the count of a count keyword (else anything).
    pub const fn taken_by(self, dialect: Dialect, format: &str, count: u64) -> bool {
        dialect.rules().keywords[self as usize].takes(format, count)
    }
}

/// The keywords that apply to a class, in table order.
struct ClassKeywords {
    keywords: [Keyword; KEYWORD_COUNT],
    len: usize,
}

impl ClassKeywords {
    const fn of(class: Class) -> ClassKeywords {
        let mut keywords = [Keyword::Minimum; KEYWORD_COUNT];
        let mut len = 0;
        let mut i = 0;
        while i < KEYWORDS.len() {
            if KEYWORDS[i].fits.admits(class) {
                keywords[len] = KEYWORDS[i].keyword;
                len += 1;
            }
            i += 1;
        }
        ClassKeywords { keywords, len }
    }

    const fn as_slice(&'static self) -> &'static [Keyword] {
        self.keywords.split_at(self.len).0
    }
}

const NUMBERS: ClassKeywords = ClassKeywords::of(Class::Number);
const STRINGS: ClassKeywords = ClassKeywords::of(Class::String);
const ARRAYS: ClassKeywords = ClassKeywords::of(Class::Array);
const MAPS: ClassKeywords = ClassKeywords::of(Class::Map);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_integer_stands_to_a_bound_as_its_float_does() {
        let relations = [
            Relation::AtLeast,
            Relation::AtMost,
            Relation::Above,
            Relation::Below,
        ];
        let bounds = [-3.0, -2.5, -0.5, 0.0, 0.25, 1.0, 2.75, 7.0, 1e300, -1e300];
        for relation in relations {
            for bound in bounds {
                let (low, high) = relation.integers(bound);
                for n in -12i128..=12 {
                    assert_eq!(
                        low <= n && n <= high,
                        relation.holds(n as f64, bound),
                        "{n} {relation:?} {bound}"
                    );
                    assert_eq!(
                        relation.holds_for_integer(n, bound),
                        relation.holds(n as f64, bound)
                    );
                }
                for n in [i128::from(i64::MIN), 1 << 60, i128::from(u64::MAX)] {
                    assert_eq!(
                        relation.holds_for_integer(n, bound),
                        low <= n && n <= high,
                        "{n} {relation:?} {bound}"
                    );
                }
            }
        }
        // Past 2^53 a float cannot tell neighbours apart; the interval can.
        let big = 9_007_199_254_740_993i128;
        let (_, high) = Relation::Below.integers(9_007_199_254_740_992.0);
        assert!(big > high);
        assert!(!Relation::AtMost.holds_for_integer(big, 9_007_199_254_740_992.0));
    }

    #[test]
    fn the_table_is_in_the_order_of_its_keywords() {
        for (i, spec) in KEYWORDS.iter().enumerate() {
            assert_eq!(spec.keyword as usize, i, "{}", spec.json);
            assert_eq!(spec.key, format!(",\"{}\":", spec.json));
            assert_eq!(spec.code.as_str(), snake_case(spec.json), "{}", spec.json);
            assert_eq!(Keyword::of_attribute(spec.attribute), Some(spec.keyword));
        }
    }

    #[test]
    fn each_class_has_its_keywords_in_table_order() {
        let names = |class| -> Vec<&str> {
            Keyword::of_class(class)
                .iter()
                .map(|k| k.spec().json)
                .collect()
        };
        assert_eq!(
            names(Class::Integer),
            [
                "minimum",
                "maximum",
                "exclusiveMinimum",
                "exclusiveMaximum",
                "multipleOf"
            ]
        );
        assert_eq!(names(Class::Integer), names(Class::Number));
        assert_eq!(
            names(Class::String),
            ["minLength", "maxLength", "pattern", "format"]
        );
        assert_eq!(names(Class::Array), ["minItems", "maxItems", "uniqueItems"]);
        assert_eq!(names(Class::Map), ["minProperties", "maxProperties"]);
        assert!(Keyword::of_class(Class::Boolean).is_empty());
    }

    #[test]
    fn mcp_takes_every_keyword_and_the_strict_modes_their_subsets() {
        for &keyword in Keyword::ALL {
            assert!(keyword.taken_by(Dialect::Mcp, "", 0));
        }
        assert!(Keyword::Format.taken_by(Dialect::OpenAiStrict, "date-time", 0));
        assert!(!Keyword::Format.taken_by(Dialect::OpenAiStrict, "uri", 0));
        assert!(Keyword::Format.taken_by(Dialect::AnthropicStrict, "uri", 0));
        assert!(Keyword::MinItems.taken_by(Dialect::AnthropicStrict, "", 1));
        assert!(!Keyword::MinItems.taken_by(Dialect::AnthropicStrict, "", 2));
        assert!(!Keyword::UniqueItems.taken_by(Dialect::Portable, "", 0));
    }

    #[test]
    fn counts_are_said_in_the_singular_and_the_plural() {
        assert_eq!(
            Counted::Characters.says(true, 1),
            "must be at least 1 character long"
        );
        assert_eq!(Counted::Items.says(false, 3), "must have at most 3 items");
        assert_eq!(
            Counted::Properties.says(true, 2),
            "must have at least 2 properties"
        );
    }

    fn snake_case(camel: &str) -> String {
        let mut out = String::new();
        for c in camel.chars() {
            if c.is_ascii_uppercase() {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        }
        out
    }
}
