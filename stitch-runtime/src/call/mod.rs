//! One call: its arguments checked against the exact contract and made what serde reads
//! (`check`, with each `format` and `pattern` checked by `format_check` and `pattern_match`),
//! deserialized and refined (`parse`), and every issue found answered (`rejection`).

pub(crate) mod check;
pub(crate) mod format_check;
pub(crate) mod parse;
pub(crate) mod pattern_match;
pub(crate) mod rejection;
