//! Tool calls through the dispatcher, each result checked against the tool's outputSchema
//! (and its first content block text) before a test sees it.

use crate::run::{Parked, Runner};
use entrez_mcp_core::caller::RequestContext;
use entrez_mcp_core::protocol::Server;
use serde_json::{json, Value};

/// Calls tool `name` as `ctx` with `run`, and returns the whole result once it has passed
/// the schema check; panics on a JSON-RPC error or a result the outputSchema refuses.
pub fn call_tool_on(
    run: &impl Runner,
    server: &Server,
    name: &str,
    arguments: Value,
    ctx: &RequestContext,
) -> Value {
    let msg = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": name, "arguments": arguments}});
    checked(server, name, rpc_bytes(run, server, msg, ctx))
}

/// The result of a `tools/call` reply to tool `name`, once it has passed the check of the
/// tool's outputSchema and has its text block first; panics otherwise.
pub fn checked(server: &Server, name: &str, reply: Value) -> Value {
    let result = reply
        .get("result")
        .cloned()
        .unwrap_or_else(|| panic!("no result: {reply}"));
    let violations = server.registry.output_violations(name, &result);
    assert!(
        violations.is_empty(),
        "{name} broke its outputSchema: {violations:?}\n{result}"
    );
    assert_eq!(
        result["content"][0]["type"], "text",
        "text block first: {result}"
    );
    result
}

/// [`call_tool_on`] on this thread, for the anonymous caller.
pub fn call_tool(server: &Server, name: &str, arguments: Value) -> Value {
    call_tool_with(server, name, arguments, &RequestContext::default())
}

/// [`call_tool_on`] on this thread, for the caller `ctx`.
pub fn call_tool_with(
    server: &Server,
    name: &str,
    arguments: Value,
    ctx: &RequestContext,
) -> Value {
    call_tool_on(&Parked, server, name, arguments, ctx)
}

/// Sends any JSON-RPC message straight to the dispatcher, as the anonymous caller.
pub fn rpc_on(run: &impl Runner, server: &Server, msg: Value) -> Value {
    rpc_bytes(run, server, msg, &RequestContext::default())
}

fn rpc_bytes(run: &impl Runner, server: &Server, msg: Value, ctx: &RequestContext) -> Value {
    run.block_on(server.handle_bytes(msg.to_string().as_bytes(), ctx))
        .expect("a reply")
}

#[cfg(test)]
mod tests {
    use super::*;
    use entrez_mcp_core::config::Config;

    fn server() -> Server {
        crate::platform::server_with(Config::defaults()).0
    }

    #[test]
    fn a_result_its_output_schema_refuses_fails_the_test() {
        let reply = call_tool(&server(), "entrez_capabilities", json!({}));
        // The real result passes; the same result with its structuredContent broken must not.
        let mut broken = reply.clone();
        broken["structuredContent"] = json!({"unexpected": true});
        let outcome = std::panic::catch_unwind(|| {
            checked(&server(), "entrez_capabilities", json!({"result": broken}))
        });
        let message = outcome.expect_err("a broken result passed the check");
        let text = message
            .downcast_ref::<String>()
            .cloned()
            .unwrap_or_default();
        assert!(text.contains("broke its outputSchema"), "{text}");
    }

    #[test]
    fn a_result_without_its_text_block_first_fails_the_test() {
        let mut reply = call_tool(&server(), "entrez_capabilities", json!({}));
        reply["content"][0]["type"] = json!("image");
        let outcome = std::panic::catch_unwind(|| {
            checked(&server(), "entrez_capabilities", json!({"result": reply}))
        });
        let message = outcome.expect_err("a result with no text block first passed");
        let text = message
            .downcast_ref::<String>()
            .cloned()
            .unwrap_or_default();
        assert!(text.contains("text block first"), "{text}");
    }
}
