//! How a text stands inside a JSON string, and the hash two texts are compared by. The derive
//! computes these facts of every name and description at expansion, so that constant
//! evaluation copies a text instead of scanning it; the runtime's renderer escapes with the
//! same rule what the derive could not see.

/// How many bytes from `from` on stand for themselves inside a JSON string (no quote,
/// backslash or control character among them). The one place that says which bytes need an
/// escape: a loop without a call, since constant evaluation pays for every call.
pub const fn plain_run(bytes: &[u8], from: usize) -> usize {
    let mut at = from;
    let count = bytes.len();
    while at < count {
        let b = bytes[at];
        if b < 0x20 || b == b'"' || b == b'\\' {
            break;
        }
        at += 1;
    }
    at - from
}

/// Whether a text needs no escape inside a JSON string.
pub const fn is_plain(text: &str) -> bool {
    plain_run(text.as_bytes(), 0) == text.len()
}

/// The escape of one byte that does not stand for itself inside a JSON string: `\"`, `\\`,
/// `\n`, `\r`, `\t`, or `\u00xx` (lowercase hex) for the other control characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Escape {
    bytes: [u8; 6],
    len: usize,
}

impl Escape {
    /// The escape's bytes.
    pub const fn as_bytes(&self) -> &[u8] {
        self.bytes.split_at(self.len).0
    }
}

/// The escape of `byte` (which [`plain_run`] stops at); a plain byte is its own escape.
pub const fn escape(byte: u8) -> Escape {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    const fn two(second: u8) -> Escape {
        Escape {
            bytes: [b'\\', second, 0, 0, 0, 0],
            len: 2,
        }
    }
    match byte {
        b'"' => two(b'"'),
        b'\\' => two(b'\\'),
        b'\n' => two(b'n'),
        b'\r' => two(b'r'),
        b'\t' => two(b't'),
        0..=0x1f => Escape {
            bytes: [
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[(byte >> 4) as usize],
                HEX[(byte & 0xf) as usize],
            ],
            len: 6,
        },
        _ => Escape {
            bytes: [byte, 0, 0, 0, 0, 0],
            len: 1,
        },
    }
}

/// A text escaped for a JSON string, without quotes (what the derive writes beside a
/// description, so that rendering copies it whole).
pub fn escaped(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len() + 8);
    let mut at = 0;
    while at < bytes.len() {
        let run = plain_run(bytes, at);
        out.extend_from_slice(&bytes[at..at + run]);
        at += run;
        if at < bytes.len() {
            out.extend_from_slice(escape(bytes[at]).as_bytes());
            at += 1;
        }
    }
    // Only ASCII bytes are escaped, so every multi-byte character is copied whole.
    String::from_utf8(out).expect("escaping keeps UTF-8")
}

/// The 64-bit FNV-1a hash of a text: two descriptions are the same when their lengths and
/// hashes are (two different texts of one length collide with a chance of 2⁻⁶⁴).
pub const fn fnv1a(text: &str) -> u64 {
    fnv1a_bytes(text.as_bytes())
}

/// The 64-bit FNV-1a hash of bytes ([`fnv1a`] of a text's).
pub const fn fnv1a_bytes(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    let count = bytes.len();
    while i < count {
        // The product is taken in `u128` and truncated: the same as `wrapping_mul`, without
        // a call per byte in constant evaluation.
        hash = ((hash ^ bytes[i] as u64) as u128 * 0x0000_0100_0000_01b3) as u64;
        i += 1;
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_are_what_a_json_parser_reads_back() {
        let text = "a\"b\\c\nd\re\tf\u{1}g\u{1f}é—";
        let escaped = escaped(text);
        assert_eq!(escaped, "a\\\"b\\\\c\\nd\\re\\tf\\u0001g\\u001fé—");
        let quoted = format!("\"{escaped}\"");
        assert_eq!(serde_json::from_str::<String>(&quoted).unwrap(), text);
    }

    #[test]
    fn a_text_is_plain_exactly_when_escaping_leaves_it_alone() {
        for text in [
            "",
            "plain text — é",
            "quote\"",
            "back\\slash",
            "line\nbreak",
            "\u{7f}",
        ] {
            assert_eq!(is_plain(text), escaped(text) == text, "{text:?}");
        }
        assert_eq!(plain_run(b"ab\"cd", 0), 2);
        assert_eq!(plain_run(b"ab\"cd", 3), 2);
    }

    #[test]
    fn the_hash_is_fnv1a() {
        assert_eq!(fnv1a(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a("a"), 0xaf63_dc4c_8601_ec8c);
        assert_ne!(fnv1a("ab"), fnv1a("ba"));
    }
}
