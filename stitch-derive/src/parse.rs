//! Parsing: `#[contract(...)]` through darling receivers, a field's attributes by the shared
//! attribute table (`stitch_rules::Attribute`: their names and what each takes are declared
//! there, not here), and `#[serde(...)]` through `serde_derive_internals`, which reads serde's
//! attributes exactly as serde does. Nothing here judges whether the attributes fit together;
//! that is `validate`.

use darling::ast::NestedMeta;
use darling::util::{Flag, SpannedValue};
use darling::{Error, FromDeriveInput, FromField, FromMeta, FromVariant, ast};
use proc_macro2::Span;
use stitch_rules::{Attribute, Given, Takes};
use syn::spanned::Spanned;
use syn::{Expr, ExprLit, ExprUnary, Lit, LitStr, UnOp};

/// `#[contract(...)]` on the type, with the type itself.
#[derive(FromDeriveInput)]
#[darling(attributes(contract), forward_attrs(doc))]
pub struct ContainerInput {
    pub ident: syn::Ident,
    pub generics: syn::Generics,
    pub data: ast::Data<VariantInput, FieldInput>,
    pub attrs: Vec<syn::Attribute>,
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
    /// Where a union's flat schema says which operations take which key.
    pub hints: Option<LitStr>,
    /// Dialects the contract must be said whole in, within its providers' budgets.
    #[darling(default)]
    pub check_dialects: SpannedValue<Vec<LitStr>>,
    #[darling(rename = "crate")]
    pub krate: Option<syn::Path>,
    pub refine: Option<syn::Path>,
}

/// `#[contract(...)]` on an operation.
#[derive(FromVariant)]
#[darling(attributes(contract), forward_attrs(doc))]
pub struct VariantInput {
    pub fields: ast::Fields<FieldInput>,
    pub attrs: Vec<syn::Attribute>,
    pub description: Option<String>,
}

/// `#[contract(...)]` on a field: every key is an attribute of the shared table.
#[derive(FromField)]
#[darling(attributes(contract), forward_attrs(doc))]
pub struct FieldInput {
    pub ident: Option<syn::Ident>,
    pub ty: syn::Type,
    pub attrs: Vec<syn::Attribute>,
    #[darling(flatten)]
    pub given: FieldAttributes,
}

/// A field's attributes, in the order written.
#[derive(Default)]
pub struct FieldAttributes(pub Vec<FieldAttribute>);

/// One attribute of a field, with what it was given.
pub struct FieldAttribute {
    pub attribute: Attribute,
    /// Where an error about it is reported: its value, or its name when it has none.
    pub span: Span,
    pub value: AttributeValue,
}

/// What an attribute was given, read as the table says it takes.
pub enum AttributeValue {
    Bound(NumberLit),
    Count(u64),
    Text(LitStr),
    Flag,
    Texts(Vec<LitStr>),
    Path(syn::Path),
    Type(syn::Type),
    Expr(Expr),
}

impl FieldAttributes {
    /// The attribute, if given.
    pub fn get(&self, attribute: Attribute) -> Option<&FieldAttribute> {
        self.0.iter().find(|given| given.attribute == attribute)
    }

    /// Whether the attribute is given.
    pub fn has(&self, attribute: Attribute) -> bool {
        self.get(attribute).is_some()
    }
}

impl FromMeta for FieldAttributes {
    fn from_list(items: &[NestedMeta]) -> darling::Result<Self> {
        let mut errors = Error::accumulator();
        let mut given: Vec<FieldAttribute> = Vec::new();
        for item in items {
            let NestedMeta::Meta(meta) = item else {
                errors.push(Error::unsupported_format("literal").with_span(item));
                continue;
            };
            let name = meta
                .path()
                .get_ident()
                .map(ToString::to_string)
                .unwrap_or_default();
            let Some(attribute) = Attribute::named(&name) else {
                let known: Vec<&str> = Attribute::names().collect();
                let unknown = Error::unknown_field_with_alts(&name, &known);
                errors.push(unknown.with_span(meta.path()));
                continue;
            };
            if given.iter().any(|earlier| earlier.attribute == attribute) {
                errors.push(Error::duplicate_field(&name).with_span(meta.path()));
                continue;
            }
            if let Some(value) = errors.handle(read_value(attribute, meta)) {
                given.push(FieldAttribute {
                    attribute,
                    span: value_span(meta),
                    value,
                });
            }
        }
        errors.finish_with(FieldAttributes(given))
    }
}

