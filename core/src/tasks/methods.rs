//! The task methods of both revisions, and `tools/call` answered with a task.
//!
//! In 2026-07-28 the server decides per call: a staging from a request that declares
//! `io.modelcontextprotocol/tasks` is handed to the scheduler and answered with its task, as
//! are a PubChem call still pending after the hand-off and a BioC call; every other call
//! answers as usual. In 2025-11-25 a call with `params.task` always gets a task. A task's
//! owner is its dataset's or its stored entry's, so a stranger's task id reads as unknown.

use crate::error::{Error, ErrorKind};
use crate::framework::ToolContext;
use crate::json;
use crate::mcp::meta::{Revision, CLIENT_CAPABILITIES};
use crate::tasks::calls;
use crate::tasks::staging;
use crate::tasks::task::{Task, EXTENSION, RELATED_TASK};
use serde_json::{Map, Value};

/// The tools that run as tasks (entrez_query's `citations` of more than 200 PMIDs runs in the
/// background; its other operations end at once).
pub const TASK_TOOLS: &[&str] = &["entrez_data", "entrez_external", "entrez_query"];

/// Methods of 2025-11-25's tasks.
pub const HANDSHAKE_METHODS: &[&str] = &["tasks/get", "tasks/result", "tasks/list", "tasks/cancel"];

/// Methods of the 2026-07-28 extension.
pub const EXTENSION_METHODS: &[&str] = &["tasks/get", "tasks/update", "tasks/cancel"];

/// How long `tasks/result` waits for a task to end before it says to ask again, ms: each look
/// is a read of the store (on Workers, a subrequest), so a request makes at most a dozen.
pub const RESULT_WAIT_MS: u64 = 60_000;

/// How often `tasks/result` looks while it waits, ms.
const RESULT_POLL_MS: u64 = 5_000;

/// How a `tools/call` asked for a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ask {
    /// It did not.
    No,
    /// 2025-11-25: `params.task`.
    Handshake,
    /// 2026-07-28: the request declares the extension.
    Extension,
}

impl Ask {
    /// What `params` of a request in `revision` ask for.
    pub fn of(revision: &Revision, params: &Map<String, Value>) -> Ask {
        match revision {
            Revision::Handshake if params.get("task").is_some_and(Value::is_object) => {
                Ask::Handshake
            }
            Revision::Stateless(_) if declares_extension(params) => Ask::Extension,
            _ => Ask::No,
        }
    }
}

/// Whether a 2026-07-28 request declares the tasks extension among its capabilities.
fn declares_extension(params: &Map<String, Value>) -> bool {
    params
        .get("_meta")
        .and_then(|m| m.get(CLIENT_CAPABILITIES))
        .and_then(|c| c.get("extensions"))
        .and_then(|e| e.get(EXTENSION))
        .is_some_and(Value::is_object)
}

/// 2025-11-25 for a task asked of a tool that does not run as one: -32601, as the
/// revision says for a tool whose `taskSupport` is `forbidden`.
pub fn refused_tool(name: &str) -> Error {
    Error::new(
        ErrorKind::MethodNotFound,
        format!("{name} does not run as a task (its execution.taskSupport is forbidden)."),
    )
    .suggest(format!(
        "Call {name} without params.task; only {} run as tasks.",
        TASK_TOOLS.join(" and ")
    ))
}

/// The answer to a `tools/call` of `tool` with `arguments` that asked for a task, given what
/// the call returned.
pub async fn answer_call(
    ctx: &ToolContext<'_>,
    ask: Ask,
    (tool, arguments): (&str, Value),
    result: Value,
) -> Result<Value, Error> {
    if calls::runs_in_background(&result) {
        return Box::pin(apart(ctx, ask, tool, arguments)).await;
    }
    let kept = match calls::pubchem_listkey(&result) {
        Some(listkey) => calls::wait_on_pubchem(ctx, tool, arguments, listkey)
            .await
            .map(Some),
        None => Box::pin(staging_or_kept(ctx, ask, &result)).await,
    };
    match kept {
        Ok(Some(t)) => Ok(created(ask, &t)),
        Ok(None) => Ok(result),
        // 2026-07-28 lets the server decide: past the ledger's ceilings, the call's own result.
        Err(e) if ask == Ask::Extension && e.code == QUOTA => Ok(result),
        Err(mut e) if e.code == QUOTA => {
            e.message
                .push_str(" This call ran (what it changed, if anything, stays changed).");
            Err(e)
        }
        Err(e) => Err(e),
    }
}

const QUOTA: &str = "quota_exceeded";

/// A call that runs in the background (`tools::held`): kept and handed to the scheduler.
/// Past the ledger's ceilings a 2026-07-28 call runs in its request after all (the server
/// decides), and 2025-11-25's caller, who asked for a task, hears that nothing ran.
async fn apart(
    ctx: &ToolContext<'_>,
    ask: Ask,
    tool: &str,
    arguments: Value,
) -> Result<Value, Error> {
    match calls::run_in_background(ctx, tool, arguments.clone()).await {
        Ok(t) => Ok(created(ask, &t)),
        Err(e) if ask == Ask::Extension && e.code == QUOTA => {
            let here = ToolContext {
                cache_log: Default::default(),
                task: false,
                resume: None,
                ..*ctx
            };
            ctx.registry.call(&here, tool, arguments).await
        }
        Err(mut e) if e.code == QUOTA => {
            e.message.push_str(" Nothing ran.");
            Err(e)
        }
        Err(e) => Err(e),
    }
}

