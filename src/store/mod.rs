//! The native dataset store: rusqlite, one SQLite file per dataset, plus a catalog.
//!
//! One file per dataset makes dropping and expiry a file deletion, keeps one
//! caller's large dataset from slowing another's, and lets two datasets be
//! staged at once on separate connections. `catalog.sqlite` holds what
//! `list_datasets` shows, so listing never opens dataset files. Files live
//! under `ENTREZ_DATA_DIR` ([`SqliteStore::from_lookup`]). Batches are flushed
//! beside staging (`flusher.rs`), and what a stopped process left is recovered
//! when the store opens (`recovery.rs`).

mod dataset;
mod flusher;
mod query;
mod recovery;
mod tasks;

use entrez_mcp_core::error::{Error, ErrorKind, Result};
use entrez_mcp_core::platform::BoxFuture;
use entrez_mcp_core::staging::guard::QueryPolicy;
use entrez_mcp_core::staging::is_dataset_id;
use entrez_mcp_core::staging::layouts::{full_text_index, named};
use entrez_mcp_core::staging::rows::RowBatch;
use entrez_mcp_core::staging::store::{
    Appended, Caps, DatasetInfo, DatasetStore, Lease, NewDataset, QueryResult, Status, TableCount,
    TableInfo, ABANDONED, CANCELLED, CANCEL_MARK, STALE_LOADING_MS,
};
use entrez_mcp_core::staging::task_store::{StoredTask, TaskStore};
use flusher::Flusher;
pub use recovery::{DAMAGED, INTERRUPTED};
use rusqlite::{params, Connection, OptionalExtension};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

