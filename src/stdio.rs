//! The stdio transport: newline-delimited JSON-RPC on stdin and stdout.
//!
//! stdout carries protocol messages only; every diagnostic goes to stderr.
//! Each line is handled on its own task, so a slow tool call never holds up a
//! `ping`; one writer task serializes the replies.

use entrez_mcp_core::caller::RequestContext;
use entrez_mcp_core::error::{Error, ErrorKind};
use entrez_mcp_core::http::MAX_BODY_BYTES;
use entrez_mcp_core::mcp::progress::Notifier;
use entrez_mcp_core::protocol::jsonrpc;
use entrez_mcp_core::protocol::Server;
use std::sync::Arc;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

/// The longest line read as one message: the same bound as an HTTP request body.
pub const MAX_LINE_BYTES: usize = MAX_BODY_BYTES;

/// One line of input, read within a bound.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A complete line, without its newline.
    Text(Vec<u8>),
    /// A line longer than the bound; this many bytes were read and dropped.
    TooLong(usize),
    /// The input is closed.
    End,
}

/// Reads one line of at most `max` bytes; a longer one is consumed up to its newline and dropped,
/// so memory stays bounded whatever a peer sends.
pub async fn read_line<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    max: usize,
) -> std::io::Result<Line> {
    let mut line = Vec::new();
    let mut seen = 0usize;
    loop {
        let chunk = reader.fill_buf().await?;
        if chunk.is_empty() {
            return Ok(match (seen, line.is_empty()) {
                (0, _) => Line::End,
                (n, _) if n > max => Line::TooLong(n),
                _ => Line::Text(line),
            });
        }
        let (take, done) = match chunk.iter().position(|b| *b == b'\n') {
            Some(i) => (i, true),
            None => (chunk.len(), false),
        };
        seen = seen.saturating_add(take);
        if seen <= max {
            line.extend_from_slice(&chunk[..take]);
        } else if !line.is_empty() {
            line = Vec::new();
        }
        reader.consume(take + usize::from(done));
        if done {
            return Ok(if seen > max {
                Line::TooLong(seen)
            } else {
                Line::Text(line)
            });
        }
    }
}

/// Writes notifications raised during a call as their own lines.
struct LineNotifier(mpsc::UnboundedSender<Vec<u8>>);

impl Notifier for LineNotifier {
    fn notify(&self, notification: serde_json::Value) {
        let _ = self
            .0
            .send(serde_json::to_vec(&notification).unwrap_or_default());
    }
}

/// Serves JSON-RPC over stdin/stdout until stdin closes, driving the `steps` of stagings
/// the server continues by itself meanwhile.
pub async fn serve(server: Server, steps: Option<crate::background::Steps>) -> std::io::Result<()> {
    let server = Arc::new(server);
    if let Some(steps) = steps {
        steps.drive(&server, |s| s);
    }
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
    let mut input = BufReader::new(tokio::io::stdin());
    let mut tasks = tokio::task::JoinSet::new();
    loop {
        let line = match read_line(&mut input, MAX_LINE_BYTES).await? {
            Line::End => break,
            Line::TooLong(n) => {
                let error = Error::new(
                    ErrorKind::InvalidRequest,
                    format!("A message of {n} bytes exceeds the {MAX_LINE_BYTES}-byte limit of one line; it was dropped."),
                );
                let _ = tx.send(
                    serde_json::to_vec(&jsonrpc::failure(serde_json::Value::Null, &error))
                        .unwrap_or_default(),
                );
                continue;
            }
            Line::Text(line) => line,
        };
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let server = Arc::clone(&server);
        let tx = tx.clone();
        tasks.spawn(async move {
            let context = RequestContext::default();
            let notifier = LineNotifier(tx.clone());
            if let Some(reply) = server
                .handle_bytes_notifying(&line, &context, &notifier)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn lines_are_bounded_and_an_oversized_one_is_skipped_whole() {
        let long = "x".repeat(100);
        let input = format!("{{\"a\":1}}\n{long}\n\n{{\"b\":2}}");
        let mut reader = BufReader::with_capacity(7, input.as_bytes());
        assert_eq!(
            read_line(&mut reader, 50).await.unwrap(),
            Line::Text(b"{\"a\":1}".to_vec())
        );
        assert_eq!(
            read_line(&mut reader, 50).await.unwrap(),
            Line::TooLong(100)
        );
        assert_eq!(
            read_line(&mut reader, 50).await.unwrap(),
            Line::Text(Vec::new())
        );
        assert_eq!(
            read_line(&mut reader, 50).await.unwrap(),
            Line::Text(b"{\"b\":2}".to_vec())
        );
        assert_eq!(read_line(&mut reader, 50).await.unwrap(), Line::End);
    }
}
