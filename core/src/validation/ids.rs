//! Record ids: which shapes belong to which database.
//!
//! Sending a protein accession to pubmed, or a PMCID to pubmed, does not fail
//! at NCBI: it returns nothing, or the wrong record, and the assistant
//! concludes the paper does not exist. This module recognises the id families
//! NCBI documents (PMIDs, PMCIDs, RefSeq and GenBank accessions with optional
//! versions, UniProt accessions the protein database carries, PDB ids,
//! assemblies, SRA, BioSample, BioProject and dbSNP ids) and names the right
//! database when an id is clearly of another family ([`check`]).

use crate::validation::{codes, item_path, path, Report};
use std::collections::HashMap;

/// Most ids checked one by one before the rest are summarised.
const MAX_LISTED: usize = 20;
/// NCBI's largest id list for one EPost request.
pub const EPOST_MAX_IDS: usize = 10_000;
/// NCBI's largest id list for one JSON ESummary request.
pub const JSON_SUMMARY_MAX_IDS: usize = 500;
/// From this many ids on, requests go by POST (as NCBI asks).
pub const POST_FROM: usize = crate::entrez::request::POST_ID_COUNT;

/// The kinds of identifier NCBI uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// Digits: the UID of any database (PMID, Gene id, GI, TaxID, ...).
    Uid,
    /// PMC followed by digits.
    Pmcid,
    /// A nucleotide accession (RefSeq NM_/NC_/..., GenBank U12345, AB123456, WGS).
    Nucleotide,
    /// A protein accession (RefSeq NP_/XP_/WP_/..., GenBank AAA12345, UniProt P69905).
    Protein,
    /// A PDB id, with an optional chain (4HHB, 4HHB_A).
    Pdb,
    /// An assembly accession (GCF_/GCA_).
    Assembly,
    /// An SRA accession (SRR/ERR/DRR runs, SRX experiments, SRP studies, ...).
    Sra,
    /// A BioSample accession (SAMN, SAMEA, SAMD).
    BioSample,
    /// A BioProject accession (PRJNA, PRJEB, PRJDB, ...).
    BioProject,
    /// A dbSNP rs number.
    Snp,
    /// A DOI, which no Entrez database takes as an id.
    Doi,
}

impl Family {
    /// The databases where ids of this family are record ids.
    fn databases(self) -> &'static [&'static str] {
        match self {
            Family::Uid => &[],
            Family::Pmcid => &["pmc"],
            Family::Nucleotide => &["nuccore", "sequences"],
            Family::Protein => &["protein", "ipg", "sequences"],
            Family::Pdb => &["structure", "protein"],
            Family::Assembly => &["assembly"],
            Family::Sra => &["sra"],
            Family::BioSample => &["biosample"],
            Family::BioProject => &["bioproject"],
            Family::Snp => &["snp"],
            Family::Doi => &[],
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Family::Uid => "a numeric UID",
            Family::Pmcid => "a PMC id",
            Family::Nucleotide => "a nucleotide accession",
            Family::Protein => "a protein accession",
            Family::Pdb => "a PDB id",
            Family::Assembly => "an assembly accession",
            Family::Sra => "an SRA accession",
            Family::BioSample => "a BioSample accession",
            Family::BioProject => "a BioProject accession",
            Family::Snp => "a dbSNP rs number",
            Family::Doi => "a DOI",
        }
    }
}

fn digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// `L{letters}` then `D{digits}`, lengths in the given ranges.
fn shape(s: &str, letters: (usize, usize), numbers: (usize, usize)) -> bool {
    let split = s.bytes().take_while(u8::is_ascii_uppercase).count();
    let (l, d) = s.split_at(split);
    (letters.0..=letters.1).contains(&l.len())
        && (numbers.0..=numbers.1).contains(&d.len())
        && digits(d)
}

/// Removes a `.N` version suffix when present and numeric.
fn unversioned(s: &str) -> &str {
    match s.rsplit_once('.') {
        Some((base, v)) if digits(v) => base,
        _ => s,
    }
}

fn refseq(s: &str) -> Option<Family> {
    let (prefix, rest) = s.split_once('_')?;
    let nucleotide = ["NM", "NR", "XM", "XR", "NC", "NG", "NT", "NW", "AC"];
    let protein = ["NP", "XP", "YP", "WP", "AP"];
    if prefix == "NZ" && (genbank_nucleotide(rest) || digits(rest)) {
        return Some(Family::Nucleotide);
    }
    if !digits(rest) || rest.len() < 5 {
        return None;
    }
    if nucleotide.contains(&prefix) {
        Some(Family::Nucleotide)
    } else if protein.contains(&prefix) {
        Some(Family::Protein)
    } else {
        None
    }
}

