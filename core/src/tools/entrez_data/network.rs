//! `fetch_and_stage` with `network`: a citation network from seed PMIDs, in two phases.
//!
//! First the look-ups: each paper's citations and metrics, 200 PMIDs a request (iCite, elink
//! where it fails), from the seeds outwards; each answer adds the papers one step further (up
//! to `steps` and `max_records`) and is appended at once as rows of citation, node and
//! metrics. Then the papers themselves, fetched from PubMed in the usual batches. Both phases
//! live on one cursor ([`NetworkWork`]), so a call whose budget runs out, a continuation and a
//! step the server runs by itself all go on where the last one stopped, and nothing committed
//! is ever fetched again.

use crate::allowance::CPU_US_PER_LOOKUP;
use crate::error::{Error, ErrorKind, Result};
use crate::framework::ToolContext;
use crate::json;
use crate::parse;
use crate::staging::guard::QueryPolicy;
use crate::staging::rows::network::NetworkRows;
use crate::tools::entrez_data::args::DataArgs;
use crate::tools::entrez_data::batches::{Fetched, Progress, Run};
use crate::tools::entrez_data::budget::Meter;
use crate::tools::entrez_data::plan::Source;
use crate::tools::entrez_data::{owned_dataset, staging};
use crate::validation::codes;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// PMIDs one look-up asks about: iCite's documented ceiling per request.
pub const LOOKUP_BATCH: usize = 200;
/// Most seeds one network starts from.
pub const MAX_SEEDS: u64 = 1000;
/// Most citation steps from the seeds.
pub const MAX_STEPS: u8 = 2;

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

impl Network {
    /// The network the arguments ask for, if any (an unknown direction reads as both: the
    /// schema's enum refuses it first).
    pub fn of(a: &DataArgs) -> Option<Network> {
        let direction = Direction::named(a.network.as_deref()?).unwrap_or(Direction::Both);
        let steps = a.steps.unwrap_or(1).clamp(1, u64::from(MAX_STEPS)) as u8;
        Some(Network { direction, steps })
    }
}

