//! The validated model of a derive input: wire names resolved, attributes checked, every
//! choice made. `expand` only translates it into code.

use proc_macro2::Span;
use stitch_rules::{Attribute, Dialect};

/// A whole derive input.
pub struct Contract {
    pub ident: syn::Ident,
    pub generics: syn::Generics,
    /// The path of the `stitch` crate (`::stitch` unless `#[contract(crate = "...")]`).
    pub krate: syn::Path,
    pub tool_name: String,
    pub description: Option<String>,
    pub flatten: bool,
    pub profile: Profile,
    /// A whole-object check (`#[contract(refine = path)]`).
    pub refine: Option<syn::Path>,
    pub body: Body,
}

/// The checks the contract asks the guard for at compile time.
#[derive(Default)]
pub struct Profile {
    pub require_typed_properties: bool,
    pub allow_untyped: Vec<String>,
    pub require_portable_formats: bool,
    pub allow_formats: Vec<String>,
    /// Where a check was asked for (`require_typed_properties` or
    /// `require_portable_formats`): the compile-time guard is spanned there.
    pub check_span: Option<Span>,
    /// The dialects of `check_dialects`, and where it was written.
    pub dialects: Vec<Dialect>,
    pub dialects_span: Option<Span>,
}

/// What the type is on the wire.
pub enum Body {
    /// An object with named fields.
    Object(Object),
    /// The single field's shape: `#[serde(transparent)]`, or a newtype struct (`newtype`),
    /// whose key serde requires even when the field is an `Option`.
    Transparent { field: Box<Field>, newtype: bool },
    /// A string limited to the variants' names; serde also reads the aliases, each paired
    /// with the name it stands for.
    UnitEnum {
        names: Vec<String>,
        aliases: Vec<(String, String)>,
        /// What the documented values mean, said wherever the enum is written.
        meanings: Option<String>,
    },
    /// A tagged union of operations.
    Union(Union),
}

impl Body {
    /// Every field on the wire: the object's, the transparent one, or each operation's.
    pub fn fields(&self) -> Box<dyn Iterator<Item = &Field> + '_> {
        match self {
            Body::Object(object) => Box::new(object.fields.iter()),
            Body::Transparent { field, .. } => Box::new(std::iter::once(&**field)),
            Body::UnitEnum { .. } => Box::new(std::iter::empty()),
            Body::Union(union) => {
                Box::new(
                    union
                        .variants
                        .iter()
                        .flat_map(|variant| match &variant.body {
                            VariantBody::Struct(object) => &object.fields[..],
                            VariantBody::Unit | VariantBody::Newtype(_) => &[],
                        }),
                )
            }
        }
    }

    /// The types of the newtype operations, whose fields only their shapes know.
    pub fn newtypes(&self) -> impl Iterator<Item = &syn::Type> {
        let variants = match self {
            Body::Union(union) => &union.variants[..],
            _ => &[],
        };
        variants.iter().filter_map(|variant| match &variant.body {
            VariantBody::Newtype(ty) => Some(&**ty),
            _ => None,
        })
    }
}

pub struct Object {
    pub fields: Vec<Field>,
    pub deny_unknown: bool,
}

pub struct Union {
    pub tagging: Tagging,
    pub variants: Vec<Variant>,
    /// `#[contract(hints = "by_operation")]`: each operation names its keys in the tag's
    /// description, and the keys carry no hint.
    pub hints_by_operation: bool,
}

/// Where serde puts a union's operation.
pub enum Tagging {
    /// `#[serde(tag = "op")]`: the tag beside the operation's fields.
    Internal { tag: String },
    /// `#[serde(tag = "op", content = "args")]`: the tag beside a key holding them.
    Adjacent { tag: String, content: String },
    /// serde's default: the operation's name as the one key, holding what it holds.
    External,
}

pub struct Variant {
    pub ident: syn::Ident,
    pub wire: String,
    pub aliases: Vec<String>,
    pub description: Option<String>,
    pub body: VariantBody,
}

pub enum VariantBody {
    /// A unit operation: the tag alone (serde ignores other keys there, even under
    /// `deny_unknown_fields`).
    Unit,
    /// A struct operation.
    Struct(Object),
    /// A newtype operation: wrapping a struct (its fields are the operation's), or, in an
    /// externally tagged union, any value.
    Newtype(Box<syn::Type>),
}

/// One field on the wire.
pub struct Field {
    /// How Rust code reaches the field (`self.part_index`, `self.0`).
    pub member: syn::Member,
    pub wire: String,
    pub aliases: Vec<String>,
    pub ty: syn::Type,
    /// The type as written, printed once: what the derive tells fields' types apart by
    /// (printing tokens is much of what a proc macro built without optimization spends).
    pub ty_spelling: String,
    pub description: Option<String>,
    pub has_default: bool,
    /// Where the field's schema comes from.
    pub source: Source,
    /// Attributes applied to the schema, in order, each at its span.
    pub steps: Vec<Step>,
    /// A hidden check of the typed value (`refine = path`).
    pub refine: Option<syn::Path>,
    /// `#[serde(flatten)]`: the field's keys (a struct's fields, a map's entries) are the
    /// object's own.
    pub flatten: bool,
    /// Whether the type the JSON is read as, by its spelling, holds no 128-bit integer (only
    /// standard types without one): serde's buffer for tagged operations holds none, and
    /// constant evaluation need not look.
    pub holds_no_wide_integer: bool,
    /// Whether the field's own type, by its spelling, names only standard types (scalars,
    /// strings and the standard containers of them): nothing inside it can carry a `refine`
    /// check, so the walk of hidden checks passes it by, and constant evaluation asserts
    /// that the name does mean the standard type.
    pub type_is_standard: bool,
}

/// Where a field's schema comes from.
pub enum Source {
    /// The field's own type.
    Type,
    /// `via = Type`: the JSON input is that type's shape.
    Via(Box<syn::Type>),
    /// `opaque`: `{}`.
    Opaque,
}

/// One attribute applied to a field's schema, at its span.
pub struct Step {
    pub span: Span,
    pub attribute: Attribute,
    pub value: StepValue,
}

/// What an attribute applied to a schema was given.
pub enum StepValue {
    /// A number, as JSON text and as a value.
    Bound {
        json: String,
        value: f64,
        integral: bool,
    },
    Count(u64),
    Text(String),
    Texts(Vec<String>),
    Flag,
    /// `catch = expr`: the expression, typed as the field.
    Catch(syn::Expr),
}
