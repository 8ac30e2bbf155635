//! GenBank and GenPept flat files: efetch with `rettype=gb|gp&retmode=text`.
//!
//! The flat file is a column format. A keyword in the first twelve columns
//! starts a field (`DEFINITION`), an indented one starts a sub-field of the
//! last block (`  AUTHORS` under `REFERENCE`), and a line whose first twelve
//! columns are blank continues the field above. The feature table and the
//! ORIGIN block have layouts of their own, so the parser walks the lines once
//! with a small state machine: header fields are gathered as borrowed line
//! slices and interpreted when the next field begins, features are built
//! qualifier by qualifier, and residues go straight into one string.

use crate::error::{ParseError, ParseErrorKind};
use crate::sequence::{not_text, push_residues, Feature, Reference, SequenceRecord};
use crate::xml::unexpected;

const WHAT: &str = "a GenBank/GenPept flat file";

/// Column at which field values and feature qualifiers start.
const VALUE_COLUMN: usize = 12;
const QUALIFIER_COLUMN: usize = 21;

/// Parses one or more flat-file records, each ending with `//`.
///
/// Values are normalised towards GBSeq, NCBI's XML form of the same record: the definition
/// and lineage lose their closing period, continuation lines of a qualifier are joined with
/// a space (with none inside `/translation`), and protein records get the moltype `AA`. A
/// body whose last record has no closing `//` was cut off in transit and is refused rather
/// than returned with a silently short sequence.
pub fn parse_flatfile(text: &str) -> Result<Vec<SequenceRecord>, ParseError> {
    let body = text.trim_start_matches('\u{feff}');
    let first = body.lines().find(|l| !l.trim().is_empty());
    if !first.is_some_and(|l| l.starts_with("LOCUS")) {
        return Err(not_text(text, WHAT));
    }
    let mut out = Vec::new();
    let mut current: Option<Builder<'_>> = None;
    for line in body.lines() {
        if line.starts_with("//") {
            out.extend(current.take().map(Builder::finish));
        } else if line.starts_with("LOCUS") {
            // A record with no `//` before the next LOCUS is still complete up to here.
            out.extend(current.take().map(Builder::finish));
            current = Some(Builder::new(line));
        } else if let Some(builder) = current.as_mut() {
            builder.line(line);
        }
    }
    if let Some(builder) = current {
        let name = builder.record.locus.clone().unwrap_or_default();
        return Err(unexpected(
            WHAT,
            format!("record {name} has no closing // line: the reply was cut off in transit"),
        )
        .of_kind(ParseErrorKind::Truncated));
    }
    Ok(out)
}

/// Which layout the next indented line follows.
#[derive(Clone, Copy, PartialEq)]
enum Section {
    Header,
    Features,
    Origin,
}

/// One record under construction.
struct Builder<'t> {
    record: SequenceRecord,
    section: Section,
    /// Keyword of the field being gathered (`""` when it is ignored).
    key: &'t str,
    /// Value lines of that field, from column 12, trimmed.
    lines: Vec<&'t str>,
    feature: Option<FeatureBuilder>,
    sequence: Option<String>,
}

