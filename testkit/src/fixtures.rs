//! Fixtures by name: the recorded NCBI replies (`tests/fixtures/ncbi/`, a copy of the
//! project's shared recordings, with their PROVENANCE.md) and the project's own corpora
//! (`tests/fixtures/`), found from the repository's root whichever crate's test asks.

use std::path::PathBuf;

/// The repository's root.
pub fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// The path of `tests/fixtures/{name}`, e.g. `sql/hostile.json`.
pub fn path(name: &str) -> PathBuf {
    root().join("tests/fixtures").join(name)
}

/// The bytes of `tests/fixtures/{name}`; panics naming the file when it cannot be read.
pub fn read(name: &str) -> Vec<u8> {
    let p = path(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("fixture {}: {e}", p.display()))
}

/// [`read`] as text; panics when the file is not UTF-8.
pub fn text(name: &str) -> String {
    String::from_utf8(read(name)).unwrap_or_else(|e| panic!("fixture {name} is not UTF-8: {e}"))
}

/// A recorded NCBI reply by its path under `tests/fixtures/ncbi/`, e.g. `eutils/pubmed1.xml`.
pub fn ncbi(name: &str) -> Vec<u8> {
    read(&format!("ncbi/{name}"))
}

/// The recorded efetch PubMed XML files, in the order the NCBI stand-in serves them.
pub const RECORDED_PUBMED: [&str; 6] = [
    "pubmed1.xml",
    "pubmed2.xml",
    "pubmed4.xml",
    "pubmed5.xml",
    "pubmed6.xml",
    "pubmed7.xml",
];
