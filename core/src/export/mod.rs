//! Exports: a staged dataset's records (or a query's rows) as the files researchers' tools
//! open — RIS, BibTeX, CSL JSON, MEDLINE, CSV, JSON Lines — and bibliographies in five
//! styles, served as MCP resources in pages, never through the model.
//!
//! An export is planned once ([`prepare`]: which records, in which order, how many pages,
//! how many bytes) and kept with its dataset as a small [`Export`] (the store's
//! `save_export`); each page is written when it is read ([`write`]), from rows read through
//! the same read-only queries as every caller's ([`read`]), so it lives and goes with its
//! dataset. [`format`] names the formats, [`record`] is what they read; [`csl`], [`ris`],
//! [`bibtex`], [`medline`] and [`table`] write them, [`style`] the bibliographies.

pub mod bibtex;
pub mod csl;
pub mod date;
pub mod format;
pub mod medline;
pub mod metrics;
pub mod read;
pub mod record;
pub mod ris;
pub mod style;
pub mod table;
pub mod write;

use crate::error::{Error, ErrorKind, Result};
use crate::export::record::Assembler;
use crate::export::style::Style;
use crate::staging::schema::Layout;
use crate::staging::store::{DatasetInfo, DatasetStore};
use serde::{Deserialize, Serialize};

pub use format::{style_named, unknown_style_message, Format, FORMATS, OTHER_STYLES};
pub use write::{page, records_from_jsonl, write_all, write_records};

/// Records per page: a page of a Worker's read is written within a few milliseconds of
/// CPU (docs/src/export.md, "Pages").
pub const RECORDS_PER_PAGE: u64 = 200;
/// Rows of a query per page.
pub const ROWS_PER_PAGE: u64 = 1_000;
/// Most exports kept per dataset; a new one past it replaces the oldest.
pub const MAX_EXPORTS_PER_DATASET: u64 = 32;

/// What is being exported.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Items {
    /// Records of a `pubmed` or `pmc` dataset, by key, in the export's order.
    Records {
        /// Record keys (PMIDs or PMCIDs).
        keys: Vec<String>,
        /// Year letters of an author-date bibliography, by position in `keys`.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        suffixes: Vec<(u64, String)>,
        /// Names shown before "et al." where disambiguation added names, by position.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        names: Vec<(u64, usize)>,
    },
    /// The rows of one read-only statement.
    Rows {
        /// The statement.
        sql: String,
        /// How many rows it returns.
        rows: u64,
    },
}

/// An export as it is kept with its dataset: enough to write any of its pages.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Export {
    /// 16 hex digits, unique within the dataset.
    pub id: String,
    /// The dataset.
    pub dataset: String,
    /// The format.
    pub format: Format,
    /// The style of a bibliography.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub style: Option<Style>,
    /// What it holds.
    pub items: Items,
    /// Records or rows per page.
    pub per_page: u64,
    /// When it was made, Unix ms.
    pub created_ms: u64,
    /// The dataset's status then ("complete", "loading", …) and its record count.
    pub dataset_status: String,
    /// Records the dataset held then.
    pub dataset_records: u64,
    /// Total bytes of every page, where they were counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<u64>,
    /// Whether its records carry a citation network's metrics (CSV columns after theirs).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub metrics: bool,
}

impl Export {
    /// Records or rows exported.
    pub fn count(&self) -> u64 {
        match &self.items {
            Items::Records { keys, .. } => keys.len() as u64,
            Items::Rows { rows, .. } => *rows,
        }
    }

    /// Pages (at least one).
    pub fn pages(&self) -> u64 {
        self.count().div_ceil(self.per_page.max(1)).max(1)
    }

    /// The resource URI of the export (its first page), or of page `page`.
    pub fn uri(&self, page: Option<u64>) -> String {
        let base = format!(
            "entrez-dataset://{}/export/{}.{}",
            self.dataset,
            self.id,
            self.format.extension()
        );
        match page {
            Some(p) => format!("{base}?page={p}"),
            None => base,
        }
    }

