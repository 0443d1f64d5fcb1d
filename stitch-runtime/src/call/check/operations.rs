//! A union's operation, found as its tagging places it: named by the tag beside its fields
//! (internally tagged) or beside its content key (adjacently), or by its one key
//! (externally); then checked, each issue at the pointer of that shape (`/args/len`,
//! `/insert/at`).

use serde_json::{Map, Value};
use stitch_rules::IssueCode;

use super::free::drop_flat;
use super::names::{variant_aliased, variant_named};
use super::path::Path;
use super::words::{describe, short};
use super::{Checker, entry};
use crate::ir::{Holds, Kind, Node, Tagging, Union, Variant};
use crate::text::render::is_unit;

impl Checker {
    /// The operation the tag names (or, externally tagged, the one key), then what it holds.
    pub(super) fn union(
        &mut self,
        union: &'static Union<'static>,
        map: &mut Map<String, Value>,
        at: &Path<'_>,
    ) {
        if let Tagging::External = union.tagging {
            return self.external(union, map, at);
        }
        let tag = entry(map, union.tag);
        let chosen = tag
            .and_then(Value::as_str)
            .and_then(|tag| variant_named(union.variants, tag));
        if let Some(variant) = chosen {
            return match union.tagging {
                Tagging::Adjacent(content) => self.adjacent(union, variant, content, map, at),
                _ => self.object(variant.object, map, Some(union.tag), at),
            };
        }
        let tag_at = at.key(union.tag);
        let names = self.valid_operations(union, &tag_at);
        let (code, message) = match tag {
            None => (
                IssueCode::MissingOperation,
                format!("missing \"{}\", the operation; valid: {names}", union.tag),
            ),
            Some(Value::String(tag)) => (
                IssueCode::UnknownOperation,
                format!(
                    "unknown operation {}{}; valid: {names}",
                    short(tag),
                    aliased(union, tag)
                ),
            ),
            Some(other) => (
                IssueCode::UnknownOperation,
                format!(
                    "expected the operation's name as a string, got {}; valid: {names}",
                    describe(other)
                ),
            ),
        };
        self.issue(&tag_at, code, message);
    }

    /// The valid operations of `union`, for an issue at `at`: every name the first time, and
    /// then where they were listed, so that a call of many bad operations is not answered
    /// with the list once per operation.
    fn valid_operations(&mut self, union: &'static Union<'static>, at: &Path<'_>) -> String {
        if let Some((_, pointer)) = self
            .listed
            .iter()
            .find(|(listed, _)| std::ptr::eq(*listed, union))
        {
            return format!("as listed at {pointer}");
        }
        self.listed.push((union, at.pointer()));
        let names: Vec<&str> = union.variants.iter().map(|variant| variant.name).collect();
        names.join(", ")
    }

    /// An adjacently tagged operation's content key: the operation's fields, or nothing for a
    /// unit operation; other keys beside the tag are ignored (refused under
    /// `deny_unknown_fields`), as serde reads them.
    fn adjacent(
        &mut self,
        union: &'static Union<'static>,
        variant: &'static Variant<'static>,
        content: &'static str,
        map: &mut Map<String, Value>,
        at: &Path<'_>,
    ) {
        if self.null_is_absence && entry(map, content).is_some_and(Value::is_null) {
            map.remove(content);
        }
        let others: Vec<String> = map
            .keys()
            .filter(|key| *key != union.tag && *key != content)
            .cloned()
            .collect();
        for key in others {
            if self.stopped {
                return;
            }
            if variant.object.deny_unknown {
                let message = format!("unknown key \"{key}\"; accepted: {}, {content}", union.tag);
                self.issue(&at.key(&key), IssueCode::UnknownKey, message);
            } else if let Some(ignored) = map.remove(&key) {
                drop_flat(ignored);
            }
        }
        let inside = at.key(content);
        match (is_unit(variant), map.get_mut(content)) {
            (false, Some(value)) => self.holding(variant, value, &inside),
            (false, None) => {
                let message = format!("missing required \"{content}\", the operation's fields");
                self.issue(&inside, IssueCode::MissingRequired, message);
            }
            (true, None) => {}
            // A unit operation holds nothing: serde reads a `null` content as it, and
            // refuses anything else (an empty object too).
            (true, Some(Value::Null)) => {
                map.remove(content);
            }
            (true, Some(value)) => {
                let message = format!(
                    "operation \"{}\" takes no \"{content}\": leave it out or send null, got {}",
                    variant.name,
                    describe(value)
                );
                self.issue(&inside, IssueCode::InvalidType, message);
            }
        }
    }

