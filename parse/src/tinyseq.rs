//! TinySeq XML: efetch with `rettype=fasta&retmode=xml`.
//!
//! TinySeq is FASTA with named fields: id, taxid, organism, defline, length
//! and residues, and no features or references. It fills the matching part
//! of a [`SequenceRecord`]; `moltype` carries TinySeq's own `nucleotide` or
//! `protein` because that is all it says about the molecule.

use crate::error::ParseError;
use crate::sequence::SequenceRecord;
use crate::walk::{each_child, each_named, number, open_root, text_opt};
use crate::xml::{attr, Xml};

const WHAT: &str = "TinySeq XML";

/// Parses a TinySeq XML body (`<TSeqSet>`) into sequence records.
pub fn parse_tinyseq(bytes: &[u8]) -> Result<Vec<SequenceRecord>, ParseError> {
    let mut x = Xml::new(bytes, WHAT)?;
    let root = open_root(&mut x, &["TSeqSet", "TSeq"], WHAT)?;
    if root.local_name().as_ref() == "TSeq" {
        return Ok(vec![read_tseq(&mut x)?]);
    }
    let mut out = Vec::new();
    each_named(&mut x, "TSeq", |x, _| {
        out.push(read_tseq(x)?);
        Ok(())
    })?;
    Ok(out)
}

/// Reads one `<TSeq>` after its start tag.
fn read_tseq(x: &mut Xml<'_>) -> Result<SequenceRecord, ParseError> {
    let mut r = SequenceRecord::default();
    // Records without an accession (local or general ids) still have a sid or local id.
    let mut fallback_id = None;
    each_child(x, |x, name, start| {
        match name {
            "TSeq_seqtype" => {
                r.moltype = attr(start, "value");
                x.skip()?;
            }
            "TSeq_accver" => r.accession_version = x.text()?,
            "TSeq_sid" | "TSeq_local" => {
                let id = text_opt(x)?;
                fallback_id = fallback_id.take().or(id);
            }
            "TSeq_taxid" => r.taxid = number(x)?,
            "TSeq_orgname" => r.organism = text_opt(x)?,
            "TSeq_defline" => r.definition = text_opt(x)?,
            "TSeq_length" => r.length = number(x)?.unwrap_or(0),
            "TSeq_sequence" => r.sequence = text_opt(x)?,
            _ => {}
        }
        Ok(())
    })?;
    if r.accession_version.is_empty() {
        r.accession_version = fallback_id.unwrap_or_default();
    }
    r.split_accession_version();
    if r.length == 0 {
        r.length = r.sequence.as_ref().map_or(0, |s| s.len() as u64);
    }
    Ok(r)
}
