//! Other crates' types, each behind a feature named as schemars names it, described as the
//! crate's serde form writes it to JSON: `dates` (chrono, time, jiff), `identifiers` (uuid,
//! url, semver), `decimals` (rust_decimal, bigdecimal), `containers` (indexmap, smallvec,
//! bytes). Where serde may refuse a rare value the schema admits (a 25th hour, a version past
//! `u64`), the node is converted: `parse` reports where serde refuses it. Every one is
//! respelled by its own crate: where serde reads a spelling the schema does not state
//! (`"+1"`, `"9:44:55"`, `"MON"`), `parse` names the one the crate writes of it.

#[cfg(any(feature = "bytes1", feature = "indexmap2", feature = "smallvec1"))]
mod containers;
#[cfg(any(feature = "chrono04", feature = "time03", feature = "jiff02"))]
mod dates;
#[cfg(any(feature = "rust_decimal1", feature = "bigdecimal04"))]
mod decimals;
#[cfg(any(feature = "uuid1", feature = "url2", feature = "semver1"))]
mod identifiers;

/// Every pattern a type here is advertised with: each must read alike in ECMA-262 and in the
/// `regex` crate, as a pattern of the derive must (tested).
#[cfg(test)]
pub(crate) const PATTERNS: &[&str] = &[
    #[cfg(any(feature = "chrono04", feature = "jiff02"))]
    dates::TIME_OF_DAY,
    #[cfg(any(feature = "chrono04", feature = "jiff02"))]
    dates::CIVIL_DATE_TIME,
    #[cfg(feature = "time03")]
    dates::SPACED_TIME,
    #[cfg(feature = "time03")]
    dates::SPACED_DATE_TIME,
    #[cfg(feature = "time03")]
    dates::SPACED_OFFSET_DATE_TIME,
    #[cfg(feature = "time03")]
    dates::OFFSET,
    #[cfg(feature = "time03")]
    dates::SECONDS,
    #[cfg(feature = "jiff02")]
    dates::ZONED,
    #[cfg(feature = "jiff02")]
    dates::ISO_DURATION,
    #[cfg(feature = "semver1")]
    identifiers::VERSION,
    #[cfg(feature = "rust_decimal1")]
    decimals::DECIMAL,
    #[cfg(feature = "bigdecimal04")]
    decimals::SCIENTIFIC,
];

#[cfg(any(
    feature = "chrono04",
    feature = "time03",
    feature = "jiff02",
    feature = "rust_decimal1",
    feature = "bigdecimal04",
    feature = "uuid1",
    feature = "url2",
    feature = "semver1"
))]
mod respell;
