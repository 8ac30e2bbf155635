//! Molecular layouts: Gene summaries, sequences, Taxonomy, and the generic fallback.

use crate::staging::layouts::{fk, ix};
use crate::staging::schema::ColumnType::{Integer, Text};
use crate::staging::schema::{opt, req, Example, Layout, Table};

/// Gene summaries from `esummary db=gene`.
pub const GENE: Layout = Layout {
    name: "gene",
    doc: "Gene summaries (esummary): one gene row per Gene id with aliases and genomic locations.",
    primary: "gene",
    tables: &[
        Table {
            name: "gene",
            doc: "One Gene record's summary.",
            columns: &[
                req("gene_id", Integer, "NCBI Gene id."),
                opt("symbol", Text, "Gene symbol (Name), e.g. 'BRCA1'."),
                opt("description", Text, "Full name, e.g. 'BRCA1 DNA repair associated'."),
                opt("organism", Text, "Scientific name of the organism."),
                opt("common_name", Text, "Organism's common name."),
                opt("taxid", Integer, "Taxonomy id."),
                opt("chromosome", Text, "Chromosome."),
                opt("map_location", Text, "Cytogenetic location, e.g. '17q21.31'."),
                opt("summary", Text, "RefSeq summary text."),
                opt("other_aliases", Text, "Aliases as NCBI lists them."),
                opt("other_designations", Text, "Other names, '|'-separated as NCBI lists them."),
                opt("nomenclature_symbol", Text, "Official symbol."),
                opt("nomenclature_name", Text, "Official name."),
                opt("nomenclature_status", Text, "e.g. 'Official'."),
                opt("mim", Text, "OMIM ids, '; '-separated."),
                opt("status", Text, "Record status code (0 = live)."),
                opt("current_id", Integer, "Replacing Gene id when this one was merged; 0 otherwise."),
            ],
            primary_key: &["gene_id"],
            foreign_keys: &[],
            indexes: &[ix("gene_symbol", &["symbol"])],
        },
        Table {
            name: "gene_alias",
            doc: "One alias of a gene.",
            columns: &[
                req("gene_id", Integer, "Gene id."),
                req("position", Integer, "1-based order."),
                req("alias", Text, "Alias."),
            ],
            primary_key: &["gene_id", "position"],
            foreign_keys: &[fk(&["gene_id"], "gene", &["gene_id"])],
            indexes: &[ix("gene_alias_alias", &["alias"])],
        },
        Table {
            name: "genomic_location",
            doc: "One placement of a gene on an assembly sequence.",
            columns: &[
                req("gene_id", Integer, "Gene id."),
                req("position", Integer, "1-based order."),
                opt("chr_loc", Text, "Chromosome."),
                opt("chr_acc_ver", Text, "Sequence accession.version, e.g. 'NC_000017.11'."),
                opt("chr_start", Integer, "Start (0-based, as NCBI gives it)."),
                opt("chr_stop", Integer, "Stop (0-based; less than start on the minus strand)."),
                opt("exon_count", Integer, "Number of exons."),
            ],
            primary_key: &["gene_id", "position"],
            foreign_keys: &[fk(&["gene_id"], "gene", &["gene_id"])],
            indexes: &[],
        },
    ],
    examples: &[
        Example {
            title: "Genes per organism",
            sql: "SELECT organism, COUNT(*) AS genes FROM gene GROUP BY organism ORDER BY genes DESC",
        },
        Example {
            title: "Genes per chromosome",
            sql: "SELECT chromosome, COUNT(*) AS genes FROM gene GROUP BY chromosome ORDER BY genes DESC",
        },
        Example {
            title: "Genomic locations with exon counts",
            sql: "SELECT g.symbol, l.chr_acc_ver, l.chr_start, l.chr_stop, l.exon_count FROM gene g JOIN genomic_location l ON l.gene_id = g.gene_id ORDER BY g.symbol LIMIT 50",
        },
    ],
};

