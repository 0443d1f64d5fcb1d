//! What a description says of itself: its summary line, which names an operation in its
//! tag's description.

/// The first line of a description (up to a line break: `\n`, `\r\n` or `\r`), without its
/// final periods and spaces: how the tag's description names an operation. `None` when
/// nothing is left.
pub const fn summary(description: &str) -> Option<&str> {
    let bytes = description.as_bytes();
    let mut end = 0;
    while end < bytes.len() && bytes[end] != b'\n' && bytes[end] != b'\r' {
        end += 1;
    }
    while end > 0 && (bytes[end - 1] == b'.' || bytes[end - 1] == b' ') {
        end -= 1;
    }
    if end == 0 {
        return None;
    }
    // The cut is at an ASCII byte, so it falls on a character boundary.
    match core::str::from_utf8(bytes.split_at(end).0) {
        Ok(line) => Some(line),
        Err(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::summary;

    #[test]
    fn a_summary_is_the_first_line_without_its_period() {
        assert_eq!(
            summary("Replace the text.\nMore."),
            Some("Replace the text")
        );
        assert_eq!(summary("No period"), Some("No period"));
        assert_eq!(summary("Ends with dots... "), Some("Ends with dots"));
        assert_eq!(summary("é—ü."), Some("é—ü"));
        assert_eq!(summary(""), None);
        assert_eq!(summary("..."), None);
        assert_eq!(summary("\nSecond line"), None);
    }

    #[test]
    fn every_line_break_ends_the_first_line() {
        // `description = "Set.\r\nMore"` once gave `Set` natively and `Set.\r` in constant
        // evaluation: one rule now, whichever side reads it.
        assert_eq!(summary("Set.\r\nMore"), Some("Set"));
        assert_eq!(summary("Set.\rMore"), Some("Set"));
        assert_eq!(summary("Set.\nMore"), Some("Set"));
        const AT_COMPILE_TIME: Option<&str> = summary("Set.\r\nMore");
        assert_eq!(AT_COMPILE_TIME, Some("Set"));
    }
}
