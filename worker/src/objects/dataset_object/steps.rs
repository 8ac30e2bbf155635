//! The steps of a staging the server continues by itself: the object's alarm runs each
//! (`staging::scheduler`), with a watchdog armed first; and the run of a call made a task
//! that runs in the background, in an object holding only that task (`tasks::calls`).

use super::super::do_sql::exec;
use super::{EntrezDataset, Meta};
use entrez_mcp_core::staging::scheduler::{in_background, RETAKE_MS};
use entrez_mcp_core::staging::store::Status;
use worker::Response;

impl EntrezDataset {
    /// Whether the alarm is the next step of a staging the server continues: one stored
    /// `partial` with its cursor, or one still `loading` whose step stopped (the isolate or
    /// the runtime went away mid-step) and has written nothing for [`RETAKE_MS`], which is
    /// put back to `partial` from the cursor its last step stored.
    pub(super) fn step_due(&self, m: &Meta, now: u64) -> bool {
        let in_background = m.reason.as_deref().is_some_and(in_background);
        match m.info.status {
            Status::Partial(_) => in_background,
            Status::Loading
                if in_background && now.saturating_sub(m.info.updated_ms) > RETAKE_MS =>
            {
                exec(
                    &self.sql(),
                    "UPDATE entrez_meta SET status = 'partial'",
                    Vec::new(),
                )
                .is_ok()
            }
            _ => false,
        }
    }

    /// Runs one step, with a watchdog alarm armed first: should this invocation end mid-step,
    /// the alarm comes back and takes the staging up from its last stored cursor.
    pub(super) async fn step(&self, id: &str) -> worker::Result<Response> {
        // A step that leaves records asks for the next one itself (CarryOn arms the alarm
        // anew); an ended one leaves the watchdog, which then finds nothing to do and arms
        // the expiry check.
        self.run_step(id, RETAKE_MS + 1_000).await
    }

    /// Runs the call kept here to run in the background, if the core finds one, with the
    /// expiry alarm armed first (`until_expiry_ms` from now): should this invocation end
    /// mid-run, a later look at the task starts it again.
    pub(super) async fn run_in_background(
        &self,
        id: &str,
        until_expiry_ms: u64,
    ) -> worker::Result<Response> {
        self.run_step(id, until_expiry_ms.max(1)).await
    }

    /// `Server::run_step` for `id`, the next alarm armed `alarm_ms` from now first.
    async fn run_step(&self, id: &str, alarm_ms: u64) -> worker::Result<Response> {
        self.state.storage().set_alarm(alarm_ms as i64).await?;
        let endpoint = match crate::fetch::endpoint(&self.env) {
            Ok(e) => e,
            Err(message) => return Response::error(message, 500),
        };
        match Box::pin(endpoint.server.run_step(id)).await {
            Ok(step) => Response::ok(format!("{step:?}")),
            Err(e) => {
                worker::console_warn!("{id} stopped: {}", e.message);
                Response::ok("stopped")
            }
        }
    }
}
