//! Parsing one call (SPEC §6): the arguments are checked against the *exact* contract, the
//! same IR the schemas are rendered from, collecting every issue with its JSON Pointer; then
//! `catch`, `coerce` and the `trim`/case transforms adjust the JSON; then serde deserializes it
//! and the hidden `refine` checks run on the typed value.
//!
//! The walk follows the IR, not the input: it only descends where the contract has structure,
//! so no input can make it recurse deeper than the contract's own nesting, and values the
//! contract leaves free (`serde_json::Value`, opaque fields) are never walked.

use serde_json::{Map, Number, Value};
use std::collections::{HashMap, HashSet};

use crate::Contract;
use crate::format;
use crate::node::{Bound, Hazard, Kind, Node, NumberRules, Object, StringRules, checks};
use crate::pattern;
use crate::rejection::{Issue, Rejection};

/// A JSON Pointer (RFC 6901) that grows and shrinks as a walk goes in and out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JsonPointer(String);

impl JsonPointer {
    /// The pointer to the whole document (`""`).
    pub fn root() -> JsonPointer {
        JsonPointer(String::new())
    }

    /// Goes into a key; returns the length to [`truncate`](Self::truncate) back to.
    pub fn push_key(&mut self, key: &str) -> usize {
        let mark = self.0.len();
        self.0.push('/');
        if !key.contains(['~', '/']) {
            self.0.push_str(key);
            return mark;
        }
        for ch in key.chars() {
            match ch {
                '~' => self.0.push_str("~0"),
                '/' => self.0.push_str("~1"),
                _ => self.0.push(ch),
            }
        }
        mark
    }

    /// Goes into an array index; returns the length to truncate back to.
    pub fn push_index(&mut self, index: usize) -> usize {
        let mark = self.0.len();
        self.0.push('/');
        // Digits written in place: no string allocated, no formatting machinery.
        let mut digits = [0u8; 20];
        let mut at = digits.len();
        let mut rest = index;
        loop {
            at -= 1;
            digits[at] = b'0' + (rest % 10) as u8;
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
        self.0
            .extend(digits[at..].iter().map(|&digit| char::from(digit)));
        mark
    }

    /// Comes back out to a length returned by a push.
    pub fn truncate(&mut self, mark: usize) {
        self.0.truncate(mark);
    }

    /// The pointer text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Parses one call's arguments into `T`: validation against the exact contract, the JSON
/// adjustments, serde, then `refine` checks. Never panics.
pub fn parse<T: Contract>(mut args: Value) -> Result<T, Rejection> {
    let mut checker = Checker { issues: Vec::new() };
    checker.value(T::SHAPE, &mut args, &Path::ROOT);
    if !checker.issues.is_empty() {
        if checker.issues.iter().any(|issue| issue.code == "too_deep") {
            drop_flat(args);
        }
        return Err(Rejection {
            issues: checker.issues,
        });
    }
    let value: T = if T::SERDE_MAY_REJECT {
        deserialize_tracked(args)?
    } else {
        serde_json::from_value(args).map_err(|error| Rejection {
            issues: vec![Issue {
                pointer: String::new(),
                code: "invalid_value",
                message: error.to_string(),
            }],
        })?
    };
    let mut issues = Vec::new();
    if T::REFINES {
        value.refine(&mut JsonPointer::root(), &mut issues);
    }
    if issues.is_empty() {
        Ok(value)
    } else {
        Err(Rejection { issues })
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
        Rejection {
            issues: vec![Issue {
                pointer: pointer.0,
                code: "invalid_value",
                message: error.into_inner().to_string(),
            }],
        }
    })
}

/// Whether serde can reject a value this contract's validation accepted: only through a
/// conversion the schema cannot show (`via`) or a value it cannot describe (`opaque`).
/// (Integers beyond the 64-bit types' ranges, which no schema states, are the one other case;
/// serde's own message then reports them.)
pub const fn serde_may_reject(node: &Node) -> bool {
    if node.checks & (checks::VIA | checks::OPAQUE) != 0 {
        return true;
    }
    match node.kind {
        Kind::Array(item, _) | Kind::Map(item) => serde_may_reject(item),
        Kind::Object(object) => fields_may_reject(object.fields),
        Kind::Union(union) => {
            let mut v = 0;
            let variant_count = union.variants.len();
            while v < variant_count {
                if fields_may_reject(union.variants[v].object.fields) {
                    return true;
                }
                v += 1;
            }
            false
        }
        _ => false,
    }
}

const fn fields_may_reject(fields: &[crate::node::Field]) -> bool {
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
        code: "refine",
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

/// Where the walk is: a chain of segments on the stack, turned into a JSON Pointer only
/// when an issue needs one (the happy path builds no text at all).
#[derive(Clone, Copy)]
struct Path<'a> {
    parent: Option<&'a Path<'a>>,
    segment: Segment<'a>,
}

#[derive(Clone, Copy)]
enum Segment<'a> {
    Root,
    Key(&'a str),
    Index(usize),
}

impl<'a> Path<'a> {
    const ROOT: Path<'static> = Path {
        parent: None,
        segment: Segment::Root,
    };

