//! The guard: checks what a list of tools advertises (SPEC §5), as a `const fn` over the IR
//! (so a contract can refuse to compile) and at run time, over the IR or over any foreign
//! JSON Schema (schemars output, hand-written tools).
//!
//! The IR walk sees exactly what the renderer writes: it follows the same key tables and merge
//! decisions, so a property is reported untyped precisely when the advertised schema leaves it
//! without type information, and the finding can say *why* (an opaque value; operations that
//! disagree on a hazard). Findings are plain data of bounded size, built without allocation, so
//! one type serves the compile-time check and the run-time forms.

// `Finding` is ~1 KiB of inline text because constant evaluation has no heap to box it in;
// a finding is the rare path, so its size costs nothing when the schemas are fine.
#![allow(clippy::result_large_err)]

use core::fmt;

use serde_json::Value;

use crate::flatten::{CollisionSet, FreeReason, Keys, Merge};
use crate::node::{Doc, Hazard, Kind, Node, Union};
use crate::render::Mode;
use crate::text::{Message, Text, str_eq};
use crate::{SchemaProfile, Tool};

/// The formats every common JSON Schema validator and model provider understands.
pub const PORTABLE_FORMATS: [&str; 15] = [
    "date",
    "time",
    "date-time",
    "duration",
    "uri",
    "uri-reference",
    "uri-template",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "regex",
    "uuid",
    "json-pointer",
    "relative-json-pointer",
];

/// Keys that give a schema type information.
const TYPE_KEYS: [&str; 8] = [
    "type", "enum", "const", "anyOf", "oneOf", "allOf", "$ref", "not",
];

/// Paths deeper than this are cut in findings (the walk itself has no limit).
const MAX_DEPTH: usize = 32;

/// What a finding is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FindingKind {
    /// The tool name breaks `^[a-zA-Z0-9_-]{1,64}$`.
    InvalidName,
    /// Two tools share a name.
    DuplicateName,
    /// The input schema is not an object.
    NotAnObject,
    /// A property carries no type information.
    Untyped,
    /// A `format` outside the portable list and the allowed ones.
    NonPortableFormat,
}

/// One problem in what a tool advertises. `Display` gives a message naming the tool, the
/// property path, what is wrong and why, the property's description, and the remedy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Finding {
    kind: FindingKind,
    tool: Text<128>,
    path: Text<256>,
    why: Text<384>,
    description: Text<320>,
}

impl Finding {
    const fn new(kind: FindingKind, tool: &str) -> Finding {
        Finding {
            kind,
            tool: Text::new().push(tool),
            path: Text::new(),
            why: Text::new(),
            description: Text::new(),
        }
    }

    /// What the finding is about.
    pub const fn kind(&self) -> FindingKind {
        self.kind
    }

    /// The tool's name.
    pub const fn tool(&self) -> &str {
        self.tool.as_str()
    }

    /// The property's dotted path inside the tool's input (array items add no segment);
    /// empty for findings about the tool itself.
    pub const fn path(&self) -> &str {
        self.path.as_str()
    }

    /// Why the property is flagged (for example which operations disagree on a hazard).
    pub const fn why(&self) -> &str {
        self.why.as_str()
    }

    /// The property's description, if it has one: all a model sees of an untyped property.
    pub const fn description(&self) -> Option<&str> {
        if self.description.is_empty() {
            None
        } else {
            Some(self.description.as_str())
        }
    }

    /// The finding as a message (what `Display` writes and the compile error shows).
    pub const fn message(&self) -> Message {
        let tool = self.tool.as_str();
        let path = self.path.as_str();
        let mut m = Message::new().push("stitch guard: ");
        match self.kind {
            FindingKind::InvalidName | FindingKind::DuplicateName | FindingKind::NotAnObject => {
                m = m
                    .push("tool \"")
                    .push(tool)
                    .push("\": ")
                    .push(self.why.as_str());
                return m;
            }
            FindingKind::Untyped => {
                m = m
                    .push("property \"")
                    .push(tool)
                    .push(".")
                    .push(path)
                    .push("\" has no type: ")
                    .push(self.why.as_str())
                    .push(".");
            }
            FindingKind::NonPortableFormat => {
                m = m
                    .push("property \"")
                    .push(tool)
                    .push(".")
                    .push(path)
                    .push("\" uses ")
                    .push(self.why.as_str())
                    .push(".");
            }
        }
        if let Some(description) = self.description() {
            m = m.push(" Its description: \"").push(description).push("\".");
        }
        match self.kind {
            FindingKind::Untyped => m
                .push(" A model shown this property can only guess what to send. Declare a type")
                .push(
                    " for it; or, if the value is genuinely free-form, allow it: `allow_untyped(\"",
                )
                .push(path)
                .push("\")` on the contract, or `SchemaProfile::allow_untyped(&[\"")
                .push(tool)
                .push(".")
                .push(path)
                .push("\"])`."),
            _ => m
                .push(" Use a portable format (")
                .push("date, time, date-time, duration, uri, uuid, email, ...); or allow it:")
                .push(" `allow_formats(...)`."),
        }
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message().as_str())
    }
}

