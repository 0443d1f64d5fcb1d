//! The keyword table's rules of a value, as `parse` enforces them: each keyword of the value's
//! class that the contract sets, checked as the table says (`stitch_rules::Check`), reported
//! with the table's issue code. Bounds and steps of numbers (a step exactly, in decimal),
//! counts of characters, items and entries, patterns with their ECMA-262 meaning, formats,
//! and items that repeat.

use std::collections::{HashMap, HashSet};

use serde_json::{Number, Value};
use stitch_rules::{Check, Keyword};

use super::Checker;
use super::free::{MAX_FREE_DEPTH, canonical};
use super::integers::integer_value;
use super::path::Path;
use super::spelling;
use super::words::short;
use crate::call::format_check;
use crate::call::pattern_match;
use crate::ir::{Bound, KeywordValue, KeywordVisitor, Kind, Node, Respell};

/// What a value's keywords are checked against.
#[derive(Clone, Copy)]
pub(super) enum Subject<'v> {
    /// A number.
    Number(&'v Number),
    /// A string.
    Text(&'v str),
    /// An array's items.
    Items(&'v [Value]),
    /// How many entries a map has.
    Entries(usize),
}

impl Subject<'_> {
    /// What a count keyword counts of it.
    fn count(self) -> usize {
        match self {
            Subject::Text(text) => text.chars().count(),
            Subject::Items(items) => items.len(),
            Subject::Entries(entries) => entries,
            Subject::Number(_) => 0,
        }
    }
}

/// What the keywords of one value read of it, computed once: its count (a string's
/// characters are counted once for both of its length bounds) and its value as a float.
pub(super) struct Measured<'v> {
    subject: Subject<'v>,
    count: Option<usize>,
    float: Option<f64>,
}

impl<'v> Measured<'v> {
    fn of(subject: Subject<'v>) -> Measured<'v> {
        Measured {
            subject,
            count: None,
            float: None,
        }
    }

    fn count(&mut self) -> usize {
        *self.count.get_or_insert_with(|| self.subject.count())
    }

    /// Whether the count stands so to `limit` (at least, or at most): a string's characters
    /// are counted only when its length in bytes leaves it open (a character takes one to
    /// four bytes), so most strings are judged without counting.
    #[inline(always)]
    fn count_holds(&mut self, at_least: bool, limit: u64) -> bool {
        let stands = |count: usize| {
            let count = count as u64;
            if at_least {
                count >= limit
            } else {
                count <= limit
            }
        };
        if let (Subject::Text(text), None) = (self.subject, self.count) {
            let (fewest, most) = character_count_bounds(text);
            if stands(fewest) == stands(most) {
                return stands(most);
            }
        }
        stands(self.count())
    }

    fn float(&mut self, number: &Number) -> f64 {
        *self
            .float
            .get_or_insert_with(|| number.as_f64().unwrap_or(f64::NAN))
    }
}

/// The fewest and the most characters a string can hold, by its length in bytes alone (a
/// character takes one to four bytes): bounds on a count that settle most strings without
/// counting.
#[inline(always)]
pub(super) fn character_count_bounds(text: &str) -> (usize, usize) {
    (text.len().div_ceil(4), text.len())
}

/// The keywords of one value, enforced as `each_keyword` shows them.
struct Enforcing<'c, 'v, 'p> {
    checker: &'c mut Checker,
    measured: Measured<'v>,
    at: &'p Path<'p>,
    /// How the node's type respells a text a keyword refuses, for the message.
    respell: Option<Respell>,
}

impl KeywordVisitor<'static> for Enforcing<'_, '_, '_> {
    #[inline(always)]
    fn visit(&mut self, keyword: Keyword, value: KeywordValue<'static>) {
        if !holds(keyword, value, &mut self.measured) {
            self.checker
                .broken(keyword, value, &mut self.measured, self.at, self.respell);
        }
    }
}

impl Checker {
    /// Checks the keywords `kind` sets against `subject`, in table order.
    #[inline]
    pub(super) fn keywords(&mut self, kind: &Kind<'static>, subject: Subject<'_>, at: &Path<'_>) {
        kind.each_keyword(&mut Enforcing {
            checker: self,
            measured: Measured::of(subject),
            at,
            respell: None,
        });
    }

    /// Checks the keywords of a text's node, a refused text answered with the spelling its
    /// type writes of it.
    #[inline]
    pub(super) fn text_keywords(&mut self, node: &Node<'static>, text: &str, at: &Path<'_>) {
        node.kind.each_keyword(&mut Enforcing {
            checker: self,
            measured: Measured::of(Subject::Text(text)),
            at,
            respell: node.respell,
        });
    }

