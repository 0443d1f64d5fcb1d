//! The tool-name rule, `^[a-zA-Z0-9_-]{1,64}$` (OpenAI's, the strictest of the clients'): the
//! derive refuses a name that breaks it at compile time, the guard at run time.

/// The rule, as a pattern.
pub const NAME_PATTERN: &str = "^[a-zA-Z0-9_-]{1,64}$";

/// How a tool name breaks the rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(
    clippy::exhaustive_enums,
    reason = "the rules stitch-derive and stitch-runtime read and build, released with them at one version: a new variant is a rule each must implement"
)]
pub enum NameProblem {
    /// Empty, or longer than 64 bytes.
    Length,
    /// A character other than an ASCII letter, digit, `_` or `-`, at this byte offset.
    Character {
        /// Where the first such character starts.
        at: usize,
    },
}

impl NameProblem {
    /// What the rule requires, as a message says it.
    pub const fn requirement(self) -> &'static str {
        match self {
            NameProblem::Length => "must be 1 to 64 characters long",
            NameProblem::Character { .. } => "may only contain ASCII letters, digits, `_` and `-`",
        }
    }
}

/// How `name` breaks the rule, if it does (its length first, then its characters).
pub const fn name_problem(name: &str) -> Option<NameProblem> {
    let bytes = name.as_bytes();
    if bytes.is_empty() || bytes.len() > 64 {
        return Some(NameProblem::Length);
    }
    let mut at = 0;
    let count = bytes.len();
    while at < count {
        let b = bytes[at];
        if !(b.is_ascii_alphanumeric() || b == b'_' || b == b'-') {
            return Some(NameProblem::Character { at });
        }
        at += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_judged_by_the_rule() {
        for good in ["broadcast_patch", "a", "A-Z_0-9", &"x".repeat(64)] {
            assert_eq!(name_problem(good), None, "{good}");
        }
        assert_eq!(name_problem(""), Some(NameProblem::Length));
        assert_eq!(name_problem(&"x".repeat(65)), Some(NameProblem::Length));
        assert_eq!(
            name_problem("broadcast patch!"),
            Some(NameProblem::Character { at: 9 })
        );
        assert_eq!(
            name_problem("naïve.tool"),
            Some(NameProblem::Character { at: 2 })
        );
        assert_eq!(
            name_problem("dotted.name"),
            Some(NameProblem::Character { at: 6 })
        );
    }

    #[test]
    fn the_rule_is_its_pattern() {
        // Every byte that may start a character, alone, against the pattern's class.
        for byte in 0u8..=0x7f {
            let name = (byte as char).to_string();
            let in_class = byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'-';
            assert_eq!(name_problem(&name).is_none(), in_class, "{name:?}");
        }
        assert!(NAME_PATTERN.contains("{1,64}"));
    }
}
