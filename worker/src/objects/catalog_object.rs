//! One owner's list of datasets, in a Durable Object named by the owner key.
//!
//! `list_datasets` and the per-owner dataset quota need to know which
//! datasets an owner holds; dataset objects cannot be enumerated, so each
//! owner has a catalog object recording ids and expiry times. Reserving an
//! id checks and inserts in one synchronous step of a single-threaded
//! object, so two concurrent stagings can never both take the last slot.
//! It also notes the owner's kept task results, so that an owner keeps at most
//! `TASKS_PER_OWNER` of them, each in an object of its own.

use super::do_sql::{command, exec, integer, reply, rows};
use entrez_mcp_core::error::{Error, Result};
use entrez_mcp_core::staging::limits;
use entrez_mcp_core::staging::rows::SqlValue;
use entrez_mcp_core::staging::task_store::TASKS_PER_OWNER;
use entrez_mcp_wire::CatalogCommand;
use worker::{durable_object, DurableObject, Env, Request, Response, SqlStorageValue, State};

const ENTRY_DDL: [&str; 2] = [
    "CREATE TABLE IF NOT EXISTS dataset_entry (id TEXT PRIMARY KEY, expires_ms INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS kept_entry (id TEXT PRIMARY KEY, created_ms INTEGER NOT NULL, expires_ms INTEGER NOT NULL)",
];

/// The Durable Object that lists one owner's datasets.
#[durable_object]
pub struct EntrezCatalog {
    state: State,
}

impl DurableObject for EntrezCatalog {
    fn new(state: State, _env: Env) -> Self {
        EntrezCatalog { state }
    }

    async fn fetch(&self, mut req: Request) -> worker::Result<Response> {
        let command: CatalogCommand = match command(&mut req).await {
            Ok(c) => c,
            Err(e) => {
                return reply::<()>(Err(Error::internal(format!("bad catalog command: {e}"))))
            }
        };
        match command {
            CatalogCommand::Reserve {
                id,
                expires_ms,
                max_datasets,
                now_ms,
            } => reply(self.reserve(&id, expires_ms, max_datasets, now_ms)),
            CatalogCommand::Renew { id, expires_ms } => reply(self.renew(&id, expires_ms)),
            CatalogCommand::Release { id } => reply(self.release(&id)),
            CatalogCommand::List { now_ms } => reply(self.list(now_ms)),
            CatalogCommand::SaveTask {
                id,
                created_ms,
                expires_ms,
            } => reply(self.keep(&id, created_ms, expires_ms)),
        }
    }
}

impl EntrezCatalog {
    fn sql(&self) -> Result<worker::SqlStorage> {
        let sql = self.state.storage().sql();
        for ddl in ENTRY_DDL {
            exec(&sql, ddl, Vec::new())?;
        }
        Ok(sql)
    }

    fn forget_expired(sql: &worker::SqlStorage, now_ms: u64) -> Result<()> {
        exec(
            sql,
            "DELETE FROM dataset_entry WHERE expires_ms <= ?",
            vec![SqlStorageValue::Integer(now_ms as i64)],
        )?;
        Ok(())
    }

    fn reserve(&self, id: &str, expires_ms: u64, max_datasets: u64, now_ms: u64) -> Result<()> {
        let sql = self.sql()?;
        Self::forget_expired(&sql, now_ms)?;
        let held = integer(&sql, "SELECT COUNT(*) FROM dataset_entry")? as u64;
        if held >= max_datasets {
            return Err(limits::too_many_datasets(held));
        }
        exec(
            &sql,
            "INSERT INTO dataset_entry (id, expires_ms) VALUES (?, ?) ON CONFLICT DO NOTHING",
            vec![id.into(), SqlStorageValue::Integer(expires_ms as i64)],
        )?;
        Ok(())
    }

    fn renew(&self, id: &str, expires_ms: u64) -> Result<()> {
        exec(
            &self.sql()?,
            "INSERT INTO dataset_entry (id, expires_ms) VALUES (?, ?) \
             ON CONFLICT (id) DO UPDATE SET expires_ms = MAX(expires_ms, excluded.expires_ms)",
            vec![id.into(), SqlStorageValue::Integer(expires_ms as i64)],
        )?;
        Ok(())
    }

    fn release(&self, id: &str) -> Result<()> {
        let sql = self.sql()?;
        exec(
            &sql,
            "DELETE FROM dataset_entry WHERE id = ?",
            vec![id.into()],
        )?;
        exec(&sql, "DELETE FROM kept_entry WHERE id = ?", vec![id.into()])?;
        Ok(())
    }

    fn list(&self, now_ms: u64) -> Result<Vec<String>> {
        let sql = self.sql()?;
        Self::forget_expired(&sql, now_ms)?;
        ids(&sql, "SELECT id FROM dataset_entry ORDER BY id", Vec::new())
    }

    /// Notes a kept result; the ids of the owner's oldest past the ceiling, which it forgets.
    fn keep(&self, id: &str, created_ms: u64, expires_ms: u64) -> Result<Vec<String>> {
        let sql = self.sql()?;
        exec(
            &sql,
            "DELETE FROM kept_entry WHERE expires_ms <= ?",
            vec![SqlStorageValue::Integer(created_ms as i64)],
        )?;
        exec(
            &sql,
            "INSERT OR REPLACE INTO kept_entry (id, created_ms, expires_ms) VALUES (?, ?, ?)",
            vec![
                id.into(),
                SqlStorageValue::Integer(created_ms as i64),
                SqlStorageValue::Integer(expires_ms as i64),
            ],
        )?;
        // The new one stays, whatever the clocks of the isolates that kept the others said.
        let oldest = ids(
            &sql,
            "SELECT id FROM kept_entry WHERE id != ? ORDER BY created_ms DESC, id LIMIT -1 OFFSET ?",
            vec![
                id.into(),
                SqlStorageValue::Integer(TASKS_PER_OWNER as i64 - 1),
            ],
        )?;
        for old in &oldest {
            exec(
                &sql,
                "DELETE FROM kept_entry WHERE id = ?",
                vec![old.as_str().into()],
            )?;
        }
        Ok(oldest)
    }
}

/// The first column of each row, as text.
fn ids(sql: &worker::SqlStorage, query: &str, params: Vec<SqlStorageValue>) -> Result<Vec<String>> {
    Ok(rows(sql, query, params)?
        .into_iter()
        .filter_map(|row| match row.into_iter().next() {
            Some(SqlValue::Text(id)) => Some(id),
            _ => None,
        })
        .collect())
}
