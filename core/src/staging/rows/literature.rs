//! PubMed citations and PMC articles as rows of the `pubmed` and `pmc` layouts.

use crate::parse::pmc::PmcArticle;
use crate::parse::pubmed::{Author, Integrity, PubmedArticle, RecordKind};
use crate::staging::layouts::{PMC, PUBMED};
use crate::staging::rows::{joined, RowBatch, SqlValue};
use SqlValue::{Integer, Null, Text};

// Table slots in PUBMED.tables order.
const ARTICLE: usize = 0;
const ABSTRACT_SECTION: usize = 1;
const AUTHOR: usize = 2;
const AFFILIATION: usize = 3;
const MESH: usize = 4;
const KEYWORD: usize = 5;
const PUBLICATION_TYPE: usize = 6;
const CORRECTION: usize = 7;

/// Rows of the `pubmed` layout for parsed citations.
pub fn pubmed(articles: Vec<PubmedArticle>) -> RowBatch {
    let mut b = RowBatch::new(&PUBMED);
    b.records = articles.len();
    let mut rows = [0; 8];
    for a in &articles {
        rows[ARTICLE] += 1;
        rows[ABSTRACT_SECTION] += a.abstract_sections.len();
        rows[AUTHOR] += a.authors.len();
        rows[AFFILIATION] += a
            .authors
            .iter()
            .map(|au| au.affiliations.len())
            .sum::<usize>();
        rows[MESH] += a
            .mesh
            .iter()
            .map(|h| h.qualifiers.len().max(1))
            .sum::<usize>();
        rows[KEYWORD] += a.keywords.len();
        rows[PUBLICATION_TYPE] += a.publication_types.len();
        rows[CORRECTION] += a.corrections.len();
    }
    b.reserve(&rows);
    for a in articles {
        if a.pmid.trim().is_empty() {
            b.skipped
                .push(format!("a citation titled {:?} has no PMID", a.title));
            continue;
        }
        let pmid = SqlValue::id(&a.pmid);
        let kind = match a.kind {
            RecordKind::Article => "article",
            RecordKind::Book => "book",
        };
        b.table(ARTICLE).push([
            pmid.clone(),
            Text(kind.to_string()),
            Text(a.title),
            SqlValue::opt_text(a.abstract_text),
            SqlValue::opt_text(a.journal),
            SqlValue::opt_text(a.iso_abbreviation),
            SqlValue::opt_text(a.issn),
            SqlValue::opt_text(a.volume),
            SqlValue::opt_text(a.issue),
            SqlValue::opt_text(a.pages),
            SqlValue::opt_int(a.year),
            SqlValue::opt_text(a.pub_date),
            SqlValue::opt_text(a.doi),
            SqlValue::opt_text(a.pmcid),
            SqlValue::opt_text(joined(&a.language, "; ")),
            SqlValue::flag(a.integrity.retracted()),
            SqlValue::opt_text(flags(&a.integrity)),
            SqlValue::opt_text(a.article_number),
            SqlValue::opt_text(a.title_markup),
        ]);
        for (i, s) in a.abstract_sections.into_iter().enumerate() {
            b.table(ABSTRACT_SECTION).push([
                pmid.clone(),
                position(i),
                SqlValue::opt_text(s.label),
                SqlValue::opt_text(s.nlm_category),
                Text(s.text),
            ]);
        }
        authors(&mut b, &pmid, a.authors, AUTHOR, AFFILIATION);
        for (i, h) in a.mesh.into_iter().enumerate() {
            if h.qualifiers.is_empty() {
                b.table(MESH).push([
                    pmid.clone(),
                    position(i),
                    Integer(0),
                    Text(h.descriptor),
                    SqlValue::opt_text(h.descriptor_ui),
                    Null,
                    Null,
                    SqlValue::flag(h.major),
                ]);
                continue;
            }
            for (j, q) in h.qualifiers.into_iter().enumerate() {
                b.table(MESH).push([
                    pmid.clone(),
                    position(i),
                    position(j),
                    Text(h.descriptor.clone()),
                    SqlValue::opt_text(h.descriptor_ui.clone()),
                    Text(q.name),
                    SqlValue::opt_text(q.ui),
                    SqlValue::flag(h.major || q.major),
                ]);
            }
        }
        for (i, k) in a.keywords.into_iter().enumerate() {
            b.table(KEYWORD).push([
                pmid.clone(),
                position(i),
                Text(k.keyword),
                SqlValue::flag(k.major),
            ]);
        }
        for (i, t) in a.publication_types.into_iter().enumerate() {
            b.table(PUBLICATION_TYPE)
                .push([pmid.clone(), position(i), Text(t)]);
        }
        for (i, c) in a.corrections.into_iter().enumerate() {
            b.table(CORRECTION).push([
                pmid.clone(),
                position(i),
                Text(c.ref_type),
                Text(c.ref_source),
                c.pmid.as_deref().map_or(Null, SqlValue::id),
                SqlValue::opt_text(c.note),
            ]);
        }
    }
    b
}

/// An article's flags as the `integrity` column holds them: "retracted; expression_of_concern".
fn flags(i: &Integrity) -> Option<String> {
    let names: Vec<String> = i.flags.iter().map(|f| f.name().to_string()).collect();
    joined(&names, "; ")
}

