//! Sequence parsers against recorded NCBI replies.
//!
//! Each format is checked on values read off the fixture by eye, and the
//! formats are checked against each other where NCBI sent the same molecule
//! twice (GBSeq and TinySeq of X60065; the flat file, FASTA and protein FASTA
//! of NC_005816), so a parser that drops or mangles residues cannot agree
//! with the others by accident.

use entrez_mcp_parse::fasta::{accession_from_id, parse_fasta};
use entrez_mcp_parse::flatfile::parse_flatfile;
use entrez_mcp_parse::gbseq::parse_gbseq;
use entrez_mcp_parse::sequence::SequenceRecord;
use entrez_mcp_parse::tinyseq::parse_tinyseq;

const NUCLEOTIDE_GBSEQ: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/fixtures/ncbi/eutils/nucleotide1.xml"
));
const TINYSEQ: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/fixtures/ncbi/eutils/nucleotide2.xml"
));
const PROTEIN_GBSEQ: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/fixtures/ncbi/eutils/protein.xml"
));
const GENBANK: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/fixtures/ncbi/text/NC_005816.gb"
));
const GENPEPT: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/fixtures/ncbi/text/1MRR_A.gp"
));
const FASTA_NUCLEOTIDE: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/fixtures/ncbi/text/NC_005816.fna"
));
const FASTA_PROTEIN: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/fixtures/ncbi/text/NC_005816.faa"
));

fn only(mut records: Vec<SequenceRecord>) -> SequenceRecord {
    assert_eq!(records.len(), 1, "expected exactly one record");
    records.remove(0)
}

#[test]
fn gbseq_nucleotide_fields() {
    let r = only(parse_gbseq(NUCLEOTIDE_GBSEQ).unwrap());
    assert_eq!(r.accession, "X60065");
    assert_eq!(r.version, Some(1));
    assert_eq!(r.accession_version, "X60065.1");
    assert_eq!(r.locus.as_deref(), Some("X60065"));
    assert_eq!(r.length, 1136);
    assert_eq!(r.moltype.as_deref(), Some("mRNA"));
    assert_eq!(r.topology.as_deref(), Some("linear"));
    assert_eq!(r.division.as_deref(), Some("MAM"));
    assert_eq!(r.organism.as_deref(), Some("Bos taurus"));
    assert_eq!(r.taxid, Some(9913));
    assert_eq!(
        r.definition.as_deref(),
        Some("B.bovis beta-2-gpI mRNA for beta-2-glycoprotein I")
    );
    assert_eq!(r.create_date.as_deref(), Some("05-MAY-1992"));
    assert_eq!(r.update_date.as_deref(), Some("26-JUL-2016"));
    assert_eq!(r.keywords, vec!["beta-2 glycoprotein I"]);
    let lineage = r.lineage.as_deref().unwrap();
    assert!(
        lineage.starts_with("Eukaryota; Metazoa; Chordata"),
        "{lineage}"
    );
    assert!(lineage.ends_with("Bovidae; Bovinae; Bos"), "{lineage}");
}

#[test]
fn gbseq_nucleotide_references_features_and_sequence() {
    let r = only(parse_gbseq(NUCLEOTIDE_GBSEQ).unwrap());
    assert_eq!(r.references.len(), 2);
    let first = &r.references[0];
    assert_eq!(
        first.title.as_deref(),
        Some("Complete primary structure of bovine beta 2-glycoprotein I: localization of the disulfide bridges")
    );
    assert_eq!(first.authors.len(), 5);
    assert_eq!(first.authors[0], "Bendixen,E.");
    assert_eq!(first.authors[4], "Kristensen,T.");
    assert_eq!(
        first.journal.as_deref(),
        Some("Biochemistry 31 (14), 3611-3617 (1992)")
    );
    assert_eq!(first.pubmed.as_deref(), Some("1567819"));
    assert_eq!(first.doi.as_deref(), Some("10.1021/bi00129a009"));
    assert_eq!(r.references[1].title.as_deref(), Some("Direct Submission"));
    assert_eq!(r.references[1].pubmed, None);

    let keys: Vec<&str> = r.features.iter().map(|f| f.key.as_str()).collect();
    assert_eq!(
        keys,
        [
            "source",
            "gene",
            "CDS",
            "sig_peptide",
            "mat_peptide",
            "regulatory",
            "polyA_site"
        ]
    );
    // `&lt;1..1136` in the XML is a partial location, "<1..1136".
    assert_eq!(r.features[1].location, "<1..1136");
    let cds = &r.features[2];
    assert_eq!(cds.qualifier("protein_id"), Some("CAA42669.1"));
    assert_eq!(cds.qualifier("product"), Some("beta-2-glycoprotein I"));
    let xrefs = cds
        .qualifiers
        .iter()
        .filter(|(n, _)| n == "db_xref")
        .count();
    assert_eq!(xrefs, 5, "repeated qualifiers are all kept");
    assert_eq!(r.features[6].location, "1130");

    let seq = r.sequence.as_deref().unwrap();
    assert_eq!(seq.len() as u64, r.length);
    assert!(seq.starts_with("ccagcgctcgtcttgctgttg"));
    assert!(seq.ends_with("gtgtcaagaaaaaaa"));
}

