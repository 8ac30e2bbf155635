//! The export formats by name (RIS, BibTeX, CSL JSON, MEDLINE, CSV, JSON Lines, and the
//! bibliography's text and Markdown), their MIME types and extensions, and the bibliography
//! styles by name with what an unknown one is told.

use crate::error::{Error, ErrorKind, Result};
use crate::export::style::{self, Style};
use crate::json;
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
