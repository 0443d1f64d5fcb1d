//! The values of each scalar kind: booleans, integers (in the range of the field's Rust
//! type), numbers, strings and string enums; what `coerce` reads from a string; the text
//! transforms applied after validation; and the issue a value of the wrong type gets, with a
//! hint at what to send instead.

use std::borrow::Cow;

use serde_json::{Number, Value};
use stitch_rules::IssueCode;

use super::Checker;
use super::free::depth_exceeds;
use super::integers::integer_value;
use super::keywords::Subject;
use super::path::Path;
use super::spelling;
use super::words::{describe, expected, quoted_list, short};
use crate::ir::{Hazard, Kind, Node, NumberRules, NumberType, Object, checks};

/// The integers a JSON value can carry to serde (`i64` and `u64`).
const JSON_INTEGERS: (i128, i128) = (i64::MIN as i128, u64::MAX as i128);

impl Checker {
    pub(super) fn boolean(&mut self, node: &Node<'static>, value: &mut Value, at: &Path<'_>) {
        if matches!(node.hazard, Hazard::Coerce)
            && let Some(flag) = value.as_str().and_then(|s| s.trim().parse().ok())
        {
            *value = Value::Bool(flag);
        }
        if !value.is_boolean() {
            self.wrong_type(node, value, at);
        }
    }

    pub(super) fn integer(
        &mut self,
        node: &Node<'static>,
        rules: &NumberRules,
        value: &mut Value,
        at: &Path<'_>,
    ) {
        if matches!(node.hazard, Hazard::Coerce)
            && let Some(number) = value.as_str().and_then(integer_in_text)
        {
            *value = Value::Number(number);
        }
        let Value::Number(number) = value else {
            return self.wrong_type(node, value, at);
        };
        if integer_value(number).is_none() && !is_wide_unsigned(rules, number) {
            // JSON Schema counts `2.0` as an integer, and serde does not: normalise it.
            let float = number.as_f64().unwrap_or(f64::NAN);
            if float.fract() != 0.0 {
                return self.wrong_type(node, value, at);
            }
            match integral_number(float) {
                Some(whole) => *number = whole,
                None => {
                    // Whole, but beyond every integer the field's type reads here.
                    let (min, max) = match held_range(rules.rust) {
                        Some(_) if is_wide(rules.rust) => ("0".to_owned(), u128::MAX.to_string()),
                        Some((min, max)) => (min.to_string(), max.to_string()),
                        None => (JSON_INTEGERS.0.to_string(), JSON_INTEGERS.1.to_string()),
                    };
                    return self.out_of_range(number, min, max, at);
                }
            }
        }
        let before = self.found;
        self.keywords(&node.kind, Subject::Number(number), at);
        if self.found == before
            && !fits_integer(rules, number)
            && let Some((min, max)) = held_range(rules.rust)
        {
            self.out_of_range(number, min.to_string(), max.to_string(), at);
        }
    }

    pub(super) fn number(
        &mut self,
        node: &Node<'static>,
        rules: &NumberRules,
        value: &mut Value,
        at: &Path<'_>,
    ) {
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
        let before = self.found;
        self.keywords(&node.kind, Subject::Number(number), at);
        if self.found == before
            && !fits_float(rules, number)
            && let Some(limit) = rules.rust.float_limit()
        {
            // The limit as the narrower type writes it (`3.4028235e38`, not its `f64` digits).
            let limit = limit as f32;
            self.out_of_range(number, format!("{:e}", -limit), format!("{limit:e}"), at);
        }
    }

    /// A number beyond what the field's Rust type holds.
    fn out_of_range(&mut self, number: &Number, min: String, max: String, at: &Path<'_>) {
        let message = format!("must be from {min} to {max} (what this field takes), got {number}");
        self.issue(at, IssueCode::OutOfRange, message);
    }

    pub(super) fn string(&mut self, node: &Node<'static>, value: &mut Value, at: &Path<'_>) {
        let Value::String(text) = value else {
            return self.wrong_type(node, value, at);
        };
        let before = self.found;
        self.text_keywords(node, text, at);
        if self.found == before {
            transform(node.checks, text);
        }
    }

    pub(super) fn string_enum(
        &mut self,
        node: &Node<'static>,
        values: &[&str],
        aliases: &[(&str, &str)],
        value: &mut Value,
        at: &Path<'_>,
    ) {
        match value {
            Value::String(text) if values.contains(&text.as_str()) => {
                transform(node.checks, text);
            }
            Value::String(text) => {
                // serde reads an alias, but no schema states it: the value it names is sent.
                let instead = aliases
                    .iter()
                    .find(|(alias, _)| *alias == text.as_str())
                    .map(|(_, value)| format!(" — send \"{value}\", the value it stands for"))
                    .or_else(|| spelling::value_it_stands_for(text, node.respell?, values))
                    .unwrap_or_default();
                let message = format!(
                    "must be one of {}, got string {}{instead}",
                    quoted_list(values),
                    short(text)
                );
                self.issue(at, IssueCode::Enum, message);
            }
            _ => self.wrong_type(node, value, at),
        }
    }

