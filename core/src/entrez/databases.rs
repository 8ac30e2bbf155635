//! What this server knows of each Entrez database, in one table.
//!
//! NCBI's list of database names comes from its own EInfo reply (recorded
//! under `data/ncbi/`, read by [`crate::validation::databases`]). What this
//! server does differently per database lives here and nowhere else: the
//! other names NCBI accepts, the databases it retired (and what replaced
//! them), the GenBank form a sequence database is fetched in when the caller
//! names none, and the table layout a database is staged into. Validation,
//! request planning and staging all read these rows, so a database cannot be
//! a sequence database to one of them and not to another.

/// The layout a database's records are staged into (and so the form they are fetched in).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Staged {
    /// PubMed XML into article, author, mesh, … tables.
    Pubmed,
    /// PMC JATS XML into article-level tables.
    Pmc,
    /// Gene document summaries into gene tables.
    Gene,
    /// GBSeq XML into sequence and feature tables.
    Sequence,
    /// Taxonomy XML into taxon tables.
    Taxonomy,
    /// Any other database: its document summaries as records and fields.
    Generic,
}

/// One database this server treats in its own way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Database {
    /// The `db` value.
    pub name: &'static str,
    /// For sequence databases (NBK25499 Table 1's GenBank rows): the rettype sent when none is named.
    pub genbank_rettype: Option<&'static str>,
    /// How `entrez_data` stages it.
    pub staged: Staged,
}

const fn db(name: &'static str, genbank_rettype: Option<&'static str>, staged: Staged) -> Database {
    Database {
        name,
        genbank_rettype,
        staged,
    }
}

/// The databases with their own handling; every other database is fetched as asked and staged generically.
pub const DATABASES: &[Database] = &[
    db("pubmed", None, Staged::Pubmed),
    db("pmc", None, Staged::Pmc),
    db("gene", None, Staged::Gene),
    db("protein", Some("gp"), Staged::Sequence),
    db("nuccore", Some("gb"), Staged::Sequence),
    // PopSet: GenBank records of population studies (EFetch's table lists it with nuccore).
    db("popset", Some("gb"), Staged::Generic),
    db("taxonomy", None, Staged::Taxonomy),
];

/// Other names NCBI accepts for a database: (alias, database whose rules apply).
///
/// EInfo lists `nucleotide` beside `nuccore`; the E-utilities documentation
/// treats it as the same sequence database (EFetch's db list, NBK25499).
pub const ALIASES: &[(&str, &str)] = &[("nucleotide", "nuccore")];

/// Databases NCBI serves that the recorded EInfo list omits, each with where NCBI documents it.
///
/// `popset`: EFetch's table (NBK25499 Table 1) and NCBI's own sample
/// `efetch.fcgi?db=popset&id=12829836&rettype=gp`; PubMed's einfo links to it
/// (`pubmed_popset`).
pub const UNLISTED: &[&str] = &["popset"];

/// Databases EFetch accepts that EInfo does not list.
///
/// `sequences` is the composite of nuccore, protein and popset that NBK25499
/// Table 1 documents for EFetch only.
pub const FETCH_ONLY: &[&str] = &["sequences"];

/// Names people use for NCBI resources that are not db values, and the db value meant.
///
/// These are never accepted, only offered as the did-you-mean.
pub const COMMON_NAMES: &[(&str, &str)] = &[
    ("dbsnp", "snp"),
    ("geo", "gds"),
    ("genbank", "nuccore"),
    ("refseq", "nuccore"),
    ("dbgap", "gap"),
    ("pubchem", "pccompound"),
    ("compound", "pccompound"),
    ("substance", "pcsubstance"),
    ("bioassay", "pcassay"),
    ("pubmedcentral", "pmc"),
    ("taxon", "taxonomy"),
    ("mmdb", "structure"),
    ("pdb", "structure"),
];

/// The sequence databases (NBK25499 Table 1 groups their EFetch formats): the rows with a
/// GenBank form, written out for the format table's `const` rows.
pub const SEQUENCE: &[&str] = &["nuccore", "protein", "popset"];

