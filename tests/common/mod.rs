//! Helpers shared by the integration tests: schema walking, and value generation from the IR
//! (a proptest strategy producing values the exact contract accepts) for the oracle tests.
#![allow(dead_code)]

mod contracts_found;
mod export;
mod sending;
mod values;

use contracts_found::assert_every_contract_listed;
pub use export::*;
pub use sending::*;
pub use values::*;

use proptest::prelude::*;
use serde_json::{Map, Value, json};
use stitch::ir::{Kind, Node, Object, Tagging};
use stitch::{Contract, Dialect, SchemaProfile, guard::FindingKind};

/// A schema text as JSON.
pub fn json(text: &str) -> Value {
    serde_json::from_str(text).expect("stitch renders valid JSON")
}

/// The names of a schema's `properties`, in the order rendered.
pub fn property_names(schema: &Value) -> Vec<&str> {
    schema["properties"]
        .as_object()
        .map(|properties| properties.keys().map(String::as_str).collect())
        .unwrap_or_default()
}

/// The dotted paths (as the guard writes them) of the properties a rendered schema leaves
/// without a type: no `type`, `enum`, `const` or composition of its own. Arrays' items and
/// maps' values step into what they hold without a segment, as the guard's paths do.
pub fn untyped_properties(schema: &Value) -> Vec<String> {
    fn visit(schema: &Value, path: &str, found: &mut Vec<String>) {
        let Some(object) = schema.as_object() else {
            return;
        };
        if let Some(Value::Object(properties)) = object.get("properties") {
            for (key, value) in properties {
                let at = if path.is_empty() {
                    key.clone()
                } else {
                    format!("{path}.{key}")
                };
                let typed = ["type", "enum", "const", "anyOf", "oneOf", "allOf", "$ref"]
                    .iter()
                    .any(|keyword| value.get(*keyword).is_some());
                if !typed && !found.contains(&at) {
                    found.push(at.clone());
                }
                visit(value, &at, found);
            }
        }
        for key in ["items", "additionalProperties"] {
            if let Some(inner) = object.get(key) {
                visit(inner, path, found);
            }
        }
        for key in ["anyOf", "oneOf", "allOf", "prefixItems"] {
            if let Some(Value::Array(branches)) = object.get(key) {
                for branch in branches {
                    visit(branch, path, found);
                }
            }
        }
    }
    let mut found = Vec::new();
    visit(schema, "", &mut found);
    found
}

/// A compiled JSON Schema validator (the independent oracle).
pub fn validator(schema: &Value) -> jsonschema::Validator {
    jsonschema::validator_for(schema).expect("stitch renders valid JSON Schema")
}

/// Calls `visit(path, schema)` on every subschema of `schema`, depth first.
pub fn walk(schema: &Value, path: &str, visit: &mut dyn FnMut(&str, &Value)) {
    visit(path, schema);
    let Some(object) = schema.as_object() else {
        return;
    };
    if let Some(Value::Object(properties)) = object.get("properties") {
        for (key, value) in properties {
            walk(value, &format!("{path}.{key}"), visit);
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(value @ Value::Object(_)) = object.get(key) {
            walk(value, path, visit);
        }
    }
    for key in ["oneOf", "anyOf", "allOf"] {
        if let Some(Value::Array(branches)) = object.get(key) {
            for branch in branches {
                walk(branch, path, visit);
            }
        }
    }
}

/// Every property path whose schema carries no type information.
pub fn untyped_paths(schema: &Value) -> Vec<String> {
    let mut untyped = Vec::new();
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return untyped;
    };
    for (key, value) in properties {
        collect_untyped(value, key, &mut untyped);
    }
    untyped
}

