//! Progress notifications for long tool calls.
//!
//! A client that wants progress puts `_meta.progressToken` in its request.
//! The transport that in_background the request supplies a [`Notifier`] (stdio
//! writes a line; Streamable HTTP answers with an SSE stream), and the tool
//! reports through [`Progress`], which frames `notifications/progress` with
//! the client's token.

use crate::json;
use crate::platform::MaybeSendSync;
use serde_json::{Map, Value};

/// Delivers server-to-client notifications for one request.
pub trait Notifier: MaybeSendSync {
    /// Sends one JSON-RPC notification to the client.
    fn notify(&self, notification: Value);
}

/// The progress channel of one tool call.
#[derive(Clone, Copy)]
pub struct Progress<'a> {
    token: &'a Value,
    notifier: &'a dyn Notifier,
}

impl<'a> Progress<'a> {
    /// A reporter for `token` over `notifier`.
    pub fn new(token: &'a Value, notifier: &'a dyn Notifier) -> Self {
        Progress { token, notifier }
    }

    /// Reports `progress` (which must increase with each call) of an optional `total`.
    pub fn report(&self, progress: f64, total: Option<f64>, message: &str) {
        let mut params = json!({ "progressToken": self.token, "progress": progress });
        if let Some(t) = total {
            json::set(&mut params, "total", json!(t));
        }
        if !message.is_empty() {
            json::set(&mut params, "message", json!(message));
        }
        self.notifier.notify(json!({
            "jsonrpc": "2.0",
            "method": "notifications/progress",
            "params": params,
        }));
    }
}

/// The request's progress token, if it carries a valid one (a string or an integer).
pub fn token(params: &Map<String, Value>) -> Option<&Value> {
    params
        .get("_meta")
        .and_then(|m| m.get("progressToken"))
        .filter(|t| t.is_string() || t.is_i64() || t.is_u64())
}

/// A notifier that keeps what it is sent, for the protocol's unit tests.
#[cfg(test)]
#[derive(Default)]
pub(crate) struct Collect(pub(crate) std::sync::Mutex<Vec<Value>>);

#[cfg(test)]
impl Notifier for Collect {
    fn notify(&self, n: Value) {
        self.0.lock().unwrap().push(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_carry_the_token_and_optional_fields() {
        let sink = Collect::default();
        let token = json!("tok-1");
        let p = Progress::new(&token, &sink);
        p.report(1.0, Some(4.0), "batch 1 of 4");
        p.report(2.0, None, "");
        let sent = sink.0.lock().unwrap();
        assert_eq!(
            sent[0],
            json!({"jsonrpc": "2.0", "method": "notifications/progress",
                "params": {"progressToken": "tok-1", "progress": 1.0, "total": 4.0, "message": "batch 1 of 4"}})
        );
        assert_eq!(
            sent[1]["params"],
            json!({"progressToken": "tok-1", "progress": 2.0})
        );
    }

    #[test]
    fn only_string_or_integer_tokens_count() {
        let params = |m: Value| m.as_object().unwrap().clone();
        assert_eq!(
            token(&params(json!({"_meta": {"progressToken": 7}}))),
            Some(&json!(7))
        );
        assert_eq!(
            token(&params(json!({"_meta": {"progressToken": "a"}}))),
            Some(&json!("a"))
        );
        assert_eq!(
            token(&params(json!({"_meta": {"progressToken": 1.5}}))),
            None
        );
        assert_eq!(token(&params(json!({}))), None);
    }
}
