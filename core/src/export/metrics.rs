//! A citation network's metrics in its exports: columns after a record's in CSV, a `metrics`
//! object in JSON Lines. Only a `citation_network` dataset has them; a PubMed dataset's
//! exports are unchanged.

use crate::export::record::Record;
use crate::export::table::{csv_rows, record_cells, RECORD_COLUMNS};
use crate::staging::rows::SqlValue;
use serde::{Deserialize, Serialize};

/// The metric columns a network's CSV adds after the record's, in order.
pub const METRIC_COLUMNS: &[&str] = &[
    "relative_citation_ratio",
    "nih_percentile",
    "citation_count",
    "citations_per_year",
    "expected_citations_per_year",
    "field_citation_rate",
    "apt",
    "is_clinical",
    "provisional",
    "metrics_source",
];

/// One paper's row of the `metrics` table.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Metrics {
    /// Relative Citation Ratio.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relative_citation_ratio: Option<f64>,
    /// NIH percentile.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nih_percentile: Option<f64>,
    /// Citations counted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub citation_count: Option<i64>,
    /// Citations per year.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub citations_per_year: Option<f64>,
    /// Citations per year expected of the field.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_citations_per_year: Option<f64>,
    /// The field's citation rate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field_citation_rate: Option<f64>,
    /// Approximate Potential to Translate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub apt: Option<f64>,
    /// A clinical paper.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_clinical: Option<bool>,
    /// A provisional RCR.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provisional: Option<bool>,
    /// Who answered: icite or elink.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

impl Metrics {
    /// A `metrics` row, its values read by column name through `get`.
    pub fn of(get: impl Fn(&str) -> Option<SqlValue>) -> Metrics {
        let real = |name: &str| match get(name) {
            Some(SqlValue::Real(f)) => Some(f),
            Some(SqlValue::Integer(n)) => Some(n as f64),
            _ => None,
        };
        let int = |name: &str| match get(name) {
            Some(SqlValue::Integer(n)) => Some(n),
            _ => None,
        };
        Metrics {
            relative_citation_ratio: real("relative_citation_ratio"),
            nih_percentile: real("nih_percentile"),
            citation_count: int("citation_count"),
            citations_per_year: real("citations_per_year"),
            expected_citations_per_year: real("expected_citations_per_year"),
            field_citation_rate: real("field_citation_rate"),
            apt: real("apt"),
            is_clinical: int("is_clinical").map(|n| n != 0),
            provisional: int("provisional").map(|n| n != 0),
            source: match get("source") {
                Some(SqlValue::Text(s)) => Some(s),
                _ => None,
            },
        }
    }

    fn cells(&self) -> Vec<String> {
        let real = |v: Option<f64>| v.map(|f| f.to_string()).unwrap_or_default();
        let flag = |v: Option<bool>| v.map(|b| b.to_string()).unwrap_or_default();
        vec![
            real(self.relative_citation_ratio),
            real(self.nih_percentile),
            self.citation_count
                .map(|n| n.to_string())
                .unwrap_or_default(),
            real(self.citations_per_year),
            real(self.expected_citations_per_year),
            real(self.field_citation_rate),
            real(self.apt),
            flag(self.is_clinical),
            flag(self.provisional),
            self.source.clone().unwrap_or_default(),
        ]
    }
}

/// A network's records as CSV rows: the record's columns, then its metrics' (empty where it
/// has none).
pub fn records_csv(records: &[Record], header: bool) -> String {
    let head: Vec<String> = RECORD_COLUMNS
        .iter()
        .chain(METRIC_COLUMNS)
        .map(|c| c.to_string())
        .collect();
    let rows: Vec<Vec<String>> = records
        .iter()
        .map(|r| {
            let mut cells = record_cells(r);
            cells.extend(r.metrics.clone().unwrap_or_default().cells());
            cells
        })
        .collect();
    csv_rows(header.then_some(head.as_slice()), &rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metric_columns_follow_the_record_and_stay_empty_without_metrics() {
        let with = Record {
            pmid: Some(1),
            title: "A".into(),
            metrics: Some(Metrics {
                relative_citation_ratio: Some(1.25),
                citation_count: Some(7),
                is_clinical: Some(false),
                source: Some("icite".into()),
                ..Metrics::default()
            }),
            ..Record::default()
        };
        let without = Record {
            pmid: Some(2),
            title: "B".into(),
            ..Record::default()
        };
        let csv = records_csv(&[with, without], true);
        let lines: Vec<&str> = csv.split("\r\n").collect();
        let head: Vec<&str> = lines[0].split(',').collect();
        assert_eq!(head.len(), RECORD_COLUMNS.len() + METRIC_COLUMNS.len());
        assert_eq!(head[RECORD_COLUMNS.len()], "relative_citation_ratio");
        let first: Vec<&str> = lines[1].split(',').collect();
        let at = |name: &str| head.iter().position(|h| *h == name).unwrap();
        assert_eq!(first[at("relative_citation_ratio")], "1.25");
        assert_eq!(first[at("citation_count")], "7");
        assert_eq!(first[at("is_clinical")], "false");
        assert_eq!(first[at("metrics_source")], "icite");
        assert_eq!(first[at("nih_percentile")], "");
        let second: Vec<&str> = lines[2].split(',').collect();
        assert_eq!(second.len(), head.len());
        assert!(second[RECORD_COLUMNS.len()..].iter().all(|c| c.is_empty()));
    }
}
