//! Field attributes applied to a node (`min`, `pattern`, `values(...)`, `trim`, `coerce`,
//! `catch`, ...): one `const fn` each, which the derive calls at the attribute's span, and which
//! fails constant evaluation (a compile error there) when the attribute does not fit the
//! field's type — a thing only the type's shape knows, never the derive.

use crate::message::Message;
use crate::node::{
    ArrayRules, Bound, Hazard, Kind, Node, NumberRules, Object, StringRules, checks,
};

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

/// Fails with "`attribute` applies to *what*, but field `field` is *kind*".
const fn misfit(attribute: &str, applies_to: &str, field: &str, node: &Node) -> ! {
    Message::new()
        .push("stitch: `")
        .push(attribute)
        .push("` applies to ")
        .push(applies_to)
        .push(", but field `")
        .push(field)
        .push("` is ")
        .push(kind_name(node))
        .fail()
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
pub const fn number_bound(node: &Node, which: NumberBound, bound: Bound, field: &str) -> Node {
    let kind = match node.kind {
        Kind::Integer(rules) => {
            if !bound.integral {
                Message::new()
                    .push("stitch: `")
                    .push(which.attribute())
                    .push("` on the integer field `")
                    .push(field)
                    .push("` must be an integer, not ")
                    .push(bound.text)
                    .fail()
            }
            Kind::Integer(which.set(rules, bound))
        }
        Kind::Number(rules) => Kind::Number(which.set(rules, bound)),
        _ => misfit(which.attribute(), "numbers", field, node),
    };
    if matches!(which, NumberBound::MultipleOf) && bound.value <= 0.0 {
        Message::new()
            .push("stitch: `multiple_of` on field `")
            .push(field)
            .push("` must be greater than 0")
            .fail()
    }
    Node { kind, ..*node }
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
pub const fn count(node: &Node, which: Count, value: u64, field: &str) -> Node {
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
        (Count::MinLength, _) => misfit("min_length", "strings", field, node),
        (Count::MaxLength, _) => misfit("max_length", "strings", field, node),
        (Count::MinItems, _) => misfit("min_items", "arrays", field, node),
        (Count::MaxItems, _) => misfit("max_items", "arrays", field, node),
    };
    Node { kind, ..*node }
}

/// `unique_items`.
pub const fn unique_items(node: &Node, field: &str) -> Node {
    match node.kind {
        Kind::Array(item, rules) => Node {
            kind: Kind::Array(
                item,
                ArrayRules {
                    unique_items: true,
                    ..rules
                },
            ),
            ..*node
        },
        _ => misfit("unique_items", "arrays", field, node),
    }
}

/// `pattern` (its syntax was checked by the derive).
pub const fn pattern(node: &Node, pattern: &'static str, field: &str) -> Node {
    match node.kind {
        Kind::String(rules) => Node {
            kind: Kind::String(StringRules {
                pattern: Some(pattern),
                ..rules
            }),
            ..*node
        },
        _ => misfit("pattern", "strings", field, node),
    }
}

/// `format`.
pub const fn format(node: &Node, format: &'static str, field: &str) -> Node {
    match node.kind {
        Kind::String(rules) => Node {
            kind: Kind::String(StringRules {
                format: Some(format),
                ..rules
            }),
            ..*node
        },
        _ => misfit("format", "strings", field, node),
    }
}

/// `values("a", "b")`: a string limited to these values.
pub const fn values(node: &Node, values: &'static [&'static str], field: &str) -> Node {
    match node.kind {
        Kind::String(_) => Node {
            kind: Kind::StringEnum(values, &[]),
            ..*node
        },
        _ => misfit("values", "strings", field, node),
    }
}

/// Adds hidden checks (bits of [`checks`]); `trim`, `lowercase` and `uppercase` need a string.
pub const fn hidden(node: &Node, flags: u8, field: &str) -> Node {
    let text_flags = checks::TRIM | checks::LOWERCASE | checks::UPPERCASE;
    if flags & text_flags != 0 && !matches!(node.kind, Kind::String(_) | Kind::StringEnum(..)) {
        let attribute = if flags & checks::TRIM != 0 {
            "trim"
        } else if flags & checks::LOWERCASE != 0 {
            "lowercase"
        } else {
            "uppercase"
        };
        misfit(attribute, "strings", field, node)
    }
    Node {
        checks: node.checks | flags,
        ..*node
    }
}

/// `coerce`: the string form of a number or boolean is accepted too.
pub const fn coerce(node: &Node, field: &str) -> Node {
    match node.kind {
        Kind::Integer(_) | Kind::Number(_) | Kind::Boolean => Node {
            hazard: Hazard::Coerce,
            ..*node
        },
        _ => misfit("coerce", "numbers and booleans", field, node),
    }
}

/// `catch = expr`: an invalid value is replaced by `fallback()`.
pub const fn catch(node: &Node, fallback: fn() -> serde_json::Value, field: &str) -> Node {
    if node.nullable {
        Message::new()
            .push("stitch: `catch` on the optional field `")
            .push(field)
            .push("`: an `Option` already accepts a missing value; declare the field without `Option` or drop `catch`")
            .fail()
    }
    Node {
        hazard: Hazard::Catch(crate::node::Fallback(fallback)),
        ..*node
    }
}

/// `min = 1` for the non-zero integer types.
pub const fn positive(node: &Node) -> Node {
    number_bound(node, NumberBound::Min, Bound::int("1", 1.0), "")
}

/// The fields of a newtype variant's struct, which must not hold a field named like the tag
/// (serde reads the tag there: the operation could not be called as advertised).
pub const fn newtype_object(node: &'static Node, variant: &str, tag: &str) -> &'static Object {
    let object = match node.kind {
        Kind::Object(object) if !node.nullable => object,
        _ => Message::new()
            .push("stitch: the newtype operation `")
            .push(variant)
            .push("` must wrap a struct (an object), but it wraps ")
            .push(kind_name(node))
            .fail(),
    };
    let mut i = 0;
    let field_count = object.fields.len();
    while i < field_count {
        if crate::strings::str_eq(object.fields[i].name, tag) {
            Message::new()
                .push("stitch: the newtype operation `")
                .push(variant)
                .push("` wraps a struct with a field named `")
                .push(tag)
                .push("`, like the tag: serde reads the tag there, so the field never gets a value; rename the field or the tag")
                .fail()
        }
        i += 1;
    }
    object
}

/// The JSON of a `catch` value (`null` if it does not serialize).
pub fn fallback<T: serde::Serialize>(value: T) -> serde_json::Value {
    serde_json::to_value(value).unwrap_or(serde_json::Value::Null)
}
