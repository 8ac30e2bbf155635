//! How a citation network grows: its cursor ([`NetworkWork`]) takes what the sources said of
//! each paper looked up, writes its rows, and adds the papers one step further within the
//! cap, the room left shared among the papers of a step so none crowds out the others.

use crate::staging::rows::network::NetworkRows;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

/// Which way the network follows citations from each paper.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// What it cites and what cites it.
    Both,
    /// What it cites.
    References,
    /// What cites it.
    Citers,
}

impl Direction {
    /// The direction named `name` (the schema's enum).
    pub fn named(name: &str) -> Option<Direction> {
        match name.to_ascii_lowercase().as_str() {
            "both" => Some(Direction::Both),
            "references" | "refs" | "cited" => Some(Direction::References),
            "citers" | "citing" | "cited_by" => Some(Direction::Citers),
            _ => None,
        }
    }
}

/// What the call asked of the network.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Network {
    /// Which way.
    pub direction: Direction,
    /// Citation steps from the seeds, 1 or 2.
    pub steps: u8,
}

/// How a paper first joined the network: 0 seed, 1 a reference, 2 a citer.
fn relation(code: u8) -> &'static str {
    match code {
        0 => "seed",
        1 => "reference",
        _ => "citer",
    }
}

/// A network staging's cursor: every paper reached so far and how far each phase has gone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NetworkWork {
    /// Which way.
    pub direction: Direction,
    /// Steps from the seeds.
    pub steps: u8,
    /// Most papers in the network.
    pub cap: u64,
    /// Every paper so far, in the order reached: PMID, step, relation (see `relation`).
    pub papers: Vec<(u64, u8, u8)>,
    /// `papers[..looked_up]` have their citations and metrics staged.
    pub looked_up: usize,
    /// `papers[..fetched]` have been asked of PubMed.
    pub fetched: usize,
    /// Papers the cap left out, each once, up to [`MAX_LEFT_OUT`] of them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<u64>,
    /// Whether more than [`MAX_LEFT_OUT`] were.
    #[serde(default)]
    pub left_out_more: bool,
    /// Each of `left_out`'s step and relation, for the places a step's shares left unused.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_via: Vec<(u8, u8)>,
    /// Seeds some of whose references or citers the cap left out, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cut_seeds: Vec<u64>,
}

/// One paper's PMID and step, and its candidates one step further: PMID and relation.
type Offer = (u64, u8, Vec<(u64, u8)>);

/// Papers left out by the cap that a cursor remembers (so each is counted once).
pub const MAX_LEFT_OUT: usize = 2_000;

impl NetworkWork {
    /// The cursor of a new network from `seeds`.
    pub fn new(network: Network, seeds: &[u64], cap: u64) -> NetworkWork {
        let mut seen = HashSet::new();
        NetworkWork {
            direction: network.direction,
            steps: network.steps,
            cap,
            papers: seeds
                .iter()
                .filter(|s| seen.insert(**s))
                .map(|s| (*s, 0, 0))
                .collect(),
            looked_up: 0,
            fetched: 0,
            left_out: Vec::new(),
            left_out_more: false,
            left_via: Vec::new(),
            cut_seeds: Vec::new(),
        }
    }

    /// Papers not yet fetched from PubMed (the look-ups come first, so while any remain this
    /// counts every paper).
    pub fn remaining(&self) -> u64 {
        (self.papers.len() - self.fetched.min(self.papers.len())) as u64
    }

    /// Whether every paper's citations have been looked up.
    pub fn looked_up_all(&self) -> bool {
        self.looked_up >= self.papers.len()
    }

    /// The next `n` papers to fetch from PubMed, taken off the cursor.
    pub fn take(&mut self, n: u64) -> Vec<String> {
        let end = (self.fetched + n as usize).min(self.papers.len());
        let ids = self.papers[self.fetched..end]
            .iter()
            .map(|p| p.0.to_string())
            .collect();
        self.fetched = end;
        ids
    }

    /// Nothing more will be looked up or fetched.
    pub fn finish(&mut self) {
        self.looked_up = self.papers.len();
        self.fetched = self.papers.len();
    }

