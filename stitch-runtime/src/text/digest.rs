//! The catalog stamp: what identifies the tools a client was listed, so that a client holding
//! a catalog can tell, from any later answer, that it is stale. It covers its tools' digests
//! (each the SHA-256 of the whole tool as listed, which `stitch::mcp` computes) in name order,
//! so the order a listing comes in does not change it, as the 64-bit FNV-1a of their text: a
//! change detector, not a seal (the digests are the seal). A text's own FNV-1a
//! ([`text_digest`]) is what [`Contract::MEASURES`](crate::Contract::MEASURES) holds of a
//! schema, known at compile time.

use stitch_rules::json::fnv1a;

/// The digest of a schema's text (or of a name, or a description).
pub const fn text_digest(text: &str) -> u64 {
    fnv1a(text)
}

/// The stamp of a catalog: its tools' digests (each with its tool's name), in name order,
/// digested, as 16 hexadecimal digits. What `stitch::mcp` puts in `_meta["stitch/catalog"]`,
/// from each listed tool's digest (`stitch::mcp::listed_tool_digest`).
///
/// ```
/// use stitch::measure::catalog_stamp;
///
/// let a = ("a".to_owned(), "9f86d081884c7d65".to_owned());
/// let b = ("b".to_owned(), "60303ae22b998861".to_owned());
/// let stamp = catalog_stamp([a.clone(), b.clone()]);
/// assert_eq!(stamp.len(), 16);
/// assert_eq!(stamp, catalog_stamp([b, a.clone()]), "in name order, whatever the listing's");
/// let changed = ("b".to_owned(), "fd61a03af4f77d87".to_owned());
/// assert_ne!(stamp, catalog_stamp([a, changed]));
/// ```
pub fn catalog_stamp(tools: impl IntoIterator<Item = (String, String)>) -> String {
    let mut tools: Vec<(String, String)> = tools.into_iter().collect();
    tools.sort();
    let mut text = String::with_capacity(tools.len() * 96);
    for (name, digest) in &tools {
        text.push_str(name);
        text.push('\0');
        text.push_str(digest);
        text.push('\n');
    }
    format!("{:016x}", fnv1a(&text))
}
