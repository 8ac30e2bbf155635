//! The one record shape for sequences, whichever format NCBI sent.
//!
//! GBSeq XML, the GenBank/GenPept flat file, TinySeq XML and FASTA describe
//! the same thing at different levels of detail, so all four parsers produce a
//! [`SequenceRecord`]. A caller reads one shape and finds `None` or an empty
//! list where a thinner format had nothing to say, instead of learning four
//! vocabularies. The fields follow GBSeq, NCBI's own structured form of the
//! flat file, so the flat-file parser normalises towards it. This file also
//! holds what the text parsers share: residue filtering and the error that
//! says what came back when a body is not the text expected.

use crate::error::{ParseError, ParseErrorKind};
use crate::walk::open_root;
use crate::xml::{unexpected, Xml};
use serde::Serialize;

/// One sequence record: nucleotide or protein, from any of the sequence formats.
///
/// Dates stay as NCBI writes them (`21-JUL-2008`): the core has no calendar and gains
/// nothing by reformatting them.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct SequenceRecord {
    /// Primary accession without version, e.g. `NC_005816`.
    pub accession: String,
    /// Sequence version, the `1` of `NC_005816.1`; `None` when the id has none (PDB chains).
    pub version: Option<u32>,
    /// Accession with version as NCBI prints it, e.g. `NC_005816.1`.
    pub accession_version: String,
    /// LOCUS name; absent from FASTA and TinySeq.
    pub locus: Option<String>,
    /// Length in bases or residues.
    pub length: u64,
    /// Molecule type: `DNA`, `mRNA`, `AA`...; TinySeq says `nucleotide` or `protein`.
    pub moltype: Option<String>,
    /// `linear` or `circular`.
    pub topology: Option<String>,
    /// GenBank division, e.g. `BCT`.
    pub division: Option<String>,
    /// Source organism's scientific name.
    pub organism: Option<String>,
    /// NCBI Taxonomy id, from the source feature's `db_xref="taxon:NNN"` (or TinySeq's taxid).
    pub taxid: Option<u64>,
    /// Lineage as `;`-separated names, without a trailing period.
    pub lineage: Option<String>,
    /// Definition line, without a trailing period.
    pub definition: Option<String>,
    /// Creation date (GBSeq only; the flat file carries just one date).
    pub create_date: Option<String>,
    /// Last modification date (the LOCUS line's date in a flat file).
    pub update_date: Option<String>,
    /// KEYWORDS, empty when the record has only `.`.
    pub keywords: Vec<String>,
    /// DBLINK cross-references as `Database: id` lines, e.g. `BioProject: PRJNA224116`.
    pub dblinks: Vec<String>,
    /// Literature references, in record order.
    pub references: Vec<Reference>,
    /// Feature table, in record order.
    pub features: Vec<Feature>,
    /// Residues as given (case kept), without whitespace or numbering; `None` when not sent.
    pub sequence: Option<String>,
}

/// One REFERENCE block of a sequence record.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Reference {
    /// Authors as written, e.g. `Zhou,D.`.
    pub authors: Vec<String>,
    /// Consortium (CONSRTM), when the reference has one.
    pub consortium: Option<String>,
    /// Title; absent for unpublished references.
    pub title: Option<String>,
    /// Journal citation or submission note.
    pub journal: Option<String>,
    /// PubMed id.
    pub pubmed: Option<String>,
    /// DOI (GBSeq only).
    pub doi: Option<String>,
}

/// One entry of the feature table.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Feature {
    /// Feature key, e.g. `CDS` or `source`.
    pub key: String,
    /// Location in INSDC syntax, e.g. `complement(4815..5888)`.
    pub location: String,
    /// Qualifiers as `(name, value)`, in order; repeated names stay repeated, valueless ones have `""`.
    pub qualifiers: Vec<(String, String)>,
}

