//! One dataset in one Durable Object: its tables, its catalog row and its alarm, which
//! removes it at expiry and runs each step of a staging the server continues by itself.
//!
//! The object is addressed by the dataset id (128 random bits), so an id
//! names exactly one object and a guessed id finds an empty one, which
//! answers "no such dataset" without creating anything. Its SQLite holds
//! the layout's tables and one bookkeeping row in `entrez_meta`. How a batch
//! is written is told on `append`, how a query runs on `query`.

mod steps;
mod tasks;

use super::do_sql::{self, command, exec, integer, read, reply, transaction};
use entrez_mcp_core::error::{Error, ErrorKind, Result};
use entrez_mcp_core::staging::collect::Collector;
use entrez_mcp_core::staging::guard;
use entrez_mcp_core::staging::guard::QueryPolicy;
use entrez_mcp_core::staging::layouts;
use entrez_mcp_core::staging::limits;
use entrez_mcp_core::staging::rows::SqlValue;
use entrez_mcp_core::staging::scheduler::{in_background, RETAKE_MS};
use entrez_mcp_core::staging::store::{
    Appended, Caps, DatasetInfo, Lease, QueryResult, Status, TableCount, TableInfo, ABANDONED,
    CANCELLED, CANCEL_MARK, MAX_EXPORTS, STALE_LOADING_MS,
};
use entrez_mcp_sqlite::{describe, replica};
use entrez_mcp_wire::{DatasetCommand, WireBatch, WireDataset};
use worker::{durable_object, Date, DurableObject, Env, Request, Response, SqlStorageValue, State};

const META_DDL: &str = "CREATE TABLE entrez_meta (
  id TEXT PRIMARY KEY, owner TEXT NOT NULL, database TEXT NOT NULL, layout TEXT NOT NULL,
  source TEXT NOT NULL, status TEXT NOT NULL, reason TEXT,
  created_ms INTEGER NOT NULL, expires_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL,
  records INTEGER NOT NULL DEFAULT 0, rows INTEGER NOT NULL DEFAULT 0, tables TEXT NOT NULL)";

const EXPORT_DDL: &str = "CREATE TABLE IF NOT EXISTS entrez_export (
  id TEXT PRIMARY KEY, plan TEXT NOT NULL, created_ms INTEGER NOT NULL)";

const META_COLUMNS: &str =
    "id, owner, database, layout, source, status, reason, created_ms, expires_ms, updated_ms, records, rows, tables";

/// The dataset's own catalog row.
struct Meta {
    info: DatasetInfo,
    /// The reason column as stored: while a background staging loads, its cursor.
    reason: Option<String>,
}

/// The Durable Object that holds one dataset.
#[durable_object]
pub struct EntrezDataset {
    state: State,
    env: Env,
}

impl DurableObject for EntrezDataset {
    fn new(state: State, env: Env) -> Self {
        EntrezDataset { state, env }
    }

    async fn fetch(&self, mut req: Request) -> worker::Result<Response> {
        let command: DatasetCommand = match command(&mut req).await {
            Ok(c) => c,
            Err(e) => {
                return reply::<()>(Err(Error::internal(format!("bad dataset command: {e}"))))
            }
        };
        let now = Date::now().as_millis();
        match command {
            DatasetCommand::Create { dataset } => reply(self.create(dataset, now).await),
            DatasetCommand::Append { batch, caps, lease } => reply(self.append(batch, caps, lease)),
            DatasetCommand::Finish { status, lease } => reply(self.finish(status, lease)),
            DatasetCommand::Resume { lease } => reply(self.resume(lease)),
            DatasetCommand::RunStep { after_ms } => reply(self.arm(after_ms as i64).await),
            DatasetCommand::Cancel { now_ms } => reply(self.cancel(now_ms)),
            DatasetCommand::SaveTask { kept } => reply(self.keep(kept, now).await),
            DatasetCommand::LoadTask { now_ms } => reply(self.kept(now_ms)),
            DatasetCommand::Forget => reply(self.forget().await),
            DatasetCommand::Info => reply(self.info(now).await),
            DatasetCommand::Query { sql, policy } => reply(self.query(&sql, policy, now)),
            DatasetCommand::Check { sql } => reply(self.check(&sql)),
            DatasetCommand::Describe => reply(self.describe()),
            DatasetCommand::Drop => reply(self.drop_all().await),
            DatasetCommand::SaveExport {
                export,
                plan,
                now_ms,
            } => reply(self.save_export(&export, plan, now_ms)),
            DatasetCommand::LoadExport { export } => reply(self.load_export(&export)),
        }
    }

