//! What a caller should do when a reply could not be read, or NCBI said no in its body.
//!
//! The parsers ([`crate::parse`]) say what came back: an HTML page, a cut-off
//! document, NCBI's own error messages. Here each becomes the one error type,
//! with a stable code and the next step: retry, fix a database name, send
//! fewer ids, refresh a history session. NCBI's wording picks the advice
//! ([`advise`]), so "Too many UIDs" says how many a call takes and "rate
//! limit exceeded" is `rate_limited`, not an upstream failure.

use crate::error::{Error, ErrorKind};
use crate::json;
use crate::parse::{ParseError, ParseErrorKind, Said};

impl From<ParseError> for Error {
    fn from(e: ParseError) -> Error {
        let code = e.code();
        match e.kind {
            ParseErrorKind::Reported(said) => reported(e.message, &said),
            ParseErrorKind::TooLarge => Error::new(ErrorKind::LimitExceeded, e.message)
                .with_code(code)
                .suggest("Ask for fewer ids per request (retmax), or a summary (esummary) instead of full records."),
            _ => Error::new(ErrorKind::Upstream, e.message)
                .with_code(code)
                .suggest("Retry the request; if it keeps failing, check the database, rettype and retmode, or ask for retmode=text."),
        }
    }
}

/// The error for what NCBI said in a body, with the advice its words call for.
fn reported(message: String, said: &Said) -> Error {
    let mut kind = ErrorKind::Upstream;
    let mut code = "ncbi_error";
    let mut suggestions: Vec<&str> = Vec::new();
    for m in &said.messages {
        let advice = advise(m);
        if advice.code != "ncbi_error" {
            kind = advice.kind;
            code = advice.code;
        }
        for s in advice.suggestions {
            if !suggestions.contains(s) {
                suggestions.push(s);
            }
        }
    }
    let mut details = json!({ "ncbi_messages": said.messages });
    if said.count.is_some() || said.limit.is_some() {
        json::set(&mut details, "count", json!(said.count));
        json::set(&mut details, "limit", json!(said.limit));
    }
    let mut error = Error::new(kind, message)
        .with_code(code)
        .with_details(details);
    for s in suggestions {
        error = error.suggest(s);
    }
    error
}

/// The error for NCBI's own messages found where a result should be.
pub fn ncbi_error(messages: &[String]) -> Error {
    crate::parse::body_errors::ncbi_error(messages).into()
}

/// What a message means for the caller.
struct Advice {
    kind: ErrorKind,
    code: &'static str,
    suggestions: &'static [&'static str],
}

const DB_HINT: &str =
    "Check the db name: list the valid database names with entrez_query, operation \"info\".";
const HISTORY_HINT: &str = "Run esearch or epost again with usehistory=y and use the fresh webenv and query_key; history sessions expire.";

fn advise(message: &str) -> Advice {
    let m = message.to_ascii_lowercase();
    let has = |needles: &[&str]| needles.iter().any(|n| m.contains(n));
    let upstream = |suggestions| Advice {
        kind: ErrorKind::Upstream,
        code: "ncbi_error",
        suggestions,
    };
    if has(&["rate limit"]) {
        Advice {
            kind: ErrorKind::RateLimited,
            code: "rate_limited",
            suggestions: &[
                "Wait a second and retry: NCBI allows 3 requests per second without an API key and 10 with one.",
                "Configure an NCBI API key to raise the limit; system_api_key_status shows whether one is set.",
            ],
        }
    } else if has(&["too many uids", "maximum number of uids"]) {
        Advice {
            kind: ErrorKind::Upstream,
            code: "too_many_uids",
            suggestions: &[
                "Send at most 500 ids per JSON esummary, or use retmode xml, or split the ids into batches.",
                "For large sets, epost the ids once and page with webenv, query_key, retstart and retmax.",
            ],
        }
    } else if has(&["db name", "database"]) {
        upstream(&[DB_HINT])
    } else if has(&["empty term", "nothing todo"]) {
        upstream(&[
            "Give a non-empty term, or a webenv and query_key from an earlier esearch or epost.",
        ])
    } else if has(&[
        "empty id list",
        "neither query_key nor id",
        "nothing to store",
        "no ids",
    ]) {
        upstream(&[
            "Give at least one id, or a webenv and query_key from an earlier esearch or epost.",
        ])
    } else if has(&[
        "invalid value",
        "maximum id value",
        "invalid uid",
        "invalid id",
    ]) {
        upstream(&["Ids must be the database's numeric UIDs (PMIDs, GI numbers, ...); look accessions up with an esearch first."])
    } else if has(&["query_key", "webenv", "query #", "history"]) {
        upstream(&[HISTORY_HINT])
    } else if has(&[
        "backend",
        "temporarily",
        "timeout",
        "timed out",
        "try again",
        "unavailable",
    ]) {
        upstream(&["This is a transient failure on NCBI's side; retry in a few seconds, with smaller batches if it persists."])
    } else if has(&["term", "phrase", "syntax", "field"]) {
        upstream(&["Check the term's syntax and field tags; list a database's fields with entrez_query, operation \"info\"."])
    } else {
        upstream(&["Check db, ids and the other parameters against the E-utilities documentation; the quoted text is NCBI's own."])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advice_picks_specific_codes() {
        assert_eq!(advise("API rate limit exceeded").code, "rate_limited");
        assert_eq!(advise("Too many UIDs in request.").code, "too_many_uids");
        assert_eq!(advise("Invalid db name specified: x").code, "ncbi_error");
    }

    #[test]
    fn a_parse_error_keeps_its_code_and_gets_advice() {
        let e: Error = ParseError::unexpected("PubMed XML", "the body was empty")
            .of_kind(ParseErrorKind::Empty)
            .into();
        assert_eq!(
            (e.kind, e.code.as_str()),
            (ErrorKind::Upstream, "empty_response")
        );
        assert!(!e.suggestions.is_empty());
        let limited: Error = crate::parse::body_errors::body_error(
            br#"{"error":"API rate limit exceeded","count":"4","limit":"3"}"#,
            Some("application/json"),
        )
        .unwrap()
        .into();
        assert_eq!(limited.kind, ErrorKind::RateLimited);
        assert_eq!(limited.details.as_ref().unwrap()["limit"], 3);
    }
}
