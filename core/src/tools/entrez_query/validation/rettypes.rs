//! EFetch formats: whether the rettype/retmode pair a fetch sends is one its database offers
//! (NCBI's Table 1, [`crate::entrez::formats`]). NCBI answers an unsupported pair in unhelpful
//! ways (an empty body, an HTML error page, another format), so the pair is checked before
//! the request is made. The pair checked is the pair sent: the call's defaults fill it
//! (gb for nuccore, gp for protein, xml otherwise) and this module asks them, not a guess.

use crate::parse::records::Format;
use crate::tools::entrez_query::defaults::fetch_format;
use crate::validation::{codes, path, Report};

pub use crate::entrez::formats::{documents, rows_for, Row, DEFAULT_RETTYPE, TABLE};

fn rettype_matches(row: &Row, db: &str, rettype: &str) -> bool {
    let omitted_means = DEFAULT_RETTYPE
        .iter()
        .find(|(d, _)| *d == db)
        .map(|(_, t)| *t);
    row.rettype == rettype || (rettype.is_empty() && omitted_means == Some(row.rettype))
}

fn shown(rettype: &str) -> String {
    if rettype.is_empty() {
        "(none)".into()
    } else {
        rettype.into()
    }
}

/// Checks the rettype/retmode a fetch will send; `db` as sent, `canonical` for the rules.
pub fn check_fetch(
    db: &str,
    canonical: &str,
    rettype: Option<&str>,
    retmode: Option<&str>,
    report: &mut Report,
) {
    let (sent_type, sent_mode, format) = fetch_format(db, rettype, retmode);
    let sent_type = sent_type.unwrap_or_default();
    let chosen = rettype.is_some() || retmode.is_some();
    if sent_mode == "json" {
        report.error(
            codes::UNSUPPORTED_RETMODE,
            path("retmode"),
            "EFetch has no JSON output (NCBI's EFetch table lists xml, text and asn.1 only).",
        );
        report.suggest(
            "Use retmode xml or text for fetch, or operation summary for JSON document summaries.",
        );
        return;
    }
    if !documents(canonical) {
        report.warn(
            codes::UNDOCUMENTED_FORMAT,
            path("database"),
            format!("NCBI's EFetch table does not list {db}, so fetch may return nothing useful for it; summary works for every database."),
        );
        return;
    }
    let rows: Vec<&Row> = rows_for(canonical).collect();
    if rows
        .iter()
        .any(|r| rettype_matches(r, canonical, &sent_type) && r.retmode == sent_mode)
    {
        chosen_format(
            db,
            canonical,
            (rettype, retmode),
            (&sent_type, &sent_mode),
            format,
            report,
        );
        return;
    }
    let same_type: Vec<&&Row> = rows
        .iter()
        .filter(|r| rettype_matches(r, canonical, &sent_type))
        .collect();
    if !chosen {
        report.warn(
            codes::UNDOCUMENTED_FORMAT,
            path("retmode"),
            format!(
                "This server's default for {db} (rettype {}, retmode {sent_mode}) is not in NCBI's EFetch table.",
                shown(&sent_type)
            ),
        );
        if let Some(r) = same_type
            .first()
            .or(rows.iter().find(|r| !r.dbs.is_empty()).as_ref())
        {
            report.suggest(format!(
                "Set rettype \"{}\" and retmode \"{}\" ({}).",
                r.rettype, r.retmode, r.record
            ));
        }
        return;
    }
    if same_type.is_empty() {
        let mut offered: Vec<String> = Vec::new();
        for r in &rows {
            let t = shown(r.rettype);
            if !offered.contains(&t) {
                offered.push(t);
            }
        }
        report.error(
            codes::UNSUPPORTED_RETTYPE,
            path("rettype"),
            format!(
                "rettype \"{}\" is not offered by EFetch for {db}; NCBI's EFetch table lists: {}.",
                shown(&sent_type),
                offered.join(", ")
            ),
        );
        if rows
            .iter()
            .any(|r| r.rettype.is_empty() && r.retmode == "xml")
        {
            report.suggest(format!("Omit rettype for {db} XML records."));
        }
        report.suggest(format!(
            "Use one of these rettypes for {db}: {}.",
            offered.join(", ")
        ));
        return;
    }
    let modes: Vec<&str> = same_type.iter().map(|r| r.retmode).collect();
    let defaulted = if retmode.is_none() {
        format!(" ({sent_mode} is this server's default when retmode is omitted)")
    } else {
        String::new()
    };
    report.error(
        codes::UNSUPPORTED_RETMODE,
        path("retmode"),
        format!(
            "rettype \"{}\" for {db} comes only as retmode {} in NCBI's EFetch table, not {sent_mode}{defaulted}.",
            shown(&sent_type),
            modes.join(" or ")
        ),
    );
    report.suggest(format!("Set retmode to \"{}\".", modes[0]));
}

