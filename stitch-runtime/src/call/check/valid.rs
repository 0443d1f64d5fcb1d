//! The valid path: whether a call passes as it was sent, so serde can take it with no walk
//! that collects issues. Most calls a model makes are valid; for them `parse` runs this and
//! then serde, and nothing else.
//!
//! It answers only "yes, as it is" or "not sure": every "not sure" goes to the full check,
//! which finds the issues, their pointers and messages, and makes the adjustments (`coerce`,
//! `catch`, the transforms, structure sent as text, keys serde ignores). So a "yes" must mean
//! the full check would find nothing and change nothing serde reads: the one change it
//! allows is a `null` the full check drops and serde reads as absence anyway (a strict-mode
//! client's `null` for a key it does not mean). Anything else the full check would adjust,
//! and every shape it handles rarely, is answered "not sure" here. Each rule of a value (the
//! keywords, the ranges of Rust types, a key's field, an operation's name) is the one the
//! full check applies: they are called, not restated.
//!
//! It is cheaper than the full check because it keeps nothing: no path, no issue, no
//! bookkeeping for `catch` or the cap, and it stops at the first doubt. And most fields'
//! values are judged at a glance, by the quick check computed with the field in constant
//! evaluation (`QuickCheck`: an integer's interval, a string's count bounds by its length,
//! its format and pattern); only what a glance does not settle is walked.

use serde_json::{Map, Value};

use super::free::{MAX_FREE_DEPTH, depth_exceeds};
use super::keywords::{Subject, character_count_bounds, keywords_hold};
use super::names::{field_named, same, variant_named};
use super::null_passes;
use super::scalars::{fits_float, fits_integer, integer_value, transforms};
use crate::call::{format_check as format, pattern_match as pattern};
use crate::ir::{Field, Hazard, Kind, Node, Object, QuickCheck, Tagging, Union};

/// Whether `value` passes `node` as it was sent: `true` only when the full check, for a
/// client shown any dialect, would find no issue and change nothing serde reads.
pub fn passes(node: &'static Node<'static>, value: &Value) -> bool {
    Valid.value(node, value)
}

/// The valid path's walk (it keeps nothing).
struct Valid;

impl Valid {
    /// A value: a scalar checked here, anything else in [`Valid::structure`].
    fn value(&self, node: &'static Node<'static>, value: &Value) -> bool {
        match (&node.kind, value) {
            (_, Value::Null) => null_passes(node),
            (Kind::Boolean, Value::Bool(_)) => true,
            (Kind::Integer(rules), Value::Number(number)) => {
                // `2.0` is normalised by the full check: not this path's.
                (number.is_i64() || number.is_u64())
                    && keywords_hold(&node.kind, Subject::Number(number))
                    && fits_integer(rules, number)
            }
            (Kind::Number(rules), Value::Number(number)) => {
                keywords_hold(&node.kind, Subject::Number(number)) && fits_float(rules, number)
            }
            (Kind::String(_), Value::String(text)) => {
                !transforms(node.checks) && keywords_hold(&node.kind, Subject::Text(text))
            }
            (Kind::StringEnum(values, ..), Value::String(text)) => {
                values.iter().any(|value| same(value, text)) && !transforms(node.checks)
            }
            _ => self.structure(node, value),
        }
    }

    /// Arrays, maps, objects, unions, and what the contract leaves free.
    #[inline(never)]
    fn structure(&self, node: &'static Node<'static>, value: &Value) -> bool {
        match (&node.kind, value) {
            (Kind::Array(item, _), Value::Array(items)) => {
                keywords_hold(&node.kind, Subject::Items(items)) && self.items(item, items)
            }
            (Kind::Tuple(elements), Value::Array(items)) => {
                items.len() == elements.len()
                    && elements
                        .iter()
                        .zip(items)
                        .all(|(element, item)| self.value(element, item))
            }
            (Kind::Map(entry, _), Value::Object(map)) => {
                keywords_hold(&node.kind, Subject::Entries(map.len()))
                    && map.values().all(|element| self.value(entry, element))
            }
            (Kind::Object(object), Value::Object(map)) => self.object(object, map, None),
            (Kind::Union(union), Value::Object(map)) => self.union(union, map),
            (Kind::AnyOf(branches), value) => {
                branches.iter().any(|branch| self.value(branch, value))
            }
            (Kind::Any | Kind::Opaque | Kind::Kinds(_), value) => {
                !depth_exceeds(value, MAX_FREE_DEPTH)
            }
            // A value of another type, a string that may hold a structure, a verbatim part:
            // the full check's.
            _ => false,
        }
    }