/// GenBank nucleotide shapes: 1+5, 2+6, 2+8 (letters+digits), MGA 5+7, WGS 4+8..10 and 6+9..11.
fn genbank_nucleotide(s: &str) -> bool {
    shape(s, (1, 1), (5, 5))
        || shape(s, (2, 2), (6, 6))
        || shape(s, (2, 2), (8, 8))
        || shape(s, (5, 5), (7, 7))
        || shape(s, (4, 4), (8, 10))
        || shape(s, (6, 6), (9, 11))
}

/// GenBank protein shapes (3+5, 3+7) and UniProt accessions, which NCBI protein carries.
fn protein_accession(s: &str) -> bool {
    shape(s, (3, 3), (5, 5)) || shape(s, (3, 3), (7, 7)) || uniprot(s)
}

fn uniprot(s: &str) -> bool {
    let b = s.as_bytes();
    let alnum = |c: u8| c.is_ascii_uppercase() || c.is_ascii_digit();
    match b.len() {
        6 if matches!(b[0], b'O' | b'P' | b'Q') => {
            b[1].is_ascii_digit() && b[2..5].iter().all(|&c| alnum(c)) && b[5].is_ascii_digit()
        }
        6 | 10 => {
            b[0].is_ascii_uppercase()
                && b[1].is_ascii_digit()
                && b[2..].chunks(4).all(|c| {
                    c[0].is_ascii_uppercase() && alnum(c[1]) && alnum(c[2]) && c[3].is_ascii_digit()
                })
        }
        _ => false,
    }
}

fn pdb(s: &str) -> bool {
    let (code, chain) = s.split_once('_').unwrap_or((s, "A"));
    let b = code.as_bytes();
    b.len() == 4
        && b[0].is_ascii_digit()
        && b.iter().all(u8::is_ascii_alphanumeric)
        && b.iter().any(u8::is_ascii_alphabetic)
        && (1..=4).contains(&chain.len())
        && chain.bytes().all(|c| c.is_ascii_alphanumeric())
}

/// Every family `id` could belong to; empty when it has no known shape.
pub fn classify(id: &str) -> Vec<Family> {
    let s = id.trim();
    if digits(s) {
        return vec![Family::Uid];
    }
    if s.starts_with("10.") && s.contains('/') {
        return vec![Family::Doi];
    }
    let up = s.to_ascii_uppercase();
    if let Some(n) = up.strip_prefix("PMC") {
        if digits(n) {
            return vec![Family::Pmcid];
        }
    }
    if let Some(n) = up.strip_prefix("RS") {
        if digits(n) {
            return vec![Family::Snp];
        }
    }
    let base = unversioned(&up);
    if let Some(n) = base
        .strip_prefix("GCF_")
        .or_else(|| base.strip_prefix("GCA_"))
    {
        if n.len() == 9 && digits(n) {
            return vec![Family::Assembly];
        }
    }
    if let Some(f) = refseq(base) {
        return vec![f];
    }
    let b = base.as_bytes();
    if ["SAMN", "SAMEA", "SAMD"]
        .iter()
        .any(|p| base.strip_prefix(p).is_some_and(digits))
    {
        return vec![Family::BioSample];
    }
    if base.len() > 5
        && base.starts_with("PRJ")
        && matches!(b[3], b'N' | b'E' | b'D')
        && matches!(b[4], b'A' | b'B')
        && digits(&base[5..])
    {
        return vec![Family::BioProject];
    }
    let mut found = Vec::new();
    // SRA and GenBank protein shapes overlap (ERR1234567); keep both and let the database decide.
    if b.len() >= 9
        && matches!(b[0], b'S' | b'E' | b'D')
        && b[1] == b'R'
        && matches!(b[2], b'R' | b'X' | b'P' | b'S' | b'A')
        && digits(&base[3..])
    {
        found.push(Family::Sra);
    }
    // Protein first: a shape both could be (P69905) is far more often a UniProt accession.
    if protein_accession(base) {
        found.push(Family::Protein);
    }
    if genbank_nucleotide(base) {
        found.push(Family::Nucleotide);
    }
    if found.is_empty() && pdb(&up) {
        found.push(Family::Pdb);
    }
    found
}

