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

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Number, Value};

use crate::dialect::Dialect;
use crate::format;
use crate::node::{
    Bound, Hazard, Kind, Node, NumberRules, Object, StringRules, Union, checks, kinds,
};
use crate::pattern;
use crate::rejection::{Issue, JsonPointer};

/// Checks `value` against `node`, adjusting it for serde, as a client shown `dialect` sends
/// it; returns every issue found.
pub fn check(node: &'static Node, value: &mut Value, dialect: Dialect) -> Vec<Issue> {
    let mut checker = Checker {
        issues: Vec::new(),
        null_is_absence: matches!(dialect, Dialect::OpenAiStrict),
    };
    checker.value(node, value, &Path::ROOT);
    checker.issues
}

/// Drops a value without recursion (serde_json's own drop recurses once per level).
pub fn drop_flat(value: Value) {
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
        pointer.into_string()
    }
}

/// Whether the object requires the key (under its name or an alias).
fn requires(object: &Object, key: &str) -> bool {
    object
        .fields
        .iter()
        .any(|field| field.required && (field.name == key || field.aliases.contains(&key)))
}

/// The integers a JSON value can carry to serde (`i64` and `u64`).
const JSON_INTEGERS: (i128, i128) = (i64::MIN as i128, u64::MAX as i128);

/// The deepest nesting accepted inside values the contract leaves free (serde_json's parser
/// stops at 128 too).
const MAX_FREE_DEPTH: usize = 128;