    /// Writes what the sources said (`found`) of the next `chunk` papers to look up as rows
    /// (each paper's node, its metrics, its whole reference list and the edges its citers
    /// name), adds the papers one step further where the paper is nearer the seeds than
    /// `steps`, and moves the look-up cursor past the chunk. The room left under `cap` is
    /// shared fairly: the papers of one step still to look up each get an equal share, taken
    /// round-robin, so no paper's neighbours crowd out the rest; the others are counted in
    /// `left_out`, and a seed that lost some is named in `cut_seeds`.
    pub fn absorb(&mut self, chunk: usize, found: &[Found], rows: &mut NetworkRows) {
        let mut known: HashSet<u64> = self
            .papers
            .iter()
            .map(|p| p.0)
            .chain(self.left_out.iter().copied())
            .collect();
        let end = (self.looked_up + chunk).min(self.papers.len());
        // Each paper's candidates one step further, grouped by the paper's step.
        let mut offers: Vec<Offer> = Vec::new();
        for i in self.looked_up..end {
            let (pmid, step, how) = self.papers[i];
            rows.node(pmid, step, relation(how));
            let Some(f) = found.iter().find(|f| f.metrics.pmid == pmid) else {
                continue;
            };
            rows.metrics(&f.metrics);
            for r in &f.references {
                rows.citation(pmid, *r);
            }
            if step >= self.steps {
                continue;
            }
            let refs = f.references.iter().map(|r| (*r, 1));
            let citers = f.citers.iter().map(|c| (*c, 2));
            let next: Vec<(u64, u8)> = match self.direction {
                Direction::Both => refs.chain(citers).collect(),
                Direction::References => refs.collect(),
                Direction::Citers => citers.collect(),
            };
            offers.push((pmid, step, next));
        }
        let mut step_first = 0;
        while step_first < offers.len() {
            let step = offers[step_first].1;
            let step_end = offers[step_first..]
                .iter()
                .position(|o| o.1 != step)
                .map_or(offers.len(), |n| step_first + n);
            // This chunk's papers of `step` against every paper of that step not yet looked up.
            let here = (step_end - step_first) as u64;
            let pending = self.papers[self.looked_up..]
                .iter()
                .filter(|p| p.1 == step)
                .count()
                .max(1) as u64;
            let room = self.cap.saturating_sub(self.papers.len() as u64);
            let share = (room * here).div_ceil(pending);
            let group = &offers[step_first..step_end];
            let mut taken = 0u64;
            let mut at = vec![0usize; group.len()];
            let mut more = true;
            while more && taken < share {
                more = false;
                for (k, (_, _, next)) in group.iter().enumerate() {
                    while at[k] < next.len() && known.contains(&next[at[k]].0) {
                        at[k] += 1;
                    }
                    if at[k] >= next.len() {
                        continue;
                    }
                    more = true;
                    if taken >= share {
                        break;
                    }
                    let (p, how) = next[at[k]];
                    known.insert(p);
                    self.papers.push((p, step + 1, how));
                    taken += 1;
                    at[k] += 1;
                }
            }
            for (k, (pmid, paper_step, next)) in group.iter().enumerate() {
                let mut cut = false;
                for (p, how) in &next[at[k]..] {
                    if !known.insert(*p) {
                        continue;
                    }
                    cut = true;
                    if self.left_out.len() < MAX_LEFT_OUT {
                        self.left_out.push(*p);
                        self.left_via.push((step + 1, *how));
                    } else {
                        self.left_out_more = true;
                    }
                }
                if cut && *paper_step == 0 && !self.cut_seeds.contains(pmid) {
                    self.cut_seeds.push(*pmid);
                }
            }
            if here == pending {
                self.readmit(step + 1);
            }
            step_first = step_end;
        }
        // A citation its citer's own list lacks (elink's `refs` is often partial for papers
        // iCite lacks) is still one: each citer that is a paper of the network gets its edge
        // (the store ignores one written twice).
        let network: HashSet<u64> = self.papers.iter().map(|p| p.0).collect();
        let by_pmid: HashMap<u64, &Found> = found.iter().map(|f| (f.metrics.pmid, f)).collect();
        for (pmid, _, _) in &self.papers[self.looked_up..end] {
            let Some(f) = by_pmid.get(pmid) else {
                continue;
            };
            for c in f.citers.iter().filter(|c| network.contains(c)) {
                let listed = by_pmid.get(c).is_some_and(|g| g.references.contains(pmid));
                if !listed {
                    rows.citation(*c, *pmid);
                }
            }
        }
        self.looked_up = end;
    }
}

impl NetworkWork {
    /// After the last paper of a step: the places its shares left unused (a paper with fewer
    /// new neighbours than its share) go to the papers left out one step further, in the
    /// order they were left out.
    fn readmit(&mut self, step: u8) {
        if self.left_via.len() != self.left_out.len() {
            return;
        }
        let mut k = 0;
        while k < self.left_out.len() && (self.papers.len() as u64) < self.cap {
            if self.left_via[k].0 == step {
                let p = self.left_out.remove(k);
                let (step, how) = self.left_via.remove(k);
                self.papers.push((p, step, how));
            } else {
                k += 1;
            }
        }
        // Every seed's neighbours found a place after all: none was cut.
        if step == 1 && !self.left_via.iter().any(|v| v.0 == 1) {
            self.cut_seeds.clear();
        }
    }
}