    fn key(&'a self, key: &'a str) -> Path<'a> {
        Path {
            parent: Some(self),
            segment: Segment::Key(key),
        }
    }

    fn index(&'a self, index: usize) -> Path<'a> {
        Path {
            parent: Some(self),
            segment: Segment::Index(index),
        }
    }

    fn pointer(&self) -> String {
        let mut segments = Vec::new();
        let mut at = Some(self);
        while let Some(path) = at {
            segments.push(path.segment);
            at = path.parent;
        }
        let mut pointer = JsonPointer::root();
        for segment in segments.into_iter().rev() {
            match segment {
                Segment::Root => {}
                Segment::Key(key) => {
                    pointer.push_key(key);
                }
                Segment::Index(index) => {
                    pointer.push_index(index);
                }
            }
        }
        pointer.0
    }
}

struct Checker {
    issues: Vec<Issue>,
}

impl Checker {
    fn issue(&mut self, at: &Path<'_>, code: &'static str, message: String) {
        self.issues.push(Issue {
            pointer: at.pointer(),
            code,
            message,
        });
    }

    /// Checks one value; a `catch` node replaces it when anything inside was invalid.
    fn value(&mut self, node: &'static Node, value: &mut Value, at: &Path<'_>) {
        let before = self.issues.len();
        self.check(node, value, at);
        if let Hazard::Catch(fallback) = node.hazard
            && self.issues.len() > before
        {
            self.issues.truncate(before);
            *value = (fallback.0)();
        }
    }

