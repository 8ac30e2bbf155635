//! Which recording answers which E-utilities request.
//!
//! The choice follows what each recording was fetched with (PROVENANCE.md and
//! Biopython's test comments), so a client sees the answer NCBI gave to the
//! closest recorded request. Ids are only honoured where recordings can be
//! regrouped (PubMed efetch); elsewhere the recording is served as is.
//! Where nothing was recorded the replay says so with a 404 rather than
//! serve a recording of something else.

use crate::ncbi::citations::Catalogue;
use crate::ncbi::fixtures::*;
use crate::ncbi::graph;
use crate::ncbi::params::Params;
use crate::ncbi::pubmed::{fetch_medline, fetch_xml, unique_ids};
use crate::ncbi::synthetic;
use crate::ncbi::synthetic::error_xml;
use crate::ncbi::synthetic::prolog_of;
use crate::ncbi::synthetic::Templates;
use crate::ncbi::synthetic_pmc;
use axum::body::Bytes;

/// The utilities NCBI serves under /entrez/eutils/.
pub const UTILITIES: [&str; 8] = [
    "einfo.fcgi",
    "esearch.fcgi",
    "esummary.fcgi",
    "efetch.fcgi",
    "elink.fcgi",
    "epost.fcgi",
    "espell.fcgi",
    "ecitmatch.cgi",
];

/// A response before it becomes HTTP.
#[derive(Debug)]
pub struct Reply {
    /// HTTP status.
    pub status: u16,
    /// Content-Type header.
    pub content_type: &'static str,
    /// Body bytes.
    pub body: Bytes,
    /// What answered: a fixture path, `assembled:...` or `synthetic:...`.
    pub source: String,
}

impl Reply {
    /// A recording served byte for byte.
    pub fn fixture(f: Fixture) -> Reply {
        Reply {
            status: 200,
            content_type: f.kind.content_type(),
            body: Bytes::from_static(f.bytes),
            source: f.name.to_string(),
        }
    }

    /// A 200 response built at request time.
    pub fn made(kind: Kind, body: Vec<u8>, source: impl Into<String>) -> Reply {
        Reply {
            status: 200,
            content_type: kind.content_type(),
            body: Bytes::from(body),
            source: source.into(),
        }
    }

    /// Nothing recorded for this request: a 404 naming what is missing.
    pub fn no_recording(what: &str) -> Reply {
        Reply {
            status: 404,
            content_type: "text/plain; charset=UTF-8",
            body: Bytes::from(format!("ncbi-replay: no recording for {what}\n")),
            source: "none".to_string(),
        }
    }
}

/// What routing reads besides the request.
pub struct Ctx<'a> {
    /// The indexed recordings.
    pub corpus: &'a Corpus,
    /// Article templates for synthetic PMIDs.
    pub templates: &'a Templates,
    /// What each PubMed record holds, for summaries, field searches and citation matching.
    pub catalogue: &'a Catalogue,
}

/// Answers one E-utilities request; `None` for a utility NCBI does not have.
pub fn route(util: &str, p: &Params, c: &Ctx) -> Option<Reply> {
    Some(match util {
        "einfo.fcgi" => einfo(p, c),
        "esearch.fcgi" => esearch(p, c),
        "esummary.fcgi" => esummary(p, c),
        "efetch.fcgi" => efetch(p, c),
        "elink.fcgi" => elink(p, c),
        "epost.fcgi" => epost(p, c),
        "espell.fcgi" => espell(p, c),
        "ecitmatch.cgi" => Reply::made(
            Kind::Text,
            synthetic::ecitmatch(p.get("bdata").unwrap_or(""), c.catalogue),
            "synthetic:ecitmatch",
        ),
        _ => return None,
    })
}

fn error(prolog: &[u8], root: &str, message: &str) -> Reply {
    Reply::made(
        Kind::Xml,
        error_xml(prolog, root, message),
        "synthetic:error",
    )
}

fn invalid_db(f: Fixture, root: &str, db: &str) -> Reply {
    error(
        prolog_of(f, root),
        root,
        &format!("Invalid db name specified: {db}"),
    )
}

/// `db` lower-cased, NCBI's default (pubmed) when absent.
fn db_or_pubmed(p: &Params, name: &str) -> String {
    match p.lower(name) {
        d if d.is_empty() => "pubmed".to_string(),
        d => d,
    }
}

