//! Dialects as one table: which clients an advertised schema is written for, and for each, one
//! row ([`DialectRules`]) of the rules the renderer, the guard's walk and `parse_for` read —
//! whether objects are closed, how `null` and an omittable key are said, several kinds, a free
//! value, a tuple, a foreign `anyOf`, a map, which keywords stay keywords, which names the
//! provider takes and which budgets bind it. None of them names a dialect: a new dialect is a
//! variant and a row here, as schemars states each of its settings as one value.
//!
//! Reading a row is an array read (`DIALECTS[dialect as usize]`), no call: constant evaluation
//! pays for every call, and the compile-time rendering reads the `Mcp` row at every node.

use core::fmt;
use core::str::FromStr;

use crate::format::{ANTHROPIC_STRICT_FORMATS, OPENAI_STRICT_FORMATS};

/// Which clients an advertised schema is written for. Every dialect is rendered from the same
/// contract by the same collision rules, at run time and once per contract and dialect; `Mcp`
/// is the compile-time `INPUT_SCHEMA` itself. `Display` and `FromStr` use each row's name
/// (`mcp`, `portable`, `openai-strict`, `anthropic-strict`, `gemini`).
///
/// Non-exhaustive: a provider's new dialect is a new row of [`DIALECTS`], not a breaking
/// change. What a dialect does is its row's ([`Dialect::rules`]).
///
/// ```
/// use stitch::Dialect;
///
/// let dialect: Dialect = "openai-strict".parse().unwrap();
/// assert_eq!(dialect, Dialect::OpenAiStrict);
/// assert_eq!(dialect.to_string(), "openai-strict");
/// assert!(dialect.rules().objects_closed);
/// assert!("oneOf".parse::<Dialect>().is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Dialect {
    /// The flat schema as MCP clients are shown it (the default): JSON Schema 2020-12 whole.
    #[default]
    Mcp,
    /// For clients that take plain JSON Schema but not its corners (Cursor, VS Code, Gemini's
    /// OpenAPI `parameters`).
    Portable,
    /// OpenAI's strict function calling.
    OpenAiStrict,
    /// Anthropic's strict tool use.
    AnthropicStrict,
    /// Gemini's function declarations (`parametersJsonSchema`, and the `parameters` subset
    /// google-genai's converter takes).
    Gemini,
}

/// One dialect's rules: what the renderer writes, what the guard reports as lost, and how
/// `parse_for` reads a call, for clients shown that dialect. Each field is one named rule;
/// [`DIALECTS`] holds one row per dialect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct DialectRules {
    /// The dialect the row is for.
    pub dialect: Dialect,
    /// Its name (`openai-strict`), as `Display` and `FromStr` use it.
    pub name: &'static str,
    /// Its variant's name in Rust (`OpenAiStrict`), as generated code names it.
    pub variant: &'static str,
    /// What its clients are, and where the row's rules are documented or seen.
    pub readers: &'static str,
    /// Whether its clients take every JSON Schema 2020-12 keyword and composition as written:
    /// every keyword stays a keyword, a foreign schema's verbatim parts are shown as written,
    /// a tool may advertise its exact schema, and an output schema is the advertised one.
    pub whole_json_schema: bool,
    /// Whether every object is closed (`additionalProperties: false`), whatever the contract
    /// says: a flattened map's keys cannot be shown, and an object of undeclared keys is
    /// `{}` only.
    pub objects_closed: bool,
    /// How a key an operation may leave out is sent.
    pub omitted: Omitted,
    /// How a value that may be `null` says it.
    pub null: NullSaid,
    /// How a value of several base kinds (a key its operations type differently, a foreign
    /// `type` array) is said.
    pub kinds: SeveralKinds,
    /// How a value that holds any JSON value (`serde_json::Value`) or nothing stitch can type
    /// (an opaque value) is said.
    pub free: FreeValues,
    /// How a tuple is said.
    pub tuples: Tuples,
    /// How a foreign schema's `anyOf` is said.
    pub any_of: AnyOf,
    /// How a map is sent.
    pub maps: Maps,
    /// Whether a string enum says `"type": "string"` beside its `enum`.
    pub enum_type: bool,
    /// Whether it takes each keyword as a keyword (by [`Keyword`](crate::Keyword), in
    /// [`KEYWORDS`](crate::KEYWORDS)' order); what it does not take moves into the
    /// description, written as Anthropic's SDK writes it (`{minimum: 0}`).
    pub keywords: [Taken; KEYWORD_COUNT],
    /// The names it takes for tools and parameters, where it says more than MCP does.
    pub names: Option<NameRule>,
    /// Whose budgets bind a request of its clients: the limits of that provider.
    pub budgets: Option<Provider>,
}

