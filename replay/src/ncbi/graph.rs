//! The citation graph the stand-ins share: who cites whom among the replay's PubMed records.
//!
//! Made up (no recording of PubMed's citation links is kept), deterministic, and small
//! enough to restate: five seed papers ([`SEEDS`]), their references and their citers, about
//! a thousand distinct papers, all synthetic PMIDs but one real retracted record
//! ([`RETRACTED`]) that two seeds and some citers cite, and its retraction notice. elink's
//! `pubmed_pubmed_refs` and `pubmed_pubmed_citedin` ([`elink_xml`], [`elink_json`]) and the
//! iCite stand-in (`replay/src/external/icite.rs`) answer from the same edges, so both
//! sources agree, but for a few recent papers whose references elink gives in part
//! ([`ELINK_REFS_PARTIAL`]).

use serde_json::json;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

/// The five seed papers: synthetic PMIDs whose references and citers make the network.
/// Seed k (0..5) cites [`REF_BASE`] + 50k + j for j in 0..60 (neighbouring seeds share ten
/// references: bibliographic coupling) and is cited by [`CITER_BASE`] + 140k + j for j in
/// 0..150 (neighbouring seeds share ten citers: co-citation). Seeds 0 and 2 also cite
/// [`RETRACTED`].
pub const SEEDS: [u64; 5] = [90_050_001, 90_050_002, 90_050_003, 90_050_004, 90_050_005];
/// The first paper the seeds cite.
pub const REF_BASE: u64 = 90_051_001;
/// References per seed, and the step between two seeds' first references.
pub const REFS_PER_SEED: u64 = 60;
/// The step between two seeds' first references (60 - 50 = 10 shared).
pub const REF_STEP: u64 = 50;
/// The first paper citing a seed.
pub const CITER_BASE: u64 = 90_052_001;
/// Citers per seed.
pub const CITERS_PER_SEED: u64 = 150;
/// The step between two seeds' first citers (150 - 140 = 10 shared).
pub const CITER_STEP: u64 = 140;
/// A real retracted record (tests/fixtures/ncbi/documented, retracted in 2004 and 2010) in
/// the trail: cited by seeds 0 and 2 and by every citer whose index `i` (its PMID minus
/// [`CITER_BASE`]) is a multiple of 50.
pub const RETRACTED: u64 = 9_500_320;
/// The Lancet's 2010 retraction notice of [`RETRACTED`] (a real record, in the same fixture,
/// `RetractionOf` 9500320): it cites the paper it retracts, and seed 2 cites it (a paper
/// that discusses the retraction), so it is a paper of the network that cites a retracted
/// paper without leaning on it.
pub const RETRACTION_NOTICE: u64 = 20_137_807;
/// Besides its seed(s), citer `i` cites the first `i % 4` references ([`REF_BASE`],
/// [`REF_BASE`] + 1, [`REF_BASE`] + 2): those three are the most co-cited with the seeds, in
/// that order.
pub const CO_CITED: u64 = 3;
/// PMIDs iCite has no record of (too recent for it), though PubMed's links know them: the
/// last ten citers of seed 4. A client falls back to elink for them.
pub const ICITE_MISSING: std::ops::RangeInclusive<u64> = 90_052_701..=90_052_710;
/// A paper whose iCite record comes without its `cited_by` and `references` (the citer
/// just before [`ICITE_MISSING`], so it falls in the same look-up): a client reads it as
/// malformed and asks elink, as for a paper iCite lacks.
pub const ICITE_MALFORMED: u64 = 90_052_700;
/// Papers whose reference list elink's `pubmed_pubmed_refs` gives in part, leaving out the
/// seed they cite (as PubMed's lists of new papers often are): the last three of
/// [`ICITE_MISSING`]. The seed's own citers (iCite's `cited_by`, elink's `citedin`) still
/// name them, so the edge is known only from the cited paper's side.
pub const ELINK_REFS_PARTIAL: std::ops::RangeInclusive<u64> = 90_052_708..=90_052_710;

/// Every edge, both ways.
#[derive(Debug, Default)]
pub struct Graph {
    /// Paper → the papers it cites, ascending.
    pub refs: BTreeMap<u64, BTreeSet<u64>>,
    /// Paper → the papers citing it, ascending.
    pub cited_by: BTreeMap<u64, BTreeSet<u64>>,
}