impl Network {
    /// One line for the catalog and list_datasets: the network and its seeds.
    pub fn describe(&self, seeds: &Source) -> String {
        let way = match self.direction {
            Direction::Both => "references and citers",
            Direction::References => "references",
            Direction::Citers => "citers",
        };
        format!(
            "citation network ({way}, {} step(s)) of {}",
            self.steps,
            seeds.describe()
        )
    }
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
        let by_pmid: std::collections::HashMap<u64, &Found> =
            found.iter().map(|f| (f.metrics.pmid, f)).collect();
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

/// The semantic rules of a network staging: PubMed seeds, from ids, a term or a dataset.
pub fn check(
    args: &DataArgs,
    stage: &crate::tools::entrez_data::call::Stage,
    report: &mut crate::validation::Report,
) {
    use crate::validation::path;
    if stage.database != "pubmed" {
        report.error(
            codes::INVALID_DATABASE,
            path("database"),
            format!("A citation network is staged from PubMed; database {:?} has no citations to follow.", stage.database),
        );
        report.suggest("Leave database out (pubmed).");
    }
    if matches!(stage.source, Source::History { .. }) {
        report.error(
            codes::ARGUMENT_CONFLICT,
            path("webenv"),
            "A citation network starts from ids, a term or a dataset's papers, not a history set.",
        );
        report.suggest("Give the seeds as ids, or the term the history set came from.");
    }
    if args.include_sequence {
        report.warn(
            codes::IGNORED_PARAMETER,
            path("include_sequence"),
            "PubMed records have no residues; include_sequence is ignored.",
        );
    }
    for (i, id) in args.ids.iter().enumerate() {
        if id.is_empty() || !id.bytes().all(|c| c.is_ascii_digit()) {
            report.error(
                codes::INVALID_ID,
                format!("$.ids[{i}]"),
                format!(
                    "{id:?} is not a PMID: a citation network starts from PubMed ids (digits)."
                ),
            );
        }
    }
}

/// The search whose first `max` PMIDs are a network's seeds (no history: the ids themselves).
pub fn seed_search(term: &str, max: u64) -> crate::entrez::EutilsRequest {
    crate::entrez::EutilsRequest::new(crate::entrez::Utility::Search)
        .param("db", "pubmed")
        .param("term", term)
        .param("retmax", max.to_string())
}

/// The seeds the call's source names for a network of at most `cap` papers: at most
/// [`max_seeds`] of them, with a warning naming how many were cut and which were kept.
pub async fn seeds(
    ctx: &ToolContext<'_>,
    source: &Source,
    cap: u64,
) -> Result<(Vec<u64>, Vec<String>)> {
    let max = max_seeds(cap);
    let mut warnings = Vec::new();
    let cut = |n: u64, which: &str| {
        format!(
            "{n} seeds were named; only {which} {max} were kept, a tenth of max_records ({cap}) so their references and citers have room (raise max_records, or narrow the seeds)."
        )
    };
    let ids: Vec<String> = match source {
        Source::Ids { ids } => {
            let distinct: HashSet<&String> = ids.iter().collect();
            if distinct.len() as u64 > max {
                warnings.push(cut(distinct.len() as u64, "the first"));
            }
            ids.clone()
        }
        Source::Term { term } => {
            let reply = ctx.entrez()?.send(&seed_search(term, max)).await?;
            let found = parse::esearch::parse_esearch_xml(&reply.body)?;
            if found.count > max {
                warnings.push(cut(found.count, "the search's first"));
            }
            found.ids
        }
        Source::Dataset { seeds_of } => {
            let info = owned_dataset(ctx, seeds_of).await?;
            let staging = staging(ctx)?;
            let policy = QueryPolicy::with_limit(Some(max + 1), staging.limits.query_time_limit_ms);
            let r = staging
                .store
                .query(&info.id, "SELECT pmid FROM article ORDER BY pmid", policy)
                .await
                .map_err(|e| {
                    Error::new(
                        ErrorKind::InvalidArguments,
                        format!(
                            "Dataset {} has no PubMed papers to start a network from ({}).",
                            info.id, e.message
                        ),
                    )
                    .with_code(codes::INVALID_ID)
                    .suggest(
                        "Name a PubMed dataset (pubmed or citation_network layout), or give ids.",
                    )
                })?;
            let ids: Vec<String> = r
                .rows
                .iter()
                .filter_map(|row| match row.first() {
                    Some(crate::staging::rows::SqlValue::Integer(n)) => Some(n.to_string()),
                    _ => None,
                })
                .collect();
            if ids.len() as u64 > max {
                warnings.push(format!(
                    "Dataset {} has more than {max} papers; only its {max} lowest PMIDs are the seeds, a tenth of max_records ({cap}) (raise max_records, or stage a narrower dataset).",
                    info.id
                ));
            }
            ids
        }
        Source::History { .. } | Source::Continue { .. } => return Err(Error::new(
            ErrorKind::InvalidArguments,
            "A citation network starts from ids, a term or a dataset's papers (data_access_id).",
        )
        .with_code(codes::ARGUMENT_CONFLICT)
        .suggest("Give the seeds as ids, or a term, or the data_access_id of a PubMed dataset.")),
    };
    let mut seeds = Vec::new();
    let mut bad = Vec::new();
    for id in ids {
        match id.trim().parse::<u64>() {
            Ok(n) if n > 0 => seeds.push(n),
            _ => bad.push(id),
        }
    }
    if !bad.is_empty() {
        return Err(Error::new(
            ErrorKind::InvalidArguments,
            format!(
                "{} is not a PMID: a citation network starts from PubMed ids.",
                bad.join(", ")
            ),
        )
        .with_code(codes::INVALID_ID)
        .with_details(json!({ "invalid": bad })));
    }
    if seeds.is_empty() {
        return Err(Error::new(
            ErrorKind::NotFound,
            "No seeds: nothing to start a network from.",
        )
        .with_code("no_records")
        .suggest("Check the term with entrez_query (operation search) first."));
    }
    let mut seen = HashSet::new();
    seeds.retain(|s| seen.insert(*s));
    seeds.truncate(max as usize);
    Ok((seeds, warnings))
}

impl Run<'_> {
    /// Looks up the network's citations and metrics, a chunk a request, while the meter pays;
    /// each chunk's rows are committed before the next is asked for.
    pub(crate) async fn look_up(
        &self,
        work: &mut NetworkWork,
        meter: &mut Meter,
        p: &mut Progress,
    ) -> Result<()> {
        let mut first = true;
        while !work.looked_up_all() {
            if !first && !meter.affords_side(CPU_US_PER_LOOKUP, LOOKUP_REQUESTS) {
                return Ok(());
            }
            first = false;
            let end = (work.looked_up + LOOKUP_BATCH).min(work.papers.len());
            let pmids: Vec<u64> = work.papers[work.looked_up..end]
                .iter()
                .map(|p| p.0)
                .collect();
            let looked = crate::tools::entrez_data::network_lookup::look_up(self, &pmids).await?;
            meter.charge_side(looked.bytes, looked.requests);
            let mut warnings = looked.warnings;
            warnings.extend(unknown_seeds(
                &work.papers[work.looked_up..end],
                &looked.found,
            ));
            let mut rows = NetworkRows::default();
            work.absorb(pmids.len(), &looked.found, &mut rows);
            let fetched = Fetched {
                batch: rows.finish(),
                bytes: looked.bytes,
                warnings,
            };
            self.commit(fetched, p).await?;
            p.committed = Some(crate::tools::entrez_data::cursor::Work::Network(
                work.clone(),
            ));
        }
        if !work.left_out.is_empty() && work.fetched == 0 {
            p.warn(left_out_warning(work));
        }
        Ok(())
    }
}

