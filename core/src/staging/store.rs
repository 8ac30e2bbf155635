//! The one trait a storage backend implements, and the data it speaks in.
//!
//! The core decides what a dataset is called, who owns it, which tables it
//! has, what rows go in, when it expires and what a query may do; a backend
//! only keeps SQLite databases. Natively that is rusqlite with one file per
//! dataset (the native crate's `store/`); on Workers it is one Durable Object per
//! dataset (`worker/src/data/`). Methods return boxed futures because the Worker's storage is
//! reached asynchronously; the native backend does its blocking work off the
//! async threads.

use crate::error::Result;
use crate::platform::{BoxFuture, MaybeSendSync};
use crate::staging::guard::QueryPolicy;
use crate::staging::rows::{RowBatch, SqlValue};
use crate::staging::schema::Layout;
use serde::{Deserialize, Serialize};

/// How long a dataset may stay `loading` without a write before its stager is taken to be
/// gone (a crashed process, a Worker request that ended): it is then reported `failed`.
/// One batch is bounded by the client's 60 s deadline, so a live staging writes far oftener.
pub const STALE_LOADING_MS: u64 = 10 * 60 * 1000;

/// Reason recorded for a dataset whose stager went away without finishing it.
pub const ABANDONED: &str = "staging stopped before it finished (the request that staged it ended); it holds only the batches staged before that";

/// Reason recorded for a dataset whose caller cancelled its staging (MCP `tasks/cancel`).
pub const CANCELLED: &str =
    "staging was cancelled by its caller; it holds the batches staged before that";

/// What the reason column holds while a cancelled staging's last step is still running: the
/// step's own end then records [`CANCELLED`], whatever it would have recorded.
pub const CANCEL_MARK: &str = "cancel requested";

/// The time of a write and the expiry it renews the dataset to.
///
/// A dataset lives its lifetime from when it was last written, not from when it was
/// created: every create, append, finish and resume renews it, so a staging that takes
/// longer than the lifetime never loses its dataset, and a finished one stays for a whole
/// lifetime after its last batch. The core decides the expiry; a store only keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lease {
    /// When the write happens, Unix ms.
    pub now_ms: u64,
    /// The expiry it renews the dataset to, Unix ms (never moved earlier).
    pub expires_ms: u64,
}

/// Where a dataset is in its life.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Status {
    /// Batches are still being staged (or a crash interrupted them: see the backend).
    Loading,
    /// Every requested batch was staged.
    Complete,
    /// Staging stopped early; the reason says why. Rows already staged stay queryable.
    Failed(String),
    /// This call's CPU budget was spent before the source was; a later `fetch_and_stage`
    /// with the dataset's id continues from the position stored here (opaque to the store).
    Partial(String),
}

impl Status {
    /// `loading`, `complete` or `failed`.
    pub fn as_str(&self) -> &'static str {
        match self {
            Status::Loading => "loading",
            Status::Complete => "complete",
            Status::Failed(_) => "failed",
            Status::Partial(_) => "partial",
        }
    }

    /// The failure reason, if failed.
    pub fn reason(&self) -> Option<&str> {
        match self {
            Status::Failed(r) => Some(r),
            _ => None,
        }
    }

    /// What a store keeps in its reason column: the failure reason or the partial position.
    pub fn stored_reason(&self) -> Option<&str> {
        match self {
            Status::Failed(r) | Status::Partial(r) => Some(r),
            _ => None,
        }
    }

    /// Rebuilds a status from its stored name and reason.
    pub fn from_parts(name: &str, reason: Option<String>) -> Status {
        match name {
            "complete" => Status::Complete,
            // A cancelled staging reads as ended at once; its running step only ends it.
            "loading" if reason.as_deref() == Some(CANCEL_MARK) => {
                Status::Failed(CANCELLED.to_string())
            }
            "loading" => Status::Loading,
            "partial" => Status::Partial(reason.unwrap_or_default()),
            _ => Status::Failed(reason.unwrap_or_else(|| "unknown".to_string())),
        }
    }
}

/// A dataset about to be created.
#[derive(Debug, Clone)]
pub struct NewDataset {
    /// 32 lowercase hex digits (128 random bits).
    pub id: String,
    /// Who may see it (see `staging::owner_of`).
    pub owner: String,
    /// Entrez database the records come from.
    pub database: String,
    /// The tables it is staged into.
    pub layout: &'static Layout,
    /// What was asked for, e.g. `term "asthma[mh]"` or `12 ids`.
    pub source: String,
    /// Creation time, Unix ms.
    pub created_ms: u64,
    /// Expiry time, Unix ms.
    pub expires_ms: u64,
}

