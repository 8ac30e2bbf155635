//! `entrez_query`'s semantic rules, operation by operation.
//!
//! Which parameters an operation reads, what it defaults, and which NCBI
//! limits bite are all decided in `calls::query::plan`; this file reads
//! the same constants and calls the same functions, so "valid" here means
//! "the plan will build a request NCBI can answer as asked". The normalised
//! arguments it returns are the call as the plan will act on it: database
//! names lower-cased, only the defaults the operation really uses filled in.

use super::{codes, databases, dates, ids, item_path, path, rettypes, terms, Context, Report};
use crate::calls::query::call::QueryCall;
use crate::calls::query::plan::{self, int_arg, str_arg};
use serde_json::{Map, Value};

/// Parameters each operation reads besides `operation`; the plan ignores the rest.
pub const USES: &[(&str, &[&str])] = &[
    ("info", &["database", "retmode", "version"]),
    (
        "search",
        &[
            "database",
            "term",
            "webenv",
            "query_key",
            "field",
            "sort",
            "datetype",
            "mindate",
            "maxdate",
            "reldate",
            "retstart",
            "retmax",
            "usehistory",
            "idtype",
            "rettype",
            "retmode",
        ],
    ),
    (
        "summary",
        &[
            "database",
            "ids",
            "webenv",
            "query_key",
            "retstart",
            "retmax",
            "retmode",
            "version",
            "max_records",
        ],
    ),
    (
        "fetch",
        &[
            "database",
            "ids",
            "webenv",
            "query_key",
            "rettype",
            "retmode",
            "retstart",
            "retmax",
            "max_records",
            "seq_start",
            "seq_stop",
            "strand",
            "complexity",
        ],
    ),
    (
        "link",
        &[
            "dbfrom",
            "database",
            "cmd",
            "linkname",
            "term",
            "ids",
            "webenv",
            "query_key",
            "datetype",
            "mindate",
            "maxdate",
            "reldate",
            "retmode",
            "idtype",
            "holding",
            "by_id",
        ],
    ),
    ("post", &["database", "ids", "webenv"]),
    ("global_query", &["term", "databases"]),
    ("spell", &["database", "term"]),
    ("citation_match", &["citations", "rettype", "retmode"]),
];

/// esearch returns at most this many ids per call, and PubMed's esearch no
/// record past this index (NBK25499, ESearch: retmax and the PubMed note).
pub const SEARCH_MAX: u64 = 10_000;
/// A JSON esummary returns at most this many records (NCBI's error text says so).
pub const JSON_SUMMARY_MAX: u64 = 500;

/// Sort orders NCBI documents for PubMed's esearch, lower-cased.
const PUBMED_SORTS: &[&str] = &[
    "relevance",
    "pub_date",
    "author",
    "journalname",
    "first_author",
    "last_author",
    "journal",
    "title",
];