/// A database NCBI has retired, with what to use instead.
#[derive(Debug, Clone, Copy)]
pub struct Retired {
    /// The old db value.
    pub name: &'static str,
    /// When NCBI retired it, as NCBI announced it.
    pub when: &'static str,
    /// The database that now holds its records or their successors.
    pub replacement: &'static str,
    /// What moved where, in a few words.
    pub note: &'static str,
}

/// Retired databases, each from an NCBI announcement (NCBI Insights).
pub const RETIRED: &[Retired] = &[
    // "NCBI to Retire the UniGene Database", NCBI Insights, 2019.
    Retired {
        name: "unigene",
        when: "July 2019",
        replacement: "gene",
        note: "UniGene clusters now redirect to Gene records",
    },
    // HomoloGene retired January 2024; orthologs moved to NCBI Gene / Datasets.
    Retired {
        name: "homologene",
        when: "January 2024",
        replacement: "gene",
        note: "ortholog groups are now NCBI Orthologs, reached through Gene",
    },
    // "Upcoming Changes to EST and GSS Databases", NCBI Insights, 2018-07-30.
    Retired {
        name: "nucest",
        when: "December 2018",
        replacement: "nuccore",
        note: "EST records were merged into Nucleotide",
    },
    Retired {
        name: "nucgss",
        when: "December 2018",
        replacement: "nuccore",
        note: "GSS records were merged into Nucleotide",
    },
];

/// The database whose rules apply to `db` (lower case): aliases resolved.
pub fn canonical(db: &str) -> &str {
    ALIASES
        .iter()
        .find(|(alias, _)| *alias == db)
        .map(|(_, to)| *to)
        .unwrap_or(db)
}

/// The row of `db` (lower case, aliases resolved), when it has its own handling.
pub fn row(db: &str) -> Option<&'static Database> {
    let name = canonical(db);
    DATABASES.iter().find(|d| d.name == name)
}

/// The staging layout of `db`.
pub fn staged(db: &str) -> Staged {
    row(db).map(|d| d.staged).unwrap_or(Staged::Generic)
}

/// The GenBank rettype of a sequence database; `None` for every other database.
pub fn genbank_rettype(db: &str) -> Option<&'static str> {
    row(db).and_then(|d| d.genbank_rettype)
}

/// The databases `global_query` counts a term in when none are named: the literature, the
/// most used sequence, gene, variation and chemistry databases.
pub const GLOBAL_QUERY: &[&str] = &[
    "pubmed",
    "pmc",
    "books",
    "mesh",
    "gene",
    "protein",
    "nuccore",
    "structure",
    "taxonomy",
    "snp",
    "clinvar",
    "biosample",
    "bioproject",
    "sra",
    "assembly",
    "pccompound",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_and_retired_names_have_no_row_of_their_own() {
        for (alias, to) in ALIASES {
            assert!(DATABASES.iter().all(|d| d.name != *alias));
            assert_eq!(row(alias), row(to));
        }
        for r in RETIRED {
            assert!(row(r.name).is_none(), "{} is retired", r.name);
        }
    }

    #[test]
    fn the_sequence_list_is_the_genbank_rows() {
        let mut genbank: Vec<&str> = DATABASES
            .iter()
            .filter(|d| d.genbank_rettype.is_some())
            .map(|d| d.name)
            .collect();
        let mut listed = SEQUENCE.to_vec();
        genbank.sort_unstable();
        listed.sort_unstable();
        assert_eq!(genbank, listed);
    }

    #[test]
    fn sequence_databases_are_the_genbank_ones() {
        assert_eq!(genbank_rettype("nucleotide"), Some("gb"));
        assert_eq!(genbank_rettype("protein"), Some("gp"));
        assert_eq!(genbank_rettype("popset"), Some("gb"));
        assert_eq!(genbank_rettype("nucest"), None);
        assert_eq!(genbank_rettype("pubmed"), None);
        assert_eq!(staged("nucleotide"), Staged::Sequence);
        assert_eq!(staged("snp"), Staged::Generic);
    }
}
