//! The field attributes of `#[contract(...)]`: their names, what each takes, the values each
//! applies to, and the words a misfit is reported in. The derive reads a field's attributes
//! by this table and refuses, natively, the misfits the spelling of a type shows (`min` on a
//! `String`); constant evaluation refuses the rest with the same rule and the same words,
//! where only a type's shape tells (`min` on a type alias of `String`).

use crate::class::{Class, Fit};
use crate::keyword::{Given, KEYWORDS, Keyword};
use crate::text::Message;

/// A field attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(
    clippy::exhaustive_enums,
    reason = "the rules stitch-derive and stitch-runtime read and build, released with them at one version: a new variant is a rule each must implement"
)]
pub enum Attribute {
    /// One that writes a JSON Schema keyword (`min`, `pattern`, ...: the keyword table).
    Keyword(Keyword),
    /// `values("a", "b")`: a string limited to these values.
    Values,
    /// `trim`: the string is trimmed after validation.
    Trim,
    /// `lowercase`: the string is lowercased after validation.
    Lowercase,
    /// `uppercase`: the string is uppercased after validation.
    Uppercase,
    /// `refine = path`: a check of the typed value.
    Refine,
    /// `via = Type`: the JSON is `Type`'s, converted by serde.
    Via,
    /// `opaque`: a value JSON Schema cannot describe.
    Opaque,
    /// `coerce`: the string form of a number or boolean is accepted too.
    Coerce,
    /// `catch = expr`: an invalid or missing value becomes `expr`.
    Catch,
    /// `description = "..."`: the field's description.
    Description,
}

/// What an attribute takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(
    clippy::exhaustive_enums,
    reason = "the rules stitch-derive and stitch-runtime read and build, released with them at one version: a new variant is a rule each must implement"
)]
pub enum Takes {
    /// What its keyword takes.
    Keyword(Given),
    /// A list of strings (`values("a", "b")`).
    Texts,
    /// A string (`description = "..."`).
    Text,
    /// Nothing (`trim`).
    Flag,
    /// A path (`refine = not_blank`).
    Path,
    /// A type (`via = String`).
    Type,
    /// An expression (`catch = 1`).
    Expr,
}

/// An attribute that writes no keyword: its name, what it takes, and what it applies to.
struct Other {
    attribute: Attribute,
    name: &'static str,
    takes: Takes,
    fits: Fit,
}

/// The attributes besides the keywords'.
const OTHERS: [Other; 10] = [
    Other {
        attribute: Attribute::Values,
        name: "values",
        takes: Takes::Texts,
        fits: Fit::STRINGS,
    },
    Other {
        attribute: Attribute::Trim,
        name: "trim",
        takes: Takes::Flag,
        fits: Fit::TEXTS,
    },
    Other {
        attribute: Attribute::Lowercase,
        name: "lowercase",
        takes: Takes::Flag,
        fits: Fit::TEXTS,
    },
    Other {
        attribute: Attribute::Uppercase,
        name: "uppercase",
        takes: Takes::Flag,
        fits: Fit::TEXTS,
    },
    Other {
        attribute: Attribute::Refine,
        name: "refine",
        takes: Takes::Path,
        fits: Fit::ANY,
    },
    Other {
        attribute: Attribute::Via,
        name: "via",
        takes: Takes::Type,
        fits: Fit::ANY,
    },
    Other {
        attribute: Attribute::Opaque,
        name: "opaque",
        takes: Takes::Flag,
        fits: Fit::ANY,
    },
    Other {
        attribute: Attribute::Coerce,
        name: "coerce",
        takes: Takes::Flag,
        fits: Fit::NUMBERS_AND_BOOLEANS,
    },
    Other {
        attribute: Attribute::Catch,
        name: "catch",
        takes: Takes::Expr,
        fits: Fit::ANY,
    },
    Other {
        attribute: Attribute::Description,
        name: "description",
        takes: Takes::Text,
        fits: Fit::ANY,
    },
];

impl Attribute {
    /// Every field attribute: the keywords' first, in table order.
    pub const ALL: [Attribute; KEYWORDS.len() + OTHERS.len()] = {
        let mut all = [Attribute::Values; KEYWORDS.len() + OTHERS.len()];
        let mut i = 0;
        while i < KEYWORDS.len() {
            all[i] = Attribute::Keyword(KEYWORDS[i].keyword);
            i += 1;
        }
        while i < all.len() {
            all[i] = OTHERS[i - KEYWORDS.len()].attribute;
            i += 1;
        }
        all
    };

