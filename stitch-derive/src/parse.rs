//! Parsing: `#[contract(...)]` through darling receivers, and the `#[serde(...)]` attributes
//! stitch must follow to describe the wire format serde actually reads. Nothing here judges
//! whether the attributes fit together; that is `validate.rs`.

use darling::util::{Flag, SpannedValue};
use darling::{FromDeriveInput, FromField, FromMeta, FromVariant, ast};
use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, ExprLit, ExprUnary, Lit, LitStr, UnOp};

/// `#[contract(...)]` on the type, with the type itself.
#[derive(FromDeriveInput)]
#[darling(attributes(contract), forward_attrs(doc, serde))]
pub struct ContainerInput {
    pub ident: syn::Ident,
    pub generics: syn::Generics,
    pub data: ast::Data<VariantInput, FieldInput>,
    pub attrs: Vec<Attribute>,
    /// The tool name.
    pub name: Option<LitStr>,
    /// The tool description (else the doc comment).
    pub description: Option<String>,
    pub require_typed_properties: Flag,
    #[darling(default)]
    pub allow_untyped: SpannedValue<Vec<LitStr>>,
    pub require_portable_formats: Flag,
    #[darling(default)]
    pub allow_formats: SpannedValue<Vec<LitStr>>,
    pub flatten: Option<bool>,
    #[darling(rename = "crate")]
    pub krate: Option<syn::Path>,
    pub refine: Option<syn::Path>,
}

/// `#[contract(...)]` on an operation.
#[derive(FromVariant)]
#[darling(attributes(contract), forward_attrs(doc, serde))]
pub struct VariantInput {
    pub ident: syn::Ident,
    pub fields: ast::Fields<FieldInput>,
    pub attrs: Vec<Attribute>,
    pub description: Option<String>,
}

/// `#[contract(...)]` on a field.
#[derive(FromField)]
#[darling(attributes(contract), forward_attrs(doc, serde))]
pub struct FieldInput {
    pub ident: Option<syn::Ident>,
    pub ty: syn::Type,
    pub attrs: Vec<Attribute>,
    pub min: Option<SpannedValue<NumberLit>>,
    pub max: Option<SpannedValue<NumberLit>>,
    pub exclusive_min: Option<SpannedValue<NumberLit>>,
    pub exclusive_max: Option<SpannedValue<NumberLit>>,
    pub multiple_of: Option<SpannedValue<NumberLit>>,
    pub min_length: Option<SpannedValue<u64>>,
    pub max_length: Option<SpannedValue<u64>>,
    pub min_items: Option<SpannedValue<u64>>,
    pub max_items: Option<SpannedValue<u64>>,
    pub unique_items: Flag,
    pub pattern: Option<LitStr>,
    pub format: Option<LitStr>,
    #[darling(default)]
    pub values: SpannedValue<Vec<LitStr>>,
    pub description: Option<String>,
    pub refine: Option<syn::Path>,
    pub trim: Flag,
    pub lowercase: Flag,
    pub uppercase: Flag,
    pub via: Option<SpannedValue<TypeArg>>,
    pub opaque: Flag,
    pub coerce: Flag,
    pub catch: Option<Expr>,
}

/// A type written as a path (`via = Uuid`) or, for types a path cannot spell, a string
/// (`via = "Vec<u8>"`).
#[derive(Clone, Debug)]
pub struct TypeArg(pub syn::Type);

impl FromMeta for TypeArg {
    fn from_expr(expr: &Expr) -> darling::Result<Self> {
        match expr {
            Expr::Path(path) => Ok(TypeArg(syn::Type::Path(syn::TypePath {
                qself: path.qself.clone(),
                path: path.path.clone(),
            }))),
            Expr::Lit(ExprLit {
                lit: Lit::Str(text),
                ..
            }) => text.parse().map(TypeArg).map_err(darling::Error::from),
            Expr::Group(group) => Self::from_expr(&group.expr),
            _ => Err(darling::Error::custom("expected a type").with_span(expr)),
        }
    }
}

/// A number literal, possibly negative, normalised to JSON text.
#[derive(Clone, Debug)]
pub struct NumberLit {
    pub json: String,
    pub value: f64,
    pub integral: bool,
}

impl FromMeta for NumberLit {
    fn from_expr(expr: &Expr) -> darling::Result<Self> {
        let (negative, lit) = match expr {
            Expr::Unary(ExprUnary {
                op: UnOp::Neg(_),
                expr,
                ..
            }) => match &**expr {
                Expr::Lit(ExprLit { lit, .. }) => (true, lit),
                _ => return Err(darling::Error::custom("expected a number").with_span(expr)),
            },
            Expr::Lit(ExprLit { lit, .. }) => (false, lit),
            Expr::Group(group) => return Self::from_expr(&group.expr),
            _ => return Err(darling::Error::custom("expected a number").with_span(expr)),
        };
        let sign = if negative { "-" } else { "" };
        match lit {
            Lit::Int(int) => {
                let magnitude: i128 = int
                    .base10_parse()
                    .map_err(|e| darling::Error::custom(e).with_span(int))?;
                let value = if negative { -magnitude } else { magnitude };
                Ok(NumberLit {
                    json: value.to_string(),
                    value: value as f64,
                    integral: true,
                })
            }
            Lit::Float(float) => {
                let magnitude: f64 = float
                    .base10_parse()
                    .map_err(|e| darling::Error::custom(e).with_span(float))?;
                if !magnitude.is_finite() {
                    return Err(
                        darling::Error::custom("the number must be finite").with_span(float)
                    );
                }
                let value = if negative { -magnitude } else { magnitude };
                Ok(NumberLit {
                    json: format!("{sign}{magnitude:?}"),
                    value,
                    integral: false,
                })
            }
            other => Err(darling::Error::custom("expected a number").with_span(other)),
        }
    }
}

