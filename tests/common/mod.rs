//! Helpers shared by the integration tests: schema walking, and value generation from the IR
//! (a proptest strategy producing values the exact contract accepts) for the oracle tests.
#![allow(dead_code)]

use proc_macro2::{TokenStream, TokenTree};
use proptest::prelude::*;
use serde_json::{Map, Value, json};
use stitch::ir::{
    ArrayRules, Holds, Kind, Node, NumberRules, Object, StringRules, Tagging, Union, Variant,
};
use stitch::{Contract, Dialect, SchemaProfile, guard::FindingKind};
use syn::visit::Visit;

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

/// Values the exact contract described by `node` accepts (its declared types: no hazard
/// leniency), for the oracle tests.
pub fn values(node: &'static Node<'static>) -> BoxedStrategy<Value> {
    let base = match node.kind {
        Kind::Boolean => any::<bool>().prop_map(Value::from).boxed(),
        Kind::Integer(rules) => integer_values(rules),
        Kind::Number(rules) => number_values(rules),
        Kind::String(rules) => string_values(rules),
        Kind::StringEnum(values, ..) => proptest::sample::select(values)
            .prop_map(Value::from)
            .boxed(),
        Kind::Array(item, rules) => array_values(item, rules),
        Kind::Tuple(elements) => {
            let parts: Vec<BoxedStrategy<Value>> = elements.iter().map(|e| values(e)).collect();
            parts.prop_map(Value::Array).boxed()
        }
        Kind::Map(value, rules) => {
            let low = rules.min_properties.unwrap_or(0).min(4) as usize;
            let high = rules
                .max_properties
                .map_or(low + 2, |most| most as usize)
                .max(low);
            proptest::collection::btree_map("[a-z]{1,6}", values(value), low..=high)
                .prop_map(|map| Value::Object(map.into_iter().collect()))
                .boxed()
        }
        Kind::Object(object) => object_values(object.fields, None),
        Kind::Union(union) => {
            let variants: Vec<BoxedStrategy<Value>> = union
                .variants
                .iter()
                .map(|variant| operation_values(union, variant))
                .collect();
            proptest::strategy::Union::new(variants).boxed()
        }
        Kind::Any | Kind::Opaque => any_json(),
        other => panic!("no values generated for {other:?} yet"),
    };
    if node.nullable {
        prop_oneof![1 => Just(Value::Null), 3 => base].boxed()
    } else {
        base
    }
}

/// Integers within the rules' bounds (capped), multiples of their step.
fn integer_values(rules: NumberRules<'static>) -> BoxedStrategy<Value> {
    let low = rules
        .minimum
        .map(|b| b.value as i64)
        .or(rules.exclusive_minimum.map(|b| b.value as i64 + 1))
        .unwrap_or(-1_000_000)
        .max(-1_000_000_000_000);
    let high = rules
        .maximum
        .map(|b| b.value as i64)
        .or(rules.exclusive_maximum.map(|b| b.value as i64 - 1))
        .unwrap_or(1_000_000)
        .min(1_000_000_000_000);
    let step = rules.multiple_of.map(|b| b.value as i64).unwrap_or(1);
    (low..=high)
        .prop_map(move |n| Value::from(n - n.rem_euclid(step)))
        .prop_filter("in range", move |v| {
            v.as_i64().is_some_and(|n| n >= low && n <= high)
        })
        .boxed()
}

/// Numbers within the rules' bounds, exclusive ones excluded.
fn number_values(rules: NumberRules<'static>) -> BoxedStrategy<Value> {
    let low = rules
        .minimum
        .or(rules.exclusive_minimum)
        .map(|b| b.value)
        .unwrap_or(-1.0e6);
    let high = rules
        .maximum
        .or(rules.exclusive_maximum)
        .map(|b| b.value)
        .unwrap_or(1.0e6);
    let (exclusive_low, exclusive_high) = (
        rules.exclusive_minimum.map(|b| b.value),
        rules.exclusive_maximum.map(|b| b.value),
    );
    (low..=high)
        .prop_filter("exclusive bounds", move |n| {
            exclusive_low.is_none_or(|b| *n > b) && exclusive_high.is_none_or(|b| *n < b)
        })
        .prop_map(Value::from)
        .boxed()
}

