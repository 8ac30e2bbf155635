//! RIS, the tagged format EndNote, Zotero, Mendeley and reference managers import: one line
//! per field, `TAG  - value` (two characters, two spaces, a hyphen and a space), CRLF line
//! ends, a record opened by `TY` and closed by `ER`. The tags are the ones Zotero's own
//! export writes for a journal article (T2 for the journal, J2 for its abbreviation, DA as
//! `YYYY/MM/DD/`), so that each importer reads them into the same fields.

use crate::export::csl::citation_title;
use crate::export::record::{Kind, Record};

fn line(out: &mut String, tag: &str, value: &str) {
    // A value is one line: RIS has no continuation lines.
    let value = value.split_whitespace().collect::<Vec<_>>().join(" ");
    if value.is_empty() {
        return;
    }
    out.push_str(tag);
    out.push_str("  - ");
    out.push_str(&value);
    out.push_str("\r\n");
}

/// One record.
pub fn record(r: &Record, out: &mut String) {
    line(
        out,
        "TY",
        match r.kind {
            Kind::Article => "JOUR",
            Kind::Book => "BOOK",
        },
    );
    for a in &r.authors {
        line(out, "AU", &a.full());
    }
    line(out, "TI", citation_title(&r.title));
    if let Some(j) = &r.journal {
        line(out, "T2", j);
    }
    if let Some(j) = &r.journal_abbrev {
        line(out, "J2", j);
    }
    if let Some(y) = r.year {
        line(out, "PY", &y.to_string());
        let (month, day) = r.month_day();
        let two = |n: Option<u32>| n.map(|n| format!("{n:02}")).unwrap_or_default();
        line(out, "DA", &format!("{y}/{}/{}/", two(month), two(day)));
    }
    for (tag, value) in [("VL", &r.volume), ("IS", &r.issue)] {
        if let Some(v) = value {
            line(out, tag, v);
        }
    }
    if let Some((start, end)) = r.page_span() {
        line(out, "SP", &start);
        if let Some(e) = end {
            line(out, "EP", &e);
        }
    } else if let Some(n) = &r.article_number {
        // An electronic article's number where its pages would be (Zotero reads it as pages).
        line(out, "SP", n);
    }
    if let Some(d) = &r.doi {
        line(out, "DO", d);
    }
    if let Some(p) = r.pmid {
        line(out, "AN", &p.to_string());
        line(out, "DB", "PubMed");
    }
    if let Some(u) = r.pubmed_url() {
        line(out, "UR", &u);
    }
    if let Some(c) = &r.pmcid {
        line(out, "C2", c);
    }
    if let Some(s) = &r.issn {
        line(out, "SN", s);
    }
    for l in &r.language {
        line(out, "LA", l);
    }
    if let Some(a) = &r.abstract_text {
        line(out, "AB", a);
    }
    for k in &r.keywords {
        line(out, "KW", k);
    }
    for m in &r.mesh {
        line(out, "KW", &m.descriptor);
    }
    if let Some(headline) = r.integrity().headline() {
        line(out, "N1", &headline);
    }
    out.push_str("ER  - \r\n\r\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::record::Author;

    #[test]
    fn tags_follow_the_ris_layout() {
        let r = Record {
            key: "1".into(),
            pmid: Some(1),
            title: "A title\nover two lines.".into(),
            authors: vec![Author {
                family: Some("O'Brien".into()),
                given: Some("Séamus".into()),
                ..Author::default()
            }],
            journal: Some("Journal".into()),
            year: Some(2019),
            pub_date: Some("2019 Aug".into()),
            pages: Some("663-75".into()),
            ..Record::default()
        };
        let mut out = String::new();
        record(&r, &mut out);
        assert_eq!(
            out,
            "TY  - JOUR\r\nAU  - O'Brien, Séamus\r\nTI  - A title over two lines\r\nT2  - Journal\r\nPY  - 2019\r\nDA  - 2019/08//\r\nSP  - 663\r\nEP  - 675\r\nAN  - 1\r\nDB  - PubMed\r\nUR  - https://pubmed.ncbi.nlm.nih.gov/1/\r\nER  - \r\n\r\n"
        );
    }

    #[test]
    fn an_article_number_goes_where_pages_go() {
        let r = Record {
            key: "1".into(),
            title: "T".into(),
            article_number: Some("e0252345".into()),
            ..Record::default()
        };
        let mut ris = String::new();
        record(&r, &mut ris);
        assert!(ris.contains("SP  - e0252345\r\n"), "{ris}");
        let mut bib = String::new();
        crate::export::bibtex::record(&r, &mut bib);
        assert!(bib.contains("pages = {e0252345}"), "{bib}");
        let mut nbib = String::new();
        crate::export::medline::record(&r, &mut nbib);
        assert!(nbib.contains("LID - e0252345 [pii]\n"), "{nbib}");
        assert!(nbib.contains(":e0252345."), "{nbib}");
    }
}
