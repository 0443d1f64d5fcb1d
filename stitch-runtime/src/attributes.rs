//! Field attributes applied to a node (`min`, `pattern`, `values(...)`, `trim`, `coerce`,
//! `catch`, ...): one `const fn` each, which the derive calls at the attribute's span. One that
//! does not fit the field's type returns a [`Misfit`], and the generated code turns it into a
//! compile error right there, at the attribute, with nothing of this crate in it. The derive
//! itself refuses misfits it can see in the type as written (`min` on a `String`); these catch
//! the rest, which only the type's shape knows.

use crate::message::Message;
use crate::node::{
    ArrayRules, Bound, Hazard, Kind, Node, NumberRules, Object, StringRules, checks,
};

/// Why an attribute cannot apply: the message of a compile error.
#[derive(Clone, Copy, Debug)]
pub enum Misfit {
    /// The attribute applies to other kinds than the field's.
    Kind {
        /// The attribute, as written.
        attribute: &'static str,
        /// What it applies to ("numbers").
        applies_to: &'static str,
        /// The field's wire name.
        field: &'static str,
        /// What the field is ("a string").
        is: &'static str,
    },
    /// A fractional bound on an integer field.
    NotIntegral {
        /// The attribute.
        attribute: &'static str,
        /// The field's wire name.
        field: &'static str,
        /// The bound, as written.
        bound: &'static str,
    },
    /// `multiple_of` of zero or less.
    NotPositive {
        /// The field's wire name.
        field: &'static str,
    },
    /// `catch` on an `Option`.
    CatchOnOption {
        /// The field's wire name.
        field: &'static str,
    },
    /// A newtype operation wrapping something else than a struct.
    NewtypeNotStruct {
        /// The operation's name.
        variant: &'static str,
        /// What it wraps.
        is: &'static str,
    },
    /// A newtype operation's struct has a field named like the tag.
    NewtypeTagField {
        /// The operation's name.
        variant: &'static str,
        /// The tag.
        tag: &'static str,
    },
}

impl Misfit {
    /// The compile error's message.
    pub const fn message(&self) -> Message {
        let m = Message::new().push("stitch: ");
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
            Misfit::CatchOnOption { field } => m
                .push("`catch` on the optional field `")
                .push(field)
                .push("`: an `Option` already accepts a missing value; declare the field without `Option` or drop `catch`"),
            Misfit::NewtypeNotStruct { variant, is } => m
                .push("the newtype operation `")
                .push(variant)
                .push("` must wrap a struct (an object), but it wraps ")
                .push(is),
            Misfit::NewtypeTagField { variant, tag } => m
                .push("the newtype operation `")
                .push(variant)
                .push("` wraps a struct with a field named `")
                .push(tag)
                .push("`, like the tag: serde reads the tag there, so the field never gets a value; rename the field or the tag"),
        }
    }
}

/// What an attribute applied to a node gives.
pub type Applied<T = Node> = Result<T, Misfit>;

/// How a kind is named in error messages.
const fn kind_name(node: &Node) -> &'static str {
    match node.kind {
        Kind::Boolean => "a boolean",
        Kind::Integer(_) => "an integer",
        Kind::Number(_) => "a number",
        Kind::String(_) => "a string",
        Kind::StringEnum(..) => "a string enum",
        Kind::Array(..) => "an array",
        Kind::Map(_) => "a map",
        Kind::Object(_) => "an object",
        Kind::Union(_) => "a tagged union",
        Kind::Any => "any JSON value",
        Kind::Opaque => "an opaque value",
    }
}

/// "`attribute` applies to *what*, but field `field` is *kind*".
const fn misfit(
    attribute: &'static str,
    applies_to: &'static str,
    field: &'static str,
    node: &Node,
) -> Misfit {
    Misfit::Kind {
        attribute,
        applies_to,
        field,
        is: kind_name(node),
    }
}

