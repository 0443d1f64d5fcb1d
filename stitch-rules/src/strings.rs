//! Strings compared in constant evaluation, where `==` on `str` is not available.

/// Whether two strings are equal.
pub const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    let count = a.len();
    while i < count {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether `list` holds `text`.
pub const fn listed(text: &str, list: &[&str]) -> bool {
    let mut i = 0;
    let count = list.len();
    while i < count {
        if str_eq(list[i], text) {
            return true;
        }
        i += 1;
    }
    false
}

/// Whether two optional strings are equal.
pub const fn opt_str_eq(a: Option<&str>, b: Option<&str>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => str_eq(a, b),
        (None, None) => true,
        _ => false,
    }
}