// The rules' enums are exhaustive on purpose: a new variant is a rule the renderer, the
// guard and `parse_for` must each implement, and stitch's crates are released together.

/// How a key an operation may leave out is sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(
    clippy::exhaustive_enums,
    reason = "the rules stitch-derive and stitch-runtime read and build, released with them at one version: a new variant is a rule each must implement"
)]
pub enum Omitted {
    /// Left out: `required` lists the keys every operation sends.
    LeftOut,
    /// Sent as `null`: `required` lists every key, an omittable one is nullable, and
    /// `parse_for` reads its `null` as absence (OpenAI's strict mode sends every key).
    SentAsNull,
}

/// How a value that may be `null` says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(
    clippy::exhaustive_enums,
    reason = "the rules stitch-derive and stitch-runtime read and build, released with them at one version: a new variant is a rule each must implement"
)]
pub enum NullSaid {
    /// In its `type` (`["string", "null"]`) and its `enum`.
    InType,
    /// As `anyOf` of its schema and `null` (in its `enum`, for an enum) only where `null`
    /// means something leaving the key out does not (the key is required, or its default is
    /// not `None`); elsewhere leaving it out says it.
    BranchWhereItMatters,
    /// Never: leaving the key out says it (`parse` still takes `null`); where `null` means
    /// something else, the guard reports it.
    Absence,
}

/// How a value of several base kinds is said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(
    clippy::exhaustive_enums,
    reason = "the rules stitch-derive and stitch-runtime read and build, released with them at one version: a new variant is a rule each must implement"
)]
pub enum SeveralKinds {
    /// A `type` array.
    TypeArray,
    /// `{}`, its kinds named in its description (the guard reports it).
    Described,
    /// `anyOf` of one branch per kind: for a reader that refuses `type` arrays yet must see a
    /// type on every property (Anthropic's SDK asserts on a `type` list).
    Branches,
}

/// How a free value (any JSON value) or an opaque one is said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(
    clippy::exhaustive_enums,
    reason = "the rules stitch-derive and stitch-runtime read and build, released with them at one version: a new variant is a rule each must implement"
)]
pub enum FreeValues {
    /// Any value as a `type` array of every kind; an opaque value as `{}`.
    Open,
    /// `{}`, any value's kinds named in its description.
    Untyped,
    /// Any scalar, said as several kinds are (every property typed): an object or array is
    /// sent as its JSON text, which `parse_for` reads back.
    JsonText,
}

/// How a tuple is said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(
    clippy::exhaustive_enums,
    reason = "the rules stitch-derive and stitch-runtime read and build, released with them at one version: a new variant is a rule each must implement"
)]
pub enum Tuples {
    /// Position by position, `prefixItems`.
    PrefixItems,
    /// One `items` every position meets (by the collision rules), each position named in
    /// the description.
    SharedItems,
}

/// How a foreign schema's `anyOf` is said (a contract's own input holds none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(
    clippy::exhaustive_enums,
    reason = "the rules stitch-derive and stitch-runtime read and build, released with them at one version: a new variant is a rule each must implement"
)]
pub enum AnyOf {
    /// As written, beside its description.
    Kept,
    /// Merged by the collision rules into what every branch's values meet, or where that
    /// keeps no kind, its object branch (the guard reports it).
    Merged,
    /// Kept, with nothing beside it on its node (its description is left out, and the guard
    /// reports it).
    Alone,
}

