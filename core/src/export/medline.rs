//! MEDLINE (PubMed's `.nbib`), the tagged text PubMed's "Send to: Citation manager" writes:
//! each line a tag padded to four characters, `- `, and the value from column 7; a long
//! value wraps at a word onto lines that start with six spaces; records begin with `PMID-`
//! and are separated by a blank line. Tags are written in the order PubMed writes them
//! (NLM's "MEDLINE/PubMed Data Element (Field) Descriptions"), for what a staged record
//! holds: PMID, IS, VI, IP, DP, TI, PG, LID, AB, FAU/AU/AUID/AD per author, LA, PT, TA,
//! JT, MH, OT, PMC, AID, SO.

use crate::export::record::Record;

/// Lines are wrapped before they pass this many characters (PubMed's own wrap at 80–88).
const WIDTH: usize = 82;

fn field(out: &mut String, tag: &str, value: &str) {
    let value = value.split_whitespace().collect::<Vec<_>>().join(" ");
    if value.is_empty() {
        return;
    }
    out.push_str(&format!("{tag:<4}- "));
    let mut column = 6;
    let mut first = true;
    for word in value.split(' ') {
        let width = word.chars().count();
        if !first && column + 1 + width > WIDTH {
            out.push_str("\n      ");
            column = 6;
        } else if !first {
            out.push(' ');
            column += 1;
        }
        out.push_str(word);
        column += width;
        first = false;
    }
    out.push('\n');
}

/// The SO tag: "TA. DP;VI(IP):PG. doi: DOI."
fn source(r: &Record) -> String {
    let mut s = String::new();
    if let Some(j) = r.journal_abbrev.as_ref().or(r.journal.as_ref()) {
        s.push_str(j.trim_end_matches('.'));
        s.push_str(". ");
    }
    if let Some(d) = &r.pub_date {
        s.push_str(d);
    }
    if let Some(v) = &r.volume {
        s.push(';');
        s.push_str(v);
    }
    if let Some(i) = &r.issue {
        s.push_str(&format!("({i})"));
    }
    if let Some(p) = r.pages.as_ref().or(r.article_number.as_ref()) {
        s.push(':');
        s.push_str(p);
    }
    s.push('.');
    if let Some(d) = &r.doi {
        s.push_str(&format!(" doi: {d}."));
    }
    s
}

/// One record.
pub fn record(r: &Record, out: &mut String) {
    if let Some(p) = r.pmid {
        field(out, "PMID", &p.to_string());
    }
    // No IS line: NLM's always says whether the ISSN is the print, electronic or linking one
    // ("IS  - 0140-6736 (Print)"), which the staged record does not keep, and readers of
    // .nbib files refuse an IS line without it.
    if let Some(v) = &r.volume {
        field(out, "VI", v);
    }
    if let Some(i) = &r.issue {
        field(out, "IP", i);
    }
    match (&r.pub_date, r.year) {
        (Some(d), _) => field(out, "DP", d),
        (None, Some(y)) => field(out, "DP", &y.to_string()),
        _ => {}
    }
    field(out, "TI", &r.title);
    if let Some(p) = &r.pages {
        field(out, "PG", p);
    }
    if let Some(n) = r.article_number.as_ref().filter(|_| r.pages.is_none()) {
        field(out, "LID", &format!("{n} [pii]"));
    }
    if let Some(d) = &r.doi {
        field(out, "LID", &format!("{d} [doi]"));
    }
    if let Some(a) = &r.abstract_text {
        field(out, "AB", a);
    }
    for a in &r.authors {
        if a.family.is_some() {
            field(out, "FAU", &a.full());
            field(out, "AU", &a.short());
        } else if let Some(c) = &a.collective {
            field(out, "CN", c);
        }
        if let Some(o) = &a.orcid {
            field(out, "AUID", &format!("ORCID: {o}"));
        }
        for aff in &a.affiliations {
            field(out, "AD", aff);
        }
    }
    for l in &r.language {
        field(out, "LA", l);
    }
    for t in &r.publication_types {
        field(out, "PT", t);
    }
    if let Some(j) = &r.journal_abbrev {
        field(out, "TA", j);
    }
    if let Some(j) = &r.journal {
        field(out, "JT", j);
    }
    // Comments and corrections, under the tags NLM gives each RefType (RIN, EIN, ECI…).
    for c in &r.corrections {
        let tag = crate::parse::pubmed::integrity::MEDLINE_TAGS
            .iter()
            .find(|(_, ref_type)| *ref_type == c.ref_type);
        if let Some((tag, _)) = tag {
            match c.pmid {
                Some(p) => field(out, tag, &format!("{} PMID: {p}", c.ref_source)),
                None => field(out, tag, &c.ref_source),
            }
        }
    }
    for m in &r.mesh {
        field(out, "MH", &m.medline());
    }
    for k in &r.keywords {
        field(out, "OT", k);
    }
    if let Some(c) = &r.pmcid {
        field(out, "PMC", c);
    }
    if let Some(d) = &r.doi {
        field(out, "AID", &format!("{d} [doi]"));
    }
    field(out, "SO", &source(r));
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::record::Author;

    #[test]
    fn tags_pad_to_four_and_long_values_wrap_at_a_word() {
        let r = Record {
            key: "1".into(),
            pmid: Some(1),
            title: format!("{} end.", "word ".repeat(30)),
            authors: vec![Author {
                family: Some("Smith".into()),
                given: Some("Jane A".into()),
                initials: Some("JA".into()),
                orcid: Some("0000-0002-1825-0097".into()),
                ..Author::default()
            }],
            journal_abbrev: Some("Nat Rev Drug Discov".into()),
            pub_date: Some("2019 Sep".into()),
            volume: Some("18".into()),
            issue: Some("9".into()),
            pages: Some("663-675".into()),
            doi: Some("10.1038/x".into()),
            ..Record::default()
        };
        let mut out = String::new();
        record(&r, &mut out);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "PMID- 1");
        assert!(lines.iter().all(|l| l.chars().count() <= WIDTH), "{out}");
        let ti = lines.iter().position(|l| l.starts_with("TI  - ")).unwrap();
        assert!(lines[ti + 1].starts_with("      word"));
        assert!(
            out.contains("FAU - Smith, Jane A\nAU  - Smith JA\nAUID- ORCID: 0000-0002-1825-0097\n")
        );
        assert!(out.contains("LID - 10.1038/x [doi]\n"));
        assert!(
            out.ends_with("SO  - Nat Rev Drug Discov. 2019 Sep;18(9):663-675. doi: 10.1038/x.\n\n")
        );
    }
}
