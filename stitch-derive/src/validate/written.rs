//! What a field's type is, as far as its spelling tells: the standard scalars, strings,
//! sequences and maps, through `Option`, `Box`, `Rc` and `Arc`. The derive refuses an attribute
//! that does not fit such a type itself, with every other error of the input; for any other
//! type only its shape knows, and constant evaluation refuses the misfit, by the same rule.

use stitch_rules::Class;

/// A type's class as its spelling tells it, and whether it is written as an `Option`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Written {
    pub class: Class,
    pub optional: bool,
}

impl Written {
    /// The class of a type as written, when its spelling tells.
    pub fn of(ty: &syn::Type) -> Option<Written> {
        let class = match ty {
            syn::Type::Reference(reference) => return Written::of(&reference.elem),
            syn::Type::Group(group) => return Written::of(&group.elem),
            syn::Type::Paren(paren) => return Written::of(&paren.elem),
            syn::Type::Array(_) | syn::Type::Slice(_) => Class::Array,
            syn::Type::Tuple(tuple) if !tuple.elems.is_empty() => Class::Tuple,
            syn::Type::Path(path) if path.qself.is_none() => {
                let (name, argument) = standard_name(&path.path)?;
                match name.as_str() {
                    "Option" => {
                        let inner = Written::of(argument?)?;
                        return Some(Written {
                            optional: true,
                            ..inner
                        });
                    }
                    "Box" | "Rc" | "Arc" => return Written::of(argument?),
                    _ => named(&name)?,
                }
            }
            _ => return None,
        };
        Some(Written {
            class,
            optional: false,
        })
    }
}

/// The class of a standard type, by its name.
fn named(name: &str) -> Option<Class> {
    Some(match name {
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" | "u8" | "u16" | "u32" | "u64" | "u128"
        | "usize" => Class::Integer,
        "f32" | "f64" => Class::Number,
        "String" | "str" | "char" => Class::String,
        "bool" => Class::Boolean,
        "Vec" | "VecDeque" | "LinkedList" | "HashSet" | "BTreeSet" => Class::Array,
        "HashMap" | "BTreeMap" => Class::Map,
        _ => return None,
    })
}

/// Whether a type, as spelled, holds a 128-bit integer: `Some(true)` when it names one,
/// `Some(false)` when every type it names is a standard one without any, `None` when only its
/// shape can tell (a type of its own, an alias, another crate's).
pub fn holds_wide_integer(ty: &syn::Type) -> Option<bool> {
    match spelled(ty) {
        Spelled { wide: true, .. } => Some(true),
        Spelled { standard: true, .. } => Some(false),
        Spelled { .. } => None,
    }
}

/// What a type's spelling tells, in one walk: whether it names only standard types
/// ([`names_only_standard_types`]), and whether it names a 128-bit integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spelled {
    pub standard: bool,
    pub wide: bool,
}

/// [`Spelled`] of a type.
pub fn spelled(ty: &syn::Type) -> Spelled {
    let mut wide = false;
    let standard = names_only_standard_types(ty, &mut |name| {
        wide |= matches!(name, "u128" | "i128" | "NonZeroU128" | "NonZeroI128");
    });
    Spelled { standard, wide }
}

/// Whether a type, as spelled, names only standard types: scalars, strings, and the standard
/// containers, tuples and arrays of them. Such a type carries no `refine` check of its own
/// or inside it, so the derive's walk of hidden checks can pass it by (and asserts, in
/// constant evaluation, that the name does mean the standard type).
pub fn names_only_standard_types(ty: &syn::Type, leaf: &mut impl FnMut(&str)) -> bool {
    match ty {
        syn::Type::Reference(reference) => names_only_standard_types(&reference.elem, leaf),
        syn::Type::Group(group) => names_only_standard_types(&group.elem, leaf),
        syn::Type::Paren(paren) => names_only_standard_types(&paren.elem, leaf),
        syn::Type::Array(array) => names_only_standard_types(&array.elem, leaf),
        syn::Type::Slice(slice) => names_only_standard_types(&slice.elem, leaf),
        syn::Type::Tuple(tuple) => every_part_standard(tuple.elems.iter(), leaf),
        syn::Type::Path(path) if path.qself.is_none() => {
            let Some((name, arguments)) = standard_arguments(&path.path) else {
                return false;
            };
            match name.as_str() {
                "u128" | "i128" | "NonZeroU128" | "NonZeroI128" | "i8" | "i16" | "i32" | "i64"
                | "isize" | "u8" | "u16" | "u32" | "u64" | "usize" | "f32" | "f64" | "bool"
                | "char" | "String" | "str" => {
                    leaf(&name);
                    true
                }
                "Option" | "Box" | "Rc" | "Arc" | "Vec" | "VecDeque" | "LinkedList" | "HashSet"
                | "BTreeSet" | "HashMap" | "BTreeMap" => {
                    every_part_standard(arguments.into_iter(), leaf)
                }
                _ => false,
            }
        }
        _ => false,
    }
}

