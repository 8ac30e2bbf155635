//! Fetched records by format: the one place a format is matched to its parser.
//!
//! `entrez_query fetch` turns what comes back into JSON records and
//! `entrez_data` into table rows, but which parser reads which format is
//! decided here for both, from the [`Format`] the request was planned with.

use super::generic::XmlNode;
use super::ipg::IpgReport;
use super::medline::MedlineRecord;
use super::pmc::PmcArticle;
use super::pubmed::PubmedArticle;
use super::sequence::SequenceRecord;
use super::taxonomy::Taxon;
use crate::error::ParseError;

/// How a fetched body is to be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// PubmedArticleSet XML.
    PubmedXml,
    /// MEDLINE tagged text.
    Medline,
    /// PMC JATS XML.
    PmcXml,
    /// GBSeq XML (nuccore gb, protein gp).
    GbseqXml,
    /// TinySeq XML (fasta as XML).
    TinyseqXml,
    /// FASTA text.
    Fasta,
    /// GenBank or GenPept flat file.
    FlatFile,
    /// Taxonomy XML.
    TaxonomyXml,
    /// Identical Protein Groups XML.
    IpgXml,
    /// Any other XML: generic records.
    GenericXml,
    /// Anything else: returned as text.
    Raw,
}

impl Format {
    /// The name results give the format (`format` in a fetch result).
    pub fn name(self) -> &'static str {
        match self {
            Format::PubmedXml => "pubmed_xml",
            Format::Medline => "medline",
            Format::PmcXml => "pmc_jats",
            Format::GbseqXml => "gbseq_xml",
            Format::TinyseqXml => "tinyseq_xml",
            Format::Fasta => "fasta",
            Format::FlatFile => "flat_file",
            Format::TaxonomyXml => "taxonomy_xml",
            Format::IpgXml => "ipg_xml",
            Format::GenericXml => "generic_xml",
            Format::Raw => "raw",
        }
    }
}

/// Records read from one efetch body.
#[derive(Debug, Clone)]
pub enum Records {
    /// PubMed citations.
    Pubmed(Vec<PubmedArticle>),
    /// MEDLINE records.
    Medline(Vec<MedlineRecord>),
    /// PMC articles.
    Pmc(Vec<PmcArticle>),
    /// Sequence records (GBSeq, TinySeq, FASTA or flat file).
    Sequences(Vec<SequenceRecord>),
    /// Taxa.
    Taxa(Vec<Taxon>),
    /// Identical Protein Groups reports.
    Ipg(Vec<IpgReport>),
    /// Any other XML, as generic nodes.
    Generic(Vec<XmlNode>),
    /// A body no parser reads; the caller keeps the text.
    Raw,
}

/// Reads `body` in `format`.
pub fn parse(format: Format, body: &[u8]) -> Result<Records, ParseError> {
    let text = || String::from_utf8_lossy(body);
    Ok(match format {
        Format::PubmedXml => Records::Pubmed(super::pubmed::parse_pubmed(body)?),
        Format::Medline => Records::Medline(super::medline::parse_medline(&text())?),
        Format::PmcXml => Records::Pmc(super::pmc::parse_pmc(body)?),
        Format::GbseqXml => Records::Sequences(super::gbseq::parse_gbseq(body)?),
        Format::TinyseqXml => Records::Sequences(super::tinyseq::parse_tinyseq(body)?),
        Format::Fasta => Records::Sequences(super::fasta::parse_fasta(&text())?),
        Format::FlatFile => Records::Sequences(super::flatfile::parse_flatfile(&text())?),
        Format::TaxonomyXml => Records::Taxa(super::taxonomy::parse_taxonomy(body)?),
        Format::IpgXml => Records::Ipg(super::ipg::parse_ipg(body)?),
        Format::GenericXml => Records::Generic(super::generic::parse_generic(body, None)?),
        Format::Raw => Records::Raw,
    })
}