    pub(super) fn wrong_type(&mut self, node: &Node<'static>, value: &Value, at: &Path<'_>) {
        let expected = expected(node);
        let hint: Cow<'static, str> = match (&node.kind, value) {
            (Kind::Integer(_) | Kind::Number(_), Value::String(text)) if is_json_number(text) => {
                " — send the number without quotes".into()
            }
            (Kind::Integer(_) | Kind::Number(_), Value::String(text)) if names_no_number(text) => {
                " — JSON numbers are finite: NaN and infinity cannot be sent".into()
            }
            (Kind::Boolean, Value::String(text)) if matches!(text.trim(), "true" | "false") => {
                " — send true or false without quotes".into()
            }
            (Kind::Integer(_), Value::Number(_)) => " — send a whole number".into(),
            (Kind::Object(_) | Kind::Map(..) | Kind::Union(_), Value::String(_)) => {
                " — send the object itself, not text".into()
            }
            // `Bytes` reads a string too, as its UTF-8; the schema states the array.
            (Kind::Array(item, _), Value::String(_)) if matches!(item.kind, Kind::Integer(rules) if matches!(rules.rust, NumberType::U8)) => {
                " — send the bytes as an array of numbers from 0 to 255, not text".into()
            }
            (Kind::Array(..) | Kind::Tuple(_), Value::String(_)) => {
                " — send the array itself, not text".into()
            }
            // serde reads a struct from the array of its fields' values too; the schema
            // states the object.
            (Kind::Object(object), Value::Array(items))
                if !items.is_empty() && items.len() <= object.fields.len() =>
            {
                object_to_send(object, items).into()
            }
            // A value of another kind the node's type reads (time's arrays), answered with
            // the text it writes of it.
            _ => match node.respell.and_then(|respell| (respell.0)(value)) {
                Some(written) => format!(" — send it as {}", short(&written)).into(),
                None => "".into(),
            },
        };
        let message = format!("expected {expected}, got {}{hint}", describe(value));
        self.issue(at, IssueCode::InvalidType, message);
    }
}

/// The object to send for the array of a struct's values (serde reads one; the schema
/// states the object): written out where it is short and shallow, else its keys named
/// (writing a deep one would recurse as deep as it goes).
fn object_to_send(object: &Object<'_>, items: &[Value]) -> String {
    const SHOWN_DEPTH: usize = 8;
    let fields = &object.fields[..items.len()];
    if !items.iter().any(|item| depth_exceeds(item, SHOWN_DEPTH)) {
        let keyed: serde_json::Map<String, Value> = fields
            .iter()
            .zip(items)
            .map(|(field, item)| (field.name.to_owned(), item.clone()))
            .collect();
        let written = Value::Object(keyed).to_string();
        if written.len() <= 120 {
            return format!(" — send it as an object of its keys: {written}");
        }
    }
    let names: Vec<&str> = fields.iter().map(|field| field.name).collect();
    format!(
        " — send it as an object of the keys {}",
        quoted_list(&names)
    )
}

/// Whether an integer is one the field's Rust type holds.
#[inline(always)]
pub(super) fn fits_integer(rules: &NumberRules, number: &Number) -> bool {
    let Some((min, max)) = held_range(rules.rust) else {
        return true;
    };
    integer_value(number).is_none_or(|held| min <= held && held <= max)
}

/// The integers a Rust type holds as this build's serde_json carries them: within 64 bits,
/// or 128 for the 128-bit types when `arbitrary_precision` is on (any crate of the build may
/// turn it on). A `u128` past `i128::MAX` is read too (see `is_wide_unsigned`).
#[inline(always)]
fn held_range(rust: NumberType) -> Option<(i128, i128)> {
    match rust {
        NumberType::U128 if reads_wide_integers() => Some((0, i128::MAX)),
        NumberType::I128 if reads_wide_integers() => Some((i128::MIN, i128::MAX)),
        _ => rust.integer_range(),
    }
}

/// Whether `number` is a `u128` past `i128::MAX`, which a `u128` field reads when serde_json
/// carries integers past 64 bits (the one integer `integer_value` cannot say).
#[cold]
fn is_wide_unsigned(rules: &NumberRules, number: &Number) -> bool {
    is_wide(rules.rust) && number.as_u128().is_some()
}

/// Whether the type is a `u128` this build reads past 64 bits.
fn is_wide(rust: NumberType) -> bool {
    matches!(rust, NumberType::U128) && reads_wide_integers()
}

/// Whether serde_json carries integers past 64 bits (`arbitrary_precision`), asked once.
#[cold]
fn reads_wide_integers() -> bool {
    static WIDE: std::sync::LazyLock<bool> =
        std::sync::LazyLock::new(|| Number::from_u128(u128::from(u64::MAX) + 1).is_some());
    *WIDE
}

/// Whether a number is within what the field's floating-point type holds.
#[inline]
pub(super) fn fits_float(rules: &NumberRules, number: &Number) -> bool {
    rules
        .rust
        .float_limit()
        .is_none_or(|limit| number.as_f64().is_none_or(|float| float.abs() <= limit))
}

/// Whether the text transforms (`trim`, `lowercase`, `uppercase`) apply to a node's strings.
#[inline(always)]
pub(super) fn transforms(flags: u8) -> bool {
    flags & checks::TRANSFORMS != 0
}

/// `trim`, `lowercase`, `uppercase`, applied after validation.
#[inline(always)]
fn transform(flags: u8, text: &mut String) {
    if transforms(flags) {
        transform_text(flags, text);
    }
}

#[cold]
fn transform_text(flags: u8, text: &mut String) {
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

#[cfg(test)]
mod tests {
    use super::{is_json_number, names_no_number};

    #[test]
    fn number_texts_are_told_apart() {
        assert!(is_json_number(" 1 ") && is_json_number("-2.5e3"));
        assert!(!is_json_number("NaN") && !is_json_number("inf") && !is_json_number("+1"));
        assert!(names_no_number("NaN") && names_no_number("-Infinity"));
        assert!(!names_no_number("1"));
    }
}
