//! `format`: how `parse` checks each portable format (`stitch_rules::Format` names them and
//! says what each looks like), with well-kept crates where they exist (chrono for dates and
//! times, email_address, fluent-uri, uuid, the standard library for IP addresses, regex for
//! `regex`). A portable format without a check, or a format outside the table, is not
//! checked, as JSON Schema validators do by default. The plain URIs and date-times models
//! send are recognised by a one-pass shortcut first; anything else is left to the crate.

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
        Format::DateTime => |value| {
            is_plain_date_time(value)
                // chrono also reads a space between the date and the time, which RFC 3339's
                // grammar (and JSON Schema's `date-time`) does not: a `T` (or `t`) it must be.
                || matches!(value.as_bytes().get(10), Some(b'T' | b't'))
                    && chrono::DateTime::parse_from_rfc3339(value).is_ok()
        },
        Format::Uri => |value| is_plain_uri(value) || fluent_uri::Uri::parse(value).is_ok(),
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

/// Whether `format` admits `value`: a format that is not checked admits anything.
pub fn admits(format: &str, value: &str) -> bool {
    named(format).is_none_or(|format| admits_as(format, value))
}

/// Whether a format already found admits `value` (see [`admits`]).
#[inline]
pub fn admits_as(format: Format, value: &str) -> bool {
    checker(format).is_none_or(|check| check(value))
}

/// What a format looks like, for messages.
pub fn example(format: &str) -> &'static str {
    named(format).map_or("the declared format", Format::example)
}

/// Whether `value` is a URI of the plain shape nearly every URI a model sends has:
/// `scheme://host[:port]` then a path, query and fragment of unescaped characters. Every such
/// string is a URI by RFC 3986, so it is accepted without a full parse; anything else
/// (percent-escapes, IP literals, user info, URIs without `//`, any doubt) is left to
/// fluent-uri, which decides. One pass over the bytes, each judged by a table.
fn is_plain_uri(value: &str) -> bool {
    /// Byte classes, as bits.
    const SCHEME: u8 = 1; // ALPHA / DIGIT / "+" / "-" / "."
    const HOST: u8 = 2; // unreserved / sub-delims
    const AFTER_HOST: u8 = 4; // pchar without escapes, "/" and "?"
    const CLASSES: [u8; 256] = {
        let mut table = [0u8; 256];
        let mut byte = 0;
        while byte < 256 {
            if (byte as u8).is_ascii_alphanumeric() {
                table[byte] = SCHEME | HOST | AFTER_HOST;
            }
            byte += 1;
        }
        let (scheme_marks, host_marks, path_marks) = (b"+-.", b"-._~!$&'()*+,;=", b"/?:@");
        let mut i = 0;
        while i < scheme_marks.len() {
            table[scheme_marks[i] as usize] |= SCHEME;
            i += 1;
        }
        let mut i = 0;
        while i < host_marks.len() {
            table[host_marks[i] as usize] |= HOST | AFTER_HOST;
            i += 1;
        }
        let mut i = 0;
        while i < path_marks.len() {
            table[path_marks[i] as usize] |= AFTER_HOST;
            i += 1;
        }
        table
    };
    let class = |byte: &u8| CLASSES[*byte as usize];
    let bytes = value.as_bytes();
    if !bytes.first().is_some_and(u8::is_ascii_alphabetic) {
        return false;
    }
    let scheme_end = bytes
        .iter()
        .position(|byte| class(byte) & SCHEME == 0)
        .unwrap_or(bytes.len());
    let Some(authority) = bytes[scheme_end..].strip_prefix(b"://") else {
        return false;
    };
    let host_end = authority
        .iter()
        .position(|byte| class(byte) & HOST == 0)
        .unwrap_or(authority.len());
    let mut rest = &authority[host_end..];
    if let Some(port) = rest.strip_prefix(b":") {
        let digits = port.iter().take_while(|byte| byte.is_ascii_digit()).count();
        rest = &port[digits..];
    }
    // What follows the authority starts a path, a query or a fragment (or nothing); at
    // most one `#` starts the fragment.
    if rest.first().is_some_and(|byte| !b"/?#".contains(byte)) {
        return false;
    }
    let Some(odd) = rest.iter().position(|byte| class(byte) & AFTER_HOST == 0) else {
        return true;
    };
    rest[odd] == b'#'
        && rest[odd + 1..]
            .iter()
            .all(|byte| class(byte) & AFTER_HOST != 0)
}