/// The warning of a network the cap cut: how many papers were left out, how the room was
/// shared, and which seeds lost neighbours (the first ten named).
fn left_out_warning(work: &NetworkWork) -> String {
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

/// The most seeds a network of at most `cap` papers starts from: a tenth of the cap (at
/// least one, at most [`MAX_SEEDS`]), so the seeds leave room for their neighbours.
pub fn max_seeds(cap: u64) -> u64 {
    (cap / 10).clamp(1, MAX_SEEDS)
}

/// A warning for each seed of `chunk` no source knows: neither iCite nor PubMed's links name
/// any citation of it (a PMID that does not exist, or one too new to be cited or indexed).
fn unknown_seeds(chunk: &[(u64, u8, u8)], found: &[Found]) -> Vec<String> {
    chunk
        .iter()
        .filter(|p| p.1 == 0)
        .filter(|p| {
            found.iter().find(|f| f.metrics.pmid == p.0).is_none_or(|f| {
                f.metrics.source == "elink" && f.references.is_empty() && f.citers.is_empty()
            })
        })
        .map(|p| format!("Seed PMID {}: neither iCite nor PubMed's links know any citation of it (no such PMID, or too new); it has no edges.", p.0))
        .collect()
}

/// The most requests one look-up sends: iCite, then elink both ways for what iCite lacks.
pub const LOOKUP_REQUESTS: u64 = 3;

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
    fn seeds_are_a_tenth_of_the_cap() {
        assert_eq!(
            (
                max_seeds(1000),
                max_seeds(5),
                max_seeds(10_000),
                max_seeds(50_000)
            ),
            (100, 1, 1000, 1000)
        );
    }

    fn report(args: serde_json::Value) -> crate::validation::Report {
        let mut r = crate::validation::Report::default();
        crate::tools::entrez_data::validation::check(&DataArgs::read(&args), &mut r);
        r
    }

    #[test]
    fn a_network_call_reads_its_seeds_and_refuses_what_cannot_be_one() {
        let ok = report(
            serde_json::json!({"operation": "fetch_and_stage", "network": "citers",
            "data_access_id": "0123456789abcdef0123456789abcdef", "steps": 5}),
        );
        assert!(ok.errors.is_empty(), "{:?}", ok.errors);
        let n = ok.normalized.unwrap();
        // With network, a dataset named is the seeds' source; steps is clamped to 2.
        assert_eq!(n["seeds_of"], "0123456789abcdef0123456789abcdef", "{n}");
        assert_eq!(
            n["network"],
            serde_json::json!({"direction": "citers", "steps": 2})
        );
        let codes = |r: &crate::validation::Report| -> Vec<&str> {
            r.errors.iter().map(|f| f.code).collect()
        };
        let gene = report(
            serde_json::json!({"operation": "fetch_and_stage", "network": "both",
            "database": "gene", "ids": ["1"]}),
        );
        assert_eq!(codes(&gene), vec![codes::INVALID_DATABASE]);
        let history = report(
            serde_json::json!({"operation": "fetch_and_stage", "network": "both",
            "webenv": "W", "query_key": 1}),
        );
        assert_eq!(codes(&history), vec![codes::ARGUMENT_CONFLICT]);
        let bad = report(
            serde_json::json!({"operation": "fetch_and_stage", "network": "both",
            "ids": ["12", "PMC1"]}),
        );
        assert_eq!(codes(&bad), vec![codes::INVALID_ID]);
        let stray = report(serde_json::json!({"operation": "query", "steps": 2,
            "data_access_id": "0123456789abcdef0123456789abcdef", "sql": "SELECT 1"}));
        assert_eq!(stray.warnings[0].code, codes::IGNORED_PARAMETER);
        // Without network, a dataset named is one to continue, as before.
        let cont = report(serde_json::json!({"operation": "fetch_and_stage",
            "data_access_id": "0123456789abcdef0123456789abcdef"}));
        assert_eq!(
            cont.normalized.unwrap()["data_access_id"],
            "0123456789abcdef0123456789abcdef"
        );
    }

    #[test]
    fn a_terms_seeds_are_its_first_results_without_history() {
        let r = seed_search("asthma[mh]", 300);
        assert_eq!(r.utility, crate::entrez::Utility::Search);
        assert_eq!(
            (
                r.get("db"),
                r.get("term"),
                r.get("retmax"),
                r.get("usehistory")
            ),
            (Some("pubmed"), Some("asthma[mh]"), Some("300"), None)
        );
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
