//! Corpus cases for `entrez_query` info and search, plus the helpers every query case file uses.
//!
//! Ids throughout are real records: PMID 19304878, PMC7096066, TP53 (Gene 7157,
//! NM_000546.6, NP_000537.3), haemoglobin (P69905, PDB 4HHB), GRCh38
//! (GCF_000001405.40), SRR390728, SAMN02604091, PRJNA257197 and rs7412.

use super::{bad, bad_warned, ok, warned, Case};
use serde_json::{json, Value};

/// The tool every case in these files targets.
pub(super) const Q: &str = "entrez_query";

/// A pubmed search for `term`.
pub(super) fn search(term: &str) -> Value {
    json!({"operation": "search", "term": term})
}

/// A summary of `ids` in `db`.
pub(super) fn summary(db: &str, ids: Value) -> Value {
    json!({"operation": "summary", "database": db, "ids": ids, "retmode": "json"})
}

/// A fetch of `ids` from `db`.
pub(super) fn fetch(db: &str, ids: Value) -> Value {
    json!({"operation": "fetch", "database": db, "ids": ids})
}

/// `base` with the members of `extra` added or replaced.
pub(super) fn with(mut base: Value, extra: Value) -> Value {
    for (k, v) in extra.as_object().unwrap() {
        base[k] = v.clone();
    }
    base
}

/// `n` distinct PMIDs.
pub(super) fn pmids(n: usize) -> Value {
    json!((0..n)
        .map(|i| (10_000_000 + i).to_string())
        .collect::<Vec<_>>())
}

