//! Request construction for check_references: the exact ECitMatch line, DOI search and title
//! search a reference list becomes.

use entrez_mcp_core::entrez::EutilsRequest;
use entrez_mcp_core::net::Method;
use entrez_mcp_core::tools::entrez_query::call::{CitationMatch, Search};
use entrez_mcp_core::tools::entrez_query::plan;
use entrez_mcp_core::tools::entrez_query::references::input::Reference;
use entrez_mcp_core::tools::entrez_query::references::{citation_line, doi_term, title_term};
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
