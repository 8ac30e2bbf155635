//! PUG REST's documented URL grammar, as tables.
//!
//! PubChem documents every request as `<domain>/<namespace>/<identifiers>/<operation>/<output>?<options>`
//! ("PUG REST", pubchem.ncbi.nlm.nih.gov/docs/pug-rest; the tutorial adds the gene, protein,
//! pathway, taxonomy and cell examples). These tables are that documentation as data: each
//! domain's namespaces and identifiers, operations and output formats, every option with its
//! type. The request reader, the semantic checks and the URL builder all read them, so what
//! is accepted, what is checked and what is sent cannot drift apart.

/// What follows a namespace in the path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ids {
    /// A comma-separated list (CIDs, SIDs, AIDs, gene ids, accessions, …).
    List,
    /// Positive integers only, comma-separated (cid, sid, aid, geneid, taxid).
    Numbers,
    /// Exactly one value (a name, a structure, a key, a synonym).
    One,
    /// Two numbers: a mass range's low and high bound.
    Range,
    /// A depositor name (the `source` argument) and then one of its ids (`sourceid`).
    SourceAndId,
    /// A depositor name alone (`sourceall`).
    Source,
    /// Nothing (`sources/substance`, `annotations/headings`).
    Nothing,
}

/// One namespace of a domain: its path (with the second segment for two-part namespaces).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Namespace {
    /// The domain it belongs to.
    pub domain: &'static str,
    /// The first path segment (`cid`, `fastsubstructure`, `xref`, `molecular_weight`).
    pub name: &'static str,
    /// The allowed second segments (`smiles`, `PatentID`, `range`); empty when there is none.
    pub second: &'static [&'static str],
    /// What identifiers follow.
    pub ids: Ids,
    /// Whether the request is asynchronous: PubChem answers with a ListKey to poll (S, Asynchronous Inputs).
    pub asynchronous: bool,
}

const STRUCTURE_INPUTS: &[&str] = &["smiles", "smarts", "inchi", "sdf", "cid"];
const ASYNC_STRUCTURE_INPUTS: &[&str] = &["smiles", "inchi", "sdf", "cid"];
/// The `xref/<type>` input types (S, Input); the `xrefs` operation has four more (see [`XREF_TYPES`]).
pub const XREF_INPUT_TYPES: &[&str] = &[
    "RegistryID",
    "RN",
    "PubMedID",
    "MMDBID",
    "ProteinGI",
    "NucleotideGI",
    "TaxonomyID",
    "MIMID",
    "GeneID",
    "ProbeID",
    "PatentID",
];
const MASS: &[&str] = &["equals", "range"];
const SOURCE_DOMAINS: &[&str] = &["substance", "assay"];
/// The assay types of `assay/type/<type>` (S, Input).
pub const ASSAY_TYPES: &[&str] = &[
    "all",
    "confirmatory",
    "doseresponse",
    "onhold",
    "panel",
    "rnai",
    "screening",
    "summary",
    "cellbased",
    "biochemical",
    "invivo",
    "invitro",
    "activeconcentrationspecified",
];

const fn ns(domain: &'static str, name: &'static str, ids: Ids) -> Namespace {
    Namespace {
        domain,
        name,
        second: &[],
        ids,
        asynchronous: false,
    }
}

const fn ns2(
    domain: &'static str,
    name: &'static str,
    second: &'static [&'static str],
    ids: Ids,
    asynchronous: bool,
) -> Namespace {
    Namespace {
        domain,
        name,
        second,
        ids,
        asynchronous,
    }
}

