//! Literature layouts: PubMed citations and PMC full text.

use crate::staging::layouts::{fk, ix};
use crate::staging::schema::ColumnType::{Integer, Text};
use crate::staging::schema::{opt, req, Example, ForeignKey, Layout, Table};

const PMID_FK: &[ForeignKey] = &[fk(&["pmid"], "article", &["pmid"])];
const PMCID_FK: &[ForeignKey] = &[fk(&["pmcid"], "article", &["pmcid"])];

/// PubMed citations from `efetch db=pubmed retmode=xml`.
pub const PUBMED: Layout = Layout {
    name: "pubmed",
    doc: "PubMed citations (efetch XML): one article row per PMID with its authors, affiliations, MeSH headings, keywords, publication types and abstract sections.",
    primary: "article",
    tables: &[
        Table {
            name: "article",
            doc: "One PubMed citation.",
            columns: &[
                req("pmid", Integer, "PubMed id."),
                req("kind", Text, "'article' (PubmedArticle) or 'book' (PubmedBookArticle)."),
                req("title", Text, "Article title as plain text."),
                opt("abstract", Text, "Whole abstract; structured abstracts as one 'LABEL: text' line per section."),
                opt("journal", Text, "Full journal title."),
                opt("iso_abbrev", Text, "ISO journal abbreviation, else NLM's (MedlineTA)."),
                opt("issn", Text, "Journal ISSN."),
                opt("volume", Text, "Volume."),
                opt("issue", Text, "Issue."),
                opt("pages", Text, "Pages, e.g. '113-25'."),
                opt("year", Integer, "Publication year."),
                opt("pub_date", Text, "Publication date as printed, e.g. '2009 Jun 1'."),
                opt("doi", Text, "DOI."),
                opt("pmcid", Text, "PubMed Central id, e.g. 'PMC1234567'."),
                opt("language", Text, "Language codes, '; '-separated, e.g. 'eng'."),
                req("retracted", Integer, "1 when PubMed marks the article retracted (a RetractionIn link or the publication type 'Retracted Publication'); the correction table names the notice."),
                opt("integrity", Text, "Every flag, '; '-separated, most serious first: retracted, expression_of_concern, corrected, retraction_notice, concern_notice, erratum_notice, updated, republished; NULL when none."),
                opt("article_number", Text, "An electronic article's number where it has no pages, e.g. 'e0212345' (ELocationID pii)."),
                opt("title_markup", Text, "The title with its inline markup as CSL JSON carries it (<i>, <b>, <sup>, <sub>), where it has any."),
            ],
            primary_key: &["pmid"],
            foreign_keys: &[],
            indexes: &[ix("article_year", &["year"])],
        },
        Table {
            name: "abstract_section",
            doc: "One AbstractText of an abstract, in order.",
            columns: &[
                req("pmid", Integer, "PubMed id."),
                req("position", Integer, "1-based order within the abstract."),
                opt("label", Text, "Label printed before the section, e.g. 'METHODS'."),
                opt("nlm_category", Text, "NLM's normalised category, e.g. 'METHODS'."),
                req("text", Text, "Section text."),
            ],
            primary_key: &["pmid", "position"],
            foreign_keys: PMID_FK,
            indexes: &[],
        },
        Table {
            name: "author",
            doc: "One author of an article, a person or a collective, in citation order.",
            columns: &[
                req("pmid", Integer, "PubMed id."),
                req("position", Integer, "1-based author position (1 = first author)."),
                opt("last_name", Text, "Family name."),
                opt("fore_name", Text, "Given names."),
                opt("initials", Text, "Initials."),
                opt("suffix", Text, "Suffix such as 'Jr'."),
                opt("collective_name", Text, "Group name when the author is a consortium."),
                opt("orcid", Text, "ORCID, e.g. '0000-0002-1825-0097'."),
            ],
            primary_key: &["pmid", "position"],
            foreign_keys: PMID_FK,
            indexes: &[ix("author_name", &["last_name", "fore_name"])],
        },
        Table {
            name: "affiliation",
            doc: "One affiliation of one author.",
            columns: &[
                req("pmid", Integer, "PubMed id."),
                req("author_position", Integer, "The author's position (author.position)."),
                req("position", Integer, "1-based order among that author's affiliations."),
                req("affiliation", Text, "Affiliation text."),
            ],
            primary_key: &["pmid", "author_position", "position"],
            foreign_keys: &[fk(
                &["pmid", "author_position"],
                "author",
                &["pmid", "position"],
            )],
            indexes: &[],
        },
        Table {
            name: "mesh",
            doc: "One MeSH descriptor/qualifier pair; a heading without qualifiers is one row with qualifier NULL.",
            columns: &[
                req("pmid", Integer, "PubMed id."),
                req("position", Integer, "1-based order of the heading."),
                req("qualifier_position", Integer, "1-based order of the qualifier; 0 when the heading has none."),
                req("descriptor", Text, "Descriptor name, e.g. 'Asthma'."),
                opt("descriptor_ui", Text, "Descriptor id, e.g. 'D001249'."),
                opt("qualifier", Text, "Qualifier (subheading) name, e.g. 'drug therapy'."),
                opt("qualifier_ui", Text, "Qualifier id, e.g. 'Q000188'."),
                req("major", Integer, "1 when the descriptor or this descriptor/qualifier pair is a major topic."),
            ],
            primary_key: &["pmid", "position", "qualifier_position"],
            foreign_keys: PMID_FK,
            indexes: &[ix("mesh_descriptor", &["descriptor"])],
        },
        Table {
            name: "keyword",
            doc: "One author or indexer keyword.",
            columns: &[
                req("pmid", Integer, "PubMed id."),
                req("position", Integer, "1-based order."),
                req("keyword", Text, "Keyword text."),
                req("major", Integer, "1 when marked as a major topic."),
            ],
            primary_key: &["pmid", "position"],
            foreign_keys: PMID_FK,
            indexes: &[ix("keyword_keyword", &["keyword"])],
        },
        Table {
            name: "publication_type",
            doc: "One publication type, e.g. 'Journal Article' or 'Review'.",
            columns: &[
                req("pmid", Integer, "PubMed id."),
                req("position", Integer, "1-based order."),
                req("publication_type", Text, "Publication type."),
            ],
            primary_key: &["pmid", "position"],
            foreign_keys: PMID_FK,
            indexes: &[],
        },
        Table {
            name: "correction",
            doc: "One link NLM made from the article to a comment, erratum, retraction, expression of concern, update or republication (CommentsCorrections; the reference list is not kept).",
            columns: &[
                req("pmid", Integer, "PubMed id of the article."),
                req("position", Integer, "1-based order."),
                req("ref_type", Text, "NLM's RefType, e.g. 'RetractionIn', 'ErratumIn', 'ExpressionOfConcernIn', 'RetractionOf', 'CommentIn'."),
                req("ref_source", Text, "The linked publication's citation, e.g. 'Lancet. 2010 Feb 6;375(9713):445.'"),
                opt("ref_pmid", Integer, "The linked publication's PMID, when it has one."),
                opt("note", Text, "NLM's note on the link."),
            ],
            primary_key: &["pmid", "position"],
            foreign_keys: PMID_FK,
            indexes: &[ix("correction_type", &["ref_type"])],
        },
    ],
    examples: &[
        Example {
            title: "Articles per year",
            sql: "SELECT year, COUNT(*) AS articles FROM article GROUP BY year ORDER BY year DESC",
        },
        Example {
            title: "Most frequent major MeSH topics",
            sql: "SELECT descriptor, COUNT(DISTINCT pmid) AS articles FROM mesh WHERE major = 1 GROUP BY descriptor ORDER BY articles DESC LIMIT 20",
        },
        Example {
            title: "Retracted articles with their retraction notices",
            sql: "SELECT a.pmid, a.year, a.title, c.ref_pmid AS notice_pmid, c.ref_source AS notice FROM article a LEFT JOIN correction c ON c.pmid = a.pmid AND c.ref_type = 'RetractionIn' WHERE a.retracted = 1 ORDER BY a.year",
        },
    ],
};