/// Strings of the rules' length, matching their pattern or of their format.
fn string_values(rules: StringRules<'static>) -> BoxedStrategy<Value> {
    let min = rules.min_length.unwrap_or(0) as usize;
    let limit = rules.max_length.map_or(usize::MAX, |m| m as usize);
    let max = limit.min(24).max(min);
    let strategy = match (rules.pattern, rules.format) {
        (Some(pattern), _) => {
            // JSON Schema patterns are unanchored: a string matching the whole pattern
            // matches the anchored one too.
            let body = pattern.strip_prefix('^').unwrap_or(pattern);
            let body = body.strip_suffix('$').unwrap_or(body);
            proptest::string::string_regex(body)
                .expect("the pattern compiles")
                .boxed()
        }
        (None, Some(format)) => Just(format_sample(format).to_owned()).boxed(),
        (None, None) => {
            proptest::string::string_regex(&format!("[a-zA-Z0-9 _é\"\\\\]{{{min},{max}}}"))
                .expect("a valid regex")
                .boxed()
        }
    };
    strategy
        .prop_filter("length", move |s| {
            let n = s.chars().count();
            n >= min && n <= limit
        })
        .prop_map(Value::from)
        .boxed()
}

/// Arrays of `item`'s values, as many as the rules allow (a few at most), unique if asked.
fn array_values(item: &'static Node<'static>, rules: ArrayRules) -> BoxedStrategy<Value> {
    let min = rules.min_items.unwrap_or(0) as usize;
    let max = rules
        .max_items
        .map(|m| m as usize)
        .unwrap_or(3)
        .min(4)
        .max(min);
    let unique = rules.unique_items;
    proptest::collection::vec(values(item), min..=max)
        .prop_filter("unique items", move |items| {
            !unique
                || items
                    .iter()
                    .enumerate()
                    .all(|(i, a)| !items[..i].contains(a))
        })
        .prop_map(Value::Array)
        .boxed()
}

/// Calls of one operation, as its union's tagging places it.
fn operation_values(
    union: &'static Union<'static>,
    variant: &'static Variant<'static>,
) -> BoxedStrategy<Value> {
    let held = match variant.holds {
        Holds::Fields => Some(object_values(variant.object.fields, None)),
        Holds::Value(node) => Some(values(node)),
        Holds::Nothing => None,
        _ => unreachable!("an operation holds its fields, nothing or a value"),
    };
    let (tag, name) = (union.tag, variant.name);
    match (union.tagging, held) {
        (Tagging::Adjacent(content), Some(held)) => held
            .prop_map(move |held| json!({ tag: name, content: held }))
            .boxed(),
        (Tagging::Adjacent(_), None) => Just(json!({ tag: name })).boxed(),
        (Tagging::External, Some(held)) => held.prop_map(move |held| json!({ name: held })).boxed(),
        (Tagging::External, None) => {
            prop_oneof![Just(json!({ name: null })), Just(json!({ name: {} }))].boxed()
        }
        _ => object_values(variant.object.fields, Some((tag, name))),
    }
}

fn object_values(
    fields: &'static [stitch::ir::Field],
    tag: Option<(&'static str, &'static str)>,
) -> BoxedStrategy<Value> {
    let parts: Vec<BoxedStrategy<Option<(String, Value)>>> = fields
        .iter()
        .map(|field| {
            let name = field.name.to_owned();
            let value = values(field.node).prop_map(move |v| Some((name.clone(), v)));
            if field.required {
                value.boxed()
            } else {
                prop_oneof![Just(None), value].boxed()
            }
        })
        .collect();
    parts
        .prop_map(move |entries| {
            let mut object = Map::new();
            if let Some((tag, name)) = tag {
                object.insert(tag.to_owned(), Value::from(name));
            }
            for (key, value) in entries.into_iter().flatten() {
                object.insert(key, value);
            }
            Value::Object(object)
        })
        .boxed()
}

