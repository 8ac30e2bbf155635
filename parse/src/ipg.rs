//! Identical Protein Groups: efetch with `db=protein&rettype=ipg`.
//!
//! An IPG report groups every protein record with the same sequence and lists,
//! for each, the coding regions on nucleotide records and the assemblies they
//! come from. Everything is in_background in attributes, so this parser reads
//! attributes only and skips text. Numbers that fail to parse become `None`
//! rather than failing the whole report: one odd coordinate should not hide
//! the rest of the group.

use crate::error::ParseError;
use crate::walk::{each_child, each_named, open_root};
use crate::xml::{attr, Xml};
use quick_xml::events::BytesStart;
use serde::Serialize;

const WHAT: &str = "IPG report XML";

/// One identical-protein group.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct IpgReport {
    /// IPG id.
    pub ipg: String,
    /// The protein accession the report was requested for.
    pub product_acc: Option<String>,
    /// The group's representative protein.
    pub product: Option<IpgProduct>,
    /// Every protein record in the group.
    pub proteins: Vec<IpgProtein>,
    /// Counts of proteins, nucleotide records and assemblies.
    pub statistics: Option<IpgStatistics>,
}

/// The representative protein of a group.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct IpgProduct {
    /// Accession.version.
    pub accver: String,
    /// Protein name.
    pub name: Option<String>,
    /// Organism taxid.
    pub taxid: Option<u64>,
    /// Organism name.
    pub org: Option<String>,
    /// Sequence length in residues.
    pub slen: Option<u64>,
    /// Kingdom, e.g. `Bacteria`.
    pub kingdom: Option<String>,
}

/// One protein record in a group.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct IpgProtein {
    /// Accession.version.
    pub accver: String,
    /// Source database, e.g. `RefSeq` or `INSDC`.
    pub source: Option<String>,
    /// Protein name.
    pub name: Option<String>,
    /// Organism taxid.
    pub taxid: Option<u64>,
    /// Organism name.
    pub org: Option<String>,
    /// Kingdom.
    pub kingdom: Option<String>,
    /// NCBI's ordering priority (lower first).
    pub priority: Option<u32>,
    /// Coding regions for this protein.
    pub cds: Vec<IpgCds>,
}

/// One coding region on a nucleotide record.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct IpgCds {
    /// Nucleotide accession.version.
    pub accver: String,
    /// First base (1-based).
    pub start: Option<u64>,
    /// Last base.
    pub stop: Option<u64>,
    /// `+` or `-`.
    pub strand: Option<String>,
    /// Organism taxid.
    pub taxid: Option<u64>,
    /// Organism name.
    pub org: Option<String>,
    /// Strain.
    pub strain: Option<String>,
    /// Assembly accession, e.g. `GCF_000963615.1`.
    pub assembly: Option<String>,
}

/// Counts in a group's `<Statistics>`.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct IpgStatistics {
    /// Protein records.
    pub prot_count: Option<u64>,
    /// Nucleotide records.
    pub nuc_count: Option<u64>,
    /// Assemblies.
    pub assmb_count: Option<u64>,
}

/// Parses an IPG report body (`<IPGReportSet>`) into groups.
pub fn parse_ipg(bytes: &[u8]) -> Result<Vec<IpgReport>, ParseError> {
    let mut x = Xml::new(bytes, WHAT)?;
    open_root(&mut x, &["IPGReportSet"], WHAT)?;
    let mut out = Vec::new();
    each_named(&mut x, "IPGReport", |x, start| {
        out.push(read_report(x, start)?);
        Ok(())
    })?;
    Ok(out)
}

fn read_report(x: &mut Xml<'_>, start: &BytesStart<'_>) -> Result<IpgReport, ParseError> {
    let mut report = IpgReport {
        ipg: attr(start, "ipg").unwrap_or_default(),
        product_acc: attr(start, "product_acc"),
        ..IpgReport::default()
    };
    each_child(x, |x, name, start| {
        match name {
            "Product" => {
                report.product = Some(IpgProduct {
                    accver: attr(start, "accver").unwrap_or_default(),
                    name: attr(start, "name"),
                    taxid: num(start, "taxid"),
                    org: attr(start, "org"),
                    slen: num(start, "slen"),
                    kingdom: attr(start, "kingdom"),
                });
                x.skip()?;
            }
            "ProteinList" => each_named(x, "Protein", |x, start| {
                report.proteins.push(read_protein(x, start)?);
                Ok(())
            })?,
            "Statistics" => {
                report.statistics = Some(IpgStatistics {
                    prot_count: num(start, "prot_count"),
                    nuc_count: num(start, "nuc_count"),
                    assmb_count: num(start, "assmb_count"),
                });
                x.skip()?;
            }
            _ => {}
        }
        Ok(())
    })?;
    Ok(report)
}

fn read_protein(x: &mut Xml<'_>, start: &BytesStart<'_>) -> Result<IpgProtein, ParseError> {
    let mut protein = IpgProtein {
        accver: attr(start, "accver").unwrap_or_default(),
        source: attr(start, "source"),
        name: attr(start, "name"),
        taxid: num(start, "taxid"),
        org: attr(start, "org"),
        kingdom: attr(start, "kingdom"),
        priority: num(start, "priority"),
        cds: Vec::new(),
    };
    each_child(x, |x, name, _| match name {
        "CDSList" => each_child(x, |x, name, start| {
            if name == "CDS" {
                protein.cds.push(IpgCds {
                    accver: attr(start, "accver").unwrap_or_default(),
                    start: num(start, "start"),
                    stop: num(start, "stop"),
                    strand: attr(start, "strand"),
                    taxid: num(start, "taxid"),
                    org: attr(start, "org"),
                    strain: attr(start, "strain"),
                    assembly: attr(start, "assembly"),
                });
            }
            x.skip()
        }),
        _ => Ok(()),
    })?;
    Ok(protein)
}

/// A numeric attribute, `None` when absent or not a number.
fn num<T: std::str::FromStr>(start: &BytesStart<'_>, name: &str) -> Option<T> {
    attr(start, name)?.trim().parse().ok()
}