const CATALOG_DDL: &str = "
CREATE TABLE IF NOT EXISTS dataset (
  id TEXT PRIMARY KEY, owner TEXT NOT NULL, database TEXT NOT NULL, layout TEXT NOT NULL,
  source TEXT NOT NULL, status TEXT NOT NULL, reason TEXT,
  created_ms INTEGER NOT NULL, expires_ms INTEGER NOT NULL,
  records INTEGER NOT NULL DEFAULT 0, rows INTEGER NOT NULL DEFAULT 0,
  bytes INTEGER NOT NULL DEFAULT 0, tables TEXT NOT NULL DEFAULT '[]',
  updated_ms INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS dataset_owner ON dataset (owner);
CREATE INDEX IF NOT EXISTS dataset_expires ON dataset (expires_ms);";

/// Brings a catalog written by an earlier version up to [`CATALOG_DDL`]: the time of each
/// dataset's last write came with expiry from the last write (a dataset from before then
/// counts as last written when it was created).
fn migrate(catalog: &Connection) -> rusqlite::Result<()> {
    let has_updated: bool = catalog
        .prepare("SELECT 1 FROM pragma_table_info('dataset') WHERE name = 'updated_ms'")?
        .exists([])?;
    if !has_updated {
        catalog.execute_batch(
            "ALTER TABLE dataset ADD COLUMN updated_ms INTEGER NOT NULL DEFAULT 0;
             UPDATE dataset SET updated_ms = created_ms;",
        )?;
    }
    Ok(())
}

/// The rusqlite backend of [`DatasetStore`].
///
/// Each batch is one transaction behind a rollback journal, so a crashed process never
/// leaves a torn database. Batches are not fsynced inside their commits; a dataset is
/// flushed whole before it is marked complete, and one that a machine crash left torn is
/// found by `PRAGMA quick_check` on reopening and emptied, with [`DAMAGED`] as its reason.
#[derive(Clone)]
pub struct SqliteStore {
    inner: Arc<Inner>,
}

struct Inner {
    /// `None` keeps every database in memory.
    dir: Option<PathBuf>,
    catalog: Mutex<Connection>,
    open: Mutex<HashMap<String, Arc<Mutex<Connection>>>>,
    flusher: Flusher,
}

/// The directory datasets go in when `ENTREZ_DATA_DIR` is not set.
pub fn default_dir(lookup: impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let set = |name: &str| lookup(name).filter(|v| !v.trim().is_empty());
    set("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| set("HOME").map(|h| Path::new(&h).join(".local").join("share")))
        .map(|base| base.join("entrez-mcp"))
}

/// What the catalog holds for an owner: (id, owner, bytes, expiry in Unix ms).
pub type Holding = (String, String, u64, u64);

impl SqliteStore {
    /// The store `ENTREZ_DATA_DIR` names (`:memory:` for memory), else the default directory.
    pub fn from_lookup(
        lookup: impl Fn(&str) -> Option<String>,
    ) -> std::result::Result<Self, String> {
        match lookup("ENTREZ_DATA_DIR").filter(|v| !v.trim().is_empty()) {
            Some(v) if v.trim() == ":memory:" => SqliteStore::in_memory(),
            Some(v) => SqliteStore::open(Path::new(v.trim())),
            None => match default_dir(lookup) {
                Some(dir) => SqliteStore::open(&dir),
                None => Err("neither ENTREZ_DATA_DIR, XDG_DATA_HOME nor HOME is set".into()),
            },
        }
    }

    /// A store whose datasets vanish with the process.
    pub fn in_memory() -> std::result::Result<Self, String> {
        let catalog = Connection::open_in_memory().map_err(|e| e.to_string())?;
        catalog
            .execute_batch(&format!("{CATALOG_DDL}{}", tasks::KEPT_DDL))
            .and_then(|_| migrate(&catalog))
            .map_err(|e| e.to_string())?;
        Ok(SqliteStore::with(None, catalog))
    }

    /// A store under `dir`, recovering from whatever a previous process left.
    pub fn open(dir: &Path) -> std::result::Result<Self, String> {
        let datasets = dir.join("datasets");
        std::fs::create_dir_all(&datasets)
            .map_err(|e| format!("cannot create {}: {e}", datasets.display()))?;
        let path = dir.join("catalog.sqlite");
        let catalog = Connection::open(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        catalog
            .execute_batch(
                "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=5000;",
            )
            .and_then(|_| catalog.execute_batch(&format!("{CATALOG_DDL}{}", tasks::KEPT_DDL)))
            .and_then(|_| migrate(&catalog))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let store = SqliteStore::with(Some(dir.to_path_buf()), catalog);
        store.inner.recover().map_err(|e| e.message)?;
        Ok(store)
    }

    /// The datasets whose staging the server continues by itself, waiting for a step.
    pub fn in_background(&self) -> std::result::Result<Vec<String>, String> {
        let catalog = lock(&self.inner.catalog);
        let mut stmt = catalog
            .prepare("SELECT id, reason FROM dataset WHERE status = 'partial'")
            .map_err(|e| e.to_string())?;
        let rows = stmt
            .query_map([], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, Option<String>>(1)?))
            })
            .map_err(|e| e.to_string())?;
        Ok(rows
            .filter_map(|r| r.ok())
            .filter(|(_, reason)| recovery::background_cursor(reason.as_deref()))
            .map(|(id, _)| id)
            .collect())
    }

    /// Every dataset the catalog holds, as (id, owner, bytes, expiry): what the ledger counts
    /// at start-up.
    pub fn inventory(&self) -> std::result::Result<Vec<Holding>, String> {
        self.holdings("SELECT id, owner, bytes, expires_ms FROM dataset")
    }

    /// Every task result kept for a call, as (id, owner, bytes, expiry), for the ledger at
    /// start-up: the final results of staging tasks, kept under their datasets' ids, are not
    /// charged (their datasets are).
    pub fn task_inventory(&self) -> std::result::Result<Vec<Holding>, String> {
        self.holdings(
            "SELECT id, owner, length(CAST(result AS BLOB)), expires_ms FROM kept \
             WHERE id NOT IN (SELECT id FROM dataset)",
        )
    }

    fn holdings(&self, sql: &str) -> std::result::Result<Vec<Holding>, String> {
        let catalog = lock(&self.inner.catalog);
        let mut stmt = catalog.prepare(sql).map_err(|e| e.to_string())?;
        let rows = stmt
            .query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, i64>(2)? as u64,
                    r.get::<_, i64>(3)? as u64,
                ))
            })
            .map_err(|e| e.to_string())?;
        rows.collect::<rusqlite::Result<Vec<_>>>()
            .map_err(|e| e.to_string())
    }

    fn with(dir: Option<PathBuf>, catalog: Connection) -> Self {
        SqliteStore {
            inner: Arc::new(Inner {
                dir,
                catalog: Mutex::new(catalog),
                open: Mutex::new(HashMap::new()),
                flusher: Flusher::default(),
            }),
        }
    }

    /// Runs blocking work off the async threads when there are any: rusqlite is blocking, so
    /// inside a tokio runtime every call runs on the blocking pool, and a long query never
    /// stalls the async threads.
    fn blocking<T, F>(&self, f: F) -> BoxFuture<'static, Result<T>>
    where
        T: Send + 'static,
        F: FnOnce(&Inner) -> Result<T> + Send + 'static,
    {
        let inner = Arc::clone(&self.inner);
        Box::pin(async move {
            if tokio::runtime::Handle::try_current().is_err() {
                return f(&inner);
            }
            tokio::task::spawn_blocking(move || f(&inner))
                .await
                .map_err(|e| Error::internal(format!("dataset store task failed: {e}")))?
        })
    }
}