#[test]
fn gbseq_protein_record() {
    let r = only(parse_gbseq(PROTEIN_GBSEQ).unwrap());
    assert_eq!(r.accession_version, "CAA35997.1");
    assert_eq!(r.accession, "CAA35997");
    assert_eq!(r.version, Some(1));
    assert_eq!(r.length, 100);
    assert_eq!(r.moltype.as_deref(), Some("AA"));
    assert_eq!(r.taxid, Some(9913));
    assert_eq!(
        r.definition.as_deref(),
        Some("unnamed protein product [Bos taurus]")
    );
    // The first reference is unpublished: authors and journal, no title.
    assert_eq!(r.references[0].title, None);
    assert_eq!(r.references[0].journal.as_deref(), Some("Unpublished"));
    assert_eq!(r.references[0].authors[1], "Saphire,A.C.S.");
    assert_eq!(r.features.len(), 4);
    let cds = r.features.iter().find(|f| f.key == "CDS").unwrap();
    assert_eq!(cds.qualifier("coded_by"), Some("X51700.1:28..330"));
    let region = r.features.iter().find(|f| f.key == "Region").unwrap();
    assert_eq!(region.location, "33..97");
    assert_eq!(region.qualifier("region_name"), Some("GLA"));
    let seq = r.sequence.unwrap();
    assert_eq!(seq.len(), 100);
    assert!(seq.starts_with("mrtpmllallalatlc"));
}

#[test]
fn tinyseq_records_and_agreement_with_gbseq() {
    let records = parse_tinyseq(TINYSEQ).unwrap();
    assert_eq!(records.len(), 2);
    let (nuc, prot) = (&records[0], &records[1]);
    assert_eq!(nuc.accession_version, "X60065.1");
    assert_eq!(nuc.accession, "X60065");
    assert_eq!(nuc.version, Some(1));
    assert_eq!(nuc.moltype.as_deref(), Some("nucleotide"));
    assert_eq!(nuc.taxid, Some(9913));
    assert_eq!(nuc.organism.as_deref(), Some("Bos taurus"));
    assert_eq!(nuc.length, 1136);
    assert_eq!(prot.accession_version, "CAA42669.1");
    assert_eq!(prot.moltype.as_deref(), Some("protein"));
    assert_eq!(prot.length, 342);
    assert_eq!(
        prot.definition.as_deref(),
        Some("beta-2-glycoprotein I, partial [Bos taurus]")
    );
    assert_eq!(prot.sequence.as_ref().unwrap().len(), 342);

    // The same molecule as GBSeq: residues agree, only the case differs.
    let gb = only(parse_gbseq(NUCLEOTIDE_GBSEQ).unwrap());
    assert_eq!(
        gb.sequence.unwrap().to_ascii_uppercase(),
        *nuc.sequence.as_ref().unwrap()
    );
    // And the protein is the CDS translation in the GBSeq record.
    let cds = gb.features.iter().find(|f| f.key == "CDS").unwrap();
    assert_eq!(cds.qualifier("translation"), prot.sequence.as_deref());
}