/// Every documented namespace, domain by domain (S, Input; T, the per-domain "Access to" sections).
pub const NAMESPACES: &[Namespace] = &[
    ns("compound", "cid", Ids::Numbers),
    ns("compound", "name", Ids::One),
    ns("compound", "smiles", Ids::One),
    ns("compound", "inchi", Ids::One),
    ns("compound", "sdf", Ids::One),
    ns("compound", "inchikey", Ids::List),
    ns2("compound", "formula", &[], Ids::One, true),
    ns("compound", "fastformula", Ids::One),
    ns("compound", "listkey", Ids::One),
    ns2(
        "compound",
        "fastidentity",
        STRUCTURE_INPUTS,
        Ids::One,
        false,
    ),
    ns2(
        "compound",
        "fastsimilarity_2d",
        STRUCTURE_INPUTS,
        Ids::One,
        false,
    ),
    ns2(
        "compound",
        "fastsimilarity_3d",
        STRUCTURE_INPUTS,
        Ids::One,
        false,
    ),
    ns2(
        "compound",
        "fastsubstructure",
        STRUCTURE_INPUTS,
        Ids::One,
        false,
    ),
    ns2(
        "compound",
        "fastsuperstructure",
        STRUCTURE_INPUTS,
        Ids::One,
        false,
    ),
    ns2(
        "compound",
        "substructure",
        ASYNC_STRUCTURE_INPUTS,
        Ids::One,
        true,
    ),
    ns2(
        "compound",
        "superstructure",
        ASYNC_STRUCTURE_INPUTS,
        Ids::One,
        true,
    ),
    ns2(
        "compound",
        "similarity",
        ASYNC_STRUCTURE_INPUTS,
        Ids::One,
        true,
    ),
    ns2(
        "compound",
        "similarity_2d",
        ASYNC_STRUCTURE_INPUTS,
        Ids::One,
        true,
    ),
    ns2(
        "compound",
        "similarity_3d",
        ASYNC_STRUCTURE_INPUTS,
        Ids::One,
        true,
    ),
    ns2(
        "compound",
        "identity",
        ASYNC_STRUCTURE_INPUTS,
        Ids::One,
        true,
    ),
    ns2("compound", "xref", XREF_INPUT_TYPES, Ids::One, false),
    ns2("compound", "molecular_weight", MASS, Ids::Range, false),
    ns2("compound", "exact_mass", MASS, Ids::Range, false),
    ns2("compound", "monoisotopic_mass", MASS, Ids::Range, false),
    ns("substance", "sid", Ids::Numbers),
    ns("substance", "sourceid", Ids::SourceAndId),
    ns("substance", "sourceall", Ids::Source),
    ns("substance", "name", Ids::One),
    ns2("substance", "xref", XREF_INPUT_TYPES, Ids::One, false),
    ns("substance", "listkey", Ids::One),
    ns("assay", "aid", Ids::Numbers),
    ns("assay", "listkey", Ids::One),
    ns("assay", "type", Ids::One),
    ns("assay", "sourceall", Ids::Source),
    ns2(
        "assay",
        "target",
        &["gi", "proteinname", "geneid", "genesymbol", "accession"],
        Ids::One,
        false,
    ),
    ns("assay", "activity", Ids::One),
    ns("gene", "geneid", Ids::Numbers),
    ns("gene", "genesymbol", Ids::One),
    ns("gene", "synonym", Ids::One),
    ns("protein", "accession", Ids::List),
    ns("protein", "gi", Ids::Numbers),
    ns("protein", "synonym", Ids::One),
    ns("pathway", "pwacc", Ids::List),
    ns("taxonomy", "taxid", Ids::Numbers),
    ns("taxonomy", "synonym", Ids::One),
    ns("cell", "cellacc", Ids::List),
    ns("cell", "synonym", Ids::One),
    ns2("sources", "", SOURCE_DOMAINS, Ids::Nothing, false),
    ns2("sourcetable", "", SOURCE_DOMAINS, Ids::Nothing, false),
    ns("classification", "hnid", Ids::One),
    ns("standardize", "smiles", Ids::One),
    ns("standardize", "inchi", Ids::One),
    ns("standardize", "sdf", Ids::One),
    ns("annotations", "headings", Ids::Nothing),
    ns("annotations", "heading", Ids::One),
    ns("annotations", "sourcename", Ids::One),
    ns("conformers", "", Ids::One),
    ns("periodictable", "", Ids::Nothing),
];

