//! The catalog digest: what identifies the tools a client was listed, so that a client holding
//! a catalog can tell, from any later answer, that it is stale. A tool's digest covers its
//! name, its description and the texts of its input and output schemas as listed; a catalog's
//! covers its tools' digests in name order (the order a listing comes in does not change it).
//! Each part is the 64-bit FNV-1a of its text, so a stitch tool's part is known at compile time
//! ([`Contract::MEASURES`](crate::Contract::MEASURES) holds its input schema's).

use stitch_rules::json::fnv1a;

/// The digest of a schema's text (or of a name, or a description).
pub const fn text_digest(text: &str) -> u64 {
    fnv1a(text)
}

/// The digest of one tool as listed, from the digests of its name, description, input schema
/// and output schema (`None` when it has none).
pub const fn tool_digest(name: u64, description: u64, input: u64, output: Option<u64>) -> u64 {
    let output = match output {
        Some(output) => output,
        None => 0,
    };
    let parts = [name, description, input, output];
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut part = 0;
    while part < parts.len() {
        let bytes = parts[part].to_le_bytes();
        let mut i = 0;
        while i < bytes.len() {
            hash = ((hash ^ bytes[i] as u64) as u128 * 0x0000_0100_0000_01b3) as u64;
            i += 1;
        }
        part += 1;
    }
    hash
}

/// The stamp of a catalog: its tools' digests (each with its tool's name), in name order,
/// digested, as 16 hexadecimal digits. What `stitch::mcp` puts in `_meta["stitch/catalog"]`.
///
/// ```
/// # use stitch_runtime as stitch;
/// use stitch::{catalog_stamp, text_digest, tool_digest};
///
/// let tool = |name: &str, input: &str| {
///     let digest = tool_digest(text_digest(name), text_digest(""), text_digest(input), None);
///     (name.to_owned(), digest)
/// };
/// let a = tool("a", r#"{"type":"object"}"#);
/// let b = tool("b", r#"{"type":"object"}"#);
/// let stamp = catalog_stamp([a.clone(), b.clone()]);
/// assert_eq!(stamp.len(), 16);
/// assert_eq!(stamp, catalog_stamp([b, a.clone()]), "in name order, whatever the listing's");
/// let changed = tool("b", r#"{"type":"object","properties":{}}"#);
/// assert_ne!(stamp, catalog_stamp([a, changed]));
/// ```
pub fn catalog_stamp(tools: impl IntoIterator<Item = (String, u64)>) -> String {
    let mut tools: Vec<(String, u64)> = tools.into_iter().collect();
    tools.sort();
    let mut text = String::with_capacity(tools.len() * 40);
    for (name, digest) in &tools {
        text.push_str(name);
        text.push('\0');
        text.push_str(&format!("{digest:016x}\n"));
    }
    format!("{:016x}", fnv1a(&text))
}
