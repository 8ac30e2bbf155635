//! Where a staging is in its source, kept with a partial dataset between calls.
//!
//! A call that spends its CPU budget before its source stores this cursor with
//! the dataset (status `partial`); the next `fetch_and_stage` with the dataset's
//! id takes it up where it stopped: the ids not yet fetched, or the next
//! `retstart` of the history set the first call searched. It is stored as
//! JSON in the store's reason column and never shown to a caller. Where the edge
//! has a [`Scheduler`](crate::staging::Scheduler), the cursor says the server carries
//! the staging on itself, and the dataset reads as `loading` meanwhile.

use crate::tools::entrez_data::plan;

use crate::tools::entrez_data::plan::Fetch;

use crate::entrez::EutilsRequest;
use crate::error::{Error, Result};
use crate::staging::store::Status;
use crate::tools::entrez_data::plan::Slice;
use serde::{Deserialize, Serialize};

/// What is left to fetch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Work {
    /// These ids, in order.
    Ids {
        /// Not yet fetched.
        ids: Vec<String>,
    },
    /// A history set, from `retstart` up to `target`.
    History {
        /// WebEnv.
        webenv: String,
        /// query_key.
        query_key: u64,
        /// The next record to fetch.
        retstart: u64,
        /// Where to stop.
        target: u64,
        /// A known count means a short batch is NCBI dropping records, not the end.
        known_total: bool,
    },
    /// A citation network: its look-ups, then its papers.
    Network(crate::tools::entrez_data::network::NetworkWork),
}

impl Work {
    /// Records still to fetch.
    pub fn remaining(&self) -> u64 {
        match self {
            Work::Ids { ids } => ids.len() as u64,
            Work::History {
                retstart, target, ..
            } => target.saturating_sub(*retstart),
            Work::Network(n) => n.remaining(),
        }
    }

    /// The request for the next `n` records, taken off the cursor.
    pub fn take(&mut self, n: u64, db: &str, fetch: Fetch) -> EutilsRequest {
        match self {
            Work::Ids { ids } => {
                let rest = ids.split_off((n as usize).min(ids.len()));
                let batch = std::mem::replace(ids, rest);
                plan::batch(db, fetch, Slice::Ids(&batch))
            }
            Work::History {
                webenv,
                query_key,
                retstart,
                ..
            } => {
                let request = plan::batch(
                    db,
                    fetch,
                    Slice::History {
                        webenv,
                        query_key: *query_key,
                        retstart: *retstart,
                        retmax: n,
                    },
                );
                *retstart += n;
                request
            }
            Work::Network(w) => plan::batch(db, fetch, Slice::Ids(&w.take(n))),
        }
    }

    /// Whether a batch that asked for `asked` and parsed `parsed` records was the last one
    /// there is: an empty page, or a short one from a set of unknown size.
    pub fn ended_by(&self, asked: u64, parsed: u64) -> bool {
        match self {
            Work::Ids { .. } | Work::Network(_) => false,
            Work::History { known_total, .. } => parsed == 0 || (!known_total && parsed < asked),
        }
    }

    /// Nothing more will be fetched.
    pub fn finish(&mut self) {
        match self {
            Work::Ids { ids } => ids.clear(),
            Work::History {
                retstart, target, ..
            } => *target = *retstart,
            Work::Network(n) => n.finish(),
        }
    }
}

/// Everything a later call needs to continue a partial dataset.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resume {
    /// What is left.
    pub work: Work,
    /// Whether sequence residues are stored.
    pub include_sequence: bool,
    /// Records the source held, as the first call reported.
    pub available: Option<u64>,
    /// Whether the server continues the staging by itself (`staging::scheduler`).
    #[serde(default)]
    #[serde(rename = "carried_on")]
    pub in_background: bool,
    /// Whether the caller that started it may spend the server's NCBI key: the steps the
    /// server runs by itself spend it only then (a caller's own key is never stored).
    #[serde(default)]
    pub server_key: bool,
    /// Whether the staging is an MCP task, whose final result is kept for its caller.
    #[serde(default)]
    pub task: bool,
    /// Batches the earlier calls and steps staged.
    #[serde(default)]
    pub batches: u64,
    /// Passing faults in a row that paused the staging (`staging::scheduler::retry_after_ms`).
    #[serde(default)]
    pub faults: u32,
    /// The last of those faults, as its error said, and when the next try is due (Unix ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fault: Option<Paused>,
}