/// Which bound of a number an attribute sets.
#[derive(Clone, Copy, Debug)]
pub enum NumberBound {
    /// `min`.
    Min,
    /// `max`.
    Max,
    /// `exclusive_min`.
    ExclusiveMin,
    /// `exclusive_max`.
    ExclusiveMax,
    /// `multiple_of`.
    MultipleOf,
}

impl NumberBound {
    const fn attribute(self) -> &'static str {
        match self {
            NumberBound::Min => "min",
            NumberBound::Max => "max",
            NumberBound::ExclusiveMin => "exclusive_min",
            NumberBound::ExclusiveMax => "exclusive_max",
            NumberBound::MultipleOf => "multiple_of",
        }
    }

    const fn set(self, mut rules: NumberRules, bound: Bound) -> NumberRules {
        let slot = match self {
            NumberBound::Min => &mut rules.minimum,
            NumberBound::Max => &mut rules.maximum,
            NumberBound::ExclusiveMin => &mut rules.exclusive_minimum,
            NumberBound::ExclusiveMax => &mut rules.exclusive_maximum,
            NumberBound::MultipleOf => &mut rules.multiple_of,
        };
        *slot = Some(bound);
        rules
    }
}

/// Applies a numeric bound (`min`, `max`, ...) to an integer or number node.
pub const fn number_bound(
    node: &Node,
    which: NumberBound,
    bound: Bound,
    field: &'static str,
) -> Applied {
    let kind = match node.kind {
        Kind::Integer(rules) => {
            if !bound.integral {
                return Err(Misfit::NotIntegral {
                    attribute: which.attribute(),
                    field,
                    bound: bound.text,
                });
            }
            Kind::Integer(which.set(rules, bound))
        }
        Kind::Number(rules) => Kind::Number(which.set(rules, bound)),
        _ => return Err(misfit(which.attribute(), "numbers", field, node)),
    };
    if matches!(which, NumberBound::MultipleOf) && bound.value <= 0.0 {
        return Err(Misfit::NotPositive { field });
    }
    Ok(Node { kind, ..*node })
}

/// Which count of a string or array an attribute sets.
#[derive(Clone, Copy, Debug)]
pub enum Count {
    /// `min_length`.
    MinLength,
    /// `max_length`.
    MaxLength,
    /// `min_items`.
    MinItems,
    /// `max_items`.
    MaxItems,
}

/// Applies a length or item count to a string or array node.
pub const fn count(node: &Node, which: Count, value: u64, field: &'static str) -> Applied {
    let kind = match (which, node.kind) {
        (Count::MinLength, Kind::String(rules)) => Kind::String(StringRules {
            min_length: Some(value),
            ..rules
        }),
        (Count::MaxLength, Kind::String(rules)) => Kind::String(StringRules {
            max_length: Some(value),
            ..rules
        }),
        (Count::MinItems, Kind::Array(item, rules)) => Kind::Array(
            item,
            ArrayRules {
                min_items: Some(value),
                ..rules
            },
        ),
        (Count::MaxItems, Kind::Array(item, rules)) => Kind::Array(
            item,
            ArrayRules {
                max_items: Some(value),
                ..rules
            },
        ),
        (Count::MinLength, _) => return Err(misfit("min_length", "strings", field, node)),
        (Count::MaxLength, _) => return Err(misfit("max_length", "strings", field, node)),
        (Count::MinItems, _) => return Err(misfit("min_items", "arrays", field, node)),
        (Count::MaxItems, _) => return Err(misfit("max_items", "arrays", field, node)),
    };
    Ok(Node { kind, ..*node })
}

/// `unique_items`.
pub const fn unique_items(node: &Node, field: &'static str) -> Applied {
    match node.kind {
        Kind::Array(item, rules) => Ok(Node {
            kind: Kind::Array(
                item,
                ArrayRules {
                    unique_items: true,
                    ..rules
                },
            ),
            ..*node
        }),
        _ => Err(misfit("unique_items", "arrays", field, node)),
    }
}

