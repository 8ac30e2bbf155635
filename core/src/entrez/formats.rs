//! EFetch's formats as NCBI documents them: "Table 1 – Valid values of &retmode and &rettype
//! for EFetch (null = empty string)", chapter 4 of Entrez Programming Utilities Help, "The
//! E-utilities In-Depth: Parameters, Syntax and More" (NBK25499), encoded as data. Rows for
//! homologene are left out because that database is retired. `entrez_query` checks a fetch's
//! pair against it; completion offers its rettypes.

use crate::entrez::databases::SEQUENCE as SEQ;

/// One row of NBK25499 Table 1.
#[derive(Debug, Clone, Copy)]
pub struct Row {
    /// Databases the row applies to (empty: all databases).
    pub dbs: &'static [&'static str],
    /// The rettype; "" is NCBI's null (parameter omitted).
    pub rettype: &'static str,
    /// The retmode.
    pub retmode: &'static str,
    /// What NCBI returns.
    pub record: &'static str,
}

const NUC_POPSET: &[&str] = &["nuccore", "popset"];
const NUC_PROT: &[&str] = &["nuccore", "protein"];

const fn row(
    dbs: &'static [&'static str],
    rettype: &'static str,
    retmode: &'static str,
    record: &'static str,
) -> Row {
    Row {
        dbs,
        rettype,
        retmode,
        record,
    }
}

/// NBK25499 Table 1, row by row, in NCBI's order.
pub const TABLE: &[Row] = &[
    // All databases.
    row(&[], "docsum", "xml", "Document summary"),
    row(&[], "uilist", "xml", "List of UIDs in XML"),
    row(&[], "uilist", "text", "List of UIDs in plain text"),
    row(&["bioproject"], "xml", "xml", "Full record XML"),
    row(&["biosample"], "full", "xml", "Full record XML"),
    row(&["biosample"], "full", "text", "Full record text"),
    row(&["gds"], "summary", "text", "Summary"),
    row(&["gene"], "", "asn.1", "text ASN.1"),
    row(&["gene"], "", "xml", "XML"),
    row(&["gene"], "gene_table", "text", "Gene table"),
    // Not in Table 1, but NCBI's own sample applications (NBK25498, "ESearch – ELink –
    // ESummary – EFetch") fetch genes with rettype=xml&retmode=xml.
    row(
        &["gene"],
        "xml",
        "xml",
        "XML (as NBK25498's samples name it)",
    ),
    row(&["mesh"], "full", "text", "Full record"),
    row(&["nlmcatalog"], "", "text", "Full record"),
    row(&["nlmcatalog"], "", "xml", "XML"),
    row(SEQ, "", "text", "text ASN.1"),
    row(SEQ, "", "asn.1", "binary ASN.1"),
    row(SEQ, "native", "xml", "Full record in XML"),
    row(SEQ, "acc", "text", "Accession number(s)"),
    row(SEQ, "fasta", "text", "FASTA"),
    row(SEQ, "fasta", "xml", "TinySeq XML"),
    row(SEQ, "seqid", "text", "SeqID string"),
    row(NUC_POPSET, "gb", "text", "GenBank flat file"),
    row(NUC_POPSET, "gb", "xml", "GBSeq XML"),
    row(NUC_POPSET, "gbc", "xml", "INSDSeq XML"),
    row(NUC_PROT, "ft", "text", "Feature table"),
    row(
        &["nuccore"],
        "gbwithparts",
        "text",
        "GenBank flat file with full sequence (contigs)",
    ),
    row(&["nuccore"], "fasta_cds_na", "text", "CDS nucleotide FASTA"),
    row(&["nuccore"], "fasta_cds_aa", "text", "CDS protein FASTA"),
    row(&["protein"], "gp", "text", "GenPept flat file"),
    // Not in Table 1, but NBK25499's own EFetch example fetches a popset with rettype=gp:
    // a population set's protein translations as GenPept.
    row(
        &["popset"],
        "gp",
        "text",
        "GenPept flat file (NBK25499's popset example)",
    ),
    row(&["popset"], "gp", "xml", "GBSeq XML of the set's proteins"),
    row(&["protein"], "gp", "xml", "GBSeq XML"),
    row(&["protein"], "gpc", "xml", "INSDSeq XML"),
    row(&["protein"], "ipg", "xml", "Identical Protein XML"),
    row(&["pmc"], "", "xml", "XML"),
    row(&["pmc"], "medline", "text", "MEDLINE"),
    row(&["pubmed"], "", "xml", "XML"),
    row(&["pubmed"], "medline", "text", "MEDLINE"),
    row(&["pubmed"], "uilist", "text", "PMID list"),
    row(&["pubmed"], "abstract", "text", "Abstract"),
    row(&["sequences"], "", "text", "text ASN.1"),
    row(&["sequences"], "acc", "text", "Accession number(s)"),
    row(&["sequences"], "fasta", "text", "FASTA"),
    row(&["sequences"], "seqid", "text", "SeqID string"),
    row(&["snp"], "", "asn.1", "text ASN.1"),
    row(&["snp"], "", "xml", "XML"),
    row(&["snp"], "flt", "text", "Flat file"),
    row(&["snp"], "fasta", "text", "FASTA"),
    row(&["snp"], "rsr", "text", "RS Cluster report"),
    row(&["snp"], "ssexemplar", "text", "SS Exemplar list"),
    row(&["snp"], "chr", "text", "Chromosome report"),
    row(&["snp"], "docset", "text", "Summary"),
    row(&["snp"], "uilist", "text", "UID list"),
    row(&["snp"], "uilist", "xml", "UID list"),
    row(&["sra"], "full", "xml", "XML"),
    row(&["taxonomy"], "", "xml", "XML"),
    row(&["taxonomy"], "uilist", "text", "TaxID list"),
    row(&["taxonomy"], "uilist", "xml", "TaxID list"),
    row(&["clinvar"], "clinvarset", "xml", "ClinVar Set"),
    row(&["clinvar"], "uilist", "text", "UID list"),
    row(&["clinvar"], "uilist", "xml", "UID list"),
    row(&["gtr"], "gtracc", "xml", "GTR Test Report"),
];

/// The rettype an omitted rettype stands for, where Table 1 marks one "default".
pub const DEFAULT_RETTYPE: &[(&str, &str)] = &[
    ("bioproject", "xml"),
    ("biosample", "full"),
    ("gds", "summary"),
    ("mesh", "full"),
    ("sra", "full"),
    ("clinvar", "clinvarset"),
    ("gtr", "gtracc"),
];

/// Whether Table 1 has rows of its own for `db` (canonical name).
pub fn documents(db: &str) -> bool {
    TABLE.iter().any(|r| r.dbs.contains(&db))
}

/// Every row that applies to `db`: its own and the all-database ones.
pub fn rows_for(db: &str) -> impl Iterator<Item = &'static Row> + '_ {
    TABLE
        .iter()
        .filter(move |r| r.dbs.is_empty() || r.dbs.contains(&db))
}
