//! The upstream's tools as the gateway holds them: one listing, kept until the upstream says
//! its tools changed, shared by every session whose upstream lists the very same tools (so a
//! listing is rendered once per dialect, by stitch's catalog, however many sessions list it),
//! and each tool's input schema compiled once, on its first call, into the validator a call
//! is checked by before the upstream sees it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use jsonschema::error::ValidationErrorKind;
use rmcp::model::Tool;
use serde_json::Value;
use stitch::{Issue, IssueCode, JsonPointer, Rejection};

/// One listing of the upstream's tools.
pub struct Listed {
    /// As the upstream lists them, each schema held by the same `Arc` for as long as the
    /// listing stands: stitch's catalog renders a listing anew only when they change.
    pub tools: Vec<Tool>,
    by_name: HashMap<String, usize>,
    /// Each tool's validator, compiled on its first call; `None` for a schema the validator
    /// cannot read (that tool's calls go to the upstream unchecked, which judges them).
    validators: Vec<OnceLock<Option<jsonschema::Validator>>>,
}

impl Listed {
    fn of(tools: Vec<Tool>) -> Listed {
        let by_name = tools
            .iter()
            .enumerate()
            .map(|(index, tool)| (tool.name.to_string(), index))
            .collect();
        let validators = tools.iter().map(|_| OnceLock::new()).collect();
        Listed {
            tools,
            by_name,
            validators,
        }
    }

    /// The tool named `name`.
    pub fn tool(&self, name: &str) -> Option<&Tool> {
        self.by_name.get(name).map(|&index| &self.tools[index])
    }

    /// Whether `arguments` are what the tool `name` takes, by its own input schema: every
    /// issue (up to [`Rejection::MAX_ISSUES`]) at its JSON Pointer when not. A tool the
    /// upstream does not list, or whose schema cannot be read, is the upstream's to judge.
    pub fn check(&self, name: &str, arguments: &Value) -> Result<(), Rejection> {
        let Some(&index) = self.by_name.get(name) else {
            return Ok(());
        };
        let validator = self.validators[index].get_or_init(|| {
            let schema = Value::Object(self.tools[index].input_schema.as_ref().clone());
            match jsonschema::validator_for(&schema) {
                Ok(validator) => Some(validator),
                Err(error) => {
                    tracing::warn!(
                        "stitch-gateway: the input schema of `{name}` cannot be read ({error}); \
                         its calls reach the upstream unchecked"
                    );
                    None
                }
            }
        });
        let Some(validator) = validator else {
            return Ok(());
        };
        if validator.is_valid(arguments) {
            return Ok(());
        }
        let mut issues = Vec::new();
        let mut truncated = false;
        for error in validator.iter_errors(arguments) {
            issues.extend(issues_of(&error));
            if issues.len() > Rejection::MAX_ISSUES {
                truncated = true;
                break;
            }
        }
        Err(Rejection::new(issues, truncated))
    }
}

/// The issues one validation error says: one per key where it names several (keys missing
/// or not allowed), each at the key's own pointer.
fn issues_of(error: &jsonschema::ValidationError<'_>) -> Vec<Issue> {
    let at = error.instance_path().as_str();
    let message = error.to_string();
    let at_key = |key: &str| {
        let mut pointer = JsonPointer::root();
        pointer.push_key(key);
        format!("{at}{}", pointer.as_str())
    };
    let issue = |pointer: String, code: IssueCode, message: String| Issue {
        pointer,
        code,
        message,
    };
    match error.kind() {
        ValidationErrorKind::Required { property } => {
            let key = property.as_str().unwrap_or_default();
            vec![issue(at_key(key), IssueCode::MissingRequired, message)]
        }
        ValidationErrorKind::AdditionalProperties { unexpected }
        | ValidationErrorKind::UnevaluatedProperties { unexpected } => unexpected
            .iter()
            .map(|key| {
                let said = format!("`{key}` is not a key this object takes");
                issue(at_key(key), IssueCode::UnknownKey, said)
            })
            .collect(),
        kind => vec![issue(at.to_owned(), code_of(kind), message)],
    }
}