impl Inner {
    /// The open connection of a dataset the catalog knows, opening its file if needed.
    fn connection(&self, id: &str) -> Result<Arc<Mutex<Connection>>> {
        if let Some(c) = lock(&self.open).get(id) {
            return Ok(Arc::clone(c));
        }
        if !is_dataset_id(id) || self.info(id)?.is_none() {
            return Err(Error::new(ErrorKind::NotFound, format!("no dataset {id}"))
                .with_code("dataset_not_found"));
        }
        let dir = self.dir.as_deref().ok_or_else(|| {
            Error::new(
                ErrorKind::NotFound,
                format!("dataset {id} is no longer in memory"),
            )
            .with_code("dataset_not_found")
        })?;
        let conn = Arc::new(Mutex::new(dataset::open(Some(dir), id)?));
        let mut open = lock(&self.open);
        Ok(Arc::clone(open.entry(id.to_string()).or_insert(conn)))
    }

    fn info(&self, id: &str) -> Result<Option<DatasetInfo>> {
        lock(&self.catalog)
            .query_row(
                &format!("SELECT {INFO_COLUMNS} FROM dataset WHERE id = ?1"),
                [id],
                row_info,
            )
            .optional()
            .map_err(store_error)
    }

    /// Builds the layout's secondary indexes (idempotent), so finished datasets query fast.
    /// They are built once, when staging ends.
    fn build_indexes(&self, id: &str) -> Result<()> {
        let Some(info) = self.info(id)? else {
            return Ok(());
        };
        let Ok(layout) = named(&info.layout) else {
            return Ok(());
        };
        let conn = self.connection(id)?;
        let guard = lock(&conn);
        guard
            .execute_batch(&layout.index_ddl().join(";\n"))
            .map_err(store_error)?;
        // The bundled SQLite has FTS5: the layout's full-text index, if any, is built here.
        if let Some(ft) = full_text_index(layout) {
            guard
                .execute_batch(&ft.ddl.join(";\n"))
                .map_err(store_error)?;
        }
        // Everything staged reaches the disk before the catalog may call it complete.
        match &self.dir {
            Some(dir) => {
                self.flusher.wait(id);
                dataset::sync(dir, id)
            }
            None => Ok(()),
        }
    }

