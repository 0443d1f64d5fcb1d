//! serde's `rename_all` rules, applied exactly as serde applies them: variant names start in
//! PascalCase, field names in snake_case.

/// A `rename_all` rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenameRule {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

impl RenameRule {
    /// The rule serde names `name`, if any.
    pub fn from_name(name: &str) -> Option<RenameRule> {
        Some(match name {
            "lowercase" => RenameRule::Lower,
            "UPPERCASE" => RenameRule::Upper,
            "PascalCase" => RenameRule::Pascal,
            "camelCase" => RenameRule::Camel,
            "snake_case" => RenameRule::Snake,
            "SCREAMING_SNAKE_CASE" => RenameRule::ScreamingSnake,
            "kebab-case" => RenameRule::Kebab,
            "SCREAMING-KEBAB-CASE" => RenameRule::ScreamingKebab,
            _ => return None,
        })
    }

    /// Applies the rule to a variant name (PascalCase).
    pub fn apply_to_variant(self, variant: &str) -> String {
        match self {
            RenameRule::Pascal => variant.to_owned(),
            RenameRule::Lower => variant.to_ascii_lowercase(),
            RenameRule::Upper => variant.to_ascii_uppercase(),
            RenameRule::Camel => {
                let mut chars = variant.chars();
                match chars.next() {
                    Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
                    None => String::new(),
                }
            }
            RenameRule::Snake
            | RenameRule::ScreamingSnake
            | RenameRule::Kebab
            | RenameRule::ScreamingKebab => {
                let mut snake = String::new();
                for (i, ch) in variant.char_indices() {
                    if i > 0 && ch.is_uppercase() {
                        snake.push('_');
                    }
                    snake.push(ch.to_ascii_lowercase());
                }
                RenameRule::Snake.apply_to_field_from_snake(&snake, self)
            }
        }
    }

    /// Applies the rule to a field name (snake_case).
    pub fn apply_to_field(self, field: &str) -> String {
        RenameRule::Snake.apply_to_field_from_snake(field, self)
    }

    fn apply_to_field_from_snake(self, field: &str, rule: RenameRule) -> String {
        match rule {
            RenameRule::Lower | RenameRule::Snake => field.to_owned(),
            RenameRule::Upper | RenameRule::ScreamingSnake => field.to_ascii_uppercase(),
            RenameRule::Pascal => {
                let mut pascal = String::new();
                let mut capitalize = true;
                for ch in field.chars() {
                    if ch == '_' {
                        capitalize = true;
                    } else if capitalize {
                        pascal.push(ch.to_ascii_uppercase());
                        capitalize = false;
                    } else {
                        pascal.push(ch);
                    }
                }
                pascal
            }
            RenameRule::Camel => {
                let pascal = self.apply_to_field_from_snake(field, RenameRule::Pascal);
                let mut chars = pascal.chars();
                match chars.next() {
                    Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
                    None => String::new(),
                }
            }
            RenameRule::Kebab => field.replace('_', "-"),
            RenameRule::ScreamingKebab => field.to_ascii_uppercase().replace('_', "-"),
        }
    }
}

/// `SetText` → `set_text`, for default tool names.
pub fn snake_case(name: &str) -> String {
    RenameRule::Snake.apply_to_variant(name)
}

#[cfg(test)]
mod tests {
    use super::RenameRule::*;

    #[test]
    fn variants_follow_serde() {
        assert_eq!(Camel.apply_to_variant("SetText"), "setText");
        assert_eq!(Snake.apply_to_variant("SetText"), "set_text");
        assert_eq!(ScreamingKebab.apply_to_variant("SetText"), "SET-TEXT");
        assert_eq!(Lower.apply_to_variant("SetText"), "settext");
    }

    #[test]
    fn fields_follow_serde() {
        assert_eq!(Camel.apply_to_field("part_index"), "partIndex");
        assert_eq!(Pascal.apply_to_field("part_index"), "PartIndex");
        assert_eq!(Kebab.apply_to_field("part_index"), "part-index");
        assert_eq!(ScreamingSnake.apply_to_field("part_index"), "PART_INDEX");
    }
}
