//! The export module's own tests: formats and styles by name, URIs, statements.

use super::*;

#[test]
fn formats_and_styles_answer_to_their_names_or_list_the_others() {
    assert_eq!(Format::named("NBIB").unwrap(), Format::Medline);
    assert_eq!(Format::named("csl-json").unwrap(), Format::CslJson);
    let e = Format::named("risx").unwrap_err();
    assert_eq!(e.code, "unknown_format");
    assert!(e
        .message
        .contains("ris, bibtex, csl_json, medline, csv, jsonl, text, markdown"));
    assert_eq!(e.suggestions, vec!["Did you mean \"ris\"?".to_string()]);
    assert!(Format::named("parquet")
        .unwrap_err()
        .message
        .starts_with("Parquet is not offered"));
    let e = style_named("mla").unwrap_err();
    assert_eq!(e.code, "unknown_style");
    assert!(e
        .message
        .contains("Built in: vancouver, apa, ama, harvard, chicago."));
    assert!(e.message.contains("csl_json or ris"), "{}", e.message);
    assert!(e.suggestions.iter().any(|s| s.contains("csl_json")));
}

#[test]
fn export_uris_name_dataset_export_and_page() {
    let id = "0123456789abcdef0123456789abcdef";
    let uri = format!("entrez-dataset://{id}/export/00112233aabbccdd.ris");
    assert_eq!(parse_uri(&uri), Some((id, "00112233aabbccdd", 1)));
    assert_eq!(
        parse_uri(&format!("{uri}?page=3")),
        Some((id, "00112233aabbccdd", 3))
    );
    assert_eq!(parse_uri(&format!("{uri}?page=0")), None);
    assert_eq!(parse_uri(&format!("entrez-dataset://{id}/schema")), None);
    assert_eq!(
        parse_uri(&format!("entrez-dataset://{id}/export/../x.ris")),
        None
    );
    assert_eq!(statement_of("SELECT 1; -- x"), "SELECT 1");
}

#[test]
fn a_statement_loses_its_closing_semicolon_and_comment_only() {
    assert_eq!(statement_of("SELECT 1;  "), "SELECT 1");
    assert_eq!(statement_of("SELECT 1; -- the first"), "SELECT 1");
    assert_eq!(
        statement_of("SELECT 1 /* x */ ; /* y */"),
        "SELECT 1 /* x */"
    );
    assert_eq!(statement_of("SELECT ';' AS s"), "SELECT ';' AS s");
    assert_eq!(statement_of("SELECT 1"), "SELECT 1");
}
