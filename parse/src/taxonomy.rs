//! Taxonomy XML: efetch with `db=taxonomy`.
//!
//! A `<Taxon>` holds its own fields and, inside `<LineageEx>`, one nested
//! `<Taxon>` per ancestor. The nesting is why this parser walks by element
//! rather than by name: a `<Taxon>` inside `<LineageEx>` is an ancestor entry,
//! never a second record. Synonyms are kept because users search by old names
//! (`Canis familiaris`); authority strings and dates are left out as noise.

use crate::error::ParseError;
use crate::walk::{each_child, each_named, number, open_root, text_opt};
use crate::xml::{unexpected, Xml};
use serde::Serialize;

const WHAT: &str = "Taxonomy XML";

/// One taxon from efetch db=taxonomy.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Taxon {
    /// NCBI Taxonomy id.
    pub taxid: u64,
    /// Scientific name, e.g. `Canis lupus familiaris`.
    pub scientific_name: String,
    /// GenBank common name (else the first common name), e.g. `dog`.
    pub common_name: Option<String>,
    /// Synonyms, e.g. `Canis familiaris`.
    pub synonyms: Vec<String>,
    /// Rank, e.g. `species` or `no rank`.
    pub rank: Option<String>,
    /// Parent's taxid.
    pub parent_taxid: Option<u64>,
    /// Ancestors' names from the root down, `; `-separated.
    pub lineage: String,
    /// Ancestors with ids and ranks, from the root down.
    pub lineage_ex: Vec<LineageEntry>,
    /// GenBank division, e.g. `Mammals`.
    pub division: Option<String>,
    /// Nuclear genetic code.
    pub genetic_code: Option<GeneticCode>,
    /// Mitochondrial genetic code.
    pub mito_genetic_code: Option<GeneticCode>,
}

/// One ancestor in a taxon's lineage.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct LineageEntry {
    /// The ancestor's taxid.
    pub taxid: u64,
    /// Its scientific name.
    pub name: String,
    /// Its rank.
    pub rank: Option<String>,
}

/// A genetic code by NCBI id and name, e.g. `1`, `Standard`.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct GeneticCode {
    /// Translation table id (`transl_table`).
    pub id: u32,
    /// Its name.
    pub name: String,
}

/// Parses a Taxonomy XML body (`<TaxaSet>`) into taxa.
pub fn parse_taxonomy(bytes: &[u8]) -> Result<Vec<Taxon>, ParseError> {
    let mut x = Xml::new(bytes, WHAT)?;
    open_root(&mut x, &["TaxaSet"], WHAT)?;
    let mut out = Vec::new();
    each_named(&mut x, "Taxon", |x, _| {
        out.push(read_taxon(x)?);
        Ok(())
    })?;
    Ok(out)
}

/// Reads a top-level `<Taxon>` after its start tag.
fn read_taxon(x: &mut Xml<'_>) -> Result<Taxon, ParseError> {
    let mut t = Taxon::default();
    let mut taxid = None;
    let mut first_common = None;
    each_child(x, |x, name, _| {
        match name {
            "TaxId" => taxid = number(x)?,
            "ScientificName" => t.scientific_name = x.text()?,
            "ParentTaxId" => t.parent_taxid = number(x)?,
            "Rank" => t.rank = text_opt(x)?,
            "Division" => t.division = text_opt(x)?,
            "Lineage" => t.lineage = x.text()?,
            "GeneticCode" => t.genetic_code = read_code(x, "GCId", "GCName")?,
            "MitoGeneticCode" => t.mito_genetic_code = read_code(x, "MGCId", "MGCName")?,
            "OtherNames" => each_child(x, |x, name, _| {
                match name {
                    "GenbankCommonName" => t.common_name = text_opt(x)?,
                    "CommonName" => {
                        let common = text_opt(x)?;
                        first_common = first_common.take().or(common);
                    }
                    "Synonym" => t.synonyms.extend(text_opt(x)?),
                    _ => {}
                }
                Ok(())
            })?,
            "LineageEx" => each_named(x, "Taxon", |x, _| {
                t.lineage_ex.extend(read_ancestor(x)?);
                Ok(())
            })?,
            _ => {}
        }
        Ok(())
    })?;
    t.taxid = taxid.ok_or_else(|| {
        unexpected(
            WHAT,
            format!("a <Taxon> ({}) has no numeric <TaxId>", t.scientific_name),
        )
    })?;
    if t.common_name.is_none() {
        t.common_name = first_common;
    }
    Ok(t)
}

/// Reads a `<LineageEx>` entry; one without a numeric id is dropped.
fn read_ancestor(x: &mut Xml<'_>) -> Result<Option<LineageEntry>, ParseError> {
    let mut entry = LineageEntry::default();
    let mut taxid = None;
    each_child(x, |x, name, _| {
        match name {
            "TaxId" => taxid = number(x)?,
            "ScientificName" => entry.name = x.text()?,
            "Rank" => entry.rank = text_opt(x)?,
            _ => {}
        }
        Ok(())
    })?;
    Ok(taxid.map(|taxid| LineageEntry { taxid, ..entry }))
}

/// Reads a genetic-code element whose id and name children are `id_tag` and `name_tag`.
fn read_code(
    x: &mut Xml<'_>,
    id_tag: &str,
    name_tag: &str,
) -> Result<Option<GeneticCode>, ParseError> {
    let mut id = None;
    let mut code_name = String::new();
    each_child(x, |x, name, _| {
        if name == id_tag {
            id = number(x)?;
        } else if name == name_tag {
            code_name = x.text()?;
        } else {
            x.skip()?;
        }
        Ok(())
    })?;
    Ok(id.map(|id| GeneticCode {
        id,
        name: code_name,
    }))
}
