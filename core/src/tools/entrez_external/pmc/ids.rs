//! Article ids for `entrez_external`'s PMC operations: PMCIDs, PMIDs, DOIs and manuscript ids.
//!
//! The PMC services fail quietly on the wrong kind of id: the ID Converter answers "invalid
//! article id" when ids do not match `idtype`, the OA service looks a PMID up as a PMCID, the
//! citation exporter finds nothing for a PMCID sent to its pubmed database; each reads like
//! "this article does not exist". These rules name the kind each id is and the call that
//! would work. What is accepted mirrors the request builder,
//! [`crate::tools::entrez_external::pmc::plan`], so a call passing here is never refused there.

use crate::tools::entrez_external::pmc::args::PmcArgs;
use crate::tools::entrez_external::pmc::call::IdType;
use crate::validation::{codes, item_path, path, Report};
use std::collections::HashMap;

/// The ID Converter's limit per request.
pub const IDCONV_MAX: usize = 200;
/// oa_service and citation_export send one request per id; the schema allows this many per call.
pub const PER_ID_MAX: usize = 20;
/// Per-id findings listed before the rest are counted, so one report stays readable.
const MAX_LISTED: usize = 20;

/// The kind an id's shape proves, or `None` when it has no known shape.
pub fn kind(id: &str) -> Option<IdType> {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if let Some(n) = pmcid_number(id) {
        // A version suffix (PMC3531190.1) is a PMCID too; the ID Converter reads it.
        let base = match n.split_once('.') {
            Some((base, v)) if digits(v) => base,
            Some(_) => "",
            None => n,
        };
        if digits(base) {
            return Some(IdType::Pmcid);
        }
    }
    if digits(id) {
        return Some(IdType::Pmid);
    }
    if is_doi(id) {
        return Some(IdType::Doi);
    }
    let letters = id.bytes().take_while(u8::is_ascii_alphabetic).count();
    let number = &id[letters..];
    let prefix = id[..letters].to_ascii_uppercase();
    ((2..=8).contains(&letters) && prefix != "PMC" && digits(number)).then_some(IdType::Mid)
}

/// What follows a case-insensitive `PMC` prefix.
fn pmcid_number(id: &str) -> Option<&str> {
    id.get(..3)
        .filter(|p| p.eq_ignore_ascii_case("PMC"))
        .map(|_| &id[3..])
}

/// `10.<registrant digits, dotted>/<suffix>`, the DOI handbook's shape.
fn is_doi(id: &str) -> bool {
    let Some((prefix, suffix)) = id.split_once('/') else {
        return false;
    };
    let registrant = prefix.strip_prefix("10.").unwrap_or("");
    !registrant.is_empty()
        && registrant
            .split('.')
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        && registrant.len() >= 4
        && !suffix.is_empty()
        && !id.chars().any(char::is_whitespace)
}

fn describe(t: IdType) -> &'static str {
    match t {
        IdType::Pmcid => "a PMCID",
        IdType::Pmid => "a PMID",
        IdType::Doi => "a DOI",
        IdType::Mid => "a manuscript id",
    }
}

fn rule(t: IdType) -> &'static str {
    match t {
        IdType::Pmcid => "PMC followed by digits, e.g. PMC3531190",
        IdType::Pmid => "digits, e.g. 23193287",
        IdType::Doi => "10.<registrant>/<suffix>, e.g. 10.1093/nar/gks1195",
        IdType::Mid => "letters then digits, e.g. NIHMS311352",
    }
}

/// The DOI inside a resolver URL or a `doi:` label, for the fix.
fn bare_doi(id: &str) -> Option<&str> {
    let at = id.find("10.")?;
    is_doi(&id[at..]).then(|| &id[at..])
}

/// One problem with one id.
struct Bad {
    code: &'static str,
    message: String,
    fix: Option<String>,
}

fn bad(code: &'static str, message: String, fix: Option<String>) -> Option<Bad> {
    Some(Bad { code, message, fix })
}

/// An id of no known shape, with the fix for a DOI URL when it is one.
fn unknown(id: &str, expected: &str) -> Option<Bad> {
    if let Some(doi) = bare_doi(id) {
        return bad(
            codes::INVALID_ID,
            format!("\"{id}\" wraps the DOI {doi} in a URL or label; send the DOI alone."),
            Some(format!("Replace \"{id}\" with \"{doi}\".")),
        );
    }
    if id.is_empty() {
        return bad(
            codes::INVALID_ID,
            "An empty id; remove it.".into(),
            Some("Remove the empty id from ids.".into()),
        );
    }
    bad(
        codes::INVALID_ID,
        format!("\"{id}\" is not {expected}."),
        Some("Give PMCIDs (PMC3531190), PMIDs (23193287), DOIs (10.1093/nar/gks1195) or manuscript ids (NIHMS311352) as the operation takes them.".into()),
    )
}