    /// A file name for it: "pubmed-1a2b3c4d-apa.md".
    pub fn file_name(&self, database: &str) -> String {
        let style = self
            .style
            .map(|s| format!("-{}", s.name()))
            .unwrap_or_default();
        format!(
            "{database}-{}{style}.{}",
            &self.dataset[..8.min(self.dataset.len())],
            self.format.extension()
        )
    }
}

/// The dataset and export an export URI names, and its page (1 when none is given):
/// `entrez-dataset://{id}/export/{export}.{ext}[?page=N]`.
pub fn parse_uri(uri: &str) -> Option<(&str, &str, u64)> {
    let rest = uri.strip_prefix("entrez-dataset://")?;
    let (path, query) = match rest.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (rest, None),
    };
    let (dataset, file) = path.split_once("/export/")?;
    let (export, _ext) = file.split_once('.')?;
    let page = match query {
        None => 1,
        Some(q) => q
            .strip_prefix("page=")?
            .parse::<u64>()
            .ok()
            .filter(|p| *p >= 1)?,
    };
    let ok = crate::staging::is_dataset_id(dataset)
        && export.len() == 16
        && export
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase());
    ok.then_some((dataset, export, page))
}

/// What to export.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// The format.
    pub format: Format,
    /// The style (bibliographies).
    pub style: Style,
    /// A read-only statement choosing the records (its key column) or rows (CSV and JSON
    /// Lines) to export; the whole dataset when absent.
    pub sql: Option<String>,
}

/// The tables each format reads.
pub(crate) fn tables_for(format: Format) -> &'static [&'static str] {
    match format {
        Format::Ris => &[
            "article",
            "author",
            "keyword",
            "mesh",
            "publication_type",
            "correction",
        ],
        Format::Bibtex => &[
            "article",
            "author",
            "keyword",
            "publication_type",
            "correction",
        ],
        Format::CslJson => &["article", "author", "keyword"],
        Format::Medline => &[
            "article",
            "author",
            "affiliation",
            "mesh",
            "keyword",
            "publication_type",
            "correction",
        ],
        // A citation network's metrics too (a layout without the table reads none).
        Format::Jsonl => &[
            "article",
            "author",
            "affiliation",
            "mesh",
            "keyword",
            "publication_type",
            "correction",
            "metrics",
        ],
        Format::Csv => &[
            "article",
            "author",
            "mesh",
            "keyword",
            "publication_type",
            "metrics",
        ],
        Format::Text | Format::Markdown => &["article", "author", "publication_type", "correction"],
    }
}

/// Whether the request exports a statement's rows as they are (CSV and JSON Lines of a
/// query, or of any dataset that is not literature), rather than records.
fn exports_rows(format: Format, sql: Option<&str>, assembler: Option<&Assembler>) -> bool {
    matches!(format, Format::Csv | Format::Jsonl) && (sql.is_some() || assembler.is_none())
}

