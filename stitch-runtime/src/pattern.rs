//! `pattern`, as JSON Schema means it: an ECMA-262 regular expression, evaluated with the
//! `regex` crate after the shared rule (`stitch_rules::pattern`) has rewritten it into the
//! `regex` crate's syntax with its ECMA-262 meaning, so `parse` accepts exactly what a client
//! reading the advertised schema accepts. Compiled once per pattern and kept.

use std::sync::{OnceLock, RwLock};

use regex::Regex;
use rustc_hash::FxHashMap;
use stitch_rules::pattern::to_regex_syntax;

/// Whether `text` matches `pattern`: the `pattern` keyword's check (a pattern that does
/// not compile is not checked).
#[inline]
pub fn matches(pattern: &'static str, text: &str) -> bool {
    compiled(pattern).is_none_or(|regex| regex.is_match(text))
}

/// A pattern compiled once per process, with its ECMA-262 meaning. Patterns are `'static`
/// strings in the contract, so the cache is keyed by where the text lives (two words hashed
/// with FxHash, not the text) and each compiled pattern is kept for the life of the process, shared
/// (a cloned `Regex` would start a fresh match cache on every call).
pub fn compiled(pattern: &'static str) -> Option<&'static Regex> {
    type Cache = RwLock<FxHashMap<(usize, usize), Option<&'static Regex>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let key = (pattern.as_ptr() as usize, pattern.len());
    if let Some(regex) = cache.read().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return *regex;
    }
    *cache
        .write()
        .unwrap_or_else(|e| e.into_inner())
        .entry(key)
        .or_insert_with(|| {
            let translated = to_regex_syntax(pattern).ok()?;
            let regex = Regex::new(&translated).ok()?;
            Some(&*Box::leak(Box::new(regex)))
        })
}
