//! The guard: checks what a list of tools advertises, as a `const fn` over the IR
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

use crate::dialect::{self, Dialect, Form};
use crate::flatten::{CollisionSet, KeyMerge, Keys};
use crate::message::{Message, Text};
use crate::node::{Doc, Field, Hazard, Kind, Node, Union};
use crate::render::Mode;
use crate::strings::{listed, str_eq};
use crate::table::{FreeReason, Merge, Requirement};
use crate::tool::{SchemaProfile, Tool};

/// The formats every common JSON Schema validator and model provider understands: what
/// `require_portable_formats` accepts without `allow_formats`.
///
/// ```
/// # use stitch_runtime as stitch;
/// assert_eq!(
///     stitch::PORTABLE_FORMATS,
///     [
///         "date", "time", "date-time", "duration", "uri", "uri-reference", "uri-template",
///         "email", "hostname", "ipv4", "ipv6", "regex", "uuid", "json-pointer",
///         "relative-json-pointer",
///     ]
/// );
/// ```
pub const PORTABLE_FORMATS: [&str; 15] = crate::format::PORTABLE_NAMES;

/// Keys that give a schema type information.
const TYPE_KEYS: [&str; 8] = [
    "type", "enum", "const", "anyOf", "oneOf", "allOf", "$ref", "not",
];

/// How many containers deep the walk goes (a contract nesting objects deeper is reported).
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
    /// The input nests objects deeper than the guard walks (32 levels).
    TooDeep,
    /// The profile's dialect cannot say this property as the contract means it (see
    /// [`SchemaProfile::dialect`]).
    Inexpressible,
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

    /// The finding, saying why.
    const fn because(mut self, why: &str) -> Finding {
        self.why.push_str(why);
        self
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
            FindingKind::InvalidName
            | FindingKind::DuplicateName
            | FindingKind::NotAnObject
            | FindingKind::TooDeep => {
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
            FindingKind::Inexpressible => {
                m = m
                    .push("property \"")
                    .push(tool)
                    .push(".")
                    .push(path)
                    .push("\" cannot be advertised as it is: ")
                    .push(self.why.as_str())
                    .push(".");
            }
        }
        if let Some(description) = self.description() {
            m = m.push(" Its description: \"").push(description).push("\".");
        }
        match self.kind {
            FindingKind::Inexpressible => m.push(
                " Parse still holds calls to the contract; to show it whole, serve this client \
                 another dialect, or give the property a type the dialect can say.",
            ),
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

/// Checks every tool against the profile and returns the first finding, in tool order, then
/// depth-first property order. A `const fn`: the derive calls it at compile time.
pub const fn validate_mcp_schemas(tools: &[Tool], profile: &SchemaProfile) -> Result<(), Finding> {
    match Findings::of(tools, profile).next() {
        Some(finding) => Err(finding),
        None => Ok(()),
    }
}

/// Every finding of these tools in one text, or `None` when there is none: what the derive's
/// compile-time guard reports, so that one build names every untyped property at once.
pub const fn guard_report(tools: &[Tool], profile: &SchemaProfile) -> Option<Report> {
    let mut walk = Findings::of(tools, profile);
    let mut report = Report::new();
    let mut count = 0;
    while let Some(finding) = walk.next() {
        if count > 0 {
            report.push_str("\n\n");
        }
        report.push_str(finding.message().as_str());
        count += 1;
    }
    if count == 0 { None } else { Some(report) }
}

/// Every finding of a contract, as one compile error's text.
pub type Report = Text<8192>;

/// Every finding for these tools, in the order `validate_mcp_schemas` reports the first: one
/// walk, which stops at each finding and resumes where it stopped.
pub fn all_findings(tools: &[Tool], profile: &SchemaProfile) -> Vec<Finding> {
    let mut walk = Findings::of(tools, profile);
    let mut findings = Vec::new();
    while let Some(finding) = walk.next() {
        findings.push(finding);
    }
    findings
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
    listed(format, &PORTABLE_FORMATS) || listed(format, profile.formats_allowed)
}

/// The findings of a list of tools, one at a time: a walk over each tool's IR that stops at a
/// finding and resumes where it stopped. Its stack is explicit, because constant evaluation
/// has no heap to collect findings into and a walk that resumes cannot recurse.
pub struct Findings<'a> {
    tools: &'a [Tool],
    profile: &'a SchemaProfile,
    /// The tool being checked, and how far.
    tool: usize,
    step: ToolStep,
    /// The containers being walked, outermost first; each names the property being walked in
    /// it, so together they are the path.
    frames: [Frame; MAX_DEPTH],
    depth: usize,
    /// A node met and not yet looked at.
    pending: Option<Pending>,
}

/// What is left to check of a tool before and around its walk.
#[derive(Clone, Copy)]
enum ToolStep {
    Name,
    Duplicate,
    Object,
    Walk,
}

/// A container being walked, and the segment of the property being walked in it.
#[derive(Clone, Copy)]
enum Frame {
    Empty,
    /// An object's fields, from `next`.
    Fields {
        fields: &'static [Field],
        next: usize,
        mode: Mode,
        segment: &'static str,
    },
    /// The fields of every operation of a union in its exact schema.
    Operations {
        union: &'static Union,
        variant: usize,
        field: usize,
        segment: &'static str,
    },
    /// The keys of a flattened union, by their merge decisions.
    Keys {
        union: &'static Union,
        keys: Keys,
        segment: &'static str,
    },
}

impl Frame {
    const fn segment(&self) -> &'static str {
        match *self {
            Frame::Empty => "",
            Frame::Fields { segment, .. }
            | Frame::Operations { segment, .. }
            | Frame::Keys { segment, .. } => segment,
        }
    }
}