    /// The row of an attribute that writes no keyword (`OTHERS` is in the order of the
    /// variants; a test holds it there).
    const fn other(self) -> &'static Other {
        &OTHERS[match self {
            Attribute::Keyword(_) => {
                panic!("stitch: a keyword's attribute is in the keyword table")
            }
            Attribute::Values => 0,
            Attribute::Trim => 1,
            Attribute::Lowercase => 2,
            Attribute::Uppercase => 3,
            Attribute::Refine => 4,
            Attribute::Via => 5,
            Attribute::Opaque => 6,
            Attribute::Coerce => 7,
            Attribute::Catch => 8,
            Attribute::Description => 9,
        }]
    }

    /// The attribute as written (`max_items`).
    pub const fn name(self) -> &'static str {
        match self {
            Attribute::Keyword(keyword) => keyword.spec().attribute,
            other => other.other().name,
        }
    }

    /// What the attribute takes.
    pub const fn takes(self) -> Takes {
        match self {
            Attribute::Keyword(keyword) => Takes::Keyword(keyword.spec().given),
            other => other.other().takes,
        }
    }

    /// The values the attribute applies to.
    pub const fn fits(self) -> Fit {
        match self {
            Attribute::Keyword(keyword) => keyword.spec().fits,
            other => other.other().fits,
        }
    }

    /// The attribute written `name`.
    pub const fn named(name: &str) -> Option<Attribute> {
        let mut i = 0;
        while i < Attribute::ALL.len() {
            if crate::strings::str_eq(Attribute::ALL[i].name(), name) {
                return Some(Attribute::ALL[i]);
            }
            i += 1;
        }
        None
    }

    /// Every attribute's name, for the suggestions of an unknown one.
    pub fn names() -> impl Iterator<Item = &'static str> {
        Attribute::ALL.into_iter().map(Attribute::name)
    }
}

/// What an attribute is given, as far as its fit depends on it.
#[derive(Clone, Copy, Debug)]
#[allow(
    clippy::exhaustive_enums,
    reason = "the rules stitch-derive and stitch-runtime read and build, released with them at one version: a new variant is a rule each must implement"
)]
pub enum GivenValue<'a> {
    /// A bound: its text as written, its value, and whether it is an integer.
    Bound {
        /// The number as written.
        text: &'a str,
        /// Its value.
        value: f64,
        /// Whether it has no fraction and no exponent.
        integral: bool,
    },
    /// Anything else.
    Other,
}

/// A value as a message says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(
    clippy::exhaustive_enums,
    reason = "the rules stitch-derive and stitch-runtime read and build, released with them at one version: a new variant is a rule each must implement"
)]
pub enum Said<'a> {
    /// As written (a number's text).
    Text(&'a str),
    /// A count.
    Count(u64),
}

/// Why an attribute cannot apply where it is: the message of a compile error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(
    clippy::exhaustive_enums,
    reason = "the rules stitch-derive and stitch-runtime read and build, released with them at one version: a new variant is a rule each must implement"
)]
pub enum Misfit<'a> {
    /// The attribute applies to other values than the field's.
    Kind {
        /// The attribute, as written.
        attribute: &'static str,
        /// What it applies to ("numbers").
        applies_to: &'static str,
        /// The field's wire name.
        field: &'a str,
        /// What the field is ("a string").
        is: &'static str,
    },
    /// A fractional bound on an integer field.
    NotIntegral {
        /// The attribute.
        attribute: &'static str,
        /// The field's wire name.
        field: &'a str,
        /// The bound, as written.
        bound: &'a str,
    },
    /// `multiple_of` of zero or less.
    NotPositive {
        /// The field's wire name.
        field: &'a str,
    },
    /// `catch` on an `Option`.
    CatchOnOption {
        /// The field's wire name.
        field: &'a str,
    },
    /// A newtype operation wrapping something else than a struct.
    NewtypeNotStruct {
        /// The operation's name.
        variant: &'a str,
        /// What it wraps.
        is: &'static str,
    },
    /// Two limits leave no value between them (`min = 10, max = 1`).
    Contradiction {
        /// The field's wire name.
        field: &'a str,
        /// The lower limit's attribute and value.
        lower: (&'static str, Said<'a>),
        /// The upper limit's attribute and value.
        upper: (&'static str, Said<'a>),
    },
    /// A newtype operation's struct has a field named like the tag.
    NewtypeTagField {
        /// The operation's name.
        variant: &'a str,
        /// The tag.
        tag: &'a str,
    },
}

/// Whether `attribute`, given `given`, applies to the field `field`, a value of `class`
/// (`optional` when it is an `Option`). The one rule behind the derive's errors and constant
/// evaluation's.
pub const fn check_fit<'a>(
    attribute: Attribute,
    class: Class,
    optional: bool,
    given: GivenValue<'a>,
    field: &'a str,
) -> Result<(), Misfit<'a>> {
    if matches!(attribute, Attribute::Catch) && optional {
        return Err(Misfit::CatchOnOption { field });
    }
    let fits = attribute.fits();
    if !fits.admits(class) {
        return Err(Misfit::Kind {
            attribute: attribute.name(),
            applies_to: fits.says,
            field,
            is: class.described(),
        });
    }
    if let GivenValue::Bound {
        text,
        value,
        integral,
    } = given
    {
        if matches!(class, Class::Integer) && !integral {
            return Err(Misfit::NotIntegral {
                attribute: attribute.name(),
                field,
                bound: text,
            });
        }
        if matches!(attribute, Attribute::Keyword(Keyword::MultipleOf)) && value <= 0.0 {
            return Err(Misfit::NotPositive { field });
        }
    }
    Ok(())
}

