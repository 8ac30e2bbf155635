//! The Worker's dataset store: Durable Object SQLite, one object per dataset.
//!
//! [`DurableStore`] implements the core's `DatasetStore` by sending
//! `entrez_mcp_wire` commands to three Durable Object classes: one per dataset,
//! one per owner and one for the deployment (see [`DATASET_BINDING`],
//! [`CATALOG_BINDING`] and [`LEDGER_BINDING`]). Expiry needs no sweep here: each
//! dataset's alarm removes it (or, when the dataset was written since, arms
//! itself again for the new expiry), an expired dataset asked for before its
//! alarm fires removes itself, and catalogs, told of each write's renewed
//! expiry, forget entries past it.

use entrez_mcp_core::error::{Error, ErrorKind, Result};
use entrez_mcp_core::platform::BoxFuture;
use entrez_mcp_core::staging::guard::QueryPolicy;
use entrez_mcp_core::staging::ledger::{Account, Allowance, Ledger};
use entrez_mcp_core::staging::rows::RowBatch;
use entrez_mcp_core::staging::store::{
    Appended, Caps, DatasetInfo, DatasetStore, Lease, NewDataset, QueryResult, Status, TableInfo,
};
use entrez_mcp_core::staging::task_store::{StoredTask, TaskStore};
use entrez_mcp_core::staging::{is_dataset_id, Scheduler};
use entrez_mcp_wire::{CatalogCommand, DatasetCommand, LedgerCommand, WireBatch, WireDataset};
use serde::de::DeserializeOwned;
use serde::Serialize;
use worker::{Date, Env, Method, ObjectNamespace, Request, RequestInit};

/// Binding of the per-dataset Durable Object class,
/// [`EntrezDataset`](crate::objects::dataset_object::EntrezDataset): addressed by the
/// dataset id, holding its tables and status, and deleting itself with an alarm when the
/// dataset expires.
pub const DATASET_BINDING: &str = "ENTREZ_DATASET";
/// Binding of the per-owner catalog Durable Object class,
/// [`EntrezCatalog`](crate::objects::catalog_object::EntrezCatalog): holding the ids that
/// owner may list and enforcing the dataset quota.
pub const CATALOG_BINDING: &str = "ENTREZ_CATALOG";

/// Binding of the deployment's ledger Durable Object class,
/// [`EntrezLedger`](crate::objects::ledger_object::EntrezLedger): holding what every
/// identity, anonymous address and the whole deployment may still stage ([`DurableLedger`]
/// is its client).
pub const LEDGER_BINDING: &str = "ENTREZ_LEDGER";

/// The Worker's scheduler: a dataset's next staging step is an alarm of its own Durable Object,
/// with an invocation and a CPU budget of its own (see `objects::dataset_object`).
pub struct DurableCarrier {
    datasets: ObjectNamespace,
}

impl DurableCarrier {
    /// The scheduler behind `ENTREZ_DATASET`, if the deployment declares it.
    pub fn from_env(env: &Env) -> Option<DurableCarrier> {
        Some(DurableCarrier {
            datasets: env.durable_object(DATASET_BINDING).ok()?,
        })
    }
}

impl Scheduler for DurableCarrier {
    fn schedule<'a>(&'a self, id: &'a str, after_ms: u64) -> BoxFuture<'a, Result<()>> {
        Box::pin(async move {
            call::<()>(&self.datasets, id, &DatasetCommand::RunStep { after_ms }).await
        })
    }
}

/// The staging ledger in its Durable Object (which reads the deployment's quotas itself).
pub struct DurableLedger {
    objects: ObjectNamespace,
}

impl DurableLedger {
    /// The ledger behind `ENTREZ_LEDGER`, if the deployment declares it.
    pub fn from_env(env: &Env) -> Option<DurableLedger> {
        Some(DurableLedger {
            objects: env.durable_object(LEDGER_BINDING).ok()?,
        })
    }

    async fn send(&self, command: &LedgerCommand) -> Result<serde_json::Value> {
        call(&self.objects, "deployment", command).await
    }

    async fn allowance_for(&self, command: &LedgerCommand) -> Result<Allowance> {
        let answer = self.send(command).await?;
        Allowance::read(&answer).ok_or_else(|| {
            entrez_mcp_core::error::Error::internal("the ledger's answer is no allowance")
        })
    }
}