/// The domains, in the documentation's order.
pub const DOMAINS: &[&str] = &[
    "compound",
    "substance",
    "assay",
    "gene",
    "protein",
    "pathway",
    "taxonomy",
    "cell",
    "sources",
    "sourcetable",
    "conformers",
    "annotations",
    "classification",
    "standardize",
    "periodictable",
];

/// The namespaces of `domain`.
pub fn namespaces(domain: &str) -> impl Iterator<Item = &'static Namespace> + '_ {
    NAMESPACES.iter().filter(move |n| n.domain == domain)
}

/// The namespace row for `domain` and a namespace's first segment.
pub fn namespace(domain: &str, name: &str) -> Option<&'static Namespace> {
    namespaces(domain).find(|n| n.name.eq_ignore_ascii_case(name))
}

/// The namespaces of `domain` as written in a call (`fastsubstructure/smiles`), for messages.
pub fn namespace_names(domain: &str) -> Vec<String> {
    namespaces(domain)
        .flat_map(|n| {
            if n.second.is_empty() {
                vec![n.name.to_string()]
            } else if n.name.is_empty() {
                n.second.iter().map(|s| s.to_string()).collect()
            } else {
                n.second
                    .iter()
                    .map(|s| format!("{}/{s}", n.name))
                    .collect::<Vec<_>>()
            }
        })
        .collect()
}

/// An output format (S, Output).
pub const OUTPUTS: &[&str] = &[
    "XML", "ASNT", "ASNB", "JSON", "JSONP", "SDF", "CSV", "PNG", "TXT",
];

/// What an operation takes after its name (`property/<list>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tail {
    /// Nothing.
    None,
    /// A comma-separated list from a table ([`PROPERTIES`], [`XREF_TYPES`], [`TARGET_TYPES`]).
    List(&'static [&'static str]),
    /// An optional `/sid` (assay `doseresponse/sid`, in the grammar only).
    OptionalSid,
}

/// One operation of a domain, with the output formats PubChem documents for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Operation {
    /// The domains that offer it.
    pub domains: &'static [&'static str],
    /// The operation's path segment; "" is full-record retrieval (no operation in the path).
    pub name: &'static str,
    /// What follows it.
    pub tail: Tail,
    /// Formats besides XML, JSON, JSONP, ASNT and ASNB, which every operation offers.
    pub more_outputs: &'static [&'static str],
}

const RECORDS: &[&str] = &["compound", "substance"];
const CSA: &[&str] = &["compound", "substance", "assay"];
const GENE_PROTEIN: &[&str] = &["gene", "protein"];

const fn op(
    domains: &'static [&'static str],
    name: &'static str,
    tail: Tail,
    more_outputs: &'static [&'static str],
) -> Operation {
    Operation {
        domains,
        name,
        tail,
        more_outputs,
    }
}

