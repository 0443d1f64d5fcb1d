//! Dialects: the advertised schema as each kind of client takes it. One contract, one IR and
//! one set of collision rules serve every client; what differs is how the flat object says
//! `null`, an optional key, a key whose operations disagree on its kind, a free value, and the
//! keywords a client does not take. The renderer asks this module at each of those points, the
//! guard asks the same questions to report what a dialect cannot say, and `parse` reads a
//! strict client's `null`s as absence (see [`Dialect::OpenAiStrict`]).

use core::fmt;
use core::str::FromStr;

use crate::node::{Kind, Node, kinds};
use crate::strings::{listed, str_eq};
use crate::table::Requirement;

/// Which clients an advertised schema is written for. Every dialect is rendered from the same
/// contract by the same collision rules, at run time and once per contract and dialect; `Mcp`
/// is the compile-time `INPUT_SCHEMA` itself. `Display` and `FromStr` use the names `mcp`,
/// `portable`, `openai-strict` and `anthropic-strict`.
///
/// ```
/// # use stitch_runtime as stitch;
/// use stitch::Dialect;
///
/// let dialect: Dialect = "openai-strict".parse().unwrap();
/// assert_eq!(dialect, Dialect::OpenAiStrict);
/// assert_eq!(dialect.to_string(), "openai-strict");
/// assert!("oneOf".parse::<Dialect>().is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Dialect {
    /// The flat schema as MCP clients are shown it (the default): `type` arrays for `null`
    /// and for keys whose operations disagree on the kind, every keyword.
    #[default]
    Mcp,
    /// For clients that take plain JSON Schema but not its corners (Cursor's `type` arrays,
    /// VS Code's arrays without `items`, Gemini's OpenAPI subset): no `type` arrays and no
    /// composition keywords. An optional key is advertised as its inner type (`parse` still
    /// takes `null`: to serde, omission and `null` mean the same), and a key whose operations
    /// disagree on the kind is `{}` with its kinds in its description. `exclusiveMinimum`,
    /// `exclusiveMaximum`, `multipleOf` and `uniqueItems` move into the description.
    Portable,
    /// OpenAI's strict function calling (the Agents SDK's `ensure_strict_json_schema` leaves
    /// it unchanged): every object lists every property in `required` and closes with
    /// `additionalProperties: false`; a key that may be omitted is nullable instead, and
    /// [`parse_for`](crate::Contract::parse_for) reads its `null` as absence, as it does the
    /// `null` of a key the chosen operation does not declare. Keywords strict mode does not
    /// take (`minLength`, `maxLength`, `uniqueItems`, formats beyond its list) move into the
    /// description; `parse` still enforces them.
    OpenAiStrict,
    /// Anthropic's strict tool use (the SDK's `transform_schema` leaves it unchanged): every
    /// object closed, no `type` arrays (a `null` an operation requires is `anyOf` of the type
    /// and `null`; an optional one is left out, as in `Portable`), string enums without
    /// `type`, and the keywords the SDK would move written into the description as it writes
    /// them (`{minimum: 0}`); `parse` still enforces them.
    AnthropicStrict,
}

impl Dialect {
    /// Every dialect, the default first.
    pub const ALL: [Dialect; 4] = [
        Dialect::Mcp,
        Dialect::Portable,
        Dialect::OpenAiStrict,
        Dialect::AnthropicStrict,
    ];

    /// The dialect's name (`mcp`, `portable`, `openai-strict`, `anthropic-strict`).
    pub const fn name(self) -> &'static str {
        match self {
            Dialect::Mcp => "mcp",
            Dialect::Portable => "portable",
            Dialect::OpenAiStrict => "openai-strict",
            Dialect::AnthropicStrict => "anthropic-strict",
        }
    }

    /// Whether the dialect is a provider's strict mode: every object closed, every property
    /// typed.
    pub(crate) const fn is_strict(self) -> bool {
        matches!(self, Dialect::OpenAiStrict | Dialect::AnthropicStrict)
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
        Dialect::ALL
            .into_iter()
            .find(|dialect| dialect.name() == name)
            .ok_or_else(|| UnknownDialect(name.to_owned()))
    }
}

/// A dialect name [`Dialect::from_str`] does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
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

