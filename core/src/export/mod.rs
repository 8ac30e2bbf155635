//! Exports: a staged dataset's records (or a query's rows) as the files researchers' tools
//! open — RIS, BibTeX, CSL JSON, MEDLINE, CSV, JSON Lines — and bibliographies in five
//! styles, served as MCP resources in pages, never through the model.
//!
//! An export is planned once ([`prepare`]: which records, in which order, how many pages,
//! how many bytes) and kept with its dataset as a small [`Export`] (the store's
//! `save_export`); each page is written when it is read ([`page`]), from rows read through
//! the same read-only queries as every caller's ([`read`]), so it lives and goes with its
//! dataset. [`record`] is what the formats read; [`csl`], [`ris`], [`bibtex`], [`medline`]
//! and [`table`] write them, [`style`] the bibliographies.

pub mod bibtex;
pub mod csl;
pub mod date;
pub mod medline;
pub mod metrics;
pub mod read;
pub mod record;
pub mod ris;
pub mod style;
pub mod table;

use crate::error::{Error, ErrorKind, Result};
use crate::export::record::{Assembler, Record};
use crate::export::style::{Markup, Place, Style};
use crate::json;
use crate::staging::guard::MAX_RESULT_BYTES;
use crate::staging::schema::Layout;
use crate::staging::store::{DatasetInfo, DatasetStore};
use serde::{Deserialize, Serialize};

/// An export format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// RIS (EndNote, Zotero, Mendeley).
    Ris,
    /// BibTeX (LaTeX, JabRef).
    Bibtex,
    /// CSL JSON (Zotero, Pandoc, CSL processors).
    CslJson,
    /// MEDLINE/PubMed tagged text (`.nbib`).
    Medline,
    /// CSV (spreadsheets, pandas).
    Csv,
    /// JSON Lines (notebooks, jq).
    Jsonl,
    /// A bibliography as plain text.
    Text,
    /// A bibliography in Markdown, DOIs and PubMed records linked.
    Markdown,
}

/// Every format: its name, other names it answers to, MIME type and file extension.
pub const FORMATS: &[(Format, &str, &[&str], &str, &str)] = &[
    (
        Format::Ris,
        "ris",
        &["endnote", "refman"],
        "application/x-research-info-systems",
        "ris",
    ),
    (
        Format::Bibtex,
        "bibtex",
        &["bib", "biblatex", "latex"],
        "application/x-bibtex",
        "bib",
    ),
    (
        Format::CslJson,
        "csl_json",
        &["csl", "csljson", "csl-json", "citeproc-json"],
        "application/vnd.citationstyles.csl+json",
        "json",
    ),
    (
        Format::Medline,
        "medline",
        &["nbib", "pubmed"],
        "application/x-medline",
        "nbib",
    ),
    (
        Format::Csv,
        "csv",
        &["spreadsheet", "excel"],
        "text/csv",
        "csv",
    ),
    (
        Format::Jsonl,
        "jsonl",
        &["json_lines", "json-lines", "ndjson", "json"],
        "application/jsonl",
        "jsonl",
    ),
    (
        Format::Text,
        "text",
        &["txt", "plain", "plaintext"],
        "text/plain",
        "txt",
    ),
    (Format::Markdown, "markdown", &["md"], "text/markdown", "md"),
];

fn row(
    format: Format,
) -> &'static (
    Format,
    &'static str,
    &'static [&'static str],
    &'static str,
    &'static str,
) {
    FORMATS
        .iter()
        .find(|f| f.0 == format)
        .unwrap_or(&FORMATS[0])
}

impl Format {
    /// The format's name.
    pub fn name(self) -> &'static str {
        row(self).1
    }

    /// Its MIME type.
    pub fn mime(self) -> &'static str {
        row(self).3
    }

    /// Its file extension.
    pub fn extension(self) -> &'static str {
        row(self).4
    }

    /// Whether it is a bibliography in a style.
    pub fn bibliography(self) -> bool {
        matches!(self, Format::Text | Format::Markdown)
    }

    /// The format named `name` (or one of its other names), any case; an error listing
    /// the formats otherwise.
    pub fn named(name: &str) -> Result<Format> {
        let n = name.trim().to_ascii_lowercase().replace([' ', '-'], "_");
        let found = FORMATS.iter().find(|(_, main, other, _, _)| {
            *main == n || other.iter().any(|o| o.replace('-', "_") == n)
        });
        if let Some(f) = found {
            return Ok(f.0);
        }
        let names: Vec<&str> = FORMATS.iter().map(|f| f.1).collect();
        let mut e = Error::new(
            ErrorKind::InvalidArguments,
            format!(
                "Unknown export format {name:?}. Supported: {}.",
                names.join(", ")
            ),
        )
        .with_code("unknown_format")
        .with_details(json!({ "format": name, "supported": names }));
        if n == "parquet" {
            e.message = format!(
                "Parquet is not offered (its writer would take about 190 KB of the Worker's 2 MB bundle). Supported: {}.",
                names.join(", ")
            );
            e = e.suggest("Export csv or jsonl; pandas writes Parquet from either (pd.read_json(path, lines=True).to_parquet(...)).");
        } else if let Some(near) = crate::suggest::closest(&n, names.iter().copied()) {
            e = e.suggest(format!("Did you mean \"{near}\"?"));
        }
        Err(e)
    }
}

