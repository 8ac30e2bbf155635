//! Writing an export: records in a format (a page's worth, or a whole file at once), and one
//! page of a kept [`Export`] from its dataset's rows, read through the read-only queries.

use crate::error::{Error, ErrorKind, Result};
use crate::export::record::{Assembler, Record};
use crate::export::style::{self, Markup, Place, Style};
use crate::export::{bibtex, csl, medline, read, ris, table, tables_for, Export, Format, Items};
use crate::staging::guard::MAX_RESULT_BYTES;
use crate::staging::schema::Layout;
use crate::staging::store::DatasetStore;

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
        Format::Csv if export.metrics => {
            out.push_str(&crate::export::metrics::records_csv(records, first == 0))
        }
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
        metrics: false,
        dataset_records: records.len() as u64,
        bytes: None,
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
