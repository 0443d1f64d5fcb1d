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

use super::free::{MAX_FREE_DEPTH, depth_exceeds, may_be_json_text};
use super::integers::integer_value;
use super::keywords::{Subject, character_count_bounds, keywords_hold};
use super::names::{field_named, same, variant_named};
use super::null_passes;
use super::scalars::{fits_float, fits_integer, transforms};
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
            (Kind::Object(object), Value::Object(map)) => self.object(object, map.iter()),
            (Kind::Union(union), Value::Object(map)) => self.union(union, map),
            (Kind::AnyOf(branches), value) => {
                branches.iter().any(|branch| self.value(branch, value))
            }
            // A strict client's object or array sent as JSON text is read by the full check.
            (Kind::Any, Value::String(text)) => !may_be_json_text(text),
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
                Value::Object(map) => self.object(object, map.iter()),
                _ => self.value(item, element),
            }),
            _ => items.iter().all(|element| self.value(item, element)),
        }
    }

    /// Every key names a field and its value passes it, once; no field the full check would
    /// report or fill in is missing.
    #[inline(always)]
    fn object<'v>(
        &self,
        object: &'static Object<'static>,
        entries: impl Iterator<Item = (&'v String, &'v Value)>,
    ) -> bool {
        let Some(mut fields) = Fields::of(object) else {
            return false;
        };
        for (key, value) in entries {
            if !fields.read(self, key, value) {
                return false;
            }
        }
        fields.complete()
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
    ///
    /// The fields are read in one pass that starts over only for the keys before the tag:
    /// none where the map keeps the order they were sent in, a few where it holds them in
    /// sorted order (serde_json's default map, a tree walked to find each next key).
    fn union(&self, union: &'static Union<'static>, map: &Map<String, Value>) -> bool {
        if !matches!(union.tagging, Tagging::Internal) {
            return false;
        }
        let mut entries = map.iter();
        let mut before_tag = 0;
        let tag = loop {
            match entries.next() {
                Some((key, value)) if same(key, union.tag) => break value,
                Some(_) => before_tag += 1,
                None => return false,
            }
        };
        let Value::String(tag) = tag else {
            return false;
        };
        let Some(variant) = variant_named(union.variants, tag) else {
            return false;
        };
        let Some(mut fields) = Fields::of(variant.object) else {
            return false;
        };
        if before_tag > 0 {
            for (key, value) in map.iter().take(before_tag) {
                if !fields.read(self, key, value) {
                    return false;
                }
            }
        }
        for (key, value) in entries {
            if !fields.read(self, key, value) {
                return false;
            }
        }
        fields.complete()
    }
}

/// An object's fields as its keys are read: which were seen, and which is likely next (keys
/// usually come in the order the fields are declared).
struct Fields {
    object: &'static Object<'static>,
    seen: u64,
    next: usize,
}

impl Fields {
    /// Reading `object`, whose fields must fit the bits of `seen` (more are the full check's).
    #[inline(always)]
    fn of(object: &'static Object<'static>) -> Option<Self> {
        (object.fields.len() <= 64).then_some(Fields {
            object,
            seen: 0,
            next: 0,
        })
    }

    /// Whether one entry passes: its key names a field not seen before and its value passes
    /// that field, or it is one the full check would leave as serde reads it.
    #[inline(always)]
    fn read(&mut self, valid: &Valid, key: &str, value: &Value) -> bool {
        let (object, fields) = (self.object, self.object.fields);
        let index = match fields.get(self.next) {
            Some(field) if same(field.name, key) => self.next,
            _ => match field_named(fields, key) {
                Some(index) => index,
                None => {
                    return match object.rest {
                        // Another key is a flattened map's entry, checked as its values are
                        // (a `null` there may be a strict client's absence, which the full
                        // check drops and serde would not: the full check's).
                        Some(rest) => !value.is_null() && valid.value(rest, value),
                        // A `null` for a key that names no field is dropped by the full
                        // check and ignored by serde alike: a strict-mode client sends one
                        // for every key of the flat object it does not mean. Other such
                        // keys are refused or dropped: the full check's.
                        None => value.is_null() && !object.deny_unknown,
                    };
                }
            },
        };
        self.next = index + 1;
        if self.seen & (1 << index) != 0 {
            return false;
        }
        self.seen |= 1 << index;
        // A `null` the full check drops as a strict client's absence is `None` to serde
        // either way: the field's node accepts it, or the value does not pass.
        valid.field(&fields[index], value)
    }

    /// Whether no field the full check would report or fill in is missing.
    #[inline(always)]
    fn complete(&self) -> bool {
        let fields = self.object.fields;
        let every_field = match fields.len() {
            0 => 0,
            count => u64::MAX >> (64 - count),
        };
        self.seen == every_field
            || fields.iter().enumerate().all(|(index, field)| {
                self.seen & (1 << index) != 0
                    || !(field.required || matches!(field.node.hazard, Hazard::Catch(_)))
            })
    }
}