    fn remove(&self, id: &str) -> Result<bool> {
        let conn = lock(&self.open).remove(id);
        drop(conn);
        self.flusher.forget(id);
        let catalog = lock(&self.catalog);
        let deleted = catalog
            .execute("DELETE FROM dataset WHERE id = ?1", [id])
            .map_err(store_error)?;
        // A staging task's kept result goes with its dataset, as on the Worker, and so do
        // its exports.
        catalog
            .execute("DELETE FROM kept WHERE id = ?1", [id])
            .map_err(store_error)?;
        catalog
            .execute("DELETE FROM export WHERE dataset = ?1", [id])
            .map_err(store_error)?;
        drop(catalog);
        if let Some(dir) = &self.dir {
            if is_dataset_id(id) {
                dataset::delete_files(dir, id);
            }
        }
        Ok(deleted > 0)
    }
}

const INFO_COLUMNS: &str =
    "id, owner, database, layout, source, status, reason, created_ms, expires_ms, records, rows, bytes, tables, updated_ms";

fn row_info(r: &rusqlite::Row<'_>) -> rusqlite::Result<DatasetInfo> {
    let tables: String = r.get(12)?;
    let pairs: Vec<(String, u64)> = serde_json::from_str(&tables).unwrap_or_default();
    Ok(DatasetInfo {
        id: r.get(0)?,
        owner: r.get(1)?,
        database: r.get(2)?,
        layout: r.get(3)?,
        source: r.get(4)?,
        status: Status::from_parts(&r.get::<_, String>(5)?, r.get(6)?),
        created_ms: r.get::<_, i64>(7)? as u64,
        expires_ms: r.get::<_, i64>(8)? as u64,
        updated_ms: r.get::<_, i64>(13)? as u64,
        records: r.get::<_, i64>(9)? as u64,
        rows: r.get::<_, i64>(10)? as u64,
        bytes: r.get::<_, i64>(11)? as u64,
        tables: pairs
            .into_iter()
            .map(|(name, rows)| TableCount { name, rows })
            .collect(),
    })
}

/// A poisoned lock only means another call panicked; the connection is still usable.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

use entrez_mcp_sqlite::store_error;

impl TaskStore for SqliteStore {
    fn save<'a>(&'a self, kept: StoredTask) -> BoxFuture<'a, Result<()>> {
        self.blocking(move |inner| inner.save_task(&kept))
    }

    fn load<'a>(&'a self, id: &'a str, now_ms: u64) -> BoxFuture<'a, Result<Option<StoredTask>>> {
        let id = id.to_string();
        self.blocking(move |inner| inner.load_task(&id, now_ms))
    }
}