/// Rows in one table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableCount {
    /// Table name.
    pub name: String,
    /// Row count.
    pub rows: u64,
}

/// What the catalog knows about a dataset.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DatasetInfo {
    /// Dataset id.
    pub id: String,
    /// Owner key.
    pub owner: String,
    /// Entrez database.
    pub database: String,
    /// Layout name.
    pub layout: String,
    /// What was asked for.
    pub source: String,
    /// Loading, complete or failed.
    pub status: Status,
    /// Creation time, Unix ms.
    pub created_ms: u64,
    /// Expiry time, Unix ms: a lifetime after the last write.
    pub expires_ms: u64,
    /// Time of the last write (create, append, finish, resume), Unix ms.
    pub updated_ms: u64,
    /// Rows in the primary table.
    pub records: u64,
    /// Rows in all tables.
    pub rows: u64,
    /// Size on disk (or in memory), bytes.
    pub bytes: u64,
    /// Rows per table, in layout order.
    pub tables: Vec<TableCount>,
}

impl DatasetInfo {
    /// Whether the dataset's stager is gone: still `loading`, with no write for
    /// [`STALE_LOADING_MS`]. Such a dataset is reported `failed` with [`ABANDONED`].
    pub fn abandoned(&self, now_ms: u64) -> bool {
        self.status == Status::Loading && now_ms.saturating_sub(self.updated_ms) > STALE_LOADING_MS
    }

    /// Whether expiry removes the dataset at `now_ms`: its lifetime since the last write has
    /// run out, and it is not being staged right now (a live staging is never cut short).
    pub fn expired(&self, now_ms: u64) -> bool {
        self.expires_ms <= now_ms && (self.status != Status::Loading || self.abandoned(now_ms))
    }

    /// Takes a write's lease: written now, expiring no earlier than the lease says.
    pub fn renew(&mut self, lease: Lease) {
        self.updated_ms = lease.now_ms;
        self.expires_ms = self.expires_ms.max(lease.expires_ms);
    }

    /// Counts one appended batch: rows inserted per table (layout order) and the
    /// size after it. Returns the new records, the primary table's new rows.
    pub fn add_batch(&mut self, layout: &Layout, per_table: &[u64], bytes: u64) -> u64 {
        for (t, n) in self.tables.iter_mut().zip(per_table) {
            t.rows += n;
        }
        let primary = layout
            .tables
            .iter()
            .position(|t| t.name == layout.primary)
            .unwrap_or(0);
        let new_records = per_table.get(primary).copied().unwrap_or(0);
        self.records += new_records;
        self.rows += per_table.iter().sum::<u64>();
        self.bytes = bytes;
        new_records
    }

    /// `(table, rows)` pairs, as the catalogs store them.
    pub fn table_pairs(&self) -> Vec<(&str, u64)> {
        self.tables
            .iter()
            .map(|t| (t.name.as_str(), t.rows))
            .collect()
    }
}

/// Ceilings an append must stay under; the append is undone whole if it would not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Caps {
    /// Rows the dataset may hold after the append.
    pub max_rows: u64,
    /// Bytes the dataset may take after the append.
    pub max_bytes: u64,
}

/// The outcome of one append.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Appended {
    /// New rows in the primary table (records already staged do not count).
    pub new_records: u64,
    /// The dataset after the append.
    pub info: DatasetInfo,
}

/// One column of a table as SQLite reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ColumnInfo {
    /// Name.
    pub name: String,
    /// Declared type.
    pub ty: String,
    /// NOT NULL.
    pub not_null: bool,
    /// 1-based position in the primary key; 0 when not part of it.
    pub primary_key: usize,
}

/// A foreign key as SQLite reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForeignKeyInfo {
    /// Columns of the child table.
    pub columns: Vec<String>,
    /// Parent table.
    pub table: String,
    /// Parent columns.
    pub references: Vec<String>,
}

/// An index as SQLite reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndexInfo {
    /// Name (SQLite names the primary key's own index `sqlite_autoindex_...`).
    pub name: String,
    /// Indexed columns.
    pub columns: Vec<String>,
    /// Whether it enforces uniqueness.
    pub unique: bool,
}

/// One table as SQLite reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableInfo {
    /// Table name.
    pub name: String,
    /// Row count.
    pub rows: u64,
    /// Columns in order.
    pub columns: Vec<ColumnInfo>,
    /// Primary key columns in key order.
    pub primary_key: Vec<String>,
    /// Foreign keys.
    pub foreign_keys: Vec<ForeignKeyInfo>,
    /// Secondary indexes.
    pub indexes: Vec<IndexInfo>,
}