/// What an unknown style is told: the five built in, and how any other CSL style is had
/// (the records as CSL JSON or RIS, formatted by a reference manager).
pub fn unknown_style_message(name: &str) -> String {
    let names: Vec<&str> = style::STYLES.iter().map(|s| s.1).collect();
    format!(
        "Unknown bibliography style {name:?}. Built in: {}. Any other of the CSL project's \
         styles (Nature, Cell, IEEE, MLA, a journal's own) comes from exporting the records \
         as csl_json or ris and formatting them in a reference manager (Zotero: File > \
         Import, then Create Bibliography from Items) or any CSL processor.",
        names.join(", ")
    )
}

/// The suggestion beside [`unknown_style_message`].
pub const OTHER_STYLES: &str = "For another style: entrez_data operation export with format \"csl_json\" (or \"ris\"), then import the file into Zotero, Mendeley or EndNote and pick the style there.";

/// The error for a style nobody named right, listing the styles.
pub fn style_named(name: &str) -> Result<Style> {
    Style::named(name).ok_or_else(|| {
        let names: Vec<&str> = style::STYLES.iter().map(|s| s.1).collect();
        let mut e = Error::new(ErrorKind::InvalidArguments, unknown_style_message(name))
            .with_code("unknown_style")
            .with_details(json!({ "style": name, "supported": names }));
        if let Some(near) =
            crate::suggest::closest(&name.to_ascii_lowercase(), names.iter().copied())
        {
            e = e.suggest(format!("Did you mean \"{near}\"?"));
        }
        e.suggest(OTHER_STYLES)
    })
}

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
fn tables_for(format: Format) -> &'static [&'static str] {
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

/// Writes records in a format: the export's own `first` is the position of the first of
/// them in the export, for what depends on it (a CSV header, CSL JSON's brackets and
/// commas, a bibliography's numbers and year letters).
pub fn write_records(
    export: &Export,
    records: &[Record],
    first: u64,
    last_page: bool,
    out: &mut String,
) {
    let suffix_at = |n: u64| match &export.items {
        Items::Records { suffixes, .. } => suffixes
            .iter()
            .find(|(at, _)| *at == n)
            .map(|(_, s)| s.clone()),
        Items::Rows { .. } => None,
    };
    let names_at = |n: u64| match &export.items {
        Items::Records { names, .. } => names.iter().find(|(at, _)| *at == n).map(|(_, k)| *k),
        Items::Rows { .. } => None,
    };
    match export.format {
        Format::Ris => records.iter().for_each(|r| ris::record(r, out)),
        Format::Bibtex => records.iter().for_each(|r| bibtex::record(r, out)),
        Format::Medline => records.iter().for_each(|r| medline::record(r, out)),
        Format::Csv if export.metrics => out.push_str(&metrics::records_csv(records, first == 0)),
        Format::Csv => out.push_str(&table::records_csv(records, first == 0)),
        Format::Jsonl => out.push_str(&table::records_jsonl(records)),
        Format::CslJson => {
            if first == 0 {
                out.push('[');
            }
            csl::write(records, first as usize, out);
            if last_page {
                out.push_str("\n]\n");
            }
        }
        Format::Text | Format::Markdown => {
            let style = export.style.unwrap_or(Style::Vancouver);
            let markup = if export.format == Format::Text {
                Markup::Text
            } else {
                Markup::Markdown
            };
            for (k, r) in records.iter().enumerate() {
                let n = first + k as u64;
                let place = Place {
                    number: n as usize + 1,
                    suffix: suffix_at(n),
                    names: names_at(n),
                };
                out.push_str(&style::write(style, r, &place, markup));
                out.push_str(if markup == Markup::Markdown {
                    "\n\n"
                } else {
                    "\n"
                });
            }
        }
    }
}

/// Records read from JSON Lines (as the jsonl format writes them), each keyed by its PMID,
/// else its PMCID; a line that is not a record is named in the error.
pub fn records_from_jsonl(text: &str) -> Result<Vec<Record>> {
    let mut out = Vec::new();
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let mut r: Record = crate::json::from_str(line).map_err(|e| {
            Error::new(
                ErrorKind::InvalidArguments,
                format!("line {} is not a record: {e}", n + 1),
            )
        })?;
        r.key = match (r.pmid, &r.pmcid) {
            (Some(p), _) => p.to_string(),
            (None, Some(c)) => c.clone(),
            (None, None) => format!("line{}", n + 1),
        };
        out.push(r);
    }
    Ok(out)
}

