//! Doc comments as descriptions: lines trimmed, the lines of a paragraph joined by spaces,
//! paragraphs by a newline (so a description's first line is its summary paragraph). The facts
//! rendering needs of a text (its escape, its hash, its summary line) are the shared rules'
//! (`stitch_rules::json`, `stitch_rules::doc`), computed by `expand` at expansion.

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
    }

    #[test]
    fn a_block_doc_splits_on_its_blank_lines() {
        let attrs = docs(&["\n Summary.\n\n Body.\n "]);
        assert_eq!(description(&attrs).unwrap(), "Summary.\nBody.");
    }
}
