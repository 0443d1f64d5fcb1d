//! Dates and times, as each crate's serde form writes them: RFC 3339 forms advertise their
//! `format` (`date-time`, `date`); the others (a time of day without an offset, a civil
//! date-time, time's spaced forms, jiff's zoned form and ISO 8601 durations) a pattern of what
//! the crate writes. serde refuses what no pattern can (a 25th hour, a 31st of February):
//! every one is converted.

use super::super::{Shape, text};
use super::respell::spelled_as;
#[cfg(any(feature = "chrono04", feature = "time03"))]
use crate::ir::Kind;
use crate::ir::Node;

/// A time of day without an offset (`10:00:01.5`), as chrono and jiff write it.
#[cfg(any(feature = "chrono04", feature = "jiff02"))]
pub(crate) const TIME_OF_DAY: &str = "^[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]+)?$";

/// A civil date-time without an offset (`2026-12-03T10:00:00`), as chrono and jiff write it.
#[cfg(any(feature = "chrono04", feature = "jiff02"))]
pub(crate) const CIVIL_DATE_TIME: &str =
    "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]+)?$";

/// time's time of day (`10:00:00.0`: its fraction is always written).
#[cfg(feature = "time03")]
pub(crate) const SPACED_TIME: &str = "^[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]+$";

/// time's date-time (`2026-12-03 10:00:00.0`).
#[cfg(feature = "time03")]
pub(crate) const SPACED_DATE_TIME: &str =
    "^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]+$";

/// time's date-time with its offset (`2026-12-03 10:00:00.0 +01:00:00`).
#[cfg(feature = "time03")]
pub(crate) const SPACED_OFFSET_DATE_TIME: &str = "^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]+ [+-][0-9]{2}:[0-9]{2}:[0-9]{2}$";

/// time's offset (`+01:00:00`).
#[cfg(feature = "time03")]
pub(crate) const OFFSET: &str = "^[+-][0-9]{2}:[0-9]{2}:[0-9]{2}$";

/// time's duration: seconds with nanoseconds (`1.500000000`, `-0.250000000`).
#[cfg(feature = "time03")]
pub(crate) const SECONDS: &str = "^-?[0-9]+\\.[0-9]+$";

/// jiff's zoned date-time: RFC 3339 and the time zone in brackets
/// (`2024-07-10T21:14:00+00:00[UTC]`).
#[cfg(feature = "jiff02")]
pub(crate) const ZONED: &str = "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]+)?(?:[Zz]|[+-][0-9]{2}:[0-9]{2})?\\[[^\\]]+\\]$";

/// An ISO 8601 duration, signed (`PT1H30M`, `-P1D`), as jiff writes spans and durations.
#[cfg(feature = "jiff02")]
pub(crate) const ISO_DURATION: &str = "^-?P(?:[0-9]+Y)?(?:[0-9]+M)?(?:[0-9]+W)?(?:[0-9]+D)?(?:T(?:[0-9]+H)?(?:[0-9]+M)?(?:[0-9]+(?:\\.[0-9]+)?S)?)?$";

/// A `date-time` (RFC 3339, with its offset).
#[cfg(any(feature = "chrono04", feature = "jiff02"))]
const DATE_TIME: Node = text(Some("date-time"), None, true);
/// A `date` (RFC 3339's full-date).
const DATE: Node = text(Some("date"), None, true);
#[cfg(any(feature = "chrono04", feature = "jiff02"))]
const TIME_OF_DAY_TEXT: Node = text(None, Some(TIME_OF_DAY), true);
#[cfg(any(feature = "chrono04", feature = "jiff02"))]
const CIVIL_DATE_TIME_TEXT: Node = text(None, Some(CIVIL_DATE_TIME), true);

macro_rules! shapes {
    ($($(#[$meta:meta])* $ty:ty => $node:expr;)*) => {$(
        $(#[$meta])*
        impl Shape for $ty {
            const SHAPE: &'static Node<'static> = &spelled_as::<$ty>(&$node);
        }
    )*};
}

#[cfg(feature = "chrono04")]
impl<Tz: chrono::TimeZone> Shape for chrono::DateTime<Tz> {
    /// Respelled as one with its offset (the spelling chrono writes, whatever the zone).
    const SHAPE: &'static Node<'static> =
        &spelled_as::<chrono::DateTime<chrono::FixedOffset>>(&DATE_TIME);
}

/// chrono's weekdays, as it writes them (serde also reads full names, in any case: each is
/// respelled).
#[cfg(feature = "chrono04")]
const CHRONO_WEEKDAY: Node = Node::of(Kind::StringEnum(
    &["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"],
    &[],
    None,
));

shapes! {
    #[cfg(feature = "chrono04")]
    chrono::NaiveDate => DATE;
    #[cfg(feature = "chrono04")]
    chrono::NaiveTime => TIME_OF_DAY_TEXT;
    #[cfg(feature = "chrono04")]
    chrono::NaiveDateTime => CIVIL_DATE_TIME_TEXT;
    #[cfg(feature = "chrono04")]
    chrono::Weekday => CHRONO_WEEKDAY;

    #[cfg(feature = "jiff02")]
    jiff::Timestamp => DATE_TIME;
    #[cfg(feature = "jiff02")]
    jiff::Zoned => text(None, Some(ZONED), true);
    #[cfg(feature = "jiff02")]
    jiff::civil::Date => DATE;
    #[cfg(feature = "jiff02")]
    jiff::civil::Time => TIME_OF_DAY_TEXT;
    #[cfg(feature = "jiff02")]
    jiff::civil::DateTime => CIVIL_DATE_TIME_TEXT;
    #[cfg(feature = "jiff02")]
    jiff::Span => text(None, Some(ISO_DURATION), true);
    #[cfg(feature = "jiff02")]
    jiff::SignedDuration => text(None, Some(ISO_DURATION), true);

    #[cfg(feature = "time03")]
    time::Date => DATE;
    #[cfg(feature = "time03")]
    time::Time => text(None, Some(SPACED_TIME), true);
    #[cfg(feature = "time03")]
    time::PrimitiveDateTime => text(None, Some(SPACED_DATE_TIME), true);
    #[cfg(feature = "time03")]
    time::OffsetDateTime => text(None, Some(SPACED_OFFSET_DATE_TIME), true);
    #[cfg(feature = "time03")]
    time::UtcOffset => text(None, Some(OFFSET), true);
    #[cfg(feature = "time03")]
    time::Duration => text(None, Some(SECONDS), true);
    #[cfg(feature = "time03")]
    time::Month => Node::of(Kind::StringEnum(
        &[
            "January", "February", "March", "April", "May", "June", "July", "August",
            "September", "October", "November", "December",
        ],
        &[],
        None,
    ));
    #[cfg(feature = "time03")]
    time::Weekday => Node::of(Kind::StringEnum(
        &["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
        &[],
        None,
    ));
}
