//! Doc comments as descriptions: lines trimmed, the lines of a paragraph joined by spaces,
//! paragraphs by a newline (so a description's first line is its summary paragraph), and the
//! facts rendering needs of a text (its JSON escape, its hash, its summary line), found here
//! so that constant evaluation never scans a text for them.

use syn::{Attribute, Expr, ExprLit, Lit, Meta};

/// The description written in `///` comments (or `#[doc = "..."]`), if any.
///
/// An empty `///` line is a paragraph break: it expands to `#[doc = ""]`, which has no lines
/// of its own, so it is recognised by its emptiness.
pub fn description(attrs: &[Attribute]) -> Option<String> {
    let mut paragraphs: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut end_paragraph = |current: &mut String| {
        if !current.is_empty() {
            paragraphs.push(std::mem::take(current));
        }
    };
    for attr in attrs.iter().filter(|attr| attr.path().is_ident("doc")) {
        let Meta::NameValue(meta) = &attr.meta else {
            continue;
        };
        let Some(text) = literal_text(&meta.value) else {
            continue;
        };
        if text.trim().is_empty() {
            end_paragraph(&mut current);
            continue;
        }
        for line in text.lines() {
            let line = line.trim();
            if line.is_empty() {
                end_paragraph(&mut current);
            } else {
                if !current.is_empty() {
                    current.push(' ');
                }
                current.push_str(line);
            }
        }
    }
    end_paragraph(&mut current);
    (!paragraphs.is_empty()).then(|| paragraphs.join("\n"))
}

/// The string of a `doc` attribute's value: a literal, possibly inside the invisible group a
/// `macro_rules!` fragment (`#[doc = $text]`) leaves around it.
fn literal_text(value: &Expr) -> Option<String> {
    match value {
        Expr::Lit(ExprLit {
            lit: Lit::Str(text),
            ..
        }) => Some(text.value()),
        Expr::Group(group) => literal_text(&group.expr),
        _ => None,
    }
}

/// The first line of a description without its final period (and spaces): how the tag's
/// description names an operation. `None` when nothing is left.
pub fn summary(description: &str) -> Option<&str> {
    let first = description.lines().next().unwrap_or_default();
    let summary = first.trim_end_matches(['.', ' ']);
    (!summary.is_empty()).then_some(summary)
}

/// A text as it stands inside a JSON string: the escapes the runtime's renderer writes
/// (`\"`, `\\`, `\n`, `\r`, `\t`, and `\u00xx` for other control characters), so a
/// description is copied whole at compile time. `tests/mapping.rs` ties the two together.
pub fn json_escaped(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '"' => escaped.push_str("\\\""),
            '\\' => escaped.push_str("\\\\"),
            '\n' => escaped.push_str("\\n"),
            '\r' => escaped.push_str("\\r"),
            '\t' => escaped.push_str("\\t"),
            ch if (ch as u32) < 0x20 => escaped.push_str(&format!("\\u{:04x}", ch as u32)),
            ch => escaped.push(ch),
        }
    }
    escaped
}

/// The 64-bit FNV-1a hash of a text: the runtime's `hash`, computed here so that constant
/// evaluation never reads a description to compare it with another.
pub fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn docs(lines: &[&str]) -> Vec<Attribute> {
        lines
            .iter()
            .map(|line| syn::parse_quote!(#[doc = #line]))
            .collect()
    }

    #[test]
    fn an_empty_doc_line_breaks_the_paragraph() {
        let attrs = docs(&[" Summary line.", "", " More words", " on two lines."]);
        let text = description(&attrs).unwrap();
        assert_eq!(text, "Summary line.\nMore words on two lines.");
        assert_eq!(summary(&text), Some("Summary line"));
    }

    #[test]
    fn a_block_doc_splits_on_its_blank_lines() {
        let attrs = docs(&["\n Summary.\n\n Body.\n "]);
        assert_eq!(description(&attrs).unwrap(), "Summary.\nBody.");
    }

    #[test]
    fn summaries_and_escapes() {
        assert_eq!(summary("..."), None);
        assert_eq!(summary("No period"), Some("No period"));
        assert_eq!(json_escaped("a\"b\\c\nd\u{1}é"), "a\\\"b\\\\c\\nd\\u0001é");
    }
}