/// Which side of serde a schema describes: what `Deserialize` reads (a contract's input) or
/// what `Serialize` writes (an output type's, with `#[derive(Shape)]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Deserialize,
    Serialize,
}

/// The serde attributes stitch follows, on a container, a variant or a field, read for one
/// direction (`rename(serialize = ...)` and `skip_serializing` are the serialize side's).
#[derive(Default, Debug)]
pub struct SerdeAttrs {
    pub tag: Option<String>,
    pub content: Option<Span>,
    pub untagged: Option<Span>,
    pub rename: Option<String>,
    pub rename_all: Option<String>,
    pub rename_all_fields: Option<String>,
    pub aliases: Vec<String>,
    /// `default` (deserializing) or `skip_serializing_if` (serializing): the key may be
    /// missing.
    pub default: Option<Span>,
    pub skip: Option<Span>,
    pub deny_unknown_fields: bool,
    pub transparent: Option<Span>,
    pub flatten: Option<Span>,
    pub deserialize_with: Option<Span>,
    /// Attributes that change the wire shape in ways a schema cannot follow
    /// (`from`, `try_from`, `remote`, `other`, `field_identifier`, ...): name and span.
    pub unsupported: Vec<(String, Span)>,
}

impl SerdeAttrs {
    /// Reads every `#[serde(...)]` attribute for a direction; unknown keys are skipped (serde
    /// checks them).
    pub fn read(
        attrs: &[Attribute],
        direction: Direction,
        errors: &mut darling::error::Accumulator,
    ) -> SerdeAttrs {
        let mut serde = SerdeAttrs::default();
        for attr in attrs.iter().filter(|attr| attr.path().is_ident("serde")) {
            let result = attr.parse_nested_meta(|meta| serde.read_key(&meta, direction));
            if let Err(error) = result {
                errors.push(error.into());
            }
        }
        serde
    }

    fn read_key(
        &mut self,
        meta: &syn::meta::ParseNestedMeta<'_>,
        direction: Direction,
    ) -> syn::Result<()> {
        let key = meta
            .path
            .get_ident()
            .map(ToString::to_string)
            .unwrap_or_default();
        let span = meta.path.span();
        let reading = direction == Direction::Deserialize;
        match key.as_str() {
            "tag" => self.tag = Some(string_value(meta)?),
            "untagged" => self.untagged = Some(span),
            "rename" => self.rename = name_for(meta, direction)?,
            "rename_all" => self.rename_all = name_for(meta, direction)?,
            "rename_all_fields" => self.rename_all_fields = name_for(meta, direction)?,
            "alias" if reading => self.aliases.push(string_value(meta)?),
            "skip" => self.skip = Some(span),
            "skip_deserializing" if reading => self.skip = Some(span),
            "skip_serializing" if !reading => self.skip = Some(span),
            "deny_unknown_fields" => self.deny_unknown_fields = reading,
            "transparent" => self.transparent = Some(span),
            "flatten" => self.flatten = Some(span),
            _ => {
                match key.as_str() {
                    "content" => self.content = Some(span),
                    "default" if reading => self.default = Some(span),
                    "skip_serializing_if" if !reading => self.default = Some(span),
                    "with" => self.deserialize_with = Some(span),
                    "deserialize_with" if reading => self.deserialize_with = Some(span),
                    "serialize_with" if !reading => self.deserialize_with = Some(span),
                    "from" | "try_from" if reading => self.unsupported.push((key, span)),
                    "into" if !reading => self.unsupported.push((key, span)),
                    "remote" | "other" | "field_identifier" | "variant_identifier" => {
                        self.unsupported.push((key, span));
                    }
                    _ => {}
                }
                skip_value(meta)?;
            }
        }
        Ok(())
    }
}

fn string_value(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<String> {
    let lit: LitStr = meta.value()?.parse()?;
    Ok(lit.value())
}

/// `rename = "x"` or `rename(deserialize = "x", serialize = "y")`: the name for a direction.
fn name_for(
    meta: &syn::meta::ParseNestedMeta<'_>,
    direction: Direction,
) -> syn::Result<Option<String>> {
    if meta.input.peek(syn::Token![=]) {
        return string_value(meta).map(Some);
    }
    let side = match direction {
        Direction::Deserialize => "deserialize",
        Direction::Serialize => "serialize",
    };
    let mut name = None;
    meta.parse_nested_meta(|inner| {
        if inner.path.is_ident(side) {
            name = Some(string_value(&inner)?);
        } else {
            skip_value(&inner)?;
        }
        Ok(())
    })?;
    Ok(name)
}

/// Skips the value of a key stitch does not read (`= expr` or `(...)`).
fn skip_value(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        meta.value()?.parse::<Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| skip_value(&inner))?;
    }
    Ok(())
}