/// Whether every part names only standard types. Each part is visited, even past one that
/// does not, so a wide integer is found beside a type of its own.
fn every_part_standard<'a>(
    parts: impl Iterator<Item = &'a syn::Type>,
    leaf: &mut impl FnMut(&str),
) -> bool {
    let mut standard = true;
    for part in parts {
        standard &= names_only_standard_types(part, leaf);
    }
    standard
}

/// The last segment of a standard type's path, with every type argument it has.
fn standard_arguments(path: &syn::Path) -> Option<(String, Vec<&syn::Type>)> {
    let segments = &path.segments;
    let first = segments.first()?.ident.to_string();
    if segments.len() > 1 && !matches!(first.as_str(), "std" | "core" | "alloc") {
        return None;
    }
    let last = segments.last()?;
    let arguments = match &last.arguments {
        syn::PathArguments::AngleBracketed(arguments) => arguments
            .args
            .iter()
            .filter_map(|argument| match argument {
                syn::GenericArgument::Type(ty) => Some(ty),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    Some((last.ident.to_string(), arguments))
}

/// The last segment of a path naming a standard type (one segment, or under `std`, `core` or
/// `alloc`), with its first type argument if it has one.
fn standard_name(path: &syn::Path) -> Option<(String, Option<&syn::Type>)> {
    let segments = &path.segments;
    let first = segments.first()?.ident.to_string();
    if segments.len() > 1 && !matches!(first.as_str(), "std" | "core" | "alloc") {
        return None;
    }
    let last = segments.last()?;
    let argument = match &last.arguments {
        syn::PathArguments::AngleBracketed(arguments) => {
            arguments.args.iter().find_map(|argument| match argument {
                syn::GenericArgument::Type(ty) => Some(ty),
                _ => None,
            })
        }
        _ => None,
    };
    Some((last.ident.to_string(), argument))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_tell_which_types_hold_a_128_bit_integer() {
        let wide = |ty: syn::Type| holds_wide_integer(&ty);
        assert_eq!(wide(syn::parse_quote!(Option<Vec<u128>>)), Some(true));
        assert_eq!(wide(syn::parse_quote!(HashMap<String, i128>)), Some(true));
        assert_eq!(
            wide(syn::parse_quote!((u8, std::num::NonZeroU128))),
            Some(true)
        );
        assert_eq!(
            wide(syn::parse_quote!(BTreeMap<String, Vec<u64>>)),
            Some(false)
        );
        assert_eq!(wide(syn::parse_quote!([Option<String>; 3])), Some(false));
        assert_eq!(
            wide(syn::parse_quote!(Vec<Inner>)),
            None,
            "only its shape knows"
        );
        assert_eq!(wide(syn::parse_quote!((u128, Inner))), Some(true));
    }

    #[test]
    fn spellings_tell_which_types_are_standard_throughout() {
        let standard = |ty: syn::Type| names_only_standard_types(&ty, &mut |_| {});
        assert!(standard(syn::parse_quote!(
            Option<Vec<std::string::String>>
        )));
        assert!(standard(
            syn::parse_quote!(HashMap<String, (u8, [bool; 2])>)
        ));
        assert!(standard(syn::parse_quote!(&'static str)));
        assert!(
            !standard(syn::parse_quote!(Vec<Inner>)),
            "a type of its own"
        );
        assert!(
            !standard(syn::parse_quote!(my::String)),
            "not the standard one"
        );
        assert!(!standard(syn::parse_quote!(Option<T>)), "a parameter");
        assert!(!standard(syn::parse_quote!(<T as Trait>::Output)));
    }

    #[test]
    fn spellings_tell_the_standard_classes() {
        let of = |ty: syn::Type| Written::of(&ty);
        assert_eq!(
            of(syn::parse_quote!(Option<std::boxed::Box<u8>>)),
            Some(Written {
                class: Class::Integer,
                optional: true
            })
        );
        assert_eq!(
            of(syn::parse_quote!(&str)).map(|w| w.class),
            Some(Class::String)
        );
        assert_eq!(
            of(syn::parse_quote!([u8; 4])).map(|w| w.class),
            Some(Class::Array)
        );
        assert_eq!(
            of(syn::parse_quote!(HashMap<String, u8>)).map(|w| w.class),
            Some(Class::Map)
        );
        assert_eq!(
            of(syn::parse_quote!(my::String)),
            None,
            "not the standard one"
        );
        assert_eq!(
            of(syn::parse_quote!(Name)),
            None,
            "an alias only its shape knows"
        );
    }
}
