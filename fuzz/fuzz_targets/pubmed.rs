//! PubMed efetch XML, the largest and most nested body the server parses.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = entrez_mcp_parse::pubmed::parse_pubmed(data);
});
