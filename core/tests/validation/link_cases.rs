//! Corpus cases for `entrez_query` link, post, global_query, spell and citation_match.

use super::query_cases::{pmids, with, Q};
use super::{bad, ok, warned, Case};
use serde_json::{json, Value};

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
        // NBK25499, ELink: retmode=ref with prlinks and one id; holding with llinks; id= per id.
        ok(Q, link(json!({"cmd": "prlinks", "retmode": "ref"}))),
        bad(
            Q,
            link(json!({"cmd": "neighbor", "retmode": "ref"})),
            &[("unsupported_retmode", "$.retmode")],
        ),
        bad(
            Q,
            json!({"operation": "link", "cmd": "prlinks", "retmode": "ref", "ids": ["19880848", "19822630"]}),
            &[("unsupported_retmode", "$.retmode")],
        ),
        ok(Q, link(json!({"cmd": "llinkslib", "holding": "CTgov"}))),
        warned(
            Q,
            link(json!({"cmd": "neighbor", "holding": "CTgov"})),
            &[("ignored_parameter", "$.holding")],
        ),
        ok(
            Q,
            json!({"operation": "link", "dbfrom": "protein", "database": "gene", "ids": ["15718680", "157427902"], "by_id": true}),
        ),
        warned(
            Q,
            json!({"operation": "link", "webenv": "MCID_1", "query_key": 1, "by_id": true}),
            &[("ignored_parameter", "$.by_id")],
        ),
        ok(
            Q,
            json!({"operation": "link", "dbfrom": "nuccore", "database": "protein", "ids": ["NM_000546.6"], "idtype": "acc", "retmode": "json"}),
        ),
        warned(
            Q,
            link(json!({"idtype": "acc"})),
            &[("ignored_parameter", "$.idtype")],
        ),
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
        // NBK25499's acheck example names a target database; it is sent as given.
        ok(
            Q,
            link(
                json!({"dbfrom": "protein", "cmd": "acheck", "database": "pubmed", "ids": ["15718680", "157427902"]}),
            ),
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
        ok(
            Q,
            json!({"operation": "check_references", "references": ["PMID: 9500320", "10.1038/nature12373", {"title": "A title", "year": 2019}]}),
        ),
        // A bad reference is its own verdict, never the list's failure.
        warned(
            Q,
            json!({"operation": "check_references", "references": ["PMID: 9500320", "", {"doi": "10.12/x"}]}),
            &[
                ("invalid_reference", "$.references[1]"),
                ("invalid_reference", "$.references[2]"),
            ],
        ),
        // A line in no known layout is said to be unreadable before it is sent.
        warned(
            Q,
            json!({"operation": "check_references", "references": ["PMID: 9500320", "see that 2019 paper from the group; 12 pages"]}),
            &[("unreadable_reference", "$.references[1]")],
        ),
        bad(
            Q,
            json!({"operation": "check_references"}),
            &[("schema_required", "$")],
        ),
    ]
}

/// Every link, post, global_query, spell and citation_match case.
pub(super) fn cases() -> Vec<Case> {
    links_posts_and_the_rest()
}
