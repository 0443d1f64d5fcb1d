//! Validation of one call's arguments against the *exact* contract: the IR the schemas are
//! rendered from, walked beside the JSON, collecting every issue with its JSON Pointer. On the
//! way it makes the JSON what serde expects: a string holding an object or array is parsed,
//! `coerce` reads numbers and booleans from strings, `catch` replaces an invalid value, the
//! text transforms apply, and keys serde would ignore are dropped.
//!
//! The walk follows the IR, not the input: it descends only where the contract has structure,
//! so no input makes it recurse deeper than the contract's own nesting. What the contract
//! leaves free (`serde_json::Value`, opaque fields) is measured without recursion and refused
//! beyond serde_json's own limit of 128 levels; what is refused or ignored is dropped without
//! recursion ([`drop_flat`]); so a value of any depth, built in code, cannot exhaust the stack.
//!
//! Most calls are valid as sent: `valid` answers, cheaply, whether a call passes exactly as
//! it is, and only a call it is not sure of is walked here (both walks apply the same rules).
//!
//! This file walks containers (objects, arrays, maps); `operations` finds a union's operation
//! by its tagging and checks it; `entries` reads a map a strict client sends as entries;
//! `names` finds what a key or a tag names; `spelling` the canonical form of a text serde
//! reads in another; `scalars` checks
//! the values of each kind, `keywords` the keyword table's rules, `free` what the contract
//! leaves free; `path` says where an issue is, `words` how a value is described.

pub(crate) mod entries;
pub(crate) mod free;
mod integers;
mod keywords;
mod names;
mod operations;
mod path;
mod scalars;
mod spelling;
mod valid;
mod words;

use serde_json::{Map, Value};
use stitch_rules::{Dialect, DialectRules, FreeValues, IssueCode, Maps, Omitted};

use crate::call::rejection::{Issue, Rejection};
use crate::ir::{Field, Hazard, Kind, Node, Object, StringRules, kinds};
pub use free::drop_flat;
use free::{MAX_FREE_DEPTH, depth_exceeds, free_value_in_text, structure_in_text};
use keywords::Subject;
use path::Path;
pub use valid::passes;

/// Checks `value` against `node`, adjusting it for serde, as a client shown `dialect` sends
/// it; returns the issues found, up to [`Rejection::MAX_ISSUES`], and whether there were
/// more (the walk stops at the first issue past the cap).
pub fn check(
    node: &'static Node<'static>,
    value: &mut Value,
    dialect: Dialect,
) -> (Vec<Issue>, bool) {
    let rules = dialect.rules();
    let mut checker = Checker {
        issues: Vec::new(),
        found: 0,
        stopped: false,
        listed: Vec::new(),
        null_is_absence: matches!(rules.omitted, Omitted::SentAsNull),
        rules,
    };
    checker.value(node, value, &Path::ROOT);
    (checker.issues, checker.stopped)
}

struct Checker {
    /// The issues kept, at most [`Rejection::MAX_ISSUES`].
    issues: Vec<Issue>,
    /// Every issue found, kept or not: what a check compares to see if it found one.
    found: usize,
    /// Whether an issue past the cap was found: the walk goes no further.
    stopped: bool,
    /// The unions whose operations an issue has listed, and where: a later issue points
    /// there instead of listing them again.
    listed: Vec<(&'static crate::ir::Union<'static>, String)>,
    /// Whether a `null` for a key the object does not require means the key is absent: a
    /// strict-mode client sends every key of the flat object, `null` for those it means to
    /// leave out.
    null_is_absence: bool,
    /// The rules of the dialect the call was shown: whether every object is closed (so no
    /// alias is a key it takes), a map is sent as an array of `{"key", "value"}` entries (see
    /// `entries`), a free value's object or array as its JSON text.
    rules: &'static DialectRules,
}

impl Checker {
    fn issue(&mut self, at: &Path<'_>, code: IssueCode, message: String) {
        self.found += 1;
        if self.issues.len() < Rejection::MAX_ISSUES {
            self.issues.push(Issue {
                pointer: at.pointer(),
                code,
                message,
            });
        } else {
            self.stopped = true;
        }
    }