// Table slots in PMC.tables order.
const PMC_ARTICLE: usize = 0;
const PMC_AUTHOR: usize = 1;
const PMC_AFFILIATION: usize = 2;
const PMC_KEYWORD: usize = 3;
const PMC_SECTION: usize = 4;
const PMC_CAPTION: usize = 5;

/// Rows of the `pmc` layout for parsed full-text articles.
pub fn pmc(articles: Vec<PmcArticle>) -> RowBatch {
    let mut b = RowBatch::new(&PMC);
    b.records = articles.len();
    for a in articles {
        let paths = a.heading_paths();
        let Some(pmcid) = a.pmcid.filter(|p| !p.trim().is_empty()) else {
            b.skipped
                .push(format!("an article titled {:?} has no PMCID", a.title));
            continue;
        };
        let key = Text(pmcid);
        b.table(PMC_ARTICLE).push([
            key.clone(),
            a.pmid.as_deref().map_or(Null, SqlValue::id),
            SqlValue::opt_text(a.doi),
            SqlValue::opt_text(a.article_type),
            Text(a.title),
            SqlValue::opt_text(a.abstract_text),
            SqlValue::opt_text(a.journal),
            SqlValue::opt_text(a.iso_abbreviation),
            SqlValue::opt_text(a.issn),
            SqlValue::opt_text(a.volume),
            SqlValue::opt_text(a.issue),
            SqlValue::opt_int(a.year),
            SqlValue::opt_text(a.pub_date),
            SqlValue::opt_text(a.license),
            SqlValue::opt_text(a.license_url),
        ]);
        authors(&mut b, &key, a.authors, PMC_AUTHOR, PMC_AFFILIATION);
        for (i, k) in a.keywords.into_iter().enumerate() {
            b.table(PMC_KEYWORD)
                .push([key.clone(), position(i), Text(k)]);
        }
        for (s, path) in a.sections.into_iter().zip(paths) {
            b.table(PMC_SECTION).push([
                key.clone(),
                SqlValue::opt_int(Some(s.position)),
                SqlValue::opt_int(Some(s.level)),
                SqlValue::opt_text(s.title),
                Text(s.text),
                Text(path),
                SqlValue::opt_int(Some(usize::from(s.back))),
            ]);
        }
        for (i, f) in a.floats.into_iter().enumerate() {
            b.table(PMC_CAPTION).push([
                key.clone(),
                SqlValue::opt_int(Some(i)),
                Text(f.kind.to_string()),
                SqlValue::opt_text(f.label),
                SqlValue::opt_text(f.caption),
                SqlValue::opt_int(Some(f.section)),
                SqlValue::opt_text((!f.rows.is_empty()).then(|| f.rows.join("\n"))),
            ]);
        }
    }
    b
}

/// Author and affiliation rows; both layouts share their shape.
fn authors(b: &mut RowBatch, key: &SqlValue, list: Vec<Author>, author: usize, aff: usize) {
    for (i, au) in list.into_iter().enumerate() {
        b.table(author).push([
            key.clone(),
            position(i),
            SqlValue::opt_text(au.last_name),
            SqlValue::opt_text(au.fore_name),
            SqlValue::opt_text(au.initials),
            SqlValue::opt_text(au.suffix),
            SqlValue::opt_text(au.collective_name),
            SqlValue::opt_text(au.orcid),
        ]);
        for (j, text) in au.affiliations.into_iter().enumerate() {
            b.table(aff)
                .push([key.clone(), position(i), position(j), Text(text)]);
        }
    }
}

/// A 0-based index as the 1-based position the tables use.
pub(crate) fn position(i: usize) -> SqlValue {
    Integer(i as i64 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stand-in's JATS article (nested sections, a table, a figure, back matter).
    const JATS: &[u8] =
        include_bytes!("../../../../tests/fixtures/external/pmc/cloud/PMC3531190.xml");

    fn column(b: &RowBatch, table: usize, name: &str) -> Vec<SqlValue> {
        let t = &b.tables[table];
        let width = t.table.columns.len();
        let at = t.table.columns.iter().position(|c| c.name == name).unwrap();
        t.values.chunks(width).map(|row| row[at].clone()).collect()
    }

    #[test]
    fn sections_keep_their_heading_paths_and_floats_their_captions_and_rows() {
        let articles = crate::parse::pmc::parse_pmc(JATS).unwrap();
        let expected_paths = articles[0].heading_paths();
        let floats = articles[0].floats.clone();
        let b = pmc(articles);
        let paths: Vec<SqlValue> = expected_paths.into_iter().map(Text).collect();
        assert_eq!(column(&b, PMC_SECTION, "path"), paths);
        // The fixture's subsection under its parent, as the JATS nests them.
        assert!(paths.contains(&Text("Materials and Methods > Data sources".into())));
        let kinds = column(&b, PMC_CAPTION, "kind");
        assert_eq!(kinds.len(), floats.len());
        let table = floats.iter().position(|f| f.kind == "table").unwrap();
        assert_eq!(
            column(&b, PMC_CAPTION, "table_rows")[table],
            Text(floats[table].rows.join("\n"))
        );
        assert!(column(&b, PMC_SECTION, "back").contains(&SqlValue::Integer(1)));
    }
}