/// The semantic check of one `entrez_query` call.
pub fn check(_ctx: &Context<'_>, args: &Value, report: &mut Report) {
    let op = str_arg(args, "operation").unwrap_or("");
    let Some((_, uses)) = USES.iter().find(|(o, _)| *o == op) else {
        // The schema names a missing or unknown operation; nothing more to say.
        report.normalized = Some(args.clone());
        return;
    };
    let Some(given) = args.as_object() else {
        return;
    };
    ignored(op, uses, given, report);
    history_pair(op, args, report);
    let ids = ids::read(args.get("ids").unwrap_or(&Value::Null));
    match op {
        "info" => {
            if let Some(db) = str_arg(args, "database") {
                databases::check(db, &path("database"), false, report);
            }
            reply_mode("einfo", args, report);
            version("einfo", str_arg(args, "database").is_some(), args, report);
        }
        "search" => search(args, report),
        "summary" => {
            history_page(args, &ids, report);
            if let Some(db) = database(args, false, report) {
                let json = match str_arg(args, "retmode") {
                    Some(mode) => mode == "json",
                    None => str_arg(args, "version").is_none(),
                };
                let limit = if json {
                    (
                        ids::JSON_SUMMARY_MAX_IDS,
                        "JSON esummary (retmode json, this server's default)",
                    )
                } else {
                    (ids::EPOST_MAX_IDS, "esummary")
                };
                ids::check(&ids, "ids", databases::canonical(&db), Some(limit), report);
                summary_modes(args, json, &ids, report);
                version("esummary", true, args, report);
            }
        }
        "fetch" => {
            history_page(args, &ids, report);
            if let Some(db) = database(args, true, report) {
                let canonical = databases::canonical(&db);
                ids::check(&ids, "ids", canonical, None, report);
                let (t, m) = (str_arg(args, "rettype"), str_arg(args, "retmode"));
                rettypes::check_fetch(&db, canonical, t, m, report);
                region(&db, args, report);
                let retmax = int_arg(args, "retmax").unwrap_or(0);
                if ids.is_empty() && retmax > plan::MAX_FETCH_RECORDS {
                    report.warn(
                        codes::RETMAX_CAPPED,
                        path("retmax"),
                        format!(
                            "fetch parses at most {} records per call; retmax {retmax} will be lowered to {}.",
                            plan::MAX_FETCH_RECORDS,
                            plan::MAX_FETCH_RECORDS
                        ),
                    );
                    report.suggest("Page with retstart in steps of 500, or stage the set with entrez_data where that tool is available.");
                }
            }
        }
        "link" => link(args, &ids, report),
        "post" => {
            if let Some(db) = database(args, false, report) {
                let limit = (ids::EPOST_MAX_IDS, "epost");
                ids::check(&ids, "ids", databases::canonical(&db), Some(limit), report);
            }
        }
        "global_query" => {
            if let Some(list) = args.get("databases").and_then(Value::as_array) {
                for (i, db) in list.iter().enumerate() {
                    if let Some(name) = db.as_str() {
                        databases::check(name, &item_path("databases", i), false, report);
                    }
                }
            }
            if let Some(term) = str_arg(args, "term") {
                terms::check(term, &path("term"), "", report);
            }
        }
        "spell" => {
            database(args, false, report);
        }
        "citation_match" => {
            for key in ["rettype", "retmode"] {
                if let Some(v) = str_arg(args, key).filter(|v| !v.eq_ignore_ascii_case("xml")) {
                    report.error(
                        if key == "rettype" { codes::UNSUPPORTED_RETTYPE } else { codes::UNSUPPORTED_RETMODE },
                        path(key),
                        format!("ecitmatch takes {key} xml only, not {v}; its reply is one pipe-delimited line per citation either way."),
                    );
                    report.suggest(format!("Set {key} to \"xml\" or leave it out."));
                }
            }
        }
        _ => {}
    }
    report.normalized = Some(normalize(op, args));
}

/// Checks `database` (default pubmed); the lower-cased name when usable.
fn database(args: &Value, fetch: bool, report: &mut Report) -> Option<String> {
    match str_arg(args, "database") {
        Some(db) => databases::check(db, &path("database"), fetch, report),
        None => Some("pubmed".into()),
    }
}

fn ignored(op: &str, uses: &[&str], given: &Map<String, Value>, report: &mut Report) {
    let known = |k: &str| USES.iter().any(|(_, u)| u.contains(&k));
    for key in given.keys() {
        // Keys no operation knows are the schema's to report (additionalProperties).
        if key != "operation" && known(key) && !uses.contains(&key.as_str()) {
            report.warn(
                codes::IGNORED_PARAMETER,
                path(key),
                format!("{key} is not used by operation {op} and will be ignored."),
            );
        }
    }
    let has = |k: &str| given.contains_key(k);
    let by_ids = has("ids") && matches!(op, "summary" | "fetch" | "link");
    if by_ids && (has("webenv") || has("query_key")) {
        report.warn(
            codes::IGNORED_PARAMETER,
            path("webenv"),
            "Both ids and webenv/query_key were given; the ids are sent and the history set is ignored.",
        );
    }
    if by_ids && op != "link" {
        for key in ["retstart", "retmax"] {
            if has(key) {
                report.warn(
                    codes::IGNORED_PARAMETER,
                    path(key),
                    format!("{key} pages through a history set (webenv/query_key); with ids every id is returned."),
                );
            }
        }
    }
}

