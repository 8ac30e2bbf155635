//! Request construction for check_references: the exact ECitMatch line, DOI search and title
//! search a reference list becomes.

use entrez_mcp_core::entrez::EutilsRequest;
use entrez_mcp_core::net::Method;
use entrez_mcp_core::tools::entrez_query::call::{CitationMatch, Search};
use entrez_mcp_core::tools::entrez_query::plan;
use entrez_mcp_core::tools::entrez_query::references::input::Reference;
use entrez_mcp_core::tools::entrez_query::references::{
    batch_term, citation_line, doi_term, id_term, loose_term, title_term,
};
use serde_json::json;

const BASE: &str = "https://eutils.ncbi.nlm.nih.gov/entrez/eutils/";
const ID: &str = "&tool=entrez-mcp&email=dev%40example.org";

fn url(req: &EutilsRequest) -> String {
    let call = req.build(BASE, "entrez-mcp", Some("dev@example.org"), None);
    assert_eq!(call.method, Method::Get);
    call.url
}

fn search(term: String, retmax: u64) -> EutilsRequest {
    plan::search(&Search::ids_of("pubmed", term, retmax))
}

#[test]
fn a_vancouver_entry_becomes_one_ecitmatch_line_keyed_by_its_position() {
    let r = Reference::from_text(
        "Wakefield AJ, Murch SH, Anthony A, et al. Ileal-lymphoid-nodular hyperplasia, non-specific colitis, and pervasive developmental disorder in children. Lancet. 1998;351(9103):637-41.",
    );
    let other = Reference::read(
        1,
        &json!({"journal": "proc natl acad sci u s a", "year": 1991, "volume": 88, "first_page": 3248, "authors": ["Mann BJ"]}),
    );
    let req = plan::citation_match(&CitationMatch {
        citations: vec![citation_line(&r, 0), citation_line(&other, 7)],
        retmode: Some("xml".into()),
        rettype: None,
    });
    assert_eq!(
        url(&req),
        format!("{BASE}ecitmatch.cgi?db=pubmed&retmode=xml&bdata=Lancet%7C1998%7C351%7C637%7Cwakefield%7Ck0%7C%0Dproc%20natl%20acad%20sci%20u%20s%20a%7C1991%7C88%7C3248%7Cmann%7Ck7%7C{ID}")
    );
}

#[test]
fn dois_share_one_search_and_titles_search_their_longest_words() {
    let term = doi_term(["10.1016/s0140-6736(97)11096-0", "10.1038/nature12373"].into_iter());
    assert_eq!(
        url(&search(term, 4)),
        format!("{BASE}esearch.fcgi?db=pubmed&term=%2210.1016%2Fs0140-6736%2897%2911096-0%22%5Bdoi%5D%20OR%20%2210.1038%2Fnature12373%22%5Bdoi%5D&retstart=0&retmax=4{ID}")
    );
    let title = title_term("Ileal-lymphoid-nodular hyperplasia, non-specific colitis, and pervasive developmental disorder in children.").unwrap();
    assert_eq!(
        title,
        "ileal[ti] AND lymphoid[ti] AND nodular[ti] AND hyperplasia[ti] AND specific[ti] AND colitis[ti] AND pervasive[ti] AND developmental[ti] AND disorder[ti] AND children[ti]"
    );
    assert_eq!(title_term("A of"), None);
}

#[test]
fn titles_are_batched_into_one_search_with_a_looser_clause_for_typos() {
    // Stopwords and words under three letters are not searched (PubMed ignores stopwords).
    let a =
        title_term("The treatment of AIDS behind the walls of correctional facilities").unwrap();
    assert_eq!(a, "treatment[ti] AND aids[ti] AND behind[ti] AND walls[ti] AND correctional[ti] AND facilities[ti]");
    let typo = Reference::from_text("Lerro CC. Occupational pesticide exposure and subclinical hypothyroidsm among male pesticide applicators. Occup Environ Med. 2018.");
    let loose = loose_term(&typo).unwrap();
    assert_eq!(
        loose,
        "(hypothyroidsm[ti] OR occupational[ti] OR subclinical[ti] OR applicators[ti] OR pesticide[ti] OR exposure[ti]) AND \"lerro\"[1au] AND 2018[dp]"
    );
    let term = batch_term([a.as_str(), loose.as_str()].into_iter());
    assert_eq!(
        url(&search(term, 10)),
        format!("{BASE}esearch.fcgi?db=pubmed&term=%28treatment%5Bti%5D%20AND%20aids%5Bti%5D%20AND%20behind%5Bti%5D%20AND%20walls%5Bti%5D%20AND%20correctional%5Bti%5D%20AND%20facilities%5Bti%5D%29%20OR%20%28%28hypothyroidsm%5Bti%5D%20OR%20occupational%5Bti%5D%20OR%20subclinical%5Bti%5D%20OR%20applicators%5Bti%5D%20OR%20pesticide%5Bti%5D%20OR%20exposure%5Bti%5D%29%20AND%20%22lerro%22%5B1au%5D%20AND%202018%5Bdp%5D%29&retstart=0&retmax=10{ID}")
    );
    // A DOI and a PMCID share one search; a PMCID is searched as a PMCID, never as a PMID.
    let refs = [
        Reference::from_text("doi:10.1136/gutjnl-2016-312510"),
        Reference::from_text("PMCID: PMC5771820"),
    ];
    assert_eq!(
        id_term(refs.iter()),
        "\"10.1136/gutjnl-2016-312510\"[doi] OR PMC5771820[pmcid]"
    );
    // Too little to keep a loose search narrow: none.
    assert_eq!(
        loose_term(&Reference::from_text(
            "Occupational pesticide exposure and subclinical hypothyroidism"
        )),
        None
    );
}