impl std::error::Error for Finding {}

/// Checks every tool against the profile (SPEC §5) and returns the first finding, in tool
/// order, then depth-first property order. A `const fn`: the derive calls it at compile time.
pub const fn validate_mcp_schemas(tools: &[Tool], profile: &SchemaProfile) -> Result<(), Finding> {
    walk_tools(tools, profile, 0)
}

/// Every finding for these tools, in the order `validate_mcp_schemas` reports the first.
pub fn all_findings(tools: &[Tool], profile: &SchemaProfile) -> Vec<Finding> {
    let mut findings = Vec::new();
    while let Err(finding) = walk_tools(tools, profile, findings.len()) {
        findings.push(finding);
    }
    findings
}

/// Returns early from a `const fn` with the error of a `Result<(), Finding>`.
macro_rules! check {
    ($result:expr) => {
        if let Err(finding) = $result {
            return Err(finding);
        }
    };
}

/// Walks the tools, skipping the first `skip` findings.
const fn walk_tools(tools: &[Tool], profile: &SchemaProfile, skip: usize) -> Result<(), Finding> {
    let mut walk = Walk {
        tool: "",
        profile,
        segments: [""; MAX_DEPTH],
        depth: 0,
        skip,
    };
    let mut i = 0;
    let tool_count = tools.len();
    while i < tool_count {
        let tool = &tools[i];
        walk.tool = tool.name;
        walk.depth = 0;
        if let Some(why) = name_problem(tool.name) {
            let mut finding = Finding::new(FindingKind::InvalidName, tool.name);
            finding.why.push_str(why);
            check!(walk.report(finding));
        }
        let mut j = 0;
        while j < i {
            if str_eq(tools[j].name, tool.name) {
                let mut finding = Finding::new(FindingKind::DuplicateName, tool.name);
                finding
                    .why
                    .push_str("another tool has the same name; tool names must be unique");
                check!(walk.report(finding));
                break;
            }
            j += 1;
        }
        let mode = tool.advertised_mode();
        if !advertises_object(tool.input, mode) {
            let mut finding = Finding::new(FindingKind::NotAnObject, tool.name);
            finding.why.push_str(
                "its input schema must be an object (MCP requires `\"type\": \"object\"`)",
            );
            check!(walk.report(finding));
        }
        check!(walk.structure(tool.input, mode));
        i += 1;
    }
    Ok(())
}

/// Whether a node's schema in this mode is an object (`"type": "object"` at its root), as MCP
/// requires of a tool's input and output schemas.
pub const fn advertises_object(node: &Node, mode: Mode) -> bool {
    !node.nullable
        && match node.kind {
            Kind::Object(_) | Kind::Map(_) => true,
            Kind::Union(_) => matches!(mode, Mode::Advertised),
            _ => false,
        }
}

/// Checks the output schema a tool advertises (its result type's advertised schema): MCP
/// requires an object, and rmcp drops any other without a word. `type_name` names the
/// result type in the finding.
pub fn validate_output_schema(
    tool: &str,
    output: &'static Node,
    type_name: &str,
) -> Result<(), Finding> {
    if advertises_object(output, Mode::Advertised) {
        return Ok(());
    }
    let mut finding = Finding::new(FindingKind::NotAnObject, tool);
    finding.why = Text::new()
        .push("its output schema must be an object (MCP requires `\"type\": \"object\"`), but the result type `")
        .push(type_name)
        .push("` is not one: return a struct, or mount the tool without an output schema");
    Err(finding)
}

