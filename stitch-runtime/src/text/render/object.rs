//! Objects as a schema writes them — `properties`, `required`, and whether unknown keys are
//! refused — and the exact schema of a union: `oneOf` of its operations' objects, each with
//! the tag as a one-value `enum` (beside the fields, or beside the content key), or the
//! operation's name as its one key.

use stitch_rules::{DialectRules, NullSaid, Omitted};

use super::Rendering;
use super::description::{Description, NO_NOTES, own_description, write_description};
use super::flat::{is_unit, operation_value};
use super::node::{write_node, write_root, write_type};
use crate::ir::key_table::Requirement;
use crate::ir::{Object, Tagging, Union, Variant, kinds};
use crate::text::sink::Sink;

/// `,"properties":{...},"required":[...]` (and `additionalProperties: false` when denied,
/// or always where the dialect closes objects; every key where it sends omitted keys as
/// `null`), with the tag of an exact operation first when `tag` is given.
pub(super) const fn write_object_body<'a>(
    sink: &mut Sink<'_>,
    object: &'a Object<'a>,
    tag: Option<(&str, &Variant)>,
    rendering: Rendering,
) {
    let rules: &DialectRules = rules_of!(rendering);
    // Where the node alone says its `null` (`Mcp`), the presence is not asked.
    let by_node_alone =
        matches!(rules.null, NullSaid::InType) && matches!(rules.omitted, Omitted::LeftOut);
    sink.raw(",\"properties\":{");
    let mut first = true;
    if let Some((tag, variant)) = tag {
        write_tag(sink, tag, variant);
        first = false;
    }
    let mut i = 0;
    let field_count = object.fields.len();
    while i < field_count {
        let field = &object.fields[i];
        if !first {
            sink.byte(b',');
        }
        first = false;
        sink.name_key(field.name, field.plain);
        let own = match field.description {
            Some(doc) => Some(doc),
            None => own_description(field.node),
        };
        let presence = if by_node_alone {
            Requirement::ALWAYS
        } else {
            field.requirement()
        };
        let desc = Description {
            own,
            several: None,
            hint: None,
            presence,
            notes: NO_NOTES,
        };
        write_node(sink, field.node, None, rendering, desc);
        i += 1;
    }
    sink.raw("},\"required\":[");
    first = true;
    if let Some((tag, _)) = tag {
        sink.string(tag);
        first = false;
    }
    let every = matches!(rules.omitted, Omitted::SentAsNull);
    i = 0;
    while i < field_count {
        if every || object.fields[i].required {
            if !first {
                sink.byte(b',');
            }
            first = false;
            sink.name(object.fields[i].name, object.fields[i].plain);
        }
        i += 1;
    }
    sink.byte(b']');
    if object.deny_unknown || rules.objects_closed {
        sink.raw(",\"additionalProperties\":false");
    } else if let Some(rest) = object.rest {
        // A flattened map: every other key holds one of its values.
        sink.raw(",\"additionalProperties\":");
        write_root(sink, rest, rendering);
    }
}

/// The exact schema of a union: `"oneOf":[...]`, one object per operation.
pub(super) const fn write_one_of<'a>(sink: &mut Sink<'_>, union: &'a Union<'a>, nullable: bool) {
    // Every operation is an object: said beside them too, so that the root of a tool's input
    // is one (`#[contract(flatten = false)]`), as MCP asks.
    if !nullable {
        sink.raw("\"type\":\"object\",");
    }
    sink.raw("\"oneOf\":[");
    let mut v = 0;
    let variant_count = union.variants.len();
    while v < variant_count {
        if v > 0 {
            sink.byte(b',');
        }
        let variant = &union.variants[v];
        sink.byte(b'{');
        write_description(sink, Description::own(variant.description), true);
        write_type(sink, kinds::OBJECT, false);
        match union.tagging {
            Tagging::Internal => write_object_body(
                sink,
                variant.object,
                Some((union.tag, variant)),
                Rendering::Exact,
            ),
            Tagging::Adjacent(content) => {
                sink.raw(",\"properties\":{");
                write_tag(sink, union.tag, variant);
                let holds = !is_unit(variant);
                if holds {
                    sink.byte(b',');
                    sink.key(content);
                    let value = operation_value(variant);
                    write_node(sink, &value, None, Rendering::Exact, Description::own(None));
                }
                sink.raw("},\"required\":[");
                sink.string(union.tag);
                if holds {
                    sink.byte(b',');
                    sink.string(content);
                }
                sink.byte(b']');
                if variant.object.deny_unknown {
                    sink.raw(",\"additionalProperties\":false");
                }
            }
            Tagging::External => {
                sink.raw(",\"properties\":{");
                sink.name_key(variant.name, variant.plain);
                let value = operation_value(variant);
                write_node(sink, &value, None, Rendering::Exact, Description::own(None));
                sink.raw("},\"required\":[");
                sink.name(variant.name, variant.plain);
                sink.raw("],\"additionalProperties\":false");
            }
        }
        sink.byte(b'}');
        v += 1;
    }
    if nullable {
        sink.raw(if union.variants.is_empty() {
            "{\"type\":\"null\"}"
        } else {
            ",{\"type\":\"null\"}"
        });
    }
    sink.byte(b']');
}

/// The tag of one exact operation: a one-value string `enum`.
const fn write_tag(sink: &mut Sink<'_>, tag: &str, variant: &Variant) {
    sink.key(tag);
    sink.raw("{\"type\":\"string\",\"enum\":[");
    sink.name(variant.name, variant.plain);
    sink.raw("]}");
}
