//! Parsing one call: the arguments are checked against the *exact* contract and adjusted
//! for serde (the `check` module), every issue collected with its JSON Pointer; then serde
//! deserializes them and the hidden `refine` checks run on the typed value.

use serde_json::Value;

use stitch_rules::{Dialect, IssueCode};

use crate::call::check;
use crate::call::rejection::{Issue, JsonPointer, Rejection};
use crate::ir::{Kind, Node, checks, for_each_operation_field};
use crate::shape::Shape;
use serde::de::DeserializeOwned;

/// Parses one call's arguments into `T`, as a client shown `dialect` sends them: validation
/// against the exact contract, the JSON adjustments, serde, then `refine` checks. Never
/// panics.
pub fn parse<T: Shape + DeserializeOwned>(
    mut args: Value,
    dialect: Dialect,
) -> Result<T, Rejection> {
    // Most calls pass as they are sent: then the walk that collects issues and adjusts the
    // arguments has nothing to do, and is skipped.
    if !check::passes(T::SHAPE, &args) {
        let (issues, truncated) = check::check(T::SHAPE, &mut args, dialect);
        if !issues.is_empty() {
            // What was refused may nest without limit: it is dropped without recursion.
            check::drop_flat(args);
            return Err(Rejection::new(issues, truncated));
        }
    }
    let value: T = if const { serde_may_reject(T::SHAPE) } {
        deserialize_tracked(args)?
    } else {
        serde_json::from_value(args).map_err(|error| {
            let issue = Issue {
                pointer: String::new(),
                code: IssueCode::InvalidValue,
                message: error.to_string(),
            };
            Rejection::new(vec![issue], false)
        })?
    };
    let mut issues = Vec::new();
    if T::REFINES {
        value.refine(&mut JsonPointer::root(), &mut issues);
    }
    if issues.is_empty() {
        Ok(value)
    } else {
        Err(Rejection::new(issues, false))
    }
}

/// Serde with the path of the failing value (its tracking costs about as much as the
/// deserialization itself, so only contracts that need it pay for it).
fn deserialize_tracked<T: serde::de::DeserializeOwned>(args: Value) -> Result<T, Rejection> {
    serde_path_to_error::deserialize(args).map_err(|error| {
        let mut pointer = JsonPointer::root();
        for segment in error.path().iter() {
            match segment {
                serde_path_to_error::Segment::Seq { index } => {
                    pointer.push_index(*index);
                }
                serde_path_to_error::Segment::Map { key } => {
                    pointer.push_key(key);
                }
                serde_path_to_error::Segment::Enum { .. }
                | serde_path_to_error::Segment::Unknown => {}
            }
        }
        let issue = Issue {
            pointer: pointer.into_string(),
            code: IssueCode::InvalidValue,
            message: error.into_inner().to_string(),
        };
        Rejection::new(vec![issue], false)
    })
}

/// Whether serde can reject a value this contract's validation accepted: only through a
/// conversion the schema cannot show (`via`), a value it cannot describe (`opaque`), or a
/// type that converts what its schema admits and may refuse a rare value of it (an address,
/// a date-time: `checks::CONVERTED`).
pub const fn serde_may_reject(node: &Node) -> bool {
    if node.checks & (checks::VIA | checks::OPAQUE | checks::CONVERTED) != 0 {
        return true;
    }
    match node.kind {
        Kind::Array(item, _) | Kind::Map(item, _) => serde_may_reject(item),
        Kind::Tuple(elements) => {
            let mut i = 0;
            while i < elements.len() {
                if serde_may_reject(elements[i]) {
                    return true;
                }
                i += 1;
            }
            false
        }
        Kind::Object(object) => {
            fields_may_reject(object.fields)
                || match object.rest {
                    Some(rest) => serde_may_reject(rest),
                    None => false,
                }
        }
        Kind::Union(union) => {
            for_each_operation_field!(union, |_operation, _index, field| {
                if serde_may_reject(field.node) {
                    return true;
                }
            });
            let mut v = 0;
            while v < union.variants.len() {
                if let Some(value) = union.variants[v].value()
                    && serde_may_reject(value)
                {
                    return true;
                }
                v += 1;
            }
            false
        }
        _ => false,
    }
}

const fn fields_may_reject(fields: &[crate::ir::Field]) -> bool {
    let mut i = 0;
    let field_count = fields.len();
    while i < field_count {
        if serde_may_reject(fields[i].node) {
            return true;
        }
        i += 1;
    }
    false
}

/// The issue a failed `refine` check becomes.
pub fn refine_issue(pointer: &JsonPointer, error: impl std::fmt::Display) -> Issue {
    Issue {
        pointer: pointer.as_str().to_owned(),
        code: IssueCode::Refine,
        message: error.to_string(),
    }
}

/// Refines one field's value at its key; a type that cannot carry a check (`refines` is its
/// `Shape::REFINES`) costs nothing. One call per field keeps the derive's `refine` small
/// (big contracts have a thousand fields); the derive names `T`'s `Shape` items itself, so
/// a type without a shape is reported once, at the field.
pub fn refine_field<T: ?Sized>(
    value: &T,
    key: &str,
    refines: bool,
    refine: fn(&T, &mut JsonPointer, &mut Vec<Issue>),
    pointer: &mut JsonPointer,
    issues: &mut Vec<Issue>,
) {
    if refines {
        let mark = pointer.push_key(key);
        refine(value, pointer, issues);
        pointer.truncate(mark);
    }
}