fn collect_untyped(schema: &Value, path: &str, untyped: &mut Vec<String>) {
    const TYPED: [&str; 8] = [
        "type", "enum", "const", "anyOf", "oneOf", "allOf", "$ref", "not",
    ];
    let object = schema.as_object().expect("a schema object");
    if !TYPED.iter().any(|key| object.contains_key(*key)) {
        untyped.push(path.to_owned());
    }
    if let Some(Value::Object(properties)) = object.get("properties") {
        for (key, value) in properties {
            collect_untyped(value, &format!("{path}.{key}"), untyped);
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(inner @ Value::Object(map)) = object.get(key)
            && !map.is_empty()
        {
            collect_inner(inner, path, untyped);
        }
    }
}

fn collect_inner(schema: &Value, path: &str, untyped: &mut Vec<String>) {
    if let Some(Value::Object(properties)) = schema.get("properties") {
        for (key, value) in properties {
            collect_untyped(value, &format!("{path}.{key}"), untyped);
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(inner @ Value::Object(_)) = schema.get(key) {
            collect_inner(inner, path, untyped);
        }
    }
}

/// Fails if a keyword advertised schemas must not contain appears anywhere.
pub fn assert_portable(schema: &Value) {
    walk(schema, "", &mut |path, sub| {
        if let Some(object) = sub.as_object() {
            for banned in ["oneOf", "anyOf", "$ref", "$defs", "$schema", "definitions"] {
                assert!(
                    !object.contains_key(banned),
                    "`{banned}` at `{path}` in the advertised schema"
                );
            }
        }
    });
}

/// A property of a flat union inside `schema` (`properties.<key>`), without its description.
pub fn property(schema: &Value, key: &str) -> Value {
    let mut property = schema["properties"][key].clone();
    if let Some(object) = property.as_object_mut() {
        object.remove("description");
    }
    property
}

/// Every JSON Pointer inside a value, the value's own (`""`) last.
pub fn pointers(value: &Value, at: String, out: &mut Vec<String>) {
    match value {
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                pointers(item, format!("{at}/{i}"), out);
            }
        }
        Value::Object(map) => {
            for (key, item) in map {
                let key = key.replace('~', "~0").replace('/', "~1");
                pointers(item, format!("{at}/{key}"), out);
            }
        }
        _ => {}
    }
    out.push(at);
}

/// Asserts the const guard over the IR and the foreign-JSON guard over the rendered advertised
/// schema report the same untyped properties and the same non-portable formats.
pub fn assert_guards_agree(tools: &[stitch::Tool]) {
    let profile = stitch::SchemaProfile::new()
        .require_typed_properties()
        .require_portable_formats();
    for tool in tools {
        let summary =
            |findings: Vec<stitch::Finding>| -> Vec<(stitch::guard::FindingKind, String)> {
                findings
                    .into_iter()
                    .filter(|f| {
                        matches!(
                            f.kind(),
                            stitch::guard::FindingKind::Untyped
                                | stitch::guard::FindingKind::NonPortableFormat
                        )
                    })
                    .map(|f| (f.kind(), f.path().to_owned()))
                    .collect()
            };
        let from_ir = summary(stitch::guard::check(&[(*tool).into()], &profile));
        let from_json = summary(stitch::guard::check(
            &[stitch::guard::Checked::Listed {
                name: tool.name,
                description: "",
                input: &json(tool.input_schema()),
            }],
            &profile,
        ));
        assert_eq!(
            from_ir, from_json,
            "the guards disagree on tool `{}`",
            tool.name
        );
    }
}

/// A contract as the harness reads it: its type's name, its tool, and its advertised schema
/// as the contract gives it (`input_schema`, a non-generic contract's compile-time
/// `INPUT_SCHEMA`).
pub type Listed = (&'static str, stitch::Tool, fn() -> &'static str);

/// A [`Listed`] for each contract type listed: what [`check_dialects`] takes.
#[macro_export]
macro_rules! contracts {
    ($($contract:ty),* $(,)?) => {
        &[$((
            stringify!($contract),
            <$contract as stitch::Contract>::TOOL,
            <$contract as stitch::Contract>::input_schema as fn() -> &'static str,
        )),*]
    };
}

/// The one harness test of a test file, over every contract it derives (each must be listed):
/// every contract in every dialect ([`check_dialects`]), and the guard's two walks agreeing on
/// it ([`assert_guards_agree`]). A file whose contracts are a generic one at many types lists
/// them in each of its modules, each list with the name of its part of the export
/// (`every_contract_here!(in "_standard"; Holds<u8>, …)`).
#[macro_export]
macro_rules! every_contract_here {
    (in $part:literal; $($contract:ty),* $(,)?) => {
        #[test]
        fn every_contract_here_holds_in_every_dialect_and_the_guards_agree() {
            let contracts = contracts![$($contract),*];
            common::check_dialects(file!(), $part, contracts);
            let tools: Vec<stitch::Tool> = contracts.iter().map(|(_, tool, _)| *tool).collect();
            common::assert_guards_agree(&tools);
        }
    };
    ($($contract:ty),* $(,)?) => {
        $crate::every_contract_here!(in ""; $($contract),*);
    };
}