fn history_pair(op: &str, args: &Value, report: &mut Report) {
    let (webenv, key) = (
        args.get("webenv").is_some(),
        args.get("query_key").is_some(),
    );
    // ESearch and EPost take a WebEnv alone (NBK25499): the search or the posted ids join
    // that history (a search's term may then combine its sets: #1 AND asthma).
    if webenv == key || (matches!(op, "search" | "post") && webenv) {
        return;
    }
    let (missing, have) = if webenv {
        ("query_key", "webenv")
    } else {
        ("webenv", "query_key")
    };
    report.error(
        codes::HISTORY_PAIR_INCOMPLETE,
        path(missing),
        format!("{have} was given without {missing}; NCBI's history server needs both to find a stored set."),
    );
    report.suggest(format!(
        "Add {missing} from the same search or post reply as {have}, or pass ids instead."
    ));
}

/// A summary or fetch of a history set without retmax gets this server's page size, not
/// NCBI's (up to 10,000 records): a cap, named with how to get the rest.
fn history_page(args: &Value, ids: &[(usize, String)], report: &mut Report) {
    if !ids.is_empty() || args.get("webenv").is_none() || args.get("retmax").is_some() {
        return;
    }
    report.warn(
        codes::RESULTS_CAPPED,
        path("retmax"),
        format!(
            "No retmax given: this server asks for the first {} records of the history set (retmax={}), where NCBI would send up to 10,000; page with retstart and retmax.",
            plan::DEFAULT_RECORDS,
            plan::DEFAULT_RECORDS
        ),
    );
}

/// XML or JSON: the two forms einfo and esearch (and esummary) answer in.
fn reply_mode(utility: &str, args: &Value, report: &mut Report) {
    if let Some(mode) = str_arg(args, "retmode").filter(|m| !matches!(*m, "xml" | "json")) {
        report.error(
            codes::UNSUPPORTED_RETMODE,
            path("retmode"),
            format!("{utility} returns xml or json, not {mode}."),
        );
        report.suggest("Set retmode to \"xml\" or \"json\", or leave it out.");
    }
}

/// einfo and esummary XML come in version 1.0 (NCBI's default) or 2.0 (this server's, unless told).
fn version(utility: &str, applies: bool, args: &Value, report: &mut Report) {
    let mode = str_arg(args, "retmode");
    if mode.is_some_and(|m| !matches!(m, "xml" | "json")) {
        return; // An unsupported retmode is the error already reported.
    }
    let json = match mode {
        Some(m) => m == "json",
        // esummary answers JSON unless XML is named (a version names it).
        None => utility == "esummary" && str_arg(args, "version").is_none(),
    };
    let given = str_arg(args, "version");
    if !applies || json {
        if given.is_some() {
            report.warn(
                codes::IGNORED_PARAMETER,
                path("version"),
                format!(
                    "version applies to {utility}'s XML{}; it is not sent.",
                    if utility == "einfo" {
                        " for one database"
                    } else {
                        ""
                    }
                ),
            );
        }
        return;
    }
    if given.is_none() {
        report.warn(
            codes::FORMAT_CHOSEN,
            path("version"),
            format!("No version given: this server asks {utility} for version=2.0 XML (fuller fields) rather than NCBI's default 1.0; set version \"1.0\" for NCBI's."),
        );
    }
}

