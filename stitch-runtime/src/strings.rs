//! Strings in constant evaluation: equality and membership, the FNV-1a hash, whether a text needs a JSON
//! escape, and a description's summary line. The derive computes the same facts natively
//! (`stitch-derive/src/doc.rs`); tests tie the two together.

/// Whether two strings are equal (usable in `const fn`).
pub const fn str_eq(a: &str, b: &str) -> bool {
    bytes_eq(a.as_bytes(), b.as_bytes())
}

/// Whether `list` holds `text` (usable in `const fn`).
pub const fn listed(text: &str, list: &[&str]) -> bool {
    let mut i = 0;
    let count = list.len();
    while i < count {
        if str_eq(list[i], text) {
            return true;
        }
        i += 1;
    }
    false
}

/// Whether two optional strings are equal.
pub const fn opt_str_eq(a: Option<&str>, b: Option<&str>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => str_eq(a, b),
        (None, None) => true,
        _ => false,
    }
}

const fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    let count = a.len();
    while i < count {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether a text needs no JSON escape (checked once per name, so that rendering, which
/// runs three times per contract, can copy the name instead of scanning it).
pub const fn is_plain(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut i = 0;
    let byte_count = bytes.len();
    while i < byte_count {
        // The same test as in `Sink::escaped`; written out, since a call per byte is what
        // constant evaluation is slowest at.
        let b = bytes[i];
        if b < 0x20 || b == b'"' || b == b'\\' {
            return false;
        }
        i += 1;
    }
    true
}

/// FNV-1a hash of a string, for the key tables built in constant evaluation.
pub const fn hash(s: &str) -> u64 {
    let bytes = s.as_bytes();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    let byte_count = bytes.len();
    while i < byte_count {
        // The product is taken in `u128` and truncated: the same as `wrapping_mul`, without
        // a call per byte in constant evaluation.
        h = ((h ^ bytes[i] as u64) as u128 * 0x0000_0100_0000_01b3) as u64;
        i += 1;
    }
    h
}

/// The first line of a text (up to the first newline), with a trailing period removed.
pub const fn summary(text: &str) -> &str {
    let bytes = text.as_bytes();
    let mut end = 0;
    while end < bytes.len() && bytes[end] != b'\n' {
        end += 1;
    }
    while end > 0 && (bytes[end - 1] == b'.' || bytes[end - 1] == b' ') {
        end -= 1;
    }
    match core::str::from_utf8(bytes.split_at(end).0) {
        Ok(s) => s,
        Err(_) => text,
    }
}

#[cfg(test)]
mod tests {
    use super::summary;

    #[test]
    fn a_summary_is_the_first_line_without_its_period() {
        assert_eq!(summary("Replace the text.\nMore."), "Replace the text");
        assert_eq!(summary("No period"), "No period");
        assert_eq!(summary(""), "");
    }
}
