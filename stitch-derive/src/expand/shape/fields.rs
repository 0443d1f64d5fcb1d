//! A field as code: its node (its type's shape, then one call per attribute), shared by
//! every field of the same code as a constant with its check at a glance, and the field
//! itself, as its parts (for a union's columns, or a bare object's one array) or as a call.

use proc_macro2::{Literal, Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use stitch_rules::{Attribute, json};
use syn::spanned::Spanned;

use super::{Consts, option_doc};
use crate::model::{Field, Source, Step, StepValue};

/// A field as code: one with its node's check at a glance (computed beside the node) and no
/// alias, the common field, as its parts; any other as its call.
pub(super) enum FieldCode {
    Parts(FieldParts),
    Call(TokenStream),
}

/// A field's parts: its wire name, whether the name needs no escape, its node (a shared
/// constant), whether it has a default, and its description.
pub(super) struct FieldParts {
    pub(super) wire: String,
    pub(super) plain: bool,
    pub(super) node: TokenStream,
    pub(super) shared: SharedNode,
    pub(super) has_default: bool,
    pub(super) description: Option<String>,
}

/// A node constant shared by every field of its code: its number among the contract's
/// shared nodes, and the constant of its check at a glance.
#[derive(Clone)]
pub(super) struct SharedNode {
    pub(super) number: usize,
    pub(super) quick: syn::Ident,
}

impl FieldParts {
    /// What two fields of one name must share to say the same of their key: their node's
    /// code (its type and attributes, one constant per code, told by its number), whether
    /// they have a default, and their description.
    pub(super) fn sameness(&self) -> String {
        format!(
            "{} {} {:?}",
            self.shared.number, self.has_default, self.description
        )
    }

    /// Whether the field is bare: no default and no description.
    fn is_bare(&self) -> bool {
        !self.has_default && self.description.is_none()
    }

    /// A bare field's parts as a tuple, as `bare_fields` takes them.
    fn bare_tuple(&self) -> TokenStream {
        let FieldParts {
            wire,
            plain,
            node,
            shared,
            ..
        } = self;
        let quick = &shared.quick;
        quote!((#wire, #plain, #node, #quick))
    }

    /// The field as one call.
    fn call(&self) -> TokenStream {
        if self.is_bare() {
            let parts = self.bare_tuple();
            return quote!(__s::bare_field #parts);
        }
        let FieldParts {
            wire,
            plain,
            node,
            shared,
            has_default,
            description,
        } = self;
        let quick = &shared.quick;
        let description = option_doc(description.as_deref());
        quote!(__s::checked_field(
            #wire, #plain, #node, #has_default, #description, #quick
        ))
    }
}

impl FieldCode {
    /// A bare field's parts as a tuple, as `bare_fields` takes them.
    pub(super) fn bare_tuple(&self) -> Option<TokenStream> {
        match self {
            FieldCode::Parts(parts) if parts.is_bare() => Some(parts.bare_tuple()),
            _ => None,
        }
    }

    /// The field as one call.
    pub(super) fn call(&self) -> TokenStream {
        match self {
            FieldCode::Parts(parts) => parts.call(),
            FieldCode::Call(call) => call.clone(),
        }
    }
}

pub(super) fn field_code(field: &Field, consts: &mut Consts) -> FieldCode {
    let FieldNode { node, shared } = field_node(field, consts);
    let wire = &field.wire;
    let plain = json::is_plain(wire);
    let Some(shared) = shared else {
        let has_default = field.has_default;
        let description = option_doc(field.description.as_deref());
        let call = quote!(__s::field(#wire, #plain, #node, #has_default, #description));
        return FieldCode::Call(with_aliases(call, field));
    };
    let parts = FieldParts {
        wire: wire.clone(),
        plain,
        node,
        shared,
        has_default: field.has_default,
        description: field.description.clone(),
    };
    if field.aliases.is_empty() {
        return FieldCode::Parts(parts);
    }
    FieldCode::Call(with_aliases(parts.call(), field))
}

/// A field's call, with the aliases it is also read under.
fn with_aliases(call: TokenStream, field: &Field) -> TokenStream {
    if field.aliases.is_empty() {
        return call;
    }
    let aliases = &field.aliases;
    quote!(#call.with_aliases(&[#(#aliases),*]))
}

/// A field's node: its source's shape, then one spanned call per attribute, all in one
/// constant (a `&'static` reference, as the shape alone is), shared by every field of the
/// same code: each constant costs rustc a body to check and evaluate, and a contract has
/// hundreds. A misfit is then reported once, at the first such field, naming
/// it. (The derive itself refuses a misfit on a type whose spelling tells its kind, at every
/// field; constant evaluation finds only those behind an alias or a type of the user's.)
pub(super) fn field_node(field: &Field, consts: &mut Consts) -> FieldNode {
    let unshared = |node| FieldNode { node, shared: None };
    if !consts.shared_nodes {
        if field.steps.is_empty() {
            return unshared(source_node(field));
        }
        let (value, span) = applied_steps(field);
        return unshared(quote_spanned!(span=> &const { #value }));
    }
    if field.steps.is_empty() {
        let Source::Type = field.source else {
            return unshared(source_node(field));
        };
        // A field type's shape is a constant each type has once: a contract names a few
        // types in hundreds of fields.
        let ty = &field.ty;
        return consts.shared(field.ty_spelling.clone(), |ident| {
            let item =
                quote!(const #ident: &'static __s::Node<'static> = <#ty as __s::Shape>::SHAPE;);
            (ty.span(), item, quote!(#ident))
        });
    }
    // The code is told from the model, not from the tokens: printing a token stream is
    // most of what a proc macro built without optimization spends on a contract.
    // The steps are written once for each code, not for each field.
    // A reference constant, not a value one: each `&VALUE` where a field names it would be a
    // promoted of its own, a body for rustc to check, evaluate and validate, for every field.
    consts.shared(node_code(field), |ident| {
        let (value, span) = applied_steps(field);
        (
            span,
            quote!(const #ident: &'static __s::Node<'static> = &#value;),
            quote!(#ident),
        )
    })
}

/// A field's node, and where the union's nodes are shared constants, which one.
pub(super) struct FieldNode {
    pub(super) node: TokenStream,
    shared: Option<SharedNode>,
}

impl Consts {
    /// The shared constant of a node of this code, written by `write` (given its name: the
    /// span to report a misfit at, the item, and the node's expression) the first time, with
    /// the constant of its check at a glance (`quick_check`, computed once for every field of
    /// the node).
    fn shared(
        &mut self,
        code: String,
        write: impl FnOnce(&syn::Ident) -> (Span, TokenStream, TokenStream),
    ) -> FieldNode {
        let number = self.nodes.len();
        let (node, shared) = self
            .nodes
            .entry(code)
            .or_insert_with(|| {
                let ident = format_ident!("__STITCH_NODE_{}", number);
                let quick = format_ident!("__STITCH_QUICK_{}", number);
                let (span, item, node) = write(&ident);
                self.items.extend(quote_spanned! {span=>
                    #item
                    const #quick: __s::QuickCheck = __s::quick_check(#node);
                });
                (node, SharedNode { number, quick })
            })
            .clone();
        FieldNode {
            node,
            shared: Some(shared),
        }
    }
}

/// The node a field's schema starts from: its source's shape.
fn source_node(field: &Field) -> TokenStream {
    match &field.source {
        Source::Type => {
            let ty = &field.ty;
            quote_spanned!(ty.span()=> <#ty as __s::Shape>::SHAPE)
        }
        Source::Via(ty) => quote_spanned!(ty.span()=> <#ty as __s::Shape>::SHAPE),
        // An `Option` may be missing, as serde reads it, whatever its value's schema.
        Source::Opaque if is_option(&field.ty) => quote!(&__s::Node::OPAQUE.nullable()),
        Source::Opaque => quote!(&__s::Node::OPAQUE),
    }
}

/// The source's node with every attribute applied, and the last attribute's span.
fn applied_steps(field: &Field) -> (TokenStream, Span) {
    let mut node = source_node(field);
    let mut last = None;
    for step in &field.steps {
        let value = step_call(step, node, field);
        node = quote!(&#value);
        last = Some((value, step.span));
    }
    last.expect("a field with attributes")
}

/// What the code of a field's node is made of, as text: its type and source, and each
/// attribute with its value. Two fields of one text have the same node, whatever their keys.
fn node_code(field: &Field) -> String {
    use std::fmt::Write;
    let mut code = field.ty_spelling.clone();
    match &field.source {
        Source::Type => {}
        Source::Via(ty) => write!(code, " via {}", ty.to_token_stream()).expect("to a string"),
        Source::Opaque => code.push_str(" opaque"),
    }
    for step in &field.steps {
        write!(code, " {:?}=", step.attribute).expect("to a string");
        match &step.value {
            StepValue::Bound {
                json,
                value,
                integral,
            } => write!(code, "{json}/{value}/{integral}"),
            StepValue::Count(count) => write!(code, "{count}"),
            StepValue::Text(text) => write!(code, "{text:?}"),
            StepValue::Texts(texts) => write!(code, "{texts:?}"),
            StepValue::Flag => write!(code, "flag"),
            StepValue::Catch(expr) => write!(code, "{}", expr.to_token_stream()),
        }
        .expect("to a string");
    }
    code
}

/// One attribute applied to a node: a call that carries the attribute's span, and a misfit
/// it returns fails the build right there (`applied`), so constant evaluation reports it at
/// the attribute with nothing of the runtime in the error.
fn step_call(step: &Step, node: TokenStream, field: &Field) -> TokenStream {
    let span = step.span;
    let wire = &field.wire;
    let call = match (step.attribute, &step.value) {
        (Attribute::Keyword(keyword), value) => {
            // The keyword's variant, by its name: the enum is the one list of keywords.
            let keyword = syn::Ident::new(&format!("{keyword:?}"), span);
            let value = match value {
                StepValue::Bound {
                    json,
                    value,
                    integral,
                } => {
                    let value = Literal::f64_unsuffixed(*value);
                    quote_spanned!(span=> __s::KeywordValue::Bound(
                        __s::Bound::new(#json, #value, #integral)
                    ))
                }
                StepValue::Count(count) => quote_spanned!(span=> __s::KeywordValue::Count(#count)),
                StepValue::Text(text) => quote_spanned!(span=> __s::KeywordValue::Text(#text)),
                _ => quote_spanned!(span=> __s::KeywordValue::Flag),
            };
            quote_spanned!(span=> __s::keyword(#node, __s::Keyword::#keyword, #value, #wire))
        }
        (Attribute::Values, StepValue::Texts(values)) => {
            quote_spanned!(span=> __s::values(#node, &[#(#values),*], #wire))
        }
        (Attribute::Coerce, _) => quote_spanned!(span=> __s::coerce(#node, #wire)),
        (Attribute::Catch, StepValue::Catch(catch)) => {
            let ty = &field.ty;
            quote_spanned!(span=> __s::catch(#node, || __s::fallback::<#ty>(#catch), #wire))
        }
        (attribute, _) => {
            // A check JSON Schema cannot show (`trim`, `refine`, `via`, ...).
            let attribute = syn::Ident::new(&format!("{attribute:?}"), span);
            quote_spanned!(span=> __s::hidden(#node, __s::Attribute::#attribute, #wire))
        }
    };
    quote_spanned!(span=> __s::applied(#call))
}

/// Whether a type is written as `Option<T>` (or a path ending in it).
pub(super) fn is_option(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Path(path) => path.path.segments.last().is_some_and(|last| {
            last.ident == "Option"
                && matches!(last.arguments, syn::PathArguments::AngleBracketed(_))
        }),
        syn::Type::Group(group) => is_option(&group.elem),
        syn::Type::Paren(paren) => is_option(&paren.elem),
        _ => false,
    }
}