    /// Checks one value; a `catch` node replaces it when anything inside was invalid.
    #[inline]
    fn value(&mut self, node: &'static Node<'static>, value: &mut Value, at: &Path<'_>) {
        if let Hazard::Catch(fallback) = node.hazard {
            self.caught(node, fallback, value, at);
        } else {
            self.check(node, value, at);
        }
    }

    /// A `catch` node: what was found inside is replaced, the cap's stop included.
    #[cold]
    fn caught(
        &mut self,
        node: &'static Node<'static>,
        fallback: crate::ir::Fallback,
        value: &mut Value,
        at: &Path<'_>,
    ) {
        let (found, kept) = (self.found, self.issues.len());
        self.check(node, value, at);
        if self.found > found {
            self.issues.truncate(kept);
            self.found = found;
            self.stopped = false;
            drop_flat(std::mem::replace(value, (fallback.0)()));
        }
    }

    fn check(&mut self, node: &'static Node<'static>, value: &mut Value, at: &Path<'_>) {
        if self.stopped {
            return;
        }
        match value {
            Value::Null => {
                if !null_passes(node) {
                    self.wrong_type(node, value, at);
                }
                return;
            }
            Value::String(text) => {
                if let Some(parsed) = structure_in_text(node, text) {
                    *value = parsed;
                } else if matches!(self.rules.free, FreeValues::JsonText)
                    && matches!(node.kind, Kind::Any)
                    && let Some(parsed) = free_value_in_text(text)
                {
                    *value = parsed;
                }
            }
            _ => {}
        }
        match node.kind {
            Kind::Boolean => self.boolean(node, value, at),
            Kind::Integer(rules) => self.integer(node, &rules, value, at),
            Kind::Number(rules) => self.number(node, &rules, value, at),
            Kind::String(_) => self.string(node, value, at),
            Kind::StringEnum(values, aliases, _) => {
                self.string_enum(node, values, aliases, value, at)
            }
            Kind::Array(item, _) => match value {
                Value::Array(items) => self.array(node, item, items, at),
                _ => self.wrong_type(node, value, at),
            },
            Kind::Tuple(elements) => match value {
                Value::Array(items) => self.tuple(elements, items, at),
                _ => self.wrong_type(node, value, at),
            },
            Kind::Map(entry, _) => match value {
                Value::Object(map) => self.map(node, entry, map, at),
                Value::Array(_) if matches!(self.rules.maps, Maps::Entries) => {
                    self.entries(node, entry, value, at)
                }
                _ => self.wrong_type(node, value, at),
            },
            Kind::Object(object) => match value {
                Value::Object(map) => self.object(object, map, None, at),
                _ => self.wrong_type(node, value, at),
            },
            Kind::Union(union) => match value {
                Value::Object(map) => self.union(union, map, at),
                // serde reads an externally tagged unit operation from its name too.
                Value::String(name) if operations::names_unit_operation(union, name) => {}
                _ => self.wrong_type(node, value, at),
            },
            Kind::AnyOf(branches) => self.any_of(branches, value, at),
            // Only a foreign schema holds a verbatim part, and stitch parses no call for one.
            Kind::Any | Kind::Opaque | Kind::Kinds(_) | Kind::Verbatim(_) => {
                // Not walked, but serde will be: refuse nesting deeper than serde_json's own
                // parser allows, so no input can exhaust the stack.
                if depth_exceeds(value, MAX_FREE_DEPTH) {
                    let message = format!("nested deeper than {MAX_FREE_DEPTH} levels");
                    self.issue(at, IssueCode::TooDeep, message);
                }
            }
        }
    }

