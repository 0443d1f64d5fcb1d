//! Decimal numbers, written as strings so that no digit is lost: `rust_decimal::Decimal`
//! (plain decimal notation) and `bigdecimal::BigDecimal` (with an exponent too).

use super::super::{Shape, text};
use crate::ir::Node;

/// A decimal in plain notation (`-0.015`), as `rust_decimal` writes it.
#[cfg(feature = "rust_decimal1")]
pub(crate) const DECIMAL: &str = "^-?[0-9]+(?:\\.[0-9]+)?$";

/// A decimal with an optional exponent (`1E-7`), as `bigdecimal` writes it.
#[cfg(feature = "bigdecimal04")]
pub(crate) const SCIENTIFIC: &str = "^-?[0-9]+(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$";

/// Its string form (rust_decimal's default); serde refuses more than 28 digits (converted).
#[cfg(feature = "rust_decimal1")]
impl Shape for rust_decimal::Decimal {
    const SHAPE: &'static Node<'static> = &text(None, Some(DECIMAL), true);
}

#[cfg(feature = "bigdecimal04")]
impl Shape for bigdecimal::BigDecimal {
    const SHAPE: &'static Node<'static> = &text(None, Some(SCIENTIFIC), true);
}