/// What the citation sources said of one paper.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Found {
    /// The papers it cites.
    pub references: Vec<u64>,
    /// The papers citing it.
    pub citers: Vec<u64>,
    /// Its metrics, PMID and source included.
    pub metrics: crate::staging::rows::network::MetricsRow,
}

/// The warning of a network the cap cut: how many papers were left out, how the room was
/// shared, and which seeds lost neighbours (the first ten named).
pub(crate) fn left_out_warning(work: &NetworkWork) -> String {
    let more = if work.left_out_more { "more than " } else { "" };
    let mut text = format!(
        "The network reached {more}{} more papers than max_records ({}) allows; nearer steps come first, and the room left was shared round-robin among the papers of a step.",
        work.left_out.len(),
        work.cap
    );
    if !work.cut_seeds.is_empty() {
        let named: Vec<String> = work.cut_seeds.iter().take(10).map(u64::to_string).collect();
        let rest = work.cut_seeds.len().saturating_sub(10);
        let rest = if rest > 0 {
            format!(" and {rest} more")
        } else {
            String::new()
        };
        text.push_str(&format!(
            " Seeds whose references or citers were cut: {}{rest}.",
            named.join(", ")
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::staging::rows::network::MetricsRow;
    use crate::staging::rows::SqlValue;

    fn found(pmid: u64, refs: &[u64], citers: &[u64]) -> Found {
        Found {
            references: refs.to_vec(),
            citers: citers.to_vec(),
            metrics: MetricsRow {
                pmid,
                source: "icite",
                ..MetricsRow::default()
            },
        }
    }

    #[test]
    fn a_network_grows_step_by_step_within_its_cap() {
        let net = Network {
            direction: Direction::Both,
            steps: 1,
        };
        let mut w = NetworkWork::new(net, &[1, 2, 1], 6);
        assert_eq!(w.papers.len(), 2, "a seed given twice is one seed");
        let mut rows = NetworkRows::default();
        w.absorb(
            2,
            &[found(1, &[10, 11], &[20]), found(2, &[11, 12], &[21, 22])],
            &mut rows,
        );
        // Seeds first, then each paper's references and citers in order, the shared 11 once,
        // and the cap of six papers leaving 21 and 22 out.
        let pmids: Vec<u64> = w.papers.iter().map(|p| p.0).collect();
        assert_eq!(pmids, vec![1, 2, 10, 11, 20, 12]);
        assert_eq!(w.left_out, vec![21, 22]);
        assert_eq!(w.papers[4], (20, 1, 2));
        assert_eq!(w.looked_up, 2);
        assert!(!w.looked_up_all());
        // Step-one papers are looked up for their edges and metrics but reach no further.
        w.absorb(4, &[found(10, &[99], &[])], &mut rows);
        assert!(w.looked_up_all());
        assert_eq!(w.papers.len(), 6);
        let b = rows.finish();
        let t = |name: &str| {
            b.tables
                .iter()
                .find(|t| t.table.name == name)
                .unwrap()
                .len()
        };
        // Five edges from reference lists, and 20 -> 1 from 1's citers (21 and 22 are not
        // papers of the network).
        assert_eq!((t("node"), t("metrics"), t("citation")), (6, 3, 6));
        assert_eq!(w.remaining(), 6);
        assert_eq!(w.take(4), vec!["1", "2", "10", "11"]);
        assert_eq!(w.remaining(), 2);
        let back: NetworkWork = serde_json::from_str(&serde_json::to_string(&w).unwrap()).unwrap();
        assert_eq!(back, w);
    }

    /// The citation rows of `rows`, as (citing, cited) pairs.
    fn edges(rows: NetworkRows) -> Vec<(i64, i64)> {
        let b = rows.finish();
        let t = b
            .tables
            .iter()
            .find(|t| t.table.name == "citation")
            .unwrap();
        t.values
            .chunks(2)
            .map(|v| match (&v[0], &v[1]) {
                (SqlValue::Integer(a), SqlValue::Integer(b)) => (*a, *b),
                other => panic!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn a_highly_cited_seed_does_not_take_the_whole_cap() {
        let net = Network {
            direction: Direction::Citers,
            steps: 1,
        };
        // Seed 1 has a hundred citers, seeds 2 and 3 five each; twenty papers at most.
        let mut w = NetworkWork::new(net, &[1, 2, 3], 20);
        let many: Vec<u64> = (100..200).collect();
        let few = |base: u64| -> Vec<u64> { (base..base + 5).collect() };
        let mut rows = NetworkRows::default();
        w.absorb(
            3,
            &[
                found(1, &[], &many),
                found(2, &[], &few(300)),
                found(3, &[], &few(400)),
            ],
            &mut rows,
        );
        let kept = |base: u64| w.papers.iter().filter(|p| p.0 / 100 == base / 100).count();
        // Seventeen places round-robin: 2 and 3 keep all five, seed 1 the other seven.
        assert_eq!((kept(100), kept(300), kept(400)), (7, 5, 5));
        assert_eq!(w.papers.len(), 20);
        assert_eq!(w.left_out.len(), 93);
        assert_eq!(w.cut_seeds, vec![1]);
        let text = left_out_warning(&w);
        assert!(text.contains("reached 93 more papers"), "{text}");
        assert!(text.contains("were cut: 1."), "{text}");
    }

    #[test]
    fn chunks_of_one_step_share_the_room_left() {
        // 4 seeds in two chunks of two, each with ten citers, 24 papers at most: the first
        // chunk may take only its half of the twenty places.
        let net = Network {
            direction: Direction::Citers,
            steps: 1,
        };
        let mut w = NetworkWork::new(net, &[1, 2, 3, 4], 24);
        let citers = |s: u64| -> Vec<u64> { (s * 100..s * 100 + 10).collect() };
        let mut rows = NetworkRows::default();
        w.absorb(
            2,
            &[found(1, &[], &citers(1)), found(2, &[], &citers(2))],
            &mut rows,
        );
        assert_eq!(w.papers.len(), 4 + 10);
        w.absorb(
            2,
            &[found(3, &[], &citers(3)), found(4, &[], &citers(4))],
            &mut rows,
        );
        assert_eq!(w.papers.len(), 24);
        assert_eq!(w.cut_seeds, vec![1, 2, 3, 4]);
    }

    #[test]
    fn places_a_share_left_unused_go_to_papers_left_out() {
        let net = Network {
            direction: Direction::Citers,
            steps: 1,
        };
        // Two seeds looked up one at a time, six papers at most: seed 1 may take only two of
        // its four citers at first; seed 2 has none, so its share goes to the other two.
        let mut w = NetworkWork::new(net, &[1, 2], 6);
        let mut rows = NetworkRows::default();
        w.absorb(1, &[found(1, &[], &[10, 11, 12, 13])], &mut rows);
        assert_eq!((w.papers.len(), w.left_out.len()), (4, 2));
        assert_eq!(w.cut_seeds, vec![1]);
        w.absorb(1, &[found(2, &[], &[])], &mut rows);
        let pmids: Vec<u64> = w.papers.iter().map(|p| p.0).collect();
        assert_eq!(pmids, vec![1, 2, 10, 11, 12, 13]);
        assert_eq!(w.papers[5], (13, 1, 2));
        assert!(w.left_out.is_empty() && w.cut_seeds.is_empty());
    }

    #[test]
    fn a_citation_only_its_cited_paper_names_is_an_edge_too() {
        let net = Network {
            direction: Direction::Both,
            steps: 1,
        };
        let mut w = NetworkWork::new(net, &[1], 10);
        let mut rows = NetworkRows::default();
        // iCite names 20 and 21 as citers of 1; 20's own list (elink's, partial) lacks 1.
        w.absorb(1, &[found(1, &[10], &[20, 21])], &mut rows);
        assert_eq!(edges(rows), vec![(1, 10), (20, 1), (21, 1)]);
        let mut rows = NetworkRows::default();
        w.absorb(
            3,
            &[
                found(10, &[], &[1]),
                found(20, &[], &[]),
                found(21, &[1], &[]),
            ],
            &mut rows,
        );
        // 1 -> 10 again from 10's citers (the store ignores it); 21 -> 1 from its own list only.
        assert_eq!(edges(rows), vec![(21, 1), (1, 10)]);
    }

    #[test]
    fn one_direction_and_two_steps() {
        let net = Network {
            direction: Direction::References,
            steps: 2,
        };
        let mut w = NetworkWork::new(net, &[1], 100);
        let mut rows = NetworkRows::default();
        w.absorb(1, &[found(1, &[10], &[20])], &mut rows);
        w.absorb(1, &[found(10, &[30], &[40])], &mut rows);
        w.absorb(1, &[found(30, &[50], &[])], &mut rows);
        let pmids: Vec<(u64, u8)> = w.papers.iter().map(|p| (p.0, p.1)).collect();
        assert_eq!(pmids, vec![(1, 0), (10, 1), (30, 2)]);
        assert!(w.looked_up_all());
    }
}