/// Every documented operation (S, Operation and its sections; T, Access to PubChem Genes…Cell Lines).
pub const OPERATIONS: &[Operation] = &[
    op(RECORDS, "", Tail::None, &["SDF", "PNG"]),
    op(&["assay"], "", Tail::None, &["CSV"]),
    op(RECORDS, "record", Tail::None, &["SDF", "PNG"]),
    op(&["assay"], "record", Tail::None, &["CSV"]),
    op(
        &["compound"],
        "property",
        Tail::List(PROPERTIES),
        &["CSV", "TXT"],
    ),
    op(RECORDS, "synonyms", Tail::None, &["TXT"]),
    op(CSA, "sids", Tail::None, &["TXT"]),
    op(CSA, "cids", Tail::None, &["TXT"]),
    op(CSA, "aids", Tail::None, &["TXT"]),
    op(RECORDS, "assaysummary", Tail::None, &["CSV"]),
    op(CSA, "classification", Tail::None, &[]),
    op(RECORDS, "xrefs", Tail::List(XREF_TYPES), &["TXT"]),
    op(CSA, "description", Tail::None, &[]),
    op(&["compound"], "conformers", Tail::None, &["TXT"]),
    op(CSA, "dates", Tail::None, &[]),
    op(&["assay"], "concise", Tail::None, &["CSV"]),
    op(&["assay"], "summary", Tail::None, &[]),
    op(&["assay"], "targets", Tail::List(TARGET_TYPES), &["TXT"]),
    op(&["assay"], "doseresponse", Tail::OptionalSid, &["CSV"]),
    op(
        &["gene", "protein", "pathway", "taxonomy", "cell"],
        "summary",
        Tail::None,
        &[],
    ),
    op(
        &["gene", "protein", "taxonomy", "cell"],
        "aids",
        Tail::None,
        &["TXT"],
    ),
    op(GENE_PROTEIN, "concise", Tail::None, &["CSV"]),
    op(GENE_PROTEIN, "pwaccs", Tail::None, &["TXT"]),
    op(&["pathway"], "cids", Tail::None, &["TXT"]),
    op(&["pathway"], "geneids", Tail::None, &["TXT"]),
    op(&["pathway"], "accessions", Tail::None, &["TXT"]),
    // Special domains: no operation in the path.
    op(&["sources"], "", Tail::None, &[]),
    op(&["sourcetable"], "", Tail::None, &["CSV"]),
    op(&["conformers"], "", Tail::None, &["SDF"]),
    op(&["standardize"], "", Tail::None, &["SDF"]),
    op(&["periodictable"], "", Tail::None, &[]),
    op(&["annotations"], "", Tail::None, &[]),
    // classification/hnid/<n>/<id type>: the id type stands where an operation would.
    op(&["classification"], "", Tail::None, &["TXT"]),
];

/// The identifier types a classification node lists (S, Classification Nodes; plural accepted).
pub const CLASSIFICATION_ID_TYPES: &[&str] = &[
    "cid",
    "compound",
    "sid",
    "substance",
    "aid",
    "bioassay",
    "patent",
    "pmid",
    "pubmedid",
    "doi",
    "gene",
    "geneid",
    "protein",
    "taxonomy",
    "taxonomyid",
    "pathway",
    "pathwayid",
    "disease",
    "diseaseid",
    "cell",
    "cellid",
];

/// Whether `name` is a classification node's identifier type (any case, singular or plural).
pub fn is_classification_id_type(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let singular = lower.strip_suffix('s').unwrap_or(&lower);
    CLASSIFICATION_ID_TYPES
        .iter()
        .any(|t| *t == lower || *t == singular)
}

/// The operation row for `domain` and an operation name ("" for none).
pub fn operation(domain: &str, name: &str) -> Option<&'static Operation> {
    OPERATIONS
        .iter()
        .find(|o| o.domains.contains(&domain) && o.name.eq_ignore_ascii_case(name))
}

/// The operations `domain` offers, for messages (`record` stands for the full record).
pub fn operation_names(domain: &str) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = OPERATIONS
        .iter()
        .filter(|o| o.domains.contains(&domain) && !o.name.is_empty())
        .map(|o| o.name)
        .collect();
    out.dedup();
    out
}

/// Whether `output` is documented for `operation`.
pub fn output_allowed(operation: &Operation, output: &str) -> bool {
    matches!(output, "XML" | "JSON" | "JSONP" | "ASNT" | "ASNB")
        || operation.more_outputs.contains(&output)
}

