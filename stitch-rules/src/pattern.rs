//! `pattern`, as JSON Schema means it: an ECMA-262 regular expression (read in Unicode mode, as
//! validators and clients read it), evaluated by `parse` with the `regex` crate. A pattern is
//! accepted only when an ECMA-262 engine (regress, in Unicode mode) compiles it and the `regex`
//! crate parses it; then one walk of it decides both what the derive refuses and what the
//! runtime rewrites:
//!
//! - constructs only one of the two dialects knows, or that they read differently with no
//!   equivalent, are refused, naming the construct (the derive reports it at the attribute);
//! - constructs whose meaning differs but has an exact equivalent are rewritten into the
//!   `regex` crate's syntax with their ECMA-262 meaning: in the `regex` crate `\d`, `\w`, `\s`
//!   and `\b` are Unicode-aware and `.` stops only at `\n`, where ECMA-262's `\d` and `\w` are
//!   ASCII, `\s` is its own list of white space and line terminators, `\b` an ASCII word
//!   boundary, and `.` stops at every line terminator.
//!
//! So `parse` accepts exactly what a client reading the advertised schema accepts.

use std::borrow::Cow;
use std::fmt;

use regex_syntax::ast::{
    self, AssertionKind, Ast, ClassPerl, ClassPerlKind, ClassSet, ClassSetBinaryOp, ClassSetItem,
    GroupKind, HexLiteralKind, LiteralKind, SpecialLiteralKind,
};

/// ECMA-262 `\s`: `WhiteSpace` (tab, vertical tab, form feed, space, no-break space, every
/// `Zs` character, the byte order mark) and `LineTerminator`, as a `regex` class body.
const ECMA_SPACE: &str =
    r"\t\n\x0B\x0C\r \xA0\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}";

/// ECMA-262 `.`: anything but a line terminator.
const ECMA_DOT: &str = r"[^\n\r\x{2028}\x{2029}]";

/// Why a pattern cannot be advertised.
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(
    clippy::exhaustive_enums,
    reason = "the rules stitch-derive and stitch-runtime read and build, released with them at one version: a new variant is a rule each must implement"
)]
pub enum PatternError {
    /// An ECMA-262 engine does not compile it: clients could not.
    Ecma(String),
    /// The `regex` crate does not parse it.
    Syntax(String),
    /// It uses a construct the two dialects read differently (named here).
    Reads(String),
    /// The `regex` crate compiles it past the size limit `parse` compiles patterns within
    /// (in bytes).
    TooLarge(usize),
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PatternError::Ecma(error) => write!(
                f,
                "the pattern does not compile as ECMA-262 reads it (in Unicode mode, as JSON \
                 Schema validators and clients do): {error}"
            ),
            PatternError::Syntax(error) => write!(f, "the pattern does not compile:\n{error}"),
            PatternError::TooLarge(limit) => write!(
                f,
                "the pattern compiles to more than the {limit} bytes `parse` compiles a pattern \
                 within (the `regex` crate's size limit), so it could not be checked: write it \
                 with smaller repetition counts (`{{1,100}}`, not `{{1,100000}}`), or check the \
                 length with `max_length`"
            ),
            PatternError::Reads(why) => write!(
                f,
                "the pattern uses {why}; a pattern must read the same in ECMA-262 (JSON \
                 Schema's regex dialect, which clients and models read) and in the `regex` \
                 crate (which `parse` uses)"
            ),
        }
    }
}

