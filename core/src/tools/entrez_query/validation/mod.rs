//! `entrez_query`'s semantic rules, operation by operation. What an operation fills in is
//! [`crate::tools::entrez_query::defaults`]'s and which NCBI limits bite is the plan's; the
//! rules read the same constants and call the same functions, so "valid" here means "the
//! request built from this call is one NCBI can answer as asked".

pub mod dates;
pub mod elink;
pub mod rettypes;
pub mod terms;

use crate::tools::entrez_query::args::QueryArgs;
use crate::tools::entrez_query::call::QueryCall;
use crate::tools::entrez_query::defaults;
use crate::tools::entrez_query::plan;
use crate::validation::codes;
use crate::validation::databases;
use crate::validation::ids;
use crate::validation::item_path;
use crate::validation::path;
use crate::validation::Context;
use crate::validation::Report;

/// Parameters each operation reads besides `operation`; the plan ignores the rest.
pub const USES: &[(&str, &[&str])] = &[
    (
        "info",
        &["database", "retmode", "version", "max_characters"],
    ),
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
            "check_retractions",
            "idtype",
            "rettype",
            "retmode",
            "max_characters",
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
            "detail",
            "fields",
            "max_characters",
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
            "detail",
            "fields",
            "max_characters",
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
            "max_characters",
        ],
    ),
    ("post", &["database", "ids", "webenv", "max_characters"]),
    ("global_query", &["term", "databases", "max_characters"]),
    (
        "count_by_year",
        &["database", "term", "mindate", "maxdate", "max_characters"],
    ),
    ("spell", &["database", "term", "max_characters"]),
    (
        "citation_match",
        &["citations", "rettype", "retmode", "max_characters"],
    ),
    ("check_references", &["references", "max_characters"]),
    ("citations", &["ids", "detail", "fields", "max_characters"]),
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
pub fn check(ctx: &Context<'_>, args: &QueryArgs, report: &mut Report) {
    let op = args.op();
    let Some((_, uses)) = USES.iter().find(|(o, _)| *o == op) else {
        // The schema names a missing or unknown operation; nothing more to say.
        return;
    };
    ignored(op, uses, args, report);
    history_pair(op, args, report);
    let ids = &args.ids;
    match op {
        "info" => {
            if let Some(db) = &args.database {
                databases::check(db, &path("database"), false, report);
            }
            reply_mode("einfo", args, report);
            version("einfo", args.database.is_some(), args, report);
        }
        "search" => search(args, report),
        "summary" => {
            history_page(args, report);
            if let Some(db) = database(args, false, report) {
                let json = match args.retmode.as_deref() {
                    Some(mode) => mode == "json",
                    None => args.version.is_none(),
                };
                let limit = if json {
                    (
                        ids::JSON_SUMMARY_MAX_IDS,
                        "JSON esummary (retmode json, this server's default)",
                    )
                } else {
                    (ids::EPOST_MAX_IDS, "esummary")
                };
                ids::check(ids, "ids", databases::canonical(&db), Some(limit), report);
                summary_modes(args, json, report);
                version("esummary", true, args, report);
            }
        }
        "fetch" => {
            history_page(args, report);
            if let Some(db) = database(args, true, report) {
                let canonical = databases::canonical(&db);
                ids::check(ids, "ids", canonical, None, report);
                let (t, m) = (args.rettype.as_deref(), args.retmode.as_deref());
                rettypes::check_fetch(&db, canonical, t, m, report);
                region(&db, args, report);
                let retmax = args.retmax.unwrap_or(0);
                if ids.is_empty() && retmax > defaults::MAX_FETCH_RECORDS {
                    report.warn(
                        codes::RETMAX_CAPPED,
                        path("retmax"),
                        format!(
                            "fetch parses at most {} records per call; retmax {retmax} will be lowered to {}.",
                            defaults::MAX_FETCH_RECORDS,
                            defaults::MAX_FETCH_RECORDS
                        ),
                    );
                    report.suggest("Page with retstart in steps of 500, or stage the set with entrez_data where that tool is available.");
                }
            }
        }
        "link" => elink::check(args, report),
        "post" => {
            if let Some(db) = database(args, false, report) {
                let limit = (ids::EPOST_MAX_IDS, "epost");
                ids::check(ids, "ids", databases::canonical(&db), Some(limit), report);
            }
        }
        "global_query" => {
            for (i, name) in args.databases.iter().flatten().enumerate() {
                databases::check(name, &item_path("databases", i), false, report);
            }
            if let Some(term) = &args.term {
                terms::check(term, &path("term"), "", report);
            }
        }
        "spell" => {
            database(args, false, report);
        }
        "count_by_year" => count_by_year(ctx, args, report),
        "citations" => {
            let limit = (crate::tools::entrez_query::citations::MAX_IDS, "citations");
            ids::check(ids, "ids", "pubmed", Some(limit), report);
        }
        "check_references" => {
            // A reference that cannot be checked is its own verdict, never the list's failure.
            for (i, r) in args.references.iter().enumerate() {
                if let Some(why) = &r.invalid {
                    report.warn(
                        codes::INVALID_REFERENCE,
                        item_path("references", i),
                        format!(
                            "{}: {why}; it will be answered as invalid, the others checked.",
                            r.key
                        ),
                    );
                } else if r.unread() {
                    report.warn(
                        codes::UNREADABLE_REFERENCE,
                        item_path("references", i),
                        format!(
                            "{}: no known citation layout (Vancouver, AMA, APA, Harvard, Chicago, MLA, IEEE, BibTeX, RIS), so its {} cannot be told apart; it will be answered unreadable. Give it as fields or with its PMID or DOI.",
                            r.key,
                            r.missing().join(", ")
                        ),
                    );
                }
            }
        }
        "citation_match" => {
            for (key, given) in [("rettype", &args.rettype), ("retmode", &args.retmode)] {
                if let Some(v) = given.as_deref().filter(|v| !v.eq_ignore_ascii_case("xml")) {
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
    report.normalized = QueryCall::of(args).map(|call| call.to_value());
}

/// Checks `database` (default pubmed); the lower-cased name when usable.
fn database(args: &QueryArgs, fetch: bool, report: &mut Report) -> Option<String> {
    match &args.database {
        Some(db) => databases::check(db, &path("database"), fetch, report),
        None => Some(defaults::DEFAULT_DATABASE.into()),
    }
}

fn ignored(op: &str, uses: &[&str], args: &QueryArgs, report: &mut Report) {
    let known = |k: &str| USES.iter().any(|(_, u)| u.contains(&k));
    for key in &args.given {
        // Keys no operation knows are the schema's to report (additionalProperties).
        if key != "operation" && known(key) && !uses.contains(&key.as_str()) {
            report.warn(
                codes::IGNORED_PARAMETER,
                path(key),
                format!("{key} is not used by operation {op} and will be ignored."),
            );
        }
    }
    let has = |k: &str| args.has(k);
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

fn history_pair(op: &str, args: &QueryArgs, report: &mut Report) {
    let (webenv, key) = (args.webenv.is_some(), args.query_key.is_some());
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
fn history_page(args: &QueryArgs, report: &mut Report) {
    if !args.ids.is_empty() || args.webenv.is_none() || args.retmax.is_some() {
        return;
    }
    report.warn(
        codes::RESULTS_CAPPED,
        path("retmax"),
        format!(
            "No retmax given: this server asks for the first {} records of the history set (retmax={}), where NCBI would send up to 10,000; page with retstart and retmax.",
            defaults::DEFAULT_RECORDS,
            defaults::DEFAULT_RECORDS
        ),
    );
}

/// XML or JSON: the two forms einfo and esearch (and esummary) answer in.
fn reply_mode(utility: &str, args: &QueryArgs, report: &mut Report) {
    if let Some(mode) = args
        .retmode
        .as_deref()
        .filter(|m| !matches!(*m, "xml" | "json"))
    {
        report.error(
            codes::UNSUPPORTED_RETMODE,
            path("retmode"),
            format!("{utility} returns xml or json, not {mode}."),
        );
        report.suggest("Set retmode to \"xml\" or \"json\", or leave it out.");
    }
}

/// einfo and esummary XML come in version 1.0 (NCBI's default) or 2.0 (this server's, unless told).
fn version(utility: &str, applies: bool, args: &QueryArgs, report: &mut Report) {
    let mode = args.retmode.as_deref();
    if mode.is_some_and(|m| !matches!(m, "xml" | "json")) {
        return; // An unsupported retmode is the error already reported.
    }
    let json = match mode {
        Some(m) => m == "json",
        // esummary answers JSON unless XML is named (a version names it).
        None => utility == "esummary" && args.version.is_none(),
    };
    let given = args.version.as_deref();
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

fn search(args: &QueryArgs, report: &mut Report) {
    reply_mode("esearch", args, report);
    if let Some(t) = args
        .rettype
        .as_deref()
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
    if let Some(term) = &args.term {
        terms::check(term, &path("term"), canonical, report);
    }
    if let Some(field) = &args.field {
        terms::check_field(field, &path("field"), canonical, report);
    }
    if let Some(sort) = &args.sort {
        if canonical == "pubmed" && !PUBMED_SORTS.contains(&sort.to_ascii_lowercase().as_str()) {
            report.warn(
                codes::UNKNOWN_SORT,
                path("sort"),
                format!("sort \"{sort}\" is not one NCBI documents for PubMed (relevance, pub_date, Author, JournalName, first_author, last_author, title); NCBI may ignore it."),
            );
        }
    }
    if args.idtype.is_some()
        && db.is_some()
        && crate::entrez::databases::genbank_rettype(canonical).is_none()
    {
        report.warn(
            codes::IGNORED_PARAMETER,
            path("idtype"),
            "idtype acc applies to sequence databases (nuccore, nucleotide, protein) only.",
        );
    }
    dates::check_parameters(args, report);
    let retstart = args.retstart.unwrap_or(0);
    let retmax = args.retmax.unwrap_or(defaults::DEFAULT_SEARCH_RETMAX);
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
fn region(db: &str, args: &QueryArgs, report: &mut Report) {
    const REGION: [&str; 4] = ["seq_start", "seq_stop", "strand", "complexity"];
    if crate::entrez::databases::genbank_rettype(db).is_none() {
        for key in REGION.iter().filter(|k| args.has(k)) {
            report.warn(
                codes::IGNORED_PARAMETER,
                path(key),
                format!("{key} applies to sequence databases (nuccore, nucleotide, protein, popset); {db} ignores it, so it is not sent."),
            );
        }
        return;
    }
    if let (Some(start), Some(stop)) = (args.seq_start, args.seq_stop) {
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

fn summary_modes(args: &QueryArgs, json: bool, report: &mut Report) {
    reply_mode("esummary", args, report);
    if args.retmode.is_none() {
        report.warn(
            codes::FORMAT_CHOSEN,
            path("retmode"),
            "No retmode given: this server asks esummary for JSON (retmode=json, with an error per missing id) rather than NCBI's default XML; set retmode \"xml\" for XML.",
        );
    }
    let retmax = args.retmax.unwrap_or(defaults::DEFAULT_RECORDS);
    if json && args.ids.is_empty() && retmax > JSON_SUMMARY_MAX {
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

/// count_by_year: a database, a term, and mindate and maxdate as years, in order, at most
/// as many as one call may count on this server ([`plan::years_per_call`]).
fn count_by_year(ctx: &Context<'_>, args: &QueryArgs, report: &mut Report) {
    let db = database(args, false, report);
    if let Some(term) = &args.term {
        terms::check(term, &path("term"), db.as_deref().unwrap_or(""), report);
    }
    let mut years = [None, None];
    for (slot, (name, given)) in [("mindate", &args.mindate), ("maxdate", &args.maxdate)]
        .into_iter()
        .enumerate()
    {
        let Some(text) = given else { continue };
        match defaults::year_of(text) {
            Some(y) => years[slot] = Some(y),
            None => {
                report.error(
                    codes::INVALID_DATE,
                    path(name),
                    format!(
                        "count_by_year counts whole years: {name} \"{text}\" is not a year (YYYY)."
                    ),
                );
                report.suggest("Give mindate and maxdate as years, e.g. 2000 and 2024.");
            }
        }
    }
    let most = plan::years_per_call(&ctx.allowance);
    if let [Some(from), Some(to)] = years {
        if from > to {
            report.error(
                codes::DATE_RANGE_REVERSED,
                path("mindate"),
                format!("mindate {from} is after maxdate {to}."),
            );
            report.suggest("Swap mindate and maxdate.");
        } else if to - from + 1 > most {
            let why = if most < plan::MAX_YEARS {
                format!(
                    "this server counts at most {most} per call (one NCBI search a year, within ENTREZ_CPU_BUDGET_MS={} and ENTREZ_SUBREQUESTS={})",
                    ctx.allowance.cpu_budget_ms, ctx.allowance.subrequests
                )
            } else {
                format!("count_by_year counts at most {most} per call (one search each)")
            };
            report.error(
                codes::CHART_TOO_LARGE,
                path("mindate"),
                format!("{from}-{to} is {} years; {why}.", to - from + 1),
            );
            report.suggest(format!(
                "Count {most} years a call: mindate {} and maxdate {to}, then the years before it in further calls.",
                to + 1 - most
            ));
        }
    }
}
