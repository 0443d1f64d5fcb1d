//! A byte sink for compile-time rendering: it counts every byte and writes those that fit, so
//! one rendering routine serves counting a schema and writing it. See `const_text`
//! for what constant evaluation costs and why the sink is written the way it is.

use stitch_rules::json::{escape, plain_run};

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

    /// One byte.
    pub const fn byte(&mut self, b: u8) {
        if self.len < self.capacity {
            self.buf[self.len] = b;
        }
        self.len += 1;
    }

    /// Raw text, written as is. Counting costs no loop; a short text is written by a loop
    /// without calls, a long one by one `copy_from_slice` (the break-even, and why a 500 KB
    /// description needs the copy: `const_text`'s cost model).
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

    /// The inside of a JSON string: `s` escaped, without quotes, by the shared rule
    /// (`stitch_rules::json`): each run of plain bytes copied, each other byte escaped.
    pub const fn escaped(&mut self, s: &str) {
        let bytes = s.as_bytes();
        let count = bytes.len();
        let mut at = 0;
        while at < count {
            let run_end = at + plain_run(bytes, at);
            while at < run_end {
                // `byte`, written out: a call per byte is what constant evaluation is
                // slowest at.
                if self.len < self.capacity {
                    self.buf[self.len] = bytes[at];
                }
                self.len += 1;
                at += 1;
            }
            if at < count {
                let escape = escape(bytes[at]);
                let escaped = escape.as_bytes();
                let mut i = 0;
                while i < escaped.len() {
                    self.byte(escaped[i]);
                    i += 1;
                }
                at += 1;
            }
        }
    }

    /// A JSON string: `s` escaped, in quotes.
    pub const fn string(&mut self, s: &str) {
        self.byte(b'"');
        self.escaped(s);
        self.byte(b'"');
    }

    /// A name as a JSON string: copied when `plain` (`stitch_rules::json::is_plain`), else
    /// escaped.
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

    /// `separator`, then a name inside a JSON string (a list's next item: `" | "` and an
    /// operation's name; `""` for the first): copied when `plain`, else escaped. One call, and
    /// for a plain name one loop, where writing the two apart makes three calls and two
    /// loops: a hint lists every operation that takes its key, so a union writes a name for
    /// each of its fields.
    pub const fn name_after(&mut self, separator: &str, name: &str, plain: bool) {
        if !plain {
            self.raw(separator);
            self.escaped(name);
            return;
        }
        // Slice patterns walk the bytes with no call for a length (see `const_text`).
        let mut at = self.len;
        let mut bytes = separator.as_bytes();
        while let [byte, rest @ ..] = bytes {
            if at < self.capacity {
                self.buf[at] = *byte;
            }
            at += 1;
            bytes = rest;
        }
        bytes = name.as_bytes();
        while let [byte, rest @ ..] = bytes {
            if at < self.capacity {
                self.buf[at] = *byte;
            }
            at += 1;
            bytes = rest;
        }
        self.len = at;
    }

    /// A JSON object key and its colon: `"key":`.
    pub const fn key(&mut self, key: &str) {
        self.byte(b'"');
        self.escaped(key);
        self.raw("\":");
    }
}

#[cfg(test)]
mod tests {
    use super::Sink;

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
    fn a_listed_name_follows_its_separator_escaped_when_not_plain() {
        assert_eq!(
            written(|sink| sink.name_after(" | ", "send", true)),
            " | send"
        );
        assert_eq!(written(|sink| sink.name_after("", "send", true)), "send");
        assert_eq!(
            written(|sink| sink.name_after(", ", "say \"hi\"", false)),
            ", say \\\"hi\\\""
        );
        let mut small = [0u8; 4];
        let mut sink = Sink::writer(&mut small);
        sink.name_after(" | ", "send", true);
        assert_eq!(sink.len(), 7, "what does not fit is counted");
    }

    #[test]
    fn integers_are_written_in_decimal() {
        assert_eq!(written(|sink| sink.uint(0)), "0");
        assert_eq!(written(|sink| sink.uint(u64::MAX)), u64::MAX.to_string());
    }

    #[test]
    fn a_long_text_is_copied_whole_as_a_short_one_is_byte_by_byte() {
        let long = "x".repeat(200);
        assert_eq!(written(|sink| sink.raw(&long)), long);
        assert_eq!(written(|sink| sink.raw("short")), "short");
        let mut small = [0u8; 4];
        let mut sink = Sink::writer(&mut small);
        sink.raw(&long);
        assert_eq!(sink.len(), 200, "what does not fit is counted");
    }
}