impl Graph {
    fn edge(&mut self, citing: u64, cited: u64) {
        self.refs.entry(citing).or_default().insert(cited);
        self.cited_by.entry(cited).or_default().insert(citing);
    }

    /// The papers `pmid` cites (empty when none).
    pub fn references(&self, pmid: u64) -> Vec<u64> {
        self.refs
            .get(&pmid)
            .map(|s| s.iter().copied().collect())
            .unwrap_or_default()
    }

    /// The papers citing `pmid` (empty when none).
    pub fn citers(&self, pmid: u64) -> Vec<u64> {
        self.cited_by
            .get(&pmid)
            .map(|s| s.iter().copied().collect())
            .unwrap_or_default()
    }

    /// The papers `pmid` cites as elink's `pubmed_pubmed_refs` lists them: without the seeds
    /// for [`ELINK_REFS_PARTIAL`], the whole list for every other paper.
    pub fn elink_references(&self, pmid: u64) -> Vec<u64> {
        let mut refs = self.references(pmid);
        if ELINK_REFS_PARTIAL.contains(&pmid) {
            refs.retain(|r| !SEEDS.contains(r));
        }
        refs
    }

    /// Every paper with an edge.
    pub fn papers(&self) -> BTreeSet<u64> {
        self.refs
            .keys()
            .chain(self.cited_by.keys())
            .copied()
            .collect()
    }
}

/// The graph, built once.
pub fn graph() -> &'static Graph {
    static GRAPH: OnceLock<Graph> = OnceLock::new();
    GRAPH.get_or_init(build)
}

fn build() -> Graph {
    let mut g = Graph::default();
    for (k, seed) in SEEDS.iter().enumerate() {
        let k = k as u64;
        for j in 0..REFS_PER_SEED {
            g.edge(*seed, REF_BASE + REF_STEP * k + j);
        }
        for j in 0..CITERS_PER_SEED {
            g.edge(CITER_BASE + CITER_STEP * k + j, *seed);
        }
        if k == 0 || k == 2 {
            g.edge(*seed, RETRACTED);
        }
        if k == 2 {
            g.edge(*seed, RETRACTION_NOTICE);
        }
    }
    g.edge(RETRACTION_NOTICE, RETRACTED);
    let citers = CITER_STEP * (SEEDS.len() as u64 - 1) + CITERS_PER_SEED;
    for i in 0..citers {
        let citer = CITER_BASE + i;
        for t in 0..(i % (CO_CITED + 1)) {
            g.edge(citer, REF_BASE + t);
        }
        if i.is_multiple_of(50) {
            g.edge(citer, RETRACTED);
        }
    }
    g
}

/// Which way a link name follows the edges: `pubmed_pubmed_refs` (what a paper cites) or
/// `pubmed_pubmed_citedin` (who cites it); None for any other name.
pub fn direction(linkname: &str) -> Option<bool> {
    match linkname {
        "pubmed_pubmed_refs" => Some(true),
        "pubmed_pubmed_citedin" => Some(false),
        _ => None,
    }
}

/// The linked ids of one id group (one `id=` parameter: its ids' links merged, as NCBI
/// merges a comma-separated list), descending as PubMed lists them.
fn linked(group: &[u64], refs: bool) -> Vec<u64> {
    let g = graph();
    let mut all = BTreeSet::new();
    for id in group {
        all.extend(if refs {
            g.elink_references(*id)
        } else {
            g.citers(*id)
        });
    }
    all.into_iter().rev().collect()
}

/// elink `cmd=neighbor` in XML, in elink1.xml's layout: one `<LinkSet>` per id group; a
/// group without links has no `<LinkSetDb>` (as NCBI answers).
pub fn elink_xml(prolog: &[u8], groups: &[Vec<u64>], linkname: &str) -> Vec<u8> {
    let refs = direction(linkname).unwrap_or(false);
    let mut out = prolog.to_vec();
    out.extend_from_slice(b"<eLinkResult>\n");
    for group in groups {
        out.extend_from_slice(b"\n  <LinkSet>\n    <DbFrom>pubmed</DbFrom>\n    <IdList>\n");
        for id in group {
            out.extend_from_slice(format!("      <Id>{id}</Id>\n").as_bytes());
        }
        out.extend_from_slice(b"    </IdList>\n");
        let ids = linked(group, refs);
        if !ids.is_empty() {
            out.extend_from_slice(
                format!(
                    "    <LinkSetDb>\n      <DbTo>pubmed</DbTo>\n      <LinkName>{linkname}</LinkName>\n      \n"
                )
                .as_bytes(),
            );
            for id in ids {
                out.extend_from_slice(
                    format!("        <Link>\n\t\t\t\t<Id>{id}</Id>\n\t\t\t</Link>\n").as_bytes(),
                );
            }
            out.extend_from_slice(b"      \n    </LinkSetDb>\n");
        }
        out.extend_from_slice(b"  </LinkSet>\n");
    }
    out.extend_from_slice(b"</eLinkResult>\n");
    out
}