    /// The issue of a keyword that does not hold.
    #[cold]
    fn broken(
        &mut self,
        keyword: Keyword,
        value: KeywordValue<'static>,
        measured: &mut Measured<'_>,
        at: &Path<'_>,
        respell: Option<Respell>,
    ) {
        let spec = keyword.spec();
        let message = match (spec.check, value, measured.subject) {
            (Check::Bound(relation), KeywordValue::Bound(bound), Subject::Number(number)) => {
                format!("must be {} {}, got {number}", relation.symbol(), bound.text)
            }
            (Check::MultipleOf, KeywordValue::Bound(step), Subject::Number(number)) => {
                format!("must be a multiple of {}, got {number}", step.text)
            }
            (Check::Count(at_least, counted), KeywordValue::Count(limit), _) => {
                let actual = measured.count();
                format!("{}, got {actual}", counted.says(at_least, limit))
            }
            (Check::Pattern, KeywordValue::Text(pattern), Subject::Text(text)) => {
                format!(
                    "must match the pattern {pattern}, got {}{}",
                    short(text),
                    respelled(keyword, value, text, respell)
                )
            }
            (Check::Format, KeywordValue::Text(name), Subject::Text(text)) => {
                format!(
                    "must be {}, got {}{}",
                    format_check::example(name),
                    short(text),
                    respelled(keyword, value, text, respell)
                )
            }
            (Check::Unique, KeywordValue::Flag, Subject::Items(items)) => {
                return self.unique(items, at);
            }
            _ => return,
        };
        self.issue(at, spec.code, message);
    }

    /// Reports each item that repeats an earlier one (once per first occurrence).
    fn unique(&mut self, items: &[Value], at: &Path<'_>) {
        let code = Keyword::UniqueItems.spec().code;
        let mut reported = HashSet::new();
        for (index, first) in repeats(items) {
            if self.stopped {
                return;
            }
            if reported.insert(first) {
                let message = format!(
                    "items must be unique: item {index} repeats item {first} — send each once"
                );
                self.issue(at, code, message);
            }
        }
    }
}

/// The canonical spelling of a text `keyword` refuses, as a hint: the form's own (see
/// `spelling`), or the one the node's type writes of it; or nothing.
fn respelled(
    keyword: Keyword,
    value: KeywordValue<'static>,
    text: &str,
    respell: Option<Respell>,
) -> String {
    let passes =
        |candidate: &str| holds(keyword, value, &mut Measured::of(Subject::Text(candidate)));
    spelling::canonical(text, passes)
        .or_else(|| spelling::written_by_type(text, respell?, passes))
        .unwrap_or_default()
}

/// Each item that repeats an earlier one, with the index of the first it repeats, compared
/// by their canonical text. An item nested beyond any contract is no duplicate of another:
/// it is refused as the wrong type, or as too deep, by its own check.
fn repeats(items: &[Value]) -> impl Iterator<Item = (usize, usize)> {
    let mut seen: HashMap<String, usize> = HashMap::with_capacity(items.len());
    items.iter().enumerate().filter_map(move |(index, item)| {
        let key = canonical(item, MAX_FREE_DEPTH)?;
        match seen.get(&key) {
            Some(&first) => Some((index, first)),
            None => {
                seen.insert(key, index);
                None
            }
        }
    })
}

/// Whether every keyword `kind` sets holds of `subject` (the valid path's question).
#[inline]
pub(super) fn keywords_hold(kind: &Kind<'static>, subject: Subject<'_>) -> bool {
    let mut holding = Holding {
        measured: Measured::of(subject),
        all: true,
    };
    kind.each_keyword(&mut holding);
    holding.all
}

/// Whether the keywords `each_keyword` shows all hold.
struct Holding<'v> {
    measured: Measured<'v>,
    all: bool,
}

impl KeywordVisitor<'static> for Holding<'_> {
    #[inline(always)]
    fn visit(&mut self, keyword: Keyword, value: KeywordValue<'static>) {
        self.all = self.all && holds(keyword, value, &mut self.measured);
    }
}

/// Whether one keyword holds of `subject`: the keyword table's rule, as both the full check
/// and the valid path apply it.
#[inline(always)]
fn holds(keyword: Keyword, value: KeywordValue<'static>, measured: &mut Measured<'_>) -> bool {
    match (keyword.spec().check, value, measured.subject) {
        (Check::Bound(relation), KeywordValue::Bound(bound), Subject::Number(number)) => {
            match integer_value(number) {
                // An integer exactly, at any magnitude (the valid path's quick check of an
                // integer field intersects the intervals of this same rule).
                Some(integer) => relation.holds_for_integer(integer, bound.value),
                None => relation.holds(measured.float(number), bound.value),
            }
        }
        (Check::MultipleOf, KeywordValue::Bound(step), Subject::Number(number)) => {
            is_multiple(number, step)
        }
        (Check::Count(at_least, _), KeywordValue::Count(limit), _) => {
            measured.count_holds(at_least, limit)
        }
        (Check::Pattern, KeywordValue::Text(pattern), Subject::Text(text)) => {
            pattern_match::matches(pattern, text)
        }
        (Check::Format, KeywordValue::Text(name), Subject::Text(text)) => {
            format_check::admits(name, text)
        }
        (Check::Unique, KeywordValue::Flag, Subject::Items(items)) => {
            repeats(items).next().is_none()
        }
        _ => true,
    }
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

#[cfg(test)]
mod tests {
    use super::Decimal;

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
}
