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
use std::collections::HashSet;

use crate::tools::entrez_data::network_work::left_out_warning;
pub use crate::tools::entrez_data::network_work::{
    Direction, Found, Network, NetworkWork, MAX_LEFT_OUT,
};

/// PMIDs one look-up asks about: iCite's documented ceiling per request.
pub const LOOKUP_BATCH: usize = 200;
/// Most seeds one network starts from.
pub const MAX_SEEDS: u64 = 1000;
/// Most citation steps from the seeds.
pub const MAX_STEPS: u8 = 2;

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
    let cut = |named: String, which: &str| {
        format!(
            "{named}; only {which} {max} are the seeds, a tenth of max_records ({cap}) so their references and citers have room (raise max_records, or narrow the seeds)."
        )
    };
    let ids: Vec<String> = match source {
        Source::Ids { ids } => {
            let distinct: HashSet<&String> = ids.iter().collect();
            if distinct.len() as u64 > max {
                warnings.push(cut(
                    format!("{} seeds were named", distinct.len()),
                    "the first",
                ));
            }
            ids.clone()
        }
        Source::Term { term } => {
            let reply = ctx.entrez()?.send(&seed_search(term, max)).await?;
            let found = parse::esearch::parse_esearch_xml(&reply.body)?;
            if found.count > max {
                warnings.push(cut(
                    format!("The search matched {} papers", found.count),
                    "its first",
                ));
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
            // Citers are asked only where some paper of the chunk is followed further: a
            // chunk all at the last step asks for none (a hub there would be megabytes).
            let citers = work.papers[work.looked_up..end]
                .iter()
                .any(|p| p.1 < work.steps);
            let looked =
                crate::tools::entrez_data::network_lookup::look_up(self, &pmids, citers).await?;
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
}