/// How a map is sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(
    clippy::exhaustive_enums,
    reason = "the rules stitch-derive and stitch-runtime read and build, released with them at one version: a new variant is a rule each must implement"
)]
pub enum Maps {
    /// As an object of its keys (`additionalProperties` holds the values' schema).
    Object,
    /// As an array of `{"key", "value"}` entries (closed objects cannot hold undeclared keys);
    /// `parse_for` reads it back into the map.
    Entries,
}

/// The names a provider takes for tools and parameters: a letter or `_` first, then letters,
/// digits and the punctuation listed, at most `most` characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct NameRule {
    /// The most characters a name has.
    pub most: usize,
    /// The punctuation a name may hold besides letters and digits.
    pub punctuation: &'static str,
    /// Where the rule is documented.
    pub source: &'static str,
}

impl NameRule {
    /// Whether `name` follows the rule.
    pub const fn takes(&self, name: &str) -> bool {
        let bytes = name.as_bytes();
        if bytes.is_empty() || bytes.len() > self.most {
            return false;
        }
        if !(bytes[0].is_ascii_alphabetic() || bytes[0] == b'_') {
            return false;
        }
        let mut i = 0;
        while i < bytes.len() {
            let byte = bytes[i];
            if !byte.is_ascii_alphanumeric() && !contains(self.punctuation, byte) {
                return false;
            }
            i += 1;
        }
        true
    }
}

const fn contains(text: &str, byte: u8) -> bool {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == byte {
            return true;
        }
        i += 1;
    }
    false
}

/// A provider whose documented limits bind what one request holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Provider {
    /// OpenAI's Structured Outputs and function calling.
    OpenAi,
    /// Anthropic's strict tool use.
    Anthropic,
    /// Google's Gemini function declarations.
    Gemini,
}

/// How many keywords the keyword table holds.
pub const KEYWORD_COUNT: usize = 14;

/// Whether a dialect takes a keyword as a keyword; what it does not take moves into the
/// property's description, written as Anthropic's SDK writes it (`{minimum: 0}`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Taken {
    /// Always.
    Yes,
    /// Never.
    No,
    /// A `format` in this list.
    Formats(&'static [&'static str]),
    /// A count of at most this.
    AtMost(u64),
}

impl Taken {
    /// Whether the keyword is taken with this value: `format` names the format of a `format`
    /// keyword, `count` the count of a count keyword (else anything).
    pub const fn takes(self, format: &str, count: u64) -> bool {
        match self {
            Taken::Yes => true,
            Taken::No => false,
            Taken::Formats(formats) => crate::strings::listed(format, formats),
            Taken::AtMost(most) => count <= most,
        }
    }
}

/// A row's keywords: every one taken but those listed, which are taken as said.
const fn keywords_but(exceptions: &[(crate::Keyword, Taken)]) -> [Taken; KEYWORD_COUNT] {
    let mut taken = [Taken::Yes; KEYWORD_COUNT];
    let mut i = 0;
    while i < exceptions.len() {
        taken[exceptions[i].0 as usize] = exceptions[i].1;
        i += 1;
    }
    taken
}

use crate::Keyword as K;