/// A keyword of a node's rules, as a dialect judges it.
#[derive(Clone, Copy)]
pub(crate) enum Keyword {
    /// `minimum`, `maximum`.
    Bound,
    /// `exclusiveMinimum`, `exclusiveMaximum`.
    ExclusiveBound,
    MultipleOf,
    MinLength,
    MaxLength,
    Pattern,
    Format(&'static str),
    MinItems(u64),
    MaxItems,
    UniqueItems,
}

/// The formats OpenAI's strict mode takes. Anthropic's strict tool use takes these and `uri`
/// (the SDK's `SupportedStringFormats`).
const OPENAI_FORMATS: [&str; 9] = [
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

/// Whether the dialect takes a keyword as a keyword (otherwise it moves into the
/// description).
pub(crate) const fn takes(dialect: Dialect, keyword: Keyword) -> bool {
    match dialect {
        Dialect::Mcp => true,
        // What Gemini's OpenAPI subset lacks: `google.genai` refuses these.
        Dialect::Portable => !matches!(
            keyword,
            Keyword::ExclusiveBound | Keyword::MultipleOf | Keyword::UniqueItems
        ),
        Dialect::OpenAiStrict => match keyword {
            Keyword::MinLength | Keyword::MaxLength | Keyword::UniqueItems => false,
            Keyword::Format(name) => listed(name, &OPENAI_FORMATS),
            _ => true,
        },
        Dialect::AnthropicStrict => match keyword {
            Keyword::Format(name) => str_eq(name, "uri") || listed(name, &OPENAI_FORMATS),
            Keyword::MinItems(count) => count <= 1,
            _ => false,
        },
    }
}

/// How a property's `null` is advertised.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Null {
    /// Not at all.
    No,
    /// In its `type` (and its `enum`).
    InType,
    /// As `anyOf` of the type and `null` (in its `enum`, for an enum).
    AnyOf,
}

/// How a property accepting `null` (`nullable`), required by `presence`, shows it.
pub(crate) const fn null(dialect: Dialect, nullable: bool, presence: Requirement) -> Null {
    match dialect {
        Dialect::Mcp => {
            if nullable {
                Null::InType
            } else {
                Null::No
            }
        }
        // Omission says what `null` says: only a key some operation requires loses it.
        Dialect::Portable => Null::No,
        // Every key is sent; one that may be omitted is sent as `null`.
        Dialect::OpenAiStrict => {
            if nullable || !presence.by_every {
                Null::InType
            } else {
                Null::No
            }
        }
        Dialect::AnthropicStrict => {
            if nullable && presence.by_some {
                Null::AnyOf
            } else {
                Null::No
            }
        }
    }
}

/// A property as the dialect rules judge it: a node, or a flattened key's merge.
#[derive(Clone, Copy)]
pub(crate) enum Form {
    /// A node advertised as it is.
    Node(&'static Node),
    /// The union of the operations' string enums.
    Enum { nullable: bool },
    /// The base kinds only (bits of [`kinds`]).
    Base(u8),
    /// `{}`: no honest type.
    Free,
}

const NULL_REQUIRED: &str = "an operation requires it and accepts `null`, which this dialect cannot say without a `type` array: it is advertised without `null` (parse still accepts `null`)";
const ANY_VALUE: &str = "it holds any JSON value, which one type cannot name without a `type` array: it is advertised as `{}`";
const KINDS: &str = "its operations declare it with different kinds, which one type cannot name without a `type` array: it is advertised as `{}`, its kinds in its description";
const SCALARS: &str = "strict mode needs a type on every property, and no type fits this free or opaque value: it is advertised as a string, number, boolean or null";
const CLOSED_MAP: &str = "strict mode closes every object, so a map's keys cannot be advertised: it is advertised as an empty object";
const CLOSED_OBJECT: &str = "strict mode closes every object, and its operations declare different objects here: it is advertised as an empty object";
const OPEN_ITEMS: &str = "its operations declare different arrays here, so its items have no type: they are advertised as `{}`, which clients without `type` arrays cannot always read";
const OPEN_OBJECT: &str = "its operations declare different objects here, so its keys have no type: it is advertised as an object of any keys";
const SCALAR_ITEMS: &str = "strict mode needs a type on every array's items, and its operations declare different arrays here: its items are advertised as strings, numbers, booleans or null";

/// What the dialect cannot say of a property required by `presence`, and how the renderer
/// advertises it instead: the guard's finding. (Each case names the branch of the renderer
/// that writes it.)
pub(crate) const fn loss(
    dialect: Dialect,
    form: Form,
    presence: Requirement,
) -> Option<&'static str> {
    let strict = dialect.is_strict();
    let portable = matches!(dialect, Dialect::Portable);
    match form {
        Form::Node(node) => {
            if portable && node.nullable && presence.by_some {
                return Some(NULL_REQUIRED);
            }
            match node.kind {
                Kind::Any if portable => Some(ANY_VALUE),
                Kind::Any | Kind::Opaque if strict => Some(SCALARS),
                Kind::Map(_) if strict => Some(CLOSED_MAP),
                _ => None,
            }
        }
        Form::Enum { nullable } => {
            if portable && nullable && presence.by_some {
                Some(NULL_REQUIRED)
            } else {
                None
            }
        }
        Form::Base(kind_bits) => {
            let plain = kind_bits & !kinds::NULL;
            if portable && several(plain) {
                Some(KINDS)
            } else if portable && kind_bits & kinds::NULL != 0 && presence.by_some {
                Some(NULL_REQUIRED)
            } else if portable && plain == kinds::ARRAY {
                Some(OPEN_ITEMS)
            } else if portable && plain == kinds::OBJECT {
                Some(OPEN_OBJECT)
            } else if strict && plain & kinds::OBJECT != 0 {
                Some(CLOSED_OBJECT)
            } else if strict && plain & kinds::ARRAY != 0 {
                Some(SCALAR_ITEMS)
            } else {
                None
            }
        }
        Form::Free if strict => Some(SCALARS),
        Form::Free => None,
    }
}

/// Whether the kind bits name more than one kind.
pub(crate) const fn several(kind_bits: u8) -> bool {
    kind_bits & kind_bits.wrapping_sub(1) != 0
}