/// The snapshot's test for contracts the harness is not for: a file that derives contracts
/// without [`every_contract_here!`] (over a budget on purpose, a generic one at many types, a
/// tool of a served router), or a contract whose schema the harness refuses (an `anyOf` that
/// a standard type says), lists them here, so every contract in the suite is in the schema
/// snapshot ([`export_texts`]).
#[macro_export]
macro_rules! every_contract_here_is_in_the_snapshot {
    (in $part:expr; $($contract:ty),* $(,)?) => {
        #[test]
        fn every_contract_here_is_in_the_schema_snapshot() {
            $crate::common::export_texts(file!(), $part, $crate::contracts![$($contract),*]);
        }
    };
    ($($contract:ty),* $(,)?) => {
        $crate::every_contract_here_is_in_the_snapshot!(in ""; $($contract),*);
    };
}

/// Every contract a test file defines, in every dialect: the schema is valid JSON Schema with
/// the dialect's shape (checked here by walking the JSON, not by asking stitch), and `Mcp` is
/// the advertised schema itself. `file` is the test file (`file!()`): every contract it
/// derives must be listed, so none escapes. When `STITCH_DIALECT_EXPORT` names a directory,
/// the schemas are written there for the providers' own converters (`tests/e2e/dialects.py`),
/// with what the guard reports of each dialect (typed properties required), and every text
/// as rendered (`texts`: the advertised schema as the contract gives it, the exact schema and
/// each dialect's), which CI holds to `tests/snapshots/schemas.txt`. `part` names the export
/// of these contracts among the file's (see [`export_dialects`]).
pub fn check_dialects(file: &str, part: &str, contracts: &[Listed]) {
    assert_every_contract_listed(file, contracts, "checked in every dialect");
    let mut export = Map::new();
    for (name, tool, advertised) in contracts {
        if tool.flatten && said_whole_in_json(tool.input) {
            assert_eq!(
                foreign_disagrees(tool),
                None,
                "{file} {name}: its exact schema, read as a foreign document and flattened"
            );
        }
        let mut dialects = Map::new();
        let mut findings = Map::new();
        assert_eq!(
            advertised(),
            tool.input_schema(),
            "{name}: the advertised schema the contract gives is the one its tool renders"
        );
        let texts = rendered_texts(tool, *advertised);
        for &dialect in stitch::Dialect::ALL {
            let profile = stitch::SchemaProfile::new()
                .require_typed_properties()
                .dialect(dialect);
            let found = stitch::guard::check(&[(*tool).into()], &profile);
            let reported: Vec<Value> = found
                .iter()
                .map(|finding| json!(finding.to_string()))
                .collect();
            findings.insert(dialect.to_string(), Value::Array(reported));
            let text = tool.input_schema_for(dialect);
            let schema = json(text);
            // The guard's walk reads the dialect's row as the renderer does: every property
            // the rendered schema leaves without a type is one the walk reports.
            let reported_at: Vec<&str> = found.iter().map(|finding| finding.path()).collect();
            for path in untyped_properties(&schema) {
                assert!(
                    reported_at.contains(&path.as_str()),
                    "{name} in {dialect}: `{path}` is rendered without a type and the guard \
                     reports nothing there ({reported_at:?})"
                );
            }
            validator(&schema);
            let flat = dialect != stitch::Dialect::Mcp || tool.flatten;
            assert_dialect_shape(&schema, dialect, name, flat);
            if dialect == stitch::Dialect::Mcp {
                assert_eq!(
                    text,
                    tool.input_schema(),
                    "{name}: mcp is the advertised schema"
                );
            }
            dialects.insert(dialect.to_string(), schema);
        }
        let entry = json!({"schemas": dialects, "findings": findings, "texts": texts});
        export.insert((*name).to_owned(), entry);
    }
    export_dialects(file, part, export);
}