impl DatasetStore for SqliteStore {
    fn create<'a>(&'a self, d: NewDataset, max_datasets: u64) -> BoxFuture<'a, Result<()>> {
        self.blocking(move |inner| {
            let tables = d.layout.empty_counts();
            {
                let catalog = lock(&inner.catalog);
                let held: i64 = catalog
                    .query_row("SELECT COUNT(*) FROM dataset WHERE owner = ?1", [&d.owner], |r| r.get(0))
                    .map_err(store_error)?;
                if held as u64 >= max_datasets {
                    return Err(entrez_mcp_core::staging::limits::too_many_datasets(held as u64));
                }
                catalog
                    .execute(
                        "INSERT INTO dataset (id, owner, database, layout, source, status, created_ms, expires_ms, tables, updated_ms) VALUES (?1, ?2, ?3, ?4, ?5, 'loading', ?6, ?7, ?8, ?6)",
                        params![d.id, d.owner, d.database, d.layout.name, d.source, d.created_ms as i64, d.expires_ms as i64, serde_json::to_string(&tables).unwrap_or_default()],
                    )
                    .map_err(store_error)?;
            }
            let made = dataset::open(inner.dir.as_deref(), &d.id).and_then(|c| {
                c.execute_batch(&d.layout.table_ddl().join(";\n")).map_err(store_error)?;
                Ok(c)
            });
            match made {
                Ok(conn) => {
                    lock(&inner.open).insert(d.id.clone(), Arc::new(Mutex::new(conn)));
                    Ok(())
                }
                Err(e) => {
                    let _ = inner.remove(&d.id);
                    Err(e)
                }
            }
        })
    }

    fn append<'a>(
        &'a self,
        id: &'a str,
        batch: RowBatch,
        caps: Caps,
        lease: Lease,
    ) -> BoxFuture<'a, Result<Appended>> {
        let id = id.to_string();
        self.blocking(move |inner| {
            let before = inner.info(&id)?.ok_or_else(|| gone(&id))?;
            let conn = inner.connection(&id)?;
            let added = dataset::append(&mut lock(&conn), &batch, &before, caps)?;
            if let Some(dir) = &inner.dir {
                inner.flusher.start(&id, dataset::path(dir, &id));
            }
            let catalog = lock(&inner.catalog);
            let mut info = before;
            let new_records = info.add_batch(batch.layout, &added.per_table, added.bytes);
            info.renew(lease);
            let pairs = info.table_pairs();
            let updated = catalog
                .execute(
                    "UPDATE dataset SET records = ?2, rows = ?3, bytes = ?4, tables = ?5, expires_ms = ?6, updated_ms = ?7 WHERE id = ?1",
                    params![id, info.records as i64, info.rows as i64, info.bytes as i64, serde_json::to_string(&pairs).unwrap_or_default(), info.expires_ms as i64, info.updated_ms as i64],
                )
                .map_err(store_error)?;
            if updated == 0 {
                return Err(gone(&id));
            }
            Ok(Appended { new_records, info })
        })
    }

    fn finish<'a>(
        &'a self,
        id: &'a str,
        status: Status,
        lease: Lease,
    ) -> BoxFuture<'a, Result<DatasetInfo>> {
        let id = id.to_string();
        self.blocking(move |inner| {
            // The status is recorded whatever happens: a dataset whose indexes or final
            // flush failed is `failed` with the reason, never left `loading`.
            let built = inner.build_indexes(&id);
            let completing = status == Status::Complete;
            let status = match (status, &built) {
                (Status::Complete, Err(e)) => Status::Failed(format!(
                    "staging finished but the dataset could not be completed on disk: {}",
                    e.message
                )),
                (status, _) => status,
            };
            let updated = lock(&inner.catalog)
                .execute(
                    // A staging cancelled while this step ran ends cancelled, whatever the
                    // step would have recorded, and one cancelled stays so.
                    "UPDATE dataset SET status = CASE WHEN reason IN (?6, ?7) THEN 'failed' ELSE ?2 END, reason = CASE WHEN reason IN (?6, ?7) THEN ?7 ELSE ?3 END, expires_ms = MAX(expires_ms, ?4), updated_ms = ?5 WHERE id = ?1",
                    params![id, status.as_str(), status.stored_reason(), lease.expires_ms as i64, lease.now_ms as i64, CANCEL_MARK, CANCELLED],
                )
                .map_err(store_error)?;
            if updated == 0 {
                return Err(gone(&id));
            }
            // A staging that had already failed keeps its own error.
            if completing {
                built?;
            }
            inner.info(&id)?.ok_or_else(|| gone(&id))
        })
    }

    fn resume<'a>(&'a self, id: &'a str, lease: Lease) -> BoxFuture<'a, Result<Option<String>>> {
        let id = id.to_string();
        self.blocking(move |inner| {
            // One lock over the read and the write: no second caller sees it partial.
            let catalog = lock(&inner.catalog);
            let position: Option<Option<String>> = catalog
                .query_row(
                    "SELECT reason FROM dataset WHERE id = ?1 AND status = 'partial'",
                    [&id],
                    |r| r.get(0),
                )
                .optional()
                .map_err(store_error)?;
            let Some(position) = position else {
                return Ok(None);
            };
            catalog
                .execute(
                    // The cursor stays while it loads: a process that stops meanwhile
                    // finds where a staging it continued was (recovery).
                    "UPDATE dataset SET status = 'loading', expires_ms = MAX(expires_ms, ?2), updated_ms = ?3 WHERE id = ?1",
                    params![id, lease.expires_ms as i64, lease.now_ms as i64],
                )
                .map_err(store_error)?;
            Ok(Some(position.unwrap_or_default()))
        })
    }

    fn cancel<'a>(&'a self, id: &'a str, now_ms: u64) -> BoxFuture<'a, Result<bool>> {
        let id = id.to_string();
        self.blocking(move |inner| inner.cancel(&id, now_ms))
    }

    fn get<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<DatasetInfo>>> {
        let id = id.to_string();
        self.blocking(move |inner| inner.info(&id))
    }

    fn list<'a>(&'a self, owner: &'a str) -> BoxFuture<'a, Result<Vec<DatasetInfo>>> {
        let owner = owner.to_string();
        self.blocking(move |inner| {
            let catalog = lock(&inner.catalog);
            let mut stmt = catalog
                .prepare(&format!("SELECT {INFO_COLUMNS} FROM dataset WHERE owner = ?1 ORDER BY created_ms DESC, id"))
                .map_err(store_error)?;
            let rows = stmt.query_map([owner], row_info).map_err(store_error)?;
            rows.collect::<rusqlite::Result<Vec<_>>>().map_err(store_error)
        })
    }

    fn remove<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<bool>> {
        let id = id.to_string();
        self.blocking(move |inner| inner.remove(&id))
    }

    fn expire<'a>(&'a self, now_ms: u64) -> BoxFuture<'a, Result<Vec<String>>> {
        self.blocking(move |inner| {
            let ids: Vec<String> = {
                let catalog = lock(&inner.catalog);
                // A stager that wrote nothing for so long is gone (a dropped request); the
                // dataset says so, and then expires like any other.
                let stale = now_ms.saturating_sub(STALE_LOADING_MS) as i64;
                catalog
                    .execute(
                        "UPDATE dataset SET status = 'failed', reason = ?1 WHERE status = 'loading' AND updated_ms < ?2",
                        params![ABANDONED, stale],
                    )
                    .map_err(store_error)?;
                // A live staging is never cut short (DatasetInfo::expired).
                catalog
                    .prepare("SELECT id FROM dataset WHERE expires_ms <= ?1 AND status != 'loading'")
                    .and_then(|mut s| s.query_map([now_ms as i64], |r| r.get(0))?.collect())
                    .map_err(store_error)?
            };
            for id in &ids {
                inner.remove(id)?;
            }
            Ok(ids)
        })
    }

    fn query<'a>(
        &'a self,
        id: &'a str,
        sql: &'a str,
        policy: QueryPolicy,
    ) -> BoxFuture<'a, Result<QueryResult>> {
        let (id, sql) = (id.to_string(), sql.to_string());
        self.blocking(move |inner| {
            let conn = inner.connection(&id)?;
            let mut guard = lock(&conn);
            query::run(&mut guard, &sql, policy)
        })
    }

    fn describe<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Vec<TableInfo>>> {
        let id = id.to_string();
        self.blocking(move |inner| {
            let conn = inner.connection(&id)?;
            let guard = lock(&conn);
            dataset::describe(&guard)
        })
    }

    fn check<'a>(&'a self, id: &'a str, sql: &'a str) -> BoxFuture<'a, Result<Vec<String>>> {
        let (id, sql) = (id.to_string(), sql.to_string());
        self.blocking(move |inner| {
            let conn = inner.connection(&id)?;
            let mut guard = lock(&conn);
            entrez_mcp_sqlite::authorizer::check(&mut guard, &sql)
        })
    }

    fn save_export<'a>(
        &'a self,
        id: &'a str,
        export: &'a str,
        plan: String,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<()>> {
        let (id, export) = (id.to_string(), export.to_string());
        self.blocking(move |inner| inner.save_export(&id, &export, &plan, now_ms))
    }

    fn load_export<'a>(
        &'a self,
        id: &'a str,
        export: &'a str,
    ) -> BoxFuture<'a, Result<Option<String>>> {
        let (id, export) = (id.to_string(), export.to_string());
        self.blocking(move |inner| inner.load_export(&id, &export))
    }
}

fn gone(id: &str) -> Error {
    Error::new(
        ErrorKind::NotFound,
        format!("Dataset {id} was dropped while it was being staged."),
    )
    .with_code("dataset_not_found")
}
