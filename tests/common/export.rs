//! Where the harness's texts go: the directory `STITCH_DIALECT_EXPORT` names, one JSON file
//! per test file and part, read by the providers' converters (`tests/e2e/dialects.py`) and
//! the schema snapshot (`scripts/schema-snapshot.py`).

use serde_json::{Map, Value, json};

use super::Listed;
use super::contracts_found::assert_every_contract_listed;

/// Every text the contracts render (the advertised schema as the contract gives it, the
/// exact schema, each dialect's), exported as [`check_dialects`] exports them for the schema
/// snapshot, without the harness's checks: for the contracts they are not for
/// ([`every_contract_here_is_in_the_snapshot!`]). Every contract `file` derives must be
/// listed. The export holds `texts` only, which the providers' converters pass by.
pub fn export_texts(file: &str, part: &str, contracts: &[Listed]) {
    assert_every_contract_listed(file, contracts, "in the schema snapshot");
    let mut export = Map::new();
    for (name, tool, advertised) in contracts {
        let texts = rendered_texts(tool, *advertised);
        export.insert((*name).to_owned(), json!({ "texts": texts }));
    }
    export_dialects(file, part, export);
}

/// Every text a contract renders, as the snapshot holds them: the advertised schema as the
/// contract gives it, the exact schema and each dialect's.
pub fn rendered_texts(tool: &stitch::Tool, advertised: fn() -> &'static str) -> Map<String, Value> {
    let mut texts = Map::new();
    texts.insert("advertised".into(), json!(advertised()));
    texts.insert(
        "exact".into(),
        json!(stitch::Rendering::Exact.render(tool.input)),
    );
    for &dialect in stitch::Dialect::ALL {
        texts.insert(dialect.to_string(), json!(tool.input_schema_for(dialect)));
    }
    texts
}

/// Writes a test file's schemas in every dialect, with what the guard reports of each and
/// their texts, where `STITCH_DIALECT_EXPORT` names a directory: for the providers' own
/// converters (`tests/e2e/dialects.py`) and the schema snapshot. `{name: {"schemas":
/// {dialect: schema}, "findings": {dialect: [text]}, "texts": {rendering: text}}}`. `part`
/// tells a file's exports apart (`""` for its contracts): each is a file of its own, and a
/// second export of one name in a test binary fails, since only the last would be kept.
pub fn export_dialects(file: &str, part: &str, export: Map<String, Value>) {
    static EXPORTED: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let name = format!("{file}{part}");
    let mut exported = EXPORTED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    assert!(
        !exported.contains(&name),
        "{name} is exported twice: give each export of a file its part"
    );
    exported.push(name);
    drop(exported);
    if let Some(directory) = std::env::var_os("STITCH_DIALECT_EXPORT") {
        let directory = std::path::PathBuf::from(directory);
        std::fs::create_dir_all(&directory).expect("the export directory can be made");
        let stem = std::path::Path::new(file)
            .with_extension("")
            .to_string_lossy()
            .replace(['/', '\\'], "_");
        let text = serde_json::to_string_pretty(&Value::Object(export)).expect("JSON prints");
        std::fs::write(directory.join(format!("{stem}{part}.json")), text)
            .expect("the export is written");
    }
}
