//! `pattern`, as JSON Schema means it: an ECMA-262 regular expression (read in Unicode mode,
//! as validators and clients read it), evaluated with the `regex` crate.
//!
//! The two dialects share their syntax for what the derive accepts, but not all of its
//! meaning: in the `regex` crate `\d`, `\w`, `\s` and `\b` are Unicode-aware and `.` stops only
//! at `\n`, where ECMA-262's `\d` and `\w` are ASCII, `\s` is its own list of white space and
//! line terminators, `\b` an ASCII word boundary, and `.` stops at every line terminator. Each
//! of these is rewritten into the equivalent the `regex` crate reads the ECMA way, at the span
//! the parser gives it, so `parse` accepts exactly what a client reading the advertised
//! schema accepts.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{OnceLock, RwLock};

use regex::Regex;
use regex_syntax::ast::{self, AssertionKind, Ast, ClassPerl, ClassPerlKind, ClassSetItem};

/// ECMA-262 `\s`: `WhiteSpace` (tab, vertical tab, form feed, space, no-break space, every
/// `Zs` character, the byte order mark) and `LineTerminator`, as a `regex` class body.
const ECMA_SPACE: &str =
    r"\t\n\x0B\x0C\r \xA0\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}";

/// ECMA-262 `.`: anything but a line terminator.
const ECMA_DOT: &str = r"[^\n\r\x{2028}\x{2029}]";

/// The pattern in the `regex` crate's syntax with its ECMA-262 meaning, or `None` when it
/// does not parse (the derive refuses such patterns; a hand-built IR may hold one).
pub fn to_regex_syntax(pattern: &str) -> Option<Cow<'_, str>> {
    let parsed = ast::parse::Parser::new().parse(pattern).ok()?;
    let mut rewrites = ast::visit(&parsed, Rewrites(Vec::new())).ok()?;
    if rewrites.is_empty() {
        return Some(Cow::Borrowed(pattern));
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
    Some(Cow::Owned(translated))
}

/// The constructs whose meaning differs, each with its ECMA-262 equivalent.
struct Rewrites(Vec<(ast::Span, String)>);

impl Rewrites {
    fn class(&mut self, class: &ClassPerl) {
        let body = match class.kind {
            ClassPerlKind::Digit => "0-9",
            ClassPerlKind::Word => "0-9A-Za-z_",
            ClassPerlKind::Space => ECMA_SPACE,
        };
        // A bracketed class is valid inside another one too (`[a\d]` → `[a[0-9]]`).
        let negation = if class.negated { "^" } else { "" };
        self.0.push((class.span, format!("[{negation}{body}]")));
    }
}

impl ast::Visitor for Rewrites {
    type Output = Vec<(ast::Span, String)>;
    type Err = ();

    fn finish(self) -> Result<Self::Output, ()> {
        Ok(self.0)
    }

    fn visit_pre(&mut self, node: &Ast) -> Result<(), ()> {
        match node {
            Ast::ClassPerl(class) => self.class(class),
            Ast::Dot(span) => self.0.push((**span, ECMA_DOT.to_owned())),
            Ast::Assertion(assertion) => match assertion.kind {
                AssertionKind::WordBoundary => {
                    self.0.push((assertion.span, r"(?-u:\b)".to_owned()));
                }
                AssertionKind::NotWordBoundary => {
                    self.0.push((assertion.span, r"(?-u:\B)".to_owned()));
                }
                _ => {}
            },
            _ => {}
        }
        Ok(())
    }

    fn visit_class_set_item_pre(&mut self, item: &ClassSetItem) -> Result<(), ()> {
        if let ClassSetItem::Perl(class) = item {
            self.class(class);
        }
        Ok(())
    }
}

/// A pattern compiled once per process, with its ECMA-262 meaning. Patterns are `'static`
/// strings in the contract, so the cache is keyed by where the text lives (no hashing of the
/// text on every call) and each compiled pattern is kept for the life of the process, shared
/// (a cloned `Regex` would start a fresh match cache on every call).
pub fn compiled(pattern: &'static str) -> Option<&'static Regex> {
    type Cache = RwLock<HashMap<(usize, usize), Option<&'static Regex>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let key = (pattern.as_ptr() as usize, pattern.len());
    if let Some(regex) = cache.read().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return *regex;
    }
    *cache
        .write()
        .unwrap_or_else(|e| e.into_inner())
        .entry(key)
        .or_insert_with(|| {
            let translated = to_regex_syntax(pattern)?;
            let regex = Regex::new(&translated).ok()?;
            Some(&*Box::leak(Box::new(regex)))
        })
}

#[cfg(test)]
mod tests {
    use super::to_regex_syntax;

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
        assert_eq!(to_regex_syntax("(unclosed"), None);
    }
}
