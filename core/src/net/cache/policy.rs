//! What may be cached, and for how long: one table, read top to bottom.
//!
//! A request is classified by what was sent (method, path, parameters of the
//! query string and of a form body), so the table judges exactly what NCBI
//! would answer, whichever tool built it. The first row that matches decides;
//! a request no row names is never cached. The "never" rows come first, so a
//! history-server parameter on any utility wins over that utility's own row.

use crate::net::{percent_decode, HttpCall};

/// One row: which requests it names, how long their answers stay, and why.
pub struct Rule {
    /// A short name for the row (statistics and tests).
    pub kind: &'static str,
    /// Seconds an answer stays; 0 means it is never cached.
    pub ttl_s: u64,
    /// Whether the row names this request.
    matches: fn(&Sent) -> bool,
}

const MINUTE: u64 = 60;
const HOUR: u64 = 60 * MINUTE;
const DAY: u64 = 24 * HOUR;

/// The table. Each row's comment says why its answers may be kept that long, or not at all.
pub const RULES: &[Rule] = &[
    // The history server holds a caller's own result sets: WebEnv/query_key name them, they
    // expire after hours of disuse and change with every epost, and usehistory=y and elink's
    // cmd=neighbor_history create one.
    Rule {
        kind: "history",
        ttl_s: 0,
        matches: |s| {
            s.has("webenv")
                || s.has("query_key")
                || s.has("usehistory")
                || s.value("cmd")
                    .is_some_and(|c| c.eq_ignore_ascii_case("neighbor_history"))
        },
    },
    // epost creates a history entry: every answer is a new, private WebEnv.
    Rule {
        kind: "epost",
        ttl_s: 0,
        matches: |s| s.utility() == "epost.fcgi",
    },
    // PubChem's ListKey polling and its asynchronous searches (substructure, superstructure,
    // similarity, identity and formula without the "fast" prefix) answer "waiting" until a
    // job ends: an answer is a moment of a job, not a fact.
    Rule {
        kind: "pubchem_async",
        ttl_s: 0,
        matches: |s| {
            s.pubchem()
                && s.segments().any(|p| {
                    matches!(
                        p,
                        "listkey"
                            | "substructure"
                            | "superstructure"
                            | "similarity"
                            | "identity"
                            | "formula"
                    )
                })
        },
    },
    // Database descriptions (fields, links, counts) change with NCBI's releases, not hourly.
    Rule {
        kind: "einfo",
        ttl_s: DAY,
        matches: |s| s.utility() == "einfo.fcgi",
    },
    // Spelling suggestions come from a dictionary NCBI rebuilds rarely.
    Rule {
        kind: "espell",
        ttl_s: DAY,
        matches: |s| s.utility() == "espell.fcgi",
    },
    // A citation's PMID does not change once it is assigned.
    Rule {
        kind: "citation_match",
        ttl_s: DAY,
        matches: |s| s.utility() == "ecitmatch.cgi",
    },
    // Records by explicit ids change by corrections and indexing (MeSH terms arrive weeks
    // after a record), not within hours.
    Rule {
        kind: "records_by_id",
        ttl_s: 6 * HOUR,
        matches: |s| matches!(s.utility(), "efetch.fcgi" | "esummary.fcgi") && s.has("id"),
    },
    // Links by explicit ids grow as new papers are indexed (citedin, neighbors): kept for
    // less time than the records themselves.
    Rule {
        kind: "links_by_id",
        ttl_s: 2 * HOUR,
        matches: |s| s.utility() == "elink.fcgi" && s.has("id"),
    },
    // A search's hits and count move as records arrive every day; minutes keep a model's
    // paging through one search consistent without serving a stale day.
    Rule {
        kind: "search",
        ttl_s: 10 * MINUTE,
        matches: |s| matches!(s.utility(), "esearch.fcgi" | "egquery.fcgi"),
    },
    // iCite's metrics and citation links are recomputed monthly (its database snapshots).
    Rule {
        kind: "icite",
        ttl_s: DAY,
        matches: |s| s.path.ends_with("/api/pubs") && s.has("pmids"),
    },
    // PubChem's records and lookups by CID, name or fast search are rebuilt from deposits
    // daily at most.
    Rule {
        kind: "pubchem",
        ttl_s: DAY,
        matches: |s| s.pubchem(),
    },
    // PMC's id converter: a PMCID, PMID and DOI are tied together once, for good.
    Rule {
        kind: "pmc_id_convert",
        ttl_s: DAY,
        matches: |s| s.path.contains("/idconv/"),
    },
    // The Open Access service by id: an article's packages are fixed once published.
    Rule {
        kind: "pmc_oa_by_id",
        ttl_s: DAY,
        matches: |s| s.utility() == "oa.fcgi" && s.has("id"),
    },
    // Its listings by date or resumption token grow through the day.
    Rule {
        kind: "pmc_oa_listing",
        ttl_s: HOUR,
        matches: |s| s.utility() == "oa.fcgi",
    },
    // Formatted citations and BioC texts of published articles do not change within a day.
    Rule {
        kind: "pmc_citation",
        ttl_s: DAY,
        matches: |s| s.path.contains("/ctxp/"),
    },
    // PMC's Cloud Service: a version's folder is written once (a new version gets a new
    // folder, which the listing shows within the hour).
    Rule {
        kind: "pmc_cloud_listing",
        ttl_s: HOUR,
        matches: |s| s.has("list-type") && s.has("prefix"),
    },
    Rule {
        kind: "pmc_cloud_file",
        ttl_s: DAY,
        matches: |s| {
            s.path.contains("/PMC") && (s.path.ends_with(".json") || s.path.ends_with(".xml"))
        },
    },
    Rule {
        kind: "pmc_bioc",
        ttl_s: DAY,
        matches: |s| s.path.contains("/BioC_"),
    },
];

