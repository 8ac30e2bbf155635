//! Rows of the `citation_network` layout: PubMed's rows widened to it, and the network's own
//! tables (citation, node, metrics) from what the citation sources answered.

use crate::staging::layouts::{NETWORK, PUBMED};
use crate::staging::rows::{RowBatch, SqlValue, TableRows};

// The network's own tables, after PubMed's eight (NETWORK.tables order).
const CITATION: usize = 8;
const NODE: usize = 9;
const METRICS: usize = 10;

/// One paper's metrics as a row of `metrics`; `None` is NULL.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MetricsRow {
    /// PubMed id.
    pub pmid: u64,
    /// Relative Citation Ratio.
    pub relative_citation_ratio: Option<f64>,
    /// NIH percentile.
    pub nih_percentile: Option<f64>,
    /// Citations counted.
    pub citation_count: Option<u64>,
    /// Citations per year.
    pub citations_per_year: Option<f64>,
    /// Expected citations per year.
    pub expected_citations_per_year: Option<f64>,
    /// Field citation rate.
    pub field_citation_rate: Option<f64>,
    /// Approximate Potential to Translate.
    pub apt: Option<f64>,
    /// Clinical paper.
    pub is_clinical: Option<bool>,
    /// Provisional RCR.
    pub provisional: Option<bool>,
    /// `icite` or `elink`.
    pub source: &'static str,
}

/// A batch of PubMed rows as a batch of the network layout: the same eight tables in the same
/// places, the network's own three empty.
pub fn widen(batch: RowBatch) -> RowBatch {
    debug_assert_eq!(batch.layout.name, PUBMED.name);
    let mut tables = batch.tables;
    tables.extend(
        NETWORK.tables[PUBMED.tables.len()..]
            .iter()
            .map(|table| TableRows {
                table,
                values: Vec::new(),
                refused: 0,
            }),
    );
    RowBatch {
        layout: &NETWORK,
        records: batch.records,
        skipped: batch.skipped,
        tables,
    }
}

/// A batch of the network's own rows (no article: `records` stays 0).
pub struct NetworkRows {
    batch: RowBatch,
}

impl Default for NetworkRows {
    fn default() -> Self {
        NetworkRows {
            batch: RowBatch::new(&NETWORK),
        }
    }
}

fn real(v: Option<f64>) -> SqlValue {
    v.filter(|x| x.is_finite())
        .map_or(SqlValue::Null, SqlValue::Real)
}

fn flag(v: Option<bool>) -> SqlValue {
    v.map_or(SqlValue::Null, SqlValue::flag)
}

fn pmid(n: u64) -> SqlValue {
    SqlValue::opt_int(Some(n))
}

impl NetworkRows {
    /// `citing` cites `cited`.
    pub fn citation(&mut self, citing: u64, cited: u64) {
        self.batch.table(CITATION).push([pmid(citing), pmid(cited)]);
    }

    /// A paper of the network, `step` citations from the seeds, first reached as `relation`.
    pub fn node(&mut self, paper: u64, step: u8, relation: &str) {
        self.batch.table(NODE).push([
            pmid(paper),
            SqlValue::Integer(i64::from(step)),
            SqlValue::Text(relation.to_string()),
        ]);
    }

    /// One paper's metrics.
    pub fn metrics(&mut self, m: &MetricsRow) {
        self.batch.table(METRICS).push([
            pmid(m.pmid),
            real(m.relative_citation_ratio),
            real(m.nih_percentile),
            SqlValue::opt_int(m.citation_count),
            real(m.citations_per_year),
            real(m.expected_citations_per_year),
            real(m.field_citation_rate),
            real(m.apt),
            flag(m.is_clinical),
            flag(m.provisional),
            SqlValue::Text(m.source.to_string()),
        ]);
    }

    /// Rows so far.
    pub fn len(&self) -> usize {
        self.batch.row_count()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The batch.
    pub fn finish(self) -> RowBatch {
        self.batch
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widened_pubmed_rows_keep_their_places_and_the_network_rows_theirs() {
        let pubmed = RowBatch::new(&PUBMED);
        let wide = widen(pubmed);
        assert_eq!(wide.layout.name, "citation_network");
        assert_eq!(wide.tables.len(), NETWORK.tables.len());
        for (rows, table) in wide.tables.iter().zip(NETWORK.tables) {
            assert_eq!(rows.table.name, table.name);
            assert_eq!(rows.table.columns.len(), table.columns.len());
        }
        let mut n = NetworkRows::default();
        n.citation(1, 2);
        n.node(1, 0, "seed");
        n.metrics(&MetricsRow {
            pmid: 1,
            relative_citation_ratio: Some(f64::NAN),
            citation_count: Some(3),
            is_clinical: Some(true),
            source: "icite",
            ..MetricsRow::default()
        });
        let b = n.finish();
        assert_eq!(b.tables[CITATION].table.name, "citation");
        assert_eq!(b.tables[NODE].table.name, "node");
        assert_eq!(b.tables[METRICS].table.name, "metrics");
        assert_eq!(b.row_count(), 3);
        let m = b.tables[METRICS].row(0);
        assert_eq!(m[1], SqlValue::Null, "a NaN is no number");
        assert_eq!(
            (&m[3], &m[8]),
            (&SqlValue::Integer(3), &SqlValue::Integer(1))
        );
        assert_eq!(b.records, 0);
    }
}