/// Runs `one` on every id, with duplicate warnings and a readable cap; returns the trimmed ids.
fn each(
    args: &PmcArgs,
    report: &mut Report,
    mut one: impl FnMut(&str) -> Option<Bad>,
) -> Vec<(usize, String)> {
    let list: Vec<(usize, String)> = args
        .ids
        .iter()
        .map(|(i, s)| (*i, s.trim().to_string()))
        .collect();
    let mut seen: HashMap<String, usize> = HashMap::new();
    let (mut listed, mut more) = (0, Vec::new());
    for (i, id) in &list {
        let at = item_path("ids", *i);
        if let Some(first) = seen.get(&id.to_ascii_uppercase()) {
            report.warn(
                codes::DUPLICATE_ID,
                &at,
                format!(
                    "\"{id}\" is also given at {}; it is looked up once.",
                    item_path("ids", *first)
                ),
            );
            continue;
        }
        seen.insert(id.to_ascii_uppercase(), *i);
        let Some(b) = one(id) else { continue };
        listed += 1;
        if listed > MAX_LISTED {
            more.push(b.code);
            continue;
        }
        if codes::ERRORS.contains(&b.code) {
            report.error(b.code, &at, b.message);
        } else {
            report.warn(b.code, &at, b.message);
        }
        if let Some(fix) = b.fix {
            report.suggest(fix);
        }
    }
    let m = format!(
        "{} more ids with problems like those listed; fix those and validate again.",
        more.len()
    );
    // An error among the unlisted ids must still make the call invalid.
    match more.iter().copied().find(|c| codes::ERRORS.contains(c)) {
        Some(code) => report.error(code, path("ids"), m),
        None if !more.is_empty() => report.warn(more[0], path("ids"), m),
        None => {}
    }
    list
}

fn too_many(count: usize, max: usize, what: &str, report: &mut Report) {
    if count > max {
        report.error(
            codes::TOO_MANY_IDS,
            path("ids"),
            format!("{count} ids given; {what} takes at most {max} per call."),
        );
        report.suggest(format!("Split the ids into calls of at most {max}."));
    }
}

/// The semantic check of a PMC operation.
pub fn check(op: &str, args: &PmcArgs, given: &[String], report: &mut Report) {
    let has = |name: &str| given.iter().any(|g| g == name);
    match op {
        "id_convert" => {
            if let Some(t) = id_convert(args, report) {
                if args.idtype.is_none() {
                    report.warn(
                        codes::DEFAULT_CHOSEN,
                        path("idtype"),
                        format!("No idtype given: this server reads the ids as {} and sends idtype={}, where NCBI would detect the type itself (and turns some DOIs away).", t.as_str(), t.as_str()),
                    );
                }
            }
            if args.format.is_none() {
                report.warn(
                    codes::FORMAT_CHOSEN,
                    path("format"),
                    "No format given: this server asks the ID Converter for format=json (read into records) rather than its default, XML; set format xml or csv for the service's own text.",
                );
            }
        }
        "oa_service" if !has("ids") => oa_listing(args, given, report),
        "full_text" => {
            let list = each(args, report, full_text_id);
            too_many(list.len(), PER_ID_MAX, "full_text", report);
        }
        "bioc" => {
            let list = each(args, report, bioc_id);
            too_many(list.len(), PER_ID_MAX, "bioc", report);
        }
        "oa_service" => {
            for (key, given) in [
                ("from", &args.from),
                ("until", &args.until),
                ("resumption_token", &args.resumption_token),
            ] {
                if given.is_some() {
                    report.warn(
                        codes::IGNORED_PARAMETER,
                        path(key),
                        format!("{key} lists records by date; with ids, each id is looked up and {key} is not sent."),
                    );
                }
            }
            let list = each(args, report, oa_id);
            too_many(list.len(), PER_ID_MAX, "oa_service", report);
        }
        _ => citation_export(args, report),
    }
}