    async fn alarm(&self) -> worker::Result<Response> {
        let now = Date::now().as_millis();
        let meta = self.meta().ok().flatten();
        if let Some(m) = meta.as_ref().filter(|m| !m.info.expired(now)) {
            if self.step_due(m, now) {
                return self.step(&m.info.id).await;
            }
        }
        match meta {
            // Written since the alarm was armed, or being staged right now: not yet.
            Some(m) if !m.info.expired(now) => {
                let info = &m.info;
                let next = match (&info.status, m.reason.as_deref()) {
                    // A step the server runs: checked again once it could count as stopped,
                    // from its last write (step_due), so a step that dies after any batch
                    // is taken up two minutes later, not at expiry.
                    (Status::Loading, Some(r)) if in_background(r) => {
                        info.updated_ms.saturating_add(RETAKE_MS + 1_000)
                    }
                    // A caller's staging: checked again once its stager could count as gone.
                    (Status::Loading, _) => info
                        .expires_ms
                        .max(info.updated_ms.saturating_add(STALE_LOADING_MS + 1_000)),
                    _ => info.expires_ms,
                };
                let offset = next.max(now + 1_000).saturating_sub(now) as i64;
                self.state.storage().set_alarm(offset).await?;
                Response::ok("renewed")
            }
            // An object holding only a task's kept entry is woken before it expires to run a
            // call apart from its request (`tasks::calls`); the core finds whether there is one.
            None => match self.kept(now).ok().flatten() {
                Some(kept) => {
                    self.run_in_background(&kept.id, kept.expires_ms - now)
                        .await
                }
                None => self.expire().await,
            },
            // Expiry: the dataset and its bookkeeping go together.
            _ => self.expire().await,
        }
    }
}

impl EntrezDataset {
    async fn expire(&self) -> worker::Result<Response> {
        self.state.storage().delete_all().await?;
        Response::ok("expired")
    }

    /// Arms the alarm `offset_ms` from now (it replaces the one armed, which it comes before:
    /// the alarm that runs then arms the next expiry check itself).
    async fn arm(&self, offset_ms: i64) -> Result<()> {
        self.state
            .storage()
            .set_alarm(offset_ms)
            .await
            .map_err(|e| Error::internal(format!("cannot arm the alarm: {e}")))
    }

    fn sql(&self) -> worker::SqlStorage {
        self.state.storage().sql()
    }

    /// The bookkeeping row, or None for an object that holds no dataset.
    fn meta(&self) -> Result<Option<Meta>> {
        let Some(row) = do_sql::only_row(
            &self.sql(),
            &format!("SELECT {META_COLUMNS} FROM entrez_meta"),
        )?
        else {
            return Ok(None);
        };
        let text = |i: usize| do_sql::text(&row[i]);
        let int = |i: usize| do_sql::unsigned(&row[i]);
        let reason = match &row[6] {
            SqlValue::Text(s) => Some(s.clone()),
            _ => None,
        };
        let stored_reason = reason.clone();
        let pairs: Vec<(String, u64)> =
            entrez_mcp_core::json::from_str(&text(12)).unwrap_or_default();
        Ok(Some(Meta {
            info: DatasetInfo {
                id: text(0),
                owner: text(1),
                database: text(2),
                layout: text(3),
                source: text(4),
                status: Status::from_parts(&text(5), reason),
                created_ms: int(7),
                expires_ms: int(8),
                updated_ms: int(9),
                records: int(10),
                rows: int(11),
                bytes: self.sql().database_size() as u64,
                tables: pairs
                    .into_iter()
                    .map(|(name, rows)| TableCount { name, rows })
                    .collect(),
            },
            reason: stored_reason,
        }))
    }