/// Whether `value` is an RFC 3339 date-time of the plain shape models send:
/// `YYYY-MM-DDTHH:MM:SS`, an optional fraction of up to nine digits, then `Z` or `±HH:MM`,
/// with a day of month no later than the 28th and no leap second. Every such string is a
/// date-time whatever the month or year, so it is accepted without a full parse; anything
/// else is left to chrono, which decides.
fn is_plain_date_time(value: &str) -> bool {
    let bytes = value.as_bytes();
    // The date and the clock, `YYYY-MM-DDTHH:MM:SS`, at fixed places: read with no bounds
    // check past this one.
    let Some((head, mut rest)) = bytes.split_first_chunk::<19>() else {
        return false;
    };
    let number = |at: usize| two_digits(head[at], head[at + 1]);
    let year_is_digits = head[..4].iter().all(u8::is_ascii_digit);
    let separated = head[4] == b'-'
        && head[7] == b'-'
        && head[10] == b'T'
        && head[13] == b':'
        && head[16] == b':';
    let (month, day) = (number(5), number(8));
    let (hour, minute, second) = (number(11), number(14), number(17));
    if !(year_is_digits
        && separated
        && (1..=12).contains(&month)
        && (1..=28).contains(&day)
        && hour < 24
        && minute < 60
        && second < 60)
    {
        return false;
    }
    if let Some(fraction) = rest.strip_prefix(b".") {
        let digits = fraction
            .iter()
            .take_while(|byte| byte.is_ascii_digit())
            .count();
        if !(1..=9).contains(&digits) {
            return false;
        }
        rest = &fraction[digits..];
    }
    match rest {
        b"Z" => true,
        &[
            b'+' | b'-',
            hours_tens,
            hours_ones,
            b':',
            minutes_tens,
            minutes_ones,
        ] => two_digits(hours_tens, hours_ones) < 24 && two_digits(minutes_tens, minutes_ones) < 60,
        _ => false,
    }
}

/// The number two ASCII digits write, or `u8::MAX` when either is not a digit.
#[inline(always)]
fn two_digits(tens: u8, ones: u8) -> u8 {
    let (tens, ones) = (tens.wrapping_sub(b'0'), ones.wrapping_sub(b'0'));
    if tens < 10 && ones < 10 {
        tens * 10 + ones
    } else {
        u8::MAX
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
mod shortcuts {
    //! The shortcuts accept only what the crates behind them accept, and take the values
    //! models send.
    use proptest::prelude::*;

    use super::{is_plain_date_time, is_plain_uri};

    /// Strings near the URI shape: schemes, authorities, escapes, IP literals, user info,
    /// ports, paths, queries and fragments, in any order and with stray characters.
    fn near_uris() -> impl Strategy<Value = String> {
        let part = prop_oneof![
            Just("https".to_owned()),
            Just("a+b-c.d".to_owned()),
            Just("1x".to_owned()),
            Just("://".to_owned()),
            Just(":".to_owned()),
            Just("//".to_owned()),
            Just("/".to_owned()),
            Just("?".to_owned()),
            Just("#".to_owned()),
            Just("@".to_owned()),
            Just("[::1]".to_owned()),
            Just("%20".to_owned()),
            Just("%zz".to_owned()),
            Just(":8080".to_owned()),
            Just(":99999999".to_owned()),
            "[a-zA-Z0-9._~!$&'()*+,;=-]{0,6}",
            r#"[ "<>\^`{|}\[\]%é\x00-\x1f]"#,
            r"\PC{0,3}",
        ];
        proptest::collection::vec(part, 0..10).prop_map(|parts| parts.concat())
    }

    /// Strings near the RFC 3339 date-time shape, with out-of-range fields and stray
    /// characters.
    fn near_date_times() -> impl Strategy<Value = String> {
        (
            "[0-9]{4}",
            "[0-9]{2}",
            "[0-9]{2}",
            "[Tt ]",
            "[0-9]{2}:[0-9]{2}:[0-9]{2}",
            r"(\.[0-9]{0,11})?",
            "(Z|z|[+-][0-9]{2}:[0-9]{2}|[+-][0-9]{4}|)",
            "[0-9a-z:.-]{0,2}",
        )
            .prop_map(|(year, month, day, t, clock, fraction, offset, tail)| {
                format!("{year}-{month}-{day}{t}{clock}{fraction}{offset}{tail}")
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        #[test]
        fn a_plain_uri_is_a_uri(text in prop_oneof![near_uris(), "\\PC{0,24}"]) {
            if is_plain_uri(&text) {
                prop_assert!(fluent_uri::Uri::parse(text.as_str()).is_ok(), "{text:?}");
            }
        }

        #[test]
        fn a_plain_date_time_is_a_date_time(text in near_date_times()) {
            if is_plain_date_time(&text) {
                prop_assert!(chrono::DateTime::parse_from_rfc3339(&text).is_ok(), "{text:?}");
            }
        }
    }

    #[test]
    fn what_models_send_takes_the_shortcut() {
        for uri in [
            "https://example.com/sale",
            "http://localhost:8080/a/b?c=d&e=f#top",
            "https://api.example.org/v1/items?id=1,2;x=y",
        ] {
            assert!(is_plain_uri(uri), "{uri}");
        }
        for date_time in [
            "2026-12-02T17:00:00Z",
            "2026-02-28T23:59:59.123+05:30",
            "1999-01-01T00:00:00-08:00",
        ] {
            assert!(is_plain_date_time(date_time), "{date_time}");
        }
        // Left to the full parse, which still accepts them.
        for uri in ["mailto:a@example.com", "https://[::1]/", "https://a/b%20c"] {
            assert!(!is_plain_uri(uri) && super::admits("uri", uri), "{uri}");
        }
        for date_time in ["2024-02-29T00:00:00Z", "2026-12-31T23:59:59Z"] {
            assert!(!is_plain_date_time(date_time), "{date_time}");
            assert!(super::admits("date-time", date_time), "{date_time}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::admits;

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
            assert!(admits(format, good), "{format} {good}");
            assert!(!admits(format, bad), "{format} {bad}");
        }
        // A format outside the table, or one without a check, is not checked.
        assert!(admits("cuid2", "anything"));
        assert!(admits("duration", "anything"));
    }
}
