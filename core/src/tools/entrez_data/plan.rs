//! From `fetch_and_stage` arguments to E-utilities requests, as pure data.
//!
//! Each database is fetched in the form its layout is built from, in batches
//! sized to what NCBI answers comfortably: 500 PubMed citations or summaries
//! per request (posted, since NCBI asks for POST from 200 ids), fewer for
//! full-text PMC and GenBank records, whose single records can be large.

use crate::entrez::databases;
use crate::entrez::databases::Staged;
use crate::entrez::{EutilsRequest, Utility};
use crate::tools::entrez_data::args::DataArgs;
use crate::tools::entrez_query::plan::{fetch_format, Format};

/// How a database's records are fetched and parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fetch {
    /// efetch in the format `entrez_query fetch` uses for the database by default
    /// (PubMed XML, PMC JATS, GBSeq XML, Taxonomy XML), read by the same parser.
    Records(Format),
    /// esummary XML, version 2.0 (gene, and every database without a layout).
    Summary,
}

impl Fetch {
    /// The form a database is staged from.
    pub fn for_database(db: &str) -> Fetch {
        match databases::staged(db) {
            Staged::Pubmed | Staged::Pmc | Staged::Sequence | Staged::Taxonomy => {
                Fetch::Records(fetch_format(db, None, None).2)
            }
            Staged::Gene | Staged::Generic => Fetch::Summary,
        }
    }

    /// Records requested per call: fewer where single records can be large.
    pub fn batch_size(self) -> usize {
        match self {
            Fetch::Records(Format::PmcXml | Format::GbseqXml) => 100,
            Fetch::Records(_) | Fetch::Summary => 500,
        }
    }
}

/// Where the records to stage come from.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(untagged)]
pub enum Source {
    /// These ids, de-duplicated, in the order given.
    Ids {
        /// The ids.
        ids: Vec<String>,
    },
    /// A result set on NCBI's history server.
    History {
        /// WebEnv.
        webenv: String,
        /// query_key.
        query_key: u64,
    },
    /// A search run first with usehistory=y.
    Term {
        /// The Entrez query.
        term: String,
    },
    /// The rest of a partial dataset's source, where its last call stopped.
    Continue {
        /// The partial dataset.
        data_access_id: String,
    },
    /// A citation network's seeds: the papers of a dataset (`network` with `data_access_id`).
    Dataset {
        /// The dataset whose papers are the seeds.
        seeds_of: String,
    },
}

impl Source {
    /// The source the arguments name: ids, else history, else term, else the rest of a dataset.
    pub fn of(a: &DataArgs) -> Source {
        if !a.ids.is_empty() {
            let mut seen = std::collections::HashSet::new();
            return Source::Ids {
                ids: a.ids.iter().filter(|i| seen.insert(*i)).cloned().collect(),
            };
        }
        match (&a.webenv, a.query_key) {
            (Some(webenv), Some(query_key)) => Source::History {
                webenv: webenv.clone(),
                query_key,
            },
            _ => match (&a.term, &a.data_access_id) {
                (None, Some(id)) => Source::Continue {
                    data_access_id: id.clone(),
                },
                (term, _) => Source::Term {
                    term: term.clone().unwrap_or_default(),
                },
            },
        }
    }

    /// One line for the catalog and for list_datasets.
    pub fn describe(&self) -> String {
        match self {
            Source::Ids { ids } if ids.len() <= 5 => format!("ids {}", ids.join(",")),
            Source::Ids { ids } => format!("{} ids ({}, ...)", ids.len(), ids[..3].join(",")),
            Source::History { webenv, query_key } => {
                format!("history WebEnv={webenv} query_key={query_key}")
            }
            Source::Term { term } => format!("term {term:?}"),
            Source::Continue { data_access_id } => format!("the rest of dataset {data_access_id}"),
            Source::Dataset { seeds_of } => format!("the papers of dataset {seeds_of}"),
        }
    }
}

/// Which records one request asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slice<'a> {
    /// These ids.
    Ids(&'a [String]),
    /// `retmax` records of a history set from `retstart`.
    History {
        /// WebEnv.
        webenv: &'a str,
        /// query_key.
        query_key: u64,
        /// Offset.
        retstart: u64,
        /// Count.
        retmax: u64,
    },
}

/// The search that puts a term's results on the history server; only the count is read.
pub fn search(db: &str, term: &str) -> EutilsRequest {
    EutilsRequest::new(Utility::Search)
        .param("db", db)
        .param("term", term)
        .param("usehistory", "y")
        .param("retmax", "0")
}

/// The request for one batch.
pub fn batch(db: &str, fetch: Fetch, slice: Slice<'_>) -> EutilsRequest {
    let req = match fetch {
        Fetch::Summary => EutilsRequest::new(Utility::Summary)
            .param("db", db)
            .param("version", "2.0"),
        Fetch::Records(_) => {
            let (rettype, retmode, _) = fetch_format(db, None, None);
            EutilsRequest::new(Utility::Fetch)
                .param("db", db)
                .opt("rettype", rettype)
                .param("retmode", retmode)
        }
    };
    match slice {
        Slice::Ids(ids) => req.param("id", ids.join(",")),
        Slice::History {
            webenv,
            query_key,
            retstart,
            retmax,
        } => req
            .param("WebEnv", webenv)
            .param("query_key", query_key.to_string())
            .param("retstart", retstart.to_string())
            .param("retmax", retmax.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn sources_prefer_ids_and_drop_duplicates() {
        let s = Source::of(&DataArgs::read(&json!({"ids": ["3", 1, "3", " 2 "]})));
        assert_eq!(
            s,
            Source::Ids {
                ids: vec!["3".into(), "1".into(), "2".into()]
            }
        );
        let h = Source::of(&DataArgs::read(&json!({"webenv": "W", "query_key": 2})));
        assert_eq!(
            h.describe(),
            "history WebEnv=W query_key=2",
            "history source"
        );
        let c = Source::of(&DataArgs::read(&json!({"data_access_id": "ab"})));
        assert_eq!(
            c,
            Source::Continue {
                data_access_id: "ab".into()
            }
        );
        let t = Source::of(&DataArgs::read(&json!({"term": "asthma[mh]"})));
        assert_eq!(t.describe(), "term \"asthma[mh]\"");
        let many = Source::Ids {
            ids: (1..=9).map(|i| i.to_string()).collect(),
        };
        assert_eq!(many.describe(), "9 ids (1,2,3, ...)");
    }

    #[test]
    fn batches_use_the_richest_parsed_form() {
        let ids = vec!["1".to_string(), "2".to_string()];
        let r = batch("protein", Fetch::for_database("protein"), Slice::Ids(&ids));
        assert_eq!(r.get("rettype"), Some("gp"));
        assert_eq!(r.get("retmode"), Some("xml"));
        assert_eq!(r.get("id"), Some("1,2"));
        let g = batch(
            "gene",
            Fetch::for_database("gene"),
            Slice::History {
                webenv: "W",
                query_key: 1,
                retstart: 500,
                retmax: 500,
            },
        );
        assert_eq!(g.utility, Utility::Summary);
        assert_eq!(g.get("version"), Some("2.0"));
        assert_eq!(g.get("retstart"), Some("500"));
        let s = search("pubmed", "x");
        assert_eq!(s.get("usehistory"), Some("y"));
        assert_eq!(Fetch::for_database("pmc").batch_size(), 100);
        assert_eq!(Fetch::for_database("pubmed").batch_size(), 500);
        assert_eq!(
            Fetch::for_database("nucleotide"),
            Fetch::Records(Format::GbseqXml)
        );
    }
}