/// A string rule (`pattern`, whose syntax the derive checked, or `format`).
#[derive(Clone, Copy, Debug)]
pub enum StringRule {
    /// `pattern = "..."`.
    Pattern(&'static str),
    /// `format = "..."`.
    Format(&'static str),
}

/// Applies `pattern` or `format` to a string node.
pub const fn string_rule(node: &Node, rule: StringRule, field: &'static str) -> Applied {
    let Kind::String(rules) = node.kind else {
        let attribute = match rule {
            StringRule::Pattern(_) => "pattern",
            StringRule::Format(_) => "format",
        };
        return Err(misfit(attribute, "strings", field, node));
    };
    let rules = match rule {
        StringRule::Pattern(pattern) => StringRules {
            pattern: Some(pattern),
            ..rules
        },
        StringRule::Format(format) => StringRules {
            format: Some(format),
            ..rules
        },
    };
    Ok(Node {
        kind: Kind::String(rules),
        ..*node
    })
}

/// `values("a", "b")`: a string limited to these values.
pub const fn values(node: &Node, values: &'static [&'static str], field: &'static str) -> Applied {
    match node.kind {
        Kind::String(_) => Ok(Node {
            kind: Kind::StringEnum(values, &[]),
            ..*node
        }),
        _ => Err(misfit("values", "strings", field, node)),
    }
}

/// Adds hidden checks (bits of [`checks`]); `trim`, `lowercase` and `uppercase` need a string.
pub const fn hidden(node: &Node, flags: u8, field: &'static str) -> Applied {
    let text_flags = checks::TRIM | checks::LOWERCASE | checks::UPPERCASE;
    if flags & text_flags != 0 && !matches!(node.kind, Kind::String(_) | Kind::StringEnum(..)) {
        let attribute = if flags & checks::TRIM != 0 {
            "trim"
        } else if flags & checks::LOWERCASE != 0 {
            "lowercase"
        } else {
            "uppercase"
        };
        return Err(misfit(attribute, "strings", field, node));
    }
    Ok(Node {
        checks: node.checks | flags,
        ..*node
    })
}

/// `coerce`: the string form of a number or boolean is accepted too.
pub const fn coerce(node: &Node, field: &'static str) -> Applied {
    match node.kind {
        Kind::Integer(_) | Kind::Number(_) | Kind::Boolean => Ok(Node {
            hazard: Hazard::Coerce,
            ..*node
        }),
        _ => Err(misfit("coerce", "numbers and booleans", field, node)),
    }
}

/// `catch = expr`: an invalid value is replaced by `fallback()`.
pub const fn catch(
    node: &Node,
    fallback: fn() -> serde_json::Value,
    field: &'static str,
) -> Applied {
    if node.nullable {
        return Err(Misfit::CatchOnOption { field });
    }
    Ok(Node {
        hazard: Hazard::Catch(crate::node::Fallback(fallback)),
        ..*node
    })
}

/// `min = 1` for the non-zero integer types.
pub const fn positive(node: &Node) -> Node {
    match number_bound(node, NumberBound::Min, Bound::int("1", 1.0), "") {
        Ok(node) => node,
        Err(_) => panic!("stitch: a non-zero integer type's shape is an integer"),
    }
}

/// The fields of a newtype variant's struct, which must not hold a field named like the tag
/// (serde reads the tag there: the operation could not be called as advertised).
pub const fn newtype_object(
    node: &'static Node,
    variant: &'static str,
    tag: &'static str,
) -> Applied<&'static Object> {
    let object = match node.kind {
        Kind::Object(object) if !node.nullable => object,
        _ => {
            return Err(Misfit::NewtypeNotStruct {
                variant,
                is: kind_name(node),
            });
        }
    };
    let mut i = 0;
    let field_count = object.fields.len();
    while i < field_count {
        if crate::strings::str_eq(object.fields[i].name, tag) {
            return Err(Misfit::NewtypeTagField { variant, tag });
        }
        i += 1;
    }
    Ok(object)
}

/// The JSON of a `catch` value (`null` if it does not serialize).
pub fn fallback<T: serde::Serialize>(value: T) -> serde_json::Value {
    serde_json::to_value(value).unwrap_or(serde_json::Value::Null)
}