/// The pattern in the `regex` crate's syntax with its ECMA-262 meaning, or why it cannot be
/// advertised.
pub fn to_regex_syntax(pattern: &str) -> Result<Cow<'_, str>, PatternError> {
    let parsed = ast::parse::Parser::new()
        .parse(pattern)
        .map_err(|error| PatternError::Syntax(error.to_string()))?;
    let reading = Reading {
        pattern,
        class_depth: 0,
        rewrites: Vec::new(),
    };
    let mut rewrites = ast::visit(&parsed, reading).map_err(PatternError::Reads)?;
    // What the walk does not name, an ECMA-262 engine judges.
    if let Err(error) = regress::Regex::with_flags(pattern, "u") {
        return Err(PatternError::Ecma(error.to_string()));
    }
    if rewrites.is_empty() {
        return Ok(Cow::Borrowed(pattern));
    }
    rewrites.sort_by_key(|(span, _)| span.start.offset);
    let mut translated = String::with_capacity(pattern.len() + 16 * rewrites.len());
    let mut copied = 0;
    for (span, replacement) in rewrites {
        translated.push_str(&pattern[copied..span.start.offset]);
        translated.push_str(&replacement);
        copied = span.end.offset;
    }
    translated.push_str(&pattern[copied..]);
    Ok(Cow::Owned(translated))
}

/// How large a compiled pattern may grow: the `regex` crate's default, which `parse` compiles
/// within.
pub const SIZE_LIMIT: usize = 10 * (1 << 20);

/// The pattern compiled as `parse` matches with it: in the `regex` crate's syntax with its
/// ECMA-262 meaning ([`to_regex_syntax`]), within [`SIZE_LIMIT`]. What the derive checks of a
/// pattern and what `parse` compiles are this one function.
pub fn compiled(pattern: &str) -> Result<regex::Regex, PatternError> {
    let translated = to_regex_syntax(pattern)?;
    regex::RegexBuilder::new(&translated)
        .size_limit(SIZE_LIMIT)
        .build()
        .map_err(|error| match error {
            regex::Error::CompiledTooBig(limit) => PatternError::TooLarge(limit),
            other => PatternError::Syntax(other.to_string()),
        })
}

/// The walk: refusals end it, rewrites are collected.
struct Reading<'p> {
    pattern: &'p str,
    class_depth: usize,
    rewrites: Vec<(ast::Span, String)>,
}

impl Reading<'_> {
    fn literal(&self, literal: &ast::Literal) -> Result<(), String> {
        match &literal.kind {
            LiteralKind::Verbatim
            | LiteralKind::HexFixed(HexLiteralKind::X | HexLiteralKind::UnicodeShort)
            | LiteralKind::HexBrace(HexLiteralKind::UnicodeShort) => Ok(()),
            LiteralKind::Special(SpecialLiteralKind::Bell) => Err("`\\a`".to_owned()),
            LiteralKind::Special(SpecialLiteralKind::Space) => Err("`\\ `".to_owned()),
            LiteralKind::Special(_) => Ok(()),
            LiteralKind::HexFixed(_) | LiteralKind::HexBrace(_) => Err(format!(
                "`{}`, a hex escape ECMA-262 does not read (write `\\uHHHH` or `\\u{{H...}}`)",
                &self.pattern[literal.span.start.offset..literal.span.end.offset]
            )),
            LiteralKind::Octal => Err("an octal escape".to_owned()),
            LiteralKind::Meta | LiteralKind::Superfluous => {
                let c = literal.c;
                let ecma_escape =
                    "^$\\.*+?()[]{}|/".contains(c) || (c == '-' && self.class_depth > 0);
                if ecma_escape {
                    Ok(())
                } else {
                    Err(format!(
                        "`\\{c}`, an escape ECMA-262 refuses in Unicode mode (write `{c}`)"
                    ))
                }
            }
        }
    }

    /// `\d`, `\w`, `\s` (and their negations) with ECMA-262's meaning.
    fn perl_class(&mut self, class: &ClassPerl) {
        let body = match class.kind {
            ClassPerlKind::Digit => "0-9",
            ClassPerlKind::Word => "0-9A-Za-z_",
            ClassPerlKind::Space => ECMA_SPACE,
        };
        // A bracketed class is valid inside another one too (`[a\d]` → `[a[0-9]]`).
        let negation = if class.negated { "^" } else { "" };
        self.rewrites
            .push((class.span, format!("[{negation}{body}]")));
    }

    /// Entering a bracketed class: `[]...]` and `[^]...]` hold a `]` in the `regex` crate and
    /// are an empty class in ECMA-262.
    fn bracketed(&mut self, class: &ast::ClassBracketed) -> Result<(), String> {
        self.class_depth += 1;
        let body = &self.pattern[class.span.start.offset + 1..];
        let body = if class.negated { &body[1..] } else { body };
        if body.starts_with(']') && !matches!(class.kind, ClassSet::BinaryOp(_)) {
            return Err(
                "a class that starts with `]`, which ECMA-262 reads as an empty class (escape \
                 it: `[\\]...]`)"
                    .to_owned(),
            );
        }
        Ok(())
    }
}

