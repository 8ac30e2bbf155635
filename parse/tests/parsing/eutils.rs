//! EInfo, ESearch, EPost, ESpell and ECitMatch parsers against recorded NCBI replies.
//!
//! Every assertion is a value read from the fixture file itself, so a parser
//! that drops, shifts or mistypes a field fails here.

use entrez_mcp_parse::ecitmatch::{parse_ecitmatch, MatchStatus};
use entrez_mcp_parse::einfo::{parse_einfo, EInfo};
use entrez_mcp_parse::epost::parse_epost;
use entrez_mcp_parse::esearch::{parse_esearch_json, parse_esearch_xml};
use entrez_mcp_parse::espell::parse_espell;

macro_rules! fixture {
    ($path:literal) => {
        include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/fixtures/ncbi/",
            $path
        ))
    };
}

#[test]
fn einfo1_lists_every_database_in_order() {
    let EInfo::Databases(names) = parse_einfo(fixture!("eutils/einfo1.xml")).unwrap() else {
        panic!("einfo1 is a database list");
    };
    assert_eq!(names.len(), 39);
    assert_eq!(names[0], "pubmed");
    assert_eq!(names[2], "nuccore");
    assert_eq!(names.last().unwrap(), "gtr");
    assert!(names.iter().any(|n| n == "pccompound"));
}

#[test]
fn einfo2_describes_pubmed_fields_and_links() {
    let EInfo::Database(db) = parse_einfo(fixture!("eutils/einfo2.xml")).unwrap() else {
        panic!("einfo2 describes one database");
    };
    assert_eq!(db.db_name, "pubmed");
    assert_eq!(db.menu_name, "PubMed");
    assert_eq!(db.description, "PubMed bibliographic record");
    assert_eq!(db.db_build.as_deref(), Some("Build-2025.11.27.06.33"));
    assert_eq!(db.count, Some(39_730_388));
    assert_eq!(db.last_update.as_deref(), Some("2025/11/27 06:33"));
    assert_eq!(db.fields.len(), 50);
    assert_eq!(db.links.len(), 57);

    let uid = &db.fields[1];
    assert_eq!((uid.name.as_str(), uid.full_name.as_str()), ("UID", "UID"));
    assert!(uid.is_numerical && uid.single_token && uid.is_hidden);
    assert!(!uid.is_date && !uid.hierarchy);
    // <TermCount/> is empty in this recording: "not reported", not zero.
    assert_eq!(uid.term_count, None);

    let mesh = db.fields.iter().find(|f| f.name == "MESH").unwrap();
    assert_eq!(mesh.full_name, "MeSH Terms");
    assert!(mesh.hierarchy);
    let pdat = db.fields.iter().find(|f| f.name == "PDAT").unwrap();
    assert!(pdat.is_date);
    let affl = db.fields.iter().find(|f| f.name == "AFFL").unwrap();
    assert_eq!(
        affl.description,
        "Author's institutional affiliation and address"
    );
    assert_eq!(db.fields.last().unwrap().name, "P1DAT");

    assert_eq!(db.links[0].name, "pubmed_assembly");
    let similar = db.links.iter().find(|l| l.name == "pubmed_pubmed").unwrap();
    assert_eq!(similar.menu, "Similar articles");
    assert_eq!(similar.db_to, "pubmed");
    let last = db.links.last().unwrap();
    assert_eq!(last.name, "pubmed_taxonomy_entrez");
    assert_eq!(last.db_to, "taxonomy");
}

#[test]
fn esearch1_counts_and_ids() {
    let r = parse_esearch_xml(fixture!("eutils/esearch1.xml")).unwrap();
    assert_eq!((r.count, r.retmax, r.retstart), (63, 20, 0));
    assert_eq!(r.ids.len(), 20);
    assert_eq!(r.ids[0], "41282813");
    assert_eq!(r.ids[19], "37810457");
    assert_eq!(r.webenv, None);
    assert_eq!(r.query_key, None);
    assert!(r.translation_set.is_empty());
    assert_eq!(
        r.query_translation.as_deref(),
        Some("\"biopython\"[All Fields]")
    );
    assert!(r.errors.is_empty() && r.error_list.phrases_not_found.is_empty());
}