    /// A value several schemas describe (a decimal's string and number forms): it passes
    /// when one branch takes it, as that branch adjusts it; otherwise the one branch of the
    /// value's kind says what is wrong, or, when none is (or several are), one issue says what
    /// each branch expects.
    fn any_of(&mut self, branches: &[&'static Node<'static>], value: &mut Value, at: &Path<'_>) {
        let (found, kept, stopped) = (self.found, self.issues.len(), self.stopped);
        for branch in branches {
            let mut tried = value.clone();
            self.value(branch, &mut tried, at);
            let taken = self.found == found;
            self.issues.truncate(kept);
            (self.found, self.stopped) = (found, stopped);
            if taken {
                *value = tried;
                return;
            }
        }
        // The one branch of the value's own kind says what is wrong with it, at its place.
        let own = match value {
            Value::String(_) => kinds::STRING,
            Value::Number(_) => kinds::NUMBER | kinds::INTEGER,
            Value::Bool(_) => kinds::BOOLEAN,
            Value::Object(_) => kinds::OBJECT,
            Value::Array(_) => kinds::ARRAY,
            Value::Null => kinds::NULL,
        };
        let mut of_its_kind = branches
            .iter()
            .filter(|branch| branch.kind.json_kinds() & own != 0);
        let (first, second) = (of_its_kind.next(), of_its_kind.next());
        if let (Some(branch), None) = (first, second) {
            self.value(branch, value, at);
            return;
        }
        let expected: Vec<String> = branches
            .iter()
            .map(|branch| match branch.kind {
                Kind::String(StringRules {
                    pattern: Some(pattern),
                    ..
                }) => format!("a string matching {pattern}"),
                Kind::Integer(rules) | Kind::Number(rules) => {
                    let range = match (rules.minimum, rules.maximum) {
                        (Some(min), Some(max)) => format!(" from {} to {}", min.text, max.text),
                        (Some(min), None) => format!(" ≥ {}", min.text),
                        (None, Some(max)) => format!(" ≤ {}", max.text),
                        (None, None) => String::new(),
                    };
                    format!("{}{range}", words::expected(branch))
                }
                _ => words::expected(branch),
            })
            .collect();
        let message = format!(
            "expected {}, got {}",
            expected.join(" or "),
            words::describe(value)
        );
        // Of a kind some branch takes, the value is wrong, not its kind.
        let code = if first.is_some() {
            IssueCode::InvalidValue
        } else {
            IssueCode::InvalidType
        };
        self.issue(at, code, message);
    }

    /// An array's keywords, then each item.
    fn array(
        &mut self,
        node: &'static Node<'static>,
        item: &'static Node<'static>,
        items: &mut [Value],
        at: &Path<'_>,
    ) {
        self.keywords(&node.kind, Subject::Items(items), at);
        for (index, element) in items.iter_mut().enumerate() {
            if self.stopped {
                break;
            }
            self.value(item, element, &at.index(index));
        }
    }

    /// A tuple's length, then each position.
    fn tuple(&mut self, elements: &[&'static Node<'static>], items: &mut [Value], at: &Path<'_>) {
        if items.len() != elements.len() {
            let code = if items.len() < elements.len() {
                IssueCode::MinItems
            } else {
                IssueCode::MaxItems
            };
            let message = format!(
                "expected exactly {} items, one per position, got {}",
                elements.len(),
                items.len()
            );
            self.issue(at, code, message);
        }
        for (index, (element, item)) in elements.iter().zip(items).enumerate() {
            self.value(element, item, &at.index(index));
        }
    }

    /// A map's keywords, then each value.
    fn map(
        &mut self,
        node: &'static Node<'static>,
        entry: &'static Node<'static>,
        map: &mut serde_json::Map<String, Value>,
        at: &Path<'_>,
    ) {
        self.keywords(&node.kind, Subject::Entries(map.len()), at);
        for (key, element) in map.iter_mut() {
            if self.stopped {
                break;
            }
            self.value(entry, element, &at.key(key));
        }
    }