    fn check(&mut self, node: &'static Node, value: &mut Value, at: &Path<'_>) {
        if value.is_null() {
            if !(node.nullable || matches!(node.kind, Kind::Any | Kind::Opaque)) {
                self.wrong_type(node, value, at);
            }
            return;
        }
        if let Value::String(text) = value
            && let Some(parsed) = structure_in_text(node, text)
        {
            *value = parsed;
        }
        let coerce = matches!(node.hazard, Hazard::Coerce);
        match node.kind {
            Kind::Boolean => {
                if coerce && let Some(flag) = value.as_str().and_then(|s| s.trim().parse().ok()) {
                    *value = Value::Bool(flag);
                }
                if !value.is_boolean() {
                    self.wrong_type(node, value, at);
                }
            }
            Kind::Integer(rules) => {
                if !(value.is_i64() || value.is_u64()) {
                    integer_from(value, coerce);
                }
                match value {
                    Value::Number(n) if n.is_i64() || n.is_u64() => {
                        self.number_rules(&rules, n, at)
                    }
                    _ => self.wrong_type(node, value, at),
                }
            }
            Kind::Number(rules) => {
                if coerce
                    && let Some(number) = value
                        .as_str()
                        .and_then(|s| s.trim().parse::<f64>().ok())
                        .and_then(Number::from_f64)
                {
                    *value = Value::Number(number);
                }
                match value {
                    Value::Number(n) => self.number_rules(&rules, n, at),
                    _ => self.wrong_type(node, value, at),
                }
            }
            Kind::String(rules) => match value {
                Value::String(text) => {
                    let before = self.issues.len();
                    self.string_rules(&rules, text, at);
                    if self.issues.len() == before {
                        transform(node.checks, text);
                    }
                }
                _ => self.wrong_type(node, value, at),
            },
            Kind::StringEnum(values) => match value {
                Value::String(text) if values.contains(&text.as_str()) => {
                    transform(node.checks, text);
                }
                Value::String(text) => {
                    let message = format!(
                        "must be one of {}, got {}",
                        quoted_list(values),
                        describe(&Value::String(text.clone()))
                    );
                    self.issue(at, "enum", message);
                }
                _ => self.wrong_type(node, value, at),
            },
            Kind::Array(item, rules) => match value {
                Value::Array(items) => {
                    self.count(
                        at,
                        "min_items",
                        rules.min_items.map(Limit::Min),
                        items.len(),
                        |n| format!("must have at least {n} item{}", plural(n)),
                    );
                    self.count(
                        at,
                        "max_items",
                        rules.max_items.map(Limit::Max),
                        items.len(),
                        |n| format!("must have at most {n} item{}", plural(n)),
                    );
                    if rules.unique_items {
                        self.unique(items, at);
                    }
                    for (index, element) in items.iter_mut().enumerate() {
                        self.value(item, element, &at.index(index));
                    }
                }
                _ => self.wrong_type(node, value, at),
            },
            Kind::Map(entry) => match value {
                Value::Object(map) => {
                    for (key, element) in map.iter_mut() {
                        self.value(entry, element, &at.key(key));
                    }
                }
                _ => self.wrong_type(node, value, at),
            },
            Kind::Object(object) => match value {
                Value::Object(map) => self.object(object, map, None, at),
                _ => self.wrong_type(node, value, at),
            },
            Kind::Union(union) => match value {
                Value::Object(map) => {
                    let tag = entry(map, union.tag).and_then(Value::as_str);
                    let chosen = tag.and_then(|tag| {
                        union
                            .variants
                            .iter()
                            .find(|variant| variant.name == tag || variant.aliases.contains(&tag))
                    });
                    match chosen {
                        Some(variant) => self.object(variant.object, map, Some(union.tag), at),
                        None => {
                            let names: Vec<&str> = union.variants.iter().map(|v| v.name).collect();
                            let message = match entry(map, union.tag) {
                                None => format!(
                                    "missing \"{}\", the operation; valid: {}",
                                    union.tag,
                                    names.join(", ")
                                ),
                                Some(Value::String(tag)) => format!(
                                    "unknown operation \"{tag}\"; valid: {}",
                                    names.join(", ")
                                ),
                                Some(other) => format!(
                                    "expected the operation's name as a string, got {}; valid: {}",
                                    describe(other),
                                    names.join(", ")
                                ),
                            };
                            let code = if map.contains_key(union.tag) {
                                "unknown_operation"
                            } else {
                                "missing_operation"
                            };
                            self.issue(&at.key(union.tag), code, message);
                        }
                    }
                }
                _ => self.wrong_type(node, value, at),
            },
            Kind::Any | Kind::Opaque => {
                // Not walked, but serde will be: refuse nesting deeper than serde_json's own
                // parser allows, so no input can exhaust the stack.
                if depth_exceeds(value, MAX_FREE_DEPTH) {
                    let message = format!("nested deeper than {MAX_FREE_DEPTH} levels");
                    self.issue(at, "too_deep", message);
                }
            }
        }
    }

    /// Checks an object's entries in one pass (document order), then reports what is
    /// missing. One pass over the entries with short comparisons beats a hashed lookup per
    /// declared field, most of which an operation's object does not even hold.
    fn object(
        &mut self,
        object: &'static Object,
        map: &mut Map<String, Value>,
        tag: Option<&str>,
        at: &Path<'_>,
    ) {
        let fields = object.fields;
        let mut seen = Seen::new(fields.len());
        let mut unknown: Vec<&str> = Vec::new();
        for (key, value) in map.iter_mut() {
            if Some(key.as_str()) == tag {
                continue;
            }
            let position = fields.iter().position(|field| {
                field.name == key.as_str() || field.aliases.contains(&key.as_str())
            });
            match position {
                Some(index) => {
                    seen.insert(index);
                    self.value(fields[index].node, value, &at.key(key));
                }
                None if object.deny_unknown => unknown.push(key),
                None => {}
            }
        }
        if !unknown.is_empty() {
            let accepted: Vec<&str> = tag
                .into_iter()
                .chain(fields.iter().map(|field| field.name))
                .collect();
            let accepted = if accepted.is_empty() {
                "none".to_owned()
            } else {
                accepted.join(", ")
            };
            for key in unknown {
                let message = format!("unknown key \"{key}\"; accepted: {accepted}");
                self.issue(&at.key(key), "unknown_key", message);
            }
        }
        for (index, field) in fields.iter().enumerate() {
            if seen.contains(index) {
                continue;
            }
            if let Hazard::Catch(fallback) = field.node.hazard {
                map.insert(field.name.to_owned(), (fallback.0)());
            } else if field.required {
                let message = format!("missing required \"{}\"", field.name);
                self.issue(&at.key(field.name), "missing_required", message);
            }
        }
    }