/// Says so when this server, not the caller, picks what fetch asks NCBI for: a rettype
/// NCBI was not given (gb/gp for sequences), or retmode xml where NCBI's EFetch table
/// also offers the rettype as text or ASN.1 (NCBI's own answer to an omitted retmode).
fn chosen_format(
    db: &str,
    canonical: &str,
    (rettype, retmode): (Option<&str>, Option<&str>),
    (sent_type, sent_mode): (&str, &str),
    format: Format,
    report: &mut Report,
) {
    let at = match (rettype, retmode) {
        (None, _) if !sent_type.is_empty() => "rettype",
        (_, None) if sent_mode == "xml" => {
            let mut modes = rows_for(canonical)
                .filter(|r| rettype_matches(r, canonical, sent_type))
                .map(|r| r.retmode)
                .peekable();
            if modes.peek().is_none() || modes.all(|m| m == "xml") {
                return;
            }
            "retmode"
        }
        _ => return,
    };
    let asked = if sent_type.is_empty() {
        format!("retmode {sent_mode}")
    } else {
        format!("rettype {sent_type}, retmode {sent_mode}")
    };
    report.warn(
        codes::FORMAT_CHOSEN,
        path(at),
        format!(
            "No {at} given: this server asks NCBI for {asked} (read as {}) rather than leaving the choice to NCBI for {db}; set rettype and retmode to choose another format.",
            format.name()
        ),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(db: &str, t: Option<&str>, m: Option<&str>) -> Vec<&'static str> {
        let mut r = Report::default();
        check_fetch(db, super::super::databases::canonical(db), t, m, &mut r);
        r.errors.iter().chain(&r.warnings).map(|f| f.code).collect()
    }

    #[test]
    fn server_defaults_are_in_the_table() {
        for db in [
            "pubmed",
            "pmc",
            "nuccore",
            "nucleotide",
            "protein",
            "gene",
            "taxonomy",
            "snp",
            "sra",
            "biosample",
            "bioproject",
            "clinvar",
            "gtr",
            "nlmcatalog",
        ] {
            let found = errors(db, None, None);
            assert!(
                found.iter().all(|c| *c == "format_chosen"),
                "{db}: {found:?}"
            );
        }
    }

    #[test]
    fn a_format_the_server_picks_is_named() {
        // gb/gp are this server's choice for sequences; NCBI was not asked for them.
        assert_eq!(errors("nuccore", None, None), ["format_chosen"]);
        // Naming text or asn.1 without a rettype is NCBI's own call for ASN.1, sent as is.
        assert!(errors("protein", None, Some("text")).is_empty());
        assert!(errors("nuccore", None, Some("asn.1")).is_empty());
        // fasta and gene come as text (or ASN.1) too: xml in their place is a choice.
        assert_eq!(errors("protein", Some("fasta"), None), ["format_chosen"]);
        assert_eq!(errors("gene", None, None), ["format_chosen"]);
        // XML is the only form NCBI lists for these, and text rettypes are sent as text.
        for (db, t) in [
            ("pubmed", None),
            ("pmc", None),
            ("taxonomy", None),
            ("pubmed", Some("medline")),
        ] {
            assert!(errors(db, t, None).is_empty(), "{db} {t:?}");
        }
        assert!(errors("nuccore", Some("gb"), Some("xml")).is_empty());
    }

    #[test]
    fn pairs_follow_the_table() {
        assert!(errors("pubmed", Some("abstract"), Some("text")).is_empty());
        assert!(errors("pubmed", Some("medline"), None).is_empty());
        assert!(errors("protein", Some("fasta"), Some("xml")).is_empty());
        assert!(errors("nuccore", Some("fasta_cds_aa"), Some("text")).is_empty());
        assert!(errors("taxonomy", Some("uilist"), Some("xml")).is_empty());
        assert_eq!(errors("pubmed", Some("gb"), None), ["unsupported_rettype"]);
        assert_eq!(
            errors("nuccore", Some("gbwithparts"), None),
            ["unsupported_retmode"]
        );
        assert_eq!(
            errors("protein", Some("gb"), Some("text")),
            ["unsupported_rettype"]
        );
        assert_eq!(
            errors("pubmed", None, Some("json")),
            ["unsupported_retmode"]
        );
        assert_eq!(errors("gds", None, None), ["undocumented_format"]);
        assert_eq!(errors("structure", None, None), ["undocumented_format"]);
    }
}
