//! A request passed on to the other side as it came: its `_meta` put back (rmcp takes it
//! into the request's context on arrival) less what belongs to one connection only (the
//! progress token, which each side's SDK sets anew, and the protocol's own keys); the caller's
//! progress reported under the caller's token; a request the caller cancels cancelled on the
//! other side too; and every failure an error the caller can read, never a hang.

use std::time::Duration;

use rmcp::model::{
    CancelledNotificationParam, ClientRequest, ErrorCode, ErrorData, GetMeta, RequestMetaObject,
    ResultType, ServerResult,
};
use rmcp::service::{Peer, PeerRequestOptions, RequestContext, ServiceError};
use rmcp::{RoleClient, RoleServer};

use crate::relay::LinkState;

/// The `_meta` keys that belong to one connection: the protocol's own (`io.modelcontextprotocol/…`,
/// which a 2026-07-28 client sends with every request) and the progress token.
fn is_connection_key(key: &str) -> bool {
    key == "progressToken" || key.starts_with("io.modelcontextprotocol/")
}

/// A request's `_meta`, less the keys that belong to the connection it came on.
pub fn without_protocol_meta(mut meta: RequestMetaObject) -> RequestMetaObject {
    meta.0.0.retain(|key, _| !is_connection_key(key));
    meta
}

/// An answer of an upstream that speaks a protocol before 2026-07-28, said as 2026-07-28
/// says it: a result without `resultType` is complete (rmcp takes the field off again for a
/// client of an older protocol).
pub fn said_complete(result: &mut ServerResult) {
    let result_type = match result {
        ServerResult::CompleteResult(r) => &mut r.result_type,
        ServerResult::GetPromptResult(r) => &mut r.result_type,
        ServerResult::ListPromptsResult(r) => &mut r.result_type,
        ServerResult::ListResourcesResult(r) => &mut r.result_type,
        ServerResult::ListResourceTemplatesResult(r) => &mut r.result_type,
        ServerResult::ReadResourceResult(r) => &mut r.result_type,
        ServerResult::ListToolsResult(r) => &mut r.result_type,
        ServerResult::CallToolResult(r) => &mut r.result_type,
        _ => return,
    };
    result_type.get_or_insert(ResultType::COMPLETE);
}

/// An error of the other side, as the caller reads it: the other side's own error as it
/// came, anything else said with `whom` it was asked of.
pub fn answer_error(error: ServiceError, whom: &str) -> ErrorData {
    match error {
        ServiceError::McpError(error) => error,
        ServiceError::TransportClosed => ErrorData::new(
            ErrorCode::INTERNAL_ERROR,
            format!("{whom} is gone: its connection closed"),
            None,
        ),
        other => ErrorData::new(
            ErrorCode::INTERNAL_ERROR,
            format!("{whom} did not answer as MCP says: {other}"),
            None,
        ),
    }
}

/// How long an answer waits for the progress sent before it to reach the caller first.
const PROGRESS_PASSED_WITHIN: Duration = Duration::from_secs(2);

/// Passes `request` (a downstream client's, with its `context`) to the upstream session
/// `upstream`, and returns its answer; ended with an error at `deadline`, or when the
/// downstream client cancels, either way cancelled upstream too.
pub async fn to_upstream(
    upstream: &Peer<RoleClient>,
    state: &LinkState,
    mut request: ClientRequest,
    context: &RequestContext<RoleServer>,
    deadline: Duration,
) -> Result<ServerResult, ErrorData> {
    let caller_token = context.meta.get_progress_token();
    *request.get_meta_mut() = without_protocol_meta(context.meta.clone());
    let handle = upstream
        .send_request_with_option(request, PeerRequestOptions::no_options())
        .await
        .map_err(|error| answer_error(error, "the upstream server"))?;
    let (id, token) = (handle.id.clone(), handle.progress_token.clone());
    let reports_progress = caller_token.is_some();
    if let Some(caller_token) = caller_token {
        state.map_progress(token.clone(), caller_token);
    }
    let ended = tokio::select! {
        answer = tokio::time::timeout(deadline, handle.await_response()) => match answer {
            Ok(answer) => Ok(answer.map_err(|error| answer_error(error, "the upstream server"))),
            Err(_) => Err(format!("the upstream server did not answer within {} s", deadline.as_secs())),
        },
        () = context.ct.cancelled() => Err("the client cancelled the request".to_owned()),
    };
    if reports_progress {
        state.progress_passed(&token, PROGRESS_PASSED_WITHIN).await;
    }
    state.forget_progress(&token);
    match ended {
        Ok(answer) => answer.map(|mut result| {
            said_complete(&mut result);
            result
        }),
        Err(reason) => {
            let cancel = CancelledNotificationParam::new(Some(id), Some(reason.clone()));
            let _ = upstream.notify_cancelled(cancel).await;
            Err(ErrorData::new(ErrorCode::INTERNAL_ERROR, reason, None))
        }
    }
}
