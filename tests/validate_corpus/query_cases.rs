//! Corpus cases for `entrez_query`, operation by operation, with real ids.
//!
//! Ids are real records: PMID 19304878, PMC7096066, TP53 (Gene 7157, NM_000546.6,
//! NP_000537.3), haemoglobin (P69905, PDB 4HHB), GRCh38 (GCF_000001405.40),
//! SRR390728, SAMN02604091, PRJNA257197 and rs7412.

use super::{bad, bad_warned, ok, warned, Case};
use serde_json::{json, Value};

const Q: &str = "entrez_query";

fn search(term: &str) -> Value {
    json!({"operation": "search", "term": term})
}

fn summary(db: &str, ids: Value) -> Value {
    json!({"operation": "summary", "database": db, "ids": ids})
}

fn fetch(db: &str, ids: Value) -> Value {
    json!({"operation": "fetch", "database": db, "ids": ids})
}

fn with(mut base: Value, extra: Value) -> Value {
    for (k, v) in extra.as_object().unwrap() {
        base[k] = v.clone();
    }
    base
}

fn pmids(n: usize) -> Value {
    json!((0..n)
        .map(|i| (10_000_000 + i).to_string())
        .collect::<Vec<_>>())
}

fn info_and_search() -> Vec<Case> {
    vec![
        ok(Q, json!({"operation": "info"})),
        ok(Q, json!({"operation": "info", "database": "pubmed"})),
        ok(Q, json!({"operation": "info", "database": "PubMed"})),
        bad(
            Q,
            json!({"operation": "info", "database": "pubmd"}),
            &[("invalid_database", "$.database")],
        ),
        bad(
            Q,
            json!({"operation": "info", "database": "unigene"}),
            &[("retired_database", "$.database")],
        ),
        bad(
            Q,
            json!({"operation": "info", "database": "homologene"}),
            &[("retired_database", "$.database")],
        ),
        bad(
            Q,
            json!({"operation": "info", "database": "dbsnp"}),
            &[("invalid_database", "$.database")],
        ),
        bad(
            Q,
            json!({"operation": "info", "database": "zzqqxx"}),
            &[("invalid_database", "$.database")],
        ),
        warned(
            Q,
            json!({"operation": "info", "database": "gene", "term": "x"}),
            &[("ignored_parameter", "$.term")],
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
        bad(
            Q,
            json!({"operation": "search", "term": "a", "webenv": "MCID_1"}),
            &[
                ("schema_required", "$"),
                ("history_pair_incomplete", "$.query_key"),
            ],
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

fn summaries() -> Vec<Case> {
    vec![
        ok(Q, summary("pubmed", json!(["19304878", "30242208"]))),
        ok(Q, summary("pubmed", json!([19304878]))),
        ok(Q, summary("protein", json!(["NP_000537.3"]))),
        ok(Q, summary("nuccore", json!(["NM_000546.6", "NM_123456"]))),
        ok(
            Q,
            summary("nucleotide", json!(["NM_000546.6", "NC_000017.11"])),
        ),
        ok(
            Q,
            summary("nuccore", json!(["U49845", "AB123456.1", "NZ_CP009257.1"])),
        ),
        ok(Q, summary("pmc", json!(["PMC7096066", "7096066"]))),
        ok(
            Q,
            summary(
                "protein",
                json!(["P69905", "P69905.2", "AAA12345.1", "WP_000001.1"]),
            ),
        ),
        ok(Q, summary("gene", json!(["7157", "672"]))),
        ok(Q, summary("taxonomy", json!(["9606"]))),
        ok(
            Q,
            summary("assembly", json!(["GCF_000001405.40", "GCA_000001405.29"])),
        ),
        ok(Q, summary("sra", json!(["SRR390728", "ERR1234567"]))),
        ok(Q, summary("snp", json!(["rs7412", "429358"]))),
        ok(Q, summary("biosample", json!(["SAMN02604091"]))),
        ok(Q, summary("bioproject", json!(["PRJNA257197"]))),
        ok(Q, summary("structure", json!(["4HHB"]))),
        ok(Q, summary("clinvar", json!(["12345"]))),
        bad(
            Q,
            summary("pubmed", json!(["NP_000537.3"])),
            &[("id_wrong_database", "$.ids[0]")],
        ),
        bad(
            Q,
            summary("pubmed", json!(["19304878", "PMC7096066"])),
            &[("id_wrong_database", "$.ids[1]")],
        ),
        bad(
            Q,
            summary("pubmed", json!(["NM_000546.6"])),
            &[("id_wrong_database", "$.ids[0]")],
        ),
        bad(
            Q,
            summary("pubmed", json!(["abc"])),
            &[("invalid_id", "$.ids[0]")],
        ),
        bad(
            Q,
            summary("pubmed", json!(["10.1038/nature12373"])),
            &[("invalid_id", "$.ids[0]")],
        ),
        bad(
            Q,
            summary("pubmed", json!(["19304878,30242208"])),
            &[("invalid_id", "$.ids[0]")],
        ),
        bad(
            Q,
            summary("pubmed", json!([" "])),
            &[("invalid_id", "$.ids[0]")],
        ),
        bad(
            Q,
            summary("pubmed", json!([-5])),
            &[("invalid_id", "$.ids[0]")],
        ),
        bad(
            Q,
            summary("gene", json!(["BRCA1"])),
            &[("invalid_id", "$.ids[0]")],
        ),
        bad(
            Q,
            summary("taxonomy", json!(["Homo sapiens"])),
            &[("invalid_id", "$.ids[0]")],
        ),
        bad(
            Q,
            summary("pmc", json!(["PMCabc"])),
            &[("invalid_id", "$.ids[0]")],
        ),
        bad(
            Q,
            summary("snp", json!(["rsX1"])),
            &[("invalid_id", "$.ids[0]")],
        ),
        bad(
            Q,
            summary("protein", json!(["NM_000546.6"])),
            &[("id_wrong_database", "$.ids[0]")],
        ),
        bad(
            Q,
            summary("nuccore", json!(["NP_000537.3"])),
            &[("id_wrong_database", "$.ids[0]")],
        ),
        bad(
            Q,
            summary("gene", json!(["rs7412"])),
            &[("id_wrong_database", "$.ids[0]")],
        ),
        bad(
            Q,
            summary("sra", json!(["GCF_000001405.40"])),
            &[("id_wrong_database", "$.ids[0]")],
        ),
        bad(
            Q,
            summary("assembly", json!(["SAMN02604091"])),
            &[("id_wrong_database", "$.ids[0]")],
        ),
        bad(
            Q,
            summary("taxonomy", json!(["PRJNA257197"])),
            &[("id_wrong_database", "$.ids[0]")],
        ),
        bad(
            Q,
            summary("pubmed", json!(["4HHB"])),
            &[("id_wrong_database", "$.ids[0]")],
        ),
        warned(
            Q,
            summary("pubmed", json!(["19304878", "19304878"])),
            &[("duplicate_id", "$.ids[1]")],
        ),
        warned(
            Q,
            summary("nuccore", json!(["CONTIG_X1"])),
            &[("unrecognized_id", "$.ids[0]")],
        ),
        bad(
            Q,
            summary("pubmed", pmids(600)),
            &[("too_many_ids", "$.ids")],
        ),
        warned(
            Q,
            summary("pubmed", pmids(250)),
            &[("many_ids_post", "$.ids")],
        ),
        warned(
            Q,
            with(summary("pubmed", pmids(600)), json!({"retmode": "xml"})),
            &[("many_ids_post", "$.ids")],
        ),
        bad(
            Q,
            with(summary("pubmed", json!(["1"])), json!({"retmode": "text"})),
            &[("unsupported_retmode", "$.retmode")],
        ),
        warned(
            Q,
            with(
                summary("pubmed", json!(["1"])),
                json!({"rettype": "abstract"}),
            ),
            &[("ignored_parameter", "$.rettype")],
        ),
        ok(
            Q,
            json!({"operation": "summary", "webenv": "MCID_1", "query_key": 1, "retmax": 100}),
        ),
        bad(
            Q,
            json!({"operation": "summary", "webenv": "MCID_1", "query_key": 1, "retmax": 1000}),
            &[("retmax_too_large", "$.retmax")],
        ),
        ok(
            Q,
            json!({"operation": "summary", "webenv": "MCID_1", "query_key": 1, "retmax": 1000, "retmode": "xml"}),
        ),
        warned(
            Q,
            with(summary("pubmed", json!(["1"])), json!({"retstart": 5})),
            &[("ignored_parameter", "$.retstart")],
        ),
        warned(
            Q,
            with(
                summary("pubmed", json!(["1"])),
                json!({"webenv": "W", "query_key": 2}),
            ),
            &[("ignored_parameter", "$.webenv")],
        ),
        bad(
            Q,
            summary("protien", json!(["NP_000537.3"])),
            &[("invalid_database", "$.database")],
        ),
        bad(
            Q,
            json!({"operation": "summary", "database": "pubmed"}),
            &[("schema_any_of", "$")],
        ),
        too_many_bad_ids(),
    ]
}

/// 25 bad PMIDs: 20 listed one by one, the rest counted in one finding.
fn too_many_bad_ids() -> Case {
    let ids: Vec<String> = (0..25).map(|i| format!("x{i}")).collect();
    let mut case = bad(Q, summary("pubmed", json!(ids)), &[("invalid_id", "$.ids")]);
    for i in 0..20 {
        case.errors.push(("invalid_id", format!("$.ids[{i}]")));
    }
    case
}

fn fetches() -> Vec<Case> {
    let f = |db: &str, ids: Value, extra: Value| with(fetch(db, ids), extra);
    let pmid = json!(["19304878"]);
    let nm = json!(["NM_000546.6"]);
    let np = json!(["NP_000537.3"]);
    vec![
        ok(Q, fetch("pubmed", pmid.clone())),
        ok(
            Q,
            f(
                "pubmed",
                pmid.clone(),
                json!({"rettype": "abstract", "retmode": "text"}),
            ),
        ),
        ok(Q, f("pubmed", pmid.clone(), json!({"rettype": "medline"}))),
        ok(
            Q,
            f(
                "pubmed",
                pmid.clone(),
                json!({"rettype": "uilist", "retmode": "text"}),
            ),
        ),
        ok(Q, fetch("pmc", json!(["PMC7096066"]))),
        ok(
            Q,
            f(
                "pmc",
                json!(["7096066"]),
                json!({"rettype": "medline", "retmode": "text"}),
            ),
        ),
        ok(Q, fetch("nuccore", nm.clone())),
        ok(
            Q,
            f(
                "nuccore",
                nm.clone(),
                json!({"rettype": "fasta", "retmode": "text"}),
            ),
        ),
        ok(
            Q,
            f(
                "nucleotide",
                nm.clone(),
                json!({"rettype": "fasta", "retmode": "xml"}),
            ),
        ),
        ok(
            Q,
            f(
                "nuccore",
                nm.clone(),
                json!({"rettype": "gbwithparts", "retmode": "text"}),
            ),
        ),
        ok(
            Q,
            f(
                "nuccore",
                nm.clone(),
                json!({"rettype": "fasta_cds_aa", "retmode": "text"}),
            ),
        ),
        ok(Q, fetch("protein", np.clone())),
        ok(
            Q,
            f(
                "protein",
                np.clone(),
                json!({"rettype": "ipg", "retmode": "xml"}),
            ),
        ),
        ok(
            Q,
            f(
                "protein",
                np.clone(),
                json!({"rettype": "gp", "retmode": "text"}),
            ),
        ),
        ok(Q, fetch("taxonomy", json!(["9606"]))),
        ok(Q, fetch("gene", json!(["7157"]))),
        ok(
            Q,
            f(
                "gene",
                json!(["7157"]),
                json!({"rettype": "gene_table", "retmode": "text"}),
            ),
        ),
        ok(Q, fetch("sra", json!(["SRR390728"]))),
        ok(Q, fetch("biosample", json!(["SAMN02604091"]))),
        ok(Q, fetch("snp", json!(["rs7412"]))),
        ok(Q, fetch("clinvar", json!(["12345"]))),
        ok(
            Q,
            f(
                "sequences",
                nm.clone(),
                json!({"rettype": "fasta", "retmode": "text"}),
            ),
        ),
        ok(
            Q,
            f(
                "gds",
                json!(["200012345"]),
                json!({"rettype": "summary", "retmode": "text"}),
            ),
        ),
        bad(
            Q,
            f("pubmed", pmid.clone(), json!({"rettype": "gb"})),
            &[("unsupported_rettype", "$.rettype")],
        ),
        bad(
            Q,
            f("pubmed", pmid.clone(), json!({"rettype": "xml"})),
            &[("unsupported_rettype", "$.rettype")],
        ),
        bad(
            Q,
            f("nuccore", nm.clone(), json!({"rettype": "gbwithparts"})),
            &[("unsupported_retmode", "$.retmode")],
        ),
        bad(
            Q,
            f(
                "protein",
                np.clone(),
                json!({"rettype": "gb", "retmode": "text"}),
            ),
            &[("unsupported_rettype", "$.rettype")],
        ),
        bad(
            Q,
            f("nuccore", nm.clone(), json!({"rettype": "gp"})),
            &[("unsupported_rettype", "$.rettype")],
        ),
        bad(
            Q,
            f("pubmed", pmid.clone(), json!({"retmode": "json"})),
            &[("unsupported_retmode", "$.retmode")],
        ),
        bad(
            Q,
            f(
                "pubmed",
                pmid.clone(),
                json!({"rettype": "abstract", "retmode": "xml"}),
            ),
            &[("unsupported_retmode", "$.retmode")],
        ),
        bad(
            Q,
            f("gds", json!(["200012345"]), json!({"retmode": "xml"})),
            &[("unsupported_retmode", "$.retmode")],
        ),
        warned(
            Q,
            fetch("gds", json!(["200012345"])),
            &[("undocumented_format", "$.retmode")],
        ),
        warned(
            Q,
            fetch("structure", json!(["4HHB"])),
            &[("undocumented_format", "$.database")],
        ),
        bad(
            Q,
            fetch("sequence", nm.clone()),
            &[("invalid_database", "$.database")],
        ),
        bad(
            Q,
            fetch("nucest", nm.clone()),
            &[("retired_database", "$.database")],
        ),
        bad(
            Q,
            fetch("pubmed", np.clone()),
            &[("id_wrong_database", "$.ids[0]")],
        ),
        bad_warned(
            Q,
            fetch("pubmed", json!(["PMC7096066", "PMC7096066"])),
            &[("id_wrong_database", "$.ids[0]")],
            &[("duplicate_id", "$.ids[1]")],
        ),
        warned(
            Q,
            json!({"operation": "fetch", "webenv": "MCID_1", "query_key": 1, "retmax": 500}),
            &[("retmax_capped", "$.retmax")],
        ),
        ok(
            Q,
            json!({"operation": "fetch", "webenv": "MCID_1", "query_key": 1, "retstart": 200, "retmax": 200}),
        ),
        warned(
            Q,
            f("pubmed", pmid.clone(), json!({"term": "x"})),
            &[("ignored_parameter", "$.term")],
        ),
        bad(
            Q,
            fetch("pubmed", json!([])),
            &[("schema_min_items", "$.ids")],
        ),
    ]
}

fn links_posts_and_the_rest() -> Vec<Case> {
    let pmid = json!(["19304878"]);
    let link = |extra: Value| with(json!({"operation": "link", "ids": ["19304878"]}), extra);
    vec![
        ok(Q, link(json!({}))),
        ok(
            Q,
            link(json!({"dbfrom": "pubmed", "database": "pubmed", "cmd": "neighbor_score"})),
        ),
        ok(Q, link(json!({"linkname": "pubmed_pmc_refs"}))),
        ok(Q, link(json!({"cmd": "prlinks"}))),
        ok(
            Q,
            json!({"operation": "link", "dbfrom": "nuccore", "database": "protein", "ids": ["NM_000546.6"]}),
        ),
        ok(
            Q,
            json!({"operation": "link", "dbfrom": "protein", "database": "gene", "ids": ["NP_000537.3"]}),
        ),
        ok(
            Q,
            json!({"operation": "link", "dbfrom": "nucleotide", "linkname": "nuccore_protein", "ids": ["NM_000546.6"]}),
        ),
        ok(Q, link(json!({"database": "pubmed", "term": "review[pt]"}))),
        ok(
            Q,
            json!({"operation": "link", "webenv": "MCID_1", "query_key": 1}),
        ),
        bad(
            Q,
            json!({"operation": "link", "dbfrom": "gene", "linkname": "pubmed_pmc_refs", "ids": ["7157"]}),
            &[("linkname_mismatch", "$.linkname")],
        ),
        bad(
            Q,
            link(json!({"linkname": "pubmed_pmc_refs", "database": "protein"})),
            &[("linkname_mismatch", "$.linkname")],
        ),
        warned(
            Q,
            link(json!({"linkname": "pubmed_pmc_ref"})),
            &[("unknown_linkname", "$.linkname")],
        ),
        warned(
            Q,
            link(json!({"cmd": "prlinks", "database": "pubmed"})),
            &[("ignored_parameter", "$.database")],
        ),
        bad(
            Q,
            link(json!({"dbfrom": "pubmd"})),
            &[("invalid_database", "$.dbfrom")],
        ),
        bad(
            Q,
            link(json!({"database": "gnee"})),
            &[("invalid_database", "$.database")],
        ),
        bad(
            Q,
            json!({"operation": "link", "ids": ["NP_000537.3"]}),
            &[("id_wrong_database", "$.ids[0]")],
        ),
        bad(
            Q,
            link(json!({"term": "review[pt"})),
            &[("unbalanced_brackets", "$.term")],
        ),
        warned(
            Q,
            link(json!({"mindate": "2020", "maxdate": "2021"})),
            &[("datetype_missing", "$.datetype")],
        ),
        ok(Q, json!({"operation": "post", "ids": pmid.clone()})),
        ok(
            Q,
            json!({"operation": "post", "database": "protein", "ids": ["NP_000537.3", "XP_011522452.1"]}),
        ),
        bad(
            Q,
            json!({"operation": "post", "ids": ["NP_000537.3"]}),
            &[("id_wrong_database", "$.ids[0]")],
        ),
        warned(
            Q,
            json!({"operation": "post", "ids": pmids(300)}),
            &[("many_ids_post", "$.ids")],
        ),
        bad(
            Q,
            json!({"operation": "post", "ids": pmids(10_001)}),
            &[("schema_max_items", "$.ids"), ("too_many_ids", "$.ids")],
        ),
        warned(
            Q,
            json!({"operation": "post", "ids": pmid.clone(), "term": "x"}),
            &[("ignored_parameter", "$.term")],
        ),
        bad(Q, json!({"operation": "post"}), &[("schema_required", "$")]),
        ok(Q, json!({"operation": "global_query", "term": "BRCA1"})),
        ok(
            Q,
            json!({"operation": "global_query", "term": "BRCA1", "databases": ["pubmed", "Gene"]}),
        ),
        bad(
            Q,
            json!({"operation": "global_query", "term": "BRCA1", "databases": ["pubmed", "genee"]}),
            &[("invalid_database", "$.databases[1]")],
        ),
        bad(
            Q,
            json!({"operation": "global_query", "term": "BRCA1", "databases": ["unigene"]}),
            &[("retired_database", "$.databases[0]")],
        ),
        bad(
            Q,
            json!({"operation": "global_query", "term": "\"BRCA1"}),
            &[("unbalanced_quotes", "$.term")],
        ),
        warned(
            Q,
            json!({"operation": "global_query", "term": "brca1 and cancer"}),
            &[("lowercase_operator", "$.term")],
        ),
        ok(
            Q,
            json!({"operation": "spell", "term": "asthmaa OR alergies"}),
        ),
        ok(
            Q,
            json!({"operation": "spell", "database": "pmc", "term": "fibrosiss"}),
        ),
        bad(
            Q,
            json!({"operation": "spell", "database": "pubmd", "term": "x"}),
            &[("invalid_database", "$.database")],
        ),
        warned(
            Q,
            json!({"operation": "spell", "term": "x", "ids": ["1"]}),
            &[("ignored_parameter", "$.ids")],
        ),
        ok(
            Q,
            json!({"operation": "citation_match", "citations": [{"journal": "proc natl acad sci u s a", "year": 1991, "volume": 88, "first_page": 3248, "author": "mann bj", "key": "Art1"}]}),
        ),
        warned(
            Q,
            json!({"operation": "citation_match", "database": "pmc", "citations": [{"journal": "science"}]}),
            &[("ignored_parameter", "$.database")],
        ),
        bad(
            Q,
            json!({"operation": "citation_match", "citations": [{}]}),
            &[("schema_required", "$.citations[0]")],
        ),
    ]
}

/// Every `entrez_query` case.
pub fn cases() -> Vec<Case> {
    let mut all = info_and_search();
    all.extend(search_parameters());
    all.extend(summaries());
    all.extend(fetches());
    all.extend(links_posts_and_the_rest());
    all
}