/// Why a tool name breaks `^[a-zA-Z0-9_-]{1,64}$`, if it does.
pub const fn name_problem(name: &str) -> Option<&'static str> {
    let bytes = name.as_bytes();
    if bytes.is_empty() || bytes.len() > 64 {
        return Some("the name must be 1 to 64 characters long (^[a-zA-Z0-9_-]{1,64}$)");
    }
    let mut i = 0;
    let byte_count = bytes.len();
    while i < byte_count {
        if !(bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'-') {
            return Some("the name may only hold ASCII letters, digits, `_` and `-`");
        }
        i += 1;
    }
    None
}

/// Whether a format is portable or allowed by the profile.
const fn format_allowed(format: &str, profile: &SchemaProfile) -> bool {
    let mut i = 0;
    let format_count = PORTABLE_FORMATS.len();
    while i < format_count {
        if str_eq(PORTABLE_FORMATS[i], format) {
            return true;
        }
        i += 1;
    }
    i = 0;
    let allowed_count = profile.formats_allowed.len();
    while i < allowed_count {
        if str_eq(profile.formats_allowed[i], format) {
            return true;
        }
        i += 1;
    }
    false
}

/// The state of a walk over one tool's IR.
struct Walk<'a> {
    tool: &'static str,
    profile: &'a SchemaProfile,
    segments: [&'static str; MAX_DEPTH],
    depth: usize,
    skip: usize,
}

