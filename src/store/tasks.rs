//! What MCP tasks need of the native store: cancelling a staging, and what calls served as
//! tasks keep (`kept`, in the catalog file): a result, or a call held while PubChem works.
//! Beside them, the plans of each dataset's exports (`export`), which go with the dataset.

use super::{lock, Inner};
use entrez_mcp_core::error::Result;
use entrez_mcp_core::staging::store::{CANCELLED, CANCEL_MARK, MAX_EXPORTS};
use entrez_mcp_core::staging::task_store::{StoredTask, TASKS_PER_OWNER};
use entrez_mcp_sqlite::store_error;
use rusqlite::{params, OptionalExtension};

/// The table of kept results, beside the datasets in the catalog.
pub(super) const KEPT_DDL: &str = "
CREATE TABLE IF NOT EXISTS kept (
  id TEXT PRIMARY KEY, owner TEXT NOT NULL, result TEXT NOT NULL,
  created_ms INTEGER NOT NULL, expires_ms INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS kept_expires ON kept (expires_ms);
CREATE TABLE IF NOT EXISTS export (
  dataset TEXT NOT NULL, id TEXT NOT NULL, plan TEXT NOT NULL, created_ms INTEGER NOT NULL,
  PRIMARY KEY (dataset, id));";

impl Inner {
    /// Keeps an export's plan beside its dataset (see `DatasetStore::save_export`).
    pub(super) fn save_export(
        &self,
        id: &str,
        export: &str,
        plan: &str,
        now_ms: u64,
    ) -> Result<()> {
        let catalog = lock(&self.catalog);
        let known: bool = catalog
            .query_row("SELECT 1 FROM dataset WHERE id = ?1", [id], |_| Ok(true))
            .optional()
            .map_err(store_error)?
            .unwrap_or(false);
        if !known {
            return Err(entrez_mcp_core::error::Error::new(
                entrez_mcp_core::error::ErrorKind::NotFound,
                format!("no dataset {id}"),
            )
            .with_code("dataset_not_found"));
        }
        catalog
            .execute(
                "DELETE FROM export WHERE dataset = ?1 AND id NOT IN (SELECT id FROM export WHERE dataset = ?1 ORDER BY created_ms DESC, id LIMIT ?2)",
                params![id, MAX_EXPORTS as i64 - 1],
            )
            .map_err(store_error)?;
        catalog
            .execute(
                "INSERT OR REPLACE INTO export (dataset, id, plan, created_ms) VALUES (?1, ?2, ?3, ?4)",
                params![id, export, plan, now_ms as i64],
            )
            .map_err(store_error)?;
        Ok(())
    }

    /// An export's plan, if its dataset keeps one under that id.
    pub(super) fn load_export(&self, id: &str, export: &str) -> Result<Option<String>> {
        lock(&self.catalog)
            .query_row(
                "SELECT plan FROM export WHERE dataset = ?1 AND id = ?2",
                params![id, export],
                |r| r.get(0),
            )
            .optional()
            .map_err(store_error)
    }

    /// See `DatasetStore::cancel`: one statement per case, under the catalog's lock.
    pub(super) fn cancel(&self, id: &str, now_ms: u64) -> Result<bool> {
        let catalog = lock(&self.catalog);
        let waiting = catalog
            .execute(
                "UPDATE dataset SET status = 'failed', reason = ?2, updated_ms = ?3 WHERE id = ?1 AND status = 'partial'",
                params![id, CANCELLED, now_ms as i64],
            )
            .map_err(store_error)?;
        let running = catalog
            .execute(
                "UPDATE dataset SET reason = ?2 WHERE id = ?1 AND status = 'loading'",
                params![id, CANCEL_MARK],
            )
            .map_err(store_error)?;
        Ok(waiting + running > 0)
    }

    pub(super) fn save_task(&self, kept: &StoredTask) -> Result<()> {
        let catalog = lock(&self.catalog);
        catalog
            .execute(
                "DELETE FROM kept WHERE expires_ms <= ?1",
                [kept.created_ms as i64],
            )
            .map_err(store_error)?;
        // An owner keeps at most TASKS_PER_OWNER results; the oldest go first (one kept again
        // pushes nothing out).
        catalog
            .execute(
                "DELETE FROM kept WHERE owner = ?1 AND id != ?3 AND id NOT IN (SELECT id FROM kept WHERE owner = ?1 AND id != ?3 ORDER BY created_ms DESC LIMIT ?2)",
                params![kept.owner, TASKS_PER_OWNER as i64 - 1, kept.id],
            )
            .map_err(store_error)?;
        catalog
            .execute(
                "INSERT OR REPLACE INTO kept (id, owner, result, created_ms, expires_ms) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![kept.id, kept.owner, kept.result, kept.created_ms as i64, kept.expires_ms as i64],
            )
            .map_err(store_error)?;
        Ok(())
    }

    pub(super) fn load_task(&self, id: &str, now_ms: u64) -> Result<Option<StoredTask>> {
        lock(&self.catalog)
            .query_row(
                "SELECT id, owner, result, created_ms, expires_ms FROM kept WHERE id = ?1 AND expires_ms > ?2",
                params![id, now_ms as i64],
                |r| {
                    Ok(StoredTask {
                        id: r.get(0)?,
                        owner: r.get(1)?,
                        result: r.get(2)?,
                        created_ms: r.get::<_, i64>(3)? as u64,
                        expires_ms: r.get::<_, i64>(4)? as u64,
                    })
                },
            )
            .optional()
            .map_err(store_error)
    }
}
