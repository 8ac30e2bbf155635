//! Corpus cases for `entrez_query` summary and fetch: ids per database, limits, EFetch formats.
//!
//! The fetch cases walk NCBI's EFetch table (NBK25499 Table 1): pairs it lists
//! pass, pairs it does not are refused, and server defaults outside it warn.

use super::query_cases::{fetch, pmids, summary, with, Q};
use super::{bad, bad_warned, ok, warned, Case};
use serde_json::{json, Value};

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
            with(
                summary("pubmed", pmids(600)),
                json!({"retmode": "xml", "version": "2.0"}),
            ),
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
            json!({"operation": "summary", "webenv": "MCID_1", "query_key": 1, "retmax": 100, "retmode": "json"}),
        ),
        bad(
            Q,
            json!({"operation": "summary", "webenv": "MCID_1", "query_key": 1, "retmax": 1000, "retmode": "json"}),
            &[("retmax_too_large", "$.retmax")],
        ),
        ok(
            Q,
            json!({"operation": "summary", "webenv": "MCID_1", "query_key": 1, "retmax": 1000, "retmode": "xml", "version": "2.0"}),
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
            json!({"operation": "summary", "database": "pubmed", "retmode": "json"}),
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
        // PopSet is a sequence database EInfo's recorded list omits; fetched as GenBank,
        // this server's choice of rettype, which the result names.
        warned(
            Q,
            fetch("popset", json!(["12829836"])),
            &[("format_chosen", "$.rettype")],
        ),
        // A gene's region of its chromosome: TP53 on NC_000017.11, minus strand.
        ok(
            Q,
            f(
                "nuccore",
                json!(["NC_000017.11"]),
                json!({"rettype": "fasta", "retmode": "text", "seq_start": 7668402, "seq_stop": 7687550, "strand": 2}),
            ),
        ),
        bad_warned(
            Q,
            f(
                "nuccore",
                nm.clone(),
                json!({"seq_start": 500, "seq_stop": 100}),
            ),
            &[("sequence_range_reversed", "$.seq_start")],
            &[("format_chosen", "$.rettype")],
        ),
        bad_warned(
            Q,
            f("nuccore", nm.clone(), json!({"strand": 3, "complexity": 9})),
            &[
                ("schema_maximum", "$.strand"),
                ("schema_maximum", "$.complexity"),
            ],
            &[("format_chosen", "$.rettype")],
        ),
        warned(
            Q,
            f("pubmed", pmid.clone(), json!({"seq_start": 1})),
            &[("ignored_parameter", "$.seq_start")],
        ),
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
        warned(
            Q,
            fetch("nuccore", nm.clone()),
            &[("format_chosen", "$.rettype")],
        ),
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
        warned(
            Q,
            fetch("protein", np.clone()),
            &[("format_chosen", "$.rettype")],
        ),
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
        warned(
            Q,
            fetch("gene", json!(["7157"])),
            &[("format_chosen", "$.retmode")],
        ),
        ok(
            Q,
            f(
                "gene",
                json!(["7157"]),
                json!({"rettype": "gene_table", "retmode": "text"}),
            ),
        ),
        ok(Q, fetch("sra", json!(["SRR390728"]))),
        warned(
            Q,
            fetch("biosample", json!(["SAMN02604091"])),
            &[("format_chosen", "$.retmode")],
        ),
        warned(
            Q,
            fetch("snp", json!(["rs7412"])),
            &[("format_chosen", "$.retmode")],
        ),
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
            json!({"operation": "fetch", "webenv": "MCID_1", "query_key": 1, "retmax": 600}),
            &[("retmax_capped", "$.retmax")],
        ),
        ok(
            Q,
            json!({"operation": "fetch", "webenv": "MCID_1", "query_key": 1, "retstart": 200, "retmax": 200}),
        ),
        warned(
            Q,
            json!({"operation": "fetch", "database": "pubmed", "ids": ["1"], "max_characters": 900_000}),
            &[("budget_capped", "$.max_characters")],
        ),
        ok(
            Q,
            json!({"operation": "fetch", "database": "pubmed", "ids": ["1"], "detail": "brief", "fields": ["title"], "max_characters": 5000}),
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

/// Every summary and fetch case.
pub(super) fn cases() -> Vec<Case> {
    let mut all = summaries();
    all.extend(fetches());
    all
}