/// The row that decides for `call`, if any row names it.
pub fn rule_for(call: &HttpCall) -> Option<&'static Rule> {
    let sent = Sent::of(call);
    RULES.iter().find(|r| (r.matches)(&sent))
}

/// How long `call`'s answer may be kept, in seconds; `None` when never.
pub fn ttl_s(call: &HttpCall) -> Option<u64> {
    rule_for(call).map(|r| r.ttl_s).filter(|t| *t > 0)
}

/// A request as the table reads it: its path and its parameters, names lower-cased.
struct Sent {
    path: String,
    params: Vec<(String, String)>,
}

impl Sent {
    fn of(call: &HttpCall) -> Sent {
        let after_scheme = call.url.split_once("://").map_or(&*call.url, |(_, r)| r);
        let (location, query) = after_scheme.split_once('?').unwrap_or((after_scheme, ""));
        let path = location.find('/').map_or("/", |i| &location[i..]);
        let body = call
            .body
            .as_deref()
            .map(String::from_utf8_lossy)
            .unwrap_or_default();
        // Parameter names compared without case: NCBI reads WebEnv and webenv alike.
        let params = query
            .split('&')
            .chain(body.split('&'))
            .filter(|p| !p.is_empty())
            .map(|p| {
                let (name, value) = p.split_once('=').unwrap_or((p, ""));
                let name = percent_decode(name, true).to_ascii_lowercase();
                (name, percent_decode(value, true))
            })
            .collect();
        Sent {
            path: percent_decode(path, false),
            params,
        }
    }

    fn has(&self, name: &str) -> bool {
        self.value(name).is_some()
    }

