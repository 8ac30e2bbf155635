//! `entrez_query`'s defaults, in one place: [`QueryCall::of`] reads the canonical arguments
//! (after the intake, [`crate::framework::intake`]) into the call that runs, filling what
//! the caller left out (the database, paging, the fetch cap, the records a result shows,
//! the format each database is fetched in, elink's target database, the databases
//! `global_query` counts in). The semantic rules read the same constants, and the plan
//! only builds requests from the call.

use crate::entrez::databases;
use crate::tools::entrez_query::args::QueryArgs;
use crate::tools::entrez_query::call::{
    CheckReferences, CitationMatch, CitationsCall, CountByYear, Dates, Fetch, GlobalQuery, Info,
    Link, LinkMode, Post, QueryCall, Records, Region, ReplyMode, Search, Spell, Summary, Version,
};

pub use crate::parse::records::Format;

/// The database when none is named.
pub const DEFAULT_DATABASE: &str = "pubmed";
/// Default cap on records parsed into one result.
pub const DEFAULT_MAX_RECORDS: usize = 50;
/// Default number of ids a search returns.
pub const DEFAULT_SEARCH_RETMAX: u64 = 20;
/// Default number of records fetched or summarised from a history set.
pub const DEFAULT_RECORDS: u64 = 20;
/// Most records one fetch call asks for (the most a result can show, `max_records` 500).
pub const MAX_FETCH_RECORDS: u64 = 500;
/// elink's command when none is given.
pub const DEFAULT_ELINK_CMD: &str = "neighbor";

/// A year as count_by_year takes it: four digits.
pub fn year_of(text: &str) -> Option<u32> {
    let t = text.trim();
    (t.len() == 4 && t.bytes().all(|b| b.is_ascii_digit()))
        .then(|| t.parse().ok())
        .flatten()
}

/// The rettype/retmode sent and how the reply is parsed, for a database.
pub fn fetch_format(
    db: &str,
    rettype: Option<&str>,
    retmode: Option<&str>,
) -> (Option<String>, String, Format) {
    let default_type = databases::genbank_rettype(db);
    let sequence = default_type.is_some();
    // With no rettype, NCBI sends sequences as ASN.1: text for retmode=text, binary for
    // retmode=asn.1 (EFetch's Table 1). A caller who names one of those modes gets exactly
    // that; otherwise this server asks for the flat file or GBSeq XML (and says so).
    let asn1 = sequence
        && rettype.is_none()
        && matches!(
            retmode.map(str::to_ascii_lowercase).as_deref(),
            Some("text" | "asn.1")
        );
    let rettype = rettype
        .map(str::to_ascii_lowercase)
        .or(default_type.filter(|_| !asn1).map(String::from));
    let text_by_default = matches!(
        rettype.as_deref(),
        Some("medline" | "abstract" | "uilist" | "acc" | "seqid" | "docsum" | "gene_table")
    );
    let retmode = retmode.map(str::to_ascii_lowercase).unwrap_or_else(|| {
        if text_by_default {
            "text".into()
        } else {
            "xml".into()
        }
    });
    let format = match (db, rettype.as_deref(), retmode.as_str()) {
        ("pubmed", None | Some("full" | "xml"), "xml") => Format::PubmedXml,
        ("pubmed" | "pmc", Some("medline"), "text") => Format::Medline,
        ("pmc", None | Some("full" | "xml"), "xml") => Format::PmcXml,
        ("taxonomy", _, "xml") => Format::TaxonomyXml,
        ("protein", Some("ipg"), "xml") => Format::IpgXml,
        (_, Some("gb" | "gp" | "gbwithparts" | "gbc" | "gpc"), "xml") if sequence => {
            Format::GbseqXml
        }
        (_, Some("fasta"), "xml") if sequence => Format::TinyseqXml,
        (_, Some("fasta" | "fasta_cds_na" | "fasta_cds_aa"), "text") if sequence => Format::Fasta,
        (_, Some("gb" | "gp" | "gbwithparts"), "text") if sequence => Format::FlatFile,
        (_, _, "xml") => Format::GenericXml,
        _ => Format::Raw,
    };
    (rettype, retmode, format)
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
                retmax: a.retmax.unwrap_or(DEFAULT_SEARCH_RETMAX),
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
                    fetch_format(&database, a.rettype.as_deref(), a.retmode.as_deref());
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
                    records: records(a, Some(MAX_FETCH_RECORDS)),
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
                let cmd = a.cmd.clone().unwrap_or_else(|| DEFAULT_ELINK_CMD.into());
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
                from: a.mindate.as_deref().and_then(year_of),
                to: a.maxdate.as_deref().and_then(year_of),
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
}

/// A name in lower case (NCBI reads database names and formats without regard to case).
fn lower(name: &Option<String>) -> Option<String> {
    name.as_ref().map(|s| s.to_ascii_lowercase())
}

/// The database, lower case, pubmed when none is given.
fn database(name: &Option<String>) -> String {
    lower(name).unwrap_or_else(|| DEFAULT_DATABASE.into())
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
        retmax: page_cap.map(|cap| a.retmax.unwrap_or(DEFAULT_RECORDS).min(cap)),
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
