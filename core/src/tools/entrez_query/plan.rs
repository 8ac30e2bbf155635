//! From a typed `entrez_query` call to E-utilities requests, as pure data. The call already
//! holds every default ([`crate::tools::entrez_query::defaults`]); the plan sends what it
//! holds, history-server pairs in place of id lists wherever NCBI accepts them.

use crate::allowance::{Allowance, Need, CPU_US_PER_YEAR, CPU_US_TO_DRAW};
use crate::entrez::{EutilsRequest, Utility};
use crate::tools::entrez_query::call::{
    CitationMatch, CountByYear, Dates, Fetch, GlobalQuery, Info, Link, LinkMode, Post, Records,
    ReplyMode, Search, Spell, Summary, Version,
};

pub use crate::parse::records::Format;
/// The format each database is fetched in (one of the defaults).
pub use crate::tools::entrez_query::defaults::fetch_format;

/// Adds `id=` or the `WebEnv`/`query_key` pair (and its page, when it has one).
fn with_records(req: EutilsRequest, records: &Records) -> EutilsRequest {
    match records {
        Records::Ids { ids } => req.param("id", ids.join(",")),
        Records::History {
            webenv,
            query_key,
            retstart,
            retmax,
        } => req
            .param("WebEnv", webenv)
            .param("query_key", query_key.to_string())
            .opt("retstart", retstart.map(|n| n.to_string()))
            .opt("retmax", retmax.map(|n| n.to_string())),
    }
}

fn with_dates(req: EutilsRequest, dates: &Dates) -> EutilsRequest {
    req.opt("datetype", dates.datetype.as_deref())
        .opt("mindate", dates.mindate.as_deref())
        .opt("maxdate", dates.maxdate.as_deref())
        .opt("reldate", dates.reldate.map(|d| d.to_string()))
}

/// `version=2.0` when the call asks for it; nothing for NCBI's own 1.0.
fn with_version(req: EutilsRequest, version: Option<Version>) -> EutilsRequest {
    req.opt("version", (version == Some(Version::V2)).then_some("2.0"))
}

/// `retmode=json` when the call asks for JSON; XML is NCBI's default.
fn with_reply_mode(req: EutilsRequest, mode: ReplyMode) -> EutilsRequest {
    req.opt("retmode", (mode == ReplyMode::Json).then_some("json"))
}

/// einfo: all databases, or one database's fields and links.
pub fn info(call: &Info) -> EutilsRequest {
    let req = EutilsRequest::new(Utility::Info).opt("db", call.database.as_deref());
    with_reply_mode(with_version(req, call.version), call.retmode)
}

/// esearch with every documented option.
pub fn search(call: &Search) -> EutilsRequest {
    let mut req = EutilsRequest::new(Utility::Search)
        .param("db", &call.database)
        .opt("term", call.term.as_deref())
        .opt("WebEnv", call.webenv.as_deref())
        .opt("query_key", call.query_key.map(|k| k.to_string()))
        .opt("field", call.field.as_deref())
        .opt("sort", call.sort.as_deref());
    req = with_dates(req, &call.dates)
        .param("retstart", call.retstart.to_string())
        .param("retmax", call.retmax.to_string())
        .opt("idtype", call.idtype.as_deref())
        .opt("rettype", call.rettype.as_deref());
    if call.usehistory {
        req = req.param("usehistory", "y");
    }
    with_reply_mode(req, call.retmode)
}

/// esummary; JSON unless the caller asks for XML (then docsum version 2.0 unless 1.0 is asked for).
pub fn summary(call: &Summary) -> EutilsRequest {
    let req = with_records(
        EutilsRequest::new(Utility::Summary).param("db", &call.database),
        &call.records,
    );
    with_reply_mode(with_version(req, call.version), call.retmode)
}

/// efetch in the format the call was read with.
pub fn fetch(call: &Fetch) -> EutilsRequest {
    let req = EutilsRequest::new(Utility::Fetch).param("db", &call.database);
    let req = match &call.records {
        Records::Ids { ids } => req.param("id", ids.join(",")),
        Records::History {
            webenv, query_key, ..
        } => req
            .param("WebEnv", webenv)
            .param("query_key", query_key.to_string()),
    };
    let region = &call.region;
    let req = req
        .opt("rettype", call.rettype.as_deref())
        .param("retmode", &call.retmode)
        .opt("seq_start", region.seq_start.map(|n| n.to_string()))
        .opt("seq_stop", region.seq_stop.map(|n| n.to_string()))
        .opt("strand", region.strand.map(|n| n.to_string()))
        .opt("complexity", region.complexity.map(|n| n.to_string()));
    match &call.records {
        Records::History {
            retstart, retmax, ..
        } => req
            .opt("retstart", retstart.map(|n| n.to_string()))
            .opt("retmax", retmax.map(|n| n.to_string())),
        Records::Ids { .. } => req,
    }
}

