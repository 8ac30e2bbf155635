//! Where MCP tasks keep what their callers will read: a call's result, or a call held while
//! PubChem works on it (see `crate::tasks`). StoredTask in the same store as datasets, owned and
//! charged on the ledger the same way, behind a trait of its own.

use crate::error::Result;
use crate::platform::{BoxFuture, MaybeSendSync};
use serde::{Deserialize, Serialize};

/// Task results one owner keeps at most, on every store: past it the oldest go first, so a
/// caller who makes every call a task cannot fill the operator's storage.
pub const TASKS_PER_OWNER: u64 = 200;

/// What a call served as an MCP task keeps for its owner to read: its result (2025-11-25
/// makes every call of a task-capable tool a task when asked), or the call itself while
/// PubChem works on it (`crate::tasks::calls`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredTask {
    /// The task id: 128 random bits, as a dataset id.
    pub id: String,
    /// The owner key of the caller (see `staging::owner_of`).
    pub owner: String,
    /// The `CallToolResult`, or the pending call, as JSON text.
    pub result: String,
    /// When it was kept.
    pub created_ms: u64,
    /// When it is forgotten.
    pub expires_ms: u64,
}

/// Task results kept for their callers until they expire.
pub trait TaskStore: MaybeSendSync {
    /// Keeps a task's result until it expires; an owner's oldest past [`TASKS_PER_OWNER`] go.
    fn save<'a>(&'a self, kept: StoredTask) -> BoxFuture<'a, Result<()>>;

    /// A kept task result, unless it expired.
    fn load<'a>(&'a self, id: &'a str, now_ms: u64) -> BoxFuture<'a, Result<Option<StoredTask>>>;
}
