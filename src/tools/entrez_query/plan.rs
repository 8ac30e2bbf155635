//! From validated `entrez_query` arguments to E-utilities requests, as pure data.
//!
//! Every default an assistant would otherwise have to know lives here: the
//! database defaults to pubmed, names are lower-cased, each database gets the
//! richest format NCBI offers that this server parses, and history-server
//! pairs replace id lists wherever NCBI accepts them.

use crate::entrez::{EutilsRequest, Utility};
use serde_json::Value;

/// Default number of ids a search returns.
pub const DEFAULT_SEARCH_RETMAX: u64 = 20;
/// Default number of records fetched or summarised from a history set.
pub const DEFAULT_RECORDS: u64 = 20;
/// Most records one fetch call parses into a result.
pub const MAX_FETCH_RECORDS: u64 = 200;
/// Databases `global_query` counts in when none are given.
pub const GLOBAL_DATABASES: &[&str] = &[
    "pubmed",
    "pmc",
    "books",
    "mesh",
    "gene",
    "protein",
    "nuccore",
    "structure",
    "taxonomy",
    "snp",
    "clinvar",
    "biosample",
    "bioproject",
    "sra",
    "assembly",
    "pccompound",
];

/// How a fetched body is to be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// PubmedArticleSet XML.
    PubmedXml,
    /// MEDLINE tagged text.
    Medline,
    /// PMC JATS XML.
    PmcXml,
    /// GBSeq XML (nuccore gb, protein gp).
    GbseqXml,
    /// TinySeq XML (fasta as XML).
    TinyseqXml,
    /// FASTA text.
    Fasta,
    /// GenBank or GenPept flat file.
    FlatFile,
    /// Taxonomy XML.
    TaxonomyXml,
    /// Identical Protein Groups XML.
    IpgXml,
    /// Any other XML: generic records.
    GenericXml,
    /// Anything else: returned as text.
    Raw,
}

/// Reads a string argument.
pub fn str_arg<'a>(args: &'a Value, name: &str) -> Option<&'a str> {
    args.get(name)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

/// Reads an integer argument.
pub fn int_arg(args: &Value, name: &str) -> Option<u64> {
    args.get(name).and_then(Value::as_u64)
}

/// The database, lower-cased, defaulting to pubmed.
pub fn database(args: &Value) -> String {
    str_arg(args, "database")
        .unwrap_or("pubmed")
        .to_ascii_lowercase()
}

/// The ids as strings, trimmed, in the order given.
pub fn ids(args: &Value) -> Vec<String> {
    args.get("ids")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| match v {
                    Value::String(s) => Some(s.trim().to_string()),
                    Value::Number(n) => Some(n.to_string()),
                    _ => None,
                })
                .filter(|s| !s.is_empty())
                .collect()
        })
        .unwrap_or_default()
}

/// Adds `id=` or the `WebEnv`/`query_key` pair, whichever the caller gave.
fn with_ids_or_history(req: EutilsRequest, args: &Value) -> EutilsRequest {
    let ids = ids(args);
    if !ids.is_empty() {
        return req.param("id", ids.join(","));
    }
    req.opt("WebEnv", str_arg(args, "webenv")).opt(
        "query_key",
        int_arg(args, "query_key").map(|k| k.to_string()),
    )
}

fn with_dates(req: EutilsRequest, args: &Value) -> EutilsRequest {
    req.opt("datetype", str_arg(args, "datetype"))
        .opt("mindate", str_arg(args, "mindate"))
        .opt("maxdate", str_arg(args, "maxdate"))
        .opt("reldate", int_arg(args, "reldate").map(|d| d.to_string()))
}

/// einfo: all databases, or one database's fields and links.
pub fn info(args: &Value) -> EutilsRequest {
    let req = EutilsRequest::new(Utility::Info);
    match str_arg(args, "database") {
        Some(db) => req
            .param("db", db.to_ascii_lowercase())
            .param("version", "2.0"),
        None => req,
    }
}

/// esearch with every documented option.
pub fn search(args: &Value) -> EutilsRequest {
    let mut req = EutilsRequest::new(Utility::Search)
        .param("db", database(args))
        .opt("term", str_arg(args, "term"))
        .opt("WebEnv", str_arg(args, "webenv"))
        .opt(
            "query_key",
            int_arg(args, "query_key").map(|k| k.to_string()),
        )
        .opt("field", str_arg(args, "field"))
        .opt("sort", str_arg(args, "sort"));
    req = with_dates(req, args)
        .param(
            "retstart",
            int_arg(args, "retstart").unwrap_or(0).to_string(),
        )
        .param(
            "retmax",
            int_arg(args, "retmax")
                .unwrap_or(DEFAULT_SEARCH_RETMAX)
                .to_string(),
        )
        .opt("idtype", str_arg(args, "idtype"));
    if args.get("usehistory") == Some(&Value::Bool(true)) {
        req = req.param("usehistory", "y");
    }
    req
}