#[test]
fn genbank_flat_file_header() {
    let r = only(parse_flatfile(GENBANK).unwrap());
    assert_eq!(r.locus.as_deref(), Some("NC_005816"));
    assert_eq!(r.length, 9609);
    assert_eq!(r.moltype.as_deref(), Some("DNA"));
    assert_eq!(r.topology.as_deref(), Some("circular"));
    assert_eq!(r.division.as_deref(), Some("BCT"));
    assert_eq!(r.update_date.as_deref(), Some("21-JUL-2008"));
    assert_eq!(r.create_date, None);
    assert_eq!(
        r.definition.as_deref(),
        Some("Yersinia pestis biovar Microtus str. 91001 plasmid pPCP1, complete sequence")
    );
    assert_eq!(r.accession, "NC_005816");
    assert_eq!(r.accession_version, "NC_005816.1");
    assert_eq!(r.version, Some(1));
    assert_eq!(r.dblinks, vec!["Project: 58037"]);
    assert!(r.keywords.is_empty(), "KEYWORDS '.' means none");
    assert_eq!(
        r.organism.as_deref(),
        Some("Yersinia pestis biovar Microtus str. 91001")
    );
    assert_eq!(
        r.lineage.as_deref(),
        Some("Bacteria; Proteobacteria; Gammaproteobacteria; Enterobacteriales; Enterobacteriaceae; Yersinia")
    );
    assert_eq!(r.taxid, Some(229193));
}

#[test]
fn genbank_flat_file_references() {
    let r = only(parse_flatfile(GENBANK).unwrap());
    assert_eq!(r.references.len(), 4);
    let first = &r.references[0];
    assert_eq!(
        first.title.as_deref(),
        Some("Genetics of metabolic variations between Yersinia pestis biovars and the proposal of a new biovar, microtus")
    );
    assert_eq!(
        first.journal.as_deref(),
        Some("J. Bacteriol. 186 (15), 5147-5152 (2004)")
    );
    assert_eq!(first.pubmed.as_deref(), Some("15262951"));
    assert_eq!(first.authors.len(), 18);
    assert_eq!(first.authors[0], "Zhou,D.");
    assert_eq!(first.authors[16], "Huang,P.");
    assert_eq!(first.authors[17], "Yang,R.");
    assert_eq!(r.references[1].pubmed.as_deref(), Some("15368893"));
    assert_eq!(r.references[1].authors.len(), 29);
    let third = &r.references[2];
    assert_eq!(third.consortium.as_deref(), Some("NCBI Genome Project"));
    assert!(third.authors.is_empty());
    assert_eq!(third.title.as_deref(), Some("Direct Submission"));
    assert_eq!(
        third.journal.as_deref(),
        Some("Submitted (16-MAR-2004) National Center for Biotechnology Information, NIH, Bethesda, MD 20894, USA")
    );
    assert_eq!(r.references[3].pubmed, None);
}

#[test]
fn genbank_flat_file_features() {
    let r = only(parse_flatfile(GENBANK).unwrap());
    assert_eq!(r.features.len(), 41);
    let count = |key: &str| r.features.iter().filter(|f| f.key == key).count();
    assert_eq!(count("CDS"), 10);
    assert_eq!(count("gene"), 10);
    assert_eq!(count("misc_feature"), 13);
    assert_eq!(count("variation"), 6);
    assert_eq!(r.features[0].key, "source");
    assert_eq!(r.features[0].qualifier("plasmid"), Some("pPCP1"));
    // A feature with no qualifiers at all.
    assert_eq!(r.features[1].key, "repeat_region");
    assert!(r.features[1].qualifiers.is_empty());

    let cds: Vec<_> = r.features.iter().filter(|f| f.key == "CDS").collect();
    let first = cds[0];
    assert_eq!(first.location, "87..1109");
    assert_eq!(first.qualifier("protein_id"), Some("NP_995567.1"));
    assert_eq!(first.qualifier("product"), Some("putative transposase"));
    assert_eq!(first.qualifier("codon_start"), Some("1"));
    // Wrapped quoted values are joined with a space...
    let note = first.qualifier("note").unwrap();
    assert!(note.starts_with("similar to corresponding CDS from previously sequenced pPCP plasmid"));
    assert!(note.ends_with("HTH domain (Interpro|IPR007101)"), "{note}");
    // ...and translations with none.
    let translation = first.qualifier("translation").unwrap();
    assert!(translation.starts_with("MVTFETVMEIKILHKQGMSSRAIARELGISRNTVKRYLQAKSEPPKYTPRP"));
    assert!(translation.ends_with("FCRGVA"));
    assert!(!translation.contains(' '));

    let pst = cds
        .iter()
        .find(|f| f.qualifier("gene") == Some("pst"))
        .unwrap();
    assert_eq!(pst.location, "complement(4815..5888)");
    assert_eq!(pst.qualifier("protein_id"), Some("NP_995572.1"));
    let order = r
        .features
        .iter()
        .find(|f| f.location.starts_with("order("))
        .unwrap();
    assert_eq!(order.location, "order(1436..1459,1619..1621)");
    // `/replace=""` is an empty value, not a missing one.
    let deletion = r
        .features
        .iter()
        .find(|f| f.key == "variation" && f.location == "5910..5911")
        .unwrap();
    assert_eq!(deletion.qualifier("replace"), Some(""));
    assert_eq!(deletion.qualifier("note"), Some("compared to AF053945"));
}

