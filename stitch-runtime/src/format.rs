//! `format` checks for one call's arguments, with well-kept crates where they exist
//! (chrono for dates and times, email_address, fluent-uri, uuid, the standard library for IP
//! addresses, regex for `regex`). Formats stitch does not know are not checked, as JSON Schema
//! validators do by default.

use std::net::{Ipv4Addr, Ipv6Addr};

/// Whether `value` is valid for `format`; `None` when the format is not checked.
pub fn check(format: &str, value: &str) -> Option<bool> {
    Some(match format {
        "date-time" => chrono::DateTime::parse_from_rfc3339(value).is_ok(),
        "date" => value.len() == 10 && chrono::NaiveDate::parse_from_str(value, "%Y-%m-%d").is_ok(),
        "time" => is_time(value),
        "email" => email_address::EmailAddress::parse_with_options(
            value,
            email_address::Options::default().without_display_text(),
        )
        .is_ok(),
        "uri" => fluent_uri::Uri::parse(value).is_ok(),
        "uri-reference" => fluent_uri::UriRef::parse(value).is_ok(),
        "uuid" => value.len() == 36 && uuid::Uuid::try_parse(value).is_ok(),
        "ipv4" => value.parse::<Ipv4Addr>().is_ok(),
        "ipv6" => value.parse::<Ipv6Addr>().is_ok(),
        "hostname" => is_hostname(value),
        "regex" => regex::Regex::new(value).is_ok(),
        "json-pointer" => is_json_pointer(value),
        _ => return None,
    })
}

/// What a format looks like, for messages.
pub fn example(format: &str) -> &'static str {
    match format {
        "date-time" => "an RFC 3339 date-time such as 2026-12-02T17:00:00Z",
        "date" => "a date such as 2026-12-02",
        "time" => "a time such as 17:00:00Z",
        "email" => "an email address such as name@example.com",
        "uri" => "an absolute URI such as https://example.com/a",
        "uri-reference" => "a URI reference such as /a/b or https://example.com",
        "uuid" => "a UUID such as 6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f",
        "ipv4" => "an IPv4 address such as 192.0.2.1",
        "ipv6" => "an IPv6 address such as 2001:db8::1",
        "hostname" => "a host name such as example.com",
        "regex" => "a regular expression",
        "json-pointer" => "a JSON Pointer such as /a/0",
        _ => "the declared format",
    }
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
