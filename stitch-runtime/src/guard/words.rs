//! What the guard's walk says: the path of the property it is at (and whether
//! `allow_untyped` lists it), and the words of its findings (why a set of nodes has no
//! honest type, naming the operations).

use stitch_rules::Text;

use super::findings::Findings;
use super::{Finding, FindingKind};
use crate::ir::key_table::FreeReason;
use crate::ir::{Doc, Hazard, Kind};
use crate::union::{NodeSet, Source};

impl<'a> Findings<'a> {
    pub(super) const fn path(&self) -> Text<256> {
        let mut path = Text::new();
        let mut i = 0;
        while i < self.depth {
            // A frame with no segment of its own (a tuple's or a union's branches) adds none.
            let segment = self.frames[i].segment();
            if !segment.is_empty() {
                if !path.as_str().is_empty() {
                    path.push_str(".");
                }
                path.push_str(segment);
            }
            i += 1;
        }
        path
    }

    /// Whether `tool.path` is listed in `allow_untyped`.
    pub(super) const fn untyped_allowed(&self) -> bool {
        let mut i = 0;
        let allowed_count = self.profile.untyped_allowed.len();
        while i < allowed_count {
            if self.is_current_path(self.profile.untyped_allowed[i]) {
                return true;
            }
            i += 1;
        }
        false
    }

    const fn is_current_path(&self, entry: &str) -> bool {
        let tool = self.subjects.name(self.tool);
        let entry = entry.as_bytes();
        if !starts_with_at(entry, 0, tool.as_bytes()) {
            return false;
        }
        let mut at = tool.len();
        let mut i = 0;
        while i < self.depth {
            let segment = self.frames[i].segment().as_bytes();
            i += 1;
            if segment.is_empty() {
                continue;
            }
            if at >= entry.len() || entry[at] != b'.' {
                return false;
            }
            at += 1;
            if !starts_with_at(entry, at, segment) {
                return false;
            }
            at += segment.len();
        }
        at == entry.len()
    }

    pub(super) const fn inexpressible(&self, why: &str, description: Option<Doc<'a>>) -> Finding {
        let mut finding = Finding::new(FindingKind::Inexpressible, self.subjects.name(self.tool));
        finding.path = self.path();
        finding.why = Text::new()
            .push("in the ")
            .push(self.profile.dialect.name())
            .push(" dialect, ")
            .push(why);
        if let Some(description) = description {
            finding.description.push_str(description.text);
        }
        finding
    }

    pub(super) const fn untyped(&self, why: Text<384>, description: Option<Doc<'a>>) -> Finding {
        let mut finding = Finding::new(FindingKind::Untyped, self.subjects.name(self.tool));
        finding.path = self.path();
        finding.why = why;
        if let Some(description) = description {
            finding.description.push_str(description.text);
        }
        finding
    }
}

const fn starts_with_at(haystack: &[u8], at: usize, needle: &[u8]) -> bool {
    if at + needle.len() > haystack.len() {
        return false;
    }
    let mut i = 0;
    let needle_len = needle.len();
    while i < needle_len {
        if haystack[at + i] != needle[i] {
            return false;
        }
        i += 1;
    }
    true
}

pub(super) const fn first_description<'a>(set: NodeSet<'a>) -> Option<Doc<'a>> {
    let mut members = set.members();
    while let Some(member) = members.next() {
        if let Some(field) = member.field
            && field.description.is_some()
        {
            return field.description;
        }
    }
    None
}

/// Why a set of nodes has no honest type, naming the operations (or tuple elements).
pub(super) const fn free_reason(set: NodeSet<'_>, reason: FreeReason) -> Text<384> {
    let mut why = Text::new();
    let mut members = set.members();
    match reason {
        FreeReason::Opaque => {
            while let Some(member) = members.next() {
                if matches!(member.node.kind, Kind::Opaque) {
                    if let Source::Collision(_) = set.source() {
                        why.push_str("operation `");
                        push_origin(&mut why, set, member.origin);
                        why.push_str("`");
                    } else {
                        push_origin(&mut why, set, member.origin);
                    }
                    why.push_str(" declares it an opaque value, so no type fits every operation");
                    break;
                }
            }
        }
        FreeReason::MixedHazard => {
            why.push_str("the operations disagree on leniency: ");
            let mut first = true;
            while let Some(member) = members.next() {
                if !first {
                    why.push_str(", ");
                }
                first = false;
                push_origin(&mut why, set, member.origin);
                why.push_str(match member.node.hazard {
                    Hazard::Coerce => " coerces strings",
                    Hazard::Catch(_) => " replaces invalid values (catch)",
                    Hazard::None => " does not",
                });
            }
        }
    }
    why
}

/// Names where a member comes from: its operation, or `element 1` of a tuple.
const fn push_origin(why: &mut Text<384>, set: NodeSet<'_>, origin: u32) {
    match set.source() {
        Source::Collision(collision) => {
            why.push_str(collision.union().variants[origin as usize].name);
        }
        Source::Elements(_) => {
            why.push_str("element ");
            *why = why.push_u64(origin as u64);
        }
    }
}