/// Every dialect's rules, in the order of [`Dialect`]'s variants: the one place a dialect is
/// said.
pub const DIALECTS: [DialectRules; 5] = [
    DialectRules {
        dialect: Dialect::Mcp,
        name: "mcp",
        variant: "Mcp",
        readers: "MCP clients (JSON Schema 2020-12, the MCP specification's default)",
        whole_json_schema: true,
        objects_closed: false,
        omitted: Omitted::LeftOut,
        null: NullSaid::InType,
        kinds: SeveralKinds::TypeArray,
        free: FreeValues::Open,
        tuples: Tuples::PrefixItems,
        any_of: AnyOf::Kept,
        maps: Maps::Object,
        enum_type: true,
        keywords: keywords_but(&[]),
        names: None,
        budgets: None,
    },
    DialectRules {
        dialect: Dialect::Portable,
        name: "portable",
        variant: "Portable",
        readers: "clients that take plain JSON Schema but not its corners: Cursor refuses `anyOf` anywhere (code-yeongyu/senpi#952), Gemini's `parameters` refuses `type` arrays (n8n-io/n8n#15553), `exclusiveMinimum` (zendev-sh/zenflow#14) and `uniqueItems`, VS Code refuses arrays without `items` (microsoft/vscode#246119)",
        whole_json_schema: false,
        objects_closed: false,
        omitted: Omitted::LeftOut,
        null: NullSaid::Absence,
        kinds: SeveralKinds::Described,
        free: FreeValues::Untyped,
        tuples: Tuples::SharedItems,
        any_of: AnyOf::Merged,
        maps: Maps::Object,
        enum_type: true,
        keywords: keywords_but(&[
            (K::ExclusiveMinimum, Taken::No),
            (K::ExclusiveMaximum, Taken::No),
            (K::MultipleOf, Taken::No),
            (K::UniqueItems, Taken::No),
        ]),
        names: None,
        budgets: Some(Provider::Gemini),
    },
    DialectRules {
        dialect: Dialect::OpenAiStrict,
        name: "openai-strict",
        variant: "OpenAiStrict",
        readers: "OpenAI's strict function calling (developers.openai.com/api/docs/guides/structured-outputs, \"Supported schemas\"; the Agents SDK's `ensure_strict_json_schema` leaves it unchanged)",
        whole_json_schema: false,
        objects_closed: true,
        omitted: Omitted::SentAsNull,
        null: NullSaid::InType,
        kinds: SeveralKinds::TypeArray,
        free: FreeValues::JsonText,
        tuples: Tuples::SharedItems,
        any_of: AnyOf::Kept,
        maps: Maps::Entries,
        enum_type: true,
        keywords: keywords_but(&[
            (K::MinLength, Taken::No),
            (K::MaxLength, Taken::No),
            (K::Format, Taken::Formats(OPENAI_STRICT_FORMATS)),
            (K::UniqueItems, Taken::No),
            (K::MinProperties, Taken::No),
            (K::MaxProperties, Taken::No),
        ]),
        names: None,
        budgets: Some(Provider::OpenAi),
    },
    DialectRules {
        dialect: Dialect::AnthropicStrict,
        name: "anthropic-strict",
        variant: "AnthropicStrict",
        readers: "Anthropic's strict tool use (platform.claude.com/docs/en/build-with-claude/structured-outputs; the SDK's `transform_schema` leaves it unchanged)",
        whole_json_schema: false,
        objects_closed: true,
        omitted: Omitted::LeftOut,
        null: NullSaid::BranchWhereItMatters,
        // Its SDK's `transform_schema` refuses a `type` list ("Expected code to be
        // unreachable"), and its strict mode types every property.
        kinds: SeveralKinds::Branches,
        free: FreeValues::JsonText,
        tuples: Tuples::SharedItems,
        any_of: AnyOf::Kept,
        maps: Maps::Entries,
        // The SDK drops the `type` of an enum.
        enum_type: false,
        keywords: keywords_but(&[
            (K::Minimum, Taken::No),
            (K::Maximum, Taken::No),
            (K::ExclusiveMinimum, Taken::No),
            (K::ExclusiveMaximum, Taken::No),
            (K::MultipleOf, Taken::No),
            (K::MinLength, Taken::No),
            (K::MaxLength, Taken::No),
            (K::Pattern, Taken::No),
            (K::Format, Taken::Formats(ANTHROPIC_STRICT_FORMATS)),
            (K::MinItems, Taken::AtMost(1)),
            (K::MaxItems, Taken::No),
            (K::UniqueItems, Taken::No),
            (K::MinProperties, Taken::No),
            (K::MaxProperties, Taken::No),
        ]),
        names: None,
        budgets: Some(Provider::Anthropic),
    },
    DialectRules {
        dialect: Dialect::Gemini,
        name: "gemini",
        variant: "Gemini",
        readers: "Gemini's function declarations: `parametersJsonSchema` (Gemini 2.5 and later) and the `parameters` subset python-genai's `Schema.from_json_schema` converts to. `type` arrays are refused (`Proto field is not repeating`, n8n-io/n8n#15553; aoci-spec/aoci-code#61, github/copilot-cli#4623), so several kinds are said in words and `null` by leaving the key out; `anyOf` may hold nothing beside it on Gemini 3 through Vertex (\"When using any_of, it must be the only field set\"); `prefixItems`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf` and `uniqueItems` are not in its subset; `format` is only `date-time` for strings (google-gemini/gemini-cli#3178); an enum needs its `type` (decolua/9router#380)",
        whole_json_schema: false,
        objects_closed: false,
        omitted: Omitted::LeftOut,
        null: NullSaid::Absence,
        kinds: SeveralKinds::Described,
        free: FreeValues::Untyped,
        tuples: Tuples::SharedItems,
        any_of: AnyOf::Alone,
        maps: Maps::Object,
        enum_type: true,
        keywords: keywords_but(&[
            (K::ExclusiveMinimum, Taken::No),
            (K::ExclusiveMaximum, Taken::No),
            (K::MultipleOf, Taken::No),
            (K::Format, Taken::Formats(&["date-time"])),
            (K::UniqueItems, Taken::No),
        ]),
        names: Some(NameRule {
            most: 64,
            punctuation: "_.:-",
            source: "Gemini's function declarations: a name starts with a letter or `_` and holds only `a-z`, `A-Z`, `0-9`, `_`, `.`, `:` and `-`, at most 64 characters (python-genai `types.py`)",
        }),
        budgets: Some(Provider::Gemini),
    },
];