fn any_json() -> BoxedStrategy<Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i32>().prop_map(Value::from),
        "[a-z]{0,4}".prop_map(Value::from),
        Just(json!([1, "a"])),
        Just(json!({"k": [true]})),
    ]
    .boxed()
}

fn format_sample(format: &str) -> &'static str {
    match format {
        "date-time" => "2026-12-02T17:00:00Z",
        "date" => "2026-12-02",
        "time" => "17:00:00Z",
        "uri" => "https://example.com/a",
        "email" => "a@example.com",
        "uuid" => "6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f",
        _ => "sample",
    }
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

/// `(type name, tool)` for each contract type listed: what [`check_dialects`] takes.
#[macro_export]
macro_rules! contracts {
    ($($contract:ty),* $(,)?) => {
        &[$((stringify!($contract), <$contract as stitch::Contract>::TOOL)),*]
    };
}

/// The one harness test of a test file, over every contract it derives (each must be listed):
/// every contract in every dialect ([`check_dialects`]), and the guard's two walks agreeing on
/// it ([`assert_guards_agree`]).
#[macro_export]
macro_rules! every_contract_here {
    ($($contract:ty),* $(,)?) => {
        #[test]
        fn every_contract_here_holds_in_every_dialect_and_the_guards_agree() {
            let contracts = contracts![$($contract),*];
            common::check_dialects(file!(), contracts);
            let tools: Vec<stitch::Tool> = contracts.iter().map(|(_, tool)| *tool).collect();
            common::assert_guards_agree(&tools);
        }
    };
}

/// Every contract a test file defines, in every dialect: the schema is valid JSON Schema with
/// the dialect's shape (checked here by walking the JSON, not by asking stitch), and `Mcp` is
/// the advertised schema itself. `file` is the test file (`file!()`): every contract it
/// derives must be listed, so none escapes. When `STITCH_DIALECT_EXPORT` names a directory,
/// the schemas are written there for the providers' own converters (`tests/e2e/dialects.py`),
/// with what the guard reports of each dialect (typed properties required).
pub fn check_dialects(file: &str, contracts: &[(&str, stitch::Tool)]) {
    let listed: Vec<&str> = contracts
        .iter()
        .map(|(name, _)| {
            let name = name.split('<').next().unwrap_or(name);
            name.rsplit("::").next().unwrap_or(name).trim()
        })
        .collect();
    for derived in derived_contracts(file) {
        assert!(
            listed.contains(&derived.as_str()),
            "`{derived}` in {file} is not checked in every dialect: add it to the list"
        );
    }
    let mut export = Map::new();
    for (name, tool) in contracts {
        if tool.flatten && said_whole_in_json(tool.input) {
            assert_eq!(
                foreign_disagrees(tool),
                None,
                "{file} {name}: its exact schema, read as a foreign document and flattened"
            );
        }
        let mut dialects = Map::new();
        let mut findings = Map::new();
        for dialect in stitch::Dialect::ALL {
            let profile = stitch::SchemaProfile::new()
                .require_typed_properties()
                .dialect(dialect);
            let reported: Vec<Value> = stitch::guard::check(&[(*tool).into()], &profile)
                .iter()
                .map(|finding| json!(finding.to_string()))
                .collect();
            findings.insert(dialect.to_string(), Value::Array(reported));
            let text = tool.input_schema_for(dialect);
            let schema = json(text);
            validator(&schema);
            assert_dialect_shape(&schema, dialect, name);
            if dialect == stitch::Dialect::Mcp {
                assert_eq!(
                    text,
                    tool.input_schema(),
                    "{name}: mcp is the advertised schema"
                );
            }
            dialects.insert(dialect.to_string(), schema);
        }
        let entry = json!({"schemas": dialects, "findings": findings});
        export.insert((*name).to_owned(), entry);
    }
    export_dialects(file, export);
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

/// Writes a test file's schemas in every dialect, with what the guard reports of each, where
/// `STITCH_DIALECT_EXPORT` names a directory: for the providers' own converters
/// (`tests/e2e/dialects.py`). `{name: {"schemas": {dialect: schema}, "findings": {dialect:
/// [text]}}}`.
pub fn export_dialects(file: &str, export: Map<String, Value>) {
    if let Some(directory) = std::env::var_os("STITCH_DIALECT_EXPORT") {
        let directory = std::path::PathBuf::from(directory);
        std::fs::create_dir_all(&directory).expect("the export directory can be made");
        let stem = std::path::Path::new(file)
            .with_extension("")
            .to_string_lossy()
            .replace(['/', '\\'], "_");
        let text = serde_json::to_string_pretty(&Value::Object(export)).expect("JSON prints");
        std::fs::write(directory.join(format!("{stem}.json")), text)
            .expect("the export is written");
    }
}

/// Whether an item's attributes derive `Contract`.
fn derives_contract(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("derive")
            && attr
                .parse_args_with(
                    syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated,
                )
                .is_ok_and(|paths| {
                    paths
                        .iter()
                        .any(|path| path.segments.last().is_some_and(|s| s.ident == "Contract"))
                })
    })
}