fn search(args: &Value, report: &mut Report) {
    reply_mode("esearch", args, report);
    if let Some(t) = str_arg(args, "rettype")
        .filter(|t| !matches!(t.to_ascii_lowercase().as_str(), "uilist" | "count"))
    {
        report.error(
            codes::UNSUPPORTED_RETTYPE,
            path("rettype"),
            format!("esearch's rettype is uilist (ids, the default) or count (the count alone), not {t}."),
        );
        report.suggest("Set rettype to \"count\" for the number of matches only, or leave it out.");
    }
    let db = database(args, false, report);
    let canonical = db.as_deref().map(databases::canonical).unwrap_or("");
    if let Some(term) = str_arg(args, "term") {
        terms::check(term, &path("term"), canonical, report);
    }
    if let Some(field) = str_arg(args, "field") {
        terms::check_field(field, &path("field"), canonical, report);
    }
    if let Some(sort) = str_arg(args, "sort") {
        if canonical == "pubmed" && !PUBMED_SORTS.contains(&sort.to_ascii_lowercase().as_str()) {
            report.warn(
                codes::UNKNOWN_SORT,
                path("sort"),
                format!("sort \"{sort}\" is not one NCBI documents for PubMed (relevance, pub_date, Author, JournalName, first_author, last_author, title); NCBI may ignore it."),
            );
        }
    }
    if str_arg(args, "idtype").is_some()
        && db.is_some()
        && !matches!(canonical, "nuccore" | "protein" | "popset")
    {
        report.warn(
            codes::IGNORED_PARAMETER,
            path("idtype"),
            "idtype acc applies to sequence databases (nuccore, nucleotide, protein) only.",
        );
    }
    dates::check_parameters(args, report);
    let retstart = int_arg(args, "retstart").unwrap_or(0);
    let retmax = int_arg(args, "retmax").unwrap_or(plan::DEFAULT_SEARCH_RETMAX);
    if retmax > SEARCH_MAX {
        report.error(
            codes::RETMAX_TOO_LARGE,
            path("retmax"),
            format!("esearch returns at most {SEARCH_MAX} ids per call; retmax is {retmax}."),
        );
    }
    if canonical == "pubmed" && retstart.saturating_add(retmax) > SEARCH_MAX {
        report.error(
            codes::PUBMED_PAGING_LIMIT,
            path("retstart"),
            format!(
                "PubMed's esearch returns only the first {SEARCH_MAX} records of a result; retstart {retstart} + retmax {retmax} goes past that."
            ),
        );
        report.suggest("Search with usehistory=true, then fetch or summary with webenv, query_key and retstart (the history server pages past 10,000).");
        report.suggest("Or split the search into date slices (mindate/maxdate) that each match fewer than 10,000 records.");
        report.suggest("Or stage the whole set with entrez_data where that tool is available.");
    }
}

/// EFetch's sequence parameters: only sequence databases read them, and a range runs forward.
fn region(db: &str, args: &Value, report: &mut Report) {
    const REGION: [&str; 4] = ["seq_start", "seq_stop", "strand", "complexity"];
    if crate::entrez::databases::genbank_rettype(db).is_none() {
        for key in REGION.iter().filter(|k| args.get(**k).is_some()) {
            report.warn(
                codes::IGNORED_PARAMETER,
                path(key),
                format!("{key} applies to sequence databases (nuccore, nucleotide, protein, popset); {db} ignores it, so it is not sent."),
            );
        }
        return;
    }
    if let (Some(start), Some(stop)) = (int_arg(args, "seq_start"), int_arg(args, "seq_stop")) {
        if start > stop {
            report.error(
                codes::SEQUENCE_RANGE_REVERSED,
                path("seq_start"),
                format!("seq_start {start} is after seq_stop {stop}; NCBI returns a range from its start to its stop."),
            );
            report.suggest(format!(
                "Swap them (seq_start {stop}, seq_stop {start}); for the other strand's reading, add strand 2."
            ));
        }
    }
}

fn summary_modes(args: &Value, json: bool, ids: &[(usize, String)], report: &mut Report) {
    reply_mode("esummary", args, report);
    if str_arg(args, "retmode").is_none() {
        report.warn(
            codes::FORMAT_CHOSEN,
            path("retmode"),
            "No retmode given: this server asks esummary for JSON (retmode=json, with an error per missing id) rather than NCBI's default XML; set retmode \"xml\" for XML.",
        );
    }
    let retmax = int_arg(args, "retmax").unwrap_or(plan::DEFAULT_RECORDS);
    if json && ids.is_empty() && retmax > JSON_SUMMARY_MAX {
        report.error(
            codes::RETMAX_TOO_LARGE,
            path("retmax"),
            format!(
                "A JSON esummary returns at most {JSON_SUMMARY_MAX} records; retmax is {retmax}."
            ),
        );
        report.suggest(format!(
            "Page with retstart and retmax {JSON_SUMMARY_MAX}, or set retmode to \"xml\"."
        ));
    }
}

fn link(args: &Value, ids: &[(usize, String)], report: &mut Report) {
    let dbfrom = match str_arg(args, "dbfrom") {
        Some(d) => databases::check(d, &path("dbfrom"), false, report),
        None => Some("pubmed".into()),
    };
    let target = str_arg(args, "database")
        .and_then(|d| databases::check(d, &path("database"), false, report));
    let Some(dbfrom) = dbfrom else { return };
    let from = databases::canonical(&dbfrom);
    ids::check(ids, "ids", from, None, report);
    if let Some(name) = str_arg(args, "linkname") {
        linkname(
            name,
            from,
            target.as_deref().map(databases::canonical),
            report,
        );
    }
    if let Some(term) = str_arg(args, "term") {
        let to = target.as_deref().map(databases::canonical).unwrap_or(from);
        terms::check(term, &path("term"), to, report);
    }
    dates::check_parameters(args, report);
    link_modes(args, from, ids, report);
}