impl Ledger for DurableLedger {
    fn admit<'a>(
        &'a self,
        id: &'a str,
        account: &'a Account,
        expires_ms: u64,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<Allowance>> {
        Box::pin(async move {
            self.allowance_for(&LedgerCommand::Admit {
                id: id.to_string(),
                account: account.clone(),
                expires_ms,
                now_ms,
            })
            .await
        })
    }

    fn record<'a>(
        &'a self,
        id: &'a str,
        bytes: u64,
        expires_ms: u64,
        running_until_ms: u64,
    ) -> BoxFuture<'a, Result<()>> {
        Box::pin(async move {
            self.send(&LedgerCommand::Record {
                id: id.to_string(),
                bytes,
                expires_ms,
                running_until_ms,
            })
            .await
            .map(|_| ())
        })
    }

    fn charge_task<'a>(
        &'a self,
        id: &'a str,
        account: &'a Account,
        (bytes, expires_ms, running_until_ms): (u64, u64, u64),
        now_ms: u64,
    ) -> BoxFuture<'a, Result<()>> {
        Box::pin(async move {
            self.send(&LedgerCommand::ChargeTask {
                id: id.to_string(),
                account: account.clone(),
                bytes,
                expires_ms,
                running_until_ms,
                now_ms,
            })
            .await
            .map(|_| ())
        })
    }

    fn release<'a>(&'a self, id: &'a str) -> BoxFuture<'a, ()> {
        Box::pin(async move {
            // A release that does not arrive costs nothing lasting: the entry expires.
            let _ = self
                .send(&LedgerCommand::Release { id: id.to_string() })
                .await;
        })
    }

    fn allowance<'a>(
        &'a self,
        account: &'a Account,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<Allowance>> {
        Box::pin(async move {
            self.allowance_for(&LedgerCommand::Allowance {
                account: account.clone(),
                now_ms,
            })
            .await
        })
    }
}

/// `DatasetStore` and `TaskStore` over Durable Objects.
#[derive(Clone)]
pub struct DurableStore {
    datasets: ObjectNamespace,
    catalogs: ObjectNamespace,
    /// `ENTREZ_STAGING_TRACE=1`: each append and finish logs its statements and round trip.
    trace: bool,
}

impl DurableStore {
    /// The store behind the two bindings, if the deployment declares both.
    pub fn from_env(env: &Env, trace: bool) -> Option<DurableStore> {
        Some(DurableStore {
            datasets: env.durable_object(DATASET_BINDING).ok()?,
            catalogs: env.durable_object(CATALOG_BINDING).ok()?,
            trace,
        })
    }

    async fn dataset<T: DeserializeOwned>(&self, id: &str, command: &DatasetCommand) -> Result<T> {
        call(&self.datasets, id, command).await
    }

    async fn catalog<T: DeserializeOwned>(
        &self,
        owner: &str,
        command: &CatalogCommand,
    ) -> Result<T> {
        call(&self.catalogs, owner, command).await
    }
}

impl DurableStore {
    /// Tells the owner's catalog how long a dataset now lives, so that listing and the
    /// per-owner quota follow its lifetime from the last write.
    async fn renew(&self, info: &DatasetInfo) -> Result<()> {
        self.catalog::<()>(
            &info.owner,
            &CatalogCommand::Renew {
                id: info.id.clone(),
                expires_ms: info.expires_ms,
            },
        )
        .await
    }
}

/// Sends one command to the object named `name` and decodes its `Result`.
async fn call<T: DeserializeOwned>(
    namespace: &ObjectNamespace,
    name: &str,
    command: &impl Serialize,
) -> Result<T> {
    let body = entrez_mcp_wire::to_wire(command)?;
    // One boxed exchange for every command and reply type: each instantiation of this
    // function keeps only its own (de)serialization, not a copy of the round trip.
    let text = Box::pin(exchange(namespace, name, body)).await?;
    entrez_mcp_core::json::from_str::<std::result::Result<T, Error>>(&text)
        .map_err(|e| unreachable(format!("answered something unreadable ({e}): {text:.200}")))?
}

/// Why the store could not be reached, as the caller sees it.
fn unreachable(what: String) -> Error {
    Error::new(
        ErrorKind::Unavailable,
        format!("The dataset store (Durable Object) {what}."),
    )
    .suggest("Retry in a moment; staged datasets are kept.")
}