    /// Checks an object's entries in one pass (document order), then reports what is
    /// missing. One pass over the entries with short comparisons beats a hashed lookup per
    /// declared field, most of which an operation's object does not even hold. Keys serde
    /// ignores are dropped: serde would buffer them whole (an internally tagged enum does),
    /// at any depth.
    pub(super) fn object(
        &mut self,
        object: &'static Object<'static>,
        map: &mut Map<String, Value>,
        tag: Option<&str>,
        at: &Path<'_>,
    ) {
        let fields = object.fields;
        if self.null_is_absence {
            drop_absent_nulls(object, map, tag);
        }
        let mut seen = Seen::new(fields.len());
        let mut others = false;
        // The tag is skipped once; no other key can equal it.
        let mut tag_ahead = tag;
        for (key, value) in map.iter_mut() {
            if self.stopped {
                return;
            }
            if let Some(name) = tag_ahead
                && names::same(name, key)
            {
                tag_ahead = None;
                continue;
            }
            let index = match names::field_named(fields, key) {
                Some(index) => index,
                None => match self.aliased(object, key, at) {
                    Alias::Taken(index) => index,
                    Alias::Refused(index) => {
                        seen.insert(index);
                        continue;
                    }
                    Alias::NotOne => {
                        others = true;
                        continue;
                    }
                },
            };
            if seen.contains(index) {
                self.given_twice(&fields[index], &at.key(key));
                continue;
            }
            seen.insert(index);
            self.value(fields[index].node, value, &at.key(key));
        }
        if others {
            self.other_keys(object, map, tag, at);
        }
        if !seen.all(fields.len()) {
            self.absent_fields(fields, &seen, map, at);
        }
    }

    /// A key that names no field: an alias is taken where the exact schema takes the key
    /// too (an optional field of an object open to other keys, in a dialect that leaves it
    /// open), and refused elsewhere with the name to send; any other key is one of the others.
    #[cold]
    fn aliased(&mut self, object: &'static Object<'static>, key: &str, at: &Path<'_>) -> Alias {
        let Some(index) = names::field_aliased(object.fields, key) else {
            return Alias::NotOne;
        };
        let field = &object.fields[index];
        let open = !object.deny_unknown && object.rest.is_none() && !self.rules.objects_closed;
        if open && !field.required {
            return Alias::Taken(index);
        }
        let message = format!(
            "\"{key}\" is an alias serde reads but the schema does not state; send it as \"{}\"",
            field.name
        );
        self.issue(&at.key(key), IssueCode::UnknownKey, message);
        Alias::Refused(index)
    }

    #[cold]
    fn given_twice(&mut self, field: &Field<'static>, at: &Path<'_>) {
        let message = format!(
            "\"{}\" is given twice, under its name and an alias; send it once",
            field.name
        );
        self.issue(at, IssueCode::DuplicateKey, message);
    }

    /// The keys that name no field: a flattened map's entries, refused under
    /// `deny_unknown_fields`, or dropped.
    #[cold]
    fn other_keys(
        &mut self,
        object: &'static Object<'static>,
        map: &mut Map<String, Value>,
        tag: Option<&str>,
        at: &Path<'_>,
    ) {
        let unknown: Vec<String> = map
            .keys()
            .filter(|key| {
                tag.is_none_or(|tag| !names::same(tag, key))
                    && names::field_named(object.fields, key).is_none()
                    && names::field_aliased(object.fields, key).is_none()
            })
            .cloned()
            .collect();
        if let Some(rest) = object.rest {
            // A flattened map takes every other key.
            for key in &unknown {
                if self.stopped {
                    return;
                }
                if let Some(value) = map.get_mut(key) {
                    self.value(rest, value, &at.key(key));
                }
            }
        } else if object.deny_unknown {
            self.unknown_keys(object, &unknown, tag, at);
        } else {
            for key in &unknown {
                if let Some(ignored) = map.remove(key) {
                    drop_flat(ignored);
                }
            }
        }
    }

