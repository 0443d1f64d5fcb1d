//! Text in constant evaluation: string comparison, hashing, and a byte sink that either
//! counts or writes, so one rendering routine serves both passes of compile-time rendering
//! (count the length, then fill a `[u8; LEN]`).

/// Whether two strings are equal (usable in `const fn`).
pub const fn str_eq(a: &str, b: &str) -> bool {
    bytes_eq(a.as_bytes(), b.as_bytes())
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

/// A byte sink: it counts every byte, and writes those that fit in its buffer. With no
/// buffer it only counts; the text in the buffer is whole when [`len`](Sink::len) is at most
/// the buffer's length. (Whether a write fits is the one test per write either way, so a
/// sink that may overflow costs no more than one that only counts or only writes.)
pub struct Sink<'a> {
    buf: &'a mut [u8],
    len: usize,
    capacity: usize,
}

impl<'a> Sink<'a> {
    /// A sink that only counts.
    pub const fn counter(empty: &'a mut [u8]) -> Sink<'a> {
        Sink::writer(empty)
    }

    /// A sink that writes into `buf` what fits in it, and counts the rest.
    pub const fn writer(buf: &'a mut [u8]) -> Sink<'a> {
        let capacity = buf.len();
        Sink {
            buf,
            len: 0,
            capacity,
        }
    }

    /// Bytes counted or written so far.
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing has been counted or written.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// One byte.
    pub const fn byte(&mut self, b: u8) {
        if self.len < self.capacity {
            self.buf[self.len] = b;
        }
        self.len += 1;
    }

    /// Raw text, written as is. Counting costs no loop; a short text is written by a loop
    /// without calls, a long one by one `copy_from_slice` (a single step for the interpreter,
    /// where a byte loop costs several per byte: a 500 KB description would exceed the
    /// budget of a constant's evaluation).
    pub const fn raw(&mut self, s: &str) {
        const SHORT: usize = 48;
        let bytes = s.as_bytes();
        let count = bytes.len();
        let start = self.len;
        if start + count <= self.capacity {
            if count > SHORT {
                let (_, rest) = self.buf.split_at_mut(start);
                rest.split_at_mut(count).0.copy_from_slice(bytes);
            } else {
                let mut i = 0;
                while i < count {
                    self.buf[start + i] = bytes[i];
                    i += 1;
                }
            }
        }
        self.len += count;
    }

    /// An unsigned integer in decimal.
    pub const fn uint(&mut self, mut n: u64) {
        let mut digits = [0u8; 20];
        let mut count = 0;
        loop {
            digits[count] = b'0' + (n % 10) as u8;
            count += 1;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        while count > 0 {
            count -= 1;
            self.byte(digits[count]);
        }
    }

    /// The inside of a JSON string: `s` escaped, without quotes.
    pub const fn escaped(&mut self, s: &str) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let bytes = s.as_bytes();
        let count = bytes.len();
        let mut i = 0;
        while i < count {
            let b = bytes[i];
            if b >= 0x20 && b != b'"' && b != b'\\' {
                // The common case, without a call (see `is_plain`).
                if self.len < self.capacity {
                    self.buf[self.len] = b;
                }
                self.len += 1;
                i += 1;
                continue;
            }
            match b {
                b'"' => self.raw("\\\""),
                b'\\' => self.raw("\\\\"),
                b'\n' => self.raw("\\n"),
                b'\r' => self.raw("\\r"),
                b'\t' => self.raw("\\t"),
                0..=0x1f => {
                    self.raw("\\u00");
                    self.byte(HEX[(b >> 4) as usize]);
                    self.byte(HEX[(b & 0xf) as usize]);
                }
                _ => self.byte(b),
            }
            i += 1;
        }
    }

    /// A JSON string: `s` escaped, in quotes.
    pub const fn string(&mut self, s: &str) {
        self.byte(b'"');
        self.escaped(s);
        self.byte(b'"');
    }

    /// A name as a JSON string: copied when `plain` ([`is_plain`]), else escaped.
    pub const fn name(&mut self, name: &str, plain: bool) {
        if plain {
            self.quoted_plain(name, false);
        } else {
            self.string(name);
        }
    }

    /// A name as a JSON object key, with its colon.
    pub const fn name_key(&mut self, name: &str, plain: bool) {
        if plain {
            self.quoted_plain(name, true);
        } else {
            self.string(name);
            self.byte(b':');
        }
    }

    /// `"text"`, and a colon after it when `colon`, for a text that needs no escape: one
    /// call where writing the quotes and the text separately would make four.
    const fn quoted_plain(&mut self, text: &str, colon: bool) {
        let bytes = text.as_bytes();
        let count = bytes.len();
        let start = self.len;
        let end = start + count + 2 + colon as usize;
        if end <= self.capacity {
            self.buf[start] = b'"';
            let mut i = 0;
            while i < count {
                self.buf[start + 1 + i] = bytes[i];
                i += 1;
            }
            self.buf[start + 1 + count] = b'"';
            if colon {
                self.buf[start + 2 + count] = b':';
            }
        }
        self.len = end;
    }

    /// A name inside a JSON string (in a description): copied when `plain`, else escaped.
    pub const fn name_inside(&mut self, name: &str, plain: bool) {
        if plain {
            self.raw(name);
        } else {
            self.escaped(name);
        }
    }

    /// A JSON object key and its colon: `"key":`.
    pub const fn key(&mut self, key: &str) {
        self.byte(b'"');
        self.escaped(key);
        self.raw("\":");
    }
}

/// Text of bounded length built in constant evaluation (no allocation): compile-error
/// messages and the parts of a guard finding. Text past the capacity is cut on a character
/// boundary, and the cut is marked with `…`.
#[derive(Clone, Copy)]
pub struct Text<const N: usize> {
    buf: [u8; N],
    len: usize,
    cut: bool,
}

/// A compile-error message.
pub type Message = Text<1024>;

/// What marks a cut.
const ELLIPSIS: &str = "…";

impl<const N: usize> Text<N> {
    /// Empty text.
    pub const fn new() -> Self {
        Text {
            buf: [0; N],
            len: 0,
            cut: false,
        }
    }

    /// The text with `s` appended.
    pub const fn push(mut self, s: &str) -> Self {
        self.push_str(s);
        self
    }

    /// Appends `s`; what does not fit is cut, and the cut marked.
    pub const fn push_str(&mut self, s: &str) {
        if self.cut {
            return;
        }
        let bytes = s.as_bytes();
        let fits = self.len + bytes.len() <= N;
        let end = if fits {
            self.len + bytes.len()
        } else {
            N.saturating_sub(ELLIPSIS.len())
        };
        let mut i = 0;
        while self.len < end && i < bytes.len() {
            self.buf[self.len] = bytes[i];
            self.len += 1;
            i += 1;
        }
        if fits {
            return;
        }
        // Back to a character boundary at most `end` long (the byte after the kept text must
        // not continue a character), then the mark.
        let mut next = if self.len > end {
            self.len = end;
            self.buf[end]
        } else if i < bytes.len() {
            bytes[i]
        } else {
            0
        };
        while self.len > 0 && (next & 0xC0) == 0x80 {
            self.len -= 1;
            next = self.buf[self.len];
        }
        let mark = ELLIPSIS.as_bytes();
        let mut j = 0;
        while j < mark.len() && self.len < N {
            self.buf[self.len] = mark[j];
            self.len += 1;
            j += 1;
        }
        self.cut = true;
    }

    /// The text.
    pub const fn as_str(&self) -> &str {
        match core::str::from_utf8(self.buf.split_at(self.len).0) {
            Ok(s) => s,
            Err(_) => "",
        }
    }

    /// Whether the text is empty.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Fails constant evaluation (a compile error) with this text.
    pub const fn fail(&self) -> ! {
        panic!("{}", self.as_str())
    }
}

impl<const N: usize> Default for Text<N> {
    fn default() -> Self {
        Text::new()
    }
}

impl<const N: usize> core::fmt::Debug for Text<N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        core::fmt::Debug::fmt(self.as_str(), f)
    }
}

