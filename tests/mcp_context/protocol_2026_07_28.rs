//! rmcp's own client, negotiating protocol 2026-07-28 (`server/discover`, no `initialize`):
//! every request carries its client's name in `_meta`, and is listed and parsed in that
//! client's dialect.

use super::*;
use rmcp::RoleClient;
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation, ProtocolVersion,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RunningService};

async fn connect(name: &str) -> RunningService<RoleClient, ClientConfig> {
    let (client_end, server_end) = tokio::io::duplex(1 << 20);
    let server = toolbox(Arc::default());
    tokio::spawn(async move {
        if let Ok(service) = server.serve(server_end).await {
            let _ = service.waiting().await;
        }
    });
    let client = ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new(name, "1.0"),
    );
    let modern = ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    };
    client
        .serve_with_lifecycle(client_end, modern)
        .await
        .expect("the server discovers as 2026-07-28")
}

#[tokio::test]
async fn each_modern_client_is_listed_and_parsed_in_its_dialect() {
    let strict = connect("strict-agent").await;
    let plain = connect("inspector").await;
    assert_eq!(
        strict
            .peer()
            .peer_info()
            .map(|info| info.protocol_version.clone()),
        Some(ProtocolVersion::V_2026_07_28)
    );
    let schema_of = |tools: Vec<rmcp::model::Tool>| {
        let tool = tools.into_iter().find(|tool| tool.name == "show").unwrap();
        Value::Object((*tool.input_schema).clone())
    };
    assert_eq!(
        schema_of(strict.list_all_tools().await.unwrap()),
        serde_json::from_str::<Value>(Show::input_schema_for(Dialect::OpenAiStrict)).unwrap()
    );
    assert_eq!(
        schema_of(plain.list_all_tools().await.unwrap()),
        serde_json::from_str::<Value>(Show::INPUT_SCHEMA).unwrap()
    );
    let filled = json!({"kind": "caption", "text": "hi", "volume": null});
    let Value::Object(filled) = filled else {
        unreachable!()
    };
    let call = || CallToolRequestParams::new("show").with_arguments(filled.clone());
    let accepted = strict.call_tool(call()).await.unwrap();
    assert_eq!(accepted.is_error, Some(false));
    let rejected = plain.call_tool(call()).await.unwrap();
    assert_eq!(rejected.is_error, Some(true));
}
