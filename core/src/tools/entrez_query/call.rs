//! One `entrez_query` call, read once into a typed value.
//!
//! The intake ([`crate::framework::intake`]) has already turned what the caller
//! sent into the schema's canonical arguments, read into [`QueryArgs`];
//! [`QueryCall::of`] turns those into the call that runs, every default in place.
//! The plan builds requests from this value, the operations run it, and
//! `validate` shows it, serialized, as `normalized_arguments`: what `validate`
//! shows is what is sent, because it is the same value. Parameters an operation
//! does not use are not part of its variant, so they cannot reach NCBI; the
//! semantic rules warn about them (`ignored_parameter`).

use crate::entrez::databases;
use crate::framework::view::View;
use crate::tools::entrez_query::args::QueryArgs;
use crate::tools::entrez_query::plan;
use crate::tools::entrez_query::plan::Format;
use serde::Serialize;
use serde_json::Value;

/// Default cap on records parsed into one result.
pub const DEFAULT_MAX_RECORDS: usize = 50;

/// A typed `entrez_query` call; serialized, it is `validate`'s `normalized_arguments`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "operation", rename_all = "snake_case")]
pub enum QueryCall {
    /// einfo.
    Info(Info),
    /// esearch.
    Search(Search),
    /// esummary.
    Summary(Summary),
    /// efetch.
    Fetch(Fetch),
    /// elink.
    Link(Link),
    /// epost.
    Post(Post),
    /// One count-only esearch per database.
    GlobalQuery(GlobalQuery),
    /// Records per publication year of a term, one count-only esearch per year, drawn as a chart.
    CountByYear(CountByYear),
    /// espell.
    Spell(Spell),
    /// ecitmatch.
    CitationMatch(CitationMatch),
    /// A reference list checked against PubMed.
    CheckReferences(CheckReferences),
    /// Who cites each PMID and what it cites, with its metrics (iCite, elink behind it).
    Citations(CitationsCall),
}

/// `citations`: PubMed ids, each read by the operation (a non-PMID answered invalid).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CitationsCall {
    /// The PMIDs, as given.
    pub ids: Vec<String>,
    /// The result's budget.
    #[serde(skip)]
    pub view: View,
}

/// A reference list checked against PubMed (`references`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckReferences {
    /// The references, each read at the door.
    pub references: Vec<crate::tools::entrez_query::references::input::Reference>,
    /// The result's budget.
    #[serde(skip)]
    pub view: View,
}

/// einfo: every database, or one database's fields and links.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Info {
    /// The database described; none lists every database.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub database: Option<String>,
    /// XML or JSON.
    pub retmode: ReplyMode,
    /// 2.0 (this server's choice for one database's XML) or 1.0 (NCBI's default, no `version` sent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<Version>,
}

/// XML or JSON, for the utilities that offer both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ReplyMode {
    /// XML.
    Xml,
    /// JSON.
    Json,
}

/// The XML version einfo and esummary answer in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Version {
    /// NCBI's default: no `version` parameter.
    #[serde(rename = "1.0")]
    V1,
    /// `version=2.0`.
    #[serde(rename = "2.0")]
    V2,
}

/// How elink answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LinkMode {
    /// XML (the default, and the only form of every command's reply).
    Xml,
    /// JSON.
    Json,
    /// prlinks: a redirect to the provider's page, reported as its URL.
    Ref,
}

/// Date limits shared by esearch and elink.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Dates {
    /// Which date field the limits apply to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub datetype: Option<String>,
    /// Start of the range, YYYY[/MM[/DD]].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mindate: Option<String>,
    /// End of the range.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub maxdate: Option<String>,
    /// Only records from the last this many days.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reldate: Option<u64>,
}

/// esearch.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Search {
    /// The database searched.
    pub database: String,
    /// The Entrez query.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub term: Option<String>,
    /// A history set to search within or add to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub webenv: Option<String>,
    /// The history set's key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query_key: Option<u64>,
    /// Limits the term to one field.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// Sort order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sort: Option<String>,
    /// Date limits.
    #[serde(flatten)]
    pub dates: Dates,
    /// Index of the first id returned.
    pub retstart: u64,
    /// How many ids are returned.
    pub retmax: u64,
    /// Whether the result is kept on the history server.
    pub usehistory: bool,
    /// PubMed: whether a second search counts the retracted matches (off by default: one
    /// request per search; summaries and records carry each record's flags).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub check_retractions: bool,
    /// `acc`: accessions instead of UIDs (sequence databases).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub idtype: Option<String>,
    /// `uilist` (NCBI's default) or `count`, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rettype: Option<String>,
    /// XML (NCBI's default) or JSON.
    pub retmode: ReplyMode,
}