impl Feature {
    /// The first value of qualifier `name`.
    pub fn qualifier(&self, name: &str) -> Option<&str> {
        self.qualifiers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

impl SequenceRecord {
    /// Sets `accession` and `version` from `accession_version`, keeping an accession already set.
    pub(crate) fn split_accession_version(&mut self) {
        let (accession, version) = match self.accession_version.rsplit_once('.') {
            Some((acc, v)) if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) => {
                (acc, v.parse().ok())
            }
            _ => (self.accession_version.as_str(), None),
        };
        // A flat file's VERSION can disagree with ACCESSION only in the version part.
        if self.accession.is_empty() {
            self.accession = accession.to_string();
        }
        if accession == self.accession {
            self.version = version;
        }
    }

    /// Fills `taxid` from the source feature when the format has no field of its own.
    pub(crate) fn taxid_from_source(&mut self) {
        if self.taxid.is_some() {
            return;
        }
        self.taxid = self
            .features
            .iter()
            .filter(|f| f.key == "source")
            .flat_map(|f| f.qualifiers.iter())
            .filter(|(n, _)| n == "db_xref")
            .find_map(|(_, v)| v.strip_prefix("taxon:")?.trim().parse().ok());
    }
}

/// Appends the residues of one sequence line, dropping numbering and spaces.
pub(crate) fn push_residues(line: &str, out: &mut String) {
    // Stops (`*`) and gaps (`-`) are residues too; digits are only coordinates.
    let residue = |b: u8| b.is_ascii_alphabetic() || b == b'*' || b == b'-';
    let line = line.trim_end();
    // FASTA lines are residues only, so copy them whole; GenBank lines need filtering.
    if line.bytes().all(residue) {
        out.push_str(line);
    } else {
        out.extend(line.bytes().filter(|&b| residue(b)).map(char::from));
    }
}

/// The error for a text body that is not `what`, naming what it is instead.
pub(crate) fn not_text(text: &str, what: &str) -> ParseError {
    let body = text.trim_start_matches('\u{feff}').trim_start();
    if body.is_empty() {
        return unexpected(what, "the body was empty").of_kind(ParseErrorKind::Empty);
    }
    let head = prefix(body, 2048);
    let lower = head.to_ascii_lowercase();
    if lower.starts_with("<!doctype html") || lower.starts_with("<html") {
        let title = lower
            .find("<title>")
            .and_then(|i| {
                let rest = &head[i + 7..];
                rest.find('<').map(|j| rest[..j].trim())
            })
            .filter(|t| !t.is_empty())
            .map(|t| format!(" titled \"{t}\""))
            .unwrap_or_default();
        return unexpected(
            what,
            format!("NCBI sent an HTML page{title} where {what} was expected"),
        )
        .of_kind(ParseErrorKind::HtmlForText);
    }
    if body.starts_with('<') {
        // Opening the root also turns an <eFetchResult><ERROR> reply into NCBI's own message.
        let root = Xml::new(body.as_bytes(), "XML")
            .and_then(|mut x| open_root(&mut x, &[], what))
            .map(|start| start.local_name().as_ref().to_string());
        return match root {
            Ok(name) => unexpected(
                what,
                format!("the body is XML with root element <{name}>, not {what}; ask for retmode=text or use the XML parser"),
            ),
            Err(e) if matches!(e.kind, ParseErrorKind::Reported(_)) => e,
            Err(_) => unexpected(what, format!("the body looks like XML or HTML, not {what}")),
        };
    }
    let first = body.lines().next().unwrap_or_default();
    let kind = if first.starts_with('>') {
        "FASTA text".to_string()
    } else if first.starts_with("LOCUS") {
        "a GenBank/GenPept flat file".to_string()
    } else {
        format!("text starting with {:?}", prefix(first, 80))
    };
    unexpected(what, format!("the body is {kind}, not {what}"))
}

/// At most `max` bytes of `s`, cut at a character boundary.
fn prefix(s: &str, max: usize) -> &str {
    let mut cut = s.len().min(max);
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    &s[..cut]
}
