//! FASTA text: efetch with `rettype=fasta&retmode=text`, nucleotide or protein.
//!
//! A FASTA record says only an id, a free-text description and residues, so the
//! [`SequenceRecord`] it yields has those and the length. The id is read in both of NCBI's
//! styles ([`accession_from_id`]). Protein deflines end in the organism in brackets
//! (`[Yersinia pestis]`); that becomes `organism`, and the definition keeps the whole
//! description, as GBSeq's does. Residues are gathered into one string per record, so a long
//! sequence costs no allocation per line.

use crate::error::ParseError;
use crate::sequence::{not_text, push_residues, SequenceRecord};

const WHAT: &str = "FASTA text";

/// Parses FASTA text, one record per `>` line.
pub fn parse_fasta(text: &str) -> Result<Vec<SequenceRecord>, ParseError> {
    let body = text.trim_start_matches('\u{feff}');
    let first = body.lines().find(|l| !l.trim().is_empty());
    if !first.is_some_and(|l| l.starts_with('>')) {
        return Err(not_text(text, WHAT));
    }
    let mut out = Vec::new();
    let mut current: Option<(SequenceRecord, String)> = None;
    for line in body.lines() {
        if let Some(defline) = line.strip_prefix('>') {
            out.extend(current.take().map(finish));
            current = Some((from_defline(defline.trim()), String::new()));
        } else if line.starts_with(';') {
            // Old-style FASTA comment lines carry no residues.
        } else if let Some((_, seq)) = current.as_mut() {
            push_residues(line, seq);
        }
    }
    out.extend(current.map(finish));
    Ok(out)
}

/// Attaches the gathered residues and their count.
fn finish((mut record, seq): (SequenceRecord, String)) -> SequenceRecord {
    record.length = seq.len() as u64;
    record.sequence = Some(seq);
    record
}

/// Builds a record from a defline (without its `>`).
fn from_defline(defline: &str) -> SequenceRecord {
    let (id, description) = match defline.split_once(char::is_whitespace) {
        Some((id, rest)) => (id, rest.trim()),
        None => (defline, ""),
    };
    let mut record = SequenceRecord {
        accession_version: accession_from_id(id),
        definition: (!description.is_empty()).then(|| description.to_string()),
        organism: bracketed_organism(description).map(str::to_string),
        ..SequenceRecord::default()
    };
    record.split_accession_version();
    record
}

/// The accession.version inside an NCBI FASTA id, in current or legacy `gi|` form.
///
/// NCBI's two styles: the current `>NC_005816.1 description` and the legacy
/// `>gi|45478711|ref|NC_005816.1| description`, where the accession is the field after the
/// database tag.
pub fn accession_from_id(id: &str) -> String {
    let parts: Vec<&str> = id.split('|').collect();
    let mut fields = &parts[..];
    if fields.len() > 2 && fields[0] == "gi" {
        fields = &fields[2..];
    }
    match fields {
        [single] => single.to_string(),
        // PDB ids name the chain in the next field: pdb|1MRR|A is 1MRR_A.
        ["pdb", mol, chain, ..] if !chain.is_empty() => format!("{mol}_{chain}"),
        [_, acc, ..] if !acc.is_empty() => acc.to_string(),
        // Some databases leave the accession empty and give a name: pir||JQ1541.
        [_, _, name, ..] if !name.is_empty() => name.to_string(),
        _ => id.to_string(),
    }
}

/// The trailing `[Organism name]` of a protein defline, if any.
fn bracketed_organism(description: &str) -> Option<&str> {
    let inner = description.strip_suffix(']')?;
    // Match brackets from the end so "[Escherichia coli [strain K-12]]" stays whole.
    let mut depth = 0usize;
    for (i, c) in inner.char_indices().rev() {
        match c {
            ']' => depth += 1,
            '[' if depth == 0 => {
                let name = inner[i + 1..].trim();
                return (!name.is_empty()).then_some(name);
            }
            '[' => depth -= 1,
            _ => {}
        }
    }
    None
}
