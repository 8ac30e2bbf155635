//! NCBI, PubChem and the Durable Objects as stand-ins that answer at once from memory, for the
//! start-up rehearsal ([`crate::rehearse`]) and the Worker's CPU benchmark (`cpu_bench`). The datasets'
//! store still encodes every append as the Worker does, so staging runs the Worker's own code
//! minus the waiting.

use entrez_mcp_core::error::{Error, Result};
use entrez_mcp_core::net::pacing::{Grant, Pacer};
use entrez_mcp_core::net::{HttpCall, HttpReply, Transport};
use entrez_mcp_core::platform::BoxFuture;
use entrez_mcp_core::staging::guard::QueryPolicy;
use entrez_mcp_core::staging::rows::RowBatch;
use entrez_mcp_core::staging::store::{
    Appended, Caps, ColumnInfo, DatasetInfo, DatasetStore, Lease, NewDataset, QueryResult, Status,
    TableCount, TableInfo,
};
use entrez_mcp_core::staging::task_store::{StoredTask, TaskStore};
use entrez_mcp_core::staging::Scheduler;
use entrez_mcp_wire::{DatasetCommand, WireBatch};
use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll, Waker};

/// A PubMed esummary reply for the rehearsal's summaries, in NCBI's JSON form.
const ESUMMARY: &str = r#"{"header":{"type":"esummary","version":"0.3"},"result":{"uids":["12091962"],"12091962":{"uid":"12091962","pubdate":"1990 Spring","epubdate":"","source":"Soc Justice","authors":[{"name":"Olivero JM","authtype":"Author","clusterid":""}],"lastauthor":"Olivero JM","title":"The treatment of AIDS behind the walls of correctional facilities.","volume":"17","issue":"1","pages":"113-25","lang":["eng"],"issn":"1043-1578","pubtype":["Journal Article","Review"],"articleids":[{"idtype":"pubmed","idtypen":1,"value":"12091962"}],"fulljournalname":"Social justice (San Francisco, Calif.)","sortpubdate":"1990/03/01 00:00"}}}"#;

/// The steps the server asked for, in order (on Workers, alarms of datasets' Durable Objects).
#[derive(Clone, Default)]
pub struct Steps(Arc<Mutex<VecDeque<String>>>);

impl Steps {
    /// The next step asked for, first asked first.
    pub fn next(&self) -> Option<String> {
        lock(&self.0).pop_front()
    }
}

impl Scheduler for Steps {
    fn schedule<'a>(&'a self, id: &'a str, _after_ms: u64) -> BoxFuture<'a, Result<()>> {
        lock(&self.0).push_back(id.to_string());
        Box::pin(async { Ok(()) })
    }
}

/// `batch` as the Worker's append command to a dataset's Durable Object, encoded.
pub fn append_command(batch: &RowBatch) -> Vec<u8> {
    let command = DatasetCommand::Append {
        batch: WireBatch::of(batch).unwrap_or_else(|_| WireBatch {
            layout: String::new(),
            records: 0,
            tables: Vec::new(),
        }),
        caps: Caps {
            max_rows: u64::MAX,
            max_bytes: u64::MAX,
        },
        lease: Lease {
            now_ms: 0,
            expires_ms: u64::MAX,
        },
    };
    entrez_mcp_wire::to_wire(&command)
        .map(String::into_bytes)
        .unwrap_or_default()
}

/// A lock whose holder never panics midway (or, if one did, whose data is still whole).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The most times [`run_now`] polls a future: one that is still not done waits on something
/// no stand-in answers, and is dropped.
const MOST_POLLS: u32 = 10_000;

/// Runs a future whose every step is ready at once (no stand-in here ever waits); None when
/// it is still pending after [`MOST_POLLS`] polls.
pub fn run_now<F: Future>(future: F) -> Option<F::Output> {
    let mut future = std::pin::pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    for _ in 0..MOST_POLLS {
        if let Poll::Ready(out) = future.as_mut().poll(&mut cx) {
            return Some(out);
        }
    }
    None
}

/// A pacer that never makes anyone wait.
pub struct NoWait;

impl Pacer for NoWait {
    fn reserve<'a>(&'a self, _: &'a str, _: u32, now: u64, _: u64) -> BoxFuture<'a, Result<Grant>> {
        Box::pin(async move { Ok(Grant::unpaced(now)) })
    }
}

/// NCBI and PubChem from memory: an efetch reply holds as many articles as the request asks
/// for, cycling through `templates`; every search answers `esearch`.
pub struct Upstream {
    templates: Vec<String>,
    esearch: Vec<u8>,
    // Replies by size, built once: building them is not the Worker's work.
    replies: Mutex<HashMap<usize, Vec<u8>>>,
}