/// GenBank/GenPept records from `efetch db=nuccore|protein rettype=gb|gp retmode=xml`.
pub const SEQUENCE: Layout = Layout {
    name: "sequence",
    doc: "Sequence records (GBSeq XML): one sequence row per accession with its features, feature qualifiers and references.",
    primary: "sequence",
    tables: &[
        Table {
            name: "sequence",
            doc: "One nucleotide or protein record.",
            columns: &[
                req("accession", Text, "Accession without version, e.g. 'NC_005816'."),
                opt("version", Integer, "Sequence version."),
                req("accession_version", Text, "Accession.version, e.g. 'NC_005816.1'."),
                opt("locus", Text, "LOCUS name."),
                req("length", Integer, "Length in bases or residues."),
                opt("moltype", Text, "Molecule type, e.g. 'DNA', 'mRNA', 'AA'."),
                opt("topology", Text, "'linear' or 'circular'."),
                opt("division", Text, "GenBank division, e.g. 'BCT'."),
                opt("organism", Text, "Source organism."),
                opt("taxid", Integer, "Taxonomy id."),
                opt("lineage", Text, "Lineage, ';'-separated."),
                opt("definition", Text, "Definition line."),
                opt("create_date", Text, "Creation date, e.g. '10-MAY-2004'."),
                opt("update_date", Text, "Last update date."),
                opt("sequence", Text, "Residues; NULL unless staged with include_sequence."),
            ],
            primary_key: &["accession"],
            foreign_keys: &[],
            indexes: &[ix("sequence_taxid", &["taxid"])],
        },
        Table {
            name: "feature",
            doc: "One feature-table entry.",
            columns: &[
                req("accession", Text, "Accession of the record."),
                req("position", Integer, "1-based order in the feature table."),
                req("key", Text, "Feature key, e.g. 'CDS', 'gene', 'source'."),
                req("location", Text, "INSDC location, e.g. 'complement(4815..5888)'."),
                opt("gene", Text, "The /gene qualifier."),
                opt("product", Text, "The /product qualifier."),
                opt("locus_tag", Text, "The /locus_tag qualifier."),
                opt("protein_id", Text, "The /protein_id qualifier."),
            ],
            primary_key: &["accession", "position"],
            foreign_keys: &[fk(&["accession"], "sequence", &["accession"])],
            indexes: &[ix("feature_key", &["key"])],
        },
        Table {
            name: "feature_qualifier",
            doc: "One qualifier of one feature; repeated names stay repeated.",
            columns: &[
                req("accession", Text, "Accession of the record."),
                req("feature_position", Integer, "The feature's position (feature.position)."),
                req("position", Integer, "1-based order within the feature."),
                req("name", Text, "Qualifier name, e.g. 'db_xref'."),
                req("value", Text, "Value; '' for valueless qualifiers."),
            ],
            primary_key: &["accession", "feature_position", "position"],
            foreign_keys: &[fk(
                &["accession", "feature_position"],
                "feature",
                &["accession", "position"],
            )],
            indexes: &[],
        },
        Table {
            name: "sequence_reference",
            doc: "One literature reference of a record.",
            columns: &[
                req("accession", Text, "Accession of the record."),
                req("position", Integer, "1-based order."),
                opt("title", Text, "Title."),
                opt("journal", Text, "Journal citation or submission note."),
                opt("authors", Text, "Authors as written, '; '-separated."),
                opt("pmid", Integer, "PubMed id."),
                opt("doi", Text, "DOI."),
            ],
            primary_key: &["accession", "position"],
            foreign_keys: &[fk(&["accession"], "sequence", &["accession"])],
            indexes: &[],
        },
    ],
    examples: &[
        Example {
            title: "Records and residues per organism",
            sql: "SELECT organism, COUNT(*) AS records, SUM(length) AS residues FROM sequence GROUP BY organism ORDER BY records DESC",
        },
        Example {
            title: "Feature types",
            sql: "SELECT key, COUNT(*) AS features FROM feature GROUP BY key ORDER BY features DESC",
        },
        Example {
            title: "Coding sequences and their products",
            sql: "SELECT s.accession_version, f.gene, f.product, f.location FROM feature f JOIN sequence s ON s.accession = f.accession WHERE f.key = 'CDS' LIMIT 50",
        },
    ],
};

