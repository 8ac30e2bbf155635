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

    fn references(self) -> bool {
        self != Direction::Citers
    }

    fn citers(self) -> bool {
        self != Direction::References
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
}

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
    /// (each paper's node, its metrics and its whole reference list), adds the papers one step
    /// further where the paper is nearer the seeds than `steps` (up to `cap`, the rest counted
    /// in `left_out`), and moves the look-up cursor past the chunk.
    pub fn absorb(&mut self, chunk: usize, found: &[Found], rows: &mut NetworkRows) {
        let mut known: HashSet<u64> = self
            .papers
            .iter()
            .map(|p| p.0)
            .chain(self.left_out.iter().copied())
            .collect();
        let end = (self.looked_up + chunk).min(self.papers.len());
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
            let next = self
                .direction
                .references()
                .then_some(f.references.iter().map(|r| (*r, 1)))
                .into_iter()
                .flatten()
                .chain(
                    self.direction
                        .citers()
                        .then_some(f.citers.iter().map(|c| (*c, 2)))
                        .into_iter()
                        .flatten(),
                );
            for (p, how) in next {
                if !known.insert(p) {
                    continue;
                }
                if (self.papers.len() as u64) < self.cap {
                    self.papers.push((p, step + 1, how));
                } else if self.left_out.len() < MAX_LEFT_OUT {
                    self.left_out.push(p);
                } else {
                    self.left_out_more = true;
                }
            }
        }
        self.looked_up = end;
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

/// The seeds the call's source names, at most `max` of them.
pub async fn seeds(ctx: &ToolContext<'_>, source: &Source, max: u64) -> Result<Vec<u64>> {
    let max = max.min(MAX_SEEDS);
    let ids: Vec<String> = match source {
        Source::Ids { ids } => ids.clone(),
        Source::Term { term } => {
            let reply = ctx.entrez()?.send(&seed_search(term, max)).await?;
            parse::esearch::parse_esearch_xml(&reply.body)?.ids
        }
        Source::Dataset { seeds_of } => {
            let info = owned_dataset(ctx, seeds_of).await?;
            let staging = staging(ctx)?;
            let policy = QueryPolicy::with_limit(Some(max), staging.limits.query_time_limit_ms);
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
            r.rows
                .iter()
                .filter_map(|row| match row.first() {
                    Some(crate::staging::rows::SqlValue::Integer(n)) => Some(n.to_string()),
                    _ => None,
                })
                .collect()
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
    seeds.truncate(max as usize);
    Ok(seeds)
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
            let more = if work.left_out_more { "more than " } else { "" };
            p.warn(format!(
                "The network reached {more}{} more papers than max_records ({}) allows; those nearest the seeds were kept.",
                work.left_out.len(),
                work.cap
            ));
        }
        Ok(())
    }
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
        assert_eq!((t("node"), t("metrics"), t("citation")), (6, 3, 5));
        assert_eq!(w.remaining(), 6);
        assert_eq!(w.take(4), vec!["1", "2", "10", "11"]);
        assert_eq!(w.remaining(), 2);
        let back: NetworkWork = serde_json::from_str(&serde_json::to_string(&w).unwrap()).unwrap();
        assert_eq!(back, w);
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
