//! A task as data, and its two wire forms: 2025-11-25's (`params.task`, `{"task": Task}`,
//! `ttl` and `pollInterval`, `tasks/get`, `result`, `list` and `cancel`) and the
//! `io.modelcontextprotocol/tasks` extension of 2026-07-28 (a flat `resultType: "task"`, the
//! outcome inline in `tasks/get`, `ttlMs` and `pollIntervalMs`, bare acknowledgements).

use crate::json;
use serde_json::Value;

/// The 2026-07-28 extension's name, in capabilities.
pub const EXTENSION: &str = "io.modelcontextprotocol/tasks";
/// `_meta` key tying a 2025-11-25 message to its task.
pub const RELATED_TASK: &str = "io.modelcontextprotocol/related-task";
/// How often a client is asked to poll: a staging step lands every second or so.
pub const POLL_INTERVAL_MS: u64 = 2_000;

/// Where a task stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Still running.
    Working,
    /// Ended with a result (which may be a tool error, `isError`).
    Completed,
    /// Ended in a way the call would have reported as a tool error (2025-11-25's `failed`).
    Failed,
    /// Stopped by its caller.
    Cancelled,
}

impl Status {
    /// The name both revisions use.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Working => "working",
            Status::Completed => "completed",
            Status::Failed => "failed",
            Status::Cancelled => "cancelled",
        }
    }

    /// Whether it will never change again.
    pub fn terminal(self) -> bool {
        self != Status::Working
    }
}

/// One task, as the server knows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Task {
    /// Its id: 128 random bits as 32 hex digits (a staging's task id is its dataset's).
    pub id: String,
    /// Where it stands.
    pub status: Status,
    /// A line for people: progress while working, the reason once ended.
    pub message: Option<String>,
    /// When it was created, Unix ms.
    pub created_ms: u64,
    /// When it last changed, Unix ms.
    pub updated_ms: u64,
    /// How long after creation it is kept, ms.
    pub ttl_ms: u64,
    /// The `CallToolResult` the call would have returned, once it ended (none if cancelled).
    pub result: Option<Value>,
}

impl Task {
    /// The 2025-11-25 `Task` object.
    pub fn handshake(&self) -> Value {
        let mut task = json!({
            "taskId": self.id,
            "status": self.handshake_status().as_str(),
            "createdAt": crate::platform::iso8601(self.created_ms),
            "lastUpdatedAt": crate::platform::iso8601(self.updated_ms),
            "ttl": self.ttl_ms,
            "pollInterval": POLL_INTERVAL_MS,
        });
        if let Some(m) = &self.message {
            task["statusMessage"] = json!(m);
        }
        task
    }

    /// 2025-11-25 calls a task whose result is a tool error `failed`.
    fn handshake_status(&self) -> Status {
        let tool_error = self
            .result
            .as_ref()
            .is_some_and(|r| r.get("isError") == Some(&json!(true)));
        match self.status {
            Status::Completed if tool_error => Status::Failed,
            s => s,
        }
    }

    /// The 2026-07-28 task, with its outcome inline once it ended (`tasks/get`); without,
    /// the `CreateTaskResult` fields.
    pub fn extension(&self, with_result: bool) -> Value {
        // A tool error is a completed task whose result says isError.
        let status = match self.status {
            Status::Failed => Status::Completed,
            s => s,
        };
        let mut task = json!({
            "taskId": self.id,
            "status": status.as_str(),
            "createdAt": crate::platform::iso8601(self.created_ms),
            "lastUpdatedAt": crate::platform::iso8601(self.updated_ms),
            "ttlMs": self.ttl_ms,
            "pollIntervalMs": POLL_INTERVAL_MS,
        });
        if let Some(m) = &self.message {
            task["statusMessage"] = json!(m);
        }
        if let (true, Some(result)) = (with_result, &self.result) {
            task["result"] = result.clone();
        }
        task
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(status: Status, result: Option<Value>) -> Task {
        Task {
            id: "0123456789abcdef0123456789abcdef".into(),
            status,
            message: Some("12 of 40 records staged".into()),
            created_ms: 1_763_000_000_000,
            updated_ms: 1_763_000_001_000,
            ttl_ms: 86_400_000,
            result,
        }
    }

    #[test]
    fn the_two_revisions_name_the_same_task_their_own_way() {
        let t = task(Status::Working, None);
        let old = t.handshake();
        assert_eq!(old["taskId"], t.id);
        assert_eq!(old["status"], "working");
        assert_eq!(old["createdAt"], "2025-11-13T02:13:20Z");
        assert_eq!(old["ttl"], 86_400_000);
        assert_eq!(old["pollInterval"], POLL_INTERVAL_MS);
        assert!(old.get("ttlMs").is_none());
        let new = t.extension(true);
        assert_eq!(new["ttlMs"], 86_400_000);
        assert_eq!(new["pollIntervalMs"], POLL_INTERVAL_MS);
        assert!(new.get("ttl").is_none() && new.get("pollInterval").is_none());
        assert!(new.get("result").is_none(), "no outcome while working");
        assert_eq!(new["statusMessage"], "12 of 40 records staged");
    }

    #[test]
    fn a_tool_error_is_failed_in_one_revision_and_completed_in_the_other() {
        let t = task(
            Status::Completed,
            Some(json!({"isError": true, "content": []})),
        );
        assert_eq!(t.handshake()["status"], "failed");
        let new = t.extension(true);
        assert_eq!(new["status"], "completed");
        assert_eq!(new["result"]["isError"], true);
        assert!(t.extension(false).get("result").is_none());
        assert!(Status::Cancelled.terminal() && !Status::Working.terminal());
    }
}