/// FTS5 over `section` (external content: the index holds no second copy of the text),
/// ranked with bm25; `"hazard ratio"*` also matches "hazard ratios".
pub const PMC_FULL_TEXT: super::FullTextIndex = super::FullTextIndex {
    table: "section_fts",
    ddl: &[
        "CREATE VIRTUAL TABLE IF NOT EXISTS section_fts USING fts5(title, path, text, content='section', content_rowid='rowid')",
        "INSERT INTO section_fts(section_fts) VALUES ('rebuild')",
    ],
    example: Example {
        title: "Results that report a hazard ratio, ranked (FTS5 index section_fts, natively only)",
        sql: "SELECT s.pmcid, s.path, bm25(section_fts) AS rank FROM section_fts JOIN section s ON s.rowid = section_fts.rowid WHERE section_fts MATCH 'path:result* AND text:\"hazard ratio\"*' ORDER BY rank LIMIT 50",
    },
};

/// PMC full text from `efetch db=pmc`.
pub const PMC: Layout = Layout {
    name: "pmc",
    doc: "PMC full text (JATS): one article row per PMCID with authors, affiliations, keywords and the body as sections in reading order.",
    primary: "article",
    tables: &[
        Table {
            name: "article",
            doc: "One PMC article's front matter.",
            columns: &[
                req("pmcid", Text, "PMC id, e.g. 'PMC1234567'."),
                opt("pmid", Integer, "PubMed id, when the article is in PubMed."),
                opt("doi", Text, "DOI."),
                opt("article_type", Text, "JATS article-type, e.g. 'research-article'."),
                req("title", Text, "Article title."),
                opt("abstract", Text, "Main abstract."),
                opt("journal", Text, "Journal title."),
                opt("iso_abbrev", Text, "ISO journal abbreviation."),
                opt("issn", Text, "Journal ISSN."),
                opt("volume", Text, "Volume."),
                opt("issue", Text, "Issue."),
                opt("year", Integer, "Publication year."),
                opt("pub_date", Text, "Publication date, e.g. '2021 Sep 13'."),
                opt("license", Text, "Licence statement."),
                opt("license_url", Text, "Licence URL."),
            ],
            primary_key: &["pmcid"],
            foreign_keys: &[],
            indexes: &[ix("article_pmid", &["pmid"])],
        },
        Table {
            name: "author",
            doc: "One author in order.",
            columns: &[
                req("pmcid", Text, "PMC id."),
                req("position", Integer, "1-based author position."),
                opt("last_name", Text, "Family name."),
                opt("fore_name", Text, "Given names."),
                opt("initials", Text, "Initials."),
                opt("suffix", Text, "Suffix."),
                opt("collective_name", Text, "Group name for a consortium."),
                opt("orcid", Text, "ORCID."),
            ],
            primary_key: &["pmcid", "position"],
            foreign_keys: PMCID_FK,
            indexes: &[ix("author_name", &["last_name", "fore_name"])],
        },
        Table {
            name: "affiliation",
            doc: "One affiliation of one author.",
            columns: &[
                req("pmcid", Text, "PMC id."),
                req("author_position", Integer, "The author's position."),
                req("position", Integer, "1-based order."),
                req("affiliation", Text, "Affiliation text."),
            ],
            primary_key: &["pmcid", "author_position", "position"],
            foreign_keys: &[fk(
                &["pmcid", "author_position"],
                "author",
                &["pmcid", "position"],
            )],
            indexes: &[],
        },
        Table {
            name: "keyword",
            doc: "One keyword.",
            columns: &[
                req("pmcid", Text, "PMC id."),
                req("position", Integer, "1-based order."),
                req("keyword", Text, "Keyword text."),
            ],
            primary_key: &["pmcid", "position"],
            foreign_keys: PMCID_FK,
            indexes: &[],
        },
        Table {
            name: "section",
            doc: "One body section, flattened in reading order.",
            columns: &[
                req("pmcid", Text, "PMC id."),
                req("position", Integer, "0-based order in the document."),
                req("level", Integer, "Nesting level: 1 for a top-level section, 0 for text directly in the body."),
                opt("title", Text, "Section title."),
                req("text", Text, "Paragraphs separated by blank lines."),
                opt("path", Text, "Heading path from the top-level section, joined by ' > ', e.g. 'Methods > Statistical analysis'."),
                opt("back", Integer, "1 for back matter (acknowledgements, appendices, notes), 0 for the body."),
            ],
            primary_key: &["pmcid", "position"],
            foreign_keys: PMCID_FK,
            indexes: &[],
        },
        Table {
            name: "caption",
            doc: "One figure or table: its label, caption and (tables) rows as text, in document order.",
            columns: &[
                req("pmcid", Text, "PMC id."),
                req("position", Integer, "0-based order in the document."),
                req("kind", Text, "'figure' or 'table'."),
                opt("label", Text, "Label, e.g. 'Table 2'."),
                opt("caption", Text, "Caption text."),
                opt("section_position", Integer, "section.position of the section it sits in."),
                opt("table_rows", Text, "A table's rows, one a line, cells joined by ' | '."),
            ],
            primary_key: &["pmcid", "position"],
            foreign_keys: PMCID_FK,
            indexes: &[],
        },
    ],
    examples: &[
        Example {
            title: "Articles by number of sections",
            sql: "SELECT a.pmcid, a.title, COUNT(s.position) AS sections FROM article a LEFT JOIN section s ON s.pmcid = a.pmcid GROUP BY a.pmcid ORDER BY sections DESC LIMIT 20",
        },
        Example {
            title: "Results that report a hazard ratio (instr: LIKE patterns over 50 bytes fail on the Worker)",
            sql: "SELECT s.pmcid, a.title, s.path FROM section s JOIN article a ON a.pmcid = s.pmcid WHERE lower(s.path) LIKE '%result%' AND instr(lower(s.text), 'hazard ratio') > 0 LIMIT 50",
        },
        Example {
            title: "Table captions and rows mentioning a term",
            sql: "SELECT pmcid, label, caption, substr(table_rows, 1, 300) AS table_rows FROM caption WHERE kind = 'table' AND instr(lower(caption || ' ' || coalesce(table_rows, '')), 'survival') > 0 LIMIT 20",
        },
    ],
};