/// Databases whose ids are numbers (or prefix + number) and nothing else.
fn strict(db: &str) -> Option<&'static str> {
    match db {
        "pubmed" => Some("PubMed ids (PMIDs) are digits, e.g. 19304878"),
        "gene" => Some("Gene ids are digits, e.g. 7157 (TP53)"),
        "taxonomy" => Some("Taxonomy ids are digits, e.g. 9606 (Homo sapiens)"),
        "pmc" => Some("PMC ids are PMC followed by digits, e.g. PMC7096066, or the digits alone"),
        "snp" => Some("dbSNP ids are rs followed by digits, e.g. rs7412, or the digits alone"),
        _ => None,
    }
}

fn looks_like_symbol(id: &str) -> bool {
    (2..=15).contains(&id.len())
        && id.bytes().next().is_some_and(|b| b.is_ascii_alphabetic())
        && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// Checks every id for `db` (canonical name); `limit` is the utility's largest list.
///
/// Recognition is deliberately generous inside sequence databases: GenBank keeps adding
/// accession formats, so an unfamiliar shape there is a warning and NCBI decides. Only
/// databases whose ids are plain numbers (pubmed, gene, taxonomy) or a prefix plus a number
/// (pmc, snp) reject unknown shapes (`strict`).
pub fn check(
    ids: &[(usize, String)],
    name: &str,
    db: &str,
    limit: Option<(usize, &str)>,
    report: &mut Report,
) {
    let mut listed = 0;
    let mut dropped: Vec<&'static str> = Vec::new();
    // A map, not a scan: epost takes 10,000 ids and validation must stay instant.
    let mut seen: HashMap<String, usize> = HashMap::with_capacity(ids.len());
    for (i, raw) in ids {
        let at = item_path(name, *i);
        let id = raw.trim();
        let key = id.to_ascii_uppercase();
        let mut found = Report::default();
        if let Some(first) = seen.get(&key) {
            found.warn(
                codes::DUPLICATE_ID,
                &at,
                format!(
                    "\"{id}\" is also given at {}; NCBI returns it once.",
                    item_path(name, *first)
                ),
            );
        } else {
            seen.insert(key, *i);
            one(id, &at, db, &mut found);
        }
        if found.errors.is_empty() && found.warnings.is_empty() {
            continue;
        }
        listed += 1;
        if listed > MAX_LISTED {
            // Keep one report readable: the first problems show the pattern, the rest are counted.
            dropped.extend(found.errors.iter().chain(&found.warnings).map(|f| f.code));
            continue;
        }
        report.errors.append(&mut found.errors);
        report.warnings.append(&mut found.warnings);
        found
            .suggestions
            .into_iter()
            .for_each(|s| report.suggest(s));
    }
    if !dropped.is_empty() {
        let message = format!(
            "{} more problems with ids like those listed; fix those and validate again.",
            dropped.len()
        );
        // An error among the unlisted ones must still make the call invalid.
        match dropped.iter().find(|c| codes::ERRORS.contains(*c)) {
            Some(code) => report.error(code, path(name), message),
            None => report.warn(dropped[0], path(name), message),
        }
    }
    let count = ids.len();
    if let Some((max, why)) = limit.filter(|(max, _)| count > *max) {
        report.error(
            codes::TOO_MANY_IDS,
            path(name),
            format!("{count} ids given; {why} accepts at most {max} per request."),
        );
        report.suggest(format!(
            "Split the ids into calls of at most {max}, or post them (operation post) and use webenv/query_key."
        ));
    } else if count >= POST_FROM {
        report.warn(
            codes::MANY_IDS_POST,
            path(name),
            format!("{count} ids: the request will be sent by HTTP POST, as NCBI asks for {POST_FROM} or more ids."),
        );
    }
}

fn one(id: &str, at: &str, db: &str, report: &mut Report) {
    if id.is_empty() {
        report.error(codes::INVALID_ID, at, "An empty id; remove it.");
        return;
    }
    if let Some(c) = id
        .chars()
        .find(|c| matches!(c, ',' | ';' | ' ' | '\t' | '\n'))
    {
        report.error(
            codes::INVALID_ID,
            at,
            format!("\"{id}\" contains {c:?}; give each id as its own array element."),
        );
        return;
    }
    let families = classify(id);
    let accepted = |f: &Family| *f == Family::Uid || f.databases().contains(&db);
    if families.iter().any(accepted) {
        return;
    }
    if families.contains(&Family::Doi) {
        report.error(
            codes::INVALID_ID,
            at,
            format!("\"{id}\" is a DOI, not a record id; search pubmed with term \"{id}[doi]\" to find its PMID."),
        );
        report.suggest(format!(
            "Use operation search, database pubmed, term \"{id}[doi]\"."
        ));
        return;
    }
    if let Some(f) = families.first() {
        // Each family's main database; ipg and the sequences composite would only distract.
        let targets: Vec<&str> = families
            .iter()
            .filter_map(|f| f.databases().first().copied())
            .fold(Vec::new(), |mut v, d| {
                if !v.contains(&d) {
                    v.push(d);
                }
                v
            });
        report.error(
            codes::ID_WRONG_DATABASE,
            at,
            format!(
                "{id} is {}; use database {}.",
                f.describe(),
                targets.join(" or ")
            ),
        );
        report.suggest(format!("Send {id} with database {}.", targets[0]));
        return;
    }
    match strict(db) {
        Some(rule) => {
            let mut message = format!("\"{id}\" is not a valid id for {db}: {rule}.");
            if db == "gene" && looks_like_symbol(id) {
                message.push_str(&format!(
                    " To find a gene by symbol, search gene with term \"{id}[sym] AND human[orgn]\"."
                ));
            } else if db == "taxonomy" {
                message.push_str(&format!(
                    " To find a TaxID by name, search taxonomy with term \"{id}\"."
                ));
            }
            report.error(codes::INVALID_ID, at, message);
        }
        None => report.warn(
            codes::UNRECOGNIZED_ID,
            at,
            format!("\"{id}\" has no id shape this server knows for {db}; NCBI will decide whether it exists."),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Family::*;

    #[test]
    fn real_ids_are_classified() {
        assert_eq!(classify("19304878"), [Uid]);
        assert_eq!(classify("PMC7096066"), [Pmcid]);
        assert_eq!(classify("NM_000546.6"), [Nucleotide]);
        assert_eq!(classify("NM_123456"), [Nucleotide]);
        assert_eq!(classify("NP_000537.3"), [Protein]);
        assert_eq!(classify("WP_000001.1"), [Protein]);
        assert_eq!(classify("NC_000017.11"), [Nucleotide]);
        assert_eq!(classify("NZ_CP009257.1"), [Nucleotide]);
        assert_eq!(classify("U49845"), [Nucleotide]);
        assert_eq!(classify("AB123456.1"), [Nucleotide]);
        assert_eq!(classify("AAAA02000001"), [Nucleotide]);
        assert_eq!(classify("AAA12345.1"), [Protein]);
        assert_eq!(classify("P69905"), [Protein, Nucleotide]);
        assert_eq!(classify("A0A023GPI8"), [Protein]);
        assert_eq!(classify("4HHB"), [Pdb]);
        assert_eq!(classify("1ABC_A"), [Pdb]);
        assert_eq!(classify("GCF_000001405.40"), [Assembly]);
        assert_eq!(classify("SRR390728"), [Sra]);
        assert_eq!(classify("ERR1234567"), [Sra, Protein]);
        assert_eq!(classify("SAMN02604091"), [BioSample]);
        assert_eq!(classify("PRJNA257197"), [BioProject]);
        assert_eq!(classify("rs7412"), [Snp]);
        assert_eq!(classify("10.1038/nature12373"), [Doi]);
        assert!(classify("BRCA1").is_empty());
    }

    fn codes_for(db: &str, id: &str) -> Vec<&'static str> {
        let mut r = Report::default();
        check(&[(0, id.to_string())], "ids", db, None, &mut r);
        r.errors.iter().chain(&r.warnings).map(|f| f.code).collect()
    }

    #[test]
    fn families_meet_databases() {
        assert!(codes_for("protein", "NP_000537.3").is_empty());
        assert!(codes_for("nuccore", "NM_123456").is_empty());
        assert!(codes_for("protein", "P69905").is_empty());
        assert!(codes_for("pmc", "PMC7096066").is_empty());
        assert!(codes_for("pmc", "7096066").is_empty());
        assert_eq!(codes_for("pubmed", "NP_000537.3"), ["id_wrong_database"]);
        assert_eq!(codes_for("pubmed", "PMC7096066"), ["id_wrong_database"]);
        assert_eq!(codes_for("pubmed", "abc"), ["invalid_id"]);
        assert_eq!(codes_for("gene", "BRCA1"), ["invalid_id"]);
        assert_eq!(codes_for("nuccore", "CONTIG_X1"), ["unrecognized_id"]);
        assert_eq!(codes_for("pubmed", "-5"), ["invalid_id"]);
    }
}
