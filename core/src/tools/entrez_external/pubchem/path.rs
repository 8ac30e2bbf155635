//! Reading a PUG REST path as PubChem's pages write it (`compound/cid/2244/property/XLogP/JSON?opt=v`)
//! into the parts of a request, for [`crate::tools::entrez_external::pubchem::read`] to check like the structured fields.
//!
//! The path is split at `/` and each segment decoded; which segments are the namespace,
//! the identifiers, an organism, the operation and the output is decided by the grammar's
//! tables, and identifiers PubChem lets a query argument carry (`?inchi=…`, T, "Special
//! Characters in the URL") are taken from there.

use crate::tools::entrez_external::pubchem::grammar;

use crate::tools::entrez_external::pubchem::grammar::Ids;

use crate::net::percent_decode;
use crate::tools::entrez_external::pubchem::grammar::Tail;
use crate::tools::entrez_external::pubchem::parts::problem;
use crate::tools::entrez_external::pubchem::parts::Parts;
use crate::tools::entrez_external::pubchem::parts::Problem;
use crate::tools::entrez_external::pubchem::parts::ProblemKind;
use serde_json::Value;

/// Reads `compound/cid/2244/property/XLogP/JSON?opt=v`, with or without PubChem's base URL.
pub(super) fn from_path(path: &str) -> Result<Parts, Vec<Problem>> {
    let bad = |m: String| vec![problem(ProblemKind::Path, "$.path", m)];
    let trimmed = path.trim();
    let rest = trimmed
        .find("/rest/pug/")
        .map(|i| &trimmed[i + "/rest/pug/".len()..])
        .unwrap_or(trimmed)
        .trim_start_matches('/');
    let (path_part, query) = rest.split_once('?').unwrap_or((rest, ""));
    let segs: Vec<String> = path_part
        .split('/')
        .filter(|s| !s.is_empty())
        .map(|s| percent_decode(s, false))
        .collect();
    let Some(domain) = segs.first().map(|d| d.to_ascii_lowercase()) else {
        return Err(bad(
            "The path is empty; it starts with a domain, e.g. compound/cid/2244/JSON.".into(),
        ));
    };
    let mut parts = Parts {
        domain: domain.clone(),
        from_path: true,
        ..Parts::default()
    };
    let mut i = 1;
    let next = |i: usize| segs.get(i).map(String::as_str);
    let is_tail_word = |s: &str| {
        grammar::operation(&domain, s).is_some_and(|o| !o.name.is_empty())
            || grammar::OUTPUTS.iter().any(|o| o.eq_ignore_ascii_case(s))
            || (domain == "classification" && grammar::is_classification_id_type(s))
    };
    // The namespace: one segment, or two for the two-part ones (fastsubstructure/smiles).
    if let Some(first) = next(i) {
        let row = grammar::namespace(&domain, first).or_else(|| grammar::namespace(&domain, ""));
        match row {
            Some(r) if r.name.is_empty() && !r.second.is_empty() => {
                parts.namespace.push(first.to_string());
                i += 1;
            }
            Some(r) if r.name.is_empty() => {}
            Some(r) => {
                parts.namespace.push(first.to_string());
                i += 1;
                if !r.second.is_empty() {
                    if let Some(s) = next(i) {
                        parts.namespace.push(s.to_string());
                        i += 1;
                    }
                }
            }
            None => return Err(bad(format!("\"{first}\" is not a namespace of {domain}."))),
        }
    }
    let row = grammar::namespace(
        &domain,
        parts.namespace.first().map(String::as_str).unwrap_or(""),
    );
    let ids = row.map(|r| r.ids);
    if matches!(ids, Some(Ids::SourceAndId | Ids::Source)) {
        parts.source = next(i).map(str::to_string);
        i += 1;
    }
    match ids {
        Some(Ids::Nothing | Ids::Source) | None => {}
        Some(Ids::Range) => {
            let n = if parts.namespace.get(1).is_some_and(|s| s == "range") {
                2
            } else {
                1
            };
            for _ in 0..n {
                if let Some(v) = next(i).filter(|s| !is_tail_word(s)) {
                    parts.identifiers.push(v.to_string());
                    i += 1;
                }
            }
        }
        Some(kind) => {
            // Identifiers may be missing from the path: POSTed, or given as a query argument.
            if let Some(v) = next(i).filter(|s| !is_tail_word(s)) {
                parts.identifiers = match kind {
                    Ids::One => vec![v.to_string()],
                    _ => v.split(',').map(|s| s.trim().to_string()).collect(),
                };
                i += 1;
            }
        }
    }
    if domain == "gene"
        && parts
            .namespace
            .first()
            .is_some_and(|n| n.eq_ignore_ascii_case("genesymbol"))
    {
        if let Some(o) = next(i).filter(|s| !is_tail_word(s)) {
            parts.organism = Some(o.to_string());
            i += 1;
        }
    }
    if let Some(op) =
        next(i).filter(|s| !grammar::OUTPUTS.iter().any(|o| o.eq_ignore_ascii_case(s)))
    {
        let mut data = op.to_string();
        i += 1;
        let tail = grammar::operation(&domain, op).map(|o| o.tail);
        match tail {
            Some(Tail::List(_)) => {
                if let Some(list) = next(i) {
                    data = format!("{data}/{list}");
                    i += 1;
                }
            }
            Some(Tail::OptionalSid) if next(i) == Some("sid") => {
                data.push_str("/sid");
                i += 1;
            }
            _ => {}
        }
        parts.data = Some(data);
    }
    if let Some(out) = next(i) {
        parts.output = Some(out.to_string());
        i += 1;
    }
    if let Some(extra) = next(i) {
        return Err(bad(format!(
            "\"{extra}\" comes after the output format; PUG REST paths end with it (<domain>/<namespace>/<identifiers>/<operation>/<output>)."
        )));
    }
    let input_key = row.map(|r| {
        if !r.second.is_empty() && !r.name.is_empty() {
            parts.namespace.get(1).cloned().unwrap_or_default()
        } else {
            r.name.to_string()
        }
    });
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let (k, v) = (percent_decode(k, true), percent_decode(v, true));
        // The identifier as a query argument named like the namespace (T, Special Characters).
        if parts.identifiers.is_empty() && input_key.as_deref() == Some(k.as_str()) {
            parts.identifiers = vec![v];
            continue;
        }
        parts
            .options
            .push((k, Value::String(v), "$.path".to_string()));
    }
    Ok(parts)
}