/// Whether a macro body derives `Contract`, or invokes one of `writing`.
fn writes(tokens: TokenStream, writing: &[String]) -> bool {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    tokens.iter().enumerate().any(|(i, token)| match token {
        TokenTree::Ident(ident) if ident == "derive" => matches!(
            tokens.get(i + 1),
            Some(TokenTree::Group(group)) if group.stream().to_string().contains("Contract")
        ),
        TokenTree::Ident(ident) => {
            writing.contains(&ident.to_string())
                && matches!(tokens.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == '!')
        }
        TokenTree::Group(group) => writes(group.stream(), writing),
        _ => false,
    })
}

/// What a test file holds of contracts: items deriving `Contract`, macro definitions and
/// their invocations.
#[derive(Default)]
struct Finder {
    /// `macro_rules!` definitions: name and body.
    macros: Vec<(String, TokenStream)>,
    /// Invocations outside definitions: macro name and arguments.
    invocations: Vec<(String, TokenStream)>,
    derived: Vec<String>,
}

impl<'ast> Visit<'ast> for Finder {
    fn visit_item_struct(&mut self, item: &'ast syn::ItemStruct) {
        if derives_contract(&item.attrs) {
            self.derived.push(item.ident.to_string());
        }
        syn::visit::visit_item_struct(self, item);
    }

    fn visit_item_enum(&mut self, item: &'ast syn::ItemEnum) {
        if derives_contract(&item.attrs) {
            self.derived.push(item.ident.to_string());
        }
        syn::visit::visit_item_enum(self, item);
    }

    fn visit_item_macro(&mut self, item: &'ast syn::ItemMacro) {
        match (&item.ident, item.mac.path.is_ident("macro_rules")) {
            (Some(name), true) => self
                .macros
                .push((name.to_string(), item.mac.tokens.clone())),
            _ => self.visit_macro(&item.mac),
        }
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        if let Some(name) = mac.path.get_ident() {
            self.invocations
                .push((name.to_string(), mac.tokens.clone()));
        }
    }
}