#[test]
fn esearch2_keeps_history_and_translation() {
    let r = parse_esearch_xml(fixture!("eutils/esearch2.xml")).unwrap();
    assert_eq!((r.count, r.retmax), (42249, 100));
    assert_eq!(r.ids.len(), 100);
    assert_eq!(r.ids[0], "41297076");
    assert_eq!(r.ids[99], "41296368");
    assert_eq!(r.query_key.as_deref(), Some("1"));
    assert_eq!(r.webenv.as_deref(), Some("MCID_6927d6e7fee3e90f880ec190"));
    assert!(r.webenv.as_deref().unwrap().starts_with("MCID_"));
    assert_eq!(r.translation_set.len(), 1);
    assert_eq!(r.translation_set[0].from, "cancer");
    assert!(r.translation_set[0]
        .to
        .starts_with("\"cancer's\"[All Fields] OR"));
    assert!(r
        .query_translation
        .as_deref()
        .unwrap()
        .ends_with("AND 2025/09/27:2025/11/26[Date - Entry]"));
}

#[test]
fn esearch3_pmc_with_offset() {
    let r = parse_esearch_xml(fixture!("eutils/esearch3.xml")).unwrap();
    assert_eq!((r.count, r.retmax, r.retstart), (2651, 6, 6));
    assert_eq!(
        r.ids,
        ["11121077", "11121076", "11121075", "11121074", "11121073", "11121072"]
    );
    assert_eq!(r.translation_set[0].from, "PNAS[ta]");
    assert_eq!(
        r.translation_set[0].to,
        "\"Proc Natl Acad Sci U S A\"[Journal:__jid7505876]"
    );
}

#[test]
fn esearch5_translation_stack_does_not_leak_counts() {
    // TranslationStack holds <Count> elements of its own (109831, ...); they must not
    // overwrite the result count.
    let r = parse_esearch_xml(fixture!("eutils/esearch5.xml")).unwrap();
    assert_eq!(r.count, 5);
    assert_eq!(
        r.ids,
        ["6540636", "5830998", "4460425", "4466840", "3443459"]
    );
    assert_eq!(r.translation_set[0].from, "stem cells");
    assert!(r
        .query_translation
        .unwrap()
        .ends_with("AND hasabstract[All Fields]"));
}

#[test]
fn esearch6_nucleotide_ids_beyond_32_bits() {
    let r = parse_esearch_xml(fixture!("eutils/esearch6.xml")).unwrap();
    assert_eq!(r.count, 1018);
    assert_eq!(r.ids[0], "3069587804");
    assert_eq!(r.ids.len(), 20);
    assert_eq!(r.query_translation.as_deref(), Some("biomol trna[prop]"));
}

#[test]
fn esearch7_protein_by_molecular_weight() {
    let r = parse_esearch_xml(fixture!("eutils/esearch7.xml")).unwrap();
    assert_eq!(r.count, 330);
    assert_eq!(r.ids[0], "3108048616");
    assert_eq!(r.ids[13], "1468867753");
    assert_eq!(
        r.query_translation.as_deref(),
        Some("000200020[molecular weight]")
    );
}

#[test]
fn esearch8_no_hits_keeps_error_and_warning_lists() {
    let r = parse_esearch_xml(fixture!("eutils/esearch8.xml")).unwrap();
    assert_eq!(r.count, 0);
    assert!(r.ids.is_empty());
    assert_eq!(r.error_list.phrases_not_found, ["abcXYZ"]);
    assert!(r.error_list.fields_not_found.is_empty());
    assert_eq!(r.warnings.output_messages, ["No items found."]);
    assert_eq!(r.query_translation.as_deref(), Some("(abcXYZ[All Fields])"));
    assert!(r.errors.is_empty());
}

#[test]
fn esearch_json_with_history() {
    let r = parse_esearch_json(fixture!("json/esearch_gene_history.json")).unwrap();
    assert_eq!((r.count, r.retmax, r.retstart), (1, 1, 0));
    assert_eq!(r.ids, ["118502329"]);
    assert_eq!(r.query_key.as_deref(), Some("1"));
    assert_eq!(r.webenv.as_deref(), Some("MCID_69a054b8c45725e9ce0a128a"));
    assert_eq!(r.query_translation.as_deref(), Some("118502329[UID]"));
    assert!(r.translation_set.is_empty());
}

#[test]
fn esearch_json_documented_error_shape_is_kept() {
    let body = br#"{"esearchresult":{"ERROR":"Empty term and query_key - nothing todo"}}"#;
    let r = parse_esearch_json(body).unwrap();
    assert_eq!(r.errors, ["Empty term and query_key - nothing todo"]);
    assert_eq!(r.count, 0);
}