/// A passing fault that put a in_background staging's next step off.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Paused {
    /// What the error said.
    pub error: String,
    /// When the next step is due, Unix ms.
    pub retry_at_ms: u64,
}

impl Paused {
    /// How a caller reads it: what stopped the staging and when it is tried again.
    pub fn describe(&self) -> String {
        format!(
            "paused by a passing fault ({}); the server tries again at {}",
            self.error.trim_end_matches('.'),
            crate::staging::iso8601(self.retry_at_ms)
        )
    }
}

impl Resume {
    /// As stored.
    pub fn encode(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// From what the store kept.
    pub fn decode(stored: &str) -> Result<Resume> {
        crate::json::from_str(stored).map_err(|e| {
            Error::internal(format!(
                "the stored position of a partial dataset is unreadable: {e}"
            ))
        })
    }
}

/// The cursor of a partial dataset the server continues by itself; None for any other.
pub fn in_background(status: &Status) -> Option<Resume> {
    match status {
        Status::Partial(stored) if crate::staging::scheduler::in_background(stored) => {
            Resume::decode(stored).ok()
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::entrez_query::plan::Format;

    #[test]
    fn ids_are_taken_in_order_and_the_rest_kept() {
        let mut w = Work::Ids {
            ids: (1..=5).map(|i| i.to_string()).collect(),
        };
        let fetch = Fetch::Records(Format::PubmedXml);
        let r = w.take(2, "pubmed", fetch);
        assert_eq!(r.get("id"), Some("1,2"));
        assert_eq!(w.remaining(), 3);
        let r = w.take(9, "pubmed", fetch);
        assert_eq!(r.get("id"), Some("3,4,5"));
        assert_eq!(w.remaining(), 0);
    }

    #[test]
    fn a_cursor_stored_before_carrying_on_existed_reads_as_not_carried() {
        let old = r#"{"work":{"kind":"ids","ids":["1"]},"include_sequence":false,"available":1}"#;
        let r = Resume::decode(old).unwrap();
        assert!(!r.in_background && !r.server_key);
        assert!(in_background(&Status::Partial(old.to_string())).is_none());
    }

    #[test]
    fn history_advances_retstart_and_survives_storage() {
        let mut w = Work::History {
            webenv: "W".into(),
            query_key: 3,
            retstart: 0,
            target: 450,
            known_total: true,
        };
        let fetch = Fetch::Records(Format::PubmedXml);
        let first = w.take(200, "pubmed", fetch);
        assert_eq!(first.get("retstart"), Some("0"));
        assert_eq!(first.get("retmax"), Some("200"));
        let stored = Resume {
            work: w,
            include_sequence: false,
            available: Some(450),
            in_background: true,
            server_key: false,
            task: false,
            batches: 1,
            faults: 1,
            fault: Some(Paused {
                error: "NCBI did not answer.".into(),
                retry_at_ms: 0,
            }),
        }
        .encode();
        let mut back = Resume::decode(&stored).unwrap();
        assert_eq!(back.work.remaining(), 250);
        assert_eq!(back.faults, 1);
        assert_eq!(
            back.fault.as_ref().map(Paused::describe).as_deref(),
            Some("paused by a passing fault (NCBI did not answer); the server tries again at 1970-01-01T00:00:00Z")
        );
        assert!(in_background(&Status::Partial(stored.clone())).is_some());
        assert!(in_background(&Status::Loading).is_none());
        let next = back.work.take(250, "pubmed", fetch);
        assert_eq!(next.get("retstart"), Some("200"));
        assert_eq!(next.get("WebEnv"), Some("W"));
        assert!(
            !back.work.ended_by(250, 249),
            "a known count: a short page is not the end"
        );
        assert!(Resume::decode("{").is_err());
    }
}