    /// The fields whose keys were not sent: a `catch` field takes its fallback, a required
    /// one is reported missing.
    fn absent_fields(
        &mut self,
        fields: &'static [Field<'static>],
        seen: &Seen,
        map: &mut Map<String, Value>,
        at: &Path<'_>,
    ) {
        for (index, field) in fields.iter().enumerate() {
            if seen.contains(index) {
                continue;
            }
            if let Hazard::Catch(fallback) = field.node.hazard {
                map.insert(field.name.to_owned(), (fallback.0)());
            } else if field.required {
                let message = format!("missing required \"{}\"", field.name);
                self.issue(&at.key(field.name), IssueCode::MissingRequired, message);
            }
        }
    }

    fn unknown_keys(
        &mut self,
        object: &Object<'static>,
        unknown: &[String],
        tag: Option<&str>,
        at: &Path<'_>,
    ) {
        if unknown.is_empty() {
            return;
        }
        let accepted: Vec<&str> = tag
            .into_iter()
            .chain(object.fields.iter().map(|field| field.name))
            .collect();
        let accepted = if accepted.is_empty() {
            "none".to_owned()
        } else {
            accepted.join(", ")
        };
        // The accepted keys are listed once per object, not once per unknown key.
        let first = at.key(&unknown[0]).pointer();
        for (i, key) in unknown.iter().enumerate() {
            if self.stopped {
                return;
            }
            let message = if i == 0 {
                format!("unknown key \"{key}\"; accepted: {accepted}")
            } else {
                format!("unknown key \"{key}\"; accepted: as listed at {first}")
            };
            self.issue(&at.key(key), IssueCode::UnknownKey, message);
        }
    }
}

/// What a key that names no field is.
enum Alias {
    /// An alias the schema takes: the field at this index.
    Taken(usize),
    /// An alias the schema does not take, reported: the field at this index.
    Refused(usize),
    /// No alias: another key.
    NotOne,
}

/// Whether `null` is a value of `node`: an `Option`'s, or what the contract leaves free.
#[inline(always)]
fn null_passes(node: &Node<'static>) -> bool {
    node.nullable || matches!(node.kind, Kind::Any | Kind::Opaque)
}

/// A strict-mode client's `null` for a key the object does not require: the key's absence.
fn drop_absent_nulls(object: &Object<'static>, map: &mut Map<String, Value>, tag: Option<&str>) {
    map.retain(|key, value| {
        !value.is_null() || Some(key.as_str()) == tag || null_kept(object, key)
    });
}

/// Whether a `null` for the key is not its absence: the object requires the key (under its
/// name or an alias), or defaults it to something `null` does not mean.
fn null_kept(object: &Object<'static>, key: &str) -> bool {
    object.fields.iter().any(|field| {
        (field.name == key || field.aliases.contains(&key))
            && (field.required || field.requirement().null_matters)
    })
}

/// A key's value: a scan for the small objects operations are (cheaper than hashing the
/// key), a hashed lookup for larger ones.
#[inline(always)]
pub(super) fn entry<'m>(map: &'m Map<String, Value>, key: &str) -> Option<&'m Value> {
    if map.len() <= 8 {
        for (k, v) in map {
            if names::same(k, key) {
                return Some(v);
            }
        }
        None
    } else {
        map.get(key)
    }
}

/// Which fields of an object were present: a bit set, inline up to 64 fields.
enum Seen {
    Inline(u64),
    Heap(Vec<bool>),
}

impl Seen {
    fn new(fields: usize) -> Seen {
        if fields <= 64 {
            Seen::Inline(0)
        } else {
            Seen::Heap(vec![false; fields])
        }
    }

    fn insert(&mut self, index: usize) {
        match self {
            Seen::Inline(bits) => *bits |= 1 << index,
            Seen::Heap(flags) => flags[index] = true,
        }
    }

    /// Whether all of the first `count` fields were present.
    fn all(&self, count: usize) -> bool {
        match self {
            Seen::Inline(bits) => bits.count_ones() as usize == count,
            Seen::Heap(flags) => flags.iter().all(|flag| *flag),
        }
    }

    fn contains(&self, index: usize) -> bool {
        match self {
            Seen::Inline(bits) => bits & (1 << index) != 0,
            Seen::Heap(flags) => flags[index],
        }
    }
}