#[test]
fn genbank_flat_file_sequence_matches_locus_and_fasta() {
    let r = only(parse_flatfile(GENBANK).unwrap());
    let seq = r.sequence.as_deref().unwrap();
    assert_eq!(seq.len() as u64, r.length);
    assert!(seq.starts_with("tgtaacgaacggtgcaatagtgatccacac"));
    assert!(seq.ends_with("cgacccctg"));
    let fasta = only(parse_fasta(FASTA_NUCLEOTIDE).unwrap());
    assert_eq!(seq.to_ascii_uppercase(), fasta.sequence.unwrap());
}

#[test]
fn genpept_flat_file() {
    let r = only(parse_flatfile(GENPEPT).unwrap());
    assert_eq!(r.locus.as_deref(), Some("1MRR_A"));
    assert_eq!(r.length, 375);
    assert_eq!(r.moltype.as_deref(), Some("AA"));
    assert_eq!(r.topology.as_deref(), Some("linear"));
    assert_eq!(r.division.as_deref(), Some("BCT"));
    assert_eq!(r.update_date.as_deref(), Some("10-OCT-2012"));
    // PDB chains carry no sequence version.
    assert_eq!(r.accession, "1MRR_A");
    assert_eq!(r.accession_version, "1MRR_A");
    assert_eq!(r.version, None);
    assert_eq!(
        r.definition.as_deref(),
        Some("Chain A, Substitution Of Manganese For Iron In Ribonucleotide Reductase From Escherichia Coli. Spectroscopic And Crystallographic Characterization")
    );
    assert_eq!(r.organism.as_deref(), Some("Escherichia coli"));
    assert_eq!(r.taxid, Some(562));
    assert!(r
        .lineage
        .as_deref()
        .unwrap()
        .ends_with("Enterobacteriaceae; Escherichia"));
    assert_eq!(r.references.len(), 3);
    assert_eq!(
        r.references[1].title.as_deref(),
        Some("Substitution of manganese for iron in ribonucleotide reductase from Escherichia coli. Spectroscopic and crystallographic characterization")
    );
    assert_eq!(r.references[1].pubmed.as_deref(), Some("1328209"));
    assert_eq!(
        r.references[0].authors,
        ["Nordlund,P.", "Sjoberg,B.M.", "Eklund,H."]
    );
    assert_eq!(r.references[2].authors, ["Eklund,H.", "Nordlund,P."]);
    assert_eq!(r.features.len(), 28);
    let het = r.features.iter().find(|f| f.key == "Het").unwrap();
    assert_eq!(het.location, "join(bond(84),bond(115),bond(118),bond(238))");
    assert_eq!(het.qualifier("heterogen"), Some("( MN,1000 )"));
    let region = r.features.iter().find(|f| f.key == "Region").unwrap();
    assert_eq!(
        region.qualifier("note"),
        Some("Ribonucleotide Reductase, R2/beta subunit, ferritin-like diiron-binding domain; cd01049")
    );
    let seq = r.sequence.unwrap();
    assert_eq!(seq.len(), 375);
    assert!(seq.starts_with("ayttfsatkndqlkep"));
    assert!(seq.ends_with("ddlsnfql"));
}

