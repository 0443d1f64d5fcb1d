//! The integer a JSON number is, as the keyword checks, the full check and the valid path
//! all read it: exactly, at any magnitude serde_json carries.

use serde_json::Number;

/// The integer a JSON number is, when it is one (serde_json holds it as an `i64` or a
/// `u64`, or, with `arbitrary_precision`, as its digits); `None` for a float, even an
/// integral one.
#[inline(always)]
pub(super) fn integer_value(number: &Number) -> Option<i128> {
    match number.as_u64() {
        Some(n) => Some(i128::from(n)),
        None => match number.as_i64() {
            Some(n) => Some(i128::from(n)),
            None => wide_integer(number),
        },
    }
}

/// An integer past 64 bits, which only `arbitrary_precision` carries as one.
#[cold]
fn wide_integer(number: &Number) -> Option<i128> {
    number.as_i128()
}
