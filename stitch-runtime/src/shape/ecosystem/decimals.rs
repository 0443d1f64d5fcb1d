//! Decimal numbers: `rust_decimal::Decimal` (plain decimal notation) and
//! `bigdecimal::BigDecimal` (with an exponent too). Both write a string by default (so no
//! digit is lost), and a number with rust_decimal's `serde-float` feature or serde_json's
//! `arbitrary_precision`; both read either form. So each is a string of its notation or a
//! number, and a model that sends a price as a number is taken at its word.

use super::super::{Shape, converted, text};
use super::respell::spelled_as;
use crate::ir::{Kind, Node, NumberRules};

/// A JSON number, any.
const NUMBER: Node<'static> = Node::of(Kind::Number(NumberRules::NONE));

/// A decimal in plain notation (`-0.015`), as `rust_decimal` writes it.
#[cfg(feature = "rust_decimal1")]
pub(crate) const DECIMAL: &str = "^-?[0-9]+(?:\\.[0-9]+)?$";

/// A decimal with an optional exponent (`1E-7`), as `bigdecimal` writes it.
#[cfg(feature = "bigdecimal04")]
pub(crate) const SCIENTIFIC: &str = "^-?[0-9]+(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$";

/// Its string form (rust_decimal's default), or a number; serde refuses more than 28 digits
/// (converted: `parse` reports it at the field).
#[cfg(feature = "rust_decimal1")]
impl Shape for rust_decimal::Decimal {
    const SHAPE: &'static Node<'static> = &converted(&Node::of(Kind::AnyOf(&[
        &spelled_as::<rust_decimal::Decimal>(&text(None, Some(DECIMAL), true)),
        &NUMBER,
    ])));
}

/// Its string form, or a number.
#[cfg(feature = "bigdecimal04")]
impl Shape for bigdecimal::BigDecimal {
    const SHAPE: &'static Node<'static> = &converted(&Node::of(Kind::AnyOf(&[
        &spelled_as::<bigdecimal::BigDecimal>(&text(None, Some(SCIENTIFIC), true)),
        &NUMBER,
    ])));
}