/// elink with its command: XML unless JSON or (prlinks) ref is asked for; `by_id` sends each
/// id as its own `id=`, which NCBI answers with one link set per id (NBK25499, ELink: id).
pub fn link(call: &Link) -> EutilsRequest {
    let req = EutilsRequest::new(Utility::Link)
        .param("dbfrom", &call.dbfrom)
        .opt("db", call.database.as_deref())
        .param("cmd", &call.cmd)
        .opt("linkname", call.linkname.as_deref())
        .opt("term", call.term.as_deref())
        .opt("holding", call.holding.as_deref())
        .opt("idtype", call.idtype.as_deref());
    let req = match &call.records {
        Records::Ids { ids } if call.by_id => ids.iter().fold(req, |r, id| r.param("id", id)),
        records => with_records(req, records),
    };
    let req = with_dates(req, &call.dates);
    match call.retmode {
        LinkMode::Xml => req,
        LinkMode::Json => req.param("retmode", "json"),
        LinkMode::Ref => req.param("retmode", "ref").redirect_is_answer(),
    }
}

/// epost of ids to the history server.
pub fn post(call: &Post) -> EutilsRequest {
    EutilsRequest::new(Utility::Post)
        .param("db", &call.database)
        .param("id", call.ids.join(","))
        .opt("WebEnv", call.webenv.as_deref())
}

/// espell.
pub fn spell(call: &Spell) -> EutilsRequest {
    EutilsRequest::new(Utility::Spell)
        .param("db", &call.database)
        .opt("term", call.term.as_deref())
}

/// ecitmatch: one `journal|year|volume|first_page|author|key|` line per citation.
pub fn citation_match(call: &CitationMatch) -> EutilsRequest {
    let lines: Vec<String> = call
        .citations
        .iter()
        .map(|c| {
            format!(
                "{}|{}|{}|{}|{}|{}|",
                c.journal, c.year, c.volume, c.first_page, c.author, c.key
            )
        })
        .collect();
    EutilsRequest::new(Utility::CitMatch)
        .param("db", "pubmed")
        .opt("retmode", call.retmode.as_deref())
        .opt("rettype", call.rettype.as_deref())
        .param("bdata", lines.join("\r"))
}

/// Most years one count_by_year call counts (one esearch each).
pub const MAX_YEARS: u32 = 50;
/// Years one count_by_year call may count under `allowance`: [`MAX_YEARS`], or what fits, one
/// NCBI request a year counted at every attempt the client may make, and the chart drawn
/// ([`CPU_US_PER_YEAR`], [`CPU_US_TO_DRAW`]). The Workers Free plan's 50 subrequests and
/// 10 ms: 12 years. At least one.
pub fn years_per_call(allowance: &Allowance) -> u32 {
    let attempts = crate::net::retry::RetryPolicy::default().max_attempts;
    let year = Need::cpu_us(CPU_US_TO_DRAW, CPU_US_PER_YEAR).requests(0, 1, attempts);
    allowance.fits(&year).clamp(1, u64::from(MAX_YEARS)) as u32
}

/// One count-only esearch per year, the term limited to the year's publication date
/// (`(term) AND YYYY[pdat]`), oldest first.
pub fn count_by_year(call: &CountByYear) -> Vec<(u32, EutilsRequest)> {
    let (Some(from), Some(to)) = (call.from, call.to) else {
        return Vec::new();
    };
    (from..=to)
        .map(|year| {
            let req = EutilsRequest::new(Utility::Search)
                .param("db", &call.database)
                .param("term", year_term(&call.term, year))
                .param("rettype", "count");
            (year, req)
        })
        .collect()
}

/// The term count_by_year searches for `year`.
pub fn year_term(term: &str, year: u32) -> String {
    format!("({term}) AND {year}[pdat]")
}

/// One count-only esearch per database, the documented replacement for EGQuery.
pub fn global_query(call: &GlobalQuery) -> Vec<(String, EutilsRequest)> {
    call.databases
        .iter()
        .map(|db| {
            let req = EutilsRequest::new(Utility::Search)
                .param("db", db)
                .param("term", &call.term)
                .param("rettype", "count");
            (db.clone(), req)
        })
        .collect()
}

#[cfg(test)]
mod years_tests {
    use super::*;

    #[test]
    fn the_free_plan_counts_twelve_years_a_call_and_the_paid_plan_fifty() {
        let limits = |cpu_budget_ms, subrequests| Allowance {
            cpu_budget_ms,
            subrequests,
        };
        assert_eq!(years_per_call(&limits(10, 50)), 12);
        assert_eq!(years_per_call(&Allowance::default()), MAX_YEARS);
        // CPU alone: 10 ms with plenty of subrequests affords 45 years (8 ms planned).
        assert_eq!(years_per_call(&limits(10, 10_000)), 45);
        assert_eq!(years_per_call(&limits(1, 1)), 1);
    }
}