/// Compound property tags (S, Compound Property Tables), with the two names PubChem retired in 2025.
pub const PROPERTIES: &[&str] = &[
    "MolecularFormula",
    "MolecularWeight",
    "SMILES",
    "ConnectivitySMILES",
    "CanonicalSMILES",
    "IsomericSMILES",
    "InChI",
    "InChIKey",
    "IUPACName",
    "Title",
    "XLogP",
    "ExactMass",
    "MonoisotopicMass",
    "TPSA",
    "Complexity",
    "Charge",
    "HBondDonorCount",
    "HBondAcceptorCount",
    "RotatableBondCount",
    "HeavyAtomCount",
    "IsotopeAtomCount",
    "AtomStereoCount",
    "DefinedAtomStereoCount",
    "UndefinedAtomStereoCount",
    "BondStereoCount",
    "DefinedBondStereoCount",
    "UndefinedBondStereoCount",
    "CovalentUnitCount",
    "PatentCount",
    "PatentFamilyCount",
    "LiteratureCount",
    "AnnotationTypes",
    "AnnotationTypeCount",
    "SourceCategories",
    "Volume3D",
    "XStericQuadrupole3D",
    "YStericQuadrupole3D",
    "ZStericQuadrupole3D",
    "FeatureCount3D",
    "FeatureAcceptorCount3D",
    "FeatureDonorCount3D",
    "FeatureAnionCount3D",
    "FeatureCationCount3D",
    "FeatureRingCount3D",
    "FeatureHydrophobeCount3D",
    "ConformerModelRMSD3D",
    "EffectiveRotorCount3D",
    "ConformerCount3D",
    "Fingerprint2D",
];

/// The `xrefs` operation's types (S, XRefs).
pub const XREF_TYPES: &[&str] = &[
    "RegistryID",
    "RN",
    "PubMedID",
    "MMDBID",
    "DBURL",
    "SBURL",
    "ProteinGI",
    "NucleotideGI",
    "TaxonomyID",
    "MIMID",
    "GeneID",
    "ProbeID",
    "PatentID",
    "SourceName",
    "SourceCategory",
];

/// The assay `targets` operation's types (S, Assay Targets).
pub const TARGET_TYPES: &[&str] = &["ProteinGI", "ProteinName", "GeneID", "GeneSymbol"];

/// The documented name matching `name` without regard to case.
pub fn canonical_list_item(table: &[&'static str], item: &str) -> Option<&'static str> {
    table
        .iter()
        .find(|t| t.eq_ignore_ascii_case(item.trim()))
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_namespace_and_operation_names_a_documented_domain() {
        for n in NAMESPACES {
            assert!(DOMAINS.contains(&n.domain), "{}", n.domain);
        }
        for o in OPERATIONS {
            for d in o.domains {
                assert!(DOMAINS.contains(d), "{d}");
            }
            for f in o.more_outputs {
                assert!(OUTPUTS.contains(f), "{f}");
            }
        }
        for d in DOMAINS {
            assert!(namespaces(d).next().is_some(), "{d} has no namespace row");
        }
    }

    #[test]
    fn lookups_follow_the_documentation() {
        assert_eq!(namespace("compound", "CID").unwrap().ids, Ids::Numbers);
        assert!(namespace("compound", "substructure").unwrap().asynchronous);
        assert!(
            !namespace("compound", "fastsubstructure")
                .unwrap()
                .asynchronous
        );
        assert!(namespace("assay", "smiles").is_none());
        assert!(operation("compound", "property").is_some());
        assert!(operation("substance", "property").is_none());
        let png = operation("compound", "").unwrap();
        assert!(output_allowed(png, "PNG") && output_allowed(png, "SDF"));
        assert!(!output_allowed(
            operation("compound", "cids").unwrap(),
            "PNG"
        ));
        assert!(is_classification_id_type("Patents") && is_classification_id_type("cids"));
        assert!(!is_classification_id_type("molecules"));
        assert!(namespace_names("compound").contains(&"fastsimilarity_2d/smiles".to_string()));
        assert_eq!(namespace_names("sources"), ["substance", "assay"]);
    }
}