impl Dialect {
    /// The default dialect, `Mcp`, as a constant.
    pub const DEFAULT: Dialect = Dialect::Mcp;

    /// Every dialect, the default first (in the order of their rows).
    pub const ALL: &'static [Dialect] = &{
        let mut all = [Dialect::Mcp; DIALECTS.len()];
        let mut i = 0;
        while i < DIALECTS.len() {
            all[i] = DIALECTS[i].dialect;
            i += 1;
        }
        all
    };

    /// The dialect's rules: its row of [`DIALECTS`].
    pub const fn rules(self) -> &'static DialectRules {
        &DIALECTS[self as usize]
    }

    /// The dialect's name (`mcp`, `portable`, `openai-strict`, `anthropic-strict`, `gemini`).
    pub const fn name(self) -> &'static str {
        self.rules().name
    }

    /// The dialect of this name.
    pub const fn named(name: &str) -> Option<Dialect> {
        let mut i = 0;
        while i < DIALECTS.len() {
            if crate::strings::str_eq(DIALECTS[i].name, name) {
                return Some(DIALECTS[i].dialect);
            }
            i += 1;
        }
        None
    }

    /// Whether the dialect is a provider's strict mode: every object closed, every property
    /// typed (its row's [`objects_closed`](DialectRules::objects_closed)).
    pub const fn is_strict(self) -> bool {
        self.rules().objects_closed
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Dialect {
    type Err = UnknownDialect;

    fn from_str(name: &str) -> Result<Dialect, UnknownDialect> {
        Dialect::named(name).ok_or_else(|| UnknownDialect(name.to_owned()))
    }
}

/// A dialect name [`Dialect::from_str`] does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct UnknownDialect(pub String);

impl fmt::Display for UnknownDialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown dialect \"{}\"; known: ", self.0)?;
        for (i, dialect) in Dialect::ALL.iter().enumerate() {
            f.write_str(if i == 0 { "" } else { ", " })?;
            f.write_str(dialect.name())?;
        }
        Ok(())
    }
}

impl std::error::Error for UnknownDialect {}

#[cfg(test)]
mod tests {
    use super::Dialect;

    #[test]
    fn every_dialect_is_found_by_its_name_in_order() {
        for (i, &dialect) in Dialect::ALL.iter().enumerate() {
            assert_eq!(dialect as usize, i);
            assert_eq!(dialect.name().parse(), Ok(dialect));
            assert_eq!(dialect.rules().dialect, dialect);
        }
        let unknown = "oneOf".parse::<Dialect>().unwrap_err();
        assert_eq!(
            unknown.to_string(),
            "unknown dialect \"oneOf\"; known: mcp, portable, openai-strict, anthropic-strict, gemini"
        );
    }
}
