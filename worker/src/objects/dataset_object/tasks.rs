//! What MCP tasks need of a dataset's object: cancelling its staging, and the result a task
//! kept (in the dataset's object, or in an object of its own named by the task id).

use super::super::do_sql::{self, exec};
use super::EntrezDataset;
use entrez_mcp_core::error::Result;
use entrez_mcp_core::staging::store::{Status, CANCELLED, CANCEL_MARK};
use entrez_mcp_core::staging::task_store::StoredTask;
use worker::SqlStorageValue;

/// A task's kept result, in an object of its own (named by the task id).
const KEPT_DDL: &str = "CREATE TABLE IF NOT EXISTS entrez_kept (
  id TEXT PRIMARY KEY, owner TEXT NOT NULL, result TEXT NOT NULL,
  created_ms INTEGER NOT NULL, expires_ms INTEGER NOT NULL)";

impl EntrezDataset {
    /// See `DatasetStore::cancel`; the object runs one request at a time, so it is one step.
    pub(super) fn cancel(&self, now: u64) -> Result<bool> {
        let Some(meta) = self.meta()? else {
            return Ok(false);
        };
        let (status, reason) = match meta.info.status {
            Status::Partial(_) => ("failed", CANCELLED),
            Status::Loading => ("loading", CANCEL_MARK),
            _ => return Ok(false),
        };
        exec(
            &self.sql(),
            "UPDATE entrez_meta SET status = ?, reason = ?, updated_ms = MAX(updated_ms, ?)",
            vec![
                status.into(),
                reason.into(),
                SqlStorageValue::Integer(if status == "failed" { now as i64 } else { 0 }),
            ],
        )?;
        Ok(true)
    }

    /// Keeps a task's result in this otherwise empty object; the alarm removes it at expiry.
    pub(super) async fn keep(&self, kept: StoredTask, now: u64) -> Result<()> {
        let sql = self.sql();
        exec(&sql, KEPT_DDL, Vec::new())?;
        exec(
            &sql,
            "INSERT OR REPLACE INTO entrez_kept (id, owner, result, created_ms, expires_ms) VALUES (?, ?, ?, ?, ?)",
            vec![
                kept.id.into(),
                kept.owner.into(),
                kept.result.into(),
                SqlStorageValue::Integer(kept.created_ms as i64),
                SqlStorageValue::Integer(kept.expires_ms as i64),
            ],
        )?;
        self.arm(kept.expires_ms.saturating_sub(now).max(1) as i64)
            .await
    }

    /// Forgets the result kept here; an object that holds nothing else goes whole.
    pub(super) async fn forget(&self) -> Result<()> {
        if self.meta()?.is_some() {
            exec(&self.sql(), KEPT_DDL, Vec::new())?;
            exec(&self.sql(), "DELETE FROM entrez_kept", Vec::new())?;
            return Ok(());
        }
        self.drop_all().await.map(|_| ())
    }

    pub(super) fn kept(&self, now: u64) -> Result<Option<StoredTask>> {
        let Some(row) = do_sql::only_row(
            &self.sql(),
            "SELECT id, owner, result, created_ms, expires_ms FROM entrez_kept",
        )?
        else {
            return Ok(None);
        };
        let text = |i: usize| do_sql::text(&row[i]);
        let int = |i: usize| do_sql::unsigned(&row[i]);
        let kept = StoredTask {
            id: text(0),
            owner: text(1),
            result: text(2),
            created_ms: int(3),
            expires_ms: int(4),
        };
        Ok((kept.expires_ms > now).then_some(kept))
    }
}