impl Search {
    /// The first `retmax` ids of `term` in `database`, as XML, with nothing else set: the
    /// searches the server makes on its own behalf (a reference's candidates).
    pub fn ids_of(database: &str, term: String, retmax: u64) -> Search {
        Search {
            database: database.into(),
            term: Some(term),
            webenv: None,
            query_key: None,
            field: None,
            sort: None,
            dates: Default::default(),
            retstart: 0,
            retmax,
            usehistory: false,
            check_retractions: false,
            idtype: None,
            rettype: None,
            retmode: ReplyMode::Xml,
        }
    }
}

/// The records a summary, fetch or link is about.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Records {
    /// Ids listed in the call.
    Ids {
        /// The ids, trimmed, in the order given.
        ids: Vec<String>,
    },
    /// A set on NCBI's history server.
    History {
        /// The history environment.
        webenv: String,
        /// The set's key.
        query_key: u64,
        /// First record of the page (summary and fetch).
        #[serde(skip_serializing_if = "Option::is_none")]
        retstart: Option<u64>,
        /// Records in the page (summary and fetch).
        #[serde(skip_serializing_if = "Option::is_none")]
        retmax: Option<u64>,
    },
}

impl Records {
    /// The ids, when the call lists them.
    pub fn ids(&self) -> &[String] {
        match self {
            Records::Ids { ids } => ids,
            Records::History { .. } => &[],
        }
    }
}

/// esummary.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// The database.
    pub database: String,
    /// Ids or a history page.
    #[serde(flatten)]
    pub records: Records,
    /// JSON (this server's default: per-id errors) or XML.
    pub retmode: ReplyMode,
    /// XML only: 2.0 (the default here) or 1.0 (NCBI's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<Version>,
    /// Most summaries parsed into the result.
    pub max_records: usize,
    /// How much of each summary, and the result's budget.
    #[serde(skip)]
    pub view: View,
}

/// efetch.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fetch {
    /// The database.
    pub database: String,
    /// Ids or a history page (at most 500 records).
    #[serde(flatten)]
    pub records: Records,
    /// The rettype sent, when one is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rettype: Option<String>,
    /// The retmode sent.
    pub retmode: String,
    /// Most records parsed into the result.
    pub max_records: usize,
    /// How much of each record, and the result's budget.
    #[serde(skip)]
    pub view: View,
    /// Sequence databases: the part of each sequence returned.
    #[serde(flatten)]
    pub region: Region,
    /// How the reply is read.
    #[serde(skip)]
    pub format: Format,
}

/// EFetch's sequence-only parameters (NBK25499, EFetch: optional parameters, sequence databases).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Region {
    /// First base or residue, 1-based.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seq_start: Option<u64>,
    /// Last base or residue, inclusive.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seq_stop: Option<u64>,
    /// 1 plus strand, 2 minus strand.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strand: Option<u64>,
    /// How much of the record's blob: 0 to 4.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub complexity: Option<u64>,
}

/// elink.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Link {
    /// The source database.
    pub dbfrom: String,
    /// The target database (neighbor commands only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub database: Option<String>,
    /// The elink command.
    pub cmd: String,
    /// One link name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub linkname: Option<String>,
    /// An Entrez query limiting the linked records.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub term: Option<String>,
    /// Ids or a history set.
    #[serde(flatten)]
    pub records: Records,
    /// Date limits on the linked records.
    #[serde(flatten)]
    pub dates: Dates,
    /// XML, JSON or (prlinks) ref.
    pub retmode: LinkMode,
    /// `acc`: accessions instead of UIDs in the links.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub idtype: Option<String>,
    /// llinks/llinkslib: one LinkOut provider.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub holding: Option<String>,
    /// Each id as its own `id=` parameter: one link set per id.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub by_id: bool,
}

/// epost.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Post {
    /// The database.
    pub database: String,
    /// The ids posted.
    pub ids: Vec<String>,
    /// An existing history to add the ids to (a new query_key in it), instead of a new one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub webenv: Option<String>,
}

/// Counts of one term across databases.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GlobalQuery {
    /// The Entrez query.
    pub term: String,
    /// The databases counted in.
    pub databases: Vec<String>,
}