/// Checks an ID Converter call's ids; the id type it will send, when one is declared or detected.
fn id_convert(args: &PmcArgs, report: &mut Report) -> Option<IdType> {
    let declared = args.idtype.as_deref().and_then(IdType::parse);
    let mut others: Vec<IdType> = Vec::new();
    let mut matched = 0;
    let list = each(args, report, |id| {
        let found = kind(id);
        let Some(want) = declared else {
            return match found {
                Some(_) => None,
                None => unknown(id, "a PMCID, PMID, DOI or manuscript id"),
            };
        };
        // A declared pmcid may drop the prefix: the converter reads 3531190 as PMC3531190.
        if found == Some(want) || (want == IdType::Pmcid && found == Some(IdType::Pmid)) {
            matched += 1;
            return None;
        }
        match found {
            Some(other) => {
                others.push(other);
                bad(
                    codes::IDTYPE_MISMATCH,
                    format!(
                        "\"{id}\" is {}, but idtype is {}; the ID Converter would answer \"invalid article id\".",
                        describe(other),
                        want.as_str()
                    ),
                    None,
                )
            }
            None => unknown(id, &format!("{} ({})", describe(want), rule(want))),
        }
    });
    too_many(list.len(), IDCONV_MAX, "the PMC ID Converter", report);
    if let Some(want) = declared {
        if let Some(first) = others.first().copied() {
            let one_type = others.iter().all(|t| *t == first);
            report.suggest(if one_type && matched == 0 {
                format!("Set idtype to \"{}\" (or omit it: the type is detected from the ids).", first.as_str())
            } else {
                format!(
                    "Keep only {} ids in this call (idtype {}) and convert the others in a call per type.",
                    want.as_str(),
                    want.as_str()
                )
            });
        }
        return Some(want);
    }
    let mut groups: Vec<(IdType, Vec<&str>)> = Vec::new();
    for (_, id) in &list {
        if let Some(t) = kind(id) {
            match groups.iter_mut().find(|(g, _)| *g == t) {
                Some((_, ids)) => ids.push(id),
                None => groups.push((t, vec![id])),
            }
        }
    }
    if groups.len() > 1 {
        let parts: Vec<String> = groups
            .iter()
            .map(|(t, ids)| format!("{} {} id(s) (e.g. {})", ids.len(), t.as_str(), ids[0]))
            .collect();
        report.error(
            codes::MIXED_ID_TYPES,
            path("ids"),
            format!(
                "The ids mix {}; the ID Converter takes one id type per call.",
                parts.join(" and ")
            ),
        );
        let calls: Vec<String> = groups
            .iter()
            .map(|(t, ids)| {
                let shown: Vec<&str> = ids.iter().take(3).copied().collect();
                let more = if ids.len() > 3 { ", ..." } else { "" };
                format!(
                    "{{\"idtype\": \"{}\", \"ids\": {:?}{more}}}",
                    t.as_str(),
                    shown
                )
            })
            .collect();
        report.suggest(format!("Make one call per type: {}.", calls.join(" and ")));
        return None;
    }
    groups.first().map(|(t, _)| *t)
}

/// An OA listing: dates with a resumption token say two different things.
fn oa_listing(args: &PmcArgs, given: &[String], report: &mut Report) {
    if args.resumption_token.is_some() {
        for key in ["from", "until", "format"] {
            if given.iter().any(|g| g == key) {
                report.warn(
                    codes::IGNORED_PARAMETER,
                    path(key),
                    format!(
                        "A resumption_token names its page by itself; {key} is not sent with it."
                    ),
                );
            }
        }
    }
}

/// The BioC API takes a PMID or a PMCID.
fn bioc_id(id: &str) -> Option<Bad> {
    match kind(id) {
        Some(IdType::Pmcid | IdType::Pmid) => None,
        Some(other) => bad(
            codes::INVALID_ID,
            format!(
                "\"{id}\" is {}; the BioC API takes PMIDs and PMCIDs.",
                describe(other)
            ),
            Some(format!(
                "Convert it first: operation id_convert with ids [\"{id}\"]."
            )),
        ),
        None => unknown(id, "a PMID or PMCID"),
    }
}

fn full_text_id(id: &str) -> Option<Bad> {
    match kind(id) {
        Some(IdType::Pmcid | IdType::Pmid | IdType::Doi) => None,
        Some(other) => bad(
            codes::INVALID_ID,
            format!(
                "\"{id}\" is {}; full_text takes PMIDs, PMCIDs and DOIs.",
                describe(other)
            ),
            Some(format!(
                "Convert it first: operation id_convert with ids [\"{id}\"]."
            )),
        ),
        None => unknown(id, "a PMID, PMCID or DOI"),
    }
}

