//! Staging the server continues by itself, natively: each step a task on the runtime.
//!
//! The core asks the [`QueueCarrier`] for a step when a call's CPU budget ran
//! out with records left (`entrez_mcp_core::staging::scheduler`); the ids queue
//! up in a channel, and [`Steps::drive`] runs each as a task, a few at once
//! across the process, while the server lives. A step that ends with records
//! left asks for the next one itself. At start-up the store's recovery has put
//! stagings a stopped process was continuing back to `partial`, and their ids
//! are queued before the first request is served.

use entrez_mcp_core::error::{Error, ErrorKind, Result};
use entrez_mcp_core::platform::BoxFuture;
use entrez_mcp_core::protocol::Server;
use entrez_mcp_core::staging::Scheduler;
use std::sync::Arc;
use tokio::sync::{mpsc, Semaphore};

/// Steps that run at once across every staging the process continues and every call it runs
/// apart from its request (`tasks::calls`); the rest queue. Each waits mostly on its upstream's
/// pacing, which every step shares anyway, and the ledger bounds how many may be running.
pub const STEPS_AT_ONCE: usize = 4;

/// Times a step that failed before it could record anything is asked for again.
pub const STEP_RETRIES: u8 = 3;

/// How long after such a failure it is asked for again.
pub const STEP_RETRY_AFTER: std::time::Duration = std::time::Duration::from_secs(30);

/// A queued step: the dataset, and how many times it was tried before.
type Asked = (String, u8);

/// The core's scheduler: queues a dataset's next step.
pub struct QueueCarrier {
    tx: mpsc::UnboundedSender<Asked>,
}

/// The other end of the queue, for [`Steps::drive`].
pub struct Steps {
    rx: mpsc::UnboundedReceiver<Asked>,
    // Weak, so the queue still closes when the server (the scheduler's owner) goes.
    again: mpsc::WeakUnboundedSender<Asked>,
}

/// A scheduler and the steps it queues.
pub fn queue() -> (QueueCarrier, Steps) {
    let (tx, rx) = mpsc::unbounded_channel();
    let again = tx.downgrade();
    (QueueCarrier { tx }, Steps { rx, again })
}

impl QueueCarrier {
    /// Queues a step of dataset `id` (or the run of a call kept under it); false once nothing
    /// drives the queue any more.
    pub fn ask(&self, id: String) -> bool {
        self.tx.send((id, 0)).is_ok()
    }
}

impl Scheduler for QueueCarrier {
    fn schedule<'a>(&'a self, id: &'a str, after_ms: u64) -> BoxFuture<'a, Result<()>> {
        Box::pin(async move {
            if self.tx.is_closed() {
                return Err(Error::new(
                    ErrorKind::Unavailable,
                    "the server is shutting down",
                ));
            }
            if after_ms == 0 {
                self.ask(id.to_string());
                return Ok(());
            }
            // Put off (a passing fault): queued once the wait is over, if the server is
            // still there; a restart meanwhile queues it at start instead.
            let later = self.tx.downgrade();
            let id = id.to_string();
            tokio::spawn(async move {
                tokio::time::sleep(std::time::Duration::from_millis(after_ms)).await;
                if let Some(tx) = later.upgrade() {
                    let _ = tx.send((id, 0));
                }
            });
            Ok(())
        })
    }
}

impl Steps {
    /// Runs every step asked for, on the current runtime, while `holder` (which owns the
    /// server, and through it the queue's sending end) lives.
    pub fn drive<T: Send + Sync + 'static>(self, holder: &Arc<T>, server: fn(&T) -> &Server) {
        let weak = Arc::downgrade(holder);
        let (mut rx, again) = (self.rx, self.again);
        tokio::spawn(async move {
            let slots = Arc::new(Semaphore::new(STEPS_AT_ONCE));
            while let Some((id, tried)) = rx.recv().await {
                let Ok(slot) = Arc::clone(&slots).acquire_owned().await else {
                    break;
                };
                let Some(holder) = weak.upgrade() else {
                    break;
                };
                let again = again.clone();
                tokio::spawn(async move {
                    let outcome = server(&holder).run_step(&id).await;
                    drop(slot);
                    drop(holder);
                    let Err(e) = outcome else { return };
                    eprintln!("entrez-mcp: a step of {id} failed: {}", e.message);
                    // A step that failed before it took the dataset up (the store busy, say)
                    // left it waiting; one that failed after recorded how it ended, and its
                    // next try finds nothing to do.
                    if tried < STEP_RETRIES {
                        tokio::time::sleep(STEP_RETRY_AFTER).await;
                        if let Some(tx) = again.upgrade() {
                            let _ = tx.send((id, tried + 1));
                        }
                    }
                });
            }
        });
    }
}
