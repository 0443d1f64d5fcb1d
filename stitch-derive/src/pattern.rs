//! `pattern` at compile time: a pattern must compile with the `regex` crate (which `parse`
//! evaluates it with) and read the same in ECMA-262 in Unicode mode (what JSON Schema
//! validators, clients and models read). Constructs only one dialect knows, or that the two
//! read differently, are refused here, naming the construct; the differences in meaning that
//! have an exact equivalent (`\d`, `\w`, `\s`, `\b`, `.`) are rewritten by the runtime instead.

use regex_syntax::ast::{
    self, AssertionKind, Ast, ClassSet, ClassSetBinaryOp, ClassSetItem, GroupKind, HexLiteralKind,
    LiteralKind, SpecialLiteralKind,
};

/// Checks a pattern; the error says what to write instead.
pub fn check_pattern(pattern: &str) -> Result<(), String> {
    let parsed = ast::parse::Parser::new()
        .parse(pattern)
        .map_err(|error| format!("the pattern does not compile:\n{error}"))?;
    let refusal = ast::visit(
        &parsed,
        Dialects {
            pattern,
            class_depth: 0,
        },
    );
    refusal.map_err(|why| {
        format!(
            "the pattern uses {why}; a pattern must read the same in ECMA-262 (JSON Schema's \
             regex dialect, which clients and models read) and in the `regex` crate (which \
             `parse` uses)"
        )
    })
}

struct Dialects<'p> {
    pattern: &'p str,
    class_depth: usize,
}

impl Dialects<'_> {
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
                let ecma_escape = matches!(
                    c,
                    '^' | '$'
                        | '\\'
                        | '.'
                        | '*'
                        | '+'
                        | '?'
                        | '('
                        | ')'
                        | '['
                        | ']'
                        | '{'
                        | '}'
                        | '|'
                        | '/'
                ) || (c == '-' && self.class_depth > 0);
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
}

impl ast::Visitor for Dialects<'_> {
    type Output = ();
    type Err = String;

    fn finish(self) -> Result<(), String> {
        Ok(())
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
                AssertionKind::StartLine
                | AssertionKind::EndLine
                | AssertionKind::WordBoundary
                | AssertionKind::NotWordBoundary => Ok(()),
                AssertionKind::StartText => Err("`\\A` (write `^`)".to_owned()),
                AssertionKind::EndText => Err("`\\z` (write `$`)".to_owned()),
                _ => Err("a word-boundary form only the `regex` crate knows (write `\\b`)".into()),
            },
            Ast::ClassUnicode(class) if one_letter(class) => {
                Err("a one-letter Unicode class such as `\\pL` (write `\\p{L}`)".to_owned())
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

impl Dialects<'_> {
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

/// `\pL`: ECMA-262 reads only the braced form.
fn one_letter(class: &ast::ClassUnicode) -> bool {
    matches!(class.kind, ast::ClassUnicodeKind::OneLetter(_))
}

#[cfg(test)]
mod tests {
    use super::check_pattern;

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
            assert_eq!(check_pattern(pattern), Ok(()), "{pattern}");
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
            assert!(check_pattern(pattern).is_err(), "{pattern}");
        }
        assert!(
            check_pattern("(unclosed")
                .unwrap_err()
                .contains("does not compile")
        );
    }
}
