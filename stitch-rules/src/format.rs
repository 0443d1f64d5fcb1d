//! The formats stitch knows: the portable ones, which every common JSON Schema validator and
//! model provider understands (what `require_portable_formats` accepts), each with what a
//! valid value looks like; and the ones each provider's strict mode takes. How `parse`
//! checks each is the runtime's.

/// A portable format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
#[allow(
    clippy::exhaustive_enums,
    reason = "the rules stitch-derive and stitch-runtime read and build, released with them at one version: a new variant is a rule each must implement"
)]
pub enum Format {
    Date,
    Time,
    DateTime,
    Duration,
    Uri,
    UriReference,
    UriTemplate,
    Email,
    Hostname,
    Ipv4,
    Ipv6,
    Regex,
    Uuid,
    JsonPointer,
    RelativeJsonPointer,
}

impl Format {
    /// Every portable format.
    pub const ALL: [Format; 15] = [
        Format::Date,
        Format::Time,
        Format::DateTime,
        Format::Duration,
        Format::Uri,
        Format::UriReference,
        Format::UriTemplate,
        Format::Email,
        Format::Hostname,
        Format::Ipv4,
        Format::Ipv6,
        Format::Regex,
        Format::Uuid,
        Format::JsonPointer,
        Format::RelativeJsonPointer,
    ];

    /// The `format` keyword's value.
    pub const fn name(self) -> &'static str {
        match self {
            Format::Date => "date",
            Format::Time => "time",
            Format::DateTime => "date-time",
            Format::Duration => "duration",
            Format::Uri => "uri",
            Format::UriReference => "uri-reference",
            Format::UriTemplate => "uri-template",
            Format::Email => "email",
            Format::Hostname => "hostname",
            Format::Ipv4 => "ipv4",
            Format::Ipv6 => "ipv6",
            Format::Regex => "regex",
            Format::Uuid => "uuid",
            Format::JsonPointer => "json-pointer",
            Format::RelativeJsonPointer => "relative-json-pointer",
        }
    }

    /// What a valid value looks like, for messages.
    pub const fn example(self) -> &'static str {
        match self {
            Format::Date => "a date such as 2026-12-02",
            Format::Time => "a time such as 17:00:00Z",
            Format::DateTime => "an RFC 3339 date-time such as 2026-12-02T17:00:00Z",
            Format::Duration => "an ISO 8601 duration such as P3DT4H",
            Format::Uri => "an absolute URI such as https://example.com/a",
            Format::UriReference => "a URI reference such as /a/b or https://example.com",
            Format::UriTemplate => "a URI template such as /users/{id}",
            Format::Email => "an email address such as name@example.com",
            Format::Hostname => "a host name such as example.com",
            Format::Ipv4 => "an IPv4 address such as 192.0.2.1",
            Format::Ipv6 => "an IPv6 address such as 2001:db8::1",
            Format::Regex => "a regular expression",
            Format::Uuid => "a UUID such as 6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f",
            Format::JsonPointer => "a JSON Pointer such as /a/0",
            Format::RelativeJsonPointer => "a relative JSON Pointer such as 0/a",
        }
    }

    /// The portable format of this name.
    pub const fn named(name: &str) -> Option<Format> {
        let mut i = 0;
        while i < Format::ALL.len() {
            if crate::strings::str_eq(Format::ALL[i].name(), name) {
                return Some(Format::ALL[i]);
            }
            i += 1;
        }
        None
    }
}

/// The names of the portable formats.
pub const PORTABLE_FORMATS: [&str; 15] = {
    let mut names = [""; 15];
    let mut i = 0;
    while i < names.len() {
        names[i] = Format::ALL[i].name();
        i += 1;
    }
    names
};

/// Every format stitch knows: the portable ones, and the others JSON Schema defines (which
/// `require_portable_formats` reports). Any other name is refused by the derive unless the
/// contract allows it (`allow_formats`): a typo (`emial`) would otherwise be advertised and
/// checked by nothing.
pub const KNOWN_FORMATS: [&str; 19] = {
    let mut names = [""; 19];
    let mut i = 0;
    while i < PORTABLE_FORMATS.len() {
        names[i] = PORTABLE_FORMATS[i];
        i += 1;
    }
    let others = ["idn-email", "idn-hostname", "iri", "iri-reference"];
    let mut j = 0;
    while j < others.len() {
        names[i + j] = others[j];
        j += 1;
    }
    names
};

/// The formats OpenAI's strict mode takes.
pub const OPENAI_STRICT_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

/// The formats Anthropic's strict tool use takes (the SDK's `SupportedStringFormats`):
/// OpenAI's and `uri`.
pub const ANTHROPIC_STRICT_FORMATS: &[&str] = &{
    let mut formats = [""; OPENAI_STRICT_FORMATS.len() + 1];
    let mut i = 0;
    while i < OPENAI_STRICT_FORMATS.len() {
        formats[i] = OPENAI_STRICT_FORMATS[i];
        i += 1;
    }
    formats[i] = "uri";
    formats
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_is_found_by_its_name() {
        for format in Format::ALL {
            assert_eq!(Format::named(format.name()), Some(format));
        }
        assert_eq!(Format::named("cuid2"), None);
    }

    #[test]
    fn the_strict_modes_take_portable_formats_only() {
        for name in OPENAI_STRICT_FORMATS.iter().chain(ANTHROPIC_STRICT_FORMATS) {
            assert!(Format::named(name).is_some(), "{name}");
        }
    }
}