/// The contracts a test file defines, found by parsing it with syn: every item deriving
/// `Contract`, at any depth; and the contracts its contract-writing macros write (a
/// `macro_rules!` whose body derives `Contract`, or invokes one that does), named by the
/// identifiers at the top level of each invocation (`both_orders!(A, B, [..])`,
/// `pattern_contracts! { Name = r"..."; }`). An invocation that names none fails: its
/// contracts could not be found, so none escapes unseen.
fn derived_contracts(file: &str) -> Vec<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let source = std::fs::read_to_string(&path).expect("the test file is readable");
    let syntax = syn::parse_file(&source).expect("the test file parses");
    let mut finder = Finder::default();
    finder.visit_file(&syntax);
    let mut writing: Vec<String> = Vec::new();
    loop {
        let before = writing.len();
        for (name, body) in &finder.macros {
            if !writing.contains(name) && writes(body.clone(), &writing) {
                writing.push(name.clone());
            }
        }
        if writing.len() == before {
            break;
        }
    }
    let mut names = finder.derived;
    for (name, arguments) in &finder.invocations {
        if !writing.contains(name) {
            continue;
        }
        let named: Vec<String> = arguments
            .clone()
            .into_iter()
            .filter_map(|token| match token {
                TokenTree::Ident(ident) => Some(ident.to_string()),
                _ => None,
            })
            .collect();
        assert!(
            !named.is_empty(),
            "{file}: `{name}!` writes contracts but names none at its top level: list them"
        );
        names.extend(named);
    }
    names
}

/// The shape each dialect promises, checked on the JSON itself.
fn assert_dialect_shape(schema: &Value, dialect: stitch::Dialect, name: &str) {
    use stitch::Dialect;
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
        if dialect != Dialect::Mcp {
            for banned in ["oneOf", "allOf", "$ref", "$defs"] {
                assert!(!object.contains_key(banned), "{at}: `{banned}`");
            }
        }
        if matches!(dialect, Dialect::Portable | Dialect::AnthropicStrict) {
            assert!(
                !matches!(object.get("type"), Some(Value::Array(_))),
                "{at}: a type array"
            );
        }
        if dialect == Dialect::Portable {
            assert!(!object.contains_key("anyOf"), "{at}: `anyOf`");
            if kinds.contains(&"array") {
                assert!(object.contains_key("items"), "{at}: an array without items");
            }
        }
        if matches!(dialect, Dialect::OpenAiStrict | Dialect::AnthropicStrict) {
            if kinds.contains(&"object") {
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
            let typed = ["type", "anyOf", "enum"]
                .iter()
                .any(|key| object.contains_key(*key));
            assert!(typed, "{at}: no type");
        }
        if dialect == Dialect::OpenAiStrict
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

/// A call filled the way a client shown `dialect` fills it, from a plain valid call: an
/// optional key sent as `null` is left out (a client leaves out what it does not send), but
/// in OpenAI's strict dialect, whose client sends every key the schema lists, `null` for
/// those it leaves out.
pub fn fill(
    node: &'static Node<'static>,
    value: &Value,
    dialect: Dialect,
    schema: &Value,
) -> Value {
    let left_out = leave_out_nulls(node, value);
    match dialect {
        Dialect::OpenAiStrict => send_every_key(schema, &entries_where_shown(schema, &left_out)),
        Dialect::AnthropicStrict => entries_where_shown(schema, &left_out),
        _ => left_out,
    }
}

/// The call with each map sent as an array of `{"key", "value"}` entries where the schema
/// shows one so (a strict dialect), at every depth.
pub fn entries_where_shown(schema: &Value, value: &Value) -> Value {
    let shows_entries = schema["items"]["required"] == json!(["key", "value"])
        && schema["items"]["properties"]["key"]["type"] == "string";
    match value {
        Value::Object(map) if shows_entries => {
            let inner = &schema["items"]["properties"]["value"];
            Value::Array(
                map.iter()
                    .map(|(key, value)| json!({"key": key, "value": entries_where_shown(inner, value)}))
                    .collect(),
            )
        }
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, value)| {
                    let inner = schema["properties"]
                        .get(key)
                        .or_else(|| schema.get("additionalProperties"))
                        .unwrap_or(&Value::Null);
                    (key.clone(), entries_where_shown(inner, value))
                })
                .collect(),
        ),
        Value::Array(items) => {
            let item = schema.get("items").unwrap_or(&Value::Null);
            Value::Array(items.iter().map(|v| entries_where_shown(item, v)).collect())
        }
        _ => value.clone(),
    }
}