fn einfo(p: &Params, c: &Ctx) -> Reply {
    let db = p.lower("db");
    if db.is_empty() {
        return if p.lower("retmode") == "json" {
            Reply::no_recording("einfo retmode=json")
        } else {
            Reply::fixture(EINFO1)
        };
    }
    if !c.corpus.is_db(&db) {
        return invalid_db(EINFO1, "eInfoResult", &db);
    }
    if db == "pubmed" && p.lower("retmode") != "json" {
        return Reply::fixture(EINFO2);
    }
    Reply::no_recording(&format!("einfo db={db}"))
}

fn esearch(p: &Params, c: &Ctx) -> Reply {
    let db = db_or_pubmed(p, "db");
    if !c.corpus.is_db(&db) {
        return invalid_db(ESEARCH1, "eSearchResult", &db);
    }
    let term = p.get("term").unwrap_or("");
    let json = p.lower("retmode") == "json";
    let history = p.lower("usehistory") == "y";
    if db == "pubmed" && !json && p.lower("rettype") == "count" {
        if let Some((rest, year)) = synthetic::year_clause(term) {
            let prolog = prolog_of(ESEARCH1, "eSearchResult");
            let body = synthetic::esearch_count_xml(prolog, synthetic::year_count(rest, year));
            return Reply::made(Kind::Xml, body, "synthetic:esearch-count-by-year");
        }
    }
    if db == "pubmed" && synthetic::is_search_term(term) {
        let (start, max) = (p.number("retstart", 0), p.number("retmax", 20));
        return if json {
            let body = synthetic::esearch_json(start, max, history);
            Reply::made(Kind::Json, body, "synthetic:esearch")
        } else {
            let prolog = prolog_of(ESEARCH1, "eSearchResult");
            let body = synthetic::esearch_xml(prolog, start, max, history);
            Reply::made(Kind::Xml, body, "synthetic:esearch")
        };
    }
    if term.is_empty() && !p.has("query_key") {
        return if json {
            let body = synthetic::ESEARCH_JSON_EMPTY.as_bytes().to_vec();
            Reply::made(Kind::Json, body, "documented:esearch-json-error")
        } else {
            let prolog = prolog_of(ESEARCH1, "eSearchResult");
            error(
                prolog,
                "eSearchResult",
                "Empty term and query_key - nothing todo",
            )
        };
    }
    // What was recorded answers first; a PubMed term the replay can evaluate on its records
    // comes next; the generic recording last.
    let field = || {
        (db == "pubmed")
            .then(|| field_search(p, c, term, json, history))
            .flatten()
    };
    if json {
        return field().unwrap_or_else(|| Reply::fixture(ESEARCH_JSON));
    }
    let lower_term = term.to_ascii_lowercase();
    if lower_term.contains("abcxyz") {
        return Reply::fixture(ESEARCH8);
    }
    match db.as_str() {
        "pubmed" if history && field().is_none() => Reply::fixture(ESEARCH2),
        "pubmed" if lower_term == "pnas[ta] and 97[vi]" => Reply::fixture(ESEARCH3),
        "pubmed" => field().unwrap_or_else(|| Reply::fixture(ESEARCH1)),
        "pmc" => Reply::fixture(ESEARCH5),
        "nuccore" | "nucleotide" => Reply::fixture(ESEARCH6),
        "protein" => Reply::fixture(ESEARCH7),
        other => Reply::no_recording(&format!("esearch db={other}")),
    }
}

/// The clause NCBI users add to keep only retracted articles.
const RETRACTED_CLAUSE: &str = "\"retracted publication\"[pt]";