impl ast::Visitor for Reading<'_> {
    type Output = Vec<(ast::Span, String)>;
    type Err = String;

    fn finish(self) -> Result<Self::Output, String> {
        Ok(self.rewrites)
    }

    fn visit_pre(&mut self, node: &Ast) -> Result<(), String> {
        match node {
            Ast::Flags(_) => Err("inline flags (`(?i)` and the like)".to_owned()),
            Ast::Group(group) => match &group.kind {
                GroupKind::CaptureName {
                    starts_with_p: true,
                    ..
                } => Err("`(?P<name>...)` (write `(?<name>...)`)".to_owned()),
                GroupKind::NonCapturing(flags) if !flags.items.is_empty() => {
                    Err("inline flags (`(?i:...)` and the like)".to_owned())
                }
                _ => Ok(()),
            },
            Ast::Assertion(assertion) => match assertion.kind {
                AssertionKind::StartLine | AssertionKind::EndLine => Ok(()),
                AssertionKind::WordBoundary => {
                    self.rewrites.push((assertion.span, r"(?-u:\b)".to_owned()));
                    Ok(())
                }
                AssertionKind::NotWordBoundary => {
                    self.rewrites.push((assertion.span, r"(?-u:\B)".to_owned()));
                    Ok(())
                }
                AssertionKind::StartText => Err("`\\A` (write `^`)".to_owned()),
                AssertionKind::EndText => Err("`\\z` (write `$`)".to_owned()),
                _ => Err("a word-boundary form only the `regex` crate knows (write `\\b`)".into()),
            },
            Ast::ClassUnicode(class) if one_letter(class) => {
                Err("a one-letter Unicode class such as `\\pL` (write `\\p{L}`)".to_owned())
            }
            Ast::ClassPerl(class) => {
                self.perl_class(class);
                Ok(())
            }
            Ast::Dot(span) => {
                self.rewrites.push((**span, ECMA_DOT.to_owned()));
                Ok(())
            }
            Ast::Literal(literal) => self.literal(literal),
            Ast::ClassBracketed(class) => self.bracketed(class),
            _ => Ok(()),
        }
    }

    fn visit_class_set_item_pre(&mut self, item: &ClassSetItem) -> Result<(), String> {
        match item {
            ClassSetItem::Ascii(_) => {
                Err("a POSIX class such as `[[:alpha:]]`, which ECMA-262 does not read".into())
            }
            ClassSetItem::Bracketed(class) => {
                if self.class_depth > 0 {
                    return Err(
                        "a class inside a class (`[a[b]]`), which ECMA-262 reads as the \
                         characters `[` and `]` (escape them: `[a\\[b\\]]`)"
                            .to_owned(),
                    );
                }
                self.bracketed(class)
            }
            ClassSetItem::Unicode(class) if one_letter(class) => {
                Err("a one-letter Unicode class such as `\\pL` (write `\\p{L}`)".to_owned())
            }
            ClassSetItem::Perl(class) => {
                self.perl_class(class);
                Ok(())
            }
            ClassSetItem::Literal(literal) => self.literal(literal),
            _ => Ok(()),
        }
    }

    fn visit_class_set_item_post(&mut self, item: &ClassSetItem) -> Result<(), String> {
        if let ClassSetItem::Bracketed(_) = item {
            self.class_depth -= 1;
        }
        Ok(())
    }

    fn visit_class_set_binary_op_pre(&mut self, _: &ClassSetBinaryOp) -> Result<(), String> {
        Err("a class set operation (`&&`, `--` or `~~`), which ECMA-262 reads as characters".into())
    }

    fn visit_post(&mut self, node: &Ast) -> Result<(), String> {
        if let Ast::ClassBracketed(_) = node {
            self.class_depth -= 1;
        }
        Ok(())
    }
}