/// `records` whole in one format (a bibliography in its style's order), as one file.
pub fn write_all(format: Format, style: Style, records: Vec<Record>) -> String {
    let (records, suffixes, names) = if format.bibliography() {
        let arranged = style::arrange(style, &records);
        let mut suffixes = Vec::new();
        let mut names = Vec::new();
        let ordered: Vec<Record> = arranged
            .into_iter()
            .enumerate()
            .map(|(n, (i, place))| {
                if let Some(s) = place.suffix {
                    suffixes.push((n as u64, s));
                }
                if let Some(k) = place.names {
                    names.push((n as u64, k));
                }
                records[i].clone()
            })
            .collect();
        (ordered, suffixes, names)
    } else {
        (records, Vec::new(), Vec::new())
    };
    let export = Export {
        id: String::new(),
        dataset: String::new(),
        format,
        style: format.bibliography().then_some(style),
        items: Items::Records {
            keys: records.iter().map(|r| r.key.clone()).collect(),
            suffixes,
            names,
        },
        per_page: records.len().max(1) as u64,
        created_ms: 0,
        dataset_status: String::new(),
        dataset_records: records.len() as u64,
        bytes: None,
        metrics: false,
    };
    let mut out = String::new();
    write_records(&export, &records, 0, true, &mut out);
    out
}

/// Page `page` (1-based) of an export, written from the dataset's rows.
pub async fn page(
    store: &dyn DatasetStore,
    export: &Export,
    layout: &'static Layout,
    page: u64,
    time_limit_ms: u64,
) -> Result<String> {
    let pages = export.pages();
    if page == 0 || page > pages {
        return Err(Error::new(
            ErrorKind::ResourceNotFound,
            format!("This export has {pages} page(s); there is no page {page}."),
        ));
    }
    let first = (page - 1) * export.per_page;
    let last_page = page == pages;
    let mut out = String::new();
    match &export.items {
        Items::Records { keys, .. } => {
            let Some(assembler) = Assembler::for_layout(layout) else {
                return Err(Error::internal(
                    "a record export of a dataset without citations",
                ));
            };
            let end = (first + export.per_page).min(keys.len() as u64);
            let slice = &keys[first as usize..end as usize];
            let records = read::records(
                store,
                &export.dataset,
                &assembler,
                slice,
                tables_for(export.format),
                time_limit_ms,
            )
            .await?;
            write_records(export, &records, first, last_page, &mut out);
        }
        Items::Rows { sql, rows } => {
            let end = (first + export.per_page).min(*rows);
            let (columns, rows) =
                rows_between(store, &export.dataset, sql, first, end, time_limit_ms).await?;
            match export.format {
                Format::Csv => out.push_str(&table::rows_csv(&columns, &rows, first == 0)),
                _ => out.push_str(&table::rows_jsonl(&columns, &rows)),
            }
        }
    }
    Ok(out)
}

/// Rows `first..end` of a statement, read in as many queries as their bytes need.
async fn rows_between(
    store: &dyn DatasetStore,
    dataset: &str,
    sql: &str,
    first: u64,
    end: u64,
    time_limit_ms: u64,
) -> Result<(Vec<String>, Vec<Vec<crate::staging::rows::SqlValue>>)> {
    let mut rows = Vec::new();
    let mut at = first;
    loop {
        let wanted = end.saturating_sub(at);
        let mut policy = read::policy(time_limit_ms);
        policy.limit = wanted.max(1) as usize;
        let r = store
            .query(
                dataset,
                &format!(
                    "SELECT * FROM (\n{sql}\n) LIMIT {} OFFSET {at}",
                    wanted.max(1)
                ),
                policy,
            )
            .await?;
        let columns = r.columns;
        let got = r.rows.len() as u64;
        rows.extend(r.rows);
        at += got;
        if at >= end || got == 0 {
            if got == 0 && at < end && r.bytes_capped {
                return Err(Error::new(
                    ErrorKind::LimitExceeded,
                    format!(
                        "Row {} alone is larger than one read returns ({MAX_RESULT_BYTES} bytes).",
                        at + 1
                    ),
                )
                .with_code("export_too_large"));
            }
            return Ok((columns, rows));
        }
    }
}

#[cfg(test)]
mod tests;