/// elink `cmd=neighbor` in JSON (retmode=json), in the recorded JSON layout.
pub fn elink_json(groups: &[Vec<u64>], linkname: &str) -> Vec<u8> {
    let refs = direction(linkname).unwrap_or(false);
    let sets: Vec<serde_json::Value> = groups
        .iter()
        .map(|group| {
            let ids: Vec<String> = group.iter().map(u64::to_string).collect();
            let links: Vec<String> = linked(group, refs).iter().map(u64::to_string).collect();
            if links.is_empty() {
                json!({"dbfrom": "pubmed", "ids": ids})
            } else {
                json!({"dbfrom": "pubmed", "ids": ids, "linksetdbs": [
                    {"dbto": "pubmed", "linkname": linkname, "links": links}
                ]})
            }
        })
        .collect();
    json!({"header": {"type": "elink", "version": "0.3"}, "linksets": sets})
        .to_string()
        .into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn about_a_thousand_papers_with_the_documented_overlaps() {
        let g = graph();
        // 5 seeds, 260 references, 710 citers, the retracted record and its notice.
        assert_eq!(g.papers().len(), 5 + 260 + 710 + 1 + 1);
        for pair in SEEDS.windows(2) {
            let a: BTreeSet<u64> = g.references(pair[0]).into_iter().collect();
            let b: BTreeSet<u64> = g.references(pair[1]).into_iter().collect();
            let shared = a
                .intersection(&b)
                .filter(|p| **p != RETRACTED && **p != RETRACTION_NOTICE)
                .count();
            assert_eq!(shared, 10, "coupling of {pair:?}");
            let a: BTreeSet<u64> = g.citers(pair[0]).into_iter().collect();
            let b: BTreeSet<u64> = g.citers(pair[1]).into_iter().collect();
            assert_eq!(a.intersection(&b).count(), 10, "co-citation of {pair:?}");
        }
        // Both seeds, citers 0, 50, ..., 700, and the notice.
        assert_eq!(g.citers(RETRACTED).len(), 2 + 15 + 1);
        assert_eq!(g.citers(REF_BASE).len(), 1 + 532);
        for p in g.papers() {
            for r in g.references(p) {
                assert!(g.citers(r).contains(&p));
            }
        }
    }

    fn g_citers(pmid: u64) -> Vec<u64> {
        graph().citers(pmid)
    }

    #[test]
    fn elink_groups_follow_the_id_parameters() {
        let xml = String::from_utf8(elink_xml(
            b"",
            &[vec![SEEDS[0]], vec![1]],
            "pubmed_pubmed_citedin",
        ))
        .unwrap();
        assert_eq!(xml.matches("<LinkSet>").count(), 2);
        assert_eq!(xml.matches("<LinkSetDb>").count(), 1);
        assert_eq!(xml.matches("<Link>").count(), 150);
        // elink's refs of a partial paper lack the seed its cited-by list names.
        let partial = *ELINK_REFS_PARTIAL.start();
        let seed = SEEDS[4];
        assert!(g_citers(seed).contains(&partial));
        let xml =
            String::from_utf8(elink_xml(b"", &[vec![partial]], "pubmed_pubmed_refs")).unwrap();
        assert!(!xml.contains(&format!("<Id>{seed}</Id>")), "{xml}");
        let json: serde_json::Value = serde_json::from_slice(&elink_json(
            &[vec![SEEDS[0], SEEDS[1]]],
            "pubmed_pubmed_refs",
        ))
        .unwrap();
        // 60 + 60 - 10 shared, and the retracted record seed 0 cites.
        assert_eq!(
            json["linksets"][0]["linksetdbs"][0]["links"]
                .as_array()
                .unwrap()
                .len(),
            111
        );
    }
}
