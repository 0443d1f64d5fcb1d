//! The method form, as an rmcp server writes its tools: a method taking the contract and
//! rmcp's extractors after it, its router added to the server's own.

use super::*;
use stitch::mcp::Tools;
use stitch::mcp::rmcp::handler::server::router::tool::ToolRouter;
use stitch::mcp::rmcp::{Peer, ServerHandler, tool_handler};

#[derive(Clone)]
struct Server {
    tool_router: ToolRouter<Self>,
    greeting: String,
}

impl Server {
    async fn ask(
        &self,
        ask: Ask,
        peer: Peer<RoleServer>,
        context: RequestContext<RoleServer>,
    ) -> Result<String, String> {
        let log = LoggingMessageNotificationParam::new(LoggingLevel::Info, json!(ask.question));
        peer.notify_logging_message(log)
            .await
            .map_err(|e| e.to_string())?;
        Ok(format!("{} ({})", self.greeting, context.id))
    }

    async fn show(&self, show: Show) -> Result<CallToolResult, String> {
        super::show(show).await
    }

    fn new() -> Server {
        let stitch = Tools::new()
            .tool(Self::ask)
            .tool(Self::show)
            .build()
            .unwrap();
        Server {
            tool_router: ToolRouter::new() + stitch,
            greeting: "hello".to_owned(),
        }
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

#[tokio::test]
async fn a_method_takes_the_request_s_parts_and_answers_with_content() {
    let mut client = Session::open(Server::new(), "tester", client_answers).await;
    let asked = client.call("ask", json!({"question": "Why?"})).await;
    assert_eq!(asked.notifications[0]["params"]["data"], "Why?");
    assert_eq!(
        asked.answer["result"]["content"][0]["text"],
        format!("hello ({})", asked.answer["id"])
    );
    let shown = client.call("show", json!({"kind": "image"})).await;
    assert_eq!(shown.answer["result"]["content"][0]["type"], "image");
}
