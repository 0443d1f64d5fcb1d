//! The walk of the hidden `refine` checks: `Shape::refine` and `Shape::REFINES` of a type,
//! descending only into what can carry a check.
//!
//! A field whose type names only standard types (`i64`, `Option<String>`, `Vec<u32>`) can
//! carry none, and the walk passes it by: a 60-operation contract of such fields costs rustc
//! a match of 720 bindings and 720 calls less to check. One constant asserts, where the
//! contract is declared, that each such name does mean the standard type.

use proc_macro2::TokenStream;
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use crate::model::{Body, Contract, Field, Source, Union, VariantBody};

/// The `Shape::refine` method and `REFINES`: the hidden checks of this type's fields (and of
/// the type itself), and the descent into every field whose type has its own. Nothing when
/// nothing in the type can carry a check.
pub fn refine_items(contract: &Contract) -> TokenStream {
    let passed_by = |field: &Field| passes_by(contract, field);
    let mut walkers = Walkers::new(!contract.generics.params.is_empty());
    let mut body = TokenStream::new();
    if let Some(check) = &contract.refine {
        body.extend(quote! {
            if let ::core::result::Result::Err(error) = #check(self) {
                issues.push(__s::refine_issue(pointer, error));
            }
        });
    }
    let of_self = |field: &Field| {
        let member = &field.member;
        quote!(&self.#member)
    };
    match &contract.body {
        Body::Object(object) => {
            body.extend(refine_fields(
                &object.fields,
                &of_self,
                true,
                &passed_by,
                &mut walkers,
            ));
        }
        Body::Transparent { field, .. } => body.extend(refine_fields(
            std::slice::from_ref(field),
            &of_self,
            false,
            &passed_by,
            &mut walkers,
        )),
        Body::UnitEnum { .. } => {}
        Body::Union(union) => body.extend(refine_operations(union, &passed_by, &mut walkers)),
    }
    if body.is_empty() {
        return TokenStream::new();
    }
    let refines = refines_expr(contract);
    let walker_items = walkers.items;
    quote! {
        const REFINES: bool = #refines;

        fn refine(&self, pointer: &mut __s::JsonPointer, issues: &mut ::std::vec::Vec<__s::Issue>) {
            // Where nothing inside can carry a check after all (each type the walk descends
            // into says so), the walk is code no build needs to generate.
            if !<Self as __s::Shape>::REFINES {
                return;
            }
            #walker_items
            #body
        }
    }
}

/// The refine code of each operation, as the arms of a `match self`.
fn refine_operations(
    union: &Union,
    passed_by: &dyn Fn(&Field) -> bool,
    walkers: &mut Walkers,
) -> TokenStream {
    let mut arms = TokenStream::new();
    for variant in &union.variants {
        let ident = &variant.ident;
        match &variant.body {
            VariantBody::Unit => {}
            VariantBody::Newtype(_) => arms.extend(quote! {
                Self::#ident(inner) => __s::Shape::refine(inner, pointer, issues),
            }),
            VariantBody::Struct(object) => {
                let binding = |field: &Field| match &field.member {
                    syn::Member::Named(name) => format_ident!("__stitch_{}", name),
                    syn::Member::Unnamed(index) => format_ident!("__stitch_{}", index.index),
                };
                let code = refine_fields(
                    &object.fields,
                    &|field| binding(field).into_token_stream(),
                    true,
                    passed_by,
                    walkers,
                );
                if code.is_empty() {
                    continue;
                }
                // Only the fields the walk reaches are bound.
                let walked = || object.fields.iter().filter(|field| !passed_by(field));
                let members = walked().map(|field| &field.member);
                let bindings = walked().map(binding);
                arms.extend(quote! {
                    Self::#ident { #(#members: #bindings,)* .. } => { #code }
                });
            }
        }
    }
    if arms.is_empty() {
        return arms;
    }
    quote! {
        #[allow(unreachable_patterns, unused_variables)]
        match self {
            #arms
            _ => {}
        }
    }
}

