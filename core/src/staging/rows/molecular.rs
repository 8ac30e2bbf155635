//! Sequences, taxa and document summaries as rows of their layouts.
//!
//! Gene has no efetch XML worth parsing for a table (its ASN.1-derived XML is
//! enormous), so genes are staged from their esummary documents; every other
//! database without a layout of its own is staged from esummary as well, into
//! the generic layout. Summary fields are looked up without regard to case
//! because NCBI spells them `Name` in XML and `name` in JSON.

use crate::parse::esummary::headline::get;
use crate::parse::esummary::{headline, DocSummary};
use crate::parse::sequence::SequenceRecord;
use crate::parse::taxonomy::Taxon;
use crate::staging::layouts::{GENE, SEQUENCE, TAXONOMY};
use crate::staging::rows::literature::position;
use crate::staging::rows::{joined, RowBatch, SqlValue};
use crate::staging::schema::Layout;
use serde_json::{Map, Value};
use SqlValue::{Null, Text};

/// Rows of the `sequence` layout; residues are kept only when `include_sequence`.
pub fn sequences(records: Vec<SequenceRecord>, include_sequence: bool) -> RowBatch {
    let mut b = RowBatch::new(&SEQUENCE);
    b.records = records.len();
    for r in records {
        if r.accession.trim().is_empty() {
            b.skipped.push(format!(
                "a sequence record ({:?}) has no accession",
                r.definition.unwrap_or_default()
            ));
            continue;
        }
        let key = Text(r.accession);
        b.table(0).push([
            key.clone(),
            SqlValue::opt_int(r.version),
            Text(r.accession_version),
            SqlValue::opt_text(r.locus),
            SqlValue::opt_int(Some(r.length)),
            SqlValue::opt_text(r.moltype),
            SqlValue::opt_text(r.topology),
            SqlValue::opt_text(r.division),
            SqlValue::opt_text(r.organism),
            SqlValue::opt_int(r.taxid),
            SqlValue::opt_text(r.lineage),
            SqlValue::opt_text(r.definition),
            SqlValue::opt_text(r.create_date),
            SqlValue::opt_text(r.update_date),
            SqlValue::opt_text(r.sequence.filter(|_| include_sequence)),
        ]);
        for (i, f) in r.features.into_iter().enumerate() {
            let q = |name: &str| SqlValue::opt_text(f.qualifier(name).map(str::to_string));
            let (gene, product, tag, protein) =
                (q("gene"), q("product"), q("locus_tag"), q("protein_id"));
            b.table(1).push([
                key.clone(),
                position(i),
                Text(f.key),
                Text(f.location),
                gene,
                product,
                tag,
                protein,
            ]);
            for (j, (name, value)) in f.qualifiers.into_iter().enumerate() {
                b.table(2).push([
                    key.clone(),
                    position(i),
                    position(j),
                    Text(name),
                    Text(value),
                ]);
            }
        }
        for (i, r) in r.references.into_iter().enumerate() {
            let mut authors = r.authors;
            authors.extend(r.consortium);
            b.table(3).push([
                key.clone(),
                position(i),
                SqlValue::opt_text(r.title),
                SqlValue::opt_text(r.journal),
                SqlValue::opt_text(joined(&authors, "; ")),
                r.pubmed.as_deref().map_or(Null, SqlValue::id),
                SqlValue::opt_text(r.doi),
            ]);
        }
    }
    b
}

/// Rows of the `taxonomy` layout.
pub fn taxa(records: Vec<Taxon>) -> RowBatch {
    let mut b = RowBatch::new(&TAXONOMY);
    b.records = records.len();
    for t in records {
        let key = SqlValue::opt_int(Some(t.taxid));
        b.table(0).push([
            key.clone(),
            Text(t.scientific_name),
            SqlValue::opt_text(t.common_name),
            SqlValue::opt_text(t.rank),
            SqlValue::opt_int(t.parent_taxid),
            SqlValue::opt_text(t.division),
            Text(t.lineage),
            SqlValue::opt_int(t.genetic_code.map(|g| g.id)),
            SqlValue::opt_int(t.mito_genetic_code.map(|g| g.id)),
        ]);
        for (i, a) in t.lineage_ex.into_iter().enumerate() {
            b.table(1).push([
                key.clone(),
                position(i),
                SqlValue::opt_int(Some(a.taxid)),
                Text(a.name),
                SqlValue::opt_text(a.rank),
            ]);
        }
    }
    b
}

