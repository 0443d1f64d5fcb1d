//! Text of bounded length built without a heap, so that constant evaluation can build it: the
//! messages of compile errors, and the parts of a guard finding.

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

    /// The text with `n` appended in decimal.
    pub const fn push_u64(self, mut n: u64) -> Self {
        let mut digits = [0u8; 20];
        let mut at = digits.len();
        loop {
            at -= 1;
            digits[at] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        match core::str::from_utf8(digits.split_at(at).1) {
            Ok(text) => self.push(text),
            Err(_) => self,
        }
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
        assert_eq!(
            Text::<24>::new().push_u64(0).push_u64(u64::MAX).as_str(),
            "018446744073709551615"
        );
    }
}