/// Records per publication year of a term.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CountByYear {
    /// The database counted in.
    pub database: String,
    /// The Entrez query.
    pub term: String,
    /// The first year (mindate), when it is a year.
    pub from: Option<u32>,
    /// The last year (maxdate), when it is a year.
    pub to: Option<u32>,
}

/// espell.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Spell {
    /// The database whose spelling dictionary is used.
    pub database: String,
    /// The text checked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub term: Option<String>,
}

/// ecitmatch.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CitationMatch {
    /// The citations, each as its bdata fields.
    pub citations: Vec<Citation>,
    /// `xml`, sent as `retmode` (as NCBI's example URLs write it) unless the caller named `rettype`
    /// (as NBK25499's parameter list does); the reply is the same pipe-delimited text either way.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retmode: Option<String>,
    /// `xml`, when the caller named it so.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rettype: Option<String>,
}

/// One citation line of ecitmatch's bdata, with `|` and line breaks removed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Citation {
    /// Journal title or abbreviation.
    pub journal: String,
    /// Year.
    pub year: String,
    /// Volume.
    pub volume: String,
    /// First page.
    pub first_page: String,
    /// Author name.
    pub author: String,
    /// The caller's key, echoed in the reply (cit1, cit2, … when not given).
    pub key: String,
}

impl QueryCall {
    /// The call the arguments make, every default in place; `None` when no known operation is
    /// named.
    ///
    /// Every default is applied here and only here: the database (pubmed), paging (retstart
    /// 0, retmax 20), the fetch cap (500 records per call), the format a database is fetched
    /// in, elink's target database, the databases `global_query` counts in.
    pub fn of(a: &QueryArgs) -> Option<QueryCall> {
        Some(match a.operation.as_deref()? {
            "info" => {
                let database = lower(&a.database);
                let retmode = reply_mode(a);
                QueryCall::Info(Info {
                    // Version 2.0 describes fields and links more fully; it exists for one database's XML.
                    version: (database.is_some() && retmode == ReplyMode::Xml).then(|| version(a)),
                    database,
                    retmode,
                })
            }
            "search" => QueryCall::Search(Search {
                database: database(&a.database),
                term: a.term.clone(),
                webenv: a.webenv.clone(),
                query_key: a.query_key,
                field: a.field.clone(),
                sort: a.sort.clone(),
                dates: dates(a),
                retstart: a.retstart.unwrap_or(0),
                retmax: a.retmax.unwrap_or(plan::DEFAULT_SEARCH_RETMAX),
                usehistory: a.usehistory,
                check_retractions: a.check_retractions,
                idtype: a.idtype.clone(),
                rettype: lower(&a.rettype),
                retmode: reply_mode(a),
            }),
            "summary" => {
                // JSON unless XML is asked for (or a version, which only XML has): JSON's
                // per-id errors name each missing id.
                let retmode = match (a.retmode.as_deref(), &a.version) {
                    (Some("xml"), _) | (None, Some(_)) => ReplyMode::Xml,
                    _ => ReplyMode::Json,
                };
                QueryCall::Summary(Summary {
                    database: database(&a.database),
                    records: records(a, Some(u64::MAX)),
                    retmode,
                    version: (retmode == ReplyMode::Xml).then(|| version(a)),
                    max_records: max_records(a),
                    view: a.view.view(),
                })
            }
            "fetch" => {
                let database = database(&a.database);
                let (rettype, retmode, format) =
                    plan::fetch_format(&database, a.rettype.as_deref(), a.retmode.as_deref());
                // NCBI reads these for sequence databases only; elsewhere they are not sent.
                let region = match databases::genbank_rettype(&database) {
                    Some(_) => Region {
                        seq_start: a.seq_start,
                        seq_stop: a.seq_stop,
                        strand: a.strand,
                        complexity: a.complexity,
                    },
                    None => Region::default(),
                };
                QueryCall::Fetch(Fetch {
                    records: records(a, Some(plan::MAX_FETCH_RECORDS)),
                    region,
                    database,
                    rettype,
                    retmode,
                    max_records: max_records(a),
                    view: a.view.view(),
                    format,
                })
            }
            "link" => {
                let dbfrom = database(&a.dbfrom);
                let cmd = a.cmd.clone().unwrap_or_else(|| "neighbor".into());
                let neighbors = matches!(
                    cmd.as_str(),
                    "neighbor" | "neighbor_score" | "neighbor_history"
                );
                QueryCall::Link(Link {
                    // Sent whenever given (NCBI documents dbfrom=protein&db=pubmed&cmd=acheck);
                    // the neighbor commands need one, so they default to dbfrom.
                    database: lower(&a.database).or_else(|| neighbors.then(|| dbfrom.clone())),
                    dbfrom,
                    cmd,
                    linkname: a.linkname.clone(),
                    term: a.term.clone(),
                    records: records(a, None),
                    dates: dates(a),
                    retmode: match a.retmode.as_deref() {
                        Some("json") => LinkMode::Json,
                        Some("ref") => LinkMode::Ref,
                        _ => LinkMode::Xml,
                    },
                    idtype: a.idtype.clone(),
                    holding: a.holding.clone(),
                    by_id: a.by_id,
                })
            }
            "post" => QueryCall::Post(Post {
                database: database(&a.database),
                ids: a.id_list(),
                webenv: a.webenv.clone(),
            }),
            "global_query" => QueryCall::GlobalQuery(GlobalQuery {
                term: a.term.clone().unwrap_or_default(),
                databases: match &a.databases {
                    Some(list) => list.iter().map(|d| d.trim().to_ascii_lowercase()).collect(),
                    None => databases::GLOBAL_QUERY
                        .iter()
                        .map(|d| d.to_string())
                        .collect(),
                },
            }),
            "count_by_year" => QueryCall::CountByYear(CountByYear {
                database: database(&a.database),
                term: a.term.clone().unwrap_or_default(),
                from: a.mindate.as_deref().and_then(plan::year_of),
                to: a.maxdate.as_deref().and_then(plan::year_of),
            }),
            "spell" => QueryCall::Spell(Spell {
                database: database(&a.database),
                term: a.term.clone(),
            }),
            "citations" => QueryCall::Citations(CitationsCall {
                ids: a.id_list(),
                view: a.view.view(),
            }),
            "check_references" => QueryCall::CheckReferences(CheckReferences {
                references: a.references.clone(),
                view: a.view.view(),
            }),
            "citation_match" => {
                let rettype = lower(&a.rettype);
                QueryCall::CitationMatch(CitationMatch {
                    citations: a.citations.clone(),
                    retmode: lower(&a.retmode).or_else(|| rettype.is_none().then(|| "xml".into())),
                    rettype,
                })
            }
            _ => return None,
        })
    }