/// Rows for esummary documents: the `gene` layout, or the generic one for `layout`.
pub fn docsums(layout: &'static Layout, docs: Vec<DocSummary>) -> RowBatch {
    if layout.name == GENE.name {
        return genes(docs);
    }
    let mut b = RowBatch::new(layout);
    b.records = docs.len();
    for d in docs {
        if d.uid.trim().is_empty() {
            b.skipped.push("a document summary has no uid".to_string());
            continue;
        }
        let title = headline(&d).title;
        let uid = Text(d.uid.trim().to_string());
        for (name, value) in &d.fields {
            if let Some(v) = scalar(value) {
                b.table(1).push([uid.clone(), Text(name.clone()), Text(v)]);
            }
        }
        let json = Value::Object(d.fields).to_string();
        b.table(0)
            .push([uid, SqlValue::opt_text(title), Text(json)]);
    }
    b
}

fn genes(docs: Vec<DocSummary>) -> RowBatch {
    let mut b = RowBatch::new(&GENE);
    b.records = docs.len();
    for d in docs {
        let id = SqlValue::id(&d.uid);
        if !matches!(id, SqlValue::Integer(_)) {
            b.skipped
                .push(format!("gene summary uid {:?} is not numeric", d.uid));
            continue;
        }
        let f = &d.fields;
        let organism = get(f, "Organism").and_then(Value::as_object);
        let org = |name: &str| organism.and_then(|o| text(o, name));
        let aliases: Vec<String> = text(f, "OtherAliases")
            .map(|s| s.split(',').map(|a| a.trim().to_string()).collect())
            .unwrap_or_default();
        let mim: Vec<String> = get(f, "Mim").map(strings).unwrap_or_default();
        b.table(0).push([
            id.clone(),
            SqlValue::opt_text(text(f, "Name")),
            SqlValue::opt_text(text(f, "Description")),
            SqlValue::opt_text(org("ScientificName")),
            SqlValue::opt_text(org("CommonName")),
            org("TaxID").as_deref().map_or(Null, SqlValue::id),
            SqlValue::opt_text(text(f, "Chromosome")),
            SqlValue::opt_text(text(f, "MapLocation")),
            SqlValue::opt_text(text(f, "Summary")),
            SqlValue::opt_text(text(f, "OtherAliases")),
            SqlValue::opt_text(text(f, "OtherDesignations")),
            SqlValue::opt_text(text(f, "NomenclatureSymbol")),
            SqlValue::opt_text(text(f, "NomenclatureName")),
            SqlValue::opt_text(text(f, "NomenclatureStatus")),
            SqlValue::opt_text(joined(&mim, "; ")),
            SqlValue::opt_text(text(f, "Status")),
            text(f, "CurrentID").as_deref().map_or(Null, SqlValue::id),
        ]);
        for (i, a) in aliases.into_iter().filter(|a| !a.is_empty()).enumerate() {
            b.table(1).push([id.clone(), position(i), Text(a)]);
        }
        let places = get(f, "GenomicInfo").map(objects).unwrap_or_default();
        for (i, g) in places.into_iter().enumerate() {
            let int = |name: &str| text(g, name).as_deref().map_or(Null, SqlValue::id);
            b.table(2).push([
                id.clone(),
                position(i),
                SqlValue::opt_text(text(g, "ChrLoc")),
                SqlValue::opt_text(text(g, "ChrAccVer")),
                int("ChrStart"),
                int("ChrStop"),
                int("ExonCount"),
            ]);
        }
    }
    b
}

/// A field as non-empty text.
fn text(f: &Map<String, Value>, name: &str) -> Option<String> {
    get(f, name).and_then(scalar)
}

