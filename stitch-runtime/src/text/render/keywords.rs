//! A node's keywords, written by the keyword table (`stitch_rules::KEYWORDS`): each keyword of
//! the node's class whose value is set, as JSON when the dialect takes it, or — for the notes
//! of its description — as text when it does not (`{minimum: 0, maximum: 9}`, the form
//! Anthropic's SDK moves them in). Which keywords a dialect takes is its row's
//! (`DialectRules::keywords`). Keys are written already quoted (`,"minimum":`), so writing one
//! is a copy; a dialect that takes JSON Schema whole takes every keyword, decided by a field
//! read, not a call.

use stitch_rules::{DIALECTS, Dialect, Taken};

use crate::ir::{KeywordValue, Kind, Node};
use crate::text::sink::Sink;

/// The keywords of `kind` set in it: those `dialect` takes, as JSON after the comma that
/// precedes each; or, with `moved`, the others as text, separated by `, `.
pub(super) const fn write_keywords(
    sink: &mut Sink<'_>,
    kind: &Kind,
    dialect: Dialect,
    moved: bool,
) {
    let slots = kind.keyword_slots();
    let count = slots.keywords.len();
    let rules = &DIALECTS[dialect as usize];
    let every = rules.whole_json_schema;
    let mut first = true;
    let mut i = 0;
    while i < count {
        let keyword = slots.keywords[i];
        let value = slots.values[i];
        i += 1;
        let Some(value) = value else {
            continue;
        };
        let taken = every || taken_by(rules.keywords[keyword as usize], value);
        if taken == moved {
            continue;
        }
        let spec = keyword.spec();
        if moved {
            if !first {
                sink.raw(", ");
            }
            first = false;
            sink.raw(spec.json);
            sink.raw(": ");
        } else {
            sink.raw(spec.key);
        }
        match value {
            KeywordValue::Bound(bound) => sink.raw(bound.text),
            KeywordValue::Count(count) => sink.uint(count),
            KeywordValue::Text(text) if moved => sink.escaped(text),
            KeywordValue::Text(text) => sink.string(text),
            KeywordValue::Flag => sink.raw("true"),
        }
    }
}

/// Whether a keyword the row says is `taken` so is with this value.
const fn taken_by(taken: Taken, value: KeywordValue) -> bool {
    let (format, count) = match value {
        KeywordValue::Text(text) => (text, 0),
        KeywordValue::Count(count) => ("", count),
        _ => ("", 0),
    };
    taken.takes(format, count)
}

/// Whether the dialect moves any keyword of the node into its description.
pub(super) const fn moves_any(node: &Node, dialect: Dialect) -> bool {
    let mut counter = Sink::counter(&mut []);
    write_keywords(&mut counter, &node.kind, dialect, true);
    counter.len() > 0
}

/// The keywords of a node's kind the dialect does not take, as its description carries them.
pub(super) const fn write_moved(sink: &mut Sink<'_>, kind: &Kind, dialect: Dialect) {
    sink.byte(b'{');
    write_keywords(sink, kind, dialect, true);
    sink.byte(b'}');
}