    fn existing(&self) -> Result<Meta> {
        self.meta()?.ok_or_else(|| {
            Error::new(ErrorKind::NotFound, "This dataset no longer exists.")
                .with_code("dataset_not_found")
                .suggest("Call entrez_data with operation list_datasets to see your datasets.")
        })
    }

    async fn create(&self, d: WireDataset, now: u64) -> Result<()> {
        let layout = layouts::named(&d.layout)?;
        if self.meta()?.is_some() {
            return Err(Error::internal(format!("dataset {} already exists", d.id)));
        }
        let sql = self.sql();
        let tables = layout.empty_counts();
        let tables = serde_json::to_string(&tables).unwrap_or_default();
        let expires_ms = d.expires_ms;
        transaction(&self.state.storage(), move || {
            for statement in layout.table_ddl() {
                exec(&sql, &statement, Vec::new())?;
            }
            exec(&sql, META_DDL, Vec::new())?;
            exec(
                &sql,
                &format!("INSERT INTO entrez_meta ({META_COLUMNS}) VALUES (?, ?, ?, ?, ?, 'loading', NULL, ?, ?, ?, 0, 0, ?)"),
                vec![
                    d.id.into(),
                    d.owner.into(),
                    d.database.into(),
                    d.layout.into(),
                    d.source.into(),
                    SqlStorageValue::Integer(d.created_ms as i64),
                    SqlStorageValue::Integer(d.expires_ms as i64),
                    SqlStorageValue::Integer(now as i64),
                    tables.into(),
                ],
            )?;
            Ok(())
        })?;
        let offset = expires_ms.saturating_sub(now) as i64;
        self.state
            .storage()
            .set_alarm(offset)
            .await
            .map_err(|e| Error::internal(format!("cannot arm the expiry alarm: {e}")))
    }

    /// Appends one batch inside `transactionSync`, so a batch that would break a ceiling, or
    /// fails halfway, leaves no trace. Each table's rows come as JSON texts of up to a
    /// megabyte (`entrez_mcp_wire::WireTable`), and each text is one `INSERT OR IGNORE ...
    /// SELECT ... FROM json_each(?)`: a statement costs the same whatever its row count, and
    /// Durable Object SQL binds at most 100 parameters, so rows bound one value each took
    /// thousands.
    fn append(&self, batch: WireBatch, caps: Caps, lease: Lease) -> Result<Appended> {
        let before = self.existing()?.info;
        let layout = batch.layout()?;
        let sql = self.sql();
        let mut info = before.clone();
        transaction(&self.state.storage(), move || {
            let mut per_table = Vec::with_capacity(batch.tables.len());
            for (table, rows) in layout.tables.iter().zip(batch.tables) {
                if rows.rows == 0 {
                    per_table.push(0u64);
                    continue;
                }
                let changes = integer(&sql, "SELECT total_changes()")?;
                // One statement per chunk of rows, bound as one JSON text: a batch of 500
                // PubMed records is a handful of statements, not thousands.
                let statement = table.insert_json_sql();
                for chunk in rows.chunks {
                    exec(&sql, &statement, vec![chunk.into()])?;
                }
                per_table.push((integer(&sql, "SELECT total_changes()")? - changes) as u64);
            }
            let rows = before.rows + per_table.iter().sum::<u64>();
            if rows > caps.max_rows {
                return Err(limits::too_many_rows(rows, caps.max_rows));
            }
            let bytes = sql.database_size() as u64;
            if bytes > caps.max_bytes {
                return Err(limits::too_many_bytes(bytes, caps.max_bytes));
            }
            let new_records = info.add_batch(layout, &per_table, bytes);
            info.renew(lease);
            let pairs = info.table_pairs();
            exec(
                &sql,
                "UPDATE entrez_meta SET records = ?, rows = ?, tables = ?, updated_ms = ?, expires_ms = ?",
                vec![
                    SqlStorageValue::Integer(info.records as i64),
                    SqlStorageValue::Integer(info.rows as i64),
                    serde_json::to_string(&pairs).unwrap_or_default().into(),
                    SqlStorageValue::Integer(info.updated_ms as i64),
                    SqlStorageValue::Integer(info.expires_ms as i64),
                ],
            )?;
            Ok(Appended { new_records, info })
        })
    }