/// A string or number as non-empty text.
fn scalar(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// Every scalar inside `v`, depth first (lists of ids come as arrays or `{int: ..}`).
fn strings(v: &Value) -> Vec<String> {
    match v {
        Value::Array(items) => items.iter().flat_map(strings).collect(),
        Value::Object(o) => o.values().flat_map(strings).collect(),
        other => scalar(other).into_iter().collect(),
    }
}

/// The objects of a list that one child makes an object and several an array.
fn objects(v: &Value) -> Vec<&Map<String, Value>> {
    match v {
        Value::Array(items) => items.iter().flat_map(objects).collect(),
        Value::Object(o) if o.values().any(|c| !c.is_object() && !c.is_array()) => vec![o],
        Value::Object(o) => o.values().flat_map(objects).collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::esummary::parse_esummary_xml;

    // Hand-written in the shape of NCBI's esummary version 2.0 for db=gene
    // (no recording of a gene summary exists in the fixtures).
    const GENES: &str = r#"<?xml version="1.0" ?>
<eSummaryResult><DocumentSummarySet status="OK">
<DocumentSummary uid="672"><Name>BRCA1</Name><Description>BRCA1 DNA repair associated</Description>
<Status>0</Status><CurrentID>0</CurrentID><Chromosome>17</Chromosome><MapLocation>17q21.31</MapLocation>
<OtherAliases>BRCAI, BRCC1, RNF53</OtherAliases><Mim><int>113705</int></Mim>
<GenomicInfo><GenomicInfoType><ChrLoc>17</ChrLoc><ChrAccVer>NC_000017.11</ChrAccVer><ChrStart>43125482</ChrStart><ChrStop>43044294</ChrStop><ExonCount>24</ExonCount></GenomicInfoType></GenomicInfo>
<Organism><ScientificName>Homo sapiens</ScientificName><CommonName>human</CommonName><TaxID>9606</TaxID></Organism>
<Summary>This gene encodes a nuclear phosphoprotein.</Summary></DocumentSummary>
<DocumentSummary uid="12189"><Name>Brca1</Name><OtherAliases></OtherAliases>
<GenomicInfo><GenomicInfoType><ChrAccVer>NC_000077.7</ChrAccVer><ChrStart>101379589</ChrStart></GenomicInfoType><GenomicInfoType><ChrAccVer>NT_1.1</ChrAccVer><ChrStart>5</ChrStart></GenomicInfoType></GenomicInfo>
<Organism><ScientificName>Mus musculus</ScientificName><TaxID>10090</TaxID></Organism></DocumentSummary>
</DocumentSummarySet></eSummaryResult>"#;

    #[test]
    fn gene_summaries_become_genes_aliases_and_locations() {
        let docs = parse_esummary_xml(GENES.as_bytes()).unwrap().docs;
        let b = docsums(&GENE, docs);
        assert_eq!(b.records, 2);
        assert!(b.skipped.is_empty());
        let gene = &b.tables[0];
        assert_eq!(gene.len(), 2);
        let brca1 = gene.row(0);
        assert_eq!(brca1[0], SqlValue::Integer(672));
        assert_eq!(brca1[1], Text("BRCA1".into()));
        assert_eq!(brca1[3], Text("Homo sapiens".into()));
        assert_eq!(brca1[5], SqlValue::Integer(9606));
        assert_eq!(brca1[7], Text("17q21.31".into()));
        assert_eq!(brca1[14], Text("113705".into()));
        assert_eq!(brca1[16], SqlValue::Integer(0));
        let aliases: Vec<&SqlValue> = (0..b.tables[1].len())
            .map(|i| &b.tables[1].row(i)[2])
            .collect();
        assert_eq!(
            aliases,
            [
                &Text("BRCAI".into()),
                &Text("BRCC1".into()),
                &Text("RNF53".into())
            ]
        );
        let places = &b.tables[2];
        assert_eq!(places.len(), 3);
        assert_eq!(places.row(0)[3], Text("NC_000017.11".into()));
        assert_eq!(places.row(0)[6], SqlValue::Integer(24));
        assert_eq!(places.row(2)[0], SqlValue::Integer(12189));
        assert_eq!(places.row(2)[1], SqlValue::Integer(2));
        assert_eq!(gene.row(1)[6], Null);
    }

    #[test]
    fn generic_summaries_keep_json_and_scalar_fields() {
        let docs = parse_esummary_xml(GENES.as_bytes()).unwrap().docs;
        let b = docsums(&crate::staging::layouts::GENERIC, docs);
        assert_eq!(b.tables[0].len(), 2);
        let json: Value = match &b.tables[0].row(0)[2] {
            Text(t) => serde_json::from_str(t).unwrap(),
            other => panic!("{other:?}"),
        };
        assert_eq!(json["Organism"]["TaxID"], "9606");
        let names: Vec<&SqlValue> = (0..b.tables[1].len())
            .map(|i| &b.tables[1].row(i)[1])
            .collect();
        assert!(names.contains(&&Text("MapLocation".into())));
        assert!(!names.contains(&&Text("Organism".into())));
    }
}