impl Upstream {
    /// An upstream whose efetch replies cycle through the `<PubmedArticle>` elements of
    /// `articles` and whose searches answer `esearch`.
    pub fn new(articles: &str, esearch: Vec<u8>) -> Upstream {
        let templates = articles
            .split("</PubmedArticle>")
            .filter(|a| a.contains("<PubmedArticle>"))
            .map(|a| format!("{}</PubmedArticle>", a.trim()))
            .collect();
        Upstream {
            templates,
            esearch,
            replies: Mutex::new(HashMap::new()),
        }
    }

    fn efetch(&self, asked: usize) -> Vec<u8> {
        let mut replies = lock(&self.replies);
        let reply = replies.entry(asked).or_insert_with(|| {
            let mut out = String::from("<?xml version=\"1.0\" ?>\n<PubmedArticleSet>\n");
            for a in self.templates.iter().cycle().take(asked) {
                out.push_str(a);
                out.push('\n');
            }
            out.push_str("</PubmedArticleSet>\n");
            out.into_bytes()
        });
        reply.clone()
    }
}

/// How many records a request asks for: its `retmax`, or its ids.
fn asked_for(call: &HttpCall) -> usize {
    let body = call
        .body
        .as_deref()
        .map(String::from_utf8_lossy)
        .unwrap_or_default();
    let query = call.url.split_once('?').map_or("", |(_, q)| q);
    let params = query.split('&').chain(body.split('&'));
    let mut retmax = None;
    let mut ids = None;
    for p in params {
        if let Some(v) = p.strip_prefix("retmax=") {
            retmax = v.parse().ok();
        } else if let Some(v) = p.strip_prefix("id=") {
            ids = Some(v.split("%2C").flat_map(|s| s.split(',')).count());
        }
    }
    retmax.or(ids).unwrap_or(1)
}

/// PubChem's answer to a property lookup of aspirin (CID 2244), as PUG REST writes it.
pub const PUBCHEM_PROPERTIES: &str = r#"{"PropertyTable":{"Properties":[{"CID":2244,"MolecularFormula":"C9H8O4","MolecularWeight":"180.16","ConnectivitySMILES":"CC(=O)OC1=CC=CC=C1C(=O)O","SMILES":"CC(=O)OC1=CC=CC=C1C(=O)O","InChI":"InChI=1S/C9H8O4/c1-6(10)13-8-5-3-2-4-7(8)9(11)12/h2-5H,1H3,(H,11,12)","InChIKey":"BSYNRYMUTXBXSQ-UHFFFAOYSA-N","IUPACName":"2-acetyloxybenzoic acid","Title":"Aspirin","XLogP":1.2,"TPSA":63.6,"HBondDonorCount":1,"HBondAcceptorCount":4}]}}"#;

impl Transport for Upstream {
    fn send<'a>(&'a self, call: HttpCall) -> BoxFuture<'a, Result<HttpReply>> {
        let body = if call.url.contains("esearch") {
            self.esearch.clone()
        } else if call.url.contains("esummary") {
            ESUMMARY.as_bytes().to_vec()
        } else if call.url.contains("/rest/pug/") {
            PUBCHEM_PROPERTIES.as_bytes().to_vec()
        } else {
            self.efetch(asked_for(&call))
        };
        Box::pin(async move {
            Ok(HttpReply {
                status: 200,
                headers: vec![("content-type".into(), "text/xml".into())],
                body,
            })
        })
    }
    fn sleep<'a>(&'a self, _ms: u64) -> BoxFuture<'a, ()> {
        Box::pin(async {})
    }
}

/// The Durable Objects from memory: every append is encoded as the Worker encodes it.
#[derive(Default, Clone)]
pub struct Objects {
    datasets: Arc<Mutex<HashMap<String, DatasetInfo>>>,
}

impl TaskStore for Objects {
    fn save<'a>(&'a self, _: StoredTask) -> BoxFuture<'a, Result<()>> {
        Box::pin(async { Err(Error::internal("the stand-ins keep no task results")) })
    }

    fn load<'a>(&'a self, _: &'a str, _: u64) -> BoxFuture<'a, Result<Option<StoredTask>>> {
        Box::pin(async { Ok(None) })
    }
}

