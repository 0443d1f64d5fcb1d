//! Field attributes applied to a node (`min`, `pattern`, `values(...)`, `trim`, `coerce`,
//! `catch`, ...): one `const fn` call per attribute, which the derive writes at the
//! attribute's span. Whether an attribute fits the node is the shared rule
//! (`stitch_rules::check_fit`) the derive applies to the types it can see; here it applies to
//! the rest, which only a type's shape knows (a type alias, a type of another crate), and a
//! misfit becomes a compile error right there, at the attribute.

use stitch_rules::{Attribute, GivenValue, Keyword, Misfit, Said, check_fit};

use crate::ir::{Fallback, Hazard, KeywordValue, Kind, Node, Object, checks};

/// What an attribute applied to a node gives.
pub type Applied<T = Node<'static>> = Result<T, Misfit<'static>>;

/// The value an attribute's call gives, or the build fails with why it does not fit. The
/// derive writes this call at the attribute's span; with `track_caller`, constant
/// evaluation reports the failure there, with nothing of the runtime in the error.
#[track_caller]
pub const fn applied<T: Copy>(applied: Applied<T>) -> T {
    match applied {
        Ok(value) => value,
        Err(misfit) => panic!("{}", misfit.failure().as_str()),
    }
}

/// Whether `attribute`, given `given`, fits `node` (the shared rule).
const fn fits(
    node: &Node<'static>,
    attribute: Attribute,
    given: GivenValue<'static>,
    field: &'static str,
) -> Result<(), Misfit<'static>> {
    check_fit(attribute, node.kind.class(), node.nullable, given, field)
}

/// A keyword's attribute (`min = 0`, `max_length = 80`, `pattern = "..."`, `unique_items`):
/// its value set in the node's rules.
pub const fn keyword(
    node: &Node<'static>,
    keyword: Keyword,
    value: KeywordValue<'static>,
    field: &'static str,
) -> Applied {
    let given = match value {
        KeywordValue::Bound(bound) => GivenValue::Bound {
            text: bound.text,
            value: bound.value,
            integral: bound.integral,
        },
        _ => GivenValue::Other,
    };
    if let Err(misfit) = fits(node, Attribute::Keyword(keyword), given, field) {
        return Err(misfit);
    }
    let Some(kind) = node.kind.with_keyword(keyword, value) else {
        panic!("stitch: a keyword that fits a kind has a slot in it")
    };
    if let Some(((lower, low), (upper, high))) = kind.contradiction_with(keyword, value) {
        return Err(Misfit::Contradiction {
            field,
            lower: (lower.spec().attribute, said(low)),
            upper: (upper.spec().attribute, said(high)),
        });
    }
    Ok(Node { kind, ..*node })
}

/// A limit's value as a message says it.
const fn said(value: KeywordValue<'static>) -> Said<'static> {
    match value {
        KeywordValue::Bound(bound) => Said::Text(bound.text),
        KeywordValue::Count(count) => Said::Count(count),
        KeywordValue::Text(text) => Said::Text(text),
        KeywordValue::Flag => Said::Text("true"),
    }
}

/// `values("a", "b")`: a string limited to these values.
pub const fn values(
    node: &Node<'static>,
    values: &'static [&'static str],
    field: &'static str,
) -> Applied {
    match fits(node, Attribute::Values, GivenValue::Other, field) {
        Ok(()) => Ok(Node {
            kind: Kind::StringEnum(values, &[], None),
            ..*node
        }),
        Err(misfit) => Err(misfit),
    }
}

/// A check JSON Schema cannot show: `trim`, `lowercase`, `uppercase` (strings), `refine`,
/// `via`.
pub const fn hidden(node: &Node<'static>, attribute: Attribute, field: &'static str) -> Applied {
    let flag = match attribute {
        Attribute::Trim => checks::TRIM,
        Attribute::Lowercase => checks::LOWERCASE,
        Attribute::Uppercase => checks::UPPERCASE,
        Attribute::Refine => checks::REFINE,
        Attribute::Via => checks::VIA,
        _ => panic!("stitch: not a hidden check"),
    };
    match fits(node, attribute, GivenValue::Other, field) {
        Ok(()) => Ok(Node {
            checks: node.checks | flag,
            ..*node
        }),
        Err(misfit) => Err(misfit),
    }
}

/// `coerce`: the string form of a number or boolean is accepted too.
pub const fn coerce(node: &Node<'static>, field: &'static str) -> Applied {
    match fits(node, Attribute::Coerce, GivenValue::Other, field) {
        Ok(()) => Ok(Node {
            hazard: Hazard::Coerce,
            ..*node
        }),
        Err(misfit) => Err(misfit),
    }
}

/// `catch = expr`: an invalid value is replaced by `fallback()`.
pub const fn catch(
    node: &Node<'static>,
    fallback: fn() -> serde_json::Value,
    field: &'static str,
) -> Applied {
    match fits(node, Attribute::Catch, GivenValue::Other, field) {
        Ok(()) => Ok(Node {
            hazard: Hazard::Catch(Fallback(fallback)),
            ..*node
        }),
        Err(misfit) => Err(misfit),
    }
}

/// `min = 1` for the non-zero integer types.
pub const fn positive(node: &Node<'static>) -> Node<'static> {
    let one = KeywordValue::Bound(crate::ir::Bound::int("1", 1.0));
    match keyword(node, Keyword::Minimum, one, "") {
        Ok(node) => node,
        Err(_) => panic!("stitch: a non-zero integer type's shape is an integer"),
    }
}

/// `max = -1`: the negative half of a signed non-zero integer type.
pub const fn negative(node: &Node<'static>) -> Node<'static> {
    let minus_one = KeywordValue::Bound(crate::ir::Bound::int("-1", -1.0));
    match keyword(node, Keyword::Maximum, minus_one, "") {
        Ok(node) => node,
        Err(_) => panic!("stitch: a non-zero integer type's shape is an integer"),
    }
}

/// The fields of a newtype variant's struct, which must not hold a field named like the tag
/// (serde reads the tag there: the operation could not be called as advertised).
pub const fn newtype_object(
    node: &'static Node<'static>,
    variant: &'static str,
    tag: &'static str,
) -> Applied<&'static Object<'static>> {
    let object = match node.kind {
        Kind::Object(object) if !node.nullable => object,
        _ => {
            return Err(Misfit::NewtypeNotStruct {
                variant,
                is: node.kind.class().described(),
            });
        }
    };
    let mut i = 0;
    let field_count = object.fields.len();
    while i < field_count {
        if stitch_rules::strings::str_eq(object.fields[i].name, tag) {
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