    fn wrong_type(&mut self, node: &Node, value: &Value, at: &Path<'_>) {
        let expected = expected(node);
        let hint = match (&node.kind, value) {
            (Kind::Integer(_) | Kind::Number(_), Value::String(text))
                if text.trim().parse::<f64>().is_ok() =>
            {
                " — send the number without quotes"
            }
            (Kind::Boolean, Value::String(text)) if matches!(text.trim(), "true" | "false") => {
                " — send true or false without quotes"
            }
            (Kind::Integer(_), Value::Number(_)) => " — send a whole number",
            (Kind::Object(_) | Kind::Map(_) | Kind::Union(_), Value::String(_)) => {
                " — send the object itself, not text"
            }
            (Kind::Array(..), Value::String(_)) => " — send the array itself, not text",
            _ => "",
        };
        let message = format!("expected {expected}, got {}{hint}", describe(value));
        self.issue(at, "invalid_type", message);
    }

    fn number_rules(&mut self, rules: &NumberRules, number: &Number, at: &Path<'_>) {
        let value = number.as_f64().unwrap_or(f64::NAN);
        let bounds = [
            (rules.minimum, "minimum", Relation::AtLeast),
            (rules.maximum, "maximum", Relation::AtMost),
            (
                rules.exclusive_minimum,
                "exclusive_minimum",
                Relation::Above,
            ),
            (
                rules.exclusive_maximum,
                "exclusive_maximum",
                Relation::Below,
            ),
        ];
        for (bound, code, relation) in bounds {
            if let Some(bound) = bound
                && !relation.holds(value, bound.value)
            {
                let message = format!("must be {} {}, got {number}", relation.symbol(), bound.text);
                self.issue(at, code, message);
            }
        }
        if let Some(step) = rules.multiple_of
            && !is_multiple(number, value, step)
        {
            let message = format!("must be a multiple of {}, got {number}", step.text);
            self.issue(at, "multiple_of", message);
        }
    }

    fn string_rules(&mut self, rules: &StringRules, text: &str, at: &Path<'_>) {
        if rules.min_length.is_some() || rules.max_length.is_some() {
            self.lengths(rules, text.chars().count(), at);
        }
        self.pattern_and_format(rules, text, at);
    }

    fn lengths(&mut self, rules: &StringRules, length: usize, at: &Path<'_>) {
        self.count(
            at,
            "min_length",
            rules.min_length.map(Limit::Min),
            length,
            |n| format!("must be at least {n} character{} long", plural(n)),
        );
        self.count(
            at,
            "max_length",
            rules.max_length.map(Limit::Max),
            length,
            |n| format!("must be at most {n} character{} long", plural(n)),
        );
    }

    fn pattern_and_format(&mut self, rules: &StringRules, text: &str, at: &Path<'_>) {
        if let Some(pattern) = rules.pattern
            && let Some(regex) = pattern::compiled(pattern)
            && !regex.is_match(text)
        {
            let message = format!("must match the pattern {pattern}, got {}", short(text));
            self.issue(at, "pattern", message);
        }
        if let Some(name) = rules.format
            && format::check(name, text) == Some(false)
        {
            let message = format!("must be {}, got {}", format::example(name), short(text));
            self.issue(at, "format", message);
        }
    }

    /// A count against a limit: `Min` fails below it, `Max` above it.
    fn count(
        &mut self,
        at: &Path<'_>,
        code: &'static str,
        limit: Option<Limit>,
        actual: usize,
        says: fn(u64) -> String,
    ) {
        let (bound, broken) = match limit {
            Some(Limit::Min(min)) => (min, (actual as u64) < min),
            Some(Limit::Max(max)) => (max, (actual as u64) > max),
            None => return,
        };
        if broken {
            let message = format!("{}, got {actual}", says(bound));
            self.issue(at, code, message);
        }
    }

