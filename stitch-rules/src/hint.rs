//! How a flattened union names its operations: each key the operations that take it
//! (`Required if op = a | b`: those that require it, or where none does, every one that
//! declares it), and the tag every operation with its summary line (`a — Adds; b`); each
//! name escaped for a JSON string. Constant evaluation writes a list name by name; the
//! derive, which knows every name, writes the lists of a union whose keys it numbers
//! natively, and rendering copies each whole.

use crate::json::escaped;

/// What stands between two operations' names in a hint.
pub const OPERATION_SEPARATOR: &str = " | ";

/// What stands between two operations in the tag's description.
pub const SUMMARY_SEPARATOR: &str = "; ";

/// What stands between an operation's name and its summary line in the tag's description.
pub const SUMMARY_DASH: &str = " \u{2014} ";

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
    for (at, name) in names.into_iter().enumerate() {
        if at > 0 {
            list.push_str(OPERATION_SEPARATOR);
        }
        list.push_str(&escaped(name));
    }
    list
}

/// The inside of a JSON string listing every operation, `(name, summary line)`, as the tag's
/// description does (`a — Adds; b`), each text escaped: for the derive.
pub fn summary_list<'a>(
    operations: impl IntoIterator<Item = (&'a str, Option<&'a str>)>,
) -> String {
    let mut list = String::new();
    for (at, (name, summary)) in operations.into_iter().enumerate() {
        if at > 0 {
            list.push_str(SUMMARY_SEPARATOR);
        }
        list.push_str(&escaped(name));
        if let Some(summary) = summary {
            list.push_str(SUMMARY_DASH);
            list.push_str(&escaped(summary));
        }
    }
    list
}

#[cfg(test)]
mod tests {
    use super::{names_operation, operation_list, summary_list};

    #[test]
    fn names_are_escaped_and_joined_in_order() {
        assert_eq!(operation_list(["b", "a\"q", "c"]), "b | a\\\"q | c");
        assert_eq!(operation_list(["only"]), "only");
        assert_eq!(operation_list([]), "");
        assert_eq!(operation_list(["", "b"]), " | b");
    }

    #[test]
    fn the_summary_list_gives_each_operation_its_line() {
        assert_eq!(
            summary_list([
                ("a", Some("Adds \"one\"")),
                ("b", None),
                ("c", Some("Clears"))
            ]),
            "a \u{2014} Adds \\\"one\\\"; b; c \u{2014} Clears"
        );
    }

    #[test]
    fn a_hint_names_the_requiring_operations_or_else_all() {
        assert!(names_operation(true, true));
        assert!(!names_operation(true, false));
        assert!(names_operation(false, false));
    }
}