/// Whether a contract's exact schema says all its IR says, as a schema any other generator
/// (schemars) could write: no hidden check, no hazard, no opaque value (which JSON Schema
/// cannot show), and its unions internally tagged (a foreign union is flattened when a tag key
/// tells its operations apart; an adjacently tagged one's content key merges by the collision
/// rules, and an externally tagged one has no tag key, so both are left to their own tests).
pub fn said_whole_in_json(node: &'static Node<'static>) -> bool {
    if node.has_hidden_check() || !matches!(node.hazard, stitch::ir::Hazard::None) {
        return false;
    }
    match node.kind {
        Kind::Opaque => false,
        Kind::Array(item, _) | Kind::Map(item, _) => said_whole_in_json(item),
        Kind::Tuple(elements) => elements.iter().all(|element| said_whole_in_json(element)),
        Kind::Object(object) => object_said_whole(object),
        Kind::Union(union) => {
            union.tagging == Tagging::Internal
                && union
                    .variants
                    .iter()
                    .all(|variant| object_said_whole(variant.object))
        }
        _ => true,
    }
}

fn object_said_whole(object: &'static Object<'static>) -> bool {
    object.rest.is_none_or(said_whole_in_json)
        && object
            .fields
            .iter()
            .all(|field| said_whole_in_json(field.node))
}

/// Where the contract's exact schema, read as a foreign document and flattened, advertises
/// other keys, kinds, requirements or enums than the contract does.
pub fn foreign_disagrees(tool: &stitch::Tool) -> Option<String> {
    let exact = json(&stitch::Rendering::Exact.render(tool.input));
    let rebuilt = stitch::foreign::flatten_tool_schema(&exact);
    let advertised = json(tool.input_schema());
    let (a, b) = (summary(&rebuilt), summary(&advertised));
    if a == b {
        return None;
    }
    let differing: Vec<String> = a
        .iter()
        .filter(|(path, said)| b.get(*path) != Some(said))
        .map(|(path, said)| format!("{path}: {said:?} vs {:?}", b.get(path)))
        .chain(
            b.keys()
                .filter(|path| !a.contains_key(*path))
                .map(|path| format!("{path}: missing")),
        )
        .collect();
    Some(differing.join("; "))
}

/// What a schema says of each place, descriptions aside: its kinds, its required keys, its
/// enum.
pub type Summary = std::collections::BTreeMap<String, (Vec<String>, Vec<String>, Vec<String>)>;

/// A schema's [`Summary`].
pub fn summary(schema: &Value) -> Summary {
    let mut places = Summary::new();
    walk(schema, "", &mut |path, node| {
        let strings = |key: &str| -> Vec<String> {
            let mut list: Vec<String> = match node.get(key) {
                Some(Value::Array(items)) => items.iter().map(Value::to_string).collect(),
                Some(Value::String(one)) => vec![format!("{one:?}")],
                _ => Vec::new(),
            };
            list.sort();
            list
        };
        let entry = places.entry(path.to_owned()).or_default();
        entry.0.extend(strings("type"));
        entry.1.extend(strings("required"));
        entry.2.extend(strings("enum"));
    });
    places
}