#[test]
fn esearch_json_error_lists() {
    let body = br#"{"header":{"type":"esearch","version":"0.3"},"esearchresult":{"count":"0","retmax":"0","retstart":"0","idlist":[],"translationset":[],"querytranslation":"(abcXYZ[All Fields])","errorlist":{"phrasesnotfound":["abcXYZ"],"fieldsnotfound":[]},"warninglist":{"phrasesignored":[],"quotedphrasesnotfound":[],"outputmessages":["No items found."]}}}"#;
    let r = parse_esearch_json(body).unwrap();
    assert_eq!(r.error_list.phrases_not_found, ["abcXYZ"]);
    assert_eq!(r.warnings.output_messages, ["No items found."]);
}

#[test]
fn epost1_returns_the_history_handle() {
    let r = parse_epost(fixture!("eutils/epost1.xml")).unwrap();
    assert_eq!(r.query_key, "1");
    assert_eq!(r.webenv, "MCID_692851c130aec64bed0a8c2a");
    assert!(r.invalid_ids.is_empty() && r.warnings.is_empty());
}

#[test]
fn epost_partial_success_keeps_invalid_ids() {
    let body = b"<ePostResult><InvalidIdList><Id>abc</Id></InvalidIdList><QueryKey>2</QueryKey><WebEnv>MCID_x</WebEnv></ePostResult>";
    let r = parse_epost(body).unwrap();
    assert_eq!(r.invalid_ids, ["abc"]);
    assert_eq!((r.webenv.as_str(), r.query_key.as_str()), ("MCID_x", "2"));
}

#[test]
fn espell_aligns_the_correction_with_the_query() {
    let r = parse_espell(fixture!("eutils/espell.xml")).unwrap();
    assert_eq!(r.database, "pubmed");
    assert_eq!(r.query, "biopythooon");
    assert_eq!(r.corrected_query, "biopython");
    assert_eq!(r.replacements.len(), 1);
    assert_eq!(r.replacements[0].original, "biopythooon");
    assert_eq!(r.replacements[0].replaced, "biopython");
}

#[test]
fn espell_multiword_query_keeps_unchanged_text_out_of_replacements() {
    let body = b"<eSpellResult><Database>pubmed</Database><Query>asthmaa OR alergies</Query><CorrectedQuery>asthma or allergies</CorrectedQuery><SpelledQuery><Original></Original><Replaced>asthma</Replaced><Original> OR </Original><Replaced>allergies</Replaced></SpelledQuery><ERROR/></eSpellResult>";
    let r = parse_espell(body).unwrap();
    let pairs: Vec<(&str, &str)> = r
        .replacements
        .iter()
        .map(|p| (p.original.as_str(), p.replaced.as_str()))
        .collect();
    assert_eq!(pairs, [("asthmaa", "asthma"), ("alergies", "allergies")]);
}

/// The example request and reply of the ECitMatch section of NCBI's E-utilities book.
const ECITMATCH_REPLY: &str = "proc natl acad sci u s a|1991|88|3248|mann bj|Art1|2014248\n\
science|1987|235|182|palmenberg ac|Art2|3026048\n";

#[test]
fn ecitmatch_documented_example() {
    let m = parse_ecitmatch(ECITMATCH_REPLY);
    assert_eq!(m.len(), 2);
    assert_eq!(m[0].journal, "proc natl acad sci u s a");
    assert_eq!(m[0].year, "1991");
    assert_eq!(m[0].volume, "88");
    assert_eq!(m[0].first_page, "3248");
    assert_eq!(m[0].author, "mann bj");
    assert_eq!(m[0].key, "Art1");
    assert_eq!(m[0].pmid.as_deref(), Some("2014248"));
    assert_eq!(m[0].status, MatchStatus::Found);
    assert_eq!(m[1].key, "Art2");
    assert_eq!(m[1].pmid.as_deref(), Some("3026048"));
}

#[test]
fn ecitmatch_misses_and_ambiguity() {
    let text = "science|1987|235|182|palmenberg ac|Art2|NOT_FOUND;INVALID_JOURNAL\r\n\
\r\n\
nature|2000|||smith j|k3|AMBIGUOUS (2 citations)\n\
cell|1999|1|1|doe j|k4|\n";
    let m = parse_ecitmatch(text);
    assert_eq!(m.len(), 3);
    assert_eq!(m[0].status, MatchStatus::NotFound);
    assert_eq!(m[0].pmid, None);
    assert_eq!(m[0].detail.as_deref(), Some("NOT_FOUND;INVALID_JOURNAL"));
    assert_eq!(m[1].status, MatchStatus::Ambiguous);
    assert_eq!(m[1].volume, "");
    assert_eq!(m[2].status, MatchStatus::NotFound);
    assert_eq!(m[2].detail, None);
    let json = serde_json::to_value(&m[1]).unwrap();
    assert_eq!(json["status"], "ambiguous");
}