/// The stable code of a validation error's kind.
fn code_of(kind: &ValidationErrorKind) -> IssueCode {
    use ValidationErrorKind as Kind;
    match kind {
        Kind::Type { .. } => IssueCode::InvalidType,
        Kind::Enum { .. } | Kind::Constant { .. } => IssueCode::Enum,
        Kind::Minimum { .. } => IssueCode::Minimum,
        Kind::Maximum { .. } => IssueCode::Maximum,
        Kind::ExclusiveMinimum { .. } => IssueCode::ExclusiveMinimum,
        Kind::ExclusiveMaximum { .. } => IssueCode::ExclusiveMaximum,
        Kind::MultipleOf { .. } => IssueCode::MultipleOf,
        Kind::MinLength { .. } => IssueCode::MinLength,
        Kind::MaxLength { .. } => IssueCode::MaxLength,
        Kind::Pattern { .. } => IssueCode::Pattern,
        Kind::Format { .. } => IssueCode::Format,
        Kind::MinItems { .. } => IssueCode::MinItems,
        Kind::MaxItems { .. } => IssueCode::MaxItems,
        Kind::UniqueItems => IssueCode::UniqueItems,
        Kind::MinProperties { .. } => IssueCode::MinProperties,
        Kind::MaxProperties { .. } => IssueCode::MaxProperties,
        _ => IssueCode::InvalidValue,
    }
}

/// The listing every session shares while the upstream lists the same tools.
#[derive(Default)]
pub struct SharedListing {
    last: Mutex<Option<Arc<Listed>>>,
}

impl SharedListing {
    /// `tools` as held: the listing already held when they are the same tools (the same
    /// `Arc`s, so the same renderings and validators), else a new one, held from now on.
    pub fn hold(&self, tools: Vec<Tool>) -> Arc<Listed> {
        let mut last = self
            .last
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(held) = last.as_ref().filter(|held| held.tools == tools) {
            return Arc::clone(held);
        }
        let listed = Arc::new(Listed::of(tools));
        *last = Some(Arc::clone(&listed));
        listed
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn listed(schema: Value) -> Listed {
        let Value::Object(schema) = schema else {
            panic!("an object")
        };
        Listed::of(vec![Tool::new("t", "A tool.", Arc::new(schema))])
    }

    #[test]
    fn every_issue_is_at_its_pointer_with_its_code() {
        let listed = listed(json!({
            "type": "object",
            "properties": {"n": {"type": "integer", "minimum": 0}, "s": {"type": "string"}},
            "required": ["n", "s"],
            "additionalProperties": false
        }));
        let rejection = listed.check("t", &json!({"n": -1, "x": 1})).unwrap_err();
        let said: Vec<(&str, &str)> = rejection
            .issues
            .iter()
            .map(|issue| (issue.pointer.as_str(), issue.code.as_str()))
            .collect();
        for expected in [
            ("/n", "minimum"),
            ("/s", "missing_required"),
            ("/x", "unknown_key"),
        ] {
            assert!(said.contains(&expected), "{expected:?} not in {said:?}");
        }
        assert!(listed.check("t", &json!({"n": 1, "s": ""})).is_ok());
    }

    #[test]
    fn a_tool_not_listed_or_not_readable_is_the_upstreams_to_judge() {
        let unreadable = listed(json!({"type": "object", "properties": {"a": {"type": 5}}}));
        assert!(unreadable.check("t", &json!({"a": 1})).is_ok());
        assert!(unreadable.check("other", &json!(1)).is_ok());
    }

    #[test]
    fn the_same_tools_share_one_listing() {
        let shared = SharedListing::default();
        let tool = |description: &str| {
            Tool::new(
                "t",
                description.to_owned(),
                Arc::new(serde_json::Map::new()),
            )
        };
        let first = shared.hold(vec![tool("A tool.")]);
        assert!(Arc::ptr_eq(&first, &shared.hold(vec![tool("A tool.")])));
        assert!(!Arc::ptr_eq(&first, &shared.hold(vec![tool("Another.")])));
    }
}