    fn finish(&self, status: Status, lease: Lease) -> Result<DatasetInfo> {
        let meta = self.existing()?;
        // A staging cancelled while this step ran ends cancelled, whatever the step says, and
        // one cancelled stays so.
        let status = match meta.reason.as_deref() {
            Some(CANCEL_MARK | CANCELLED) if meta.info.status != Status::Complete => {
                Status::Failed(CANCELLED.to_string())
            }
            _ => status,
        };
        let layout = layouts::named(&meta.info.layout)?;
        let sql = self.sql();
        transaction(&self.state.storage(), move || {
            for statement in layout.index_ddl() {
                exec(&sql, &statement, Vec::new())?;
            }
            exec(
                &sql,
                "UPDATE entrez_meta SET status = ?, reason = ?, updated_ms = ?, expires_ms = MAX(expires_ms, ?)",
                vec![
                    status.as_str().into(),
                    status.stored_reason().map(str::to_string).into(),
                    SqlStorageValue::Integer(lease.now_ms as i64),
                    SqlStorageValue::Integer(lease.expires_ms as i64),
                ],
            )?;
            Ok(())
        })?;
        Ok(self.existing()?.info)
    }

    /// A partial dataset taken up again: `loading` from now, its stored position returned.
    /// The object runs one request at a time and nothing here awaits, so it is one step.
    fn resume(&self, lease: Lease) -> Result<Option<String>> {
        let Some(meta) = self.meta()? else {
            return Ok(None);
        };
        let Status::Partial(position) = meta.info.status else {
            return Ok(None);
        };
        exec(
            &self.sql(),
            // The cursor stays while it loads: a step that stops is taken up from it.
            "UPDATE entrez_meta SET status = 'loading', updated_ms = ?, expires_ms = MAX(expires_ms, ?)",
            vec![
                SqlStorageValue::Integer(lease.now_ms as i64),
                SqlStorageValue::Integer(lease.expires_ms as i64),
            ],
        )?;
        Ok(Some(position))
    }

    async fn info(&self, now: u64) -> Result<Option<DatasetInfo>> {
        let Some(meta) = self.meta()? else {
            return Ok(None);
        };
        if meta.info.expired(now) {
            // The alarm is due; do not serve a dataset past its expiry meanwhile.
            self.drop_all().await?;
            return Ok(None);
        }
        if meta.info.abandoned(now) {
            // The Worker request that staged it is gone; never let it look like it might
            // finish. Marking it is no write of its own: the lease it had stands.
            let lease = Lease {
                now_ms: meta.info.updated_ms,
                expires_ms: meta.info.expires_ms,
            };
            return self
                .finish(Status::Failed(ABANDONED.to_string()), lease)
                .map(Some);
        }
        Ok(Some(meta.info))
    }

    /// The replica for this dataset's current schema (indexes exist once staging ended).
    fn replica(&self) -> Result<(rusqlite::Connection, Meta)> {
        let meta = self.existing()?;
        let layout = layouts::named(&meta.info.layout)?;
        let indexed = meta.info.status != Status::Loading;
        Ok((replica::open(layout, indexed)?, meta))
    }