/// esummary; JSON unless the caller asks for XML (then docsum version 2.0).
pub fn summary(args: &Value) -> EutilsRequest {
    let req = with_ids_or_history(
        EutilsRequest::new(Utility::Summary).param("db", database(args)),
        args,
    );
    let req = if str_arg(args, "webenv").is_some() && ids(args).is_empty() {
        req.param(
            "retstart",
            int_arg(args, "retstart").unwrap_or(0).to_string(),
        )
        .param(
            "retmax",
            int_arg(args, "retmax")
                .unwrap_or(DEFAULT_RECORDS)
                .to_string(),
        )
    } else {
        req
    };
    match str_arg(args, "retmode") {
        Some("xml") => req.param("version", "2.0"),
        _ => req.param("retmode", "json"),
    }
}

/// The rettype/retmode sent and how the reply is parsed, for a database.
pub fn fetch_format(
    db: &str,
    rettype: Option<&str>,
    retmode: Option<&str>,
) -> (Option<String>, String, Format) {
    let sequence = matches!(
        db,
        "nuccore" | "nucleotide" | "protein" | "nucest" | "nucgss"
    );
    let default_type = match db {
        "protein" => Some("gp"),
        _ if sequence => Some("gb"),
        _ => None,
    };
    let rettype = rettype
        .map(str::to_ascii_lowercase)
        .or(default_type.map(String::from));
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

/// efetch with the format chosen for the database.
pub fn fetch(args: &Value) -> (EutilsRequest, Format) {
    let db = database(args);
    let (rettype, retmode, format) =
        fetch_format(&db, str_arg(args, "rettype"), str_arg(args, "retmode"));
    let mut req = with_ids_or_history(EutilsRequest::new(Utility::Fetch).param("db", &db), args)
        .opt("rettype", rettype)
        .param("retmode", retmode);
    if ids(args).is_empty() {
        let retmax = int_arg(args, "retmax")
            .unwrap_or(DEFAULT_RECORDS)
            .min(MAX_FETCH_RECORDS);
        req = req
            .param(
                "retstart",
                int_arg(args, "retstart").unwrap_or(0).to_string(),
            )
            .param("retmax", retmax.to_string());
    }
    (req, format)
}

/// elink with its command; JSON is not used because prlinks/llinks only come as XML.
pub fn link(args: &Value) -> EutilsRequest {
    let dbfrom = str_arg(args, "dbfrom")
        .unwrap_or("pubmed")
        .to_ascii_lowercase();
    let cmd = str_arg(args, "cmd").unwrap_or("neighbor");
    let mut req = EutilsRequest::new(Utility::Link).param("dbfrom", &dbfrom);
    // acheck/ncheck/lcheck/llinks/prlinks concern the source records only.
    if matches!(cmd, "neighbor" | "neighbor_score" | "neighbor_history") {
        req = req.param(
            "db",
            str_arg(args, "database")
                .map(str::to_ascii_lowercase)
                .unwrap_or(dbfrom),
        );
    }
    req = req
        .param("cmd", cmd)
        .opt("linkname", str_arg(args, "linkname"))
        .opt("term", str_arg(args, "term"));
    // NCBI links each id separately only when ids are repeated parameters.
    let ids = ids(args);
    if ids.is_empty() {
        req = req.opt("WebEnv", str_arg(args, "webenv")).opt(
            "query_key",
            int_arg(args, "query_key").map(|k| k.to_string()),
        );
    } else {
        req = req.param("id", ids.join(","));
    }
    with_dates(req, args)
}

/// epost of ids to the history server.
pub fn post(args: &Value) -> EutilsRequest {
    EutilsRequest::new(Utility::Post)
        .param("db", database(args))
        .param("id", ids(args).join(","))
}

/// espell.
pub fn spell(args: &Value) -> EutilsRequest {
    EutilsRequest::new(Utility::Spell)
        .param("db", database(args))
        .opt("term", str_arg(args, "term"))
}

/// ecitmatch: one `journal|year|volume|first_page|author|key|` line per citation.
pub fn citation_match(args: &Value) -> EutilsRequest {
    let field = |c: &Value, name: &str| match c.get(name) {
        Some(Value::String(s)) => s.replace(['|', '\r', '\n'], " "),
        Some(Value::Number(n)) => n.to_string(),
        _ => String::new(),
    };
    let lines: Vec<String> = args
        .get("citations")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(i, c)| {
            let key = match field(c, "key") {
                k if k.is_empty() => format!("cit{}", i + 1),
                k => k,
            };
            format!(
                "{}|{}|{}|{}|{}|{}|",
                field(c, "journal"),
                field(c, "year"),
                field(c, "volume"),
                field(c, "first_page"),
                field(c, "author"),
                key
            )
        })
        .collect();
    EutilsRequest::new(Utility::CitMatch)
        .param("db", "pubmed")
        .param("retmode", "xml")
        .param("bdata", lines.join("\r"))
}

/// One count-only esearch per database, the documented replacement for EGQuery.
pub fn global_query(args: &Value) -> Vec<(String, EutilsRequest)> {
    let term = str_arg(args, "term").unwrap_or_default();
    let databases: Vec<String> = match args.get("databases").and_then(Value::as_array) {
        Some(list) => list
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_ascii_lowercase)
            .collect(),
        None => GLOBAL_DATABASES.iter().map(|s| s.to_string()).collect(),
    };
    databases
        .into_iter()
        .map(|db| {
            let req = EutilsRequest::new(Utility::Search)
                .param("db", &db)
                .param("term", term)
                .param("rettype", "count");
            (db, req)
        })
        .collect()
}
