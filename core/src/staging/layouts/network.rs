//! The citation network layout: PubMed's tables for the papers, plus who cites whom, how far
//! each paper is from the seeds, and each paper's iCite metrics.
//!
//! PubMed's eight tables come first and in PubMed's order, so a batch of PubMed rows widened
//! with two empty slots ([`widen`](crate::staging::rows::network::widen)) lands in the same
//! positions. Every edge's citing paper is a paper of the network: the table holds each
//! paper's whole reference list, whether the cited paper was staged or not.

use crate::staging::layouts::{ix, PUBMED};
use crate::staging::schema::ColumnType::{Integer, Real, Text};
use crate::staging::schema::{opt, req, Example, Layout, Table};

/// Who cites whom.
pub const CITATION: Table = Table {
    name: "citation",
    doc: "One citation: citing_pmid cites cited_pmid. Every paper of the network has its whole reference list here, and the citations its citers name; a cited paper outside the network has no article row.",
    columns: &[
        req("citing_pmid", Integer, "PMID of the citing paper (a paper of the network)."),
        req("cited_pmid", Integer, "PMID of the paper it cites."),
    ],
    primary_key: &["citing_pmid", "cited_pmid"],
    // No declared foreign keys here: Durable Object SQLite enforces them, and a paper's edges
    // and metrics may land before its article (or it may have none, a PMID PubMed lacks).
    foreign_keys: &[],
    indexes: &[ix("citation_cited", &["cited_pmid", "citing_pmid"])],
};

/// How far each paper of the network is from the seeds.
pub const NODE: Table = Table {
    name: "node",
    doc: "One paper of the network and how it was reached from the seeds.",
    columns: &[
        req("pmid", Integer, "PubMed id."),
        req("step", Integer, "0 for a seed, 1 for a paper a seed cites or that cites a seed, 2 one citation further."),
        opt("relation", Text, "How it was first reached: 'seed', 'reference' (cited by the paper before it) or 'citer' (citing it)."),
    ],
    primary_key: &["pmid"],
    foreign_keys: &[],
    indexes: &[ix("node_step", &["step"])],
};

/// NIH iCite's metrics of each paper.
pub const METRICS: Table = Table {
    name: "metrics",
    doc: "One paper's citation metrics from NIH iCite (NULL where iCite has none, or where elink answered instead).",
    columns: &[
        req("pmid", Integer, "PubMed id."),
        opt("relative_citation_ratio", Real, "Relative Citation Ratio: citations per year against the field's expected rate (1.0 = the NIH-funded median)."),
        opt("nih_percentile", Real, "Percentile of the RCR among NIH-funded papers."),
        opt("citation_count", Integer, "Citations in the NIH Open Citation Collection (elink: PubMed's cited-by count; NULL where elink answered for a paper at the last step, whose citers are not asked)."),
        opt("citations_per_year", Real, "Citations per year since publication."),
        opt("expected_citations_per_year", Real, "Citations per year expected of the paper's field."),
        opt("field_citation_rate", Real, "The field's citation rate, from its co-citation network."),
        opt("apt", Real, "Approximate Potential to Translate: estimated chance of a later clinical citation."),
        opt("is_clinical", Integer, "1 for a clinical paper (iCite's classification)."),
        opt("provisional", Integer, "1 when the RCR is provisional (a paper under two years old)."),
        req("source", Text, "Who answered: 'icite', or 'elink' when iCite was unreachable or lacked the paper (counts only)."),
    ],
    primary_key: &["pmid"],
    foreign_keys: &[],
    indexes: &[],
};

/// A citation network staged from seed PMIDs: `entrez_data` `fetch_and_stage` with `network`.
pub const NETWORK: Layout = Layout {
    name: "citation_network",
    doc: "A citation network (efetch XML and NIH iCite): PubMed's tables for every paper one or two citations from the seeds, who cites whom, each paper's distance from the seeds and its citation metrics.",
    primary: "article",
    tables: &[
        PUBMED.tables[0],
        PUBMED.tables[1],
        PUBMED.tables[2],
        PUBMED.tables[3],
        PUBMED.tables[4],
        PUBMED.tables[5],
        PUBMED.tables[6],
        PUBMED.tables[7],
        CITATION,
        NODE,
        METRICS,
    ],
    examples: &[
        Example {
            title: "Most cited together with a seed (co-citation): papers on the same reference lists as the seed",
            sql: "SELECT s.pmid AS seed, o.cited_pmid AS pmid, COUNT(*) AS co_citations, a.year, a.title FROM node s JOIN citation c ON c.cited_pmid = s.pmid JOIN citation o ON o.citing_pmid = c.citing_pmid AND o.cited_pmid <> s.pmid LEFT JOIN article a ON a.pmid = o.cited_pmid WHERE s.step = 0 GROUP BY s.pmid, o.cited_pmid ORDER BY co_citations DESC, seed, pmid LIMIT 20",
        },
        Example {
            title: "Bibliographic coupling: papers sharing the most references with a seed",
            sql: "SELECT s.pmid AS seed, o.citing_pmid AS pmid, COUNT(*) AS shared_references, a.year, a.title FROM node s JOIN citation r ON r.citing_pmid = s.pmid JOIN citation o ON o.cited_pmid = r.cited_pmid AND o.citing_pmid <> s.pmid LEFT JOIN article a ON a.pmid = o.citing_pmid WHERE s.step = 0 GROUP BY s.pmid, o.citing_pmid ORDER BY shared_references DESC, seed, pmid LIMIT 20",
        },
        Example {
            title: "The most influential papers of each year by Relative Citation Ratio (top 3 by RANK, ties kept; provisional = 1 marks a recent paper's provisional RCR)",
            sql: "SELECT year, pmid, rcr, provisional, nih_percentile, title FROM (SELECT a.year, m.pmid, m.relative_citation_ratio AS rcr, m.provisional, m.nih_percentile, a.title, RANK() OVER (PARTITION BY a.year ORDER BY m.relative_citation_ratio DESC) AS rank FROM metrics m JOIN article a ON a.pmid = m.pmid WHERE m.relative_citation_ratio IS NOT NULL) WHERE rank <= 3 ORDER BY year DESC, rank, pmid",
        },
        Example {
            title: "Retractions inside the trail: papers of the network citing a retracted paper of the network (its own notices, errata and comments, linked in correction, left out; a retracted paper outside the network is not checked)",
            sql: "SELECT c.citing_pmid AS pmid, COUNT(*) AS retracted_references, group_concat(c.cited_pmid, ', ') AS retracted_pmids, a.year, a.title FROM citation c JOIN article r ON r.pmid = c.cited_pmid AND r.retracted = 1 LEFT JOIN article a ON a.pmid = c.citing_pmid WHERE NOT EXISTS (SELECT 1 FROM correction k WHERE (k.pmid = c.citing_pmid AND k.ref_pmid = c.cited_pmid) OR (k.pmid = c.cited_pmid AND k.ref_pmid = c.citing_pmid)) GROUP BY c.citing_pmid ORDER BY retracted_references DESC, pmid",
        },
        Example {
            title: "Papers citing the seeds, per year, each counted once however many seeds it cites (add AND s.pmid = <seed> for one seed; chart it: entrez_data chart, chart line, this sql)",
            sql: "SELECT a.year AS label, COUNT(DISTINCT c.citing_pmid) AS value FROM node s JOIN citation c ON c.cited_pmid = s.pmid JOIN article a ON a.pmid = c.citing_pmid WHERE s.step = 0 AND a.year IS NOT NULL GROUP BY a.year ORDER BY a.year",
        },
    ],
};