impl<'t> Builder<'t> {
    /// Starts a record from its LOCUS line.
    fn new(line: &str) -> Builder<'t> {
        let mut record = SequenceRecord::default();
        read_locus(line, &mut record);
        Builder {
            record,
            section: Section::Header,
            key: "",
            lines: Vec::new(),
            feature: None,
            sequence: None,
        }
    }

    /// Takes one line of the record (not LOCUS, not `//`).
    fn line(&mut self, line: &'t str) {
        let indented = line.starts_with(' ') || line.is_empty();
        match self.section {
            Section::Features if indented => return self.feature_line(line),
            Section::Origin if indented => {
                if let Some(seq) = self.sequence.as_mut() {
                    push_residues(line, seq);
                }
                return;
            }
            _ => {}
        }
        if line.trim().is_empty() {
            return;
        }
        let (key, value) = split_keyword(line);
        if key.is_empty() {
            self.lines.push(value);
            return;
        }
        self.flush_field();
        if !indented {
            self.flush_feature();
            self.section = match key {
                "FEATURES" => Section::Features,
                "ORIGIN" => {
                    // The LOCUS length is only a hint from the body; a capped
                    // reservation keeps a lying header from claiming gigabytes.
                    let capacity = usize::try_from(self.record.length).unwrap_or(0);
                    self.sequence = Some(String::with_capacity(capacity.min(1 << 26)));
                    Section::Origin
                }
                _ => Section::Header,
            };
        }
        self.key = key;
        self.lines.push(value);
    }

    /// Interprets the gathered field and clears it.
    fn flush_field(&mut self) {
        let r = &mut self.record;
        let lines = &self.lines;
        match self.key {
            "DEFINITION" => r.definition = non_empty(strip_period(&join(lines))),
            "ACCESSION" => r.accession = first_token(lines),
            "VERSION" => r.accession_version = first_token(lines),
            "DBLINK" => r.dblinks.extend(
                lines
                    .iter()
                    .filter(|l| !l.is_empty())
                    .map(|l| l.to_string()),
            ),
            "KEYWORDS" => {
                let all = join(lines);
                r.keywords.extend(
                    strip_period(&all)
                        .split(';')
                        .map(str::trim)
                        .filter(|k| !k.is_empty())
                        .map(str::to_string),
                );
            }
            "ORGANISM" => read_organism(lines, r),
            "REFERENCE" => r.references.push(Reference::default()),
            "AUTHORS" | "CONSRTM" | "TITLE" | "JOURNAL" | "PUBMED" => {
                if r.references.is_empty() {
                    r.references.push(Reference::default());
                }
                let value = non_empty(join(lines));
                if let Some(reference) = r.references.last_mut() {
                    match self.key {
                        "AUTHORS" => reference.authors = split_authors(value.as_deref()),
                        "CONSRTM" => reference.consortium = value,
                        "TITLE" => reference.title = value,
                        "JOURNAL" => reference.journal = value,
                        _ => reference.pubmed = value,
                    }
                }
            }
            _ => {}
        }
        self.key = "";
        self.lines.clear();
    }

    /// Takes one indented line of the feature table.
    fn feature_line(&mut self, line: &str) {
        let content = line.trim();
        if content.is_empty() {
            return;
        }
        let indent = line.len() - line.trim_start().len();
        if indent < QUALIFIER_COLUMN {
            self.flush_feature();
            let (key, location) = match content.split_once(char::is_whitespace) {
                Some((key, location)) => (key, location.trim()),
                None => (content, ""),
            };
            self.feature = Some(FeatureBuilder::new(key, location));
        } else if let Some(feature) = self.feature.as_mut() {
            feature.line(content);
        }
    }

    /// Moves the feature under construction into the record.
    fn flush_feature(&mut self) {
        if let Some(feature) = self.feature.take() {
            self.record.features.push(feature.finish());
        }
    }

    /// Completes the record at its `//`.
    fn finish(mut self) -> SequenceRecord {
        self.flush_field();
        self.flush_feature();
        let mut r = self.record;
        if r.accession.is_empty() {
            r.accession = r.locus.clone().unwrap_or_default();
        }
        if r.accession_version.is_empty() {
            r.accession_version = r.accession.clone();
        }
        r.split_accession_version();
        r.taxid_from_source();
        r.sequence = self.sequence.filter(|s| !s.is_empty());
        if r.length == 0 {
            r.length = r.sequence.as_ref().map_or(0, |s| s.len() as u64);
        }
        r
    }
}

/// One feature under construction, with its last qualifier still open.
struct FeatureBuilder {
    feature: Feature,
    /// The qualifier being read: name, raw value (quotes kept) and its count of `"`.
    open: Option<(String, String, usize)>,
}

impl FeatureBuilder {
    fn new(key: &str, location: &str) -> FeatureBuilder {
        FeatureBuilder {
            feature: Feature {
                key: key.to_string(),
                location: location.to_string(),
                qualifiers: Vec::new(),
            },
            open: None,
        }
    }

    /// Takes the trimmed content of a line at the qualifier column.
    fn line(&mut self, content: &str) {
        // Inside an unclosed quoted value a line is text, even one starting with '/'.
        if let Some((name, raw, quotes)) = self.open.as_mut() {
            if raw.starts_with('"') && *quotes % 2 == 1 {
                append(name, raw, content);
                *quotes += count_quotes(content);
                return;
            }
        }
        if let Some(qualifier) = content.strip_prefix('/') {
            self.close();
            let (name, raw) = qualifier.split_once('=').unwrap_or((qualifier, ""));
            self.open = Some((name.to_string(), raw.to_string(), count_quotes(raw)));
        } else if let Some((name, raw, quotes)) = self.open.as_mut() {
            append(name, raw, content);
            *quotes += count_quotes(content);
        } else {
            // Before the first qualifier, a long location wraps onto more lines.
            self.feature.location.push_str(content);
        }
    }

    /// Unquotes the open qualifier and stores it.
    fn close(&mut self) {
        let Some((name, raw, _)) = self.open.take() else {
            return;
        };
        let value = match raw.strip_prefix('"') {
            Some(inner) => {
                let inner = inner.strip_suffix('"').unwrap_or(inner);
                if inner.contains("\"\"") {
                    inner.replace("\"\"", "\"")
                } else {
                    inner.to_string()
                }
            }
            None => raw,
        };
        self.feature.qualifiers.push((name, value));
    }

