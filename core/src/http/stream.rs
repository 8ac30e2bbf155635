//! Answering one POST with an SSE stream when a tool call reports progress.
//!
//! Shared by both edges: the handler runs as its own task and feeds a
//! channel; the first message decides the answer. A finished response
//! first means nothing was streamed (no progress, or a header/session error),
//! so it goes out as the ordinary JSON reply with its own status. A
//! notification first means every check has passed, so the edge answers 200
//! `text/event-stream` and streams each notification, then the response.

use crate::http::{sse_frame, HttpResponse};
use crate::mcp::progress::Notifier;
use futures_channel::mpsc::{unbounded, UnboundedReceiver, UnboundedSender};
use futures_util::StreamExt;
use serde_json::Value;

/// One message from the handling task.
pub enum Message {
    /// A notification raised during the call.
    Event(Value),
    /// The finished reply.
    Done(HttpResponse),
}

/// The notifier handed to the core: every notification becomes a channel message.
pub struct ChannelNotifier(pub UnboundedSender<Message>);

impl Notifier for ChannelNotifier {
    fn notify(&self, notification: Value) {
        // A closed channel means the client went away; the call still finishes.
        let _ = self.0.unbounded_send(Message::Event(notification));
    }
}

/// A new channel.
pub fn channel() -> (UnboundedSender<Message>, UnboundedReceiver<Message>) {
    unbounded()
}

/// What the edge should send.
pub enum Answer {
    /// An ordinary reply.
    Whole(HttpResponse),
    /// 200 `text/event-stream`: this first frame, then [`frames`] of the rest.
    Stream(Vec<u8>, UnboundedReceiver<Message>),
}

/// Waits for the first message and decides between a whole reply and a stream.
pub async fn first(mut rx: UnboundedReceiver<Message>) -> Answer {
    match rx.next().await {
        Some(Message::Event(v)) => Answer::Stream(sse_frame(&v), rx),
        Some(Message::Done(r)) => Answer::Whole(r),
        None => Answer::Whole(HttpResponse {
            status: 500,
            headers: Vec::new(),
            body: b"the request handler stopped without answering".to_vec(),
        }),
    }
}

/// The remaining SSE frames: notifications, then the final JSON-RPC response.
pub fn frames(rx: UnboundedReceiver<Message>) -> impl futures_util::Stream<Item = Vec<u8>> {
    rx.map(|m| match m {
        Message::Event(v) => sse_frame(&v),
        Message::Done(r) => sse_frame(&r.json_body()),
    })
}