fn info_and_search() -> Vec<Case> {
    vec![
        ok(Q, json!({"operation": "info"})),
        ok(
            Q,
            json!({"operation": "info", "database": "pubmed", "version": "2.0"}),
        ),
        ok(
            Q,
            json!({"operation": "info", "database": "PubMed", "version": "2.0"}),
        ),
        bad(
            Q,
            json!({"operation": "info", "database": "pubmd", "version": "2.0"}),
            &[("invalid_database", "$.database")],
        ),
        bad(
            Q,
            json!({"operation": "info", "database": "unigene", "version": "2.0"}),
            &[("retired_database", "$.database")],
        ),
        bad(
            Q,
            json!({"operation": "info", "database": "homologene", "version": "2.0"}),
            &[("retired_database", "$.database")],
        ),
        bad(
            Q,
            json!({"operation": "info", "database": "dbsnp", "version": "2.0"}),
            &[("invalid_database", "$.database")],
        ),
        bad(
            Q,
            json!({"operation": "info", "database": "zzqqxx", "version": "2.0"}),
            &[("invalid_database", "$.database")],
        ),
        warned(
            Q,
            json!({"operation": "info", "database": "gene", "version": "2.0", "term": "x"}),
            &[("ignored_parameter", "$.term")],
        ),
        // The server's own choices of reply form are named (NBK25499: 1.0 and XML are NCBI's defaults).
        warned(
            Q,
            json!({"operation": "info", "database": "gene"}),
            &[("format_chosen", "$.version")],
        ),
        ok(
            Q,
            json!({"operation": "info", "database": "gene", "version": "1.0"}),
        ),
        ok(
            Q,
            json!({"operation": "info", "database": "gene", "retmode": "json"}),
        ),
        warned(
            Q,
            json!({"operation": "info", "version": "2.0"}),
            &[("ignored_parameter", "$.version")],
        ),
        warned(
            Q,
            json!({"operation": "summary", "ids": ["19304878"]}),
            &[("format_chosen", "$.retmode")],
        ),
        warned(
            Q,
            json!({"operation": "summary", "ids": ["19304878"], "retmode": "xml"}),
            &[("format_chosen", "$.version")],
        ),
        ok(
            Q,
            json!({"operation": "summary", "ids": ["19304878"], "retmode": "xml", "version": "1.0"}),
        ),
        // A history set fetched without retmax gets this server's page, not NCBI's 10,000.
        warned(
            Q,
            json!({"operation": "fetch", "webenv": "MCID_1", "query_key": 1}),
            &[("results_capped", "$.retmax")],
        ),
        ok(
            Q,
            json!({"operation": "search", "term": "asthma", "rettype": "count", "retmode": "json"}),
        ),
        bad(
            Q,
            json!({"operation": "search", "term": "asthma", "rettype": "abstract"}),
            &[("unsupported_rettype", "$.rettype")],
        ),
        bad(
            Q,
            json!({"operation": "search", "term": "asthma", "retmode": "asn.1"}),
            &[("unsupported_retmode", "$.retmode")],
        ),
        bad(
            Q,
            json!({"operation": "citation_match", "rettype": "text", "citations": [{"journal": "science", "year": "1987", "volume": "235", "first_page": "182", "author": "palmenberg ac"}]}),
            &[("unsupported_rettype", "$.rettype")],
        ),
        bad(
            Q,
            json!({"operation": "infos"}),
            &[("schema_enum", "$.operation")],
        ),
        // The schema's if/then rules pass vacuously without an operation, so they add findings.
        bad(
            Q,
            json!({}),
            &[("schema_required", "$"), ("schema_any_of", "$")],
        ),
        ok(
            Q,
            with(search("crispr[tiab] AND 2024[dp]"), json!({"retmax": 5})),
        ),
        ok(Q, search("\"breast neoplasms\"[mh:noexp] OR tp53[tiab:~2]")),
        ok(Q, search("(asthma[mh] OR copd[majr]) NOT review[pt]")),
        ok(Q, search("smith j[au] AND nature[ta]")),
        ok(Q, search("\"last 5 years\"[dp] AND english[la]")),
        ok(Q, search("cancer[Title/Abstract] AND humans[MeSH Terms]")),
        ok(Q, search("10.1038/nature12373[doi]")),
        ok(Q, search("jones[1au] OR smith[lastau] AND harvard[affl]")),
        ok(
            Q,
            search("review[pt] AND medline[sb] AND hasabstract[filter]"),
        ),
        ok(Q, search("cancer[titl] AND 2020/01:2024/06[edat]")),
        ok(Q, search("\"2020/01/01\"[pdat] : \"2020/12/31\"[pdat]")),
        ok(
            Q,
            json!({"operation": "search", "database": "gene", "term": "BRCA1[sym] AND human[orgn]"}),
        ),
        ok(
            Q,
            json!({"operation": "search", "database": "nuccore", "term": "NM_000546[accn]"}),
        ),
        ok(
            Q,
            json!({"operation": "search", "database": "Nucleotide", "term": "tp53"}),
        ),
        bad(
            Q,
            search("\"breast cancer[tiab]"),
            &[("unbalanced_quotes", "$.term")],
        ),
        bad(
            Q,
            search("cancer[tiab AND x"),
            &[("unbalanced_brackets", "$.term")],
        ),
        bad(
            Q,
            search("cancer] AND x"),
            &[("unbalanced_brackets", "$.term")],
        ),
        bad(Q, search("a[ti[ab]]"), &[("unbalanced_brackets", "$.term")]),
        bad(
            Q,
            search("(asthma OR copd"),
            &[("unbalanced_parentheses", "$.term")],
        ),
        bad(
            Q,
            search("asthma OR copd)"),
            &[("unbalanced_parentheses", "$.term")],
        ),
        warned(
            Q,
            search("cancer[tiabs]"),
            &[("unknown_field_tag", "$.term")],
        ),
        warned(
            Q,
            search("asthma and copd"),
            &[("lowercase_operator", "$.term")],
        ),
        warned(
            Q,
            search("asthma[mh] or copd[mh]"),
            &[("lowercase_operator", "$.term")],
        ),
        warned(Q, search("asthma AND"), &[("dangling_operator", "$.term")]),
        warned(Q, search("OR asthma"), &[("dangling_operator", "$.term")]),
        warned(
            Q,
            search("(asthma AND) copd"),
            &[("dangling_operator", "$.term")],
        ),
        bad(
            Q,
            search("asthma AND 2024/13[dp]"),
            &[("invalid_date", "$.term")],
        ),
        bad(
            Q,
            search("asthma AND 2020-2024[dp]"),
            &[("invalid_date", "$.term")],
        ),
        bad(
            Q,
            search("\"2023/02/29\"[pdat]"),
            &[("invalid_date", "$.term")],
        ),
        bad(
            Q,
            search("asthma AND 2025:2020[dp]"),
            &[("date_range_reversed", "$.term")],
        ),
        bad(
            Q,
            json!({"operation": "search", "term": "asthma", "database": "pubmd"}),
            &[("invalid_database", "$.database")],
        ),
        bad(Q, json!({"operation": "search"}), &[("schema_any_of", "$")]),
        ok(
            Q,
            json!({"operation": "search", "webenv": "MCID_1", "query_key": 1}),
        ),
        // EPost onto an existing history (NBK25499).
        ok(
            Q,
            json!({"operation": "post", "ids": ["11237011", "12466850"], "webenv": "MCID_1"}),
        ),
        // NCBI's way to add a search to a history, and to combine its sets.
        ok(
            Q,
            json!({"operation": "search", "term": "#1 AND asthma", "webenv": "MCID_1", "usehistory": true}),
        ),
        bad_warned(
            Q,
            json!({"operation": "fetch", "ids": ["19304878"], "webenv": "MCID_1"}),
            &[("history_pair_incomplete", "$.query_key")],
            &[("ignored_parameter", "$.webenv")],
        ),
        bad(
            Q,
            json!({"operation": "search", "term": "a", "query_key": 1}),
            &[
                ("schema_required", "$"),
                ("history_pair_incomplete", "$.webenv"),
            ],
        ),
    ]
}

