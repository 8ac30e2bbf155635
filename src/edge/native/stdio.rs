//! The stdio transport: newline-delimited JSON-RPC on stdin and stdout.
//!
//! stdout carries protocol messages only; every diagnostic goes to stderr.
//! Each line is handled on its own task, so a slow tool call never holds up a
//! `ping`; one writer task serializes the replies.

use crate::protocol::progress::Notifier;
use crate::protocol::Server;
use crate::tools::RequestContext;
use std::sync::Arc;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

/// Writes notifications raised during a call as their own lines.
struct LineNotifier(mpsc::UnboundedSender<Vec<u8>>);

impl Notifier for LineNotifier {
    fn notify(&self, notification: serde_json::Value) {
        let _ = self
            .0
            .send(serde_json::to_vec(&notification).unwrap_or_default());
    }
}

/// Serves JSON-RPC over stdin/stdout until stdin closes.
pub async fn serve(server: Server) -> std::io::Result<()> {
    let server = Arc::new(server);
    let (tx, mut rx) = mpsc::unbounded_channel::<Vec<u8>>();
    let writer = tokio::spawn(async move {
        let mut out = tokio::io::stdout();
        while let Some(mut line) = rx.recv().await {
            line.push(b'\n');
            if out.write_all(&line).await.is_err() || out.flush().await.is_err() {
                break;
            }
        }
    });
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    let mut tasks = tokio::task::JoinSet::new();
    while let Some(line) = lines.next_line().await? {
        if line.trim().is_empty() {
            continue;
        }
        let server = Arc::clone(&server);
        let tx = tx.clone();
        tasks.spawn(async move {
            let context = RequestContext::default();
            let notifier = LineNotifier(tx.clone());
            if let Some(reply) = server
                .handle_bytes_notifying(line.as_bytes(), &context, &notifier)
                .await
            {
                let _ = tx.send(serde_json::to_vec(&reply).unwrap_or_default());
            }
        });
    }
    while tasks.join_next().await.is_some() {}
    drop(tx);
    let _ = writer.await;
    Ok(())
}
