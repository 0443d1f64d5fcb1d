//! The canonical spelling of a text a pattern or a format refuses, when it is one serde reads
//! in another spelling: a UUID without its hyphens, in braces or as a URN; a date-time with a
//! space for its `T`, an offset without its colon, or a time of day without its seconds; a
//! URL with characters the `url` crate escapes, or RFC 3986 refuses. The schema states one
//! spelling, so `parse` takes that one only, and its issue names it ("send the UUID in its hyphenated form: …").
//! Beyond these forms, a text another crate's type reads is answered with the spelling that
//! type writes of it (its own serde, both ways).

use serde_json::Value;

use crate::ir::Respell;

/// The text respelled so that `passes` holds of it, as the hint; `None` when no
/// respelling here passes.
pub(super) fn canonical(text: &str, passes: impl Fn(&str) -> bool) -> Option<String> {
    let hyphenated = hyphenated_uuid(text);
    if let Some(uuid) = hyphenated.filter(|uuid| passes(uuid)) {
        return Some(format!(
            " — send the UUID in its hyphenated form: \"{uuid}\""
        ));
    }
    let stamped = date_time_respelled(text);
    if stamped != text && passes(&stamped) {
        return Some(format!(" — send it as \"{stamped}\""));
    }
    escaped_url(text)
        .filter(|url| url != text && passes(url))
        .map(|url| format!(" — send the URL escaped: \"{url}\""))
}

/// The spelling the node's type writes of `text`, where it reads `text`, differs from it
/// and `passes`, as the hint.
pub(super) fn written_by_type(
    text: &str,
    respell: Respell,
    passes: impl Fn(&str) -> bool,
) -> Option<String> {
    (respell.0)(&Value::String(text.to_owned()))
        .filter(|written| written != text && passes(written))
        .map(|written| format!(" — send it as \"{written}\""))
}

/// The same, for a value of a closed set: the value a text stands for.
pub(super) fn value_it_stands_for(text: &str, respell: Respell, values: &[&str]) -> Option<String> {
    (respell.0)(&Value::String(text.to_owned()))
        .filter(|written| values.contains(&written.as_str()))
        .map(|written| format!(" — send \"{written}\", the value it stands for"))
}

/// A UUID's 32 hex digits in the hyphenated form, from the simple (`67e55044…`), braced
/// (`{…}`) and URN (`urn:uuid:…`) forms uuid's serde also reads.
fn hyphenated_uuid(text: &str) -> Option<String> {
    let bare = text
        .strip_prefix("urn:uuid:")
        .or_else(|| {
            text.strip_prefix('{')
                .and_then(|rest| rest.strip_suffix('}'))
        })
        .unwrap_or(text);
    let digits: String = bare.chars().filter(|c| *c != '-').collect();
    if digits.len() != 32 || !digits.bytes().all(|byte| byte.is_ascii_hexdigit()) {
        return None;
    }
    let digits = digits.to_ascii_lowercase();
    Some(format!(
        "{}-{}-{}-{}-{}",
        &digits[..8],
        &digits[8..12],
        &digits[12..16],
        &digits[16..20],
        &digits[20..]
    ))
}

/// A date, a time or both, with the separators RFC 3339 writes: `T` between the date and
/// the time (chrono reads a space), seconds in a time of day (`14:30` is `14:30:00`), and a
/// colon in the offset (`+0100` is `+01:00`). Anything else is left as it is.
fn date_time_respelled(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 4);
    let mut time_at = 0;
    if bytes.len() > 10 && is_date(&bytes[..10]) && matches!(bytes[10], b'T' | b' ' | b't') {
        out.push_str(&text[..10]);
        out.push('T');
        time_at = 11;
    }
    let time = &text[time_at..];
    let time_bytes = time.as_bytes();
    if time_bytes.len() >= 5 && is_hour_minute(&time_bytes[..5]) {
        out.push_str(&time[..5]);
        let rest = &time[5..];
        if !rest.starts_with(':') {
            out.push_str(":00");
        }
        out.push_str(&with_offset_colon(rest));
    } else {
        out.push_str(time);
    }
    out
}

/// `+0100` at the end as `+01:00`.
fn with_offset_colon(rest: &str) -> String {
    let bytes = rest.as_bytes();
    let n = bytes.len();
    if n >= 5
        && matches!(bytes[n - 5], b'+' | b'-')
        && bytes[n - 4..].iter().all(u8::is_ascii_digit)
    {
        return format!("{}:{}", &rest[..n - 2], &rest[n - 2..]);
    }
    rest.to_owned()
}