/// The call with each optional key whose value is `null` left out, as the exact contract
/// declares the keys.
fn leave_out_nulls(node: &'static Node<'static>, value: &Value) -> Value {
    match (&node.kind, value) {
        (Kind::Object(object), Value::Object(map)) => leave_out_in(object, map),
        (Kind::Union(union), Value::Object(map)) if union.tagging == Tagging::External => {
            let Some((name, held)) = map.iter().next() else {
                return value.clone();
            };
            let variant = union.variants.iter().find(|v| v.name == name);
            let held = match (variant.map(|v| v.holds), held) {
                (Some(Holds::Fields), Value::Object(fields)) => {
                    leave_out_in(variant.expect("found").object, fields)
                }
                (Some(Holds::Value(node)), held) => leave_out_nulls(node, held),
                // A unit operation: a client that does not show `null` sends an empty object.
                (Some(Holds::Nothing), _) => json!({}),
                _ => held.clone(),
            };
            json!({ name: held })
        }
        (Kind::Union(union), Value::Object(map)) => {
            let chosen = map.get(union.tag).and_then(Value::as_str);
            let Some(variant) = union.variants.iter().find(|v| Some(v.name) == chosen) else {
                return value.clone();
            };
            match (union.tagging, variant.holds) {
                (Tagging::Adjacent(content), Holds::Fields) => {
                    let mut kept = map.clone();
                    if let Some(Value::Object(fields)) = map.get(content) {
                        kept.insert(content.to_owned(), leave_out_in(variant.object, fields));
                    }
                    Value::Object(kept)
                }
                (Tagging::Adjacent(_), _) => value.clone(),
                _ => leave_out_in(variant.object, map),
            }
        }
        (Kind::Array(item, _), Value::Array(items)) => {
            Value::Array(items.iter().map(|v| leave_out_nulls(item, v)).collect())
        }
        (Kind::Map(item, _), Value::Object(map)) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), leave_out_nulls(item, v)))
                .collect(),
        ),
        _ => value.clone(),
    }
}

fn leave_out_in(object: &'static Object<'static>, map: &Map<String, Value>) -> Value {
    let mut kept = Map::new();
    for (key, value) in map {
        match object.fields.iter().find(|f| f.name == key) {
            Some(field) if value.is_null() && !field.required => {}
            Some(field) => {
                kept.insert(key.clone(), leave_out_nulls(field.node, value));
            }
            None => {
                kept.insert(key.clone(), value.clone());
            }
        }
    }
    Value::Object(kept)
}

/// The call with every key the schema requires and the call leaves out sent as `null`, at
/// every depth: what a strict OpenAI client sends.
pub fn send_every_key(schema: &Value, value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut sent = Map::new();
            let properties = schema.get("properties");
            for (key, value) in map {
                let inner = properties
                    .and_then(|p| p.get(key))
                    .or_else(|| schema.get("additionalProperties"))
                    .unwrap_or(&Value::Null);
                sent.insert(key.clone(), send_every_key(inner, value));
            }
            if let Some(Value::Array(required)) = schema.get("required") {
                for key in required.iter().filter_map(Value::as_str) {
                    sent.entry(key.to_owned()).or_insert(Value::Null);
                }
            }
            Value::Object(sent)
        }
        Value::Array(items) => {
            let item = schema.get("items").unwrap_or(&Value::Null);
            Value::Array(items.iter().map(|v| send_every_key(item, v)).collect())
        }
        _ => value.clone(),
    }
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
    for dialect in Dialect::ALL {
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