/// Sends one command's JSON to the object `name` and returns its reply's text.
async fn exchange(namespace: &ObjectNamespace, name: &str, body: String) -> Result<String> {
    let mut init = RequestInit::new();
    init.with_method(Method::Post).with_body(Some(body.into()));
    let request = Request::new_with_init("https://entrez-data.internal/", &init)
        .map_err(|e| unreachable(format!("request could not be built: {e}")))?;
    let stub = namespace
        .id_from_name(name)
        .and_then(|id| id.get_stub())
        .map_err(|e| unreachable(format!("could not be addressed: {e}")))?;
    let mut reply = stub
        .fetch_with_request(request)
        .await
        .map_err(|e| unreachable(format!("did not answer: {e}")))?;
    reply
        .text()
        .await
        .map_err(|e| unreachable(format!("broke off: {e}")))
}

fn not_found(id: &str) -> Error {
    Error::new(ErrorKind::NotFound, format!("no dataset {id}")).with_code("dataset_not_found")
}

impl TaskStore for DurableStore {
    fn save<'a>(&'a self, kept: StoredTask) -> BoxFuture<'a, Result<()>> {
        Box::pin(async move {
            let id = kept.id.clone();
            let note = CatalogCommand::SaveTask {
                id: id.clone(),
                created_ms: kept.created_ms,
                expires_ms: kept.expires_ms,
            };
            let oldest: Vec<String> = self.catalog(&kept.owner, &note).await?;
            // One at a time: past the ceiling, each new result pushes one old one out.
            for old in oldest {
                let _ = self.dataset::<()>(&old, &DatasetCommand::Forget).await;
            }
            self.dataset(&id, &DatasetCommand::SaveTask { kept }).await
        })
    }

    fn load<'a>(&'a self, id: &'a str, now_ms: u64) -> BoxFuture<'a, Result<Option<StoredTask>>> {
        Box::pin(async move {
            if !is_dataset_id(id) {
                return Ok(None);
            }
            self.dataset(id, &DatasetCommand::LoadTask { now_ms }).await
        })
    }
}