fn is_date(bytes: &[u8]) -> bool {
    bytes.iter().enumerate().all(|(at, byte)| match at {
        4 | 7 => *byte == b'-',
        _ => byte.is_ascii_digit(),
    })
}

fn is_hour_minute(bytes: &[u8]) -> bool {
    bytes[0].is_ascii_digit()
        && bytes[1].is_ascii_digit()
        && bytes[2] == b':'
        && bytes[3].is_ascii_digit()
        && bytes[4].is_ascii_digit()
}

/// A URL as the `url` crate writes what it reads (non-ASCII escaped, the host in punycode),
/// and the characters it leaves as they are but RFC 3986 refuses (`|`, `{`, a space, a `%`
/// that starts no escape, ...) escaped too: the spelling a `uri` states.
#[cfg(feature = "url2")]
fn escaped_url(text: &str) -> Option<String> {
    use percent_encoding::{AsciiSet, CONTROLS, utf8_percent_encode};
    const NOT_IN_RFC_3986: &AsciiSet = &CONTROLS
        .add(b' ')
        .add(b'"')
        .add(b'<')
        .add(b'>')
        .add(b'\\')
        .add(b'^')
        .add(b'`')
        .add(b'{')
        .add(b'|')
        .add(b'}');
    // Brackets belong only around an IPv6 host: past the authority they are escaped too.
    const NOT_IN_RFC_3986_PAST_THE_HOST: &AsciiSet = &NOT_IN_RFC_3986.add(b'[').add(b']');
    let url = url::Url::parse(text).ok()?;
    let written = String::from(url.clone());
    let host_end = match url.host_str() {
        Some(_) => written.find("//").map_or(0, |at| {
            let authority = at + 2;
            written[authority..]
                .find(['/', '?', '#'])
                .map_or(written.len(), |end| authority + end)
        }),
        None => 0,
    };
    let (authority, rest) = written.split_at(host_end);
    let escaped = utf8_percent_encode(authority, NOT_IN_RFC_3986).to_string()
        + &utf8_percent_encode(rest, NOT_IN_RFC_3986_PAST_THE_HOST).to_string();
    // A `%` that starts no escape is one itself (`%25`).
    let bytes = escaped.as_bytes();
    let mut out = String::with_capacity(escaped.len());
    for (at, character) in escaped.char_indices() {
        let starts_escape = bytes
            .get(at + 1..at + 3)
            .is_some_and(|hex| hex.iter().all(u8::is_ascii_hexdigit));
        if character == '%' && !starts_escape {
            out.push_str("%25");
        } else {
            out.push(character);
        }
    }
    Some(out)
}

#[cfg(not(feature = "url2"))]
fn escaped_url(_: &str) -> Option<String> {
    None
}

#[cfg(test)]
mod tests {
    use super::{date_time_respelled, hyphenated_uuid};

    #[test]
    fn uuids_in_every_form_serde_reads_are_hyphenated() {
        let hyphenated = Some("67e55044-10b1-426f-9247-bb680e5fe0c8".to_owned());
        for form in [
            "67e5504410b1426f9247bb680e5fe0c8",
            "{67e55044-10b1-426f-9247-bb680e5fe0c8}",
            "urn:uuid:67e55044-10b1-426f-9247-bb680e5fe0c8",
            "67E55044-10B1-426F-9247-BB680E5FE0C8",
        ] {
            assert_eq!(hyphenated_uuid(form), hyphenated, "{form}");
        }
        assert_eq!(hyphenated_uuid("67e55044"), None);
        assert_eq!(hyphenated_uuid("zze5504410b1426f9247bb680e5fe0c8"), None);
    }

    #[test]
    fn dates_and_times_get_the_separators_rfc_3339_writes() {
        for (sent, respelled) in [
            ("2016-12-31 23:59:59Z", "2016-12-31T23:59:59Z"),
            ("2016-12-31T23:59:59+0100", "2016-12-31T23:59:59+01:00"),
            ("2016-12-31 23:59+0100", "2016-12-31T23:59:00+01:00"),
            ("14:30", "14:30:00"),
            ("14:30:15.5", "14:30:15.5"),
            ("2016-12-31", "2016-12-31"),
            ("not a time", "not a time"),
            ("é", "é"),
        ] {
            assert_eq!(date_time_respelled(sent), respelled, "{sent}");
        }
    }
}
