//! GBSeq XML: efetch from nuccore or protein with `rettype=gb|gp&retmode=xml`.
//!
//! GBSeq is NCBI's element-per-field rendering of the GenBank flat file, so
//! this parser is a field map onto [`SequenceRecord`] and nothing more. It
//! streams: a multi-megabase `GBSeq_sequence` is read once into its string,
//! and elements this server does not surface (other seq-ids, comment,
//! intervals) are skipped without being built.

use crate::error::ParseError;
use crate::sequence::{Feature, Reference, SequenceRecord};
use crate::walk::{each_child, each_named, number, open_root, text_opt};
use crate::xml::Xml;

const WHAT: &str = "GBSeq XML";

/// Parses a GBSeq XML body (`<GBSet>`) into sequence records.
pub fn parse_gbseq(bytes: &[u8]) -> Result<Vec<SequenceRecord>, ParseError> {
    let mut x = Xml::new(bytes, WHAT)?;
    let root = open_root(&mut x, &["GBSet", "GBSeq"], WHAT)?;
    if root.local_name().as_ref() == "GBSeq" {
        return Ok(vec![read_gbseq(&mut x)?]);
    }
    let mut out = Vec::new();
    each_named(&mut x, "GBSeq", |x, _| {
        out.push(read_gbseq(x)?);
        Ok(())
    })?;
    Ok(out)
}

/// Reads one `<GBSeq>` after its start tag.
fn read_gbseq(x: &mut Xml<'_>) -> Result<SequenceRecord, ParseError> {
    let mut r = SequenceRecord::default();
    let mut sequence = None;
    each_child(x, |x, name, _| {
        match name {
            "GBSeq_locus" => r.locus = text_opt(x)?,
            "GBSeq_length" => r.length = number(x)?.unwrap_or(0),
            "GBSeq_moltype" => r.moltype = text_opt(x)?,
            "GBSeq_topology" => r.topology = text_opt(x)?,
            "GBSeq_division" => r.division = text_opt(x)?,
            "GBSeq_update-date" => r.update_date = text_opt(x)?,
            "GBSeq_create-date" => r.create_date = text_opt(x)?,
            "GBSeq_definition" => r.definition = text_opt(x)?,
            "GBSeq_primary-accession" => r.accession = x.text()?,
            "GBSeq_accession-version" => r.accession_version = x.text()?,
            "GBSeq_organism" => r.organism = text_opt(x)?,
            "GBSeq_taxonomy" => r.lineage = text_opt(x)?,
            "GBSeq_sequence" => sequence = text_opt(x)?,
            "GBSeq_keywords" => each_named(x, "GBKeyword", |x, _| {
                r.keywords.extend(text_opt(x)?);
                Ok(())
            })?,
            "GBSeq_xrefs" => each_named(x, "GBXref", |x, _| {
                let (db, id) = read_xref(x)?;
                r.dblinks.push(format!("{db}: {id}"));
                Ok(())
            })?,
            "GBSeq_references" => each_named(x, "GBReference", |x, _| {
                r.references.push(read_reference(x)?);
                Ok(())
            })?,
            "GBSeq_feature-table" => each_named(x, "GBFeature", |x, _| {
                r.features.push(read_feature(x)?);
                Ok(())
            })?,
            _ => {}
        }
        Ok(())
    })?;
    if r.accession_version.is_empty() {
        r.accession_version = r.accession.clone();
    }
    if r.accession.is_empty() && r.accession_version.is_empty() {
        r.accession = r.locus.clone().unwrap_or_default();
        r.accession_version = r.accession.clone();
    }
    r.split_accession_version();
    r.taxid_from_source();
    if let Some(seq) = &sequence {
        if r.length == 0 {
            r.length = seq.len() as u64;
        }
    }
    r.sequence = sequence;
    Ok(r)
}

/// Reads a `<GBReference>`.
fn read_reference(x: &mut Xml<'_>) -> Result<Reference, ParseError> {
    let mut reference = Reference::default();
    each_child(x, |x, name, _| {
        match name {
            "GBReference_authors" => each_named(x, "GBAuthor", |x, _| {
                reference.authors.extend(text_opt(x)?);
                Ok(())
            })?,
            "GBReference_consortium" => reference.consortium = text_opt(x)?,
            "GBReference_title" => reference.title = text_opt(x)?,
            "GBReference_journal" => reference.journal = text_opt(x)?,
            "GBReference_pubmed" => reference.pubmed = text_opt(x)?,
            "GBReference_xref" => each_named(x, "GBXref", |x, _| {
                let (db, id) = read_xref(x)?;
                if db.eq_ignore_ascii_case("doi") && reference.doi.is_none() {
                    reference.doi = Some(id);
                }
                Ok(())
            })?,
            _ => {}
        }
        Ok(())
    })?;
    Ok(reference)
}

/// Reads a `<GBXref>` into `(database, id)`.
fn read_xref(x: &mut Xml<'_>) -> Result<(String, String), ParseError> {
    let (mut db, mut id) = (String::new(), String::new());
    each_child(x, |x, name, _| {
        match name {
            "GBXref_dbname" => db = x.text()?,
            "GBXref_id" => id = x.text()?,
            _ => {}
        }
        Ok(())
    })?;
    Ok((db, id))
}

/// Reads a `<GBFeature>`; intervals are skipped because the location string says the same.
fn read_feature(x: &mut Xml<'_>) -> Result<Feature, ParseError> {
    let mut feature = Feature::default();
    each_child(x, |x, name, _| {
        match name {
            "GBFeature_key" => feature.key = x.text()?,
            "GBFeature_location" => feature.location = x.text()?,
            "GBFeature_quals" => each_child(x, |x, name, _| match name {
                "GBQualifier" => {
                    let (mut qname, mut value) = (String::new(), String::new());
                    each_child(x, |x, name, _| {
                        match name {
                            "GBQualifier_name" => qname = x.text()?,
                            "GBQualifier_value" => value = x.text()?,
                            _ => {}
                        }
                        Ok(())
                    })?;
                    feature.qualifiers.push((qname, value));
                    Ok(())
                }
                _ => Ok(()),
            })?,
            _ => {}
        }
        Ok(())
    })?;
    Ok(feature)
}