    fn check(&self, sql: &str) -> Result<Vec<String>> {
        let (mut conn, _) = self.replica()?;
        replica::check(&mut conn, sql)
    }

    /// Runs a caller's query. Callers' SQL never reaches this object's SQLite until it has
    /// compiled on a schema replica under the read-only policy (`entrez_mcp_sqlite::replica`).
    /// Durable Object SQL offers no progress handler and the clock does not advance while a
    /// statement runs, so a query's time limit here is the object's CPU limit; the row count,
    /// result size and count cap are enforced as natively.
    fn query(&self, sql: &str, policy: QueryPolicy, started: u64) -> Result<QueryResult> {
        let (mut conn, _) = self.replica()?;
        let columns = replica::check(&mut conn, sql)?;
        let cursor = self
            .sql()
            .exec(sql, None)
            .map_err(|e| guard::sql_error(&upstream_message(&e)))?;
        let mut collected = Collector::new(policy);
        let mut exact = true;
        let mut rows = cursor.raw();
        while let Some(row) = rows.next() {
            let row = row.map_err(|e| guard::sql_error(&upstream_message(&e)))?;
            let more = collected.offer(|| Ok::<_, Error>(row.into_iter().map(read).collect()))?;
            if !more {
                exact = rows.next().is_none();
                break;
            }
        }
        let elapsed_ms = Date::now().as_millis().saturating_sub(started);
        Ok(collected.finish(columns, exact, elapsed_ms))
    }

    fn describe(&self) -> Result<Vec<TableInfo>> {
        let (conn, meta) = self.replica()?;
        describe::tables(&conn, |table| {
            Ok(meta
                .info
                .tables
                .iter()
                .find(|t| t.name == table)
                .map_or(0, |t| t.rows))
        })
    }

    /// Keeps an export's plan in `entrez_export`, a table of the object's own that the schema
    /// replica does not have, so no caller's query can name it; it goes with the dataset.
    fn save_export(&self, export: &str, plan: String, now_ms: u64) -> Result<()> {
        self.existing()?;
        let sql = self.sql();
        exec(&sql, EXPORT_DDL, Vec::new())?;
        exec(
            &sql,
            "DELETE FROM entrez_export WHERE id NOT IN (SELECT id FROM entrez_export ORDER BY created_ms DESC, id LIMIT ?)",
            vec![SqlStorageValue::Integer(MAX_EXPORTS as i64 - 1)],
        )?;
        exec(
            &sql,
            "INSERT OR REPLACE INTO entrez_export (id, plan, created_ms) VALUES (?, ?, ?)",
            vec![
                export.to_string().into(),
                plan.into(),
                SqlStorageValue::Integer(now_ms as i64),
            ],
        )?;
        Ok(())
    }

    /// An export's plan kept here, if any.
    fn load_export(&self, export: &str) -> Result<Option<String>> {
        if self.meta()?.is_none() {
            return Ok(None);
        }
        match do_sql::rows(
            &self.sql(),
            "SELECT plan FROM entrez_export WHERE id = ?",
            vec![export.to_string().into()],
        ) {
            Ok(rows) => Ok(rows.first().map(|r| do_sql::text(&r[0]))),
            Err(e) if e.message.contains("no such table") => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Deletes everything; the owner it had, if it held a dataset.
    async fn drop_all(&self) -> Result<Option<String>> {
        let owner = self.meta()?.map(|m| m.info.owner);
        let storage = self.state.storage();
        let _ = storage.delete_alarm().await;
        storage
            .delete_all()
            .await
            .map_err(|e| Error::internal(format!("cannot delete the dataset: {e}")))?;
        Ok(owner)
    }
}

/// SQLite's own words from a Durable Object error, without the JavaScript wrapping.
fn upstream_message(e: &worker::Error) -> String {
    let text = e.to_string();
    text.trim_start_matches("Error: ")
        .trim_start_matches("SQLITE_ERROR: ")
        .trim_end_matches(": SQLITE_ERROR")
        .to_string()
}