    fn unique(&mut self, items: &[Value], at: &Path<'_>) {
        let mut seen: HashMap<String, usize> = HashMap::with_capacity(items.len());
        let mut reported = HashSet::new();
        for (index, item) in items.iter().enumerate() {
            let key = canonical(item);
            if let Some(&first) = seen.get(&key) {
                if reported.insert(first) {
                    let message =
                        format!("items must be unique: item {index} repeats item {first}");
                    self.issue(at, "unique_items", message);
                }
            } else {
                seen.insert(key, index);
            }
        }
    }
}

/// A key's value: a scan for the small objects operations are (cheaper than hashing the
/// key), a hashed lookup for larger ones.
fn entry<'m>(map: &'m Map<String, Value>, key: &str) -> Option<&'m Value> {
    if map.len() <= 8 {
        map.iter().find(|(k, _)| k.as_str() == key).map(|(_, v)| v)
    } else {
        map.get(key)
    }
}

/// How a number must stand to a bound.
#[derive(Clone, Copy)]
enum Relation {
    AtLeast,
    AtMost,
    Above,
    Below,
}

impl Relation {
    fn holds(self, value: f64, bound: f64) -> bool {
        match self {
            Relation::AtLeast => value >= bound,
            Relation::AtMost => value <= bound,
            Relation::Above => value > bound,
            Relation::Below => value < bound,
        }
    }

    fn symbol(self) -> &'static str {
        match self {
            Relation::AtLeast => "≥",
            Relation::AtMost => "≤",
            Relation::Above => ">",
            Relation::Below => "<",
        }
    }
}

/// A lower or upper limit on a count (items, characters).
#[derive(Clone, Copy)]
enum Limit {
    Min(u64),
    Max(u64),
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

    fn contains(&self, index: usize) -> bool {
        match self {
            Seen::Inline(bits) => bits & (1 << index) != 0,
            Seen::Heap(flags) => flags[index],
        }
    }
}

/// The deepest nesting accepted inside values the contract leaves free (serde_json's parser
/// stops at 128 too).
const MAX_FREE_DEPTH: usize = 128;

/// Whether a value nests deeper than `limit`, found without recursion.
fn depth_exceeds(value: &Value, limit: usize) -> bool {
    let mut stack = vec![(value, 0usize)];
    while let Some((value, depth)) = stack.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match value {
            Value::Array(items) => Box::new(items.iter()),
            Value::Object(map) => Box::new(map.values()),
            _ => continue,
        };
        if depth >= limit {
            return true;
        }
        stack.extend(children.map(|child| (child, depth + 1)));
    }
    false
}

/// Drops a value without recursion (serde_json's own drop recurses once per level).
fn drop_flat(value: Value) {
    let mut stack = vec![value];
    while let Some(mut value) = stack.pop() {
        match &mut value {
            Value::Array(items) => stack.append(items),
            Value::Object(map) => {
                stack.extend(std::mem::take(map).into_iter().map(|(_, child)| child));
            }
            _ => {}
        }
    }
}

/// The structure a string holds, when the contract wants an object or array there, does not
/// accept a string, and the text parses to that structure.
fn structure_in_text(node: &Node, text: &str) -> Option<Value> {
    let wants_object = matches!(node.kind, Kind::Object(_) | Kind::Map(_) | Kind::Union(_));
    let wants_array = matches!(node.kind, Kind::Array(..));
    if !(wants_object || wants_array) {
        return None;
    }
    let first = text.trim_start().as_bytes().first()?;
    if !((wants_object && *first == b'{') || (wants_array && *first == b'[')) {
        return None;
    }
    match serde_json::from_str::<Value>(text).ok()? {
        parsed @ Value::Object(_) if wants_object => Some(parsed),
        parsed @ Value::Array(_) if wants_array => Some(parsed),
        _ => None,
    }
}

/// Normalises what may stand for an integer: JSON Schema counts `1.0` as one and serde does
/// not; `coerce` also reads one from a string.
fn integer_from(value: &mut Value, coerce: bool) {
    let number = match value {
        Value::String(text) if coerce => integer_in_text(text),
        Value::Number(number) => number.as_f64().and_then(integral_number),
        _ => None,
    };
    if let Some(number) = number {
        *value = Value::Number(number);
    }
}

