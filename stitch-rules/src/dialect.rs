//! Dialects: which clients an advertised schema is written for. One contract, one IR and one
//! set of collision rules serve every client; the runtime renders each dialect, `parse_for`
//! holds a client to what it was shown, and the keyword table says which keywords each
//! dialect takes as keywords.

use core::fmt;
use core::str::FromStr;

/// Which clients an advertised schema is written for. Every dialect is rendered from the same
/// contract by the same collision rules, at run time and once per contract and dialect; `Mcp`
/// is the compile-time `INPUT_SCHEMA` itself. `Display` and `FromStr` use the names `mcp`,
/// `portable`, `openai-strict` and `anthropic-strict`.
///
/// The enum is exhaustive on purpose: every rule of stitch says what each dialect does, and a
/// new dialect is a new version of stitch, checked everywhere by the compiler.
///
/// ```
/// use stitch_rules::Dialect;
///
/// let dialect: Dialect = "openai-strict".parse().unwrap();
/// assert_eq!(dialect, Dialect::OpenAiStrict);
/// assert_eq!(dialect.to_string(), "openai-strict");
/// assert!("oneOf".parse::<Dialect>().is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
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
    /// `parse_for` reads its `null` as absence, as it does the `null` of a key the chosen
    /// operation does not declare. Keywords strict mode does not take (the bounds of a
    /// string's length or a map's size, `uniqueItems`, formats beyond its list) move into the
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
    /// Every dialect, the default first (in the order of their discriminants).
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

    /// The dialect of this name.
    pub const fn named(name: &str) -> Option<Dialect> {
        let mut i = 0;
        while i < Dialect::ALL.len() {
            if crate::strings::str_eq(Dialect::ALL[i].name(), name) {
                return Some(Dialect::ALL[i]);
            }
            i += 1;
        }
        None
    }

    /// Whether the dialect is a provider's strict mode: every object closed, every property
    /// typed.
    pub const fn is_strict(self) -> bool {
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
        Dialect::named(name).ok_or_else(|| UnknownDialect(name.to_owned()))
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

/// Whether a dialect takes a keyword as a keyword; what it does not take moves into the
/// property's description, written as Anthropic's SDK writes it (`{minimum: 0}`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

#[cfg(test)]
mod tests {
    use super::Dialect;

    #[test]
    fn every_dialect_is_found_by_its_name_in_order() {
        for (i, dialect) in Dialect::ALL.into_iter().enumerate() {
            assert_eq!(dialect as usize, i);
            assert_eq!(dialect.name().parse(), Ok(dialect));
        }
        let unknown = "oneOf".parse::<Dialect>().unwrap_err();
        assert_eq!(
            unknown.to_string(),
            "unknown dialect \"oneOf\"; known: mcp, portable, openai-strict, anthropic-strict"
        );
    }
}