    /// The call as JSON: `validate`'s `normalized_arguments`.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// A name in lower case (NCBI reads database names and formats without regard to case).
fn lower(name: &Option<String>) -> Option<String> {
    name.as_ref().map(|s| s.to_ascii_lowercase())
}

/// The database, lower case, pubmed when none is given.
fn database(name: &Option<String>) -> String {
    lower(name).unwrap_or_else(|| "pubmed".into())
}

fn reply_mode(a: &QueryArgs) -> ReplyMode {
    match a.retmode.as_deref() {
        Some("json") => ReplyMode::Json,
        _ => ReplyMode::Xml,
    }
}

fn version(a: &QueryArgs) -> Version {
    match a.version.as_deref() {
        Some("1.0") => Version::V1,
        _ => Version::V2,
    }
}

fn max_records(a: &QueryArgs) -> usize {
    a.max_records
        .map(|n| n as usize)
        .unwrap_or(DEFAULT_MAX_RECORDS)
}

/// Ids when given; else the history set, paged up to `page_cap` when the operation pages.
fn records(a: &QueryArgs, page_cap: Option<u64>) -> Records {
    let ids = a.id_list();
    let Some(webenv) = a.webenv.clone().filter(|_| ids.is_empty()) else {
        return Records::Ids { ids };
    };
    // retstart is sent when given (NCBI starts at the first record); retmax always, for
    // NCBI would otherwise send up to 10,000 records (a server cap, named by validate).
    Records::History {
        webenv,
        query_key: a.query_key.unwrap_or(1),
        retstart: page_cap.and(a.retstart),
        retmax: page_cap.map(|cap| a.retmax.unwrap_or(plan::DEFAULT_RECORDS).min(cap)),
    }
}

fn dates(a: &QueryArgs) -> Dates {
    Dates {
        datetype: a.datetype.clone(),
        mindate: a.mindate.clone(),
        maxdate: a.maxdate.clone(),
        reldate: a.reldate,
    }
}
