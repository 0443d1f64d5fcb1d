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