/// A PubMed search the replay answers from its records: a field-tagged term (DOI, title,
/// author, journal, volume, page, date, publication type, uid), or any term it answers
/// otherwise with `AND "retracted publication"[pt]` added, which keeps that answer's
/// retracted ids. None leaves the term to the recordings.
fn field_search(p: &Params, c: &Ctx, term: &str, json: bool, history: bool) -> Option<Reply> {
    let lower = term.to_ascii_lowercase();
    let ids: Vec<u64> = if let Some(at) = lower.find(&format!(" and {RETRACTED_CLAUSE}")) {
        let rest = term[..at]
            .trim()
            .trim_start_matches('(')
            .trim_end_matches(')');
        let before: Vec<u64> = if synthetic::is_search_term(rest) {
            // No synthetic record is retracted (the templates are the recorded articles).
            Vec::new()
        } else if let Some(found) = c.catalogue.search(rest) {
            found
        } else {
            // The recording the rest alone is answered with.
            let mut q = p.clone();
            q.set("term", rest);
            listed_ids(&esearch(&q, c))
        };
        before
            .into_iter()
            .filter(|id| c.catalogue.is_retracted(*id))
            .collect()
    } else {
        c.catalogue.search(term)?
    };
    let start = p.number("retstart", 0) as usize;
    let max = p.number("retmax", 20) as usize;
    let page: Vec<u64> = ids.iter().copied().skip(start).take(max).collect();
    let body = if json {
        serde_json::json!({
            "header": {"type": "esearch", "version": "0.3"},
            "esearchresult": {
                "count": ids.len().to_string(), "retmax": page.len().to_string(),
                "retstart": start.to_string(),
                "idlist": page.iter().map(u64::to_string).collect::<Vec<_>>(),
                "translationset": [], "querytranslation": term,
            }
        })
        .to_string()
        .into_bytes()
    } else {
        let mut out = prolog_of(ESEARCH1, "eSearchResult").to_vec();
        out.extend_from_slice(
            format!(
                "<eSearchResult><Count>{}</Count><RetMax>{}</RetMax><RetStart>{start}</RetStart>",
                ids.len(),
                page.len()
            )
            .as_bytes(),
        );
        if history {
            // A history set of field-search results is not something the replay keeps.
            out.extend_from_slice(
                b"<QueryKey>1</QueryKey><WebEnv>MCID_replay_field_search</WebEnv>",
            );
        }
        out.extend_from_slice(b"<IdList>\n");
        for id in &page {
            out.extend_from_slice(format!("<Id>{id}</Id>\n").as_bytes());
        }
        out.extend_from_slice(b"</IdList><TranslationSet/><QueryTranslation>");
        out.extend_from_slice(xml_escape(term).as_bytes());
        out.extend_from_slice(b"</QueryTranslation></eSearchResult>\n");
        out
    };
    let kind = if json { Kind::Json } else { Kind::Xml };
    Some(Reply::made(kind, body, "synthetic:esearch-fields"))
}