impl Walk<'_> {
    /// Reports a finding, or skips it (for the all-findings form).
    const fn report(&mut self, finding: Finding) -> Result<(), Finding> {
        if self.skip > 0 {
            self.skip -= 1;
            Ok(())
        } else {
            Err(finding)
        }
    }

    const fn push(&mut self, segment: &'static str) {
        if self.depth < MAX_DEPTH {
            self.segments[self.depth] = segment;
        }
        self.depth += 1;
    }

    const fn pop(&mut self) {
        self.depth -= 1;
    }

    const fn path(&self) -> Text<256> {
        let mut path = Text::new();
        let mut i = 0;
        while i < self.depth && i < MAX_DEPTH {
            if i > 0 {
                path.push_str(".");
            }
            path.push_str(self.segments[i]);
            i += 1;
        }
        if self.depth > MAX_DEPTH {
            path.push_str(".…");
        }
        path
    }

    /// Whether `tool.path` is listed in `allow_untyped`.
    const fn untyped_allowed(&self) -> bool {
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
        let entry = entry.as_bytes();
        let mut at = 0;
        if !starts_with_at(entry, 0, self.tool.as_bytes()) {
            return false;
        }
        at += self.tool.len();
        let mut i = 0;
        while i < self.depth && i < MAX_DEPTH {
            if at >= entry.len() || entry[at] != b'.' {
                return false;
            }
            at += 1;
            let segment = self.segments[i].as_bytes();
            if !starts_with_at(entry, at, segment) {
                return false;
            }
            at += segment.len();
            i += 1;
        }
        at == entry.len()
    }

    const fn untyped(&self, why: Text<384>, description: Option<Doc>) -> Finding {
        let mut finding = Finding::new(FindingKind::Untyped, self.tool);
        finding.path = self.path();
        finding.why = why;
        if let Some(description) = description {
            finding.description.push_str(description.text);
        }
        finding
    }

    /// A property: flagged when untyped, then walked for what it contains.
    const fn property(
        &mut self,
        node: &'static Node,
        mode: Mode,
        description: Option<Doc>,
    ) -> Result<(), Finding> {
        if self.profile.typed_properties
            && matches!(node.kind, Kind::Opaque)
            && !self.untyped_allowed()
        {
            let why = Text::new()
                .push("it is an opaque value (`#[contract(opaque)]`), advertised as `{}`");
            let finding = self.untyped(why, description);
            check!(self.report(finding));
        }
        self.structure(node, mode)
    }

    /// What a node contains: formats, nested properties (through items and maps).
    const fn structure(&mut self, node: &'static Node, mode: Mode) -> Result<(), Finding> {
        match node.kind {
            Kind::String(rules) => {
                if let Some(format) = rules.format
                    && self.profile.portable_formats
                    && !format_allowed(format, self.profile)
                {
                    let mut finding = Finding::new(FindingKind::NonPortableFormat, self.tool);
                    finding.path = self.path();
                    finding.why = Text::new()
                        .push("the format \"")
                        .push(format)
                        .push("\", which many clients and models do not know");
                    check!(self.report(finding));
                }
                Ok(())
            }
            Kind::Array(item, _) | Kind::Map(item) => self.structure(item, mode),
            Kind::Object(object) => {
                let mut i = 0;
                let field_count = object.fields.len();
                while i < field_count {
                    let field = &object.fields[i];
                    self.push(field.name);
                    check!(self.property(field.node, mode, field.description));
                    self.pop();
                    i += 1;
                }
                Ok(())
            }
            Kind::Union(union) => match mode {
                Mode::Advertised => self.flat_union(union),
                Mode::Exact => {
                    let mut v = 0;
                    let variant_count = union.variants.len();
                    while v < variant_count {
                        let fields = union.variants[v].object.fields;
                        let mut i = 0;
                        let field_count = fields.len();
                        while i < field_count {
                            self.push(fields[i].name);
                            check!(self.property(fields[i].node, mode, fields[i].description));
                            self.pop();
                            i += 1;
                        }
                        v += 1;
                    }
                    Ok(())
                }
            },
            _ => Ok(()),
        }
    }

    /// The keys of a flattened union, by their merge decisions.
    const fn flat_union(&mut self, union: &'static Union) -> Result<(), Finding> {
        let mut keys = Keys::of(union);
        while let Some((key, set)) = keys.next() {
            self.push(key.name);
            let description = first_description(set);
            match key.merge {
                Merge::Keep(node) => check!(self.property(node, Mode::Advertised, description)),
                Merge::Free(reason) => {
                    if self.profile.typed_properties && !self.untyped_allowed() {
                        let why = free_reason(union, set, reason);
                        let finding = self.untyped(why, description);
                        check!(self.report(finding));
                    }
                }
                Merge::StringEnum { .. } | Merge::Base { .. } => {}
            }
            self.pop();
        }
        Ok(())
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

const fn first_description(set: CollisionSet<'_>) -> Option<Doc> {
    let mut members = set.members();
    while let Some(occurrence) = members.next() {
        if occurrence.field.description.is_some() {
            return occurrence.field.description;
        }
    }
    None
}

/// Why a collision set has no honest type, naming the operations.
const fn free_reason(union: &Union, set: CollisionSet<'_>, reason: FreeReason) -> Text<384> {
    let mut why = Text::new();
    let mut members = set.members();
    match reason {
        FreeReason::Opaque => {
            while let Some(occurrence) = members.next() {
                if matches!(occurrence.field.node.kind, Kind::Opaque) {
                    why.push_str("operation `");
                    why.push_str(union.variants[occurrence.variant as usize].name);
                    why.push_str("` declares it an opaque value, so no type fits every operation");
                    break;
                }
            }
        }
        FreeReason::MixedHazard => {
            why.push_str("the operations disagree on leniency: ");
            let mut first = true;
            while let Some(occurrence) = members.next() {
                if !first {
                    why.push_str(", ");
                }
                first = false;
                why.push_str(union.variants[occurrence.variant as usize].name);
                why.push_str(match occurrence.field.node.hazard {
                    Hazard::Coerce => " coerces strings",
                    Hazard::Catch(_) => " replaces invalid values (catch)",
                    Hazard::None => " does not",
                });
            }
        }
    }
    why
}

/// Checks a foreign tool schema (schemars output, a hand-written one) and returns every
/// finding. The walk is the one stitchkit's `findUntypedProperties` makes, so `allow_untyped`
/// lists carried over from it still match: properties through `properties`, `items` (both
/// forms), `prefixItems`, `additionalProperties`, `patternProperties`, `$defs`/`definitions`
/// (at the path of the schema holding them) and the `allOf`/`anyOf`/`oneOf` branches; `not`
/// is not walked, only object schemas are judged, the root is never flagged, and `$ref` is not
/// followed.
pub fn validate_tool_schema(name: &str, schema: &Value, profile: &SchemaProfile) -> Vec<Finding> {
    let mut findings = Vec::new();
    if let Some(why) = name_problem(name) {
        let mut finding = Finding::new(FindingKind::InvalidName, name);
        finding.why.push_str(why);
        findings.push(finding);
    }
    if schema.get("type").and_then(Value::as_str) != Some("object") {
        let mut finding = Finding::new(FindingKind::NotAnObject, name);
        finding
            .why
            .push_str("its input schema must be an object (MCP requires `\"type\": \"object\"`)");
        findings.push(finding);
    }
    let mut walk = ForeignWalk {
        tool: name,
        profile,
        findings,
    };
    walk.inside(schema, &mut Vec::new());
    walk.findings
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