/// A node to look at: its type when it is a property, then what it contains.
#[derive(Clone, Copy)]
struct Pending {
    node: &'static Node,
    mode: Mode,
    property: bool,
    description: Option<Doc>,
    /// Which operations require the property.
    presence: Requirement,
}

/// A property every operation requires (a tool's root, array items, map values).
const ALWAYS: Requirement = Requirement {
    by_every: true,
    by_some: true,
};

impl<'a> Findings<'a> {
    /// The walk over these tools, before its first step.
    pub const fn of(tools: &'a [Tool], profile: &'a SchemaProfile) -> Findings<'a> {
        Findings {
            tools,
            profile,
            tool: 0,
            step: ToolStep::Name,
            frames: [Frame::Empty; MAX_DEPTH],
            depth: 0,
            pending: None,
        }
    }

    /// The next finding, or `None` when every tool is checked.
    #[allow(clippy::should_implement_trait)] // a `const fn`, which `Iterator::next` cannot be
    pub const fn next(&mut self) -> Option<Finding> {
        loop {
            let found = if let Some(pending) = self.pending.take() {
                self.look_at(pending)
            } else if self.depth > 0 {
                self.advance()
            } else if self.tool < self.tools.len() {
                self.tool_step()
            } else {
                return None;
            };
            if found.is_some() {
                return found;
            }
        }
    }

    /// The checks of the tool itself, then its walk, then the next tool.
    const fn tool_step(&mut self) -> Option<Finding> {
        let tool = &self.tools[self.tool];
        match self.step {
            ToolStep::Name => {
                self.step = ToolStep::Duplicate;
                match name_problem(tool.name) {
                    Some(why) => {
                        Some(Finding::new(FindingKind::InvalidName, tool.name).because(why))
                    }
                    None => None,
                }
            }
            ToolStep::Duplicate => {
                self.step = ToolStep::Object;
                let mut earlier = 0;
                while earlier < self.tool {
                    if str_eq(self.tools[earlier].name, tool.name) {
                        let why = "another tool has the same name; tool names must be unique";
                        return Some(
                            Finding::new(FindingKind::DuplicateName, tool.name).because(why),
                        );
                    }
                    earlier += 1;
                }
                None
            }
            ToolStep::Object => {
                self.step = ToolStep::Walk;
                // Every dialect but `Mcp` advertises the flat schema.
                let mode = match self.profile.dialect {
                    Dialect::Mcp => tool.advertised_mode(),
                    _ => Mode::Advertised,
                };
                self.pending = Some(Pending {
                    node: tool.input,
                    mode,
                    property: false,
                    description: None,
                    presence: ALWAYS,
                });
                if advertises_object(tool.input, mode) {
                    None
                } else {
                    let why =
                        "its input schema must be an object (MCP requires `\"type\": \"object\"`)";
                    Some(Finding::new(FindingKind::NotAnObject, tool.name).because(why))
                }
            }
            ToolStep::Walk => {
                self.tool += 1;
                self.step = ToolStep::Name;
                None
            }
        }
    }

    /// A node: its type when it is a property, then what it contains.
    const fn look_at(&mut self, pending: Pending) -> Option<Finding> {
        let node = pending.node;
        if pending.property && node.advertises_no_type() && self.judges_this_property() {
            // Looked at again for what it contains, once this finding is reported.
            self.pending = Some(Pending {
                property: false,
                ..pending
            });
            let why = Text::new()
                .push("it is an opaque value (`#[contract(opaque)]`), advertised as `{}`");
            return Some(self.untyped(why, pending.description));
        }
        if pending.property
            && !matches!(self.profile.dialect, Dialect::Mcp)
            && let Some(why) =
                dialect::loss(self.profile.dialect, Form::Node(node), pending.presence)
        {
            self.pending = Some(Pending {
                property: false,
                ..pending
            });
            return Some(self.inexpressible(why, pending.description));
        }
        match node.kind {
            Kind::String(rules) => match rules.format {
                Some(format) if self.profile.portable_formats => self.format(format),
                _ => None,
            },
            // A strict dialect advertises a map as an empty object: its values are not shown.
            Kind::Map(_) if self.profile.dialect.is_strict() => None,
            Kind::Array(item, _) | Kind::Map(item) => {
                self.pending = Some(Pending {
                    node: item,
                    property: false,
                    description: None,
                    presence: ALWAYS,
                    ..pending
                });
                None
            }
            Kind::Object(object) => self.enter(Frame::Fields {
                fields: object.fields,
                next: 0,
                mode: pending.mode,
                segment: "",
            }),
            Kind::Union(union) => self.enter(match pending.mode {
                Mode::Advertised => Frame::Keys {
                    union,
                    keys: Keys::of(union),
                    segment: "",
                },
                Mode::Exact => Frame::Operations {
                    union,
                    variant: 0,
                    field: 0,
                    segment: "",
                },
            }),
            _ => None,
        }
    }

    /// A `format` outside the portable ones and the allowed ones.
    const fn format(&self, format: &str) -> Option<Finding> {
        if format_allowed(format, self.profile) {
            return None;
        }
        let mut finding = Finding::new(FindingKind::NonPortableFormat, self.tools[self.tool].name);
        finding.path = self.path();
        finding.why = Text::new()
            .push("the format \"")
            .push(format)
            .push("\", which many clients and models do not know");
        Some(finding)
    }

    /// Walks into a container, unless the walk is as deep as it goes.
    const fn enter(&mut self, frame: Frame) -> Option<Finding> {
        if self.depth == MAX_DEPTH {
            let mut finding = Finding::new(FindingKind::TooDeep, self.tools[self.tool].name);
            finding.path = self.path();
            finding.why = Text::new().push("the input nests objects deeper than the guard walks");
            return Some(finding);
        }
        self.frames[self.depth] = frame;
        self.depth += 1;
        None
    }

    /// The next property of the innermost container, or out of it when it has no more.
    const fn advance(&mut self) -> Option<Finding> {
        let top = self.depth - 1;
        match self.frames[top] {
            Frame::Empty => {}
            Frame::Fields {
                fields, next, mode, ..
            } => {
                if next < fields.len() {
                    let field = &fields[next];
                    self.frames[top] = Frame::Fields {
                        fields,
                        next: next + 1,
                        mode,
                        segment: field.name,
                    };
                    self.property(field.node, mode, field.description, presence_of(field));
                    return None;
                }
            }
            Frame::Operations {
                union,
                mut variant,
                mut field,
                ..
            } => {
                // The next field: the operation's next one, or the next operation's first.
                while variant < union.variants.len()
                    && field >= union.variants[variant].object.fields.len()
                {
                    variant += 1;
                    field = 0;
                }
                if variant < union.variants.len() {
                    let current = &union.variants[variant].object.fields[field];
                    self.frames[top] = Frame::Operations {
                        union,
                        variant,
                        field: field + 1,
                        segment: current.name,
                    };
                    let presence = presence_of(current);
                    self.property(current.node, Mode::Exact, current.description, presence);
                    return None;
                }
            }
            Frame::Keys {
                union, mut keys, ..
            } => {
                if let Some((key, set)) = keys.next() {
                    self.frames[top] = Frame::Keys {
                        union,
                        keys,
                        segment: key.name,
                    };
                    return self.key(union, key.merge, key.requirement, set);
                }
            }
        }
        self.depth -= 1;
        None
    }

    /// A property met in a container: looked at next.
    const fn property(
        &mut self,
        node: &'static Node,
        mode: Mode,
        description: Option<Doc>,
        presence: Requirement,
    ) {
        self.pending = Some(Pending {
            node,
            mode,
            property: true,
            description,
            presence,
        });
    }

    /// A flattened key, by its merge decision: kept, it is a property like any other; free, it
    /// has no type, and the finding says why.
    const fn key(
        &mut self,
        union: &'static Union,
        merge: KeyMerge,
        presence: Requirement,
        set: CollisionSet<'static>,
    ) -> Option<Finding> {
        let description = first_description(set);
        let form = match merge {
            Merge::Keep(node) => {
                self.property(node, Mode::Advertised, description, presence);
                return None;
            }
            Merge::Free(reason) if self.judges_this_property() => {
                return Some(self.untyped(free_reason(union, set, reason), description));
            }
            Merge::Free(_) => Form::Free,
            Merge::StringEnum { nullable } => Form::Enum { nullable },
            Merge::Base { kinds, .. } => Form::Base(kinds),
        };
        match dialect::loss(self.profile.dialect, form, presence) {
            Some(why) => Some(self.inexpressible(why, description)),
            None => None,
        }
    }

    /// Whether untyped properties are findings, and this one is not allowed to be untyped.
    const fn judges_this_property(&self) -> bool {
        self.profile.typed_properties && !self.untyped_allowed()
    }

    const fn path(&self) -> Text<256> {
        let mut path = Text::new();
        let mut i = 0;
        while i < self.depth {
            if i > 0 {
                path.push_str(".");
            }
            path.push_str(self.frames[i].segment());
            i += 1;
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
        let tool = self.tools[self.tool].name;
        let entry = entry.as_bytes();
        if !starts_with_at(entry, 0, tool.as_bytes()) {
            return false;
        }
        let mut at = tool.len();
        let mut i = 0;
        while i < self.depth {
            if at >= entry.len() || entry[at] != b'.' {
                return false;
            }
            at += 1;
            let segment = self.frames[i].segment().as_bytes();
            if !starts_with_at(entry, at, segment) {
                return false;
            }
            at += segment.len();
            i += 1;
        }
        at == entry.len()
    }

    const fn inexpressible(&self, why: &str, description: Option<Doc>) -> Finding {
        let mut finding = Finding::new(FindingKind::Inexpressible, self.tools[self.tool].name);
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

    const fn untyped(&self, why: Text<384>, description: Option<Doc>) -> Finding {
        let mut finding = Finding::new(FindingKind::Untyped, self.tools[self.tool].name);
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

/// Which operations require a field: all of them or none (a field of one object).
const fn presence_of(field: &Field) -> Requirement {
    Requirement {
        by_every: field.required,
        by_some: field.required,
    }
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
