//! `format`: how `parse` checks each portable format (`stitch_rules::Format` names them and
//! says what each looks like), with well-kept crates where they exist (chrono for dates and
//! times, email_address, fluent-uri, uuid, the standard library for IP addresses, regex for
//! `regex`). A portable format without a check, or a format outside the table, is not
//! checked, as JSON Schema validators do by default.

use std::net::{Ipv4Addr, Ipv6Addr};

use stitch_rules::Format;

/// How `parse` checks a value of a format, when it does (a format it does not know, or one
/// without a check here, is not checked, as JSON Schema validators do by default).
fn checker(format: Format) -> Option<fn(&str) -> bool> {
    Some(match format {
        Format::Date => |value| {
            value.len() == 10 && chrono::NaiveDate::parse_from_str(value, "%Y-%m-%d").is_ok()
        },
        Format::Time => is_time,
        Format::DateTime => |value| chrono::DateTime::parse_from_rfc3339(value).is_ok(),
        Format::Uri => |value| fluent_uri::Uri::parse(value).is_ok(),
        Format::UriReference => |value| fluent_uri::UriRef::parse(value).is_ok(),
        Format::Email => |value| {
            let options = email_address::Options::default().without_display_text();
            email_address::EmailAddress::parse_with_options(value, options).is_ok()
        },
        Format::Hostname => is_hostname,
        Format::Ipv4 => |value| value.parse::<Ipv4Addr>().is_ok(),
        Format::Ipv6 => |value| value.parse::<Ipv6Addr>().is_ok(),
        Format::Regex => |value| regex::Regex::new(value).is_ok(),
        Format::Uuid => |value| value.len() == 36 && uuid::Uuid::try_parse(value).is_ok(),
        Format::JsonPointer => is_json_pointer,
        Format::Duration | Format::UriTemplate | Format::RelativeJsonPointer => return None,
    })
}

/// The portable format of this name (found natively: `Format::named` is the constant
/// evaluation's, which compares byte by byte).
fn named(name: &str) -> Option<Format> {
    Format::ALL.into_iter().find(|format| format.name() == name)
}

/// Whether `value` is valid for `format`; `None` when the format is not checked.
pub fn check(format: &str, value: &str) -> Option<bool> {
    checker(named(format)?).map(|check| check(value))
}

/// What a format looks like, for messages.
pub fn example(format: &str) -> &'static str {
    named(format).map_or("the declared format", Format::example)
}

/// RFC 3339 `full-time`: `HH:MM:SS[.frac](Z|±HH:MM)`.
fn is_time(value: &str) -> bool {
    let (clock, offset) = match value.rfind(['Z', 'z', '+', '-']) {
        Some(at) => value.split_at(at),
        None => return false,
    };
    let offset_ok = offset.eq_ignore_ascii_case("z")
        || (offset.len() == 6
            && chrono::NaiveTime::parse_from_str(&format!("{}:00", &offset[1..]), "%H:%M:%S")
                .is_ok());
    offset_ok && chrono::NaiveTime::parse_from_str(clock, "%H:%M:%S%.f").is_ok()
}

/// RFC 1123 host names: dot-separated labels of letters, digits and inner hyphens.
fn is_hostname(value: &str) -> bool {
    let name = value.strip_suffix('.').unwrap_or(value);
    !name.is_empty()
        && name.len() <= 253
        && name.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
}

/// RFC 6901: empty, or `/`-separated tokens where `~` is followed by `0` or `1`.
fn is_json_pointer(value: &str) -> bool {
    if value.is_empty() {
        return true;
    }
    value.starts_with('/')
        && value
            .split('~')
            .skip(1)
            .all(|rest| rest.starts_with('0') || rest.starts_with('1'))
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn formats_accept_and_reject() {
        let cases = [
            ("date-time", "2026-12-02T17:00:00Z", "2026-12-02 17:00"),
            ("date", "2026-12-02", "2026-13-02"),
            ("time", "17:00:00.5+01:00", "17:00"),
            ("email", "a@example.com", "not an email"),
            ("uri", "https://example.com/a?b#c", "/relative"),
            ("uri-reference", "/relative", "a b"),
            (
                "uuid",
                "6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f",
                "6f1c2d3e4a5b4c6d8e9f0a1b2c3d4e5f",
            ),
            ("ipv4", "192.0.2.1", "256.0.0.1"),
            ("ipv6", "2001:db8::1", "2001:db8::g"),
            ("hostname", "api.example.com", "-bad-.example"),
            ("regex", "^a+$", "(unclosed"),
            ("json-pointer", "/a/~0b", "a/b"),
        ];
        for (format, good, bad) in cases {
            assert_eq!(check(format, good), Some(true), "{format} {good}");
            assert_eq!(check(format, bad), Some(false), "{format} {bad}");
        }
        assert_eq!(check("cuid2", "anything"), None);
    }
}