struct Checker {
    issues: Vec<Issue>,
    /// Whether a `null` for a key the object does not require means the key is absent: a
    /// strict-mode client sends every key of the flat object, `null` for those it means to
    /// leave out.
    null_is_absence: bool,
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
            drop_flat(std::mem::replace(value, (fallback.0)()));
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
        match node.kind {
            Kind::Boolean => self.boolean(node, value, at),
            Kind::Integer(rules) => self.integer(node, &rules, value, at),
            Kind::Number(rules) => self.number(node, &rules, value, at),
            Kind::String(rules) => self.string(node, &rules, value, at),
            Kind::StringEnum(values, aliases) => self.string_enum(node, values, aliases, value, at),
            Kind::Array(item, rules) => match value {
                Value::Array(items) => self.array(item, &rules, items, at),
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
                Value::Object(map) => self.union(union, map, at),
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

    fn boolean(&mut self, node: &Node, value: &mut Value, at: &Path<'_>) {
        if matches!(node.hazard, Hazard::Coerce)
            && let Some(flag) = value.as_str().and_then(|s| s.trim().parse().ok())
        {
            *value = Value::Bool(flag);
        }
        if !value.is_boolean() {
            self.wrong_type(node, value, at);
        }
    }

    fn integer(&mut self, node: &Node, rules: &NumberRules, value: &mut Value, at: &Path<'_>) {
        if matches!(node.hazard, Hazard::Coerce)
            && let Some(number) = value.as_str().and_then(integer_in_text)
        {
            *value = Value::Number(number);
        }
        let Value::Number(number) = value else {
            return self.wrong_type(node, value, at);
        };
        if !(number.is_i64() || number.is_u64()) {
            // JSON Schema counts `2.0` as an integer, and serde does not: normalise it.
            let float = number.as_f64().unwrap_or(f64::NAN);
            if float.fract() != 0.0 {
                return self.wrong_type(node, value, at);
            }
            match integral_number(float) {
                Some(whole) => *number = whole,
                None => {
                    // Whole, but beyond every 64-bit integer.
                    let (min, max) = rules.rust.integer_range().unwrap_or(JSON_INTEGERS);
                    return self.out_of_range(number, min.to_string(), max.to_string(), at);
                }
            }
        }
        let before = self.issues.len();
        self.number_rules(rules, number, at);
        if self.issues.len() == before
            && let Some((min, max)) = rules.rust.integer_range()
        {
            let held = number
                .as_i64()
                .map(i128::from)
                .or(number.as_u64().map(i128::from));
            if held.is_some_and(|held| held < min || held > max) {
                self.out_of_range(number, min.to_string(), max.to_string(), at);
            }
        }
    }

    fn number(&mut self, node: &Node, rules: &NumberRules, value: &mut Value, at: &Path<'_>) {
        if matches!(node.hazard, Hazard::Coerce)
            && let Some(number) = value
                .as_str()
                .and_then(|s| s.trim().parse::<f64>().ok())
                .and_then(Number::from_f64)
        {
            *value = Value::Number(number);
        }
        let Value::Number(number) = value else {
            return self.wrong_type(node, value, at);
        };
        let before = self.issues.len();
        self.number_rules(rules, number, at);
        if self.issues.len() == before
            && let Some(limit) = rules.rust.float_limit()
            && number.as_f64().is_some_and(|float| float.abs() > limit)
        {
            // The limit as the narrower type writes it (`3.4028235e38`, not its `f64` digits).
            let limit = limit as f32;
            self.out_of_range(number, format!("{:e}", -limit), format!("{limit:e}"), at);
        }
    }

    /// A number beyond what the field's Rust type holds.
    fn out_of_range(&mut self, number: &Number, min: String, max: String, at: &Path<'_>) {
        let message =
            format!("must be from {min} to {max} (what this field can hold), got {number}");
        self.issue(at, "out_of_range", message);
    }

    fn string(&mut self, node: &Node, rules: &StringRules, value: &mut Value, at: &Path<'_>) {
        let Value::String(text) = value else {
            return self.wrong_type(node, value, at);
        };
        let before = self.issues.len();
        if rules.min_length.is_some() || rules.max_length.is_some() {
            let length = text.chars().count();
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
        if self.issues.len() == before {
            transform(node.checks, text);
        }
    }

    fn string_enum(
        &mut self,
        node: &Node,
        values: &[&str],
        aliases: &[&str],
        value: &mut Value,
        at: &Path<'_>,
    ) {
        match value {
            Value::String(text) if values.contains(&text.as_str()) => {
                transform(node.checks, text);
            }
            // serde accepts an alias (not advertised) for the value it names.
            Value::String(text) if aliases.contains(&text.as_str()) => {}
            Value::String(text) => {
                let message = format!(
                    "must be one of {}, got string {}",
                    quoted_list(values),
                    short(text)
                );
                self.issue(at, "enum", message);
            }
            _ => self.wrong_type(node, value, at),
        }
    }

    fn array(
        &mut self,
        item: &'static Node,
        rules: &crate::node::ArrayRules,
        items: &mut [Value],
        at: &Path<'_>,
    ) {
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

    /// The operation the tag names, then its fields.
    fn union(&mut self, union: &'static Union, map: &mut Map<String, Value>, at: &Path<'_>) {
        let tag = entry(map, union.tag);
        let chosen = tag.and_then(Value::as_str).and_then(|tag| {
            union
                .variants
                .iter()
                .find(|variant| variant.name == tag || variant.aliases.contains(&tag))
        });
        if let Some(variant) = chosen {
            return self.object(variant.object, map, Some(union.tag), at);
        }
        let names: Vec<&str> = union.variants.iter().map(|v| v.name).collect();
        let names = names.join(", ");
        let (code, message) = match tag {
            None => (
                "missing_operation",
                format!("missing \"{}\", the operation; valid: {names}", union.tag),
            ),
            Some(Value::String(tag)) => (
                "unknown_operation",
                format!("unknown operation {}; valid: {names}", short(tag)),
            ),
            Some(other) => (
                "unknown_operation",
                format!(
                    "expected the operation's name as a string, got {}; valid: {names}",
                    describe(other)
                ),
            ),
        };
        self.issue(&at.key(union.tag), code, message);
    }

    /// Checks an object's entries in one pass (document order), then reports what is
    /// missing. One pass over the entries with short comparisons beats a hashed lookup per
    /// declared field, most of which an operation's object does not even hold. Keys serde
    /// ignores are dropped: serde would buffer them whole (an internally tagged enum does),
    /// at any depth.
    fn object(
        &mut self,
        object: &'static Object,
        map: &mut Map<String, Value>,
        tag: Option<&str>,
        at: &Path<'_>,
    ) {
        let fields = object.fields;
        if self.null_is_absence {
            map.retain(|key, value| {
                !value.is_null() || Some(key.as_str()) == tag || requires(object, key)
            });
        }
        let mut seen = Seen::new(fields.len());
        let mut unknown: Vec<String> = Vec::new();
        for (key, value) in map.iter_mut() {
            if Some(key.as_str()) == tag {
                continue;
            }
            let position = fields.iter().position(|field| {
                field.name == key.as_str() || field.aliases.contains(&key.as_str())
            });
            let Some(index) = position else {
                unknown.push(key.clone());
                continue;
            };
            if seen.contains(index) {
                let message = format!(
                    "\"{}\" is given twice, under its name and an alias; send it once",
                    fields[index].name
                );
                self.issue(&at.key(key), "duplicate_key", message);
                continue;
            }
            seen.insert(index);
            self.value(fields[index].node, value, &at.key(key));
        }
        if object.deny_unknown {
            self.unknown_keys(fields, &unknown, tag, at);
        } else {
            for key in &unknown {
                if let Some(ignored) = map.remove(key) {
                    drop_flat(ignored);
                }
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

    fn unknown_keys(
        &mut self,
        fields: &[crate::node::Field],
        unknown: &[String],
        tag: Option<&str>,
        at: &Path<'_>,
    ) {
        if unknown.is_empty() {
            return;
        }
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

    fn wrong_type(&mut self, node: &Node, value: &Value, at: &Path<'_>) {
        let expected = expected(node);
        let hint = match (&node.kind, value) {
            (Kind::Integer(_) | Kind::Number(_), Value::String(text)) if is_json_number(text) => {
                " — send the number without quotes"
            }
            (Kind::Integer(_) | Kind::Number(_), Value::String(text)) if names_no_number(text) => {
                " — JSON numbers are finite: NaN and infinity cannot be sent"
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
            && !is_multiple(number, step)
        {
            let message = format!("must be a multiple of {}, got {number}", step.text);
            self.issue(at, "multiple_of", message);
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
            // An item nested beyond any contract is no duplicate of another: it is refused
            // as the wrong type, or as too deep, by its own check.
            let Some(key) = canonical(item, MAX_FREE_DEPTH) else {
                continue;
            };
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

/// An integer written in a string (`coerce`).
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

/// Whether a string holds a JSON number (what "send it without quotes" can fix).
fn is_json_number(text: &str) -> bool {
    serde_json::from_str::<Number>(text.trim()).is_ok()
}

/// Whether a string names a number JSON cannot carry (`NaN`, `inf`, `-Infinity`).
fn names_no_number(text: &str) -> bool {
    text.trim()
        .parse::<f64>()
        .is_ok_and(|float| !float.is_finite())
}

/// Whether `number` is a multiple of `step`, exactly, in the decimal reading both numbers are
/// written in (as the `jsonschema` validator judges it): `0.3` is a multiple of `0.1`, and
/// `0.30000000001` is not.
fn is_multiple(number: &Number, step: Bound) -> bool {
    if step.integral
        && let Some(step) = Some(i128::from(step.value as i64)).filter(|step| *step > 0)
    {
        if let Some(n) = number.as_i64() {
            return i128::from(n) % step == 0;
        }
        if let Some(n) = number.as_u64() {
            return i128::from(n) % step == 0;
        }
    }
    let (Some(value), Some(step)) = (
        number.as_f64().and_then(Decimal::of),
        Decimal::of(step.value),
    ) else {
        return false;
    };
    value.is_multiple_of(step)
}

/// A finite `f64` as the decimal its shortest text writes: `mantissa × 10^exponent`.
#[derive(Clone, Copy, Debug)]
struct Decimal {
    mantissa: u128,
    exponent: i32,
}

impl Decimal {
    fn of(float: f64) -> Option<Decimal> {
        if !float.is_finite() {
            return None;
        }
        // `{:e}` writes the shortest digits that read back as the same float: `3.5e-1`.
        let text = format!("{:e}", float.abs());
        let (digits, exponent) = text.split_once('e')?;
        let exponent: i32 = exponent.parse().ok()?;
        let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
        let mantissa: u128 = format!("{whole}{fraction}").parse().ok()?;
        Some(Decimal {
            mantissa,
            exponent: exponent - i32::try_from(fraction.len()).ok()?,
        })
    }

    /// Whether `self / step` is an integer, computed exactly at any exponent.
    fn is_multiple_of(self, step: Decimal) -> bool {
        if self.mantissa == 0 {
            return true;
        }
        if step.mantissa == 0 {
            return false;
        }
        let shift = self.exponent - step.exponent;
        if shift >= 0 {
            // mantissa × 10^shift ≡ 0 (mod step.mantissa), by modular exponentiation.
            let modulus = step.mantissa;
            let mut remainder = self.mantissa % modulus;
            let mut base = 10 % modulus;
            let mut power = shift.unsigned_abs();
            let mut factor = 1 % modulus;
            while power > 0 {
                if power & 1 == 1 {
                    factor = factor * base % modulus;
                }
                base = base * base % modulus;
                power >>= 1;
            }
            remainder = remainder * factor % modulus;
            remainder == 0
        } else {
            // mantissa ≡ 0 (mod step.mantissa × 10^-shift); past u128, no mantissa of an f64
            // (at most 17 digits) is a multiple.
            10u128
                .checked_pow(shift.unsigned_abs())
                .and_then(|scale| scale.checked_mul(step.mantissa))
                .is_some_and(|divisor| self.mantissa.is_multiple_of(divisor))
        }
    }
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
        Kind::StringEnum(values, _) => format!("one of {}", quoted_list(values)),
        Kind::Any | Kind::Opaque => "any value".to_owned(),
        kind => kinds::name(kind.json_kinds()).to_owned(),
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

/// A value's text with numbers normalized, so `1` and `1.0` count as the same item; `None`
/// past `depth` levels.
fn canonical(value: &Value, depth: usize) -> Option<String> {
    Some(match value {
        Value::Number(number) => match number.as_f64() {
            Some(float) if float.fract() == 0.0 && float.abs() < 9.0e15 => {
                format!("{}", float as i64)
            }
            _ => number.to_string(),
        },
        Value::Array(_) | Value::Object(_) if depth == 0 => return None,
        Value::Array(items) => {
            let inner: Option<Vec<String>> = items
                .iter()
                .map(|item| canonical(item, depth - 1))
                .collect();
            format!("[{}]", inner?.join(","))
        }
        Value::Object(map) => {
            let entries: Option<Vec<String>> = map
                .iter()
                .map(|(key, value)| Some(format!("{key:?}:{}", canonical(value, depth - 1)?)))
                .collect();
            let mut entries = entries?;
            entries.sort();
            format!("{{{}}}", entries.join(","))
        }
        other => other.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::{Decimal, is_json_number, names_no_number};

    #[test]
    fn multiples_are_exact_in_the_written_decimal() {
        let multiple = |value: f64, step: f64| {
            Decimal::of(value)
                .unwrap()
                .is_multiple_of(Decimal::of(step).unwrap())
        };
        assert!(multiple(0.3, 0.1));
        assert!(multiple(1.1, 0.1));
        assert!(!multiple(0.300_000_000_01, 0.1));
        assert!(multiple(1e300, 0.5));
        assert!(!multiple(1e-300, 0.5));
        assert!(multiple(0.0, 0.7));
        assert!(multiple(7.5, 2.5));
        assert!(!multiple(7.5, 2.0));
        assert!(multiple(-4.5, 1.5));
    }

    #[test]
    fn number_texts_are_told_apart() {
        assert!(is_json_number(" 1 ") && is_json_number("-2.5e3"));
        assert!(!is_json_number("NaN") && !is_json_number("inf") && !is_json_number("+1"));
        assert!(names_no_number("NaN") && names_no_number("-Infinity"));
        assert!(!names_no_number("1"));
    }
}