impl DatasetStore for DurableStore {
    fn create<'a>(&'a self, d: NewDataset, max_datasets: u64) -> BoxFuture<'a, Result<()>> {
        Box::pin(async move {
            self.catalog::<()>(
                &d.owner,
                &CatalogCommand::Reserve {
                    id: d.id.clone(),
                    expires_ms: d.expires_ms,
                    max_datasets,
                    now_ms: d.created_ms,
                },
            )
            .await?;
            let made = self
                .dataset::<()>(
                    &d.id,
                    &DatasetCommand::Create {
                        dataset: WireDataset::from(&d),
                    },
                )
                .await;
            if made.is_err() {
                let _ = self
                    .catalog::<()>(&d.owner, &CatalogCommand::Release { id: d.id.clone() })
                    .await;
            }
            made
        })
    }

    fn append<'a>(
        &'a self,
        id: &'a str,
        batch: RowBatch,
        caps: Caps,
        lease: Lease,
    ) -> BoxFuture<'a, Result<Appended>> {
        Box::pin(async move {
            let batch = WireBatch::of(&batch)?;
            let (rows, statements) = batch
                .tables
                .iter()
                .fold((0, 0), |(r, s), t| (r + t.rows, s + t.chunks.len()));
            let command = DatasetCommand::Append { batch, caps, lease };
            let started = Date::now().as_millis();
            let appended: Appended = self.dataset(id, &command).await?;
            let written = Date::now().as_millis();
            self.renew(&appended.info).await?;
            if self.trace {
                worker::console_log!(
                    "staging trace: append {rows} rows in {statements} statements: dataset object {} ms, catalog {} ms",
                    written - started,
                    Date::now().as_millis() - written
                );
            }
            Ok(appended)
        })
    }

    fn finish<'a>(
        &'a self,
        id: &'a str,
        status: Status,
        lease: Lease,
    ) -> BoxFuture<'a, Result<DatasetInfo>> {
        Box::pin(async move {
            let started = Date::now().as_millis();
            let info: DatasetInfo = self
                .dataset(id, &DatasetCommand::Finish { status, lease })
                .await?;
            if self.trace {
                worker::console_log!(
                    "staging trace: finish (indexes) {} ms",
                    Date::now().as_millis() - started
                );
            }
            self.renew(&info).await?;
            Ok(info)
        })
    }

    fn resume<'a>(&'a self, id: &'a str, lease: Lease) -> BoxFuture<'a, Result<Option<String>>> {
        Box::pin(async move {
            if !is_dataset_id(id) {
                return Ok(None);
            }
            self.dataset(id, &DatasetCommand::Resume { lease }).await
        })
    }

    fn cancel<'a>(&'a self, id: &'a str, now_ms: u64) -> BoxFuture<'a, Result<bool>> {
        Box::pin(async move {
            if !is_dataset_id(id) {
                return Ok(false);
            }
            self.dataset(id, &DatasetCommand::Cancel { now_ms }).await
        })
    }

    fn get<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<DatasetInfo>>> {
        Box::pin(async move {
            if !is_dataset_id(id) {
                return Ok(None);
            }
            self.dataset(id, &DatasetCommand::Info).await
        })
    }

    fn list<'a>(&'a self, owner: &'a str) -> BoxFuture<'a, Result<Vec<DatasetInfo>>> {
        Box::pin(async move {
            let now_ms = Date::now().as_millis();
            let ids: Vec<String> = self
                .catalog(owner, &CatalogCommand::List { now_ms })
                .await?;
            let infos = futures_util::future::join_all(ids.iter().map(|id| self.get(id))).await;
            let mut out = Vec::new();
            for (id, info) in ids.iter().zip(infos) {
                match info? {
                    Some(info) if info.owner == owner => out.push(info),
                    // Expired or dropped behind the catalog's back: forget it.
                    _ => {
                        let _ = self
                            .catalog::<()>(owner, &CatalogCommand::Release { id: id.clone() })
                            .await;
                    }
                }
            }
            out.sort_by(|a, b| b.created_ms.cmp(&a.created_ms).then(a.id.cmp(&b.id)));
            Ok(out)
        })
    }

    fn remove<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<bool>> {
        Box::pin(async move {
            if !is_dataset_id(id) {
                return Ok(false);
            }
            let owner: Option<String> = self.dataset(id, &DatasetCommand::Drop).await?;
            if let Some(owner) = &owner {
                self.catalog::<()>(owner, &CatalogCommand::Release { id: id.to_string() })
                    .await?;
            }
            Ok(owner.is_some())
        })
    }

    fn expire<'a>(&'a self, _now_ms: u64) -> BoxFuture<'a, Result<Vec<String>>> {
        // Each dataset's own alarm expires it; there is nothing to sweep.
        Box::pin(async { Ok(Vec::new()) })
    }

    fn query<'a>(
        &'a self,
        id: &'a str,
        sql: &'a str,
        policy: QueryPolicy,
    ) -> BoxFuture<'a, Result<QueryResult>> {
        Box::pin(async move {
            if !is_dataset_id(id) {
                return Err(not_found(id));
            }
            let command = DatasetCommand::Query {
                sql: sql.to_string(),
                policy,
            };
            self.dataset(id, &command).await
        })
    }

    fn describe<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Vec<TableInfo>>> {
        Box::pin(async move {
            if !is_dataset_id(id) {
                return Err(not_found(id));
            }
            self.dataset(id, &DatasetCommand::Describe).await
        })
    }

    fn check<'a>(&'a self, id: &'a str, sql: &'a str) -> BoxFuture<'a, Result<Vec<String>>> {
        Box::pin(async move {
            if !is_dataset_id(id) {
                return Err(not_found(id));
            }
            let command = DatasetCommand::Check {
                sql: sql.to_string(),
            };
            self.dataset(id, &command).await
        })
    }

    fn save_export<'a>(
        &'a self,
        id: &'a str,
        export: &'a str,
        plan: String,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<()>> {
        Box::pin(async move {
            if !is_dataset_id(id) {
                return Err(not_found(id));
            }
            let command = DatasetCommand::SaveExport {
                export: export.to_string(),
                plan,
                now_ms,
            };
            self.dataset(id, &command).await
        })
    }

    fn load_export<'a>(
        &'a self,
        id: &'a str,
        export: &'a str,
    ) -> BoxFuture<'a, Result<Option<String>>> {
        Box::pin(async move {
            if !is_dataset_id(id) {
                return Ok(None);
            }
            let command = DatasetCommand::LoadExport {
                export: export.to_string(),
            };
            self.dataset(id, &command).await
        })
    }
}
