//! How a flattened union's key names the operations that take it (`Required if op = a | b`):
//! those that require it, or where none does, every one that declares it; each name escaped
//! for a JSON string, joined by one separator. Constant evaluation writes a list name by name;
//! the derive, which knows every name, writes the lists of a union whose keys it numbers
//! natively, and rendering copies each whole.

use crate::json::escaped;

/// What stands between two operations' names in a hint.
pub const OPERATION_SEPARATOR: &str = " | ";

/// Whether a key's hint names an operation whose field under the key is `required`, when
/// some operation requires the key (`some_require`): the requiring ones, or where none
/// does, all.
pub const fn names_operation(some_require: bool, required: bool) -> bool {
    !some_require || required
}

/// The inside of a JSON string naming `names` in order, each escaped, joined by
/// [`OPERATION_SEPARATOR`]: for the derive.
pub fn operation_list<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    let mut list = String::new();
    for name in names {
        if !list.is_empty() {
            list.push_str(OPERATION_SEPARATOR);
        }
        list.push_str(&escaped(name));
    }
    list
}

#[cfg(test)]
mod tests {
    use super::{names_operation, operation_list};

    #[test]
    fn names_are_escaped_and_joined_in_order() {
        assert_eq!(operation_list(["b", "a\"q", "c"]), "b | a\\\"q | c");
        assert_eq!(operation_list(["only"]), "only");
        assert_eq!(operation_list([]), "");
    }

    #[test]
    fn a_hint_names_the_requiring_operations_or_else_all() {
        assert!(names_operation(true, true));
        assert!(!names_operation(true, false));
        assert!(names_operation(false, false));
    }
}