impl Misfit<'_> {
    /// The message constant evaluation fails with: [`message`](Self::message) after
    /// `stitch: `, since rustc shows it as `evaluation panicked: ...`.
    pub const fn failure(&self) -> Message {
        Message::new()
            .push("stitch: ")
            .push(self.message().as_str())
    }

    /// The compile error's message.
    pub const fn message(&self) -> Message {
        let m = Message::new();
        match *self {
            Misfit::Kind {
                attribute,
                applies_to,
                field,
                is,
            } => m
                .push("`")
                .push(attribute)
                .push("` applies to ")
                .push(applies_to)
                .push(", but field `")
                .push(field)
                .push("` is ")
                .push(is),
            Misfit::NotIntegral {
                attribute,
                field,
                bound,
            } => m
                .push("`")
                .push(attribute)
                .push("` on the integer field `")
                .push(field)
                .push("` must be an integer, not ")
                .push(bound),
            Misfit::NotPositive { field } => m
                .push("`multiple_of` on field `")
                .push(field)
                .push("` must be greater than 0"),
            Misfit::CatchOnOption { field } => {
                m.push("`catch` on the optional field `").push(field).push(
                    "`: an `Option` already accepts a missing value; declare the field \
                     without `Option` or drop `catch`",
                )
            }
            Misfit::NewtypeNotStruct { variant, is } => m
                .push("the newtype operation `")
                .push(variant)
                .push("` must wrap a struct (an object), but it wraps ")
                .push(is),
            Misfit::Contradiction {
                field,
                lower,
                upper,
            } => said(
                said(m.push("`").push(lower.0).push(" = "), lower.1)
                    .push("` and `")
                    .push(upper.0)
                    .push(" = "),
                upper.1,
            )
            .push("` on field `")
            .push(field)
            .push("` leave no value to send (the limits of the field's type count too)"),
            Misfit::NewtypeTagField { variant, tag } => m
                .push("the newtype operation `")
                .push(variant)
                .push("` wraps a struct with a field named `")
                .push(tag)
                .push(
                    "`, like the tag: serde reads the tag there, so the field never gets a \
                     value; rename the field or the tag",
                ),
        }
    }
}

/// `value` after `m`.
const fn said(m: Message, value: Said<'_>) -> Message {
    match value {
        Said::Text(text) => m.push(text),
        Said::Count(count) => m.push_u64(count),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_attribute_is_found_by_its_name() {
        for other in &OTHERS {
            assert_eq!(other.attribute.other().name, other.name);
        }
        for attribute in Attribute::ALL {
            assert_eq!(Attribute::named(attribute.name()), Some(attribute));
        }
        let names: Vec<&str> = Attribute::names().collect();
        let mut unique = names.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "{names:?}");
        assert_eq!(Attribute::named("minimum"), None);
    }

    #[test]
    fn misfits_are_said_in_one_way() {
        let min = Attribute::Keyword(Keyword::Minimum);
        let bound = |text, value, integral| GivenValue::Bound {
            text,
            value,
            integral,
        };
        let said = |fit: Result<(), Misfit<'_>>| fit.unwrap_err().message().as_str().to_owned();
        assert_eq!(
            said(check_fit(
                min,
                Class::String,
                false,
                bound("0", 0.0, true),
                "title"
            )),
            "`min` applies to numbers, but field `title` is a string"
        );
        assert_eq!(
            said(check_fit(
                min,
                Class::Integer,
                false,
                bound("2.5", 2.5, false),
                "n"
            )),
            "`min` on the integer field `n` must be an integer, not 2.5"
        );
        let step = Attribute::Keyword(Keyword::MultipleOf);
        assert_eq!(
            said(check_fit(
                step,
                Class::Number,
                false,
                bound("0", 0.0, true),
                "x"
            )),
            "`multiple_of` on field `x` must be greater than 0"
        );
        assert!(check_fit(min, Class::Number, false, bound("2.5", 2.5, false), "x").is_ok());
        assert!(matches!(
            check_fit(
                Attribute::Catch,
                Class::Integer,
                true,
                GivenValue::Other,
                "n"
            ),
            Err(Misfit::CatchOnOption { .. })
        ));
        assert!(
            check_fit(
                Attribute::Trim,
                Class::StringEnum,
                false,
                GivenValue::Other,
                "s"
            )
            .is_ok()
        );
        assert!(
            check_fit(
                Attribute::Values,
                Class::StringEnum,
                false,
                GivenValue::Other,
                "s"
            )
            .is_err()
        );
    }
}