/// The task a call's result stands for: its staging's, or its result kept at once (2025-11-25
/// makes every call asked to be one a task); None for an answer given as it is.
async fn staging_or_kept(
    ctx: &ToolContext<'_>,
    ask: Ask,
    result: &Value,
) -> Result<Option<Task>, Error> {
    let running = running_staging(result);
    match (ask, running) {
        (Ask::Extension, Some(id)) => staging::view(ctx, &id).await,
        (Ask::Handshake, Some(id)) => match staging::view(ctx, &id).await? {
            Some(t) => Ok(Some(t)),
            None => calls::save_result(ctx, result).await.map(Some),
        },
        (Ask::Handshake, None) => calls::save_result(ctx, result).await.map(Some),
        _ => Ok(None),
    }
}

/// The `CreateTaskResult` of each revision.
fn created(ask: Ask, t: &Task) -> Value {
    if ask == Ask::Handshake {
        return json!({ "task": t.handshake() });
    }
    let mut created = t.extension(false);
    created["resultType"] = json!("task");
    created
}

/// The dataset a result left staging by itself, if it did.
fn running_staging(result: &Value) -> Option<String> {
    let s = result.get("structuredContent")?;
    (s.get("operation")? == "fetch_and_stage" && s.get("status")? == "loading")
        .then(|| s.get("data_access_id")?.as_str().map(str::to_string))
        .flatten()
}

/// Serves a task method of `revision`.
pub async fn serve(
    ctx: &ToolContext<'_>,
    revision: &Revision,
    method: &str,
    params: &Map<String, Value>,
) -> Result<Value, Error> {
    let stateless = revision.stateless().is_some();
    if stateless && !declares_extension(params) {
        return Err(missing_extension(method));
    }
    if method == "tasks/list" {
        let tasks: Vec<Value> = staging::list(ctx)
            .await?
            .iter()
            .map(Task::handshake)
            .collect();
        return Ok(json!({ "tasks": tasks }));
    }
    let id = match params.get("taskId") {
        Some(Value::String(id)) => id.as_str(),
        _ => {
            return Err(Error::new(
                ErrorKind::InvalidParams,
                format!("{method} needs params.taskId as a string."),
            ))
        }
    };
    if method == "tasks/cancel" {
        // Cancelled without a view first: a view may look at a pending call, which a cancel
        // has no use for.
        let (task, stopped) = staging::cancel(ctx, id).await?.ok_or_else(|| unknown(id))?;
        return match (stateless, stopped) {
            (true, _) => Ok(json!({})),
            (false, true) => Ok(task.handshake()),
            (false, false) => Err(Error::new(
                ErrorKind::InvalidParams,
                format!(
                    "Task {id} has already ended ({}); there is nothing to cancel.",
                    task.status.as_str()
                ),
            )),
        };
    }
    let found = staging::view(ctx, id).await?.ok_or_else(|| unknown(id))?;
    match (method, stateless) {
        ("tasks/get", false) => Ok(found.handshake()),
        ("tasks/get", true) => Ok(found.extension(true)),
        // Nothing this server runs asks for input: answers are acknowledged and unused.
        ("tasks/update", _) => Ok(json!({})),
        ("tasks/result", _) => result_of(ctx, found).await,
        _ => Err(Error::new(
            ErrorKind::MethodNotFound,
            format!("Method not found: {method}"),
        )),
    }
}

/// 2025-11-25's `tasks/result`: the call's own result once the task ended, waiting for it.
async fn result_of(ctx: &ToolContext<'_>, mut task: Task) -> Result<Value, Error> {
    let started = ctx.platform.now_unix_ms();
    while !task.status.terminal() {
        if ctx.platform.now_unix_ms().saturating_sub(started) >= RESULT_WAIT_MS {
            return Err(Error::new(
                ErrorKind::InvalidRequest,
                format!(
                    "Task {} is still working after {} s ({}).",
                    task.id,
                    RESULT_WAIT_MS / 1000,
                    task.message.unwrap_or_default()
                ),
            )
            .with_code("task_still_working")
            .suggest("Call tasks/result again, or poll tasks/get until it has ended."));
        }
        // Tasks are offered only where there is a network to stage from, and so to wait on.
        let Some(network) = ctx.network else {
            return Err(Error::internal("this server has no network to wait on"));
        };
        network.transport.sleep(RESULT_POLL_MS).await;
        task = staging::view(ctx, &task.id)
            .await?
            .ok_or_else(|| unknown(&task.id))?;
    }
    let Some(mut result) = task.result else {
        return Err(Error::new(
            ErrorKind::InvalidRequest,
            format!("Task {} was cancelled; it has no result. A staging's dataset keeps the records staged before that.", task.id),
        )
        .with_code("task_cancelled"));
    };
    if !result.get("_meta").is_some_and(Value::is_object) {
        result["_meta"] = json!({});
    }
    result["_meta"][RELATED_TASK] = json!({ "taskId": task.id });
    Ok(result)
}

fn unknown(id: &str) -> Error {
    Error::new(ErrorKind::InvalidParams, format!("No task {id:?} exists for this caller."))
        .with_code("task_not_found")
        .suggest("A task belongs to the session, identity or key that started it, and is forgotten when its dataset or kept result expires.")
}

/// -32021: the task methods need the extension declared on the request itself.
fn missing_extension(method: &str) -> Error {
    Error::new(
        ErrorKind::MissingCapability,
        format!("{method} needs the {EXTENSION} extension declared in this request's client capabilities."),
    )
    .suggest(format!("Send _meta[\"{CLIENT_CAPABILITIES}\"].extensions[\"{EXTENSION}\"] = {{}}."))
    .with_details(json!({ "requiredCapabilities": { "extensions": { EXTENSION: {} } } }))
}