/// The shape each dialect promises, by its row's rules, checked on the JSON itself; `flat`
/// says whether the schema is the flattened one (a contract may advertise its exact schema,
/// `oneOf`, to `mcp` clients).
fn assert_dialect_shape(schema: &Value, dialect: stitch::Dialect, name: &str, flat: bool) {
    use stitch::dialect::{FreeValues, Omitted, SeveralKinds};
    let rules = dialect.rules();
    walk(schema, "", &mut |path, sub| {
        let Some(object) = sub.as_object() else {
            return;
        };
        let at = format!("{name} in {dialect}, at `{path}`");
        let kinds: Vec<&str> = match object.get("type") {
            Some(Value::String(kind)) => vec![kind.as_str()],
            Some(Value::Array(kinds)) => kinds.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        // A contract's flat input is one object of typed keys, in every dialect: `anyOf` only
        // where the row says several kinds (and `null`) as branches (Anthropic's SDK refuses
        // `type` arrays).
        if flat {
            for banned in ["oneOf", "allOf", "$ref", "$defs"] {
                assert!(!object.contains_key(banned), "{at}: `{banned}`");
            }
            if rules.kinds != SeveralKinds::Branches {
                assert!(!object.contains_key("anyOf"), "{at}: `anyOf`");
            }
        }
        if rules.kinds != SeveralKinds::TypeArray {
            assert!(
                !matches!(object.get("type"), Some(Value::Array(_))),
                "{at}: a type array"
            );
        }
        if rules.kinds == SeveralKinds::Described && kinds.contains(&"array") {
            assert!(object.contains_key("items"), "{at}: an array without items");
        }
        if rules.objects_closed && kinds.contains(&"object") {
            assert_eq!(
                object.get("additionalProperties"),
                Some(&json!(false)),
                "{at}"
            );
            assert!(
                object.contains_key("properties"),
                "{at}: an object without properties"
            );
        }
        if rules.free == FreeValues::JsonText {
            let typed = ["type", "anyOf", "enum"]
                .iter()
                .any(|key| object.contains_key(*key));
            assert!(typed, "{at}: no type");
        }
        if rules.omitted == Omitted::SentAsNull
            && let Some(Value::Object(properties)) = object.get("properties")
        {
            let keys: Vec<Value> = properties.keys().map(|key| json!(key)).collect();
            assert_eq!(
                object.get("required"),
                Some(&Value::Array(keys)),
                "{at}: required"
            );
        }
    });
}

/// What the guard reports this contract's dialect cannot say.
pub fn inexpressible<T: Contract>(dialect: Dialect) -> Vec<String> {
    let profile = SchemaProfile::new().dialect(dialect);
    stitch::guard::check(&[T::TOOL.into()], &profile)
        .into_iter()
        .filter(|f| f.kind() == FindingKind::Inexpressible)
        .map(|f| f.path().to_owned())
        .collect()
}

/// The invariant for one contract, over generated calls; returns the dialects whose schema
/// was held to every call (those the guard reports nothing of).
pub fn holds_in_every_dialect<T: Contract + std::fmt::Debug + PartialEq>(
    cases: u32,
) -> Vec<Dialect> {
    let mut judged = Vec::new();
    for &dialect in Dialect::ALL {
        let shown = json(T::input_schema_for(dialect));
        let schema = validator(&shown);
        let lossless = inexpressible::<T>(dialect).is_empty();
        if lossless {
            judged.push(dialect);
        }
        let accepted = std::cell::Cell::new(0u32);
        let config = ProptestConfig::with_cases(cases);
        proptest!(config, |(plain in values(T::SHAPE))| {
            let filled = fill(T::SHAPE, &plain, dialect, &shown);
            let expected = T::parse(plain.clone());
            let parsed = T::parse_for(filled.clone(), dialect);
            match (&expected, &parsed) {
                (Ok(expected), Ok(parsed)) => prop_assert_eq!(expected, parsed),
                (Err(_), Err(_)) => {}
                _ => prop_assert!(false, "{dialect}: {plain} parses {:?}, filled {filled} {:?}",
                    expected.is_ok(), parsed.is_ok()),
            }
            if lossless && expected.is_ok() {
                prop_assert!(schema.is_valid(&filled),
                    "the {dialect} schema rejects {filled}, filled from {plain}");
            }
            accepted.set(accepted.get() + u32::from(expected.is_ok()));
        });
        assert!(
            accepted.get() * 2 > cases,
            "{dialect}: most generated calls must be valid"
        );
    }
    judged
}

/// An observer of stitch tools writing each call into `log` as `tool outcome` (`accepted`,
/// `rejected POINTER`, `failed MESSAGE`).
#[cfg(feature = "rmcp")]
pub fn record_into(
    log: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
) -> impl Fn(&stitch::mcp::CallRecord<'_>) + Send + Sync + 'static {
    use stitch::mcp::Outcome;
    move |call| {
        let outcome = match &call.outcome {
            Outcome::Accepted => "accepted".to_owned(),
            Outcome::Rejected(issues) => format!("rejected {}", issues[0].pointer),
            Outcome::Failed(error) => format!("failed {error}"),
            Outcome::Cancelled => "cancelled".to_owned(),
            other => format!("{other:?}"),
        };
        log.lock().unwrap().push(format!("{} {outcome}", call.tool));
    }
}