fn oa_id(id: &str) -> Option<Bad> {
    match kind(id) {
        Some(IdType::Pmcid) if id.contains('.') => bad(
            codes::INVALID_ID,
            format!("\"{id}\" carries a version; the OA service takes the PMCID without it."),
            id.split_once('.')
                .map(|(base, _)| format!("Send \"{base}\" instead.")),
        ),
        Some(IdType::Pmcid) => None,
        Some(IdType::Pmid) => bad(
            codes::AMBIGUOUS_ID,
            format!("\"{id}\" is read as PMC{id}; if it is a PMID, its PMCID may differ."),
            Some(format!(
                "If {id} is a PMID, convert it first: operation id_convert with ids [\"{id}\"]."
            )),
        ),
        Some(other) => bad(
            codes::INVALID_ID,
            format!(
                "\"{id}\" is {}; the OA service takes PMCIDs only.",
                describe(other)
            ),
            Some(format!(
                "Convert it to a PMCID first: operation id_convert with ids [\"{id}\"]."
            )),
        ),
        None => unknown(id, "a PMCID (PMC followed by digits, e.g. PMC3531190)"),
    }
}

/// The database the exporter will use, as `plan::citation_database` decides it.
fn citation_export(args: &PmcArgs, report: &mut Report) {
    let given = match args.database.as_deref() {
        Some("pmc") => Some("pmc"),
        Some("pubmed") => Some("pubmed"),
        _ => None,
    };
    let raw: Vec<String> = args.ids.iter().map(|(_, s)| s.trim().to_string()).collect();
    let pmc = |id: &String| kind(id) == Some(IdType::Pmcid);
    let derived = if !raw.is_empty() && raw.iter().all(pmc) {
        "pmc"
    } else {
        "pubmed"
    };
    let mixed = given.is_none() && raw.iter().any(pmc) && raw.iter().any(|i| !pmc(i));
    let database = given.unwrap_or(derived);
    let list = each(args, report, |id| {
        let found = kind(id);
        let ok = match database {
            "pmc" => matches!(found, Some(IdType::Pmcid | IdType::Pmid)) && !id.contains('.'),
            _ => found == Some(IdType::Pmid),
        };
        if ok || (mixed && found == Some(IdType::Pmcid)) {
            return None;
        }
        match found {
            Some(IdType::Pmcid) if id.contains('.') => bad(
                codes::INVALID_ID,
                format!("\"{id}\" carries a version; the citation exporter takes the PMCID without it."),
                None,
            ),
            Some(IdType::Pmcid) => bad(
                codes::IDTYPE_MISMATCH,
                format!("\"{id}\" is a PMCID, but database is pubmed, which exports by PMID."),
                Some("Set database to \"pmc\" for PMCIDs (or omit database when every id is a PMCID).".into()),
            ),
            Some(other @ (IdType::Doi | IdType::Mid)) => bad(
                codes::INVALID_ID,
                format!("\"{id}\" is {}; the citation exporter takes PMIDs or PMCIDs.", describe(other)),
                Some(format!("Convert it first: operation id_convert with ids [\"{id}\"].")),
            ),
            _ => unknown(id, "a PMID (digits, e.g. 23193287) or a PMCID (e.g. PMC3531190)"),
        }
    });
    if mixed {
        report.error(
            codes::MIXED_ID_TYPES,
            path("ids"),
            "The ids mix PMIDs and PMCIDs; without database the exporter reads them all as PMIDs, and a PMCID is no PMID.",
        );
        report.suggest("Export PMIDs with database \"pubmed\" and PMCIDs with database \"pmc\", in separate calls.");
    }
    too_many(list.len(), PER_ID_MAX, "citation_export", report);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_by_shape() {
        assert_eq!(kind("PMC3531190"), Some(IdType::Pmcid));
        assert_eq!(kind("pmc3531190"), Some(IdType::Pmcid));
        assert_eq!(kind("PMC3531190.1"), Some(IdType::Pmcid));
        assert_eq!(kind("23193287"), Some(IdType::Pmid));
        assert_eq!(kind("10.1093/nar/gks1195"), Some(IdType::Doi));
        assert_eq!(kind("NIHMS311352"), Some(IdType::Mid));
        assert_eq!(kind("EMS48932"), Some(IdType::Mid));
        assert_eq!(kind("PMC"), None);
        assert_eq!(kind("PMCabc"), None);
        assert_eq!(kind("10.1/x"), None);
        assert_eq!(kind("https://doi.org/10.1093/nar/gks1195"), None);
        assert_eq!(
            bare_doi("https://doi.org/10.1093/nar/gks1195"),
            Some("10.1093/nar/gks1195")
        );
        assert_eq!(kind("aspirin"), None);
    }
}
