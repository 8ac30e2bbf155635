//! The recorded NCBI responses the replay serves, embedded at build time so the
//! binary needs no working directory, and the indexes built over them once at
//! startup: PubMed articles and MEDLINE records by PMID, the database names
//! NCBI listed, and the WebEnvs the recordings hand out.
//!
//! Every file here is a real recording (see tests/fixtures/ncbi/PROVENANCE.md), but for the
//! two under `documented/`, which this project wrote to NCBI's documented formats
//! (tests/fixtures/ncbi/documented/README.md): records with retractions, errata and
//! expressions of concern, which no recording has. Nothing in this module makes up content.

macro_rules! recorded {
    ($path:literal) => {
        include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/fixtures/ncbi/",
            $path
        ))
    };
}

macro_rules! fixtures {
    ($($(#[$doc:meta])* $id:ident = $path:literal, $kind:ident;)*) => {
        $(
            $(#[$doc])*
            pub const $id: Fixture = Fixture {
                name: $path,
                bytes: recorded!($path),
                kind: Kind::$kind,
            };
        )*
    };
}

/// What a recording is, which decides its Content-Type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// E-utilities XML.
    Xml,
    /// E-utilities JSON (retmode=json).
    Json,
    /// Flat text (MEDLINE, GenBank, FASTA).
    Text,
    /// An HTML page where XML was expected.
    Html,
}

impl Kind {
    /// The Content-Type NCBI sends for this kind.
    pub fn content_type(self) -> &'static str {
        match self {
            Kind::Xml => "text/xml; charset=UTF-8",
            Kind::Json => "application/json",
            Kind::Text => "text/plain; charset=UTF-8",
            Kind::Html => "text/html; charset=UTF-8",
        }
    }
}

/// One recorded response.
#[derive(Clone, Copy, Debug)]
pub struct Fixture {
    /// Path under tests/fixtures/ncbi/, reported in `X-Replay-Source`.
    pub name: &'static str,
    /// The bytes exactly as recorded.
    pub bytes: &'static [u8],
    /// Decides the Content-Type.
    pub kind: Kind,
}

fixtures! {
    /// einfo() database list.
    EINFO1 = "eutils/einfo1.xml", Xml;
    /// einfo(db=pubmed).
    EINFO2 = "eutils/einfo2.xml", Xml;
    /// einfo cut short on purpose, served only through fault injection.
    EINFO4_TRUNCATED = "eutils/einfo4.xml", Xml;
    /// esearch(db=pubmed, term=biopython).
    ESEARCH1 = "eutils/esearch1.xml", Xml;
    /// esearch(db=pubmed, term=cancer, usehistory=y): WebEnv and QueryKey.
    ESEARCH2 = "eutils/esearch2.xml", Xml;
    /// esearch(db=pubmed, term="PNAS[ta] AND 97[vi]", retstart=6, retmax=6).
    ESEARCH3 = "eutils/esearch3.xml", Xml;
    /// esearch(db=pmc, term="stem cells AND hasabstract").
    ESEARCH5 = "eutils/esearch5.xml", Xml;
    /// esearch(db=nucleotide, term="biomol trna[prop]").
    ESEARCH6 = "eutils/esearch6.xml", Xml;
    /// esearch(db=protein, term="200020[molecular weight]").
    ESEARCH7 = "eutils/esearch7.xml", Xml;
    /// esearch(db=protein, term=abcXYZ): no hits, ErrorList and WarningList.
    ESEARCH8 = "eutils/esearch8.xml", Xml;
    /// esearch(db=gene, term=118502329[UID], usehistory=y, retmode=json).
    ESEARCH_JSON = "json/esearch_gene_history.json", Json;
    /// epost(db=pubmed, id=11237011).
    EPOST1 = "eutils/epost1.xml", Xml;
    /// epost(db=nothing): NCBI's invalid-database error.
    EPOST2 = "eutils/epost2.xml", Xml;
    /// epost(db=pubmed, id=<overflowing number>): two ERRORs.
    EPOST3 = "eutils/epost3.xml", Xml;
    /// esummary(db=pubmed).
    ESUMMARY1 = "eutils/esummary1.xml", Xml;
    /// esummary(db=protein).
    ESUMMARY3 = "eutils/esummary3.xml", Xml;
    /// esummary(db=nucleotide).
    ESUMMARY4 = "eutils/esummary4.xml", Xml;
    /// esummary(db=structure).
    ESUMMARY5 = "eutils/esummary5.xml", Xml;
    /// esummary(db=taxonomy).
    ESUMMARY6 = "eutils/esummary6.xml", Xml;
    /// esummary() with neither id nor query_key: NCBI's ERROR.
    ESUMMARY8 = "eutils/esummary8.xml", Xml;
    /// esummary(db=pccompound).
    ESUMMARY9 = "eutils/esummary9.xml", Xml;
    /// elink(dbfrom=pubmed, id=9298984, cmd=neighbor).
    ELINK1 = "eutils/elink1.xml", Xml;
    /// elink(dbfrom=nuccore, db=protein).
    ELINK2 = "eutils/elink2.xml", Xml;
    /// elink(dbfrom=pubmed, db=pubmed, mindate=1995, datetype=pdat).
    ELINK3 = "eutils/elink3.xml", Xml;
    /// elink(dbfrom=pubmed, db=pubmed, term=medline[sb]).
    ELINK4 = "eutils/elink4.xml", Xml;
    /// elink(cmd=prlinks).
    ELINK5 = "eutils/elink5.xml", Xml;
    /// elink(cmd=llinks).
    ELINK6 = "eutils/elink6.xml", Xml;
    /// elink(cmd=acheck).
    ELINK7 = "eutils/elink7.xml", Xml;
    /// elink(cmd=ncheck).
    ELINK8 = "eutils/elink8.xml", Xml;
    /// elink(dbfrom=gene, db=nuccore, retmode=json).
    ELINK_JSON = "json/elink_gene_nuccore.json", Json;
    /// espell(term=biopythooon).
    ESPELL = "eutils/espell.xml", Xml;
    /// efetch(db=pubmed) XML, two articles.
    PUBMED1 = "eutils/pubmed1.xml", Xml;
    /// efetch(db=pubmed) XML, two articles.
    PUBMED2 = "eutils/pubmed2.xml", Xml;
    /// An HTML page NCBI sent where XML was expected; fault injection only.
    PUBMED3_HTML = "eutils/pubmed3.html", Html;
    /// efetch(db=pubmed) XML with references.
    PUBMED4 = "eutils/pubmed4.xml", Xml;
    /// efetch(db=pubmed) XML with references.
    PUBMED5 = "eutils/pubmed5.xml", Xml;
    /// efetch(db=pubmed) XML with references.
    PUBMED6 = "eutils/pubmed6.xml", Xml;
    /// efetch(db=pubmed) XML with MathML in the title.
    PUBMED7 = "eutils/pubmed7.xml", Xml;
    /// efetch(db=pubmed, rettype=medline), one record.
    MEDLINE1 = "text/pubmed_result1.txt", Text;
    /// efetch(db=pubmed, rettype=medline), four records.
    MEDLINE2 = "text/pubmed_result2.txt", Text;
    /// Not recorded: PubMed XML records with retractions, errata and concerns, written to
    /// the PubMed DTD (documented/README.md).
    PUBMED_INTEGRITY = "documented/pubmed_integrity.xml", Xml;
    /// Not recorded: the same links in MEDLINE text, written to the PubMed Help's table.
    MEDLINE_INTEGRITY = "documented/medline_integrity.txt", Text;
    /// efetch(db=pmc).
    PMC = "eutils/efetch_pmc.xml", Xml;
    /// efetch(db=taxonomy).
    TAXONOMY = "eutils/taxonomy.xml", Xml;
    /// efetch(db=nucleotide, retmode=xml): GBSeq.
    NUCLEOTIDE_GBSEQ = "eutils/nucleotide1.xml", Xml;
    /// efetch(db=nucleotide, rettype=fasta, retmode=xml): TinySeq.
    NUCLEOTIDE_TINYSEQ = "eutils/nucleotide2.xml", Xml;
    /// efetch(db=protein, retmode=xml): GBSeq.
    PROTEIN_GBSEQ = "eutils/protein.xml", Xml;
    /// efetch(db=protein, rettype=ipg).
    PROTEIN_IPG = "eutils/efetch_schemas.xml", Xml;
    /// efetch(db=biosample).
    BIOSAMPLE = "eutils/biosample.xml", Xml;
    /// efetch(db=nlmcatalog).
    JOURNALS = "eutils/journals.xml", Xml;
    /// efetch(db=nuccore, rettype=gb, retmode=text).
    GENBANK = "text/NC_005816.gb", Text;
    /// efetch(db=nuccore, rettype=fasta, retmode=text).
    NUCLEOTIDE_FASTA = "text/NC_005816.fna", Text;
    /// efetch(db=protein, rettype=gp, retmode=text).
    GENPEPT = "text/1MRR_A.gp", Text;
    /// efetch(db=protein, rettype=fasta, retmode=text).
    PROTEIN_FASTA = "text/NC_005816.faa", Text;
}

/// One PubmedArticle cut out of a recording, trailing whitespace included.
#[derive(Debug)]
pub struct Article {
    /// The PMID of its MedlineCitation (not a cited one).
    pub pmid: u64,
    /// The bytes from `<PubmedArticle>` up to the next article or the set's end.
    pub bytes: &'static [u8],
}

/// A recording split into prolog, records and tail, so records can be regrouped.
#[derive(Debug)]
pub struct Split {
    /// The recording the pieces come from.
    pub fixture: Fixture,
    /// Everything before the first record (declaration, DOCTYPE, set start).
    pub prolog: &'static [u8],
    /// The records in recorded order.
    pub records: Vec<Article>,
    /// Everything after the last record.
    pub tail: &'static [u8],
}

/// The recordings indexed once at startup.
#[derive(Debug)]
pub struct Corpus {
    /// pubmed*.xml split into articles.
    pub pubmed: Vec<Split>,
    /// pubmed_result*.txt split into MEDLINE records.
    pub medline: Vec<Split>,
    /// Database names from einfo1.xml: what NCBI accepts as `db`.
    pub dbs: Vec<String>,
    /// WebEnvs recorded for PubMed (esearch2, epost1).
    pub pubmed_webenvs: Vec<String>,
}

impl Corpus {
    /// Splits and indexes the embedded recordings.
    pub fn load() -> Corpus {
        let pubmed = [
            PUBMED1,
            PUBMED2,
            PUBMED4,
            PUBMED5,
            PUBMED6,
            PUBMED7,
            PUBMED_INTEGRITY,
        ]
        .into_iter()
        .map(|f| split(f, b"<PubmedArticle>", b"</PubmedArticleSet>", xml_pmid))
        .collect();
        let medline = [MEDLINE1, MEDLINE2, MEDLINE_INTEGRITY]
            .into_iter()
            .map(|f| split(f, b"\nPMID- ", b"", medline_pmid))
            .collect();
        let dbs = tag_values(EINFO1.bytes, "DbName");
        let pubmed_webenvs = [ESEARCH2, EPOST1]
            .iter()
            .flat_map(|f| tag_values(f.bytes, "WebEnv"))
            .collect();
        Corpus {
            pubmed,
            medline,
            dbs,
            pubmed_webenvs,
        }
    }

    /// Whether NCBI lists `db` (already lower-cased) as a database.
    pub fn is_db(&self, db: &str) -> bool {
        self.dbs.iter().any(|d| d == db)
    }

    /// Whether `webenv` is one the PubMed recordings handed out.
    pub fn is_pubmed_webenv(&self, webenv: &str) -> bool {
        self.pubmed_webenvs.iter().any(|w| w == webenv)
    }
}

/// Finds `needle` in `hay` at or after `from`.
pub fn find(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    if from >= hay.len() || needle.is_empty() {
        return None;
    }
    hay[from..]
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
}

fn split(fixture: Fixture, start: &[u8], end: &[u8], pmid_of: fn(&[u8]) -> Option<u64>) -> Split {
    let bytes = fixture.bytes;
    let mut starts = Vec::new();
    let mut at = 0;
    while let Some(p) = find(bytes, start, at) {
        starts.push(p);
        at = p + start.len();
    }
    // An empty `end` means the records run to the end of the file (MEDLINE).
    let last_end = starts
        .last()
        .and_then(|s| find(bytes, end, *s))
        .unwrap_or(bytes.len());
    let first = starts.first().copied().unwrap_or(last_end);
    let mut records = Vec::new();
    for (i, s) in starts.iter().enumerate() {
        let e = starts.get(i + 1).copied().unwrap_or(last_end);
        let piece = &bytes[*s..e];
        // A record whose own PMID cannot be read is not indexed: it could
        // only be served under a wrong id.
        if let Some(pmid) = pmid_of(piece) {
            records.push(Article { pmid, bytes: piece });
        }
    }
    Split {
        fixture,
        prolog: &bytes[..first],
        records,
        tail: &bytes[last_end..],
    }
}

/// The span of the MedlineCitation's own PMID value inside an article.
pub fn own_pmid_span(article: &[u8]) -> Option<(usize, usize)> {
    let citation = find(article, b"<MedlineCitation", 0)?;
    let tag = find(article, b"<PMID", citation)?;
    let open_end = find(article, b">", tag)? + 1;
    let close = find(article, b"</PMID>", open_end)?;
    Some((open_end, close))
}

fn xml_pmid(article: &[u8]) -> Option<u64> {
    let (s, e) = own_pmid_span(article)?;
    std::str::from_utf8(&article[s..e])
        .ok()?
        .trim()
        .parse()
        .ok()
}

fn medline_pmid(record: &[u8]) -> Option<u64> {
    let s = find(record, b"PMID- ", 0)? + 6;
    let e = find(record, b"\n", s).unwrap_or(record.len());
    std::str::from_utf8(&record[s..e]).ok()?.trim().parse().ok()
}

/// The text of every `<tag>...</tag>` in `bytes`, in order.
pub fn tag_values(bytes: &[u8], tag: &str) -> Vec<String> {
    let open = format!("<{tag}>");
    let close = format!("</{tag}>");
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(s) = find(bytes, open.as_bytes(), at) {
        let from = s + open.len();
        let Some(e) = find(bytes, close.as_bytes(), from) else {
            break;
        };
        out.push(String::from_utf8_lossy(&bytes[from..e]).trim().to_string());
        at = e + close.len();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_rebuild_the_recordings_byte_for_byte() {
        let corpus = Corpus::load();
        for s in corpus.pubmed.iter().chain(corpus.medline.iter()) {
            let mut whole = s.prolog.to_vec();
            s.records
                .iter()
                .for_each(|r| whole.extend_from_slice(r.bytes));
            whole.extend_from_slice(s.tail);
            assert_eq!(whole, s.fixture.bytes, "{}", s.fixture.name);
        }
    }

    #[test]
    fn indexes_own_pmids_not_cited_ones() {
        let corpus = Corpus::load();
        let pmids: Vec<u64> = corpus
            .pubmed
            .iter()
            .flat_map(|s| s.records.iter().map(|a| a.pmid))
            .collect();
        assert_eq!(
            pmids,
            [
                12091962, 9997, 11748933, 11700088, 27797938, 28775130, 30108519, 29963580,
                // documented/pubmed_integrity.xml
                9500320, 20137807, 99000001, 99000002, 99000003, 99000004, 99000005
            ]
        );
        assert!(corpus.is_db("pubmed") && !corpus.is_db("xyz"));
        assert_eq!(corpus.medline[1].records.len(), 4);
    }
}
