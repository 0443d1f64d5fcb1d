//! `pattern`, as JSON Schema means it: an ECMA-262 regular expression, evaluated with the
//! `regex` crate after the shared rule (`stitch_rules::pattern`) has rewritten it into the
//! `regex` crate's syntax with its ECMA-262 meaning, so `parse` accepts exactly what a client
//! reading the advertised schema accepts. Compiled once per pattern and kept.

use std::sync::{OnceLock, RwLock};

use regex::Regex;
use rustc_hash::FxHashMap;

/// Whether `text` matches `pattern`: the `pattern` keyword's check. A pattern that does not
/// compile (past the size limit, say: the derive refuses one, a hand-built node may hold one)
/// matches nothing, so a call is refused rather than let through unchecked.
#[inline]
pub fn matches(pattern: &'static str, text: &str) -> bool {
    compiled(pattern).is_some_and(|regex| regex.is_match(text))
}

/// A pattern compiled once per process, with its ECMA-262 meaning. Patterns are `'static`
/// strings in the contract, so the cache is keyed by where the text lives (not the text)
/// and each compiled pattern is kept for the life of the process, shared (a cloned `Regex`
/// would start a fresh match cache on every call). A pattern is found first in a small
/// table of slots, each set once and read with no lock; one whose slot another pattern took
/// is found in the map behind the lock, where every pattern is.
pub fn compiled(pattern: &'static str) -> Option<&'static Regex> {
    type Found = ((usize, usize), Option<&'static Regex>);
    static SLOTS: [OnceLock<Found>; 64] = [const { OnceLock::new() }; 64];
    let key = (pattern.as_ptr() as usize, pattern.len());
    // Fibonacci hashing of the address: its top six bits.
    let slot = &SLOTS[(key.0 ^ key.1).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58];
    if let Some(&(held, regex)) = slot.get()
        && held == key
    {
        return regex;
    }
    let regex = kept(key, pattern);
    let _ = slot.set((key, regex));
    regex
}

/// The pattern at `key` from the map of every pattern compiled, compiled on its first use.
#[cold]
fn kept(key: (usize, usize), pattern: &'static str) -> Option<&'static Regex> {
    type Cache = RwLock<FxHashMap<(usize, usize), Option<&'static Regex>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(regex) = cache.read().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return *regex;
    }
    *cache
        .write()
        .unwrap_or_else(|e| e.into_inner())
        .entry(key)
        .or_insert_with(|| {
            let regex = stitch_rules::pattern::compiled(pattern).ok()?;
            Some(&*Box::leak(Box::new(regex)))
        })
}

#[cfg(test)]
mod tests {
    use super::compiled;

    /// More patterns than slots: those whose slot another took are found behind the lock,
    /// and every pattern is always its own.
    #[test]
    fn each_pattern_is_found_as_itself_whatever_its_slot() {
        let patterns: Vec<&'static str> = (1..200)
            .map(|n| &*Box::leak(format!("^x{{{n}}}$").into_boxed_str()))
            .collect();
        for _ in 0..2 {
            for (n, pattern) in (1..).zip(&patterns) {
                let regex = compiled(pattern).expect("compiles");
                assert!(regex.is_match(&"x".repeat(n)), "{pattern}");
                assert!(!regex.is_match(&"x".repeat(n + 1)), "{pattern}");
            }
        }
        assert!(compiled("(").is_none());
    }

    /// A pattern that does not compile, past the size limit or at all, matches nothing: a
    /// call is refused, never let through unchecked.
    #[test]
    fn a_pattern_that_does_not_compile_matches_nothing() {
        for pattern in ["^[a-z]{1,100000}$", "^(a{1000}){1000}$", "("] {
            assert!(compiled(pattern).is_none(), "{pattern}");
            assert!(!super::matches(pattern, "1"), "{pattern}");
            assert!(!super::matches(pattern, "abc"), "{pattern}");
        }
        assert!(super::matches("^[a-z]{1,100}$", "abc"));
    }
}