fn integer_in_text(text: &str) -> Option<Number> {
    let text = text.trim();
    text.parse::<i64>()
        .map(Number::from)
        .or_else(|_| text.parse::<u64>().map(Number::from))
        .ok()
}

/// An integral float as an integer number (`2.0` → `2`), within the 64-bit ranges.
fn integral_number(float: f64) -> Option<Number> {
    if float.fract() != 0.0 || !float.is_finite() {
        return None;
    }
    if (-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&float) {
        Some(Number::from(float as i64))
    } else if (0.0..1.844_674_407_370_955_2e19).contains(&float) {
        Some(Number::from(float as u64))
    } else {
        None
    }
}

fn is_multiple(number: &Number, value: f64, step: Bound) -> bool {
    if step.integral
        && let (Some(n), true) = (number.as_i64(), step.value.abs() < 9.0e15)
    {
        return n % (step.value as i64) == 0;
    }
    let quotient = value / step.value;
    quotient.is_finite() && (quotient - quotient.round()).abs() < 1e-9
}

/// `trim`, `lowercase`, `uppercase`, applied after validation.
fn transform(flags: u8, text: &mut String) {
    if flags & (checks::TRIM | checks::LOWERCASE | checks::UPPERCASE) == 0 {
        return;
    }
    if flags & checks::TRIM != 0 {
        let trimmed = text.trim();
        if trimmed.len() != text.len() {
            *text = trimmed.to_owned();
        }
    }
    if flags & checks::LOWERCASE != 0 {
        *text = text.to_lowercase();
    }
    if flags & checks::UPPERCASE != 0 {
        *text = text.to_uppercase();
    }
}

/// What a node expects, for messages.
fn expected(node: &Node) -> String {
    let base = match node.kind {
        Kind::Boolean => "boolean".to_owned(),
        Kind::Integer(_) => "integer".to_owned(),
        Kind::Number(_) => "number".to_owned(),
        Kind::String(_) => "string".to_owned(),
        Kind::StringEnum(values) => format!("one of {}", quoted_list(values)),
        Kind::Array(..) => "array".to_owned(),
        Kind::Map(_) | Kind::Object(_) | Kind::Union(_) => "object".to_owned(),
        Kind::Any | Kind::Opaque => "any value".to_owned(),
    };
    if node.nullable {
        format!("{base} or null")
    } else {
        base
    }
}

/// A value as a message shows it: its kind and, for scalars, a short rendering.
fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(flag) => format!("boolean {flag}"),
        Value::Number(number) => format!("number {number}"),
        Value::String(text) => format!("string {}", short(text)),
        Value::Array(_) => "array".to_owned(),
        Value::Object(_) => "object".to_owned(),
    }
}

/// A string quoted, cut to a readable length.
fn short(text: &str) -> String {
    const LIMIT: usize = 40;
    let mut shown: String = text.chars().take(LIMIT).collect();
    if shown.len() < text.len() {
        shown.push('…');
    }
    serde_json::to_string(&shown).unwrap_or_default()
}

fn quoted_list(values: &[&str]) -> String {
    values
        .iter()
        .map(|value| format!("\"{value}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// A value's text with numbers normalized, so `1` and `1.0` count as the same item.
fn canonical(value: &Value) -> String {
    match value {
        Value::Number(number) => match number.as_f64() {
            Some(float) if float.fract() == 0.0 && float.abs() < 9.0e15 => {
                format!("{}", float as i64)
            }
            _ => number.to_string(),
        },
        Value::Array(items) => {
            let inner: Vec<String> = items.iter().map(canonical).collect();
            format!("[{}]", inner.join(","))
        }
        Value::Object(map) => {
            let mut entries: Vec<String> = map
                .iter()
                .map(|(key, value)| format!("{key:?}:{}", canonical(value)))
                .collect();
            entries.sort();
            format!("{{{}}}", entries.join(","))
        }
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::JsonPointer;

    #[test]
    fn pointers_escape_tilde_and_slash() {
        let mut pointer = JsonPointer::root();
        let mark = pointer.push_key("a/b~c");
        pointer.push_index(3);
        assert_eq!(pointer.as_str(), "/a~1b~0c/3");
        pointer.truncate(mark);
        assert_eq!(pointer.as_str(), "");
    }
}