/// An attribute's value, as the table says it takes it (darling reads each kind).
fn read_value(attribute: Attribute, meta: &syn::Meta) -> darling::Result<AttributeValue> {
    let field = |error: Error| error.at(attribute.name());
    Ok(match attribute.takes() {
        Takes::Keyword(Given::Bound) => AttributeValue::Bound(NumberLit::from_meta(meta)?),
        Takes::Keyword(Given::Count) => AttributeValue::Count(u64::from_meta(meta).map_err(field)?),
        Takes::Keyword(Given::Text) | Takes::Text => {
            AttributeValue::Text(LitStr::from_meta(meta).map_err(field)?)
        }
        Takes::Keyword(Given::Flag) | Takes::Flag => {
            Flag::from_meta(meta).map_err(field)?;
            AttributeValue::Flag
        }
        Takes::Texts => AttributeValue::Texts(Vec::<LitStr>::from_meta(meta).map_err(field)?),
        Takes::Path => AttributeValue::Path(syn::Path::from_meta(meta).map_err(field)?),
        Takes::Type => AttributeValue::Type(TypeArg::from_meta(meta).map_err(field)?.0),
        Takes::Expr => AttributeValue::Expr(Expr::from_meta(meta).map_err(field)?),
    })
}

/// Where an attribute's error is reported: its value when it has one (`min = 0` at `0`), else
/// its name (`unique_items`, `values(...)`).
fn value_span(meta: &syn::Meta) -> Span {
    match meta {
        syn::Meta::NameValue(pair) => pair.value.span(),
        syn::Meta::Path(path) => path.span(),
        syn::Meta::List(list) => list.path.span(),
    }
}

/// A type written as a path (`via = Uuid`) or, for types a path cannot spell, a string
/// (`via = "Vec<u8>"`).
#[derive(Clone, Debug)]
pub struct TypeArg(pub syn::Type);

impl FromMeta for TypeArg {
    fn from_expr(expr: &Expr) -> darling::Result<Self> {
        match expr {
            Expr::Path(path) => Ok(TypeArg(syn::Type::Path(syn::TypePath {
                attrs: Vec::new(),
                qself: path.qself.clone(),
                path: path.path.clone(),
            }))),
            Expr::Lit(ExprLit {
                lit: Lit::Str(text),
                ..
            }) => text.parse().map(TypeArg).map_err(Error::from),
            Expr::Group(group) => Self::from_expr(&group.expr),
            _ => Err(Error::custom("expected a type").with_span(expr)),
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
                _ => return Err(Error::custom("expected a number").with_span(expr)),
            },
            Expr::Lit(ExprLit { lit, .. }) => (false, lit),
            Expr::Group(group) => return Self::from_expr(&group.expr),
            _ => return Err(Error::custom("expected a number").with_span(expr)),
        };
        let sign = if negative { "-" } else { "" };
        match lit {
            Lit::Int(int) => {
                let magnitude: i128 = int
                    .base10_parse()
                    .map_err(|e| Error::custom(e).with_span(int))?;
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
                    .map_err(|e| Error::custom(e).with_span(float))?;
                if !magnitude.is_finite() {
                    return Err(Error::custom("the number must be finite").with_span(float));
                }
                let value = if negative { -magnitude } else { magnitude };
                Ok(NumberLit {
                    json: format!("{sign}{magnitude:?}"),
                    value,
                    integral: false,
                })
            }
            other => Err(Error::custom("expected a number").with_span(other)),
        }
    }
}

/// Where a `#[serde(...)]` key is written (`flatten` in `#[serde(flatten)]`), for an error
/// about it: `serde_derive_internals` reads the attributes, but keeps no span for most keys.
/// A key is an identifier at the top level of the attribute's list (values are literals).
pub fn serde_key_span(attrs: &[syn::Attribute], key: &str) -> Option<Span> {
    attrs
        .iter()
        .filter(|attr| attr.path().is_ident("serde"))
        .filter_map(|attr| attr.meta.require_list().ok())
        .flat_map(|list| list.tokens.clone())
        .find_map(|token| match token {
            proc_macro2::TokenTree::Ident(ident) if ident == key => Some(ident.span()),
            _ => None,
        })
}