    fn finish(mut self) -> Feature {
        self.close();
        self.feature
    }
}

/// Appends a continuation line to a qualifier value.
fn append(name: &str, raw: &mut String, content: &str) {
    // Translations are wrapped mid-sequence; every other value wraps at a space.
    if name != "translation" && !raw.is_empty() {
        raw.push(' ');
    }
    raw.push_str(content);
}

fn count_quotes(s: &str) -> usize {
    s.bytes().filter(|&b| b == b'"').count()
}

/// Reads the LOCUS line: name, length, unit, then moltype, topology, division and date.
fn read_locus(line: &str, r: &mut SequenceRecord) {
    let mut tokens = line["LOCUS".len()..].split_whitespace();
    r.locus = tokens.next().map(str::to_string);
    let mut rest: Vec<&str> = tokens.collect();
    // Very long names can run into the length in old files; then only the sequence tells it.
    if let Some(length) = rest.first().and_then(|t| t.parse().ok()) {
        r.length = length;
        rest.remove(0);
    }
    let protein = rest.first().is_some_and(|u| *u == "aa");
    if rest
        .first()
        .is_some_and(|u| matches!(*u, "bp" | "aa" | "rc"))
    {
        rest.remove(0);
    }
    if rest.last().is_some_and(|t| is_date(t)) {
        r.update_date = rest.pop().map(str::to_string);
    }
    if rest.last().is_some_and(|t| is_division(t)) {
        r.division = rest.pop().map(str::to_string);
    }
    for token in rest {
        match token {
            "linear" | "circular" => r.topology = Some(token.to_string()),
            _ if r.moltype.is_none() => r.moltype = Some(token.to_string()),
            _ => {}
        }
    }
    if protein && r.moltype.is_none() {
        r.moltype = Some("AA".to_string());
    }
}

/// `21-JUL-2008`.
fn is_date(t: &str) -> bool {
    let b = t.as_bytes();
    b.len() == 11
        && b[2] == b'-'
        && b[6] == b'-'
        && b[..2].iter().all(u8::is_ascii_digit)
        && b[3..6].iter().all(u8::is_ascii_uppercase)
        && b[7..].iter().all(u8::is_ascii_digit)
}

/// Three capitals that are not a molecule type: `BCT`, `PRI`, `CON`...
fn is_division(t: &str) -> bool {
    t.len() == 3 && t.bytes().all(|b| b.is_ascii_uppercase()) && t != "DNA" && t != "RNA"
}

/// ORGANISM's first line names the organism; the lineage follows, ending in a period.
fn read_organism(lines: &[&str], r: &mut SequenceRecord) {
    let mut organism = String::new();
    let mut lineage = String::new();
    for (i, line) in lines.iter().enumerate() {
        // A wrapped organism name has no ';' and no final period; a lineage line has one or both.
        let is_lineage =
            !lineage.is_empty() || (i > 0 && (line.contains(';') || line.ends_with('.')));
        let target = if i == 0 || !is_lineage {
            &mut organism
        } else {
            &mut lineage
        };
        if !target.is_empty() {
            target.push(' ');
        }
        target.push_str(line);
    }
    r.organism = non_empty(organism);
    r.lineage = non_empty(strip_period(&lineage));
}

/// `Zhou,D., Tong,Z. and Yang,R.` into its three names.
fn split_authors(value: Option<&str>) -> Vec<String> {
    let Some(value) = value else {
        return Vec::new();
    };
    let mut authors: Vec<String> = value.split(", ").map(str::to_string).collect();
    if let Some(last) = authors.pop() {
        match last.rsplit_once(" and ") {
            Some((a, b)) => {
                authors.push(a.to_string());
                authors.push(b.to_string());
            }
            None => authors.push(last),
        }
    }
    authors.retain(|a| !a.is_empty());
    authors
}

/// Splits a line at column 12 into a trimmed keyword (maybe empty) and value.
fn split_keyword(line: &str) -> (&str, &str) {
    let mut cut = line.len().min(VALUE_COLUMN);
    while !line.is_char_boundary(cut) {
        cut -= 1;
    }
    (line[..cut].trim(), line[cut..].trim())
}

/// Joins value lines with single spaces.
fn join(lines: &[&str]) -> String {
    let mut out = String::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
    for line in lines.iter().filter(|l| !l.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(line);
    }
    out
}

fn first_token(lines: &[&str]) -> String {
    lines
        .iter()
        .flat_map(|l| l.split_whitespace())
        .next()
        .unwrap_or_default()
        .to_string()
}

fn strip_period(s: &str) -> String {
    s.strip_suffix('.').unwrap_or(s).trim_end().to_string()
}

fn non_empty(s: String) -> Option<String> {
    (!s.is_empty()).then_some(s)
}