fn search_parameters() -> Vec<Case> {
    let s = |extra: Value| with(search("asthma"), extra);
    vec![
        ok(
            Q,
            s(json!({"mindate": "2020", "maxdate": "2024", "datetype": "pdat"})),
        ),
        ok(
            Q,
            s(json!({"mindate": "2024/02/29", "maxdate": "2024/03", "datetype": "edat"})),
        ),
        ok(Q, s(json!({"reldate": 30, "datetype": "edat"}))),
        warned(
            Q,
            s(json!({"mindate": "2020", "maxdate": "2024"})),
            &[("datetype_missing", "$.datetype")],
        ),
        warned(
            Q,
            s(json!({"reldate": 7})),
            &[("datetype_missing", "$.datetype")],
        ),
        warned(
            Q,
            s(json!({"datetype": "pdat"})),
            &[("ignored_parameter", "$.datetype")],
        ),
        bad(
            Q,
            s(json!({"mindate": "2024/13", "maxdate": "2025", "datetype": "pdat"})),
            &[("invalid_date", "$.mindate")],
        ),
        bad(
            Q,
            s(json!({"mindate": "2023/02/29", "maxdate": "2025", "datetype": "pdat"})),
            &[("invalid_date", "$.mindate")],
        ),
        bad(
            Q,
            s(json!({"mindate": "2025", "maxdate": "2020", "datetype": "pdat"})),
            &[("date_range_reversed", "$.mindate")],
        ),
        bad(
            Q,
            json!({"operation": "count_by_year", "term": "asthma", "mindate": "1900", "maxdate": "2024"}),
            &[("chart_too_large", "$.mindate")],
        ),
        bad(
            Q,
            json!({"operation": "count_by_year", "term": "asthma", "mindate": "2020/01", "maxdate": "2024"}),
            &[("invalid_date", "$.mindate")],
        ),
        bad(
            Q,
            s(json!({"mindate": "2024-01-01", "maxdate": "2024/12/31", "datetype": "pdat"})),
            &[
                ("schema_pattern", "$.mindate"),
                ("invalid_date", "$.mindate"),
            ],
        ),
        bad(
            Q,
            s(json!({"mindate": "2020", "datetype": "pdat"})),
            &[
                ("schema_required", "$"),
                ("date_pair_incomplete", "$.maxdate"),
            ],
        ),
        bad(
            Q,
            s(json!({"maxdate": "2020", "datetype": "pdat"})),
            &[
                ("schema_required", "$"),
                ("date_pair_incomplete", "$.mindate"),
            ],
        ),
        bad(
            Q,
            s(json!({"retstart": 9990})),
            &[("pubmed_paging_limit", "$.retstart")],
        ),
        bad(
            Q,
            s(json!({"retstart": 5000, "retmax": 6000})),
            &[("pubmed_paging_limit", "$.retstart")],
        ),
        ok(Q, s(json!({"retstart": 9980, "retmax": 20}))),
        ok(
            Q,
            json!({"operation": "search", "database": "nuccore", "term": "tp53", "retstart": 50000, "retmax": 100}),
        ),
        bad(
            Q,
            s(json!({"retmax": 20000})),
            &[
                ("schema_maximum", "$.retmax"),
                ("retmax_too_large", "$.retmax"),
                ("pubmed_paging_limit", "$.retstart"),
            ],
        ),
        warned(Q, s(json!({"sort": "date"})), &[("unknown_sort", "$.sort")]),
        ok(Q, s(json!({"sort": "pub_date"}))),
        ok(Q, s(json!({"sort": "relevance"}))),
        ok(
            Q,
            json!({"operation": "search", "database": "gene", "term": "tp53", "sort": "anything"}),
        ),
        warned(
            Q,
            s(json!({"field": "tiabs"})),
            &[("unknown_field_tag", "$.field")],
        ),
        ok(Q, s(json!({"field": "title"}))),
        ok(
            Q,
            json!({"operation": "search", "database": "nuccore", "term": "tp53", "idtype": "acc"}),
        ),
        warned(
            Q,
            s(json!({"idtype": "acc"})),
            &[("ignored_parameter", "$.idtype")],
        ),
        ok(Q, s(json!({"usehistory": true}))),
        warned(
            Q,
            s(json!({"ids": ["1"]})),
            &[("ignored_parameter", "$.ids")],
        ),
    ]
}

/// Loose arguments: one case per reading code (the full set is tests/fixtures/loose-calls).
fn loose_arguments() -> Vec<Case> {
    vec![
        warned(
            Q,
            json!({"operation": "search", "db": "pubmed", "term": "asthma", "retmax": "5", "sort": null}),
            &[
                ("argument_alias", "$.db"),
                ("argument_coerced", "$.retmax"),
                ("argument_omitted", "$.sort"),
            ],
        ),
        bad(
            Q,
            with(search("asthma"), json!({"retmax": "lots"})),
            &[("argument_unreadable", "$.retmax")],
        ),
        bad(
            Q,
            json!({"operation": "search", "database": "protein", "db": "pubmed", "term": "tp53"}),
            &[("argument_conflict", "$.db")],
        ),
    ]
}

/// Every info and search case.
pub(super) fn cases() -> Vec<Case> {
    let mut all = info_and_search();
    all.extend(search_parameters());
    all.extend(loose_arguments());
    all
}
