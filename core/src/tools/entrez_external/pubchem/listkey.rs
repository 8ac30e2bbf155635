//! PubChem's "still working" answers, followed: one polling loop for every PubChem call.
//!
//! An asynchronous request comes back as `Waiting` with a ListKey. The loop waits (1 s, then
//! half as long again each time, at most 4 s), asks for the ListKey's result, and gives up
//! after a minute with `pubchem_search_pending`, naming the key. A call made an MCP task
//! gives up after [`TASK_HANDOFF_MS`] and is held as a task ([`crate::tasks`]); run again
//! for a look, it polls the ListKey once (the client's `submit` stands PubChem's `Waiting` in
//! for the first request). Every poll is paced and retried like any other request.

use crate::error::{Error, ErrorKind, Result};
use crate::framework::ToolContext;
use crate::json;
use crate::net::{HttpCall, HttpReply};
use crate::tools::entrez_external::pubchem::pug;
use crate::tools::entrez_external::shared::client::ExternalClient;

/// Longest this server waits for an asynchronous PubChem answer.
pub const POLL_DEADLINE_MS: u64 = 60_000;
/// First wait before collecting a ListKey; later waits grow by half up to [`POLL_MAX_INTERVAL_MS`].
pub const POLL_FIRST_INTERVAL_MS: u64 = 1_000;
/// Longest wait between two ListKey polls.
pub const POLL_MAX_INTERVAL_MS: u64 = 4_000;
/// How long a call made a task waits for an asynchronous PubChem answer before it answers with
/// its task: a quick search still ends in the call.
pub const TASK_HANDOFF_MS: u64 = 5_000;

/// The final reply, the ListKey that was polled (if any), and how many polls it took.
pub type Collected = (HttpReply, Option<String>, u32);

/// Follows `reply` while PubChem says it is still working: `poll` makes the request that
/// collects a ListKey, `later` the suggestion that tells the caller how to collect it after
/// the deadline. The final reply is returned whatever its status.
pub async fn collect(
    ctx: &ToolContext<'_>,
    client: &ExternalClient<'_>,
    mut reply: HttpReply,
    poll: impl Fn(&str) -> HttpCall,
    later: impl Fn(&str) -> String,
) -> Result<Collected> {
    let mut listkey = None;
    // A pending task's look polls once; a call made a task hands off early; any other waits.
    let once = ctx.resume.as_ref();
    let mut polls = once.map_or(0, |r| r.polls);
    let started = once.map_or(ctx.platform.now_unix_ms(), |r| r.since_ms);
    let deadline = if ctx.task {
        TASK_HANDOFF_MS
    } else {
        POLL_DEADLINE_MS
    };
    let mut interval = if once.is_some() {
        0
    } else {
        POLL_FIRST_INTERVAL_MS
    };
    while let Some(key) = pug::waiting_in(&reply.body) {
        let elapsed = ctx.platform.now_unix_ms().saturating_sub(started);
        let spent = match once {
            Some(r) => polls > r.polls,
            None => elapsed + interval > deadline,
        };
        if spent {
            return Err(Error::new(
                ErrorKind::Upstream,
                format!(
                    "PubChem was still working on the request (ListKey {key}) after {} s.",
                    elapsed.max(deadline) / 1000
                ),
            )
            .with_code("pubchem_search_pending")
            .suggest(later(&key))
            .with_details(json!({ "listkey": key, "polls": polls })));
        }
        if interval > 0 {
            client.sender.transport.sleep(interval).await;
            interval = (interval + interval / 2).min(POLL_MAX_INTERVAL_MS);
        }
        polls += 1;
        reply = client.send(&poll(&key)).await?;
        listkey = Some(key);
    }
    Ok((reply, listkey, polls))
}