impl DatasetStore for Objects {
    fn create<'a>(&'a self, d: NewDataset, _max: u64) -> BoxFuture<'a, Result<()>> {
        let info = DatasetInfo {
            id: d.id.clone(),
            owner: d.owner,
            database: d.database,
            layout: d.layout.name.to_string(),
            source: d.source,
            status: Status::Loading,
            created_ms: d.created_ms,
            expires_ms: d.expires_ms,
            updated_ms: d.created_ms,
            records: 0,
            rows: 0,
            bytes: 0,
            tables: d
                .layout
                .empty_counts()
                .into_iter()
                .map(|(name, rows)| TableCount {
                    name: name.to_string(),
                    rows,
                })
                .collect(),
        };
        lock(&self.datasets).insert(d.id, info);
        Box::pin(async { Ok(()) })
    }

    fn append<'a>(
        &'a self,
        id: &'a str,
        batch: RowBatch,
        _caps: Caps,
        lease: Lease,
    ) -> BoxFuture<'a, Result<Appended>> {
        let command = append_command(&batch);
        let per_table: Vec<u64> = batch.tables.iter().map(|t| t.len() as u64).collect();
        let mut datasets = lock(&self.datasets);
        let result = match datasets.get_mut(id) {
            Some(info) => {
                let bytes = info.bytes + command.len() as u64;
                let new_records = info.add_batch(batch.layout, &per_table, bytes);
                info.renew(lease);
                // The Worker reads the object's answer back: the dataset's entry.
                let answer = serde_json::to_vec(&*info).unwrap_or_default();
                let info: DatasetInfo = serde_json::from_slice(&answer).unwrap_or(info.clone());
                Ok(Appended { new_records, info })
            }
            None => Err(Error::internal("no such dataset")),
        };
        Box::pin(async move { result })
    }

    fn finish<'a>(
        &'a self,
        id: &'a str,
        status: Status,
        lease: Lease,
    ) -> BoxFuture<'a, Result<DatasetInfo>> {
        let result = match lock(&self.datasets).get_mut(id) {
            Some(info) => {
                info.status = status;
                info.renew(lease);
                Ok(info.clone())
            }
            None => Err(Error::internal("no such dataset")),
        };
        Box::pin(async move { result })
    }

    fn resume<'a>(&'a self, id: &'a str, lease: Lease) -> BoxFuture<'a, Result<Option<String>>> {
        let mut datasets = lock(&self.datasets);
        let taken = match datasets.get_mut(id) {
            Some(info) => match std::mem::replace(&mut info.status, Status::Loading) {
                Status::Partial(position) => {
                    info.renew(lease);
                    Some(position)
                }
                other => {
                    info.status = other;
                    None
                }
            },
            None => None,
        };
        Box::pin(async move { Ok(taken) })
    }

    // Tasks are not what the stand-ins are for.
    fn cancel<'a>(&'a self, _: &'a str, _: u64) -> BoxFuture<'a, Result<bool>> {
        Box::pin(async { Ok(false) })
    }

    fn get<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<DatasetInfo>>> {
        let info = lock(&self.datasets).get(id).cloned();
        Box::pin(async move { Ok(info) })
    }

    fn list<'a>(&'a self, owner: &'a str) -> BoxFuture<'a, Result<Vec<DatasetInfo>>> {
        let mine = lock(&self.datasets)
            .values()
            .filter(|d| d.owner == owner)
            .cloned()
            .collect();
        Box::pin(async move { Ok(mine) })
    }

    fn remove<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<bool>> {
        let removed = lock(&self.datasets).remove(id).is_some();
        Box::pin(async move { Ok(removed) })
    }

    fn expire<'a>(&'a self, _now_ms: u64) -> BoxFuture<'a, Result<Vec<String>>> {
        Box::pin(async { Ok(Vec::new()) })
    }

    // A dataset's SQL runs in its Durable Object (its own CPU limit): here, the answers come
    // back through the wire as the object's would, and hold nothing.
    fn query<'a>(
        &'a self,
        _: &'a str,
        sql: &'a str,
        _: QueryPolicy,
    ) -> BoxFuture<'a, Result<QueryResult>> {
        let answer = QueryResult {
            columns: vec![sql.chars().take(16).collect()],
            rows: Vec::new(),
            total: 0,
            total_exact: true,
            bytes_capped: false,
            elapsed_ms: 0,
        };
        Box::pin(async move { through_the_wire(&answer) })
    }

    fn describe<'a>(&'a self, _: &'a str) -> BoxFuture<'a, Result<Vec<TableInfo>>> {
        let tables = vec![TableInfo {
            name: "article".into(),
            rows: 0,
            columns: vec![ColumnInfo {
                name: "pmid".into(),
                ty: "INTEGER".into(),
                not_null: true,
                primary_key: 1,
            }],
            primary_key: vec!["pmid".into()],
            foreign_keys: Vec::new(),
            indexes: Vec::new(),
        }];
        Box::pin(async move { through_the_wire(&tables) })
    }

    fn check<'a>(&'a self, _: &'a str, _: &'a str) -> BoxFuture<'a, Result<Vec<String>>> {
        Box::pin(async { Ok(vec!["pmid".to_string()]) })
    }
}

/// `answer` encoded and decoded as a Durable Object's answer is.
fn through_the_wire<T: serde::Serialize + serde::de::DeserializeOwned>(answer: &T) -> Result<T> {
    let bad = |e: serde_json::Error| Error::internal(e.to_string());
    let text = serde_json::to_string(&Ok::<&T, Error>(answer)).map_err(bad)?;
    entrez_mcp_core::json::from_str::<std::result::Result<T, Error>>(&text).map_err(bad)?
}