/// Taxa from `efetch db=taxonomy`.
pub const TAXONOMY: Layout = Layout {
    name: "taxonomy",
    doc: "Taxonomy records (efetch XML): one taxon row per taxid with its full lineage as rows.",
    primary: "taxon",
    tables: &[
        Table {
            name: "taxon",
            doc: "One taxon.",
            columns: &[
                req("taxid", Integer, "Taxonomy id."),
                req("name", Text, "Scientific name."),
                opt("common_name", Text, "GenBank common name."),
                opt("rank", Text, "Rank, e.g. 'species' or 'no rank'."),
                opt("parent_taxid", Integer, "Parent's taxid."),
                opt("division", Text, "GenBank division, e.g. 'Mammals'."),
                req("lineage", Text, "Ancestors' names from the root down, '; '-separated."),
                opt("genetic_code", Integer, "Nuclear genetic code id."),
                opt("mito_genetic_code", Integer, "Mitochondrial genetic code id."),
            ],
            primary_key: &["taxid"],
            foreign_keys: &[],
            indexes: &[ix("taxon_parent", &["parent_taxid"])],
        },
        Table {
            name: "taxon_lineage",
            doc: "One ancestor of a taxon, from the root down.",
            columns: &[
                req("taxid", Integer, "The taxon."),
                req("position", Integer, "1-based depth from the root."),
                req("ancestor_taxid", Integer, "The ancestor's taxid."),
                req("ancestor_name", Text, "The ancestor's scientific name."),
                opt("ancestor_rank", Text, "The ancestor's rank."),
            ],
            primary_key: &["taxid", "position"],
            foreign_keys: &[fk(&["taxid"], "taxon", &["taxid"])],
            indexes: &[ix("taxon_lineage_ancestor", &["ancestor_taxid"])],
        },
    ],
    examples: &[
        Example {
            title: "Taxa per rank",
            sql: "SELECT rank, COUNT(*) AS taxa FROM taxon GROUP BY rank ORDER BY taxa DESC",
        },
        Example {
            title: "Each taxon's lineage in order",
            sql: "SELECT t.name, l.position, l.ancestor_name, l.ancestor_rank FROM taxon t JOIN taxon_lineage l ON l.taxid = t.taxid ORDER BY t.taxid, l.position LIMIT 100",
        },
        Example {
            title: "Taxa per family",
            sql: "SELECT ancestor_name AS family, COUNT(*) AS taxa FROM taxon_lineage WHERE ancestor_rank = 'family' GROUP BY ancestor_name ORDER BY taxa DESC",
        },
    ],
};

/// Any other database: esummary documents.
pub const GENERIC: Layout = Layout {
    name: "generic",
    doc: "Any database without a layout of its own (esummary): one record row per UID holding the whole document summary as JSON, and its top-level text and number fields as name/value rows.",
    primary: "record",
    tables: &[
        Table {
            name: "record",
            doc: "One document summary.",
            columns: &[
                req("uid", Text, "Entrez UID."),
                opt("title", Text, "The summary's title (Title, Name, Description... whichever it has)."),
                req("json", Text, "Every summary field as a JSON object; use json_extract(json, '$.Field')."),
            ],
            primary_key: &["uid"],
            foreign_keys: &[],
            indexes: &[],
        },
        Table {
            name: "record_field",
            doc: "One top-level text or number field of a summary.",
            columns: &[
                req("uid", Text, "Entrez UID."),
                req("name", Text, "Field name as NCBI spells it."),
                req("value", Text, "Field value as text."),
            ],
            primary_key: &["uid", "name"],
            foreign_keys: &[fk(&["uid"], "record", &["uid"])],
            indexes: &[ix("record_field_name", &["name"])],
        },
    ],
    examples: &[
        Example {
            title: "Records and their titles",
            sql: "SELECT uid, title FROM record ORDER BY uid LIMIT 50",
        },
        Example {
            title: "Top-level JSON keys and how many records have each",
            sql: "SELECT j.key, COUNT(*) AS records FROM record r, json_each(r.json) AS j GROUP BY j.key ORDER BY records DESC",
        },
        Example {
            title: "The most common field across records",
            sql: "SELECT r.uid, r.title, f.name, f.value FROM record r JOIN record_field f ON f.uid = r.uid WHERE f.name = (SELECT name FROM record_field GROUP BY name ORDER BY COUNT(*) DESC LIMIT 1) LIMIT 50",
        },
    ],
};