/// elink's reply forms, its one-provider filter and its per-id mode (NBK25499, ELink).
fn link_modes(args: &Value, from: &str, ids: &[(usize, String)], report: &mut Report) {
    let cmd = str_arg(args, "cmd").unwrap_or("neighbor");
    match str_arg(args, "retmode") {
        None | Some("xml" | "json") => {}
        Some("ref") => {
            if cmd != "prlinks" {
                report.error(
                    codes::UNSUPPORTED_RETMODE,
                    path("retmode"),
                    format!("retmode ref redirects to a full-text provider, which only cmd prlinks names; cmd is {cmd}."),
                );
                report.suggest("Set cmd to \"prlinks\", or drop retmode ref.");
            } else if ids.len() != 1 {
                report.error(
                    codes::UNSUPPORTED_RETMODE,
                    path("retmode"),
                    format!("retmode ref redirects to one provider page, so it takes exactly one id; {} were given.", ids.len()),
                );
                report.suggest("Call once per id, or drop retmode ref to get every id's provider links as data.");
            }
        }
        Some(other) => {
            report.error(
                codes::UNSUPPORTED_RETMODE,
                path("retmode"),
                format!("elink returns xml, json or (prlinks) ref, not {other}."),
            );
            report.suggest("Set retmode to \"xml\" or \"json\", or leave it out.");
        }
    }
    if args.get("holding").is_some() && !matches!(cmd, "llinks" | "llinkslib") {
        report.warn(
            codes::IGNORED_PARAMETER,
            path("holding"),
            format!("holding filters LinkOut providers for cmd llinks or llinkslib; NCBI ignores it with cmd {cmd} (it is sent as given)."),
        );
    }
    if args.get("idtype").is_some() && !matches!(from, "nuccore" | "protein" | "popset") {
        report.warn(
            codes::IGNORED_PARAMETER,
            path("idtype"),
            "idtype acc applies to sequence databases (nuccore, nucleotide, protein) only; NCBI ignores it here (it is sent as given).",
        );
    }
    if args.get("by_id").and_then(Value::as_bool) == Some(true) && ids.is_empty() {
        report.warn(
            codes::IGNORED_PARAMETER,
            path("by_id"),
            "by_id sends each listed id as its own id= parameter; a history set (webenv/query_key) has no list to split.",
        );
    }
}

fn linkname(name: &str, from: &str, to: Option<&str>, report: &mut Report) {
    let mut parts = name.splitn(3, '_');
    let link_from = parts.next().unwrap_or("");
    let link_to = parts.next();
    if databases::canonical(link_from) != from {
        report.error(
            codes::LINKNAME_MISMATCH,
            path("linkname"),
            format!("linkname \"{name}\" starts from {link_from}, but dbfrom is {from}."),
        );
        report.suggest(format!(
            "Set dbfrom to {link_from}, or use a link name that starts with {from}_ (operation info with database {from} lists them)."
        ));
        return;
    }
    if let (Some(lt), Some(to)) = (link_to, to) {
        if databases::canonical(lt) != to {
            report.error(
                codes::LINKNAME_MISMATCH,
                path("linkname"),
                format!("linkname \"{name}\" leads to {lt}, but database is {to}."),
            );
            report.suggest(format!("Set database to {lt}, or omit it."));
            return;
        }
    }
    if from == "pubmed" {
        let links = &databases::pubmed_info().links;
        if !links.iter().any(|l| l.name == name) {
            let best = crate::suggest::closest(name, links.iter().map(|l| l.name.as_str()));
            report.warn(
                codes::UNKNOWN_LINKNAME,
                path("linkname"),
                format!(
                    "linkname \"{name}\" is not among PubMed's link names in einfo; NCBI would return no links.{}",
                    best.map(|b| format!(" Did you mean \"{b}\"?")).unwrap_or_default()
                ),
            );
        }
    }
}

/// The arguments as the plan acts on them: the typed call, serialized.
pub fn normalize(_op: &str, args: &Value) -> Value {
    QueryCall::read(args)
        .map(|call| call.to_value())
        .unwrap_or_else(|| args.clone())
}