/// `\pL`: ECMA-262 reads only the braced form.
fn one_letter(class: &ast::ClassUnicode) -> bool {
    matches!(class.kind, ast::ClassUnicodeKind::OneLetter(_))
}

#[cfg(test)]
mod tests {
    use super::{PatternError, to_regex_syntax};

    #[test]
    fn classes_dots_and_boundaries_take_their_ecma_meaning() {
        let cases = [
            (r"^\d+$", r"^[0-9]+$"),
            (r"[\w-]", r"[[0-9A-Za-z_]-]"),
            (r"[^\D]", r"[^[^0-9]]"),
            (r"a.b", r"a[^\n\r\x{2028}\x{2029}]b"),
            (r"[.]", r"[.]"),
            (r"\bx\B", r"(?-u:\b)x(?-u:\B)"),
            (r"^med_[a-z0-9]{8,}$", r"^med_[a-z0-9]{8,}$"),
        ];
        for (ecma, expected) in cases {
            assert_eq!(to_regex_syntax(ecma).unwrap(), expected, "{ecma}");
        }
        assert!(to_regex_syntax(r"\s").unwrap().starts_with(r"[\t\n"));
    }

    #[test]
    fn patterns_both_dialects_read_alike_pass() {
        for pattern in [
            r"^med_[a-z0-9]{8,}$",
            r"^\d+(\.\d{1,2})?$",
            r"[\w.-]+@[\w-]+\.[a-z]{2,}",
            r"^(?:a|b)(?<tail>c)?\s\S\bx\B$",
            r"[\-\]\\/]\/\u00e9\u{1F600}\x41",
            r"\p{L}+\P{Lu}",
            r"[^a-z]",
        ] {
            assert!(to_regex_syntax(pattern).is_ok(), "{pattern}");
        }
    }

    #[test]
    fn patterns_the_dialects_read_differently_are_refused() {
        for pattern in [
            r"(?i)abc",
            r"(?i:abc)",
            r"(?P<name>a)",
            r"\Aabc\z",
            r"\pL",
            r"[[:alpha:]]",
            r"[a[bc]]",
            r"[a&&b]",
            r"[a--b]",
            r"[]a]",
            r"[^]a]",
            r"\x{41}",
            r"\U00000041",
            r"\#",
            r"a\-b",
            r"\a",
            r"\<word\>",
            r"\b{start}x",
        ] {
            assert!(
                matches!(to_regex_syntax(pattern), Err(PatternError::Reads(_))),
                "{pattern}"
            );
        }
        for pattern in [
            r"^a{1, 3}$",
            r"^a}$",
            r"^a]$",
            r"^\p{Greek}+$",
            r"^\p{letter}$",
            r"^a{2}{3}$",
            r"^a++$",
            r"^*a$",
        ] {
            assert!(
                matches!(to_regex_syntax(pattern), Err(PatternError::Ecma(_))),
                "{pattern}: an ECMA-262 engine refuses it"
            );
        }
        assert!(to_regex_syntax(r"^\p{Script=Greek}+$").is_ok());
        let unclosed = to_regex_syntax("(unclosed").unwrap_err();
        assert!(matches!(unclosed, PatternError::Syntax(_)));
        assert!(
            unclosed
                .to_string()
                .starts_with("the pattern does not compile:\n")
        );
    }
}
