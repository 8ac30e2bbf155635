//! The normalized tables each Entrez database is staged into.
//!
//! One row per fact, a primary key on every table, and children keyed by
//! their parent's key plus a 1-based position, so "authors of an article in
//! order" is a primary-key range scan and the join key is always indexed.
//! Databases without a layout of their own fall back to [`GENERIC`]: each
//! esummary document as JSON plus its top-level scalar fields as rows.
//!
//! The layouts are split by family: [`literature`] (PubMed, PMC), [`molecular`] (Gene,
//! sequences, Taxonomy, and the generic fallback) and [`network`] (a citation network, PubMed's
//! tables and its edges and metrics; staged from seeds, not chosen by database).

mod literature;
mod molecular;
mod network;

pub use literature::{PMC, PMC_FULL_TEXT, PUBMED};
pub use molecular::{GENE, GENERIC, SEQUENCE, TAXONOMY};
pub use network::{CITATION, METRICS, NETWORK, NODE};

use crate::entrez::databases;
use crate::entrez::databases::Staged;
use crate::staging::schema::{Example, ForeignKey, Index, Layout};

// Short constructors keep the table definitions in the submodules readable.
const fn fk(
    columns: &'static [&'static str],
    table: &'static str,
    references: &'static [&'static str],
) -> ForeignKey {
    ForeignKey {
        columns,
        table,
        references,
    }
}

const fn ix(name: &'static str, columns: &'static [&'static str]) -> Index {
    Index { name, columns }
}

/// Every layout, for documentation and tests.
pub const ALL: &[&Layout] = &[
    &PUBMED, &PMC, &GENE, &SEQUENCE, &TAXONOMY, &GENERIC, &NETWORK,
];

/// The layout a database is staged into.
pub fn layout_for(database: &str) -> &'static Layout {
    match databases::staged(database) {
        Staged::Pubmed => &PUBMED,
        Staged::Pmc => &PMC,
        Staged::Gene => &GENE,
        Staged::Sequence => &SEQUENCE,
        Staged::Taxonomy => &TAXONOMY,
        Staged::Generic => &GENERIC,
    }
}

/// The layout called `name`.
pub fn named(name: &str) -> crate::error::Result<&'static crate::staging::schema::Layout> {
    ALL.iter()
        .copied()
        .find(|l| l.name == name)
        .ok_or_else(|| crate::error::Error::internal(format!("unknown layout {name}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_layout_is_consistent() {
        for layout in ALL {
            assert!(layout.table(layout.primary).is_some(), "{}", layout.name);
            assert!(layout.examples.len() >= 3, "{}", layout.name);
            let mut index_names = Vec::new();
            for t in layout.tables {
                assert!(!t.primary_key.is_empty(), "{}", t.name);
                for c in t.primary_key {
                    assert!(t.column(c).is_some_and(|c| c.not_null), "{}.{c}", t.name);
                }
                for f in t.foreign_keys {
                    let parent = layout.table(f.table).expect("parent exists");
                    assert_eq!(f.references, parent.primary_key, "{}", t.name);
                    assert!(f.columns.iter().all(|c| t.column(c).is_some()));
                }
                for i in t.indexes {
                    assert!(i.columns.iter().all(|c| t.column(c).is_some()));
                    index_names.push(i.name);
                }
            }
            let before = index_names.len();
            index_names.sort();
            index_names.dedup();
            assert_eq!(before, index_names.len(), "{}", layout.name);
        }
        assert_eq!(layout_for("nucleotide").name, "sequence");
        assert_eq!(layout_for("structure").name, "generic");
    }
}

/// A full-text index an edge builds when staging ends, where its SQLite offers FTS5: the
/// native store does; the Worker does not (its replica SQLite has no FTS5, and Cloudflare's
/// Durable Objects documentation does not say FTS5 is there).
#[derive(Debug, Clone, Copy)]
pub struct FullTextIndex {
    /// The virtual table's name, listed by `schema` when it exists.
    pub table: &'static str,
    /// Statements that create and fill it; each may run again harmlessly.
    pub ddl: &'static [&'static str],
    /// An example query `schema` adds when the table exists.
    pub example: Example,
}

/// The full-text index of a layout, if it has one.
pub fn full_text_index(layout: &Layout) -> Option<&'static FullTextIndex> {
    (layout.name == PMC.name).then_some(&PMC_FULL_TEXT)
}