/// The refine code of some fields, each reached by `value`; `at_key` when each sits at its
/// own key (not a transparent field). The fields `passed_by` the walk have none.
fn refine_fields(
    fields: &[Field],
    value: &dyn Fn(&Field) -> TokenStream,
    at_key: bool,
    passed_by: &dyn Fn(&Field) -> bool,
    walkers: &mut Walkers,
) -> TokenStream {
    let mut code = TokenStream::new();
    for field in fields.iter().filter(|field| !passed_by(field)) {
        let value = value(field);
        let ty = &field.ty;
        let wire = &field.wire;
        // A flattened field's keys are the object's own: its checks report there.
        let at_key = at_key && !field.flatten;
        if at_key && field.refine.is_none() && matches!(field.source, Source::Type) {
            // The common field: one call.
            code.extend(walkers.call(field, &value));
            continue;
        }
        let mut steps = TokenStream::new();
        if let Some(check) = &field.refine {
            steps.extend(quote! {
                if let ::core::result::Result::Err(error) = #check(#value) {
                    issues.push(__s::refine_issue(pointer, error));
                }
            });
        }
        if matches!(field.source, Source::Type) {
            // Only the path carries the type's span: the arguments keep the method's own
            // hygiene, so they resolve even for types a `macro_rules!` wrote.
            let refine = quote_spanned!(ty.span()=> <#ty as __s::Shape>::refine);
            steps.extend(quote!(#refine(#value, pointer, issues);));
        }
        code.extend(if at_key {
            quote! {{
                let mark = pointer.push_key(#wire);
                #steps
                pointer.truncate(mark);
            }}
        } else {
            steps
        });
    }
    code
}

/// The walk of the common field (its type's own checks, at its key), one function per type
/// the contract's fields name, nested in `refine`: each names the type's `Shape` items at the
/// type's span, as the `SHAPE` use does, so a type without a shape is reported once, there;
/// and a field's call names only its walker, where naming the type's `REFINES` and `refine`
/// made two paths for rustc to resolve at every field (29M instructions for a 60 × 12 union
/// of 80 such fields). A nested function would not see a generic contract's parameters nor
/// `Self`: such a field names its type's items itself.
struct Walkers {
    generic: bool,
    by_type: std::collections::HashMap<String, TokenStream>,
    items: TokenStream,
}

impl Walkers {
    fn new(generic: bool) -> Walkers {
        Walkers {
            generic,
            by_type: std::collections::HashMap::new(),
            items: TokenStream::new(),
        }
    }

    /// A field's walk: its value refined at its key.
    fn call(&mut self, field: &Field, value: &TokenStream) -> TokenStream {
        let (ty, key) = (&field.ty, &field.wire);
        let refines = quote_spanned!(ty.span()=> <#ty as __s::Shape>::REFINES);
        let refine = quote_spanned!(ty.span()=> <#ty as __s::Shape>::refine);
        // A call's value and key come first, then the type's items.
        let of_type = quote!(#refines, #refine);
        let walk = |at: TokenStream| quote!(__s::refine_field(#at, #of_type, pointer, issues););
        // A nested function sees neither the impl's parameters nor its `Self`.
        let names_self = field
            .ty_spelling
            .split(|c: char| !c.is_alphanumeric() && c != '_')
            .any(|word| word == "Self");
        if self.generic || names_self {
            return walk(quote!(#value, #key));
        }
        let count = self.by_type.len();
        let items = &mut self.items;
        let walker = self
            .by_type
            .entry(field.ty_spelling.clone())
            .or_insert_with(|| {
                let walker = format_ident!("__stitch_refine_{}", count);
                let walk = walk(quote!(value, key));
                items.extend(quote! {
                    fn #walker(
                        value: &#ty,
                        key: &str,
                        pointer: &mut __s::JsonPointer,
                        issues: &mut ::std::vec::Vec<__s::Issue>,
                    ) {
                        #walk
                    }
                });
                walker.into_token_stream()
            });
        quote!(#walker(#value, #key, pointer, issues);)
    }
}

/// Whether the type can carry a `refine` check: its own, its fields', or any inside their
/// types (composed through `Shape::REFINES`, so walks skip what cannot have one).
fn refines_expr(contract: &Contract) -> TokenStream {
    // A type named by many fields is asked once (big contracts repeat a few types), told by
    // its spelling.
    let mut seen = std::collections::HashSet::new();
    let mut parts = Vec::new();
    let mut part = |key: String, code: TokenStream| {
        if seen.insert(key) {
            parts.push(code);
        }
    };
    let own = contract.refine.is_some();
    part(own.to_string(), quote!(#own));
    for field in contract.body.fields() {
        if field.refine.is_some() {
            part(true.to_string(), quote!(true));
        }
        if matches!(field.source, Source::Type) && !passes_by(contract, field) {
            let ty = &field.ty;
            part(
                field.ty_spelling.clone(),
                quote!(<#ty as __s::Shape>::REFINES),
            );
        }
    }
    for ty in contract.body.newtypes() {
        let spelling = ty.to_token_stream().to_string();
        part(spelling, quote!(<#ty as __s::Shape>::REFINES));
    }
    quote!(#(#parts)||*)
}

/// Whether the walk passes a field by: no `refine` check of its own, and a type that names
/// only standard types. Not in a generic contract, where the assertion below could not name
/// the type outside the impl (such contracts are few).
fn passes_by(contract: &Contract, field: &Field) -> bool {
    field.refine.is_none() && field.type_is_standard && contract.generics.params.is_empty()
}

/// The assertion, in constant evaluation where the contract is declared, that every type the
/// walk passed by is the standard type its name says: one of the user's own, named
/// `String` and carrying `refine` checks, fails the build at the field instead of going
/// unchecked. Each type once.
pub fn standard_types_asserted(contract: &Contract) -> TokenStream {
    const MESSAGE: &str = "stitch: this type is one of your own with `refine` checks, and \
                           stitch takes its name for the standard type's: they would not \
                           run. Give your type another name";
    let mut seen = std::collections::HashSet::new();
    let assertions: Vec<TokenStream> = contract
        .body
        .fields()
        .filter(|field| passes_by(contract, field))
        .filter(|field| seen.insert(field.ty_spelling.as_str()))
        .map(|field| {
            let ty = &field.ty;
            quote_spanned! {ty.span()=>
                ::core::assert!(!<#ty as __s::Shape>::REFINES, "{}", #MESSAGE);
            }
        })
        .collect();
    if assertions.is_empty() {
        return TokenStream::new();
    }
    quote!(const _: () = { #(#assertions)* };)
}