    fn value(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The last segment of the path: `efetch.fcgi`, `oa.fcgi`.
    fn utility(&self) -> &str {
        self.path.rsplit('/').next().unwrap_or("")
    }

    fn segments(&self) -> impl Iterator<Item = &str> {
        self.path.split('/')
    }

    fn pubchem(&self) -> bool {
        self.path.contains("/rest/pug/") || self.path.contains("/pug_view/")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::Method;

    fn get(url: &str) -> HttpCall {
        HttpCall::get(url)
    }

    fn post(url: &str, body: &str) -> HttpCall {
        HttpCall {
            method: Method::Post,
            body: Some(body.as_bytes().to_vec()),
            ..get(url)
        }
    }

    const E: &str = "https://eutils.ncbi.nlm.nih.gov/entrez/eutils/";

    fn kind(call: &HttpCall) -> Option<&'static str> {
        rule_for(call).map(|r| r.kind)
    }

    #[test]
    fn each_utility_has_its_row() {
        let cases = [
            ("einfo.fcgi?db=pubmed", Some(DAY)),
            ("espell.fcgi?db=pubmed&term=asthmaa", Some(DAY)),
            ("ecitmatch.cgi?db=pubmed&bdata=x", Some(DAY)),
            ("efetch.fcgi?db=pubmed&id=1,2&retmode=xml", Some(6 * HOUR)),
            ("esummary.fcgi?db=pubmed&id=1", Some(6 * HOUR)),
            ("elink.fcgi?dbfrom=pubmed&id=1&cmd=neighbor", Some(2 * HOUR)),
            ("esearch.fcgi?db=pubmed&term=asthma", Some(10 * MINUTE)),
            ("epost.fcgi?db=pubmed&id=1", None),
        ];
        for (rest, want) in cases {
            assert_eq!(ttl_s(&get(&format!("{E}{rest}"))), want, "{rest}");
        }
    }

    #[test]
    fn the_history_server_is_never_cached_whatever_the_utility() {
        for rest in [
            "esearch.fcgi?db=pubmed&term=asthma&usehistory=y",
            "efetch.fcgi?db=pubmed&WebEnv=MCID_1&query_key=1",
            "esummary.fcgi?db=pubmed&query_key=1&webenv=MCID_1",
            "elink.fcgi?dbfrom=pubmed&db=pubmed&id=1&cmd=neighbor_history",
        ] {
            assert_eq!(kind(&get(&format!("{E}{rest}"))), Some("history"), "{rest}");
            assert_eq!(ttl_s(&get(&format!("{E}{rest}"))), None, "{rest}");
        }
        // The same parameters in a POST body count as much as in the query string.
        let call = post(
            &format!("{E}efetch.fcgi"),
            "db=pubmed&WebEnv=MCID_1&query_key=2",
        );
        assert_eq!(ttl_s(&call), None);
        let call = post(&format!("{E}efetch.fcgi"), "db=pubmed&id=1%2C2%2C3");
        assert_eq!(ttl_s(&call), Some(6 * HOUR));
    }

    #[test]
    fn fetches_without_ids_and_unknown_paths_are_never_cached() {
        assert_eq!(ttl_s(&get(&format!("{E}efetch.fcgi?db=pubmed"))), None);
        assert_eq!(ttl_s(&get("https://example.org/anything?id=1")), None);
    }

    #[test]
    fn pubchem_jobs_are_never_cached_and_its_lookups_are() {
        let p = "https://pubchem.ncbi.nlm.nih.gov/rest/pug/";
        assert_eq!(
            ttl_s(&get(&format!(
                "{p}compound/cid/2244/property/MolecularFormula/JSON"
            ))),
            Some(DAY)
        );
        assert_eq!(
            ttl_s(&get(&format!(
                "{p}compound/fastsubstructure/smiles/c1ccccc1/cids/JSON"
            ))),
            Some(DAY)
        );
        for rest in [
            "compound/listkey/123456/cids/JSON",
            "compound/substructure/smiles/c1ccccc1/JSON",
            "compound/formula/C6H6/cids/JSON",
        ] {
            assert_eq!(
                kind(&get(&format!("{p}{rest}"))),
                Some("pubchem_async"),
                "{rest}"
            );
        }
    }

    #[test]
    fn pmc_services_have_their_rows() {
        let idconv = get("https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/?ids=PMC1");
        assert_eq!(ttl_s(&idconv), Some(DAY));
        let oa = "https://www.ncbi.nlm.nih.gov/pmc/utils/oa/oa.fcgi";
        assert_eq!(ttl_s(&get(&format!("{oa}?id=PMC13901"))), Some(DAY));
        assert_eq!(ttl_s(&get(&format!("{oa}?from=2024-01-01"))), Some(HOUR));
        let bioc =
            "https://www.ncbi.nlm.nih.gov/research/bionlp/RESTful/pmcoa.cgi/BioC_json/PMC1/unicode";
        assert_eq!(ttl_s(&get(bioc)), Some(DAY));
        let ctxp = "https://pmc.ncbi.nlm.nih.gov/api/ctxp/v1/pubmed/?format=csl&id=1";
        assert_eq!(ttl_s(&get(ctxp)), Some(DAY));
    }
}
