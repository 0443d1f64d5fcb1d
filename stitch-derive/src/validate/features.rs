//! Which of stitch's features describes a type of another crate, read from how a field names
//! it (`chrono::NaiveDate`, or a name only that crate uses, `NaiveDate`): with the feature
//! off, the field is an error that names the one feature to turn on, where the type's missing
//! `Shape` alone would list them all.

/// A feature, the crate whose types it describes, and the names only that crate's types have.
const FEATURES: [(&str, &str, &[&str]); 11] = [
    ("uuid1", "uuid", &[]),
    (
        "chrono04",
        "chrono",
        &["NaiveDate", "NaiveTime", "NaiveDateTime"],
    ),
    (
        "time03",
        "time",
        &["OffsetDateTime", "PrimitiveDateTime", "UtcOffset"],
    ),
    ("jiff02", "jiff", &["SignedDuration"]),
    ("url2", "url", &[]),
    ("rust_decimal1", "rust_decimal", &[]),
    ("bigdecimal04", "bigdecimal", &["BigDecimal"]),
    ("indexmap2", "indexmap", &["IndexMap", "IndexSet"]),
    ("smallvec1", "smallvec", &["SmallVec"]),
    ("semver1", "semver", &["VersionReq"]),
    ("bytes1", "bytes", &["BytesMut"]),
];

/// Whether this build of stitch has `feature` on (the facade turns on the derive's feature of
/// the same name with its own).
pub fn enabled(feature: &str) -> bool {
    /// Each feature and whether it is on in this build.
    const ON: [(&str, bool); 11] = [
        ("uuid1", cfg!(feature = "uuid1")),
        ("chrono04", cfg!(feature = "chrono04")),
        ("time03", cfg!(feature = "time03")),
        ("jiff02", cfg!(feature = "jiff02")),
        ("url2", cfg!(feature = "url2")),
        ("rust_decimal1", cfg!(feature = "rust_decimal1")),
        ("bigdecimal04", cfg!(feature = "bigdecimal04")),
        ("indexmap2", cfg!(feature = "indexmap2")),
        ("smallvec1", cfg!(feature = "smallvec1")),
        ("semver1", cfg!(feature = "semver1")),
        ("bytes1", cfg!(feature = "bytes1")),
    ];
    ON.iter()
        .find(|(name, _)| *name == feature)
        .is_none_or(|(_, on)| *on)
}

/// The feature that describes a type `ty` names (itself, or inside its generic arguments), when
/// `enabled` says it is off; with the type's name as written.
pub fn missing(ty: &syn::Type, enabled: &dyn Fn(&str) -> bool) -> Option<(&'static str, String)> {
    let syn::Type::Path(path) = ty else {
        return None;
    };
    let segments = &path.path.segments;
    let first = segments.first()?.ident.to_string();
    let last = segments.last()?;
    let named = last.ident.to_string();
    for (feature, crate_name, distinctive) in FEATURES {
        let qualified = first == crate_name && segments.len() > 1;
        if (qualified || distinctive.contains(&named.as_str())) && !enabled(feature) {
            let written: Vec<String> = segments.iter().map(|s| s.ident.to_string()).collect();
            return Some((feature, written.join("::")));
        }
    }
    segments
        .iter()
        .find_map(|segment| match &segment.arguments {
            syn::PathArguments::AngleBracketed(arguments) => {
                arguments.args.iter().find_map(|argument| match argument {
                    syn::GenericArgument::Type(inner) => missing(inner, enabled),
                    _ => None,
                })
            }
            _ => None,
        })
}

/// Why a field of a type whose feature is off does not compile.
pub fn message(feature: &str, written: &str) -> String {
    format!(
        "`{written}` is described by stitch's `{feature}` feature, which is off: turn it on \
         (`stitch-mcp = {{ features = [\"{feature}\"] }}`), or say the field's serde form \
         (`#[contract(via = String, format = \"...\")]`)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn missing_when_off(ty: &str) -> Option<(&'static str, String)> {
        let ty: syn::Type = syn::parse_str(ty).unwrap();
        missing(&ty, &|_| false)
    }

    #[test]
    fn the_one_feature_is_named_for_the_type_at_hand() {
        assert_eq!(
            missing_when_off("chrono::NaiveDate"),
            Some(("chrono04", "chrono::NaiveDate".to_owned()))
        );
        assert_eq!(
            missing_when_off("NaiveDate").map(|(feature, _)| feature),
            Some("chrono04")
        );
        assert_eq!(
            missing_when_off("Option<Vec<rust_decimal::Decimal>>").map(|(feature, _)| feature),
            Some("rust_decimal1")
        );
        assert_eq!(
            missing_when_off("std::collections::HashMap<String, uuid::Uuid>")
                .map(|(feature, _)| feature),
            Some("uuid1")
        );
        // A name many crates use is judged only when the crate names it.
        assert_eq!(missing_when_off("Decimal"), None);
        assert_eq!(missing_when_off("String"), None);
        // With the feature on, nothing is said.
        let ty: syn::Type = syn::parse_str("chrono::NaiveDate").unwrap();
        assert_eq!(missing(&ty, &|_| true), None);
    }
}