/// Plans an export of `info`'s dataset: reads which records (or counts which rows) it
/// holds and in which order. The caller stores it and links it.
pub async fn prepare(
    store: &dyn DatasetStore,
    info: &DatasetInfo,
    layout: &'static Layout,
    request: &Request,
    id: String,
    now_ms: u64,
    time_limit_ms: u64,
) -> Result<Export> {
    let assembler = Assembler::for_layout(layout);
    let sql = request.sql.as_deref();
    let items = if exports_rows(request.format, sql, assembler.as_ref()) {
        let statement = match sql {
            Some(s) => s.to_string(),
            None => format!("SELECT * FROM {}", layout.tables[0].name),
        };
        let counted = store
            .query(
                &info.id,
                &format!("SELECT count(*) FROM (\n{}\n)", statement_of(&statement)),
                read::policy(time_limit_ms),
            )
            .await?;
        let rows = match counted.rows.first().and_then(|r| r.first()) {
            Some(crate::staging::rows::SqlValue::Integer(n)) => *n as u64,
            _ => 0,
        };
        Items::Rows {
            sql: statement_of(&statement).to_string(),
            rows,
        }
    } else {
        let Some(assembler) = assembler.as_ref() else {
            return Err(Error::new(
                ErrorKind::InvalidArguments,
                format!(
                    "{} is a format for citations; dataset {} holds {} records ({} layout).",
                    request.format.name(),
                    info.id,
                    info.database,
                    layout.name
                ),
            )
            .with_code("format_needs_citations")
            .suggest("Export csv or jsonl, which write any dataset's rows, or stage PubMed or PMC records."));
        };
        let keys = read::keys(
            store,
            &info.id,
            assembler,
            sql.map(statement_of),
            time_limit_ms,
        )
        .await
        .map_err(|e| key_column_missing(e, assembler, sql.is_some()))?;
        if request.format.bibliography() && !request.style.numbered() {
            arranged(
                store,
                &info.id,
                assembler,
                request.style,
                keys,
                time_limit_ms,
            )
            .await?
        } else {
            Items::Records {
                keys,
                suffixes: Vec::new(),
                names: Vec::new(),
            }
        }
    };
    let per_page = match items {
        Items::Records { .. } => RECORDS_PER_PAGE,
        Items::Rows { .. } => ROWS_PER_PAGE,
    };
    Ok(Export {
        id,
        dataset: info.id.clone(),
        format: request.format,
        style: request.format.bibliography().then_some(request.style),
        items,
        per_page,
        created_ms: now_ms,
        dataset_status: info.status.as_str().to_string(),
        dataset_records: info.records,
        bytes: None,
        metrics: layout.table("metrics").is_some(),
    })
}

/// The error for a statement without the key column a citation format needs.
fn key_column_missing(e: Error, assembler: &Assembler, from_sql: bool) -> Error {
    if from_sql && e.code == "sql_error" && e.message.contains("no such column") {
        let key = assembler.key_column();
        return Error::new(
            ErrorKind::InvalidArguments,
            format!("The statement returns no {key} column: a citation format exports the records whose {key} it returns."),
        )
        .with_code("sql_error")
        .suggest(format!("Select {key}, e.g. SELECT {key} FROM article WHERE year >= 2020 ORDER BY year DESC."));
    }
    e
}

/// The keys in an author-date style's order, with the year letters it needs.
async fn arranged(
    store: &dyn DatasetStore,
    dataset: &str,
    assembler: &Assembler,
    style: Style,
    keys: Vec<String>,
    time_limit_ms: u64,
) -> Result<Items> {
    let records = read::records(
        store,
        dataset,
        assembler,
        &keys,
        &["article", "author"],
        time_limit_ms,
    )
    .await?;
    let arranged = style::arrange(style, &records);
    let mut ordered = Vec::with_capacity(records.len());
    let mut suffixes = Vec::new();
    let mut names = Vec::new();
    for (n, (i, place)) in arranged.into_iter().enumerate() {
        ordered.push(records[i].key.clone());
        if let Some(s) = place.suffix {
            suffixes.push((n as u64, s));
        }
        if let Some(k) = place.names {
            names.push((n as u64, k));
        }
    }
    Ok(Items::Records {
        keys: ordered,
        suffixes,
        names,
    })
}

/// The statement without its closing `;` and what may follow it (white space, comments),
/// so it can stand inside a subquery.
pub fn statement_of(sql: &str) -> &str {
    let trimmed = sql.trim_end();
    match trimmed.rfind(';') {
        Some(i) => {
            let after = trimmed[i + 1..].trim();
            let only_comment = after.is_empty()
                || (after.starts_with("--") && !after.contains('\n'))
                || (after.starts_with("/*") && after.ends_with("*/"));
            if only_comment {
                trimmed[..i].trim_end()
            } else {
                trimmed
            }
        }
        None => trimmed,
    }
}

#[cfg(test)]
mod tests;