/// The ids an esearch reply lists.
fn listed_ids(reply: &Reply) -> Vec<u64> {
    let text = String::from_utf8_lossy(&reply.body);
    text.split("<Id>")
        .skip(1)
        .filter_map(|s| s.split("</Id>").next()?.trim().parse().ok())
        .collect()
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// NCBI's answer for a WebEnv it does not hold (wording is synthetic).
fn lost_history(p: &Params, prolog: &[u8], root: &str) -> Reply {
    let key = p.get("query_key").unwrap_or("1");
    error(prolog, root, &format!("Unable to obtain query #{key}"))
}

fn esummary(p: &Params, c: &Ctx) -> Reply {
    let db = db_or_pubmed(p, "db");
    let prolog = prolog_of(ESUMMARY8, "eSummaryResult");
    if !c.corpus.is_db(&db) {
        return invalid_db(ESUMMARY8, "eSummaryResult", &db);
    }
    let ids = p.ids();
    let webenv = p.get("webenv");
    if ids.is_empty() && webenv.is_none() && !p.has("query_key") {
        return Reply::fixture(ESUMMARY8);
    }
    if p.lower("retmode") == "json" {
        if ids.len() > 500 {
            let body = synthetic::ESUMMARY_JSON_TOO_MANY.as_bytes().to_vec();
            return Reply::made(Kind::Json, body, "documented:esummary-json-too-many");
        }
        if db == "pubmed" && !ids.is_empty() {
            let numeric = crate::ncbi::pubmed::unique_ids(&ids);
            return crate::ncbi::pubmed::summary_json(c.catalogue, &numeric);
        }
        return Reply::no_recording("esummary retmode=json");
    }
    if ids.is_empty() {
        let known = webenv.is_some_and(|w| db == "pubmed" && c.corpus.is_pubmed_webenv(w));
        if !known {
            return lost_history(p, prolog, "eSummaryResult");
        }
    }
    match db.as_str() {
        "pubmed" => Reply::fixture(ESUMMARY1),
        "protein" => Reply::fixture(ESUMMARY3),
        "nuccore" | "nucleotide" => Reply::fixture(ESUMMARY4),
        "structure" => Reply::fixture(ESUMMARY5),
        "taxonomy" => Reply::fixture(ESUMMARY6),
        "pccompound" => Reply::fixture(ESUMMARY9),
        other => Reply::no_recording(&format!("esummary db={other}")),
    }
}

const XML_DECLARATION: &[u8] = b"<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n";

fn efetch(p: &Params, c: &Ctx) -> Reply {
    let db = db_or_pubmed(p, "db");
    if !c.corpus.is_db(&db) {
        return error(
            XML_DECLARATION,
            "eFetchResult",
            &format!("Invalid db name specified: {db}"),
        );
    }
    if p.ids().is_empty() && !p.has("webenv") {
        return error(
            XML_DECLARATION,
            "eFetchResult",
            "Empty id list - nothing todo",
        );
    }
    let rettype = p.lower("rettype");
    let retmode = p.lower("retmode");
    let text = matches!(retmode.as_str(), "" | "text");
    let xml = retmode == "xml";
    let fixture = match db.as_str() {
        "pubmed" => return efetch_pubmed(p, c, &rettype, &retmode),
        "pmc" => return efetch_pmc(p),
        "taxonomy" => TAXONOMY,
        "biosample" => BIOSAMPLE,
        "nlmcatalog" => JOURNALS,
        "nuccore" | "nucleotide" => match rettype.as_str() {
            "fasta" if xml => NUCLEOTIDE_TINYSEQ,
            "" | "gb" | "gbwithparts" if xml => NUCLEOTIDE_GBSEQ,
            "gb" | "gbwithparts" if text => GENBANK,
            "fasta" if text => NUCLEOTIDE_FASTA,
            _ => return no_format(&db, &rettype, &retmode),
        },
        "protein" => match rettype.as_str() {
            "ipg" => PROTEIN_IPG,
            "" | "gp" if xml => PROTEIN_GBSEQ,
            "gp" if text => GENPEPT,
            "fasta" if text => PROTEIN_FASTA,
            _ => return no_format(&db, &rettype, &retmode),
        },
        other => return Reply::no_recording(&format!("efetch db={other}")),
    };
    Reply::fixture(fixture)
}

/// The recorded article, or generated ones when every id is a synthetic PMCID
/// ([`synthetic_pmc`]).
fn efetch_pmc(p: &Params) -> Reply {
    let ids: Option<Vec<u64>> = p.ids().iter().map(|i| synthetic_pmc::number(i)).collect();
    match ids {
        Some(ids) if !ids.is_empty() => {
            let mut seen = std::collections::HashSet::new();
            let ids: Vec<u64> = ids.into_iter().filter(|n| seen.insert(*n)).collect();
            Reply::made(
                Kind::Xml,
                synthetic_pmc::articleset(&ids),
                "synthetic:efetch-pmc",
            )
        }
        _ => Reply::fixture(PMC),
    }
}

fn no_format(db: &str, rettype: &str, retmode: &str) -> Reply {
    Reply::no_recording(&format!(
        "efetch db={db} rettype={rettype} retmode={retmode}"
    ))
}

fn efetch_pubmed(p: &Params, c: &Ctx, rettype: &str, retmode: &str) -> Reply {
    let medline = rettype == "medline" && matches!(retmode, "" | "text");
    let xml = matches!(rettype, "" | "xml" | "full") && matches!(retmode, "" | "xml");
    if !medline && !xml {
        return no_format("pubmed", rettype, retmode);
    }
    let mut ids = unique_ids(&p.ids());
    // NCBI's retmax ceiling; it also keeps a synthetic answer near 200 MB.
    ids.truncate(synthetic::MAX_RETMAX as usize);
    if !p.ids().is_empty() {
        return if medline {
            fetch_medline(c.corpus, &ids)
        } else {
            fetch_xml(c.corpus, c.templates, &ids)
        };
    }
    let webenv = p.get("webenv").unwrap_or("");
    if webenv == synthetic::WEBENV && xml {
        let ids: Vec<u64> =
            synthetic::slice(p.number("retstart", 0), p.number("retmax", 20)).collect();
        return fetch_xml(c.corpus, c.templates, &ids);
    }
    if c.corpus.is_pubmed_webenv(webenv) {
        return Reply::fixture(if medline { MEDLINE1 } else { PUBMED1 });
    }
    lost_history(p, XML_DECLARATION, "eFetchResult")
}

fn elink(p: &Params, c: &Ctx) -> Reply {
    let dbfrom = db_or_pubmed(p, "dbfrom");
    let db = p.lower("db");
    for name in [&dbfrom, &db] {
        if !name.is_empty() && !c.corpus.is_db(name) {
            return invalid_db(ELINK1, "eLinkResult", name);
        }
    }
    let cmd = match p.lower("cmd") {
        c if c.is_empty() => "neighbor".to_string(),
        c => c,
    };
    let linkname = p.lower("linkname");
    if dbfrom == "pubmed" && cmd == "neighbor" && graph::direction(&linkname).is_some() {
        return citation_links(p, &linkname);
    }
    if p.lower("retmode") == "json" {
        return Reply::fixture(ELINK_JSON);
    }
    let pubmed_to_pubmed = dbfrom == "pubmed" && matches!(db.as_str(), "" | "pubmed");
    let dated = ["mindate", "maxdate", "reldate"].iter().any(|k| p.has(k));
    match cmd.as_str() {
        "prlinks" => Reply::fixture(ELINK5),
        "llinks" | "llinkslib" => Reply::fixture(ELINK6),
        "acheck" => Reply::fixture(ELINK7),
        "ncheck" => Reply::fixture(ELINK8),
        "neighbor" | "neighbor_score" => {
            if matches!(dbfrom.as_str(), "nuccore" | "nucleotide") && db == "protein" {
                Reply::fixture(ELINK2)
            } else if pubmed_to_pubmed && p.has("term") {
                Reply::fixture(ELINK4)
            } else if pubmed_to_pubmed && dated {
                Reply::fixture(ELINK3)
            } else if pubmed_to_pubmed {
                Reply::fixture(ELINK1)
            } else {
                Reply::no_recording(&format!("elink dbfrom={dbfrom} db={db}"))
            }
        }
        other => Reply::no_recording(&format!("elink cmd={other}")),
    }
}

/// References or citers of PubMed ids from the citation graph ([`graph`]), one LinkSet per
/// `id` parameter; an id that is not a number is NCBI's `<ERROR>`.
fn citation_links(p: &Params, linkname: &str) -> Reply {
    let groups: Option<Vec<Vec<u64>>> = p
        .id_groups()
        .iter()
        .map(|g| g.iter().map(|i| i.parse().ok()).collect())
        .collect();
    let json = p.lower("retmode") == "json";
    match groups {
        Some(groups) if !groups.is_empty() => {
            if json {
                let body = graph::elink_json(&groups, linkname);
                Reply::made(Kind::Json, body, "synthetic:elink-citations")
            } else {
                let body = graph::elink_xml(prolog_of(ELINK1, "eLinkResult"), &groups, linkname);
                Reply::made(Kind::Xml, body, "synthetic:elink-citations")
            }
        }
        _ => error(
            prolog_of(ELINK1, "eLinkResult"),
            "eLinkResult",
            "Empty id list - nothing todo",
        ),
    }
}

fn epost(p: &Params, c: &Ctx) -> Reply {
    let db = db_or_pubmed(p, "db");
    if !c.corpus.is_db(&db) {
        if db == "nothing" {
            return Reply::fixture(EPOST2);
        }
        // The recorded error with the caller's database name in it.
        let text = String::from_utf8_lossy(EPOST2.bytes).replacen(
            "specified: nothing",
            &format!("specified: {}", synthetic::xml_escape(&db)),
            1,
        );
        return Reply::made(Kind::Xml, text.into_bytes(), "eutils/epost2.xml+db");
    }
    let ids = p.ids();
    if ids.is_empty() {
        let prolog = prolog_of(EPOST3, "ePostResult");
        return error(prolog, "ePostResult", "Empty ID list; Nothing to store");
    }
    if ids.iter().all(|id| id.parse::<u64>().is_err()) {
        return Reply::fixture(EPOST3);
    }
    Reply::fixture(EPOST1)
}

fn espell(p: &Params, c: &Ctx) -> Reply {
    let db = db_or_pubmed(p, "db");
    if !c.corpus.is_db(&db) {
        return invalid_db(ESPELL, "eSpellResult", &db);
    }
    if db == "pubmed" {
        return Reply::fixture(ESPELL);
    }
    Reply::no_recording(&format!("espell db={db}"))
}