impl<const N: usize> PartialEq for Text<N> {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl<const N: usize> Eq for Text<N> {}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(write: impl Fn(&mut Sink<'_>)) -> String {
        let mut counter = Sink::counter(&mut []);
        write(&mut counter);
        let mut buf = vec![0; counter.len()];
        write(&mut Sink::writer(&mut buf));
        String::from_utf8(buf).unwrap()
    }

    #[test]
    fn strings_are_escaped_as_json() {
        let text = "a\"b\\c\nd\u{1}é—";
        let out = written(|sink| sink.string(text));
        assert_eq!(serde_json::from_str::<String>(&out).unwrap(), text);
        assert_eq!(out, "\"a\\\"b\\\\c\\nd\\u0001é—\"");
    }

    #[test]
    fn integers_are_written_in_decimal() {
        assert_eq!(written(|sink| sink.uint(0)), "0");
        assert_eq!(written(|sink| sink.uint(u64::MAX)), u64::MAX.to_string());
    }

    #[test]
    fn a_summary_is_the_first_line_without_its_period() {
        assert_eq!(summary("Replace the text.\nMore."), "Replace the text");
        assert_eq!(summary("No period"), "No period");
        assert_eq!(summary(""), "");
    }

    #[test]
    fn a_message_is_cut_on_a_character_boundary_and_marked() {
        let long = "é".repeat(600);
        let message = Message::new().push("ab").push(&long).push("never shown");
        let text = message.as_str();
        assert!(text.len() <= 1024);
        assert!(text.ends_with('…'), "{text}");
        assert!(text.starts_with("abé"));
        let short = Text::<8>::new().push("abcdefgh");
        assert_eq!(
            short.as_str(),
            "abcdefgh",
            "a text that fits exactly is not cut"
        );
        assert_eq!(Text::<8>::new().push("abcdefghi").as_str(), "abcde…");
    }
}
