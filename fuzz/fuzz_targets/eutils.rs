//! Every other E-utilities parser; the first byte picks which one reads the rest.
#![no_main]
use entrez_mcp_parse as parse;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&which, body)) = data.split_first() else {
        return;
    };
    let text = || String::from_utf8_lossy(body).into_owned();
    match which % 20 {
        0 => drop(parse::esearch::parse_esearch_xml(body)),
        1 => drop(parse::esearch::parse_esearch_json(body)),
        2 => drop(parse::esummary::parse_esummary_xml(body)),
        3 => drop(parse::esummary::json::parse_esummary_json(body)),
        4 => drop(parse::elink::parse_elink_xml(body)),
        5 => drop(parse::elink::json::parse_elink_json(body)),
        6 => drop(parse::einfo::parse_einfo(body)),
        7 => drop(parse::epost::parse_epost(body)),
        8 => drop(parse::espell::parse_espell(body)),
        9 => drop(parse::gbseq::parse_gbseq(body)),
        10 => drop(parse::tinyseq::parse_tinyseq(body)),
        11 => drop(parse::taxonomy::parse_taxonomy(body)),
        12 => drop(parse::ipg::parse_ipg(body)),
        13 => drop(parse::pmc::parse_pmc(body)),
        14 => drop(parse::generic::parse_generic(body, None)),
        15 => drop(parse::medline::parse_medline(&text())),
        16 => drop(parse::fasta::parse_fasta(&text())),
        17 => drop(parse::flatfile::parse_flatfile(&text())),
        18 => drop(parse::ecitmatch::parse_ecitmatch(&text())),
        _ => drop(parse::body_errors::body_error(body, Some("text/xml"))),
    }
});