    /// An externally tagged union: exactly one key, naming the operation, holding what the
    /// operation holds (a unit operation: `null`, or an empty object, which serde is handed
    /// as `null`).
    fn external(
        &mut self,
        union: &'static Union<'static>,
        map: &mut Map<String, Value>,
        at: &Path<'_>,
    ) {
        if self.null_is_absence {
            // A strict client sends every operation's key, `null` for those it does not mean.
            map.retain(|_, value| !value.is_null());
        }
        if map.len() != 1 {
            let (code, message) = if map.is_empty() {
                let names = self.valid_operations(union, at);
                (
                    IssueCode::MissingOperation,
                    format!("missing the operation: send one key of {names}"),
                )
            } else {
                // The first keys sent, not all of them: the answer stays small.
                const SHOWN: usize = 8;
                let mut sent: Vec<&str> = map.keys().take(SHOWN).map(String::as_str).collect();
                if map.len() > SHOWN {
                    sent.push("…");
                }
                (
                    IssueCode::MaxProperties,
                    format!(
                        "send exactly one operation's key, got {}: {}",
                        map.len(),
                        sent.join(", ")
                    ),
                )
            };
            return self.issue(at, code, message);
        }
        let Some((key, value)) = map.iter_mut().next() else {
            return;
        };
        let chosen = variant_named(union.variants, key);
        let Some(variant) = chosen else {
            let key_at = at.key(key);
            let names = self.valid_operations(union, &key_at);
            let message = format!(
                "unknown operation {}{}; valid: {names}",
                short(key),
                aliased(union, key)
            );
            return self.issue(&key_at, IssueCode::UnknownOperation, message);
        };
        let inside = at.key(key);
        if is_unit(variant) {
            if is_nothing(value) {
                *value = Value::Null;
            } else {
                let message = format!(
                    "operation \"{}\" takes nothing: send null or {{}}, got {}",
                    variant.name,
                    describe(value)
                );
                self.issue(&inside, IssueCode::InvalidType, message);
            }
            return;
        }
        self.holding(variant, value, &inside);
    }

    /// What an operation holds where it does not sit beside its tag: its fields, or a
    /// newtype's value.
    fn holding(&mut self, variant: &'static Variant<'static>, value: &mut Value, at: &Path<'_>) {
        match (variant.holds, value) {
            (Holds::Value(node), value) => self.value(node, value, at),
            (_, Value::Object(map)) => self.object(variant.object, map, None, at),
            (_, value) => {
                let expected = Node::of(Kind::Object(variant.object));
                self.wrong_type(&expected, value, at);
            }
        }
    }
}

/// Whether a value says "nothing": `null` or an empty object.
fn is_nothing(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::Object(map) => map.is_empty(),
        _ => false,
    }
}

/// Whether `name` names a unit operation of an externally tagged union (serde reads such an
/// operation from its name alone).
pub(super) fn names_unit_operation(union: &Union<'static>, name: &str) -> bool {
    matches!(union.tagging, Tagging::External)
        && union
            .variants
            .iter()
            .any(|variant| is_unit(variant) && variant.name == name)
}

/// What an unknown operation's issue adds when the name is an alias serde reads (no schema
/// states one): the name to send instead.
#[cold]
fn aliased(union: &Union<'static>, name: &str) -> String {
    match variant_aliased(union.variants, name) {
        Some(variant) => format!(
            " (an alias serde reads but the schema does not state: send \"{}\")",
            variant.name
        ),
        None => String::new(),
    }
}