#[test]
fn flat_files_concatenated_give_one_record_each() {
    let both = format!("{GENBANK}{GENPEPT}");
    let records = parse_flatfile(&both).unwrap();
    let ids: Vec<&str> = records.iter().map(|r| r.accession.as_str()).collect();
    assert_eq!(ids, ["NC_005816", "1MRR_A"]);
    assert_eq!(records[0].features.len(), 41);
    assert_eq!(records[1].sequence.as_ref().unwrap().len(), 375);
}

#[test]
fn fasta_nucleotide_legacy_gi_defline() {
    let r = only(parse_fasta(FASTA_NUCLEOTIDE).unwrap());
    assert_eq!(r.accession, "NC_005816");
    assert_eq!(r.version, Some(1));
    assert_eq!(r.accession_version, "NC_005816.1");
    assert_eq!(
        r.definition.as_deref(),
        Some("Yersinia pestis biovar Microtus str. 91001 plasmid pPCP1, complete sequence")
    );
    assert_eq!(r.organism, None);
    assert_eq!(r.length, 9609);
    let seq = r.sequence.unwrap();
    assert!(seq.starts_with("TGTAACGAACGGTGCAATAG"));
    assert!(seq.ends_with("ATGCGTACCCCGACCCCTG"));
}

#[test]
fn fasta_protein_records_match_flat_file_translations() {
    let proteins = parse_fasta(FASTA_PROTEIN).unwrap();
    assert_eq!(proteins.len(), 10);
    let ids: Vec<&str> = proteins
        .iter()
        .map(|r| r.accession_version.as_str())
        .collect();
    assert_eq!(ids[0], "NP_995567.1");
    assert_eq!(ids[9], "NP_995576.1");
    assert_eq!(proteins[3].accession, "NP_995570");
    assert_eq!(
        proteins[3].definition.as_deref(),
        Some("hypothetical protein YP_pPCP04 [Yersinia pestis biovar Microtus str. 91001]")
    );
    assert!(proteins
        .iter()
        .all(|p| p.organism.as_deref() == Some("Yersinia pestis biovar Microtus str. 91001")));
    assert_eq!(proteins[2].length, 64);

    let genbank = only(parse_flatfile(GENBANK).unwrap());
    for protein in &proteins {
        let cds = genbank
            .features
            .iter()
            .find(|f| f.qualifier("protein_id") == Some(protein.accession_version.as_str()))
            .unwrap_or_else(|| panic!("no CDS for {}", protein.accession_version));
        assert_eq!(
            cds.qualifier("translation"),
            protein.sequence.as_deref(),
            "{}",
            protein.accession_version
        );
        assert_eq!(
            protein.length as usize,
            protein.sequence.as_ref().unwrap().len()
        );
    }
}

#[test]
fn fasta_ids_in_every_ncbi_style() {
    assert_eq!(accession_from_id("NC_005816.1"), "NC_005816.1");
    assert_eq!(
        accession_from_id("gi|45478711|ref|NC_005816.1|"),
        "NC_005816.1"
    );
    assert_eq!(accession_from_id("ref|NP_995567.1|"), "NP_995567.1");
    assert_eq!(accession_from_id("gi|494379|pdb|1MRR|A"), "1MRR_A");
    assert_eq!(accession_from_id("gi|321919|pir||JQ1541"), "JQ1541");
    assert_eq!(accession_from_id("sp|P69905.2|HBA_HUMAN"), "P69905.2");
}

#[test]
fn records_serialise_to_plain_json() {
    let r = only(parse_flatfile(GENPEPT).unwrap());
    let v = serde_json::to_value(&r).unwrap();
    assert_eq!(v["accession"], "1MRR_A");
    assert_eq!(v["version"], serde_json::Value::Null);
    assert_eq!(v["taxid"], 562);
    assert_eq!(v["features"][0]["qualifiers"][0][0], "organism");
    assert_eq!(v["features"][0]["qualifiers"][0][1], "Escherichia coli");
    assert_eq!(v["references"][1]["pubmed"], "1328209");
}