/// Rows a query returned.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QueryResult {
    /// Column names.
    pub columns: Vec<String>,
    /// Up to the policy's limit of rows.
    pub rows: Vec<Vec<SqlValue>>,
    /// Rows the query produces in all (a lower bound when `total_exact` is false).
    pub total: u64,
    /// Whether every row was counted.
    pub total_exact: bool,
    /// Whether rows were held back to keep the result under the byte ceiling.
    pub bytes_capped: bool,
    /// Time spent, ms.
    pub elapsed_ms: u64,
}

/// A place to keep datasets: a catalog plus one SQLite database per dataset. (What MCP tasks
/// keep for their callers goes through [`TaskStore`](crate::staging::task_store::TaskStore).)
pub trait DatasetStore: MaybeSendSync {
    /// Creates an empty dataset with the layout's tables, status `loading`.
    /// Fails with `limit_exceeded` when `owner` already holds `max_datasets`.
    fn create<'a>(&'a self, dataset: NewDataset, max_datasets: u64) -> BoxFuture<'a, Result<()>>;

    /// Adds one batch in one transaction; undone whole if it would break `caps`. Renews the
    /// dataset's `lease`.
    fn append<'a>(
        &'a self,
        id: &'a str,
        batch: RowBatch,
        caps: Caps,
        lease: Lease,
    ) -> BoxFuture<'a, Result<Appended>>;

    /// Records the final status (building the secondary indexes), renews the `lease`, and
    /// returns the dataset as it now is.
    fn finish<'a>(
        &'a self,
        id: &'a str,
        status: Status,
        lease: Lease,
    ) -> BoxFuture<'a, Result<DatasetInfo>>;

    /// Takes up a `partial` dataset again: marks it `loading`, renews its `lease` and returns
    /// the position its last call stored, in one step, so two calls cannot both continue it.
    /// `None` when the dataset is not partial (or does not exist).
    fn resume<'a>(&'a self, id: &'a str, lease: Lease) -> BoxFuture<'a, Result<Option<String>>>;

    /// Stops a staging: one waiting between two steps the server continues is marked
    /// failed with [`CANCELLED`] now, one being staged gets [`CANCEL_MARK`] and its step's
    /// end records the same. False when it is neither (ended, or no such dataset).
    fn cancel<'a>(&'a self, id: &'a str, now_ms: u64) -> BoxFuture<'a, Result<bool>>;

    /// One dataset's catalog entry.
    fn get<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<DatasetInfo>>>;

    /// Every dataset of `owner`, newest first.
    fn list<'a>(&'a self, owner: &'a str) -> BoxFuture<'a, Result<Vec<DatasetInfo>>>;

    /// Deletes a dataset; false if there was none.
    fn remove<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<bool>>;

    /// Deletes every dataset [`DatasetInfo::expired`] at `now_ms` and reports abandoned
    /// ones failed; returns the ids deleted.
    fn expire<'a>(&'a self, now_ms: u64) -> BoxFuture<'a, Result<Vec<String>>>;

    /// Runs one read-only query under `policy` (see `staging::guard`).
    fn query<'a>(
        &'a self,
        id: &'a str,
        sql: &'a str,
        policy: QueryPolicy,
    ) -> BoxFuture<'a, Result<QueryResult>>;

    /// Tables, columns, keys, indexes and row counts, as SQLite reports them.
    fn describe<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Vec<TableInfo>>>;

    /// Compiles `sql` against the dataset's schema under the read-only policy
    /// without running it; returns the column names it would produce.
    fn check<'a>(&'a self, id: &'a str, sql: &'a str) -> BoxFuture<'a, Result<Vec<String>>>;

    /// Keeps an export's plan (`crate::export::Export` as JSON) with the dataset, under
    /// `export`; it goes when the dataset goes. Past [`MAX_EXPORTS`] plans, the oldest goes.
    fn save_export<'a>(
        &'a self,
        id: &'a str,
        export: &'a str,
        plan: String,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<()>> {
        let _ = (id, export, plan, now_ms);
        Box::pin(async { Err(no_exports()) })
    }

    /// An export's plan kept with the dataset, if there is one.
    fn load_export<'a>(
        &'a self,
        id: &'a str,
        export: &'a str,
    ) -> BoxFuture<'a, Result<Option<String>>> {
        let _ = (id, export);
        Box::pin(async { Ok(None) })
    }
}

/// Most export plans one dataset keeps.
pub const MAX_EXPORTS: u64 = 32;

/// The error of a store that keeps no exports.
fn no_exports() -> crate::error::Error {
    crate::error::Error::new(
        crate::error::ErrorKind::Unavailable,
        "This server's dataset store keeps no exports.",
    )
    .with_code("store_unavailable")
}
