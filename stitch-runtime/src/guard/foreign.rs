//! The guard over a foreign tool schema (schemars output, a hand-written one): the walk
//! stitchkit's `findUntypedProperties` makes, so `allow_untyped` lists carried over from it
//! still match.

use serde_json::Value;
use stitch_rules::{Dialect, Text};

use super::findings::Findings;
use super::{Finding, FindingKind, format_allowed, invalid_name, name_refused};
use crate::tool::SchemaProfile;

/// Keys that give a schema type information.
const TYPE_KEYS: [&str; 8] = [
    "type", "enum", "const", "anyOf", "oneOf", "allOf", "$ref", "not",
];

/// Checks a foreign tool schema (schemars output, a hand-written one) and returns every
/// finding. The walk is the one stitchkit's `findUntypedProperties` makes, so `allow_untyped`
/// lists carried over from it still match: properties through `properties`, `items` (both
/// forms), `prefixItems`, `additionalProperties`, `patternProperties`, `$defs`/`definitions`
/// (at the path of the schema holding them) and the `allOf`/`anyOf`/`oneOf` branches; `not`
/// is not walked, only object schemas are judged, the root is never flagged, and `$ref` is not
/// followed. With a profile's dialect that does not take JSON Schema whole, what that dialect cannot say of the
/// schema as [`tool_schema_for`](crate::tool_schema_for) shows it is reported too, by the
/// walk that reports it of a contract (a part kept as it was written, a map or a free value
/// in a strict dialect, a `null` with a meaning where the dialect cannot show it, ...).
pub(crate) fn validate_tool_schema(
    name: &str,
    schema: &Value,
    profile: &SchemaProfile,
) -> Vec<Finding> {
    let mut findings: Vec<Finding> = invalid_name(name)
        .or_else(|| name_refused(name, profile.dialect.rules()))
        .into_iter()
        .collect();
    if schema.get("type").and_then(Value::as_str) != Some("object") {
        let mut finding = Finding::new(FindingKind::NotAnObject, name);
        finding
            .why
            .push_str("its input schema must be an object (MCP requires `\"type\": \"object\"`)");
        findings.push(finding);
    }
    if crate::foreign::nested_deeper_than(schema, crate::foreign::MAX_DEPTH) {
        let mut finding = Finding::new(FindingKind::TooDeep, name);
        finding.why = Text::new()
            .push("it nests deeper than ")
            .push_u64(crate::foreign::MAX_DEPTH as u64)
            .push(" levels: it is not walked, nor rebuilt");
        findings.push(finding);
        return findings;
    }
    let mut walk = ForeignWalk {
        tool: name,
        profile,
        findings,
    };
    walk.inside(schema, &mut Vec::new());
    let mut findings = walk.findings;
    // A dialect that takes JSON Schema whole loses nothing.
    if !profile.dialect.rules().whole_json_schema {
        findings.extend(inexpressible(name, schema, profile.dialect));
    }
    findings
}

/// What a client shown `dialect` cannot be told of a foreign schema as
/// [`tool_schema_for`](crate::tool_schema_for) shows it: the guard's IR walk over the schema
/// read into the IR, as a contract's is walked, its dialect findings only (the walk above
/// judges types and formats).
fn inexpressible(name: &str, schema: &Value, dialect: Dialect) -> Vec<Finding> {
    let profile = SchemaProfile::new().dialect(dialect);
    crate::foreign::with_ir(schema, |root| {
        let mut walk = Findings::of_foreign(name, root, &profile);
        let mut found = Vec::new();
        while let Some(finding) = walk.next() {
            if finding.kind() == FindingKind::Inexpressible {
                found.push(finding);
            }
        }
        found
    })
    .unwrap_or_default()
}

struct ForeignWalk<'a> {
    tool: &'a str,
    profile: &'a SchemaProfile,
    findings: Vec<Finding>,
}

impl ForeignWalk<'_> {
    fn path_text(path: &[&str]) -> Text<256> {
        let mut text = Text::new();
        for (i, segment) in path.iter().enumerate() {
            if i > 0 {
                text.push_str(".");
            }
            text.push_str(segment);
        }
        text
    }

    fn allowed(&self, path: &[&str]) -> bool {
        let qualified = format!("{}.{}", self.tool, path.join("."));
        self.profile.untyped_allowed.contains(&qualified.as_str())
    }

    /// A property schema: flagged when untyped, then walked. Only an object is a schema the
    /// rule judges: a boolean one (`true`) is neither flagged nor walked.
    fn property<'v>(&mut self, schema: &'v Value, path: &mut Vec<&'v str>) {
        let Value::Object(map) = schema else {
            return;
        };
        let typed = TYPE_KEYS.iter().any(|key| map.contains_key(*key));
        if self.profile.typed_properties && !typed && !self.allowed(path) {
            let mut finding = Finding::new(FindingKind::Untyped, self.tool);
            finding.path = Self::path_text(path);
            finding.why.push_str("it has no `type`, `enum` or `const`");
            if let Some(description) = map.get("description").and_then(Value::as_str) {
                finding.description.push_str(description);
            }
            self.findings.push(finding);
        }
        self.inside(schema, path);
    }

    /// What a schema contains: formats, then properties through every subschema keyword.
    fn inside<'v>(&mut self, schema: &'v Value, path: &mut Vec<&'v str>) {
        let Value::Object(map) = schema else {
            return;
        };
        if let Some(format) = map.get("format").and_then(Value::as_str)
            && self.profile.portable_formats
            && !format_allowed(format, self.profile)
        {
            let mut finding = Finding::new(FindingKind::NonPortableFormat, self.tool);
            finding.path = Self::path_text(path);
            finding.why = Text::new()
                .push("the format \"")
                .push(format)
                .push("\", which many clients and models do not know");
            self.findings.push(finding);
        }
        if let Some(Value::Object(properties)) = map.get("properties") {
            for (key, value) in properties {
                path.push(key);
                self.property(value, path);
                path.pop();
            }
        }
        for keyword in ["items", "additionalProperties"] {
            match map.get(keyword) {
                Some(value @ Value::Object(_)) => self.inside(value, path),
                Some(Value::Array(tuple)) if keyword == "items" => {
                    tuple.iter().for_each(|item| self.inside(item, path));
                }
                _ => {}
            }
        }
        for keyword in ["prefixItems", "allOf", "anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = map.get(keyword) {
                branches.iter().for_each(|branch| self.inside(branch, path));
            }
        }
        // Definitions are walked at the path of the schema holding them (the rule this ports
        // names a definition's property by its own path, not through `$defs`).
        for keyword in ["patternProperties", "$defs", "definitions"] {
            if let Some(Value::Object(schemas)) = map.get(keyword) {
                schemas.values().for_each(|value| self.inside(value, path));
            }
        }
    }
}