    /// An array's items. A list of operations is the common case: each item goes straight
    /// to its union, not through the dispatch on the item's kind once per item.
    fn items(&self, item: &'static Node<'static>, items: &[Value]) -> bool {
        match item.kind {
            Kind::Union(union) => items.iter().all(|element| match element {
                Value::Object(map) => self.union(union, map),
                _ => self.value(item, element),
            }),
            Kind::Object(object) => items.iter().all(|element| match element {
                Value::Object(map) => self.object(object, map, None),
                _ => self.value(item, element),
            }),
            _ => items.iter().all(|element| self.value(item, element)),
        }
    }

    /// Every key names a field (the tag, at `tag_at`, aside) and passes it, once; no field
    /// the full check would report or fill in is missing. Keys usually come in the order the
    /// fields are declared: the next field is tried first.
    #[inline(always)]
    fn object(
        &self,
        object: &'static Object<'static>,
        map: &Map<String, Value>,
        tag_at: Option<usize>,
    ) -> bool {
        let fields = object.fields;
        if fields.len() > 64 {
            return false;
        }
        let mut seen = 0u64;
        let mut next = 0;
        for (position, (key, value)) in map.iter().enumerate() {
            if tag_at == Some(position) {
                continue;
            }
            let index = match fields.get(next) {
                Some(field) if same(field.name, key) => next,
                _ => match field_named(fields, key) {
                    Some(index) => index,
                    None => match object.rest {
                        // Another key is a flattened map's entry, checked as its values
                        // are (a `null` there may be a strict client's absence, which the
                        // full check drops and serde would not: the full check's).
                        Some(rest) if !value.is_null() => {
                            if !self.value(rest, value) {
                                return false;
                            }
                            continue;
                        }
                        // A `null` for a key that names no field is dropped by the full
                        // check and ignored by serde alike: a strict-mode client sends one
                        // for every key of the flat object it does not mean.
                        None if value.is_null() && !object.deny_unknown => continue,
                        // Other such keys are refused or dropped: the full check's.
                        _ => return false,
                    },
                },
            };
            next = index + 1;
            if seen & (1 << index) != 0 {
                return false;
            }
            seen |= 1 << index;
            // A `null` the full check drops as a strict client's absence is `None` to serde
            // either way: the field's node accepts it, or the value does not pass.
            if !self.field(&fields[index], value) {
                return false;
            }
        }
        let every_field = match fields.len() {
            0 => 0,
            count => u64::MAX >> (64 - count),
        };
        seen == every_field
            || fields.iter().enumerate().all(|(index, field)| {
                seen & (1 << index) != 0
                    || !(field.required || matches!(field.node.hazard, Hazard::Catch(_)))
            })
    }

    /// A field's value: judged at a glance where the field's quick check can, else walked.
    #[inline(always)]
    fn field(&self, field: &'static Field<'static>, value: &Value) -> bool {
        match (field.quick, value) {
            (QuickCheck::Integer { low, high }, Value::Number(number)) => {
                match integer_value(number) {
                    Some(integer) => low <= integer && integer <= high,
                    None => self.value(field.node, value),
                }
            }
            (
                QuickCheck::Text {
                    fewest,
                    most,
                    patterned,
                    format,
                },
                Value::String(text),
            ) => {
                let (at_least, at_most) = character_count_bounds(text);
                if !(fewest <= at_least as u64 && at_most as u64 <= most) {
                    return self.value(field.node, value);
                }
                format.is_none_or(|format| format::admits_as(format, text))
                    && (!patterned || Self::matches_pattern(field.node, text))
            }
            (QuickCheck::Boolean, Value::Bool(_)) => true,
            _ => self.value(field.node, value),
        }
    }

    /// Whether a string matches its node's pattern (see `QuickCheck::Text`).
    fn matches_pattern(node: &Node<'static>, text: &str) -> bool {
        match &node.kind {
            Kind::String(rules) => rules
                .pattern
                .is_none_or(|expression| pattern::matches(expression, text)),
            _ => true,
        }
    }

    /// An internally tagged operation, named by its tag; other taggings are the full check's.
    fn union(&self, union: &'static Union<'static>, map: &Map<String, Value>) -> bool {
        if !matches!(union.tagging, Tagging::Internal) {
            return false;
        }
        for (position, (key, value)) in map.iter().enumerate() {
            if same(key, union.tag) {
                return match value {
                    Value::String(tag) => variant_named(union.variants, tag)
                        .is_some_and(|variant| self.object(variant.object, map, Some(position))),
                    _ => false,
                };
            }
        }
        false
    }
}
